"""Tests for the repair search: ordering, pruning, caching and budgets (with a scripted verifier), and verified
repairs of real programs in the sandbox."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from debugtutor.analysis.engine import REPAIR_TEST_TIMEOUT_BOUNDS_S, repair_test_timeout
from debugtutor.analysis.execution import ExecutionFacts, TestRun
from debugtutor.analysis.repair import (
    EMPTY_ENDER_SPAN,
    AppliedEdit,
    Repair,
    RepairBudget,
    _Candidate,
    _closer,
    _moved_on,
    _preferred_first,
    _progress_desc,
    _search,
    _Verdict,
    answer_closeness,
    changed_original_lines,
    repair,
    unified_diff,
)
from debugtutor.sandbox import PythonTestsRequest, Status, run

FIB = """def fib(n):
    a, b = 0, 1
    for i in range(0, n + 1):
        a, b = b, a + b
    return a
"""
FIB_TESTS = ["assert fib(1) == 1", "assert fib(2) == 1", "assert fib(6) == 8"]


class ScriptedVerifier:
    """Counts tests as passed by looking for marker substrings; records every program it was asked to run."""

    def __init__(self, markers: list[str], total: int = 3) -> None:
        self.markers = markers
        self.total = total
        self.runs: list[str] = []
        self.batches = 0

    async def __call__(self, sources: list[str], seconds: float, full_time: bool = True) -> list[_Verdict]:
        self.batches += 1
        self.runs.extend(sources)
        return [
            _Verdict(passed=sum(marker in source for marker in self.markers), total=self.total, compiles=True)
            for source in sources
        ]


def run_search(code: str, verifier: Any, proposer: Any, **budget: Any) -> Any:
    """One search; candidates are checked one at a time unless the test asks for batches."""
    budget.setdefault("batch_size", 1)
    budget.setdefault("concurrency", 1)
    return asyncio.run(
        _search(
            code,
            verifier,
            suspicious_lines=budget.pop("lines", []),
            budget=RepairBudget(**budget),
            proposer=proposer,
            localize=None,
        )
    )


def fillers_between_two_mends(scripted_proposer: Any, replacement: Any) -> Any:
    """Line 3's mend, twenty edits of line 2 that change nothing, then line 4's mend."""
    fillers = [replacement(2, "0, 1", f"0, {k} - {k} + 1") for k in range(20)]
    return scripted_proposer([replacement(3, "range(0,", "range(1,"), *fillers, replacement(4, "a + b", "b + a")])


def run_localized_search(verifier: Any, proposer: Any, localize: Any) -> Any:
    """One search at lines 3, 2, 4, one candidate at a time, with ``localize`` to rank a base's lines again."""
    budget = RepairBudget(batch_size=1, concurrency=1)
    return asyncio.run(
        _search(FIB, verifier, suspicious_lines=[3, 2, 4], budget=budget, proposer=proposer, localize=localize)
    )


def test_single_edit_at_the_suspicious_line_is_found_first(scripted_proposer: Any, replacement: Any) -> None:
    proposer = scripted_proposer(
        [replacement(2, "0, 1", "1, 1"), replacement(3, "n + 1", "n"), replacement(4, "a + b", "a - b")]
    )
    verifier = ScriptedVerifier(["range(0, n)", "range(0, n)", "range(0, n)"])
    result = run_search(FIB, verifier, proposer, lines=[3, 2])
    assert result.best is not None
    assert [edit.line for edit in result.best.edits] == [3]
    assert result.best.changed_lines == [3]
    # the original run, then line 3's edit: the search never needed line 2
    assert len(verifier.runs) == 2 and result.executions == 2
    assert "-    for i in range(0, n + 1):" in result.best.diff


