"""Evaluating Socratic instructors: the runner task (solver and scorer), batched metrics, and the paper's numbers.

The solver asks an instructor for the utterances of one example and records them with the raw model text and the
leak guard's verdict on each. The metrics come afterwards, over all records in one batch: the maximum-weight
matching is per example, but the pair scores of every example are computed in one call of the pair scorer (one
BERTScore batch for the whole run). ``score`` scores predictions made elsewhere (a JSONL file) the same way.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from debugtutor.data.checksum import dataset_checksum
from debugtutor.errors import InputError
from debugtutor.metrics import PairScorer, get_pair_scorer, score_matching
from debugtutor.runs import EvalItem, EvalTask, PublishedMetric, SampleRecord, SolverOutput
from debugtutor.socratic.dataset import EvaluationExample, build_examples, load_dialogues
from debugtutor.socratic.instructors import Instructor
from debugtutor.socratic.leak import LeakGuard

TASK_NAME = "socratic"
TASK_VERSION = "1"
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


class SocraticSolver:
    """Runner solver: the instructor's utterances for one item, with the raw model text and the leak verdicts."""

    def __init__(self, instructor: Instructor, examples: Sequence[EvaluationExample]) -> None:
        self.instructor = instructor
        self.examples = {example.id: example for example in examples}
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
        output = {"predictions": prediction.utterances, "raw": prediction.raw, "leaks": leaks}
        return SolverOutput(output=output, usage=prediction.usage or None)


def score_record(item: EvalItem, output: Any) -> dict[str, float | int]:
    """Per-item counts; the similarity metrics are computed over all items at the end (see module docstring)."""
    predictions = output.get("predictions", []) if isinstance(output, Mapping) else []
    leaks = output.get("leaks", []) if isinstance(output, Mapping) else []
    leaked = sum(1 for reasons in leaks if reasons)
    return {
        "utterances": len(predictions),
        "references": len(item.target or []),
        "leaked": leaked,
        "leak_rate": leaked / len(predictions) if predictions else 0.0,
    }


def metric_scores(
    pairs: Sequence[tuple[Sequence[str], Sequence[str]]],
    metrics: Sequence[str],
    *,
    scorers: Mapping[str, PairScorer] | None = None,
    scorer_options: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, dict[str, Any]]:
    """Per metric: mean P/R/F1 with bootstrap intervals over ``(predictions, references)`` pairs, and the scorer's
    signature. Each metric scores all pairs of all examples in one batch. ``scorers`` supplies ready scorers by
    name; ``scorer_options`` are keyword options for the ones built here (``{"bertscore": {"model": PATH}}``)."""
    out: dict[str, dict[str, Any]] = {}
    for name in metrics:
        if scorers is not None and name in scorers:
            scorer = scorers[name]
        else:
            scorer = get_pair_scorer(name, **dict((scorer_options or {}).get(name, {})))
        score = score_matching(pairs, scorer)
        out[name] = {
            "precision": score.precision.as_dict(),
            "recall": score.recall.as_dict(),
            "f1": score.f1.as_dict(),
            "signature": scorer.signature,
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
    """The task's ``summarize``: metrics over every recorded example in one batch, plus the leak rate."""

    def __init__(
        self,
        examples: Sequence[EvaluationExample],
        metrics: Sequence[str],
        *,
        scorer_options: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> None:
        self.references = {example.id: example.references for example in examples}
        self.metrics = list(metrics)
        self.scorer_options = dict(scorer_options or {})

    def __call__(self, records: list[SampleRecord]) -> dict[str, Any]:
        finished = [r for r in records if r.error is None and isinstance(r.output, Mapping) and r.id in self.references]
        predictions = [list(r.output.get("predictions", [])) for r in finished if isinstance(r.output, Mapping)]
        leaks = [list(r.output.get("leaks", [])) for r in finished if isinstance(r.output, Mapping)]
        pairs = [(p, self.references[r.id]) for p, r in zip(predictions, finished)]
        summary: dict[str, Any] = {"examples": len(finished), "errors": len(records) - len(finished)}
        summary.update(metric_scores(pairs, self.metrics, scorer_options=self.scorer_options))
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
            ours=f"{name}.f1.mean", paper={PAPER_SYSTEM: PAPER_F1[name]}, ours_scale=100.0, source=PAPER_SOURCE
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
    return EvalTask(
        name=TASK_NAME,
        version=TASK_VERSION,
        items=[example_item(example) for example in examples],
        solver=SocraticSolver(instructor, examples),
        scorer=score_record,
        summarize=SocraticSummary(examples, metrics, scorer_options=scorer_options),
        config={"instructor": instructor.name, "metrics": list(metrics), **(config or {})},
        dataset_checksums=checksums,
        model_spec=model_spec,
        published=published_metrics(metrics),
        executor="inline",
    )


def read_predictions(path: Path, known_ids: set[str]) -> dict[str, list[str]]:
    """Predictions made elsewhere: JSONL lines ``{"id": example id, "predictions": [utterances]}``.

    A malformed line, an unknown id or an id given twice is an :class:`InputError` naming the file and line.
    """
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise InputError(f"cannot read predictions: {exc.strerror}", path=str(path)) from exc
    except UnicodeDecodeError as exc:
        raise InputError("predictions file is not UTF-8 text", path=str(path)) from exc
    predictions: dict[str, list[str]] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"not a JSON object: {exc.msg}", path=str(path), line=number) from exc
        if not isinstance(record, dict):
            raise InputError("expected a JSON object", path=str(path), line=number)
        example_id = record.get("id")
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
        if example_id in predictions:
            raise InputError(f"example id {example_id!r} given twice", path=str(path), line=number)
        predictions[example_id] = utterances
    return predictions


def score_predictions(
    examples: Sequence[EvaluationExample],
    predictions: Mapping[str, Sequence[str]],
    metrics: Sequence[str],
    *,
    scorers: Mapping[str, PairScorer] | None = None,
    scorer_options: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """Metrics and leak rate of predictions for the examples that have some (the others are counted as missing)."""
    scored = [example for example in examples if example.id in predictions]
    pairs = [(list(predictions[example.id]), example.references) for example in scored]
    guards: dict[str, LeakGuard] = {}
    leaks: list[list[list[str]]] = []
    for example, (preds, _) in zip(scored, pairs):
        guard = guards.setdefault(example.dialogue, leak_guard_for(example))
        leaks.append([list(guard.check(u).reasons) for u in preds])
    result: dict[str, Any] = {"examples": len(scored), "missing": len(examples) - len(scored)}
    result.update(metric_scores(pairs, metrics, scorers=scorers, scorer_options=scorer_options))
    result.update(leak_summary([p for p, _ in pairs], leaks))
    return result


def paper_rows(result: Mapping[str, Any], metrics: Sequence[str]) -> list[dict[str, Any]]:
    """Our F1 (percent) beside the paper's, one row per metric the paper reports."""
    rows = []
    for label, spec in published_metrics(metrics).items():
        name = spec.ours.split(".")[0]
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
