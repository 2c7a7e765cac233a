"""Evaluating Socratic instructors: the runner task (solver and scorer), two reference baselines, and the paper's
numbers.

The solver asks an instructor for the utterances of one example and records them with the raw model text, the leak
guard's verdict on each, the example's reference utterances and the references of its baseline partner, so every
record can be re-scored and audited on its own. The scorer then writes each example's precision, recall and F1 per
metric into the record, for the instructor and for two reference baselines computed on the same example:

- ``constant``: the same three generic questions (:data:`GENERIC_QUESTIONS`) at every turn;
- ``mismatched``: the instructor's own predictions scored against another problem's references, the problem chosen
  by a fixed, seeded derangement of the problems (:func:`mismatched_partners`).

A score means something only by its distance above these, so the summary gives each baseline's scores and the
instructor's margin over it (a paired bootstrap interval of the per-example F1 differences). Score names in the
records are ``<metric>_<precision|recall|f1>`` for the instructor and ``...@constant`` / ``...@mismatched`` for the
baselines; ``debugtutor runs report`` rebuilds every mean from them. ``score`` scores predictions made elsewhere (a
JSONL file, or a run's ``samples.jsonl``) the same way.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from debugtutor.data.checksum import dataset_checksum
from debugtutor.errors import InputError
from debugtutor.formats.jsonl import read_jsonl
from debugtutor.metrics import PairScorer, bootstrap_mean, get_pair_scorer, match_examples
from debugtutor.runs import EvalItem, EvalTask, PublishedMetric, SampleRecord, SolverOutput
from debugtutor.socratic.dataset import EvaluationExample, build_examples, load_dialogues
from debugtutor.socratic.instructors import Instructor
from debugtutor.socratic.leak import LeakGuard

TASK_NAME = "socratic"
TASK_VERSION = "2"
METRIC_NAMES: tuple[str, ...] = ("rougeL", "bleu4", "bertscore", "bleu4-smooth", "embedding-cosine")
DEFAULT_METRICS: tuple[str, ...] = ("rougeL", "bleu4", "bertscore")

# SIGCSE'24 (Al-Hossami et al., "Can Language Models Employ the Socratic Method?"), Table 2: GPT-4 zero-shot, all
# utterances, bipartite-matching F1 in percent, on the paper's own test set (v2 testset, not in ../shared/data), with
# BERTScore computed by microsoft/deberta-xlarge-mnli. Our BERTScore default is MiniLM, so that row compares unlike
# models; ROUGE-L and BLEU-4 are computed as the paper does.
PAPER_SYSTEM = "GPT-4 zero-shot (SIGCSE'24 Table 2, its test set)"
PAPER_SOURCE = (
    "Al-Hossami et al., SIGCSE 2024, Table 2: bipartite-matching F1 on the paper's test set; "
    "its BERTScore uses deberta-xlarge-mnli"
)
PAPER_F1 = {"rougeL": 17.6, "bleu4": 3.6, "bertscore": 45.2}
# The constant baseline: three questions any tutor could ask of any program, fixed before looking at any score.
GENERIC_QUESTIONS: tuple[str, ...] = (
    "Can you explain what your code is supposed to do?",
    "What happens when you run your code on the failing test?",
    "Which line do you think is causing the problem?",
)
BASELINES: tuple[str, ...] = ("constant", "mismatched")
MISMATCH_SEED = 0
_PARTS = ("precision", "recall", "f1")
_METRIC_LABELS = {
    "rougeL": "ROUGE-L F1",
    "bleu4": "BLEU-4 F1",
    "bertscore": "BERTScore F1",
    "bleu4-smooth": "BLEU-4 (smoothed) F1",
    "embedding-cosine": "Embedding cosine F1",
}


def parse_metric_names(text: str | Sequence[str]) -> list[str]:
    """``"rougeL,bleu4"`` -> ``["rougeL", "bleu4"]``, checked against :data:`METRIC_NAMES`."""
    names = [part.strip() for part in (text.split(",") if isinstance(text, str) else text) if part.strip()]
    if not names:
        raise InputError("no metric named", field="metrics", hint=", ".join(METRIC_NAMES))
    for name in names:
        if name not in METRIC_NAMES:
            raise InputError(f"unknown metric {name!r}", field="metrics", hint=f"choose from {', '.join(METRIC_NAMES)}")
    return list(dict.fromkeys(names))


def load_examples(
    data: Path, *, dedup: bool = False, parser: str = "original", lenient: bool = False
) -> list[EvaluationExample]:
    """Evaluation examples of a folder of benchmark files (the original procedure by default)."""
    return build_examples(load_dialogues(data, lenient=lenient), parser=parser, dedup=dedup)


def leak_guard_for(example: EvaluationExample) -> LeakGuard:
    """The guard for an example's bug: its buggy code and fixes; the problem and tests are what the student sees."""
    return LeakGuard(example.bug_code, list(example.bug_fixes), context=example.problem + "\n" + example.unit_tests)