def test_a_fix_that_does_not_hold_near_the_tests_is_passed_over_for_one_that_does(
    scripted_proposer: Any, replacement: Any
) -> None:
    # both edits pass all three tests; the robustness check says the first (at the more suspicious line) only
    # fits the tests, so the search goes on to the second
    proposer = scripted_proposer([replacement(3, "n + 1", "n - 0"), replacement(2, "0, 1", "1, 1")])
    verifier = ScriptedVerifier(["n - 0", "1, 1"], total=1)
    asked: list[str] = []

    async def holds_unless_fitted(source: str) -> bool:
        asked.append(source)
        return "n - 0" not in source

    def search(robust: Any) -> Any:
        budget = RepairBudget(batch_size=1, concurrency=1, max_edits=1)
        return asyncio.run(_search(FIB, verifier, suspicious_lines=[3, 2], budget=budget, proposer=proposer,
                                   localize=None, robust=robust))  # fmt: skip

    result = search(holds_unless_fitted)
    assert result.best is not None and [edit.line for edit in result.best.edits] == [2]
    assert not result.best.fragile and len(asked) == 2
    # with nothing better to be found, the fitted fix is still returned, marked fragile
    proposer = scripted_proposer([replacement(3, "n + 1", "n - 0")])
    alone = search(holds_unless_fitted)
    assert alone.best is not None and alone.best.fragile and [edit.line for edit in alone.best.edits] == [3]


def test_double_edit_builds_on_a_partial_fix(scripted_proposer: Any, replacement: Any) -> None:
    proposer = scripted_proposer([replacement(3, "range(0,", "range(1,"), replacement(4, "a + b", "b + a")])
    # each edit alone passes one more test; only both pass all three
    verifier = ScriptedVerifier(["range(1,", "b + a", "range(1, n + 1):\n        a, b = b, b + a"])
    result = run_search(FIB, verifier, proposer, lines=[3, 4])
    assert result.best is not None
    assert sorted(edit.line for edit in result.best.edits) == [3, 4]
    assert len(result.best.edits) == 2


def test_two_edits_that_each_pass_more_alone_are_tried_together_before_the_deeper_search(
    scripted_proposer: Any, replacement: Any
) -> None:
    proposer = fillers_between_two_mends(scripted_proposer, replacement)
    verifier = ScriptedVerifier(["range(1,", "b + a", "range(1, n + 1):\n        a, b = b, b + a"])
    result = run_search(FIB, verifier, proposer, lines=[3, 2, 4])
    assert result.best is not None and sorted(edit.line for edit in result.best.edits) == [3, 4]
    # the original, the 22 single edits, then the two that gained together: no second edit on top of a filler
    assert len(verifier.runs) == 1 + 22 + 1
    # one edit per fix: no pairs
    single = run_search(FIB, ScriptedVerifier(["range(1,", "b + a", "never"]), proposer, lines=[3, 2, 4], max_edits=1)
    assert single.repairs == [] and single.executions == 1 + 22


class RecursingVerifier:
    """FIB's tests 2 and 3 crash (a recursion that never ends) and test 1 fails; ``range(1,`` ends the crashes with
    every answer still wrong; ``b + a`` passes test 1 and the others still crash; with both every test passes."""

    def __init__(self) -> None:
        self.runs: list[str] = []

    async def __call__(self, sources: list[str], seconds: float, full_time: bool = True) -> list[_Verdict]:
        self.runs.extend(sources)
        verdicts = []
        for source in sources:
            ends, first = "range(1," in source, "b + a" in source
            stops: tuple[int | None, ...] = (None, None, None) if ends else (None, 0, 0)
            passed = 3 if ends and first else int(first)
            verdicts.append(_Verdict(passed=passed, total=3, compiles=True, stops=stops))
        return verdicts


def test_an_edit_that_ends_a_crash_is_paired_with_one_that_passes_more(
    scripted_proposer: Any, replacement: Any
) -> None:
    proposer = fillers_between_two_mends(scripted_proposer, replacement)
    verifier = RecursingVerifier()
    # (line 2 first: a second edit on top of either would try the fillers first)
    result = run_search(FIB, verifier, proposer, lines=[2, 3, 4])
    assert result.best is not None and sorted(edit.line for edit in result.best.edits) == [3, 4]
    # the original, the 22 single edits, then the edit that passed more with the one after which every test
    # answers: no second edit on top of a filler
    assert len(verifier.runs) == 1 + 22 + 1


def test_a_base_that_passes_more_tests_is_ranked_again_and_searched_from_there(
    scripted_proposer: Any, replacement: Any
) -> None:
    proposer = fillers_between_two_mends(scripted_proposer, replacement)
    # line 3's edit passes one of two tests; line 4's passes none alone and the other on top of it
    verifier = ScriptedVerifier(["range(1,", "range(1, n + 1):\n        a, b = b, b + a"], total=2)
    asked: list[str] = []

    async def localize(source: str) -> list[int]:
        asked.append(source)
        return [4]

    result = run_localized_search(verifier, proposer, localize)
    assert result.best is not None and sorted(edit.line for edit in result.best.edits) == [3, 4]
    # ranked again, the base is searched at line 4 first, not after line 2's twenty edits
    assert asked == [FIB.replace("range(0,", "range(1,")]
    assert len(verifier.runs) == 1 + 22 + 1


