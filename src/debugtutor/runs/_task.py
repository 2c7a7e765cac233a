"""What an arena hands to the runner: items, a solver, a scorer, and how to summarize and compare the results.

An arena builds one :class:`EvalTask` per evaluation. The solver turns an :class:`EvalItem` into an output (a plain
JSON-able value, or a :class:`SolverOutput` when it also reports token usage); the scorer turns the item and that
output into named scores. Both may be ``async`` functions or plain functions; plain ones run off the event loop
(a thread by default, a process pool for CPU-bound pure-Python work) so they never stall other items.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field

from debugtutor.errors import InputError
from debugtutor.runs._records import SampleRecord, ScoreValue

Executor = Literal["thread", "process", "inline"]


class EvalItem(BaseModel):
    """One thing to evaluate: a stable unique ``id``, the solver's ``input``, the expected ``target`` and metadata."""

    id: str
    input: Any
    target: Any = None
    metadata: dict[str, Any] = Field(default_factory=dict)


class SolverOutput(BaseModel):
    """A solver's answer plus what it cost (``usage``: token counts, latency, cache hits; numbers are totalled)."""

    output: Any
    usage: dict[str, Any] | None = None


ScoreResult = Mapping[str, ScoreValue] | float | int | bool


class Solver(Protocol):
    """``(item) -> output``; may be async; may return a :class:`SolverOutput` or the bare output."""

    def __call__(self, item: EvalItem, /) -> Any: ...


class Scorer(Protocol):
    """``(item, output) -> {name: number | bool | str}``; may be async; a bare number means ``{"score": number}``."""

    def __call__(self, item: EvalItem, output: Any, /) -> ScoreResult | Awaitable[ScoreResult]: ...


class PublishedMetric(BaseModel):
    """A number from a paper to put beside ours in the report.

    ``ours`` names where our number is in the summary: a score name (its mean is used), a dotted path such as
    ``task_metrics.f1``, or a bare key of the task's own ``summarize`` output. ``paper`` maps each published system
    to its number. ``ours_scale`` converts ours to the paper's unit (100 when the paper reports percentages of a 0-1
    score).
    """

    ours: str
    paper: dict[str, float]
    ours_scale: float = 1.0
    source: str | None = None
    higher_is_better: bool = True


@dataclasses.dataclass
class EvalTask:
    """Everything the runner needs for one evaluation.

    ``published`` maps a row label to a :class:`PublishedMetric` (or the equivalent dict), for example
    ``{"BLEU-4": {"ours": "bleu", "paper": {"GPT-4": 17.6}, "ours_scale": 100}}``.
    ``executor`` says where plain (non-async) solvers and scorers run: ``thread`` (default), ``process`` (a process
    pool; the solver, scorer and items must be picklable) or ``inline`` (on the event loop, for trivial functions).
    """

    name: str
    items: Sequence[EvalItem]
    solver: Solver
    scorer: Scorer
    version: str = "1"
    summarize: Callable[[list[SampleRecord]], Mapping[str, Any]] | None = None
    config: dict[str, Any] = dataclasses.field(default_factory=dict)
    dataset_checksums: dict[str, str] = dataclasses.field(default_factory=dict)
    model_spec: str | None = None
    model_settings: dict[str, Any] = dataclasses.field(default_factory=dict)
    published: Mapping[str, PublishedMetric | Mapping[str, Any]] = dataclasses.field(default_factory=dict)
    executor: Executor = "thread"

    def __post_init__(self) -> None:
        seen: set[str] = set()
        for item in self.items:
            if item.id in seen:
                raise InputError(
                    f"task '{self.name}' has two items with id '{item.id}'", hint="item ids must be unique"
                )
            seen.add(item.id)
        if self.executor not in ("thread", "process", "inline"):
            raise InputError(f"unknown executor '{self.executor}'", field="executor", hint="thread, process or inline")

    def published_metrics(self) -> dict[str, PublishedMetric]:
        return {
            label: spec if isinstance(spec, PublishedMetric) else PublishedMetric.model_validate(spec)
            for label, spec in self.published.items()
        }