def example_item(example: EvaluationExample) -> EvalItem:
    """A runner item: the whole example is the input (so resume notices changed data), the references the target."""
    payload = asdict(example)
    references = payload.pop("references")
    return EvalItem(
        id=example.id,
        input=payload,
        target=references,
        metadata={"dialogue": example.dialogue, "turn_index": example.turn_index},
    )


def _problem_order(problem_id: str) -> tuple[int, int | str]:
    return (0, int(problem_id)) if problem_id.isdigit() else (1, problem_id)


def mismatched_partners(
    examples: Sequence[EvaluationExample], *, seed: int = MISMATCH_SEED
) -> dict[str, EvaluationExample]:
    """Each example's baseline partner: an example of another problem, by a fixed seeded derangement of problems.

    The problems are shuffled (seeded) until none maps to itself; the k-th example of problem p is paired with
    the (k mod size)-th example of p's image. With fewer than two problems there is no partner.
    """
    by_problem: dict[str, list[EvaluationExample]] = {}
    for example in examples:
        by_problem.setdefault(example.problem_id, []).append(example)
    problems = sorted(by_problem, key=_problem_order)
    if len(problems) < 2:
        return {}
    rng = random.Random(seed)
    image = list(problems)
    while any(a == b for a, b in zip(problems, image)):
        rng.shuffle(image)
    target = dict(zip(problems, image))
    partners: dict[str, EvaluationExample] = {}
    for problem, members in by_problem.items():
        other = by_problem[target[problem]]
        for k, example in enumerate(members):
            partners[example.id] = other[k % len(other)]
    return partners


class SocraticSolver:
    """Runner solver: the instructor's utterances for one item, with the raw model text, the leak verdicts, and the
    references the scorer needs (so the record alone can be re-scored)."""

    def __init__(
        self,
        instructor: Instructor,
        examples: Sequence[EvaluationExample],
        partners: Mapping[str, EvaluationExample] | None = None,
    ) -> None:
        self.instructor = instructor
        self.examples = {example.id: example for example in examples}
        self.partners = dict(partners if partners is not None else mismatched_partners(examples))
        self._guards: dict[str, LeakGuard] = {}

    def _guard(self, example: EvaluationExample) -> LeakGuard:
        key = f"{example.bug_id}\x00{example.dialogue}"
        if key not in self._guards:
            self._guards[key] = leak_guard_for(example)
        return self._guards[key]

    async def __call__(self, item: EvalItem) -> SolverOutput:
        example = self.examples[item.id]
        prediction = await self.instructor.predict(example)
        guard = self._guard(example)
        leaks = [list(guard.check(u).reasons) for u in prediction.utterances]
        output: dict[str, Any] = {
            "predictions": prediction.utterances,
            "raw": prediction.raw,
            "leaks": leaks,
            "references": list(example.references),
        }
        partner = self.partners.get(example.id)
        if partner is not None:
            output["mismatched"] = {"id": partner.id, "references": list(partner.references)}
        return SolverOutput(output=output, usage=prediction.usage or None)


# One example to score: (predictions, references, the mismatched partner's references or None).
Row = tuple[Sequence[str], Sequence[str], Sequence[str] | None]


def _arms(
    predictions: Sequence[str], references: Sequence[str], mismatched: Sequence[str] | None
) -> dict[str, tuple[Sequence[str], Sequence[str]]]:
    """The (predictions, references) pairs scored for one example: the instructor and each baseline."""
    arms: dict[str, tuple[Sequence[str], Sequence[str]]] = {
        "": (predictions, references),
        "@constant": (GENERIC_QUESTIONS, references),
    }
    if mismatched is not None:
        arms["@mismatched"] = (predictions, mismatched)
    return arms


