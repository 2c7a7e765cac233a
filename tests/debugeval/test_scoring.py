"""Scoring: the single-answer rule, both orders for Code Review, pass@k from sandbox runs, and a summary that shows
a model's bias in Bug Identification."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from debugtutor.debugeval.records import DebugEvalRecord
from debugtutor.debugeval.scoring import score_item, summarize
from debugtutor.debugeval.tasks import build_items
from debugtutor.runs import EvalItem, SampleRecord
from debugtutor.runs._records import ErrorInfo
from debugtutor.sandbox import LeetCodeCall


def _item(task: str, **fields: Any) -> EvalItem:
    record = DebugEvalRecord(question_id="q", language="python", buggy_code="x", **fields)
    (item,) = build_items([record], tasks=[task])  # type: ignore[list-item]
    return item


def test_choice_tasks() -> None:
    item = _item("bug-identification", task2_choice="(B)", major_error_type="reference error")
    right = asyncio.run(score_item(item, {"responses": ["(B)</Answer>"]}))
    wrong = asyncio.run(score_item(item, {"responses": ["(B) or (C)"]}))
    assert right["score"] == 1.0 and right["predicted"] == "(B)"
    assert wrong["score"] == 0.0 and wrong["predicted"] == "invalid"


def test_review_needs_both_orders() -> None:
    item = _item("code-review", correct_code="y", task4="True")
    both = {"forward": {"responses": ["Code-A"]}, "reverse": {"responses": ["Code-B"]}}
    one = {"forward": {"responses": ["Code-A"]}, "reverse": {"responses": ["Code-A"]}}
    assert asyncio.run(score_item(item, both))["score"] == 1.0
    scored = asyncio.run(score_item(item, one))
    assert scored["score"] == 0.0 and scored["forward"] is True and scored["reverse"] is False


def test_repair_pass_at_k_runs_the_programs() -> None:
    item = _item("code-repair", tests_kind="asserts", unit_tests=["assert add(2, 3) == 5", "assert add(0, 0) == 0"])
    good = "```code\ndef add(a, b):\n    return a + b\n```"
    bad = "```code\ndef add(a, b):\n    return a - b\n```"
    scored = asyncio.run(score_item(item, {"responses": [good, bad, bad, bad, bad]}))
    assert scored["n"] == 5 and scored["c"] == 1
    assert abs(float(scored["score"]) - 0.2) < 1e-9 and scored["pass@5"] == 1.0


def _sample(task: str, gold: str, predicted: str, score: float) -> SampleRecord:
    return SampleRecord(
        id=f"{task}:{gold}:{predicted}:{score}", input_hash="h",
        scores={"task": task, "language": "python", "gold": gold, "predicted": predicted, "score": score},
    )  # fmt: skip


def test_summary_shows_a_logic_error_bias() -> None:
    records = [
        _sample("bug-identification", gold, "(C)", float(gold == "(C)")) for gold in ("(A)", "(B)", "(C)", "(D)")
    ]
    summary = summarize(records)
    assert summary["accuracy"]["bug-identification"]["python"] == 25.0
    facts = summary["identification"]["python"]
    assert facts["answer_distribution"] == {"(C)": 4}
    assert facts["per_class_accuracy"] == {"(A)": 0.0, "(B)": 0.0, "(C)": 100.0, "(D)": 0.0}


# One problem in the three languages: a fix whose method cannot be called fails, and the item stays counted.
UNCALLABLE = {
    "python": (
        "class Solution:\n    def twice(self, n: int) -> int:\n        return 2 * n\n",
        "class Solution:\n    def renamed(self, n: int) -> int:\n        return 2 * n\n",
    ),
    "cpp": (
        "class Solution {\npublic:\n    int twice(int n) { return 2 * n; }\n};\n",
        "class Solution {\npublic:\n    int twice(map<int, int> n) { return 2; }\n};\n",
    ),
    "java": (
        "class Solution {\n    public int twice(int n) { return 2 * n; }\n}\n",
        "class Solution {\n    public int twice(Map<Integer, Integer> n) { return 2; }\n}\n",
    ),
}


@pytest.mark.parametrize("language", ["python", "cpp", "java"])
def test_an_uncallable_fix_fails_and_counts(language: str) -> None:
    correct, uncallable = UNCALLABLE[language]
    record = DebugEvalRecord(
        question_id=f"q-{language}", language=language, buggy_code=uncallable, tests_kind="leetcode",  # type: ignore[arg-type]
        method="twice", leetcode_calls=[LeetCodeCall(args={"n": 3}, expected=6)],
    )  # fmt: skip
    (item,) = build_items([record], tasks=["code-repair"])
    fence = "```code\n{}\n```"
    passing = asyncio.run(score_item(item, {"responses": [fence.format(correct)]}))
    assert passing["score"] == 1.0, passing["reason"]
    scored = asyncio.run(score_item(item, {"responses": [fence.format(uncallable)]}))
    assert scored["n"] == 1 and scored["c"] == 0 and scored["score"] == 0.0


def test_errored_items_stay_in_the_denominator() -> None:
    records = [
        SampleRecord(
            id="code-repair:a", input_hash="h", scores={"task": "code-repair", "language": "cpp", "score": 1.0}
        ),
        SampleRecord(id="code-repair:b", input_hash="h", error=ErrorInfo(type="ModelError", message="timed out")),
    ]
    summary = summarize(records, languages={"code-repair:a": "cpp", "code-repair:b": "cpp"})
    assert summary["accuracy"]["code-repair"] == {"cpp": 50.0, "all": 50.0}
    assert summary["pass_at_k"]["cpp"]["pass@1"] == 50.0
    assert summary["errors"]["code-repair"] == {"all": 1, "cpp": 1}