def test_the_lines_after_an_endless_loop_are_ranked_on_the_base_that_ends_it(
    scripted_proposer: Any, replacement: Any
) -> None:
    proposer = fillers_between_two_mends(scripted_proposer, replacement)

    class LoopingVerifier(ScriptedVerifier):
        # FIB runs out of time until line 3 is mended; then line 4's fault fails every test
        async def __call__(self, sources: list[str], seconds: float, full_time: bool = True) -> list[_Verdict]:
            verdicts = await super().__call__(sources, seconds, full_time)
            return [_Verdict(passed=v.passed, total=3, compiles=True, timed_out="range(1," not in source)
                    for v, source in zip(verdicts, sources, strict=True)]  # fmt: skip

    verifier = LoopingVerifier(["range(1, n + 1):\n        a, b = b, b + a"] * 3)
    asked: list[str] = []

    async def localize(source: str) -> list[int]:
        asked.append(source)
        return [4] if "range(1," in source else [2, 3, 4]

    result = run_localized_search(verifier, proposer, localize)
    assert result.best is not None and sorted(edit.line for edit in result.best.edits) == [3, 4]
    # the first single edit ends the loop but passes nothing alone: the other singles go on only until the search
    # has verified EMPTY_ENDER_SPAN times what it had then (the program and that edit), not through line 2's twenty
    # edits; the ender's lines are ranked again, and line 4 comes first
    assert asked == [FIB.replace("range(0,", "range(1,")]
    assert len(verifier.runs) == EMPTY_ENDER_SPAN * 2 + 1


def test_an_edit_that_ends_an_endless_loop_by_skipping_it_does_not_stop_the_single_edits(
    scripted_proposer: Any, replacement: Any
) -> None:
    # line 3's first edit makes the loop never run (no more time out, no test passed); line 4's edit, a few
    # candidates later, is the one fix
    skip = replacement(3, "range(0,", "range(n + 1,")
    fillers = [replacement(2, "0, 1", f"0, {k} - {k} + 1") for k in range(2)]
    proposer = scripted_proposer([skip, *fillers, replacement(4, "a + b", "b + a")])

    class LoopingVerifier(ScriptedVerifier):
        async def __call__(self, sources: list[str], seconds: float, full_time: bool = True) -> list[_Verdict]:
            verdicts = await super().__call__(sources, seconds, full_time)
            return [_Verdict(passed=v.passed, total=2, compiles=True,
                             timed_out="range(n + 1," not in source and "b + a" not in source)
                    for v, source in zip(verdicts, sources, strict=True)]  # fmt: skip

    verifier = LoopingVerifier(["b + a", "b + a"], total=2)
    result = run_search(FIB, verifier, proposer, lines=[3, 2, 4])
    assert result.best is not None and [edit.line for edit in result.best.edits] == [4]


def test_third_edit_only_builds_on_progress(scripted_proposer: Any, replacement: Any) -> None:
    proposer = scripted_proposer(
        [replacement(2, "0, 1", "1, 1"), replacement(3, "n + 1", "n"), replacement(4, "a + b", "b + a")]
    )
    verifier = ScriptedVerifier(["1, 1", "range(0, n)", "b + a"])
    result = run_search(FIB, verifier, proposer, lines=[2, 3, 4])
    assert result.best is not None
    assert sorted(edit.line for edit in result.best.edits) == [2, 3, 4]
    none_past_two = run_search(FIB, ScriptedVerifier(["1, 1", "range(0, n)", "b + a"]), proposer, max_edits=2)
    assert none_past_two.repairs == []


class CrashingVerifier:
    """Every test crashes at line 3 of FIB; with ``range(1,`` at line 4 instead (the first fault mended, the second
    in the way), at line 2 with the ``- 7 +`` filler; with ``b + a`` as well every test passes."""

    async def __call__(self, sources: list[str], seconds: float, full_time: bool = True) -> list[_Verdict]:
        verdicts = []
        for source in sources:
            stops: tuple[int | None, ...] = (3, 3, 3)
            if "range(1," in source:
                stops = (None, None, None) if "b + a" in source else (4, 4, 4)
            elif "- 7 +" in source:
                stops = (2, 2, 2)
            passed = 3 if stops == (None, None, None) else 0
            verdicts.append(_Verdict(passed=passed, total=3, compiles=True, stops=stops))
        return verdicts


