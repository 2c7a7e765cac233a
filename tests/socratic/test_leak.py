"""The leak guard flags utterances that give the fix away and lets Socratic questions through."""

from __future__ import annotations

from pathlib import Path

import pytest

from debugtutor.socratic.dataset import load_dialogues
from debugtutor.socratic.leak import LeakGuard

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
def test_leaks_are_flagged(utterance: str) -> None:
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


def test_fixed_program_lines_count_as_fix() -> None:
    guard = LeakGuard("x = a - b\nprint(x)", [], fixed_code="x = a + b\nprint(x)")
    assert guard.check("Write `x = a + b` there.").leaked
    assert not guard.check("What does `x = a - b` compute?").leaked
    assert guard.leak_rate(["Write `x = a + b` there.", "What is x?"]) == 0.5


@pytest.mark.shared_data
def test_reference_utterances_rarely_leak(shared_data: Path) -> None:
    total = leaked = 0
    for d in load_dialogues(shared_data / "socratic" / "v2_sigcse" / "train"):
        guard = LeakGuard(d.bug_code, d.bug_fixes, context=d.problem + "\n" + d.unit_tests)
        for turn in d.instructor_turns():
            for utterance in turn.utterances:
                total += 1
                leaked += guard.check(utterance).leaked
    # The benchmark's instructor utterances are Socratic by construction; the guard must agree almost always.
    assert total > 100
    assert leaked / total < 0.01
