"""Solvers see only what the prompt shows: blanking everything else leaves every answer unchanged, and swapping Code
Review's two programs swaps the answer (offline, llm and grounded solvers)."""

from __future__ import annotations

import asyncio
import hashlib
import re
from pathlib import Path
from typing import Any

import pytest

from debugtutor.analysis.examples import is_design, stated_calls
from debugtutor.debugeval.llm_solver import ModelSolver
from debugtutor.debugeval.offline import OfflineSolver
from debugtutor.debugeval.records import DebugEvalRecord, load_records
from debugtutor.debugeval.tasks import build_items
from debugtutor.debugeval.views import ViewSolver, stated_examples, view_of, views_of
from debugtutor.llm import ScriptedModel
from debugtutor.runs import EvalItem

SAMPLE = Path(__file__).resolve().parents[2] / "src" / "debugtutor" / "samples" / "debugeval"


def blanked(item: EvalItem) -> EvalItem:
    """The item with every field its prompt does not show emptied or changed."""
    task = item.input["task"]
    record = DebugEvalRecord.model_validate(item.input["record"])
    shown_tests = task == "code-repair" and record.tests_kind == "asserts"
    blank = record.model_copy(
        update={
            "question_id": "blanked", "platform": "", "source": "", "slug": "", "split": "train",
            "task1_answer": "", "task2_choice": "", "task4": "", "major_error_type": "", "minor_error_type": "",
            "examples": [], "leetcode_calls": [], "method": None, "private_test_cases": [],
            "correct_code": record.correct_code if task == "code-review" else "",
            "unit_tests": record.unit_tests if shown_tests else [],
            "test_setup": record.test_setup if shown_tests else "",
            "tests_kind": record.tests_kind if shown_tests else "none",
        }
    )  # fmt: skip
    return EvalItem(id="blanked", input={"task": task, "record": blank.model_dump(mode="json")})


def swapped(item: EvalItem) -> EvalItem:
    record = DebugEvalRecord.model_validate(item.input["record"])
    swap = record.model_copy(update={"buggy_code": record.correct_code, "correct_code": record.buggy_code})
    return item.model_copy(update={"input": {"task": "code-review", "record": swap.model_dump(mode="json")}})


def answers(solver: ViewSolver, items: list[EvalItem]) -> list[Any]:
    async def run() -> list[Any]:
        return [(await solver(item)).output for item in items]

    outputs = asyncio.run(run())
    for output in outputs:
        for part in [output, *(output[k] for k in ("forward", "reverse") if k in output)]:
            part.pop("evidence", None)  # evidence text may name facts in any order; the answer is what counts
    return outputs


def flipped(output: dict[str, Any]) -> dict[str, Any]:
    def other(order: dict[str, Any]) -> dict[str, Any]:
        text = order["responses"][0]
        return {**order, "responses": [text.replace("A", "\0").replace("B", "A").replace("\0", "B")]}

    return {"forward": other(output["forward"]), "reverse": other(output["reverse"])}


class EchoModel(ScriptedModel):
    """A model whose answer is a function of the whole prompt, so any difference in what it is shown can show; in
    Code Review it names the program whose text hashes lower, so its answer follows the programs, not the order."""

    def _answer(self, last_message: str) -> str:
        pair = re.search(r"\n\nCode-A:\n(.*)\n\nCode-B:\n(.*)\n\n(?:Which|Select)", last_message, re.S)
        if pair:
            first, second = (hashlib.sha256(code.encode()).hexdigest() for code in pair.groups())
            return "Code-A" if first < second else "Code-B"
        return f"<Answer>({'ABCD'[int(hashlib.sha256(last_message.encode()).hexdigest(), 16) % 4]})</Answer>"


def test_views_show_only_the_prompt() -> None:
    record = DebugEvalRecord(
        question_id="secret-id", language="python", question_content="Add.\n\nExample 1:\nInput: a = 1\nOutput: 2",
        buggy_code="x", correct_code="y", task1_answer="(C)", task1_option_texts=["a", "b", "c", "d"],
        task1_options="(A) a\n(B) b\n(C) c\n(D) d", task2_choice="(B)", task4="True", major_error_type="logic error",
        tests_kind="leetcode", method="secret_method", examples=["Input: a = 1\nOutput: 2"],
    )  # fmt: skip
    dumped = {task: view_of(task, record).model_dump_json() for task in ("bug-localization", "code-repair")}
    for text in dumped.values():
        assert "secret" not in text and "(C)" not in text and "logic error" not in text
    assert '"y"' not in dumped["code-repair"]  # the correct code only where the task shows both programs
    assert view_of("code-review", record).code_b == "y" and view_of("code-review", record, reverse=True).code_a == "y"
    assert stated_examples(record.question_content) == ["Input: a = 1\nOutput: 2"]


