"""From a synthesis run's kept problems to SFT data: deduplicated, decontaminated, in every format a trainer reads.

Strategies (the paper's Table V rows):

* ``answer``: the target is the bare verified answer (MASTER without a teacher);
* ``cot``: the target is the teacher's verified explanation, ending in the answer;
* ``mixed``: NeuDebugger's recipe, CoT for localization, identification and review, the bare answer for repair.

Before writing, exact duplicates (same task, language, programs, options and answer) and near duplicates (same task
and language, the same fix, and programs at least 90% alike) are removed, and every problem is checked once more
against the evaluation splits (slug, statement, either program); a match is dropped and counted. The output folder
holds, per strategy, chat-messages JSONL (what ``debugtutor master train`` reads), LLaMA-Factory ``alpaca`` and
``sharegpt`` files registered in ``dataset_info.json`` and a LLaMA-Factory training YAML, plus ``problems.jsonl``
(every kept problem with the learner's answers and the teacher's solution) and ``synthesis.json`` (counts per task,
language and bug class in the layout of the paper's Table III, verification, deduplication and decontamination
reports). The folder is written whole under a temporary name and renamed into place.
"""

from __future__ import annotations

import difflib
import json
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from debugtutor.atomic_files import building_folder, write_json_atomic, write_text_atomic
from debugtutor.errors import InputError
from debugtutor.master.checks import fix_pairs
from debugtutor.master.prompts import answer_text, problem_prompt
from debugtutor.master.records import TASKS, QuizProblem, SynthOutcome, normalized_code
from debugtutor.master.sources import EvaluationKeys
from debugtutor.tune import SFTExample, Turn, write_sft_file
from debugtutor.tune.llamafactory import llamafactory_yaml
from debugtutor.tune.settings import TrainSettings

Strategy = Literal["answer", "cot", "mixed"]
STRATEGIES: tuple[Strategy, ...] = ("answer", "cot", "mixed")
NEAR_DUPLICATE_SIMILARITY = 0.9
SYNTHESIS_FILE = "synthesis.json"
PAPER_TABLE_III = {"bug-localization": 4681, "bug-identification": 4474, "code-review": 4420, "code-repair": 11317}
PROBLEMS_FILE = "problems.jsonl"


def sft_file(strategy: str) -> str:
    return f"sft_{strategy}.jsonl"


def target_for(outcome: SynthOutcome, strategy: Strategy) -> str:
    """The completion an example of ``strategy`` teaches."""
    problem = outcome.problem
    assert problem is not None
    use_cot = strategy == "cot" or (strategy == "mixed" and problem.task != "code-repair")
    if use_cot:
        if outcome.solution is None or not outcome.solution.agrees:
            raise ValueError(f"problem {problem.id} has no verified teacher solution")
        return outcome.solution.text
    return answer_text(problem)


def example_for(outcome: SynthOutcome, strategy: Strategy) -> SFTExample:
    problem = outcome.problem
    assert problem is not None
    return SFTExample(
        id=problem.id,
        prompt=[Turn(role="user", content=problem_prompt(problem))],
        completion=[Turn(role="assistant", content=target_for(outcome, strategy))],
        metadata={"task": problem.task, "language": problem.language, "bug_class": problem.bug_class,
                  "slug": problem.slug, "origin": problem.origin, "quizzer": problem.quizzer},
    )  # fmt: skip


def _fix_key(problem: QuizProblem) -> str:
    pairs = fix_pairs(problem.buggy_code, problem.correct_code, problem.language)
    return json.dumps([(" ".join(before.split()), " ".join(after.split())) for _, before, after in pairs])


def deduplicate(outcomes: Sequence[SynthOutcome]) -> tuple[list[SynthOutcome], dict[str, int]]:
    """Drop exact and near duplicates (first one kept); returns the rest and how many of each kind went."""
    kept: list[SynthOutcome] = []
    exact: set[str] = set()
    by_fix: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    dropped = {"exact": 0, "near": 0}
    for outcome in outcomes:
        problem = outcome.problem
        assert problem is not None
        key = problem.content_key()
        if key in exact:
            dropped["exact"] += 1
            continue
        group = by_fix[(problem.task, problem.language, _fix_key(problem))]
        code = normalized_code(problem.buggy_code)
        if any(difflib.SequenceMatcher(a=code, b=other, autojunk=False).ratio() >= NEAR_DUPLICATE_SIMILARITY
               for other in group):  # fmt: skip
            dropped["near"] += 1
            continue
        exact.add(key)
        group.append(code)
        kept.append(outcome)
    return kept, dropped


def decontaminate(
    outcomes: Sequence[SynthOutcome], evaluation: EvaluationKeys
) -> tuple[list[SynthOutcome], dict[str, Any]]:
    """Drop problems that touch an evaluation split (by slug, statement or either program) and report the check."""
    kept: list[SynthOutcome] = []
    reasons: Counter[str] = Counter()
    for outcome in outcomes:
        problem = outcome.problem
        assert problem is not None
        why = evaluation.reason(slug=problem.slug, question=problem.question,
                                programs=[problem.buggy_code, problem.correct_code])  # fmt: skip
        if why is None:
            kept.append(outcome)
        else:
            reasons[why] += 1
    report = {"checked": len(outcomes), "dropped": sum(reasons.values()), "dropped_by_match": dict(reasons),
              "evaluation_keys": evaluation.summary()}  # fmt: skip
    return kept, report