def test_a_crash_that_moves_to_a_later_line_is_progress(scripted_proposer: Any, replacement: Any) -> None:
    fillers = [replacement(2, "0, 1", f"0, {k} - {k} + 1") for k in range(6)]
    early = replacement(2, "0, 1", "0, 1 - 7 + 7")
    mends = [replacement(3, "range(0,", "range(1,"), replacement(4, "a + b", "b + a")]
    proposer = scripted_proposer([early, *fillers, *mends])
    # one base only: it must be the edit that got every test further, not the first neutral edit or the one that
    # made the tests crash earlier
    result = run_search(FIB, CrashingVerifier(), proposer, lines=[2, 3, 4], max_bases=1)
    assert result.best is not None and sorted(edit.line for edit in result.best.edits) == [3, 4]


def test_a_base_that_got_further_is_searched_faster_than_the_bases_that_changed_nothing(
    scripted_proposer: Any, replacement: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the mend that got every test past its crash, ten edits of line 2 that changed nothing, then the second mend:
    # on top of the first, the second comes after the ten, while each neutral edit is a base of its own
    fillers = [replacement(2, "0, 1", f"0, 1 + {k} * 0") for k in range(10)]
    mends = [replacement(3, "range(0,", "range(1,"), replacement(4, "a + b", "b + a")]
    proposer = scripted_proposer([mends[0], *fillers, mends[1]])
    result = run_search(FIB, CrashingVerifier(), proposer, lines=[2, 3, 4], max_executions=40, top_lines=1)
    assert result.best is not None and sorted(edit.line for edit in result.best.edits) == [3, 4]
    # the same budget shared evenly among the bases runs out before
    monkeypatch.setattr("debugtutor.analysis.repair.PROGRESS_SHARE", 1)
    even = run_search(FIB, CrashingVerifier(), scripted_proposer([mends[0], *fillers, mends[1]]), lines=[2, 3, 4],
                      max_executions=40, top_lines=1)  # fmt: skip
    assert even.best is None


class NearingVerifier:
    """Both tests of FIB fail until ``range(1,`` and ``b + a`` are both in; ``range(1,`` alone brings the answers
    nearer (the right length, one element wrong), the ``- k +`` fillers move them elsewhere."""

    async def __call__(self, sources: list[str], seconds: float, full_time: bool = True) -> list[_Verdict]:
        verdicts = []
        for source in sources:
            expected = [1, 1, 2, 3]
            if "range(1," in source:
                answer = expected if "b + a" in source else [1, 1, 2, 4]
            else:
                answer = [0, 9] if " - " in source else [5, 5, 5, 5, 5]
            passed = 2 if answer == expected else 0
            closeness = (answer_closeness(answer, expected),) * 2
            verdicts.append(_Verdict(passed, 2, compiles=True, stops=(None, None), closeness=closeness))
        return verdicts


def test_answers_that_come_nearer_make_a_base_before_the_edits_that_changed_nothing(
    scripted_proposer: Any, replacement: Any
) -> None:
    fillers = [replacement(2, "0, 1", f"0, {k} - {k} + 1") for k in range(6)]
    mends = [replacement(3, "range(0,", "range(1,"), replacement(4, "a + b", "b + a")]
    # one base only: the edit whose answers came nearer, though it passes no more tests than the fillers
    result = run_search(FIB, NearingVerifier(), scripted_proposer([*fillers, *mends]), lines=[2, 3, 4], max_bases=1)
    assert result.best is not None and sorted(edit.line for edit in result.best.edits) == [3, 4]


def test_answer_closeness_orders_wrong_answers_by_how_near_they_are() -> None:
    assert answer_closeness([1, 2, 3], [1, 2, 3]) == 1.0
    assert answer_closeness([1, 2, 4], [1, 2, 3]) > answer_closeness([1, 5, 4], [1, 2, 3]) > 0.0
    assert answer_closeness([3, 2, 1], [1, 2, 3], unordered=True) == pytest.approx(0.99)
    assert answer_closeness(11, 10) > answer_closeness(100, 10) > answer_closeness(10**9, 10) > 0.0
    assert answer_closeness(1.0, 1) == pytest.approx(0.5)  # equal value, other type: not a pass
    assert answer_closeness("abd", "abc") > answer_closeness("xyz", "abc") == 0.0
    assert answer_closeness(True, False) == answer_closeness("1", 1) == 0.0
    assert answer_closeness(float("inf"), 3) == 0.0


def test_closer_needs_as_many_passes_and_no_new_crash() -> None:
    def verdict(passed: int, closeness: tuple[float, ...], stops: tuple[int | None, ...] = (None, None)) -> _Verdict:
        return _Verdict(passed, 2, compiles=True, stops=stops, closeness=closeness)

    before = verdict(0, (0.2, 0.0), stops=(None, 5))
    assert _closer(verdict(0, (0.3, 0.0), stops=(None, 5)), before)
    assert _closer(verdict(0, (0.2, 0.1)), before)  # the crashed test returns now
    assert not _closer(verdict(0, (0.6, 0.0), stops=(None, 7)), before)  # it crashes elsewhere
    assert not _closer(verdict(0, (0.2, 0.0), stops=(None, 5)), before)  # no nearer
    assert not _closer(verdict(1, (1.0, 0.0), stops=(None, 5)), before)  # more passes: progress of another kind
    assert not _closer(verdict(0, ()), before)  # the verifier does not say


def test_moved_on_needs_every_test_no_worse(scripted_proposer: Any, replacement: Any) -> None:
    base = _Candidate(FIB, [], verdict=_Verdict(1, 3, compiles=True, stops=(3, None, 3)))

    def moved(stops: tuple[int | None, ...], passed: int = 1, source: str = FIB) -> bool:
        return _moved_on(_Candidate(source, [], verdict=_Verdict(passed, 3, compiles=True, stops=stops)), base)

    assert moved((4, None, 3)) and moved((None, None, 3), passed=2) and moved((None, None, None))
    assert not moved((3, None, 3))  # nowhere further
    assert not moved((4, 4, 3))  # a test that returned crashes now
    assert not moved((4, None, 2))  # one test further, another earlier
    assert not moved((0, None, 3))  # where it stopped is unknown
    assert not moved((None, None, None), passed=0)  # a passing test lost
    assert not moved((4, None, 3), source=FIB + "\n")  # lines of another shape cannot be compared
    assert moved((None, None, 3), source=FIB + "\n")
    # a crash that could not be placed (a segmentation fault), placed now: no veto, but no progress alone either
    unplaced = _Candidate(FIB, [], verdict=_Verdict(0, 3, compiles=True, stops=(0, 0, 0)))
    assert _moved_on(_Candidate(FIB, [], verdict=_Verdict(0, 3, compiles=True, stops=(5, 5, None))), unplaced)
    assert not _moved_on(_Candidate(FIB, [], verdict=_Verdict(0, 3, compiles=True, stops=(5, 5, 5))), unplaced)


def test_bases_that_pass_as_many_tests_are_ordered_by_how_many_tests_return() -> None:
    def base(name: str, passed: int, stops: tuple[int | None, ...]) -> _Candidate:
        return _Candidate(name, [], verdict=_Verdict(passed, 3, compiles=True, stops=stops))

    bases = [base("crashes", 0, (4, 4, 4)), base("returns", 0, (None, None, 4)), base("passes", 1, (None, 4, 4)),
             base("unknown", 0, ())]  # fmt: skip
    assert [b.source for b in sorted(bases, key=_progress_desc)] == ["passes", "returns", "crashes", "unknown"]
    far, near = (
        _Candidate(name, [], verdict=_Verdict(1, 3, compiles=True, stops=(None,) * 3, closeness=(1.0, value, 0.1)))
        for name, value in (("far", 0.2), ("near", 0.7))
    )
    assert [b.source for b in sorted([far, near], key=_progress_desc)] == ["near", "far"]


def test_non_compiling_and_duplicate_candidates_are_not_run(scripted_proposer: Any, replacement: Any) -> None:
    proposer = scripted_proposer(
        [
            replacement(3, "range(0, n + 1):", "range(0, n + 1)"),  # drops the colon: does not compile
            replacement(4, "a + b", "b + a"),
            replacement(4, "a, b = b, a + b", "a, b = b, b + a"),  # the same program as the previous edit
        ]
    )
    verifier = ScriptedVerifier(["never"])
    result = run_search(FIB, verifier, proposer, lines=[3, 4], max_edits=1)
    assert result.repairs == []
    assert len(verifier.runs) == 2  # the original and one distinct compiling candidate
    assert not any("range(0, n + 1)\n" in run for run in verifier.runs)


def test_budget_of_executions_is_respected(scripted_proposer: Any, replacement: Any) -> None:
    proposer = scripted_proposer([replacement(4, "a + b", f"a + b + {k}") for k in range(30)])
    verifier = ScriptedVerifier(["never"])
    result = run_search(FIB, verifier, proposer, lines=[4], max_executions=5)
    assert result.repairs == []
    assert result.budget_exhausted
    assert len(verifier.runs) <= 5 + 1  # at most one batch past the limit with concurrency 2


def test_already_passing_program_needs_no_repair(scripted_proposer: Any) -> None:
    verifier = ScriptedVerifier(["def fib", "def fib", "def fib"])
    result = run_search(FIB, verifier, scripted_proposer([]))
    assert result.repairs == [] and result.tests_passed_before == 3 and result.executions == 1


def test_syntax_edits_come_first_for_code_that_does_not_compile(scripted_proposer: Any, replacement: Any) -> None:
    broken = FIB.replace("range(0, n + 1):", "range(0, n + 1)")
    proposer = scripted_proposer(
        [replacement(4, "a + b", "b + a"), replacement(3, "n + 1)", "n + 1):", category="syntax")]
    )
    verifier = ScriptedVerifier(["range(0, n + 1):"] * 3)
    result = run_search(broken, verifier, proposer)
    assert result.best is not None
    assert result.best.edits[0].category == "syntax"
    assert verifier.runs[0] == FIB  # the first program run is the syntax fix


def test_candidates_are_checked_in_batches(scripted_proposer: Any, replacement: Any) -> None:
    proposer = scripted_proposer([replacement(4, "a + b", f"a + b + {k}") for k in range(1, 11)])
    verifier = ScriptedVerifier(["a + b + 7"] * 3)
    result = run_search(FIB, verifier, proposer, lines=[4], batch_size=4, concurrency=2)
    assert result.best is not None and "a + b + 7" in result.best.source
    # the original alone, then one round of two batches of four holds the fix
    assert verifier.batches == 3 and len(verifier.runs) == 9
    assert result.sandbox_runs == 3


def test_changed_lines_and_diff() -> None:
    fixed = FIB.replace("n + 1", "n")
    assert changed_original_lines(FIB, fixed) == [3]
    assert changed_original_lines("a\nb\nc\n", "a\nc\n") == [2]
    assert changed_original_lines("a\nb\n", "a\nx\nb\n") == [1]
    diff = unified_diff(FIB, fixed)
    assert diff.startswith("--- a/program.py\n+++ b/program.py\n")
    assert "+    for i in range(0, n):" in diff


@pytest.mark.slow
def test_repair_in_the_sandbox_with_scripted_edits(scripted_proposer: Any, replacement: Any) -> None:
    proposer = scripted_proposer(
        [replacement(2, "0, 1", "1, 1"), replacement(3, "n + 1", "n - 1"), replacement(3, "n + 1", "n")]
    )
    result = repair(FIB, FIB_TESTS, proposer=proposer, suspicious_lines=[3, 2])
    assert result.best is not None
    assert "range(0, n)" in result.best.source
    assert run(PythonTestsRequest(code=result.best.source, tests=FIB_TESTS)).status.value == "passed"
    assert result.tests_total == 3 and result.tests_passed_before < 3


@pytest.mark.slow
def test_repair_with_the_real_edit_operators() -> None:
    code = (
        "def count_evens(nums):\n"
        "    count = 0\n"
        "    for x in nums:\n"
        "        if x % 2 == 1:\n"
        "            count += 1\n"
        "    return count\n"
    )
    tests = ["assert count_evens([1, 2, 4]) == 2", "assert count_evens([]) == 0", "assert count_evens([3]) == 0"]
    result = repair(code, tests, budget=RepairBudget(max_seconds=20))
    assert result.best is not None, result
    assert result.best.changed_lines == [4]
    assert run(PythonTestsRequest(code=result.best.source, tests=tests)).status.value == "passed"


@pytest.mark.slow
def test_a_candidate_that_kills_the_batch_does_not_hide_the_others(scripted_proposer: Any, replacement: Any) -> None:
    # the first candidate ends the checking process at load; the fix after it must still be found
    killer = "import os; os._exit(3)"
    proposer = scripted_proposer(
        [replacement(2, "a, b = 0, 1", f"{killer}; a, b = 0, 1"), replacement(3, "n + 1", "n")]
    )
    result = repair(FIB, FIB_TESTS, proposer=proposer, suspicious_lines=[2, 3], budget=RepairBudget(max_edits=1))
    assert result.best is not None
    assert "range(0, n)" in result.best.source
    assert killer not in result.best.source


def test_repair_timeout_scales_with_the_programs_own_test_times() -> None:
    def facts(*runs: tuple[Status, float]) -> ExecutionFacts:
        tests = [TestRun(index=i, source="", status=s, wall_s=w) for i, (s, w) in enumerate(runs)]
        return ExecutionFacts(tests=tests, run_status=Status.passed, isolation="rlimits", wall_s=0.0)

    low, high = REPAIR_TEST_TIMEOUT_BOUNDS_S
    assert repair_test_timeout(facts((Status.passed, 0.0001))) == low
    assert repair_test_timeout(facts((Status.failed, 0.01))) == pytest.approx(0.2)
    assert repair_test_timeout(facts((Status.timeout, 5.0))) == high  # nothing finished: the upper bound
    assert repair_test_timeout(facts((Status.passed, 1.0))) == high


NOVICE_BUGS = [
    # (buggy program, tests, a line the fix must change)
    (
        "def average(x, y):\n    return x + y / 2\n",
        ["assert average(1, 3) == 2", "assert average(0, 0) == 0", "assert average(-5, -2) == -3.5"],
        2,
    ),
    (
        "def fib(n):\n    if n <= 2:\n        return 1\n    return fib(n) + fib(n - 1)\n",
        ["assert fib(1) == 1", "assert fib(2) == 1", "assert fib(7) == 13"],
        4,
    ),
    (
        "def shout(s):\n    s.upper()\n    s.strip()\n    return s\n",
        ["assert shout(' hi ') == 'HI'", "assert shout('a') == 'A'"],
        2,
    ),
    ("def product(a, b):\n    a * b\n", ["assert product(2, 3) == 6", "assert product(0, 4) == 0"], 2),
    (
        "def last_index(value, xs):\n    for i in range(len(xs) - 1, -1):\n        if xs[i] == value:\n"
        "            return i\n    return -1\n",
        ["assert last_index(1, [1, 1, 2]) == 1", "assert last_index(3, [1]) == -1", "assert last_index(2, [2]) == 0"],
        2,
    ),
    (
        "def total(xs):\n    result = 0\n    for x in xs:\n        result += x\nreturn result\n",
        ["assert total([1, 2]) == 3", "assert total([]) == 0"],
        5,
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize(("code", "tests", "line"), NOVICE_BUGS)
def test_repair_fixes_common_novice_bugs_with_one_edit(code: str, tests: list[str], line: int) -> None:
    result = repair(code, tests, budget=RepairBudget(max_seconds=20))
    assert result.best is not None, result
    assert len(result.best.edits) == 1, result.best.edits
    assert line in result.best.changed_lines
    assert run(PythonTestsRequest(code=result.best.source, tests=tests)).status == Status.passed


def test_the_first_fix_found_stays_first_unless_a_later_one_of_its_kinds_changes_less() -> None:
    code = "def digits(n):\n    total = 0\n    while n:\n        total += n % 10\n        n //= 100\n    return total\n"

    def fix(operator: str, old: str, new: str) -> Repair:
        edit = AppliedEdit(operator=operator, category="logic", line=1, description=f"{old} -> {new}")
        return Repair(
            edits=[edit], source=code.replace(old, new), diff="", changed_lines=[1], executions=1, seconds=0.0
        )

    modulus = fix("change_constant", "n % 10", "n % 9")
    division = fix("change_constant", "//= 100", "//= 10")  # a smaller change of the same kind, found later
    returned = fix("wrap_return", "return total", "return total + total - total")
    start = fix("off_by_one", "total = 0", "total = 1")  # smaller than the first, but of another kind
    assert _preferred_first(code, [modulus, start, division])[0] is division
    assert _preferred_first(code, [returned, start]) == [returned, start]
    assert _preferred_first(code, []) == []