def example_scores(
    rows: Sequence[Row],
    metrics: Sequence[str],
    scorers: Mapping[str, PairScorer],
) -> list[dict[str, float]]:
    """Per example, P/R/F1 per metric for the instructor and the baselines, named as in the module docstring.

    ``rows`` are ``(predictions, references, partner's references or None)``; each metric scores every pair of
    every row in one batch. The instructor's F1s come first so that reports list them first.
    """
    slots: list[tuple[int, str]] = []
    flat: list[tuple[Sequence[str], Sequence[str]]] = []
    for index, row in enumerate(rows):
        for suffix, pair in _arms(*row).items():
            slots.append((index, suffix))
            flat.append(pair)
    matched = {name: dict(zip(slots, match_examples(flat, scorers[name]))) for name in metrics}
    results: list[dict[str, float]] = [{} for _ in rows]
    for suffix in ("", "@constant", "@mismatched"):
        for part in ("f1", "precision", "recall"):
            for name in metrics:
                for index, result in enumerate(results):
                    match = matched[name].get((index, suffix))
                    if match is not None:
                        result[f"{name}_{part}{suffix}"] = getattr(match, part)
    return results


class ScorerCache:
    """Pair scorers built once per run, by name (a BERTScore model loads once)."""

    def __init__(
        self,
        scorer_options: Mapping[str, Mapping[str, Any]] | None = None,
        *,
        ready: Mapping[str, PairScorer] | None = None,
    ) -> None:
        self.options = dict(scorer_options or {})
        self._built: dict[str, PairScorer] = dict(ready or {})

    def get(self, name: str) -> PairScorer:
        if name not in self._built:
            self._built[name] = get_pair_scorer(name, **dict(self.options.get(name, {})))
        return self._built[name]

    def mapping(self, names: Sequence[str]) -> dict[str, PairScorer]:
        return {name: self.get(name) for name in names}


