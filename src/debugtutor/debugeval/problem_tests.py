"""Executable tests for a LeetCode problem, derived from its oracle, and grading of any program against them.

A DebugBench problem has no test cases, only the statement's example blocks and a correct (oracle) solution. Its
tests are the examples plus type-preserving perturbations of them, each expected value taken from the oracle run in
the sandbox (see :mod:`debugtutor.analysis.examples`). Code Repair (build and scoring) and the public judge
(:mod:`.judge`) use these functions and nothing else, so a program gets the same verdict from both.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from pydantic import BaseModel

from debugtutor.analysis.examples import example_calls, oracle_outputs, oracle_tests, perturb_calls
from debugtutor.analysis.leetcode import entry_method
from debugtutor.debugeval.debugbench import DebugBenchItem
from debugtutor.debugeval.records import DebugEvalRecord, LanguageName
from debugtutor.errors import InputError
from debugtutor.sandbox import LeetCodeCall, Limits, Status, TestReport, run_leetcode, solution_signatures

DERIVATION_VERSION = "1"
"""Changes whenever the derivation could give different tests, so cached tests of an older version are not reused."""

# Per-call limits of oracle and buggy runs while deriving tests (the harness moves on after a call that times out).
ORACLE_LIMITS = Limits(wall_s=1.5, memory_mb=512)
COMPILED_ORACLE_LIMITS = Limits(wall_s=20.0, memory_mb=256)  # the JVM needs headroom, several may start at once
# Limits of a graded program.
REPAIR_LIMITS = Limits(wall_s=60.0, memory_mb=1024)
PER_TEST_TIMEOUT_S = 2.0


class ProblemTests(BaseModel):
    """The derived calls of one problem and the ``Solution`` method they call."""

    calls: list[LeetCodeCall]
    method: str | None
    language: LanguageName = "python"
    example_calls: int = 0
    """How many of the calls (the first ones) are the statement's own examples."""


@dataclass
class Grade:
    """A program's verdict on a problem's tests, with a one-line reason (and the sandbox's report when it ran)."""

    passed: bool
    reason: str
    report: TestReport | None = None


def compiled_problem_tests(item: DebugBenchItem, *, extra: int, seed: int) -> ProblemTests | None:
    """C++/Java tests from the oracle: the examples plus a few perturbations, where the method can be called."""
    base = example_calls(item.examples)
    if not base:
        return None
    names = list(base[0].args)
    signatures = solution_signatures(item.oracle_code, item.language)
    chosen = [name for name, params in signatures if set(params) == set(names)]
    chosen = chosen or [name for name, params in signatures if len(params) == len(names)]
    if not chosen:
        return None
    candidates = base + perturb_calls(base, count=extra, seed=seed)
    try:
        calls = oracle_outputs(
            item.oracle_code, candidates, method=chosen[0], limits=COMPILED_ORACLE_LIMITS, lang=item.language
        )
    except InputError:  # a parameter type the compiled harness cannot build
        return None
    if not calls:
        return None
    return ProblemTests(
        calls=calls, method=chosen[0], language=item.language, example_calls=_examples_among(calls, base)
    )


def problem_tests(item: DebugBenchItem, *, extra: int, seed: int) -> ProblemTests | None:
    """Tests for a problem from its oracle (deterministic calls only), or None when nothing could be derived."""
    if item.language != "python":
        return compiled_problem_tests(item, extra=extra, seed=seed)
    # a perturbed input outside the problem's constraints can make even the oracle slow: such calls are dropped
    calls = oracle_tests(item.examples, item.oracle_code, extra=extra, seed=seed, limits=ORACLE_LIMITS)
    if not calls:
        return None
    method = entry_method(item.oracle_code, set(calls[0].args))
    base = example_calls(item.examples, item.oracle_code)
    return ProblemTests(calls=calls, method=method.name if method else None, example_calls=_examples_among(calls, base))


def _examples_among(calls: list[LeetCodeCall], examples: list[LeetCodeCall]) -> int:
    stated = {json.dumps(call.args, sort_keys=True) for call in examples}
    return sum(1 for call in calls if json.dumps(call.args, sort_keys=True) in stated)


def tests_of(record: DebugEvalRecord) -> ProblemTests:
    """The tests a Code Repair record carries (``tests_kind == "leetcode"``)."""
    return ProblemTests(calls=list(record.leetcode_calls), method=record.method, language=record.language)


def grade(code: str, tests: ProblemTests) -> Grade:
    """Run ``code`` on the tests in the sandbox: it passes when every call returns the expected value.

    A program whose method cannot be called with the problem's arguments (a C++/Java signature the harness cannot
    bind, a missing method) fails, whether the sandbox raises or reports it."""
    try:
        report = run_leetcode(
            code, tests.calls, lang=tests.language, method=tests.method, limits=REPAIR_LIMITS,
            per_test_timeout_s=PER_TEST_TIMEOUT_S,
        )  # fmt: skip
    except InputError as exc:
        return Grade(False, f"cannot be called: {exc}")
    if report.status == Status.passed:
        return Grade(True, f"passed {len(report.tests)} tests", report)
    return Grade(False, failure_reason(report), report)


def failure_reason(report: TestReport) -> str:
    """The first thing that went wrong in a report, in one line."""
    if report.setup_error is not None:
        return f"{report.status.value}: {report.setup_error.type}: {report.setup_error.message[:200]}"
    for test in report.tests:
        if test.status != Status.passed:
            where = f"test {test.index + 1}: {test.status.value}"
            if test.exception is not None:
                return f"{where}: {test.exception.type}: {test.exception.message[:160]}"
            if test.status == Status.failed:
                return f"test {test.index + 1}: returned {str(test.actual)[:80]}, expected {str(test.expected)[:80]}"
            return f"test {test.index + 1}: {test.status.value}"
    return report.status.value


def fails_tests(code: str, tests: ProblemTests) -> bool:
    """True when ``code`` fails at least one test (or does not load): a buggy variant worth repairing."""
    if tests.language != "python":
        try:
            report = run_leetcode(
                code, tests.calls, method=tests.method, limits=COMPILED_ORACLE_LIMITS, lang=tests.language
            )
        except InputError:
            return True  # the buggy variant no longer declares a callable method: it fails
        return report.status != Status.passed
    report = run_leetcode(code, tests.calls, method=tests.method, limits=ORACLE_LIMITS, per_test_timeout_s=1.0)
    return report.status != Status.passed
