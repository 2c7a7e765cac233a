"""From records to one runnable evaluation: items per task and language, a solver, the scorer and Table IV.

Items are ``<task>:<question_id>``; Code Review items carry both orders (one item, two prompts). Items hold the whole
record for the scorer; the solver is always wrapped in :class:`~debugtutor.debugeval.views.ViewSolver`, so it sees
only what each prompt shows. The published
numbers are DebugEval's Table IV (arXiv 2408.05006 v1, zero-shot), per task and language, put beside ours.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterable, Sequence
from pathlib import Path
from typing import Any, Literal

from debugtutor.debugeval.baselines import baseline_by_item, baseline_percent
from debugtutor.debugeval.records import CHOICE_BY_MAJOR, TASKS, DebugEvalRecord, LanguageName, TaskName
from debugtutor.debugeval.scoring import score_item, summarize
from debugtutor.debugeval.views import Answerer, ViewSolver
from debugtutor.runs import EvalItem, EvalTask, PublishedMetric, SampleRecord

SolverName = Literal["offline", "llm", "grounded"]
SOLVER_NAMES: tuple[SolverName, ...] = ("offline", "llm", "grounded")
Split = Literal["train", "test", "all"]
SPLITS: tuple[Split, ...] = ("train", "test", "all")

# Table IV of DebugEval (arXiv 2408.05006v1), zero-shot: the Python column for the strongest systems, and for C++ and
# Java the best system only (the per-language columns beyond Python are known here only through their best entries;
# each pair agrees with the system's published three-language average and Python figure).
TABLE_IV: dict[str, dict[str, dict[str, float]]] = {
    "bug-localization": {
        "python": {"DeepSeek-Coder-V2-0724": 88.8, "DeepSeek-V2-0628": 82.0, "GPT-4o-mini-0718": 84.8},
        "cpp": {"DeepSeek-Coder-V2-0724": 83.1},
        "java": {"DeepSeek-Coder-V2-0724": 89.8},
    },
    "bug-identification": {
        "python": {"DeepSeek-Coder-V2-0724": 58.7, "DeepSeek-V2-0628": 62.0, "GPT-4o-mini-0718": 53.3},
        "cpp": {"DeepSeek-V2-0628": 61.0},
        "java": {"DeepSeek-V2-0628": 61.3},
    },
    "code-review": {
        "python": {"DeepSeek-Coder-V2-0724": 87.9, "DeepSeek-V2-0628": 77.4, "GPT-4o-mini-0718": 85.4},
        "cpp": {"DeepSeek-Coder-V2-0724": 94.9},
        "java": {"DeepSeek-Coder-V2-0724": 93.3},
    },
    "code-repair": {
        "python": {"DeepSeek-Coder-V2-0724": 66.7, "DeepSeek-V2-0628": 65.2, "GPT-4o-mini-0718": 65.2},
        "cpp": {"GPT-4o-mini-0718": 67.2},
        "java": {"GPT-4o-mini-0718": 67.4},
    },
}


def gold_of(task: TaskName, record: DebugEvalRecord) -> Any:
    if task == "bug-localization":
        return record.task1_answer
    if task == "bug-identification":
        return record.task2_choice or CHOICE_BY_MAJOR.get(record.major_error_type, "")
    if task == "code-review":
        return {"forward": "Code-A", "reverse": "Code-B"}
    return None


def build_items(
    records: Iterable[DebugEvalRecord],
    *,
    tasks: Sequence[TaskName] = TASKS,
    languages: Sequence[LanguageName] = ("python", "cpp", "java"),
    split: Split = "all",
) -> list[EvalItem]:
    """One item per (task, record) with the record in that task, the language and the split wanted."""
    items: list[EvalItem] = []
    seen: set[str] = set()
    for record in records:
        if record.language not in languages or (split != "all" and record.split != split):
            continue
        for task in tasks:
            item_id = f"{task}:{record.question_id}"
            if not record.in_task(task) or item_id in seen:
                continue
            seen.add(item_id)
            items.append(
                EvalItem(
                    id=item_id,
                    input={"task": task, "record": record.model_dump(mode="json")},
                    target=gold_of(task, record),
                    metadata={"task": task, "language": record.language},
                )
            )
    items.sort(key=lambda item: (TASKS.index(item.input["task"]), item.id))
    return items


def published_rows(tasks: Sequence[TaskName], languages: Collection[str] | None = None) -> dict[str, PublishedMetric]:
    """Table IV's rows for ``tasks``, in ``languages`` only when given (a run's own languages: a Python run's report
    should not list the C++ column beside nothing)."""
    rows = {}
    for task in tasks:
        for language, systems in TABLE_IV.get(task, {}).items():
            if languages is not None and language not in languages:
                continue
            rows[f"{task} {language}"] = PublishedMetric(
                ours=f"accuracy.{task}.{language}", paper=systems, source="DebugEval Table IV (arXiv 2408.05006v1)"
            )
    return rows


def _summary_with_baselines(
    records: list[SampleRecord], languages: dict[str, str], baselines: dict[str, dict[str, float]]
) -> dict[str, Any]:
    """The scores' summary, and the trivial baseline over the same recorded items (a stopped run has fewer)."""
    summary = summarize(records, languages)
    summary["baseline"] = baseline_percent(baselines, [record.id for record in records])
    return summary


def build_eval_task(
    items: list[EvalItem],
    answer: Answerer,
    *,
    solver_name: SolverName,
    tasks: Sequence[TaskName],
    data: Path | None,
    model_spec: str | None = None,
    checksums: dict[str, str] | None = None,
    config: dict[str, Any] | None = None,
) -> EvalTask:
    """The runnable evaluation. ``answer`` sees only each prompt's view (:class:`ViewSolver` hands it nothing else)."""
    languages = {item.id: str(item.metadata.get("language", "")) for item in items}
    return EvalTask(
        name="debugeval",
        items=items,
        solver=ViewSolver(answer),
        scorer=score_item,
        version="2",
        summarize=functools.partial(_summary_with_baselines, languages=languages, baselines=baseline_by_item(items)),
        config={
            "solver": solver_name,
            "tasks": list(tasks),
            "data": str(data) if data else "built-in sample",
            **(config or {}),
        },
        dataset_checksums=checksums or {},
        model_spec=model_spec,
        published=published_rows(tasks, set(languages.values())),
    )