def table_iii(outcomes: Sequence[SynthOutcome]) -> dict[str, Any]:
    """Counts per task (the paper's Table III), and per task x language and task x bug class."""
    per_task: Counter[str] = Counter()
    per_language: dict[str, Counter[str]] = defaultdict(Counter)
    per_class: dict[str, Counter[str]] = defaultdict(Counter)
    for outcome in outcomes:
        problem = outcome.problem
        assert problem is not None
        per_task[problem.task] += 1
        per_language[problem.task][problem.language] += 1
        per_class[problem.task][problem.bug_class] += 1
    return {
        "per_task": {task: per_task.get(task, 0) for task in TASKS},
        "per_task_language": {task: dict(per_language[task]) for task in TASKS if task in per_language},
        "per_task_bug_class": {task: dict(per_class[task]) for task in TASKS if task in per_class},
        "total": sum(per_task.values()),
        "paper_table_iii": PAPER_TABLE_III,
    }


def _alpaca(examples: list[SFTExample]) -> list[dict[str, str]]:
    return [{"instruction": e.prompt[-1].content, "input": "", "output": e.completion[-1].content} for e in examples]


def _sharegpt(examples: list[SFTExample]) -> list[dict[str, Any]]:
    speaker = {"user": "human", "assistant": "gpt", "system": "system"}
    return [{"conversations": [{"from": speaker[turn.role], "value": turn.content}
                               for turn in [*e.prompt, *e.completion]]} for e in examples]  # fmt: skip


def _dataset_info() -> dict[str, Any]:
    info: dict[str, Any] = {}
    for strategy in STRATEGIES:
        info[f"master_{strategy}"] = {"file_name": f"alpaca_{strategy}.json"}
        info[f"master_{strategy}_sharegpt"] = {
            "file_name": f"sharegpt_{strategy}.json",
            "formatting": "sharegpt",
            "columns": {"messages": "conversations"},
        }
    return info


def read_outcomes(records: Sequence[Any], *, keep: Literal["wrong", "verified"]) -> list[SynthOutcome]:
    """The outcomes a data set is made of: problems the learner got wrong (the paper's rule) or every verified one
    that has a teacher solution (``verified``)."""
    wanted = {"kept"} if keep == "wrong" else {"kept", "learner-correct"}
    found = []
    for record in records:
        if record.error is not None or record.output is None:
            continue
        outcome = SynthOutcome.model_validate(record.output)
        if outcome.status in wanted and outcome.problem is not None:
            found.append(outcome)
    return sorted(found, key=lambda outcome: outcome.problem.id if outcome.problem else "")


def write_sft_data(
    out: Path,
    outcomes: Sequence[SynthOutcome],
    evaluation: EvaluationKeys,
    *,
    report: dict[str, Any],
    settings: TrainSettings | None = None,
) -> dict[str, Any]:
    """Deduplicate, decontaminate and write the data folder ``out``; returns what ``synthesis.json`` holds."""
    unique, duplicates = deduplicate(outcomes)
    clean, contamination = decontaminate(unique, evaluation)
    written: dict[str, int] = {}
    with building_folder(out) as folder:
        lines = [json.dumps(outcome.model_dump(mode="json"), ensure_ascii=False, sort_keys=True) for outcome in clean]
        write_text_atomic(folder / PROBLEMS_FILE, "".join(line + "\n" for line in lines))
        for strategy in STRATEGIES:
            examples = [example_for(outcome, strategy) for outcome in clean]
            written[strategy] = write_sft_file(folder / sft_file(strategy), examples)
            write_json_atomic(folder / f"alpaca_{strategy}.json", _alpaca(examples))
            write_json_atomic(folder / f"sharegpt_{strategy}.json", _sharegpt(examples))
            write_text_atomic(folder / f"llamafactory_{strategy}.yaml", llamafactory_yaml(
                dataset=f"master_{strategy}", dataset_dir=str(out.resolve()),
                output_dir=f"saves/master_{strategy}", settings=settings))  # fmt: skip
        write_json_atomic(folder / "dataset_info.json", _dataset_info())
        synthesis = {
            **report,
            "examples": written,
            "deduplication": {"before": len(outcomes), **duplicates},
            "decontamination": contamination,
            "table_iii": table_iii(clean),
        }
        write_json_atomic(folder / SYNTHESIS_FILE, synthesis)
    return synthesis


def strategy_examples(data: Path, strategy: str) -> Path:
    """The chat-messages file of ``strategy`` in a data folder, or a clear error when it is missing or empty."""
    if strategy not in STRATEGIES:
        raise InputError(f"unknown strategy {strategy!r}", field="--strategy", hint=", ".join(STRATEGIES))
    if not data.is_dir():
        raise InputError("data folder not found", path=str(data), hint="make one with 'debugtutor master synth'")
    path = data / sft_file(strategy)
    if not path.is_file():
        raise InputError(f"no {sft_file(strategy)} here: this is not a 'master synth' output folder", path=str(data))
    if not path.read_text(encoding="utf-8").strip():
        raise InputError(f"strategy {strategy!r} has no training examples (the synthesis kept no problems)",
                         path=str(path), hint="synthesize more with a larger --n, or check synthesis.json")  # fmt: skip
    return path
