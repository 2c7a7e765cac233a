"""What a solver may see: a view with exactly what one task's prompt shows, and the runner's solver built on it.

A record carries the gold answer, the labels (bug type, minor type), the hidden tests and, for most tasks, the
correct code. A solver never receives the record: :class:`ViewSolver` (the solver the runner calls) turns each item
into the :class:`TaskView` s its prompts show (one per prompt; Code Review has two, one per order) and passes only
those to the answering function. Whatever a solver does, its answer can then depend only on the prompt's contents:
blanking every other field leaves it unchanged, and swapping Code Review's two programs swaps its answer.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import BaseModel, Field

from debugtutor.debugeval.records import DebugEvalRecord, LanguageName, TaskName
from debugtutor.runs import EvalItem, SolverOutput


class TaskView(BaseModel):
    """One prompt's contents: the task, the language, the problem text and the code(s) and options it shows."""

    task: TaskName
    language: LanguageName
    question: str
    """The problem statement as the prompt shows it (with its examples and constraints)."""
    code: str = ""
    """The program the question is about (Bug Localization, Bug Identification, Code Repair)."""
    options: list[str] = Field(default_factory=list)
    """Bug Localization's four option snippets, in letter order."""
    code_a: str = ""
    code_b: str = ""
    """Code Review's two programs, in the order the prompt shows them."""
    tests: list[str] = Field(default_factory=list)
    """Unit tests the prompt shows (Code Repair items whose benchmark hands the student its tests)."""
    test_setup: str = ""

    @property
    def examples(self) -> list[str]:
        """The ``Input: ... Output: ...`` blocks of the problem text (the only examples the prompt shows)."""
        return stated_examples(self.question)


class ViewAnswer(BaseModel):
    """An answer to one view: the raw responses (as DebugEval keeps them), and what it cost or was based on."""

    responses: list[str]
    usage: dict[str, Any] | None = None
    evidence: str | None = None
    prefill: str = ""
    """What the prompt already wrote of the answer (the responses continue it)."""


Answerer = Callable[[TaskView], Awaitable[ViewAnswer]]

# "Input:" before a function's arguments; a design problem's example says "Input" alone on its line, then the
# operations and their arguments on the lines below
_EXAMPLE_START = re.compile(r"(?m)^[ \t]*Input(?:[ \t]*:|[ \t]*$)")
_EXAMPLE_END = re.compile(r"(?m)^[ \t]*(?:Example\s*\d*\s*:|Constraints\s*:|Note\s*:|Follow[- ]up)")


def stated_examples(question: str) -> list[str]:
    """Each ``Input:`` block of the text (``Input`` alone on its line for a design problem's operations) up to the
    next one (or the next example heading or the constraints)."""
    starts = [match.start() for match in _EXAMPLE_START.finditer(question)]
    blocks = []
    for position, start in enumerate(starts):
        end = starts[position + 1] if position + 1 < len(starts) else len(question)
        cut = _EXAMPLE_END.search(question, start + 1, end)
        blocks.append(question[start : cut.start() if cut else end].strip())
    return blocks


def view_of(task: TaskName, record: DebugEvalRecord, *, reverse: bool = False) -> TaskView:
    """The view of one prompt; for Code Review ``reverse`` shows the correct code first (gold B)."""
    base: dict[str, Any] = {"task": task, "language": record.language, "question": record.question_content}
    if task == "code-review":
        pair = (record.correct_code, record.buggy_code) if reverse else (record.buggy_code, record.correct_code)
        return TaskView(**base, code_a=pair[0], code_b=pair[1])
    if task == "bug-localization":
        return TaskView(**base, code=record.buggy_code, options=record.option_texts())
    if task == "code-repair" and record.tests_kind == "asserts":
        return TaskView(**base, code=record.buggy_code, tests=list(record.unit_tests), test_setup=record.test_setup)
    return TaskView(**base, code=record.buggy_code)


def views_of(item: EvalItem) -> dict[str, TaskView]:
    """The views of an item's prompts: ``{"main": view}``, or ``{"forward", "reverse"}`` for Code Review."""
    task: TaskName = item.input["task"]
    record = DebugEvalRecord.model_validate(item.input["record"])
    if task == "code-review":
        return {"forward": view_of(task, record), "reverse": view_of(task, record, reverse=True)}
    return {"main": view_of(task, record)}


def _add_usage(total: dict[str, Any], usage: dict[str, Any] | None) -> None:
    for key, value in (usage or {}).items():
        if isinstance(value, (int, float)):
            total[key] = total.get(key, 0) + value


class ViewSolver:
    """The runner's solver: hands ``answer`` only the views of an item, never the item or its record."""

    def __init__(self, answer: Answerer) -> None:
        self.answer = answer

    async def __call__(self, item: EvalItem) -> SolverOutput:
        views = views_of(item)
        usage: dict[str, Any] = {}
        if set(views) == {"forward", "reverse"}:
            output: dict[str, Any] = {}
            for order in ("forward", "reverse"):
                answered = await self.answer(views[order])
                output[order] = _output_of(answered)
                _add_usage(usage, answered.usage)
            return SolverOutput(output=output, usage=usage or None)
        answered = await self.answer(views["main"])
        _add_usage(usage, answered.usage)
        return SolverOutput(output=_output_of(answered), usage=usage or None)


def _output_of(answered: ViewAnswer) -> dict[str, Any]:
    output: dict[str, Any] = {"responses": answered.responses}
    if answered.prefill:
        output["prefill"] = answered.prefill
    if answered.evidence is not None:
        output["evidence"] = answered.evidence
    return output