def test_a_design_problems_example_is_stated_with_input_alone_on_its_line() -> None:
    # LeetCode writes a design problem's example as "Input" / operations / arguments / "Output" / answers, with no
    # colons: the examples must still be found, or no offline search ever runs such a program
    question = (
        'Design a counter.\n\nExample 1:\nInput\n["Counter", "add", "total"]\n[[], [4], []]\n'
        "Output\n[null, null, 4]\n\nExplanation\nCounter c = new Counter();\n\nConstraints:\n1 <= n <= 9"
    )
    blocks = stated_examples(question)
    assert len(blocks) == 1 and blocks[0].startswith("Input\n[") and blocks[0].endswith("Counter c = new Counter();")
    calls, _ = stated_calls(blocks, "class Counter {\npublic:\n    void add(int x) {}\n};", "cpp")
    assert is_design(calls) and calls[0].expected == [None, None, 4]
    # a word "Input" inside a sentence starts nothing
    found = stated_examples("Input values are sorted.\nExample 1:\nInput: a = 1\nOutput: 2")
    assert found == ["Input: a = 1\nOutput: 2"]


def _sample_items(limit_repair: bool) -> list[EvalItem]:
    """Every Python item, and the three-task items of one C++ program with a syntax bug: answering a C++/Java program
    compiles and runs it and may search for its repair (seconds to minutes a program), and one program is enough to
    show what the views hide (the repair test below takes the Java item too)."""
    items = build_items(load_records(SAMPLE))
    compiled = max(
        item.input["record"]["question_id"]
        for item in items
        if item.input["record"]["language"] == "cpp" and item.input["record"]["major_error_type"] == "syntax error"
    )
    record_of = [item.input["record"] for item in items]
    items = [i for i, r in zip(items, record_of) if r["language"] == "python" or r["question_id"] == compiled]
    if limit_repair:
        items = [item for item in items if item.input["task"] != "code-repair"]
    return items


@pytest.mark.parametrize("solver_name", ["llm", "grounded"])
def test_model_solvers_see_the_same_prompts_when_the_rest_is_blanked(solver_name: str) -> None:
    items = _sample_items(limit_repair=False)
    model = EchoModel(responses=[])
    solver = ViewSolver(ModelSolver(model, grounded=solver_name == "grounded").answer)
    original = answers(solver, items)
    prompts = [call.messages[-1].content for call in model.history]
    model.history.clear()
    assert answers(solver, [blanked(item) for item in items]) == original
    assert [call.messages[-1].content for call in model.history] == prompts
    reviews = [item for item in items if item.input["task"] == "code-review"]
    assert reviews
    before = answers(solver, reviews)
    after = answers(solver, [swapped(item) for item in reviews])
    assert after == [flipped(output) for output in before]


def test_offline_solver_answers_unchanged_when_blanked_and_flips_when_swapped() -> None:
    # of the C++ program, Code Review alone: it shows both programs, and each C++ answer compiles and runs them anew
    items = [
        item
        for item in _sample_items(limit_repair=True)
        if item.input["record"]["language"] == "python" or item.input["task"] == "code-review"
    ]
    assert any(item.input["record"]["language"] == "cpp" for item in items)
    solver = ViewSolver(OfflineSolver().answer)
    original = answers(solver, items)
    assert answers(solver, [blanked(item) for item in items]) == original
    reviews = [item for item in items if item.input["task"] == "code-review"]
    assert reviews
    assert answers(solver, [swapped(item) for item in reviews]) == [flipped(o) for o in answers(solver, reviews)]


@pytest.mark.slow
def test_offline_repair_answers_unchanged_when_blanked() -> None:
    items = [item for item in build_items(load_records(SAMPLE)) if item.input["task"] == "code-repair"]
    solver = ViewSolver(OfflineSolver(repair_seconds=120.0).answer)  # executions, not seconds, bound the search
    assert answers(solver, [blanked(item) for item in items]) == answers(solver, items)


def test_review_views_are_the_two_orders() -> None:
    (item,) = [i for i in _sample_items(limit_repair=True) if i.input["task"] == "code-review"][:1]
    views = views_of(item)
    assert views["forward"].code_a == views["reverse"].code_b and views["forward"].code_b == views["reverse"].code_a
