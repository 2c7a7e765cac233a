"""The offline instructor listens: what the student just said, their edits and their debug prints change the next
question; keyword templates match whole words only; and it filters by visible code, not by the leak guard."""

from __future__ import annotations

from typing import Any

import pytest

from debugtutor.socratic.questioner import (
    AnalysisQuestioner,
    TutoringState,
    find_focus,
    is_debug_print,
    map_line,
    student_named_cause,
    visible_code_only,
)

PROBLEM = "Write `sum_to(n)` that returns 1 + 2 + ... + n."
BUGGY = "def sum_to(n):\n    total = 0\n    for i in range(1, n):\n        total += i\n    return total"
TESTS = "assert sum_to(3) == 6\nassert sum_to(1) == 1"
DESC = "On line 3, `range(1, n)` stops before `n`, so `n` is never added to `total`."
WALK = "walk me through your code"


def state(text: str, *, code: str = BUGGY, turn: int = 2, desc: str = DESC, **kw: Any) -> TutoringState:
    return TutoringState(
        problem=PROBLEM,
        code=code,
        unit_tests=TESTS,
        student_text=text,
        turn_index=turn,
        bug_desc=desc,
        original_code=BUGGY,
        **kw,
    )


def said(text: str, **kw: Any) -> list[str]:
    return AnalysisQuestioner(max_utterances=6).respond(state(text, **kw))


def test_a_student_who_has_not_found_the_bug_may_be_asked_to_walk_through() -> None:
    assert any(WALK in u.lower() for u in said("I don't get why my output is wrong.", turn=0))


@pytest.mark.parametrize(
    "text",
    [
        "I think line 3 is the problem.",
        "The loop never adds n because `range(1, n)` stops one early.",
        "Oh, total is wrong since the last number is not added.",
    ],
)
def test_a_student_who_named_the_cause_is_not_sent_back_to_the_start(text: str) -> None:
    utterances = said(text)
    assert utterances
    assert not any(WALK in u.lower() for u in utterances), utterances
    assert not any("first failing test" in u.lower() for u in utterances), utterances
    assert any("line 3" in u or "range(1, n)" in u for u in utterances), utterances


def test_a_student_who_ran_the_failing_test_is_asked_about_the_line_next() -> None:
    utterances = said("When I run `sum_to(3)` I get 3.", turn=1)
    assert "line 3" in utterances[0]


def test_naming_the_cause_needs_the_line_the_construct_or_a_name_with_a_reason() -> None:
    focus = find_focus(state(""), None)
    assert focus is not None and focus.lines == [3]
    assert student_named_cause("It's on lines 2 and 3 I think", focus)
    assert not student_named_cause("line 13 looks odd", focus)  # 13 is not 3
    assert not student_named_cause("total is 3", focus)  # a value, not a cause
    assert student_named_cause("total is wrong because n is never added", focus)


def test_line_references_follow_the_students_edits() -> None:
    edited = "import math\n\n" + BUGGY  # two lines inserted above the loop
    assert map_line(BUGGY, edited, 3) == 5
    assert map_line(BUGGY, BUGGY.replace("range(1, n)", "range(1, n - 0)"), 3) == 3  # a changed line stays put
    focus = find_focus(state("", code=edited), None)
    assert focus is not None and focus.lines == [5]
    utterances = said("I don't know", code=edited, code_changed=True)
    assert any("line 5" in u for u in utterances) and not any("line 3" in u for u in utterances), utterances


RETURNS = "def total(xs):\n    s = 0\n    for x in xs:\n        print(s)\n        s = s + x * 2\n    return s"
PRINTS = "def total(xs):\n    s = 0\n    for x in xs:\n        s = s + x\n    print(s)"


def test_a_debug_print_is_not_a_print_versus_return_bug() -> None:
    assert is_debug_print(RETURNS, 4) and not is_debug_print(PRINTS, 5)
    debug_state = TutoringState(
        problem="Return the sum of xs.",
        code=RETURNS,
        unit_tests="assert total([1, 2]) == 3",
        student_text="I added a print and see 0, 2",
        turn_index=3,
        suspect_lines=[4, 5],
    )
    focus = find_focus(debug_state, None)
    assert focus is not None and focus.lines[0] == 5
    utterances = AnalysisQuestioner(max_utterances=8).respond(debug_state)
    assert utterances and not any("`print` and `return`" in u for u in utterances), utterances
    real = TutoringState(
        problem="Return the sum of xs.",
        code=PRINTS,
        unit_tests="assert total([1, 2]) == 3",
        student_text="I'm stuck",
        turn_index=5,
        suspect_lines=[5],
    )
    assert any("`print` and `return`" in u for u in AnalysisQuestioner(max_utterances=8).respond(real))


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("returned = 0", "init"),
        ("returned = s + 1", "operation"),
        ("value = my_range(3)", "init"),
        ("value = arange(3) + 1", "operation"),
        ("for i in range(3):", "range"),
        ("printed = True", "init"),
        ("return s", "return"),
    ],
)
def test_templates_match_whole_keywords(line: str, kind: str) -> None:
    body = "        pass" if line.startswith("for") else "    return s"
    code = f"def f(s):\n    {line}\n{body}"
    focus = find_focus(TutoringState(problem="", code=code, unit_tests="", student_text="", suspect_lines=[2]), None)
    assert focus is not None and focus.kind == kind


def test_the_instructor_filters_by_visible_code_not_by_the_leak_guard() -> None:
    visible = BUGGY + "\n" + TESTS
    assert visible_code_only("What does `range(1, n)` give for `sum_to(3)`?", visible)
    assert not visible_code_only("What about `range(1, n + 1)`?", visible)
    assert visible_code_only("What is the difference between `print` and `return`?", "x = 1")
    assert not visible_code_only("What is `ind`?", "index = 0")  # whole tokens only
    import debugtutor.socratic.questioner as offline

    assert "LeakGuard" not in vars(offline)
