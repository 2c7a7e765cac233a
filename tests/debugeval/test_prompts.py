"""Prompts carry DebugEval's answer formats; extraction follows DebugEval's single-answer rules."""

from __future__ import annotations

from debugtutor.debugeval.prompts import (
    choice_correct,
    extract_choice,
    extract_code,
    extract_review,
    identification_prompt,
    localization_prompt,
    prefill_of,
    repair_prompt,
    review_label,
    review_prompt,
)
from debugtutor.debugeval.records import DebugEvalRecord, render_options
from debugtutor.debugeval.views import view_of


def _record() -> DebugEvalRecord:
    return DebugEvalRecord(
        question_id="q",
        language="python",
        question_content="Add two numbers.",
        buggy_code="def f(a, b):\n  return a-b",
        correct_code="def f(a, b):\n  return a+b",
        task1_options=render_options(["return a-b", "x", "y", "z"]),
    )


def test_prompts_contain_the_inputs_and_answer_formats() -> None:
    record = _record()
    localization = view_of("bug-localization", record)
    assert "<Answer>(Option)</Answer>" in localization_prompt(localization)
    assert "(A) return a-b" in localization_prompt(localization)
    assert "(D) Multiple Errors" in identification_prompt(view_of("bug-identification", record))
    forward = review_prompt(view_of("code-review", record))
    reverse = review_prompt(view_of("code-review", record, reverse=True))
    assert forward.index("a-b") < forward.index("a+b") and reverse.index("a+b") < reverse.index("a-b")
    assert "```code" in repair_prompt(view_of("code-repair", record))
    assert "Evidence line" in localization_prompt(localization, facts="Evidence line")


def test_paper_layout_prefills_the_review_answer() -> None:
    review = view_of("code-review", _record())
    assert review_prompt(review, style="paper").endswith("Your response:Code-")
    assert prefill_of(review, "paper") == "Code-" and prefill_of(review, "ours") == ""
    assert not review_prompt(review).endswith("Code-")
    paper = identification_prompt(view_of("bug-identification", _record()), style="paper")
    assert paper.endswith("Answer:\n<Answer>") and "\n(C) Logical Error\n" in paper
    # the pre-fill is part of the answer: the continuation "A" means Code-A
    assert extract_review("A, since it subtracts", prefill="Code-") == "Code-A"
    assert extract_review("B", prefill="Code-") == "Code-B"


def test_choice_extraction_follows_the_single_answer_rule() -> None:
    assert choice_correct("(B)</Answer>", "(B)")  # the prompt pre-opens the tag
    assert choice_correct("B", "(B)")  # a bare letter is wrapped
    assert choice_correct("<Answer>(B)</Answer> because ...", "(B)")
    assert not choice_correct("<Answer>(A) or (B)</Answer>", "(B)")
    assert not choice_correct("I think it is B because of the loop", "(B)")
    assert extract_choice("The answer\n(C)</Answer>") == "The answer (C)"


def test_review_extraction() -> None:
    assert extract_review("Code-A\nbecause ...") == "Code-A"
    assert extract_review("B") == "Code-B"
    assert extract_review("The correct one is Code-B.") == "Code-A"
    assert extract_review("Code-A and Code-B both look fine") == "don't know"
    assert extract_review("<Answer>Code-B</Answer>") == "Code-B"
    assert review_label("Code-B") == "B" and review_label("don't know") is None


def test_review_labels_match_in_any_case_and_stay_single() -> None:
    assert extract_review("code-a is buggy") == "Code-A"
    assert extract_review("CODE-B") == "Code-B"
    assert extract_review("<answer>code-b</answer>") == "Code-B"
    assert extract_review("code-a or Code-B, hard to say") == "don't know"
    assert extract_review("The correct one is code-b.") == "Code-A"
    assert extract_review("Codes differ") == "Codes differ"  # no label, no guess


def test_code_extraction_prefers_the_last_code_fence() -> None:
    assert extract_code("```code\nold\n```\ntext\n```code\nnew()\n```") == "new()\n"
    assert extract_code("```python\n    x = 1\n```") == "    x = 1\n"
    assert extract_code("```\nclass Solution:\n    pass\n```") == "class Solution:\n    pass\n"
    assert extract_code("Correct_Solution:\nprint(1)") == "print(1)\n"