class SocraticScorer:
    """Runner scorer: the example's P/R/F1 per metric for the instructor and both baselines, and leak counts.

    Items are scored in batches: an item waits while an earlier batch is being scored (in a worker thread, so model
    calls of other items go on), then everything that queued meanwhile is scored in one call per metric. A model
    metric such as BERTScore is several times faster on one batch of many pairs than on many small ones; the batch
    grows with ``--concurrency``. Every record still gets its own example's scores.
    """

    def __init__(self, metrics: Sequence[str], scorers: ScorerCache) -> None:
        self.metrics = list(metrics)
        self.scorers = scorers
        self._pending: list[tuple[Row, asyncio.Future[dict[str, float]]]] = []
        self._worker: asyncio.Task[None] | None = None

    def score_rows(self, rows: Sequence[Row]) -> list[dict[str, float]]:
        return example_scores(rows, self.metrics, self.scorers.mapping(self.metrics))

    async def _drain(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                results = await asyncio.to_thread(self.score_rows, [row for row, _ in batch])
            except Exception as exc:  # every item of the batch records the failure
                for _, future in batch:
                    if not future.done():
                        future.set_exception(exc)
                continue
            for (_, future), result in zip(batch, results):
                if not future.done():
                    future.set_result(result)

    async def _score(self, row: Row) -> dict[str, float]:
        future: asyncio.Future[dict[str, float]] = asyncio.get_running_loop().create_future()
        self._pending.append((row, future))
        if self._worker is None or self._worker.done():
            self._worker = asyncio.ensure_future(self._drain())
        return await future

    async def __call__(self, item: EvalItem, output: Any) -> dict[str, float | int]:
        record = output if isinstance(output, Mapping) else {}
        predictions = list(record.get("predictions", []))
        references = list(record.get("references") or item.target or [])
        partner = record.get("mismatched")
        mismatched = list(partner["references"]) if isinstance(partner, Mapping) else None
        scores: dict[str, float | int] = dict(await self._score((predictions, references, mismatched)))
        leaked = sum(1 for reasons in record.get("leaks", []) if reasons)
        scores.update(
            {
                "utterances": len(predictions),
                "references": len(references),
                "leaked": leaked,
                "leak_rate": leaked / len(predictions) if predictions else 0.0,
            }
        )
        return scores


def _interval(values: Sequence[float]) -> dict[str, float | int]:
    return bootstrap_mean(values).as_dict()


def summarize_scores(
    per_example: Sequence[Mapping[str, float | int]],
    metrics: Sequence[str],
    signatures: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Means with bootstrap intervals of per-example scores: the instructor's P/R/F1 per metric, each baseline's,
    and the instructor's F1 margin over each baseline (a paired interval of per-example differences)."""
    out: dict[str, Any] = {}
    for name in metrics:
        block: dict[str, Any] = {part: _interval([float(s[f"{name}_{part}"]) for s in per_example]) for part in _PARTS}
        if signatures and name in signatures:
            block["signature"] = signatures[name]
        out[name] = block
    baselines: dict[str, Any] = {}
    margins: dict[str, Any] = {}
    for baseline in BASELINES:
        suffix = f"@{baseline}"
        rows = [s for s in per_example if f"{metrics[0]}_f1{suffix}" in s] if metrics else []
        if not rows:
            baselines[baseline] = None
            continue
        baselines[baseline] = {
            name: {part: _interval([float(s[f"{name}_{part}{suffix}"]) for s in rows]) for part in _PARTS}
            for name in metrics
        }
        for name in metrics:
            differences = [float(s[f"{name}_f1"]) - float(s[f"{name}_f1{suffix}"]) for s in rows]
            margins.setdefault(name, {})[baseline] = _interval(differences)
    out["baselines"] = baselines
    out["margins"] = margins
    out["baseline_definitions"] = {
        "constant": "the same three generic questions at every turn: " + " | ".join(GENERIC_QUESTIONS),
        "mismatched": f"the instructor's predictions scored against another problem's references (problems "
        f"deranged with seed {MISMATCH_SEED})",
    }
    return out


def leak_summary(predictions: Sequence[Sequence[str]], leaks: Sequence[Sequence[Sequence[str]]]) -> dict[str, Any]:
    """Utterances per turn and the share of predicted utterances the leak guard flagged."""
    total = sum(len(p) for p in predictions)
    flagged = sum(1 for per_example in leaks for reasons in per_example if reasons)
    return {
        "utterances": total,
        "utterances_per_turn": total / len(predictions) if predictions else 0.0,
        "leaked_utterances": flagged,
        "leak_rate": flagged / total if total else 0.0,
    }


class SocraticSummary:
    """The task's ``summarize``: the per-example scores of every record aggregated, plus the leak rate."""

    def __init__(self, metrics: Sequence[str], scorers: ScorerCache) -> None:
        self.metrics = list(metrics)
        self.scorers = scorers

    def __call__(self, records: list[SampleRecord]) -> dict[str, Any]:
        required = [f"{name}_f1" for name in self.metrics]
        # Sorted by id: records are written in the order items finish, and the bootstrap should not depend on it.
        finished = sorted(
            (
                r
                for r in records
                if r.error is None and isinstance(r.output, Mapping) and all(key in r.scores for key in required)
            ),
            key=lambda r: r.id,
        )
        predictions = [list(r.output.get("predictions", [])) for r in finished if isinstance(r.output, Mapping)]
        leaks = [list(r.output.get("leaks", [])) for r in finished if isinstance(r.output, Mapping)]
        summary: dict[str, Any] = {"examples": len(finished), "errors": len(records) - len(finished)}
        signatures = {name: self.scorers.get(name).signature for name in self.metrics} if finished else {}
        per_example = [{k: v for k, v in r.scores.items() if isinstance(v, (int, float))} for r in finished]
        summary.update(summarize_scores(per_example, self.metrics, signatures))
        summary.update(leak_summary(predictions, leaks))
        return summary


def published_metrics(metrics: Sequence[str]) -> dict[str, PublishedMetric]:
    """The paper's numbers beside ours, for the metrics this run computes (ours in percent)."""
    rows: dict[str, PublishedMetric] = {}
    for name in metrics:
        if name not in PAPER_F1:
            continue
        label = _METRIC_LABELS[name]
        if name == "bertscore":
            label += " (ours: MiniLM unless --bertscore-model; paper: deberta-xlarge-mnli)"
        rows[label] = PublishedMetric(
            ours=f"{name}_f1", paper={PAPER_SYSTEM: PAPER_F1[name]}, ours_scale=100.0, source=PAPER_SOURCE
        )
    return rows


def build_eval_task(
    examples: Sequence[EvaluationExample],
    instructor: Instructor,
    *,
    metrics: Sequence[str] = DEFAULT_METRICS,
    model_spec: str | None = None,
    data: Path | None = None,
    config: Mapping[str, Any] | None = None,
    scorer_options: Mapping[str, Mapping[str, Any]] | None = None,
) -> EvalTask:
    """The runner task for ``instructor`` over ``examples``."""
    checksums = {str(data): dataset_checksum(data)} if data is not None else {}
    scorers = ScorerCache(scorer_options)
    return EvalTask(
        name=TASK_NAME,
        version=TASK_VERSION,
        items=[example_item(example) for example in examples],
        solver=SocraticSolver(instructor, examples),
        scorer=SocraticScorer(metrics, scorers),
        summarize=SocraticSummary(metrics, scorers),
        config={"instructor": instructor.name, "metrics": list(metrics), **(config or {})},
        dataset_checksums=checksums,
        model_spec=model_spec,
        published=published_metrics(metrics),
        executor="inline",
    )


def read_predictions(path: Path, known_ids: set[str]) -> dict[str, list[str]]:
    """Predictions made elsewhere: JSONL lines ``{"id": example id, "predictions": [utterances]}``, or a run's
    ``samples.jsonl`` (lines ``{"id", "output": {"predictions": [...]}, ...}``; records that failed are skipped and a
    resumed run's later line for an id replaces the earlier one).

    A malformed line, an unknown id or an id given twice (outside a run's records) is an :class:`InputError` naming
    the file and line.
    """
    predictions: dict[str, list[str]] = {}
    for number, record in read_jsonl(path):
        run_record = "input_hash" in record and "predictions" not in record
        example_id = record.get("id")
        if run_record:
            output = record.get("output")
            if record.get("error") is not None or not isinstance(output, dict):
                continue
            utterances = output.get("predictions")
        else:
            utterances = record.get("predictions")
        if not isinstance(example_id, str):
            raise InputError("missing a string 'id'", path=str(path), line=number, field="id")
        if not isinstance(utterances, list) or not all(isinstance(u, str) for u in utterances):
            raise InputError(
                "'predictions' must be a list of strings", path=str(path), line=number, field="predictions"
            )
        if example_id not in known_ids:
            raise InputError(
                f"unknown example id {example_id!r}",
                path=str(path),
                line=number,
                hint="ids look like <file stem>#<turn>; use the same --data, --parser and --dedup as the run",
            )
        if example_id in predictions and not run_record:
            raise InputError(f"example id {example_id!r} given twice", path=str(path), line=number)
        predictions[example_id] = utterances
    if not predictions:
        raise InputError(
            "holds no predictions to score (no lines, or only records of failed items)",
            path=str(path),
            hint='one JSON line per example: {"id": "<file stem>#<turn>", "predictions": ["...", ...]}',
        )
    return predictions


def score_predictions(
    examples: Sequence[EvaluationExample],
    predictions: Mapping[str, Sequence[str]],
    metrics: Sequence[str],
    *,
    scorers: Mapping[str, PairScorer] | None = None,
    scorer_options: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """Scores, baselines, margins and leak rate of predictions for the examples that have some (the others are
    counted as missing). The mismatched baseline pairs examples as a run over ``examples`` would."""
    cache = ScorerCache(scorer_options, ready=scorers)
    ready = cache.mapping(metrics)
    partners = mismatched_partners(examples)
    # In id order, as a run's summary takes its records, so re-scoring a run reproduces its intervals too.
    scored = sorted((example for example in examples if example.id in predictions), key=lambda e: e.id)
    rows: list[Row] = []
    guards: dict[str, LeakGuard] = {}
    leaks: list[list[list[str]]] = []
    for example in scored:
        preds = list(predictions[example.id])
        partner = partners.get(example.id)
        rows.append((preds, example.references, partner.references if partner is not None else None))
        guard = guards.setdefault(example.dialogue, leak_guard_for(example))
        leaks.append([list(guard.check(u).reasons) for u in preds])
    result: dict[str, Any] = {"examples": len(scored), "missing": len(examples) - len(scored)}
    per_example = example_scores(rows, metrics, ready)
    result.update(summarize_scores(per_example, metrics, {name: ready[name].signature for name in metrics}))
    result.update(leak_summary([list(row[0]) for row in rows], leaks))
    return result


def paper_rows(result: Mapping[str, Any], metrics: Sequence[str]) -> list[dict[str, Any]]:
    """Our F1 (percent) beside the paper's, one row per metric the paper reports."""
    rows = []
    for label, spec in published_metrics(metrics).items():
        name = spec.ours.removesuffix("_f1")
        ours = result.get(name, {}).get("f1", {}).get("mean")
        rows.append(
            {
                "label": label,
                "ours": ours * 100 if isinstance(ours, (int, float)) else None,
                "paper": dict(spec.paper),
                "source": spec.source,
            }
        )
    return rows


def examples_from_folder(data: Path, *, dedup: bool, parser: str) -> list[EvaluationExample]:
    """Examples of ``data``, refusing a folder that yields none."""
    examples = load_examples(data, dedup=dedup, parser=parser)
    if not examples:
        raise InputError("no evaluated instructor turns in this folder", path=str(data))
    return examples
