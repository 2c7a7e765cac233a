"""The leak guard flags utterances that give the fix away, in code or in plain words, and lets Socratic questions
through; its precision and recall on the labelled sentences (tests/socratic/data) stay where they were measured."""

from __future__ import annotations

from pathlib import Path

import pytest

from debugtutor.socratic.dataset import load_dialogues
from debugtutor.socratic.leak import LeakGuard, diff_edit, tokens
from debugtutor.socratic.leak_labels import (
    benchmark_utterances,
    read_labelled_set,
    score_check,
    score_clean_utterances,
)

DATA = Path(__file__).parent / "data"
BUG = "def fact(n):\n    result = 0\n    for k in range(1, n + 1):\n        result = result * k\n    return result"
GUARD = LeakGuard(BUG, ["Replace `result = 0` with `result = 1` on line 2."], context="assert fact(3) == 6")


@pytest.mark.parametrize(
    "utterance",
    [
        "Change line 2 to `result = 1`.",
        "The fix is to write result = 1 on line 2.",
        "You should initialize `result` with `1` instead of `0`.",
        "Try `result = 1` and run the tests again.",
    ],
)
def test_leaks_in_code_are_flagged(utterance: str) -> None:
    verdict = GUARD.check(utterance)
    assert verdict.leaked, utterance
    assert verdict.reasons


@pytest.mark.parametrize(
    "utterance",
    [
        "What is the value of `result` after line 4 runs for the first time?",
        "What does `result = 0` mean for a running product?",
        "What do you get when you multiply 0 by any number?",
        "What happens when you call `fact(3)`?",
        "Which line sets the starting value of `result`?",
    ],
)
def test_socratic_questions_pass(utterance: str) -> None:
    assert not GUARD.check(utterance).leaked, GUARD.check(utterance).reasons


SWAP = LeakGuard("def power(b, e):\n    return pow(e, b)", [], fixed_code="def power(b, e):\n    return pow(b, e)")
NEQ = LeakGuard(
    "def others(xs, t):\n    return [x for x in xs if x == t]",
    [],
    fixed_code="def others(xs, t):\n    return [x for x in xs if x != t]",
)
BOUND = LeakGuard(
    "def pairs(a, n):\n    i = 0\n    while i < n:\n        print(a[i], a[i + 1])\n        i += 1",
    ["Replace `i < n` with `i < n - 1` on line 3."],
    context="assert pairs([1, 2], 2) is None",
)


@pytest.mark.parametrize(
    ("guard", "utterance"),
    [
        (SWAP, "Swap the two arguments."),
        (NEQ, "Use `!=` there instead."),
        (BOUND, "Shouldn't the loop stop at `n - 1`?"),
        (BOUND, "What if the loop ended one step earlier?"),
        (BOUND, "What do you get with `while i < n - 1:`?"),
    ],
)
def test_fixes_given_away_in_plain_words_are_flagged(guard: LeakGuard, utterance: str) -> None:
    assert guard.check(utterance).leaked, utterance


@pytest.mark.parametrize(
    ("guard", "utterance"),
    [
        (SWAP, "In what order does `pow` take its arguments?"),
        (NEQ, "What does `x == t` check?"),
        (NEQ, "Do you know what the `!=` operator does?"),
        (BOUND, "Let's add a print statement before line 4. What is the last value of `i`?"),
        (BOUND, "Try calling `pairs([1, 2], 2)`. What happens?"),
        (BOUND, "How many times does the loop on line 3 run when `n` is 2?"),
    ],
)
def test_questions_and_debugging_moves_are_not_edits(guard: LeakGuard, utterance: str) -> None:
    assert not guard.check(utterance).leaked, guard.check(utterance).reasons


def test_the_fix_is_worked_out_from_a_fixed_program_or_from_prose() -> None:
    edit = diff_edit("def f(n):\n    return n / 2", "def f(n):\n    return n // 2")
    assert "//" in edit.added and "/" in edit.removed
    assert tokens("n // 2") in edit.fragments
    dedent = diff_edit("for x in y:\n    s += x\n    return s", "for x in y:\n    s += x\nreturn s")
    assert "dedent" in dedent.kinds
    assert "swap" in SWAP.edit.kinds
    assert "n - 1" in BOUND.fragments  # from the prose, applied to line 3 of the buggy code


def test_fixed_program_lines_count_as_fix() -> None:
    guard = LeakGuard("x = a - b\nprint(x)", [], fixed_code="x = a + b\nprint(x)")
    assert guard.check("Write `x = a + b` there.").leaked
    assert not guard.check("What does `x = a - b` compute?").leaked
    assert guard.leak_rate(["Write `x = a + b` there.", "What is x?"]) == 0.5


def test_every_sentence_of_an_utterance_is_checked() -> None:
    assert NEQ.check("Good thinking! Now use `!=` on that line.").leaked
    assert not NEQ.check("Good thinking! Which items does the condition keep?").leaked


@pytest.mark.parametrize("part", ["dev", "heldout"])
def test_labelled_sets_are_well_formed_and_large_enough(part: str) -> None:
    cases = read_labelled_set(DATA / f"leak_sentences_{part}.txt")
    sentences = [s for case in cases for s in case.sentences]
    assert len(sentences) >= 100
    assert 0.4 < sum(s.leak for s in sentences) / len(sentences) < 0.6
    assert all(case.fixed and case.fix and case.problem for case in cases)


# Measured with bench/socratic_leak.py when the guard was rebuilt; the floors sit a little below the measurement so
# that a regression fails the test. The held-apart part was never tuned on.
FLOORS = {
    ("dev", "program"): (0.95, 0.93),
    ("dev", "prose"): (0.95, 0.90),
    ("heldout", "program"): (0.90, 0.85),
    ("heldout", "prose"): (0.90, 0.85),
}


@pytest.mark.parametrize(("part", "fixes"), sorted(FLOORS))
def test_precision_and_recall_on_the_labelled_sets(part: str, fixes: str) -> None:
    score = score_check(read_labelled_set(DATA / f"leak_sentences_{part}.txt"), fixes)  # type: ignore[arg-type]
    precision, recall = FLOORS[(part, fixes)]
    assert score.precision >= precision, score.false_alarms
    assert score.recall >= recall, score.missed


@pytest.mark.shared_data
def test_benchmark_instructor_utterances_rarely_flagged(shared_data: Path) -> None:
    dialogues = load_dialogues(shared_data / "socratic" / "v2_sigcse" / "train")
    clean = score_clean_utterances(benchmark_utterances(dialogues))
    # They are Socratic by the benchmark's design (a few do give the fix away); measured 1.4% when rebuilt.
    assert clean.sentences > 1000
    assert clean.false_positive_rate < 0.025, clean.false_alarms
