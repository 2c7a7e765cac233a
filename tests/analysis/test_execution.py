"""Tests for execution facts: test outcomes, per-test coverage and the bounded line trace, run in the sandbox."""

from __future__ import annotations

import pytest

from debugtutor.analysis.execution import FIRST_FAILING, collect_execution_facts, harness_source, split_unit_tests
from debugtutor.sandbox import Status

FACTORIAL = """def factorial(n):
    fact = 1
    for i in range(n):
        fact = fact * i
    return fact

def spin():
    while True:
        pass

def ask():
    return input("name? ")
"""


def test_split_unit_tests_keeps_setup_and_stateful_order() -> None:
    split = split_unit_tests(
        "import math\nitems = [3, 1]\n\nassert f(items) == 1\nitems.append(0)\nassert f(items) == 0\n"
        "assert g(\n    1) == 2\nprint('done')\n"
    )
    assert split.setup == "import math\nitems = [3, 1]"
    assert split.tests == [
        "assert f(items) == 1",
        "items.append(0)\nassert f(items) == 0",
        "assert g(\n    1) == 2\nprint('done')",
    ]


def test_harness_source_is_shipped() -> None:
    source = harness_source()
    assert "sys.settrace" in source and "def main()" in source
    compile(source, "_trace_harness.py", "exec")


@pytest.mark.slow
def test_outcomes_coverage_and_trace() -> None:
    tests = ["assert factorial(0) == 1", "assert factorial(3) == 6", "spin()", "assert ask() == 'x'"]
    facts = collect_execution_facts(FACTORIAL, tests, trace_test=1, per_test_s=0.5)
    statuses = [test.status for test in facts.tests]
    assert statuses == [Status.passed, Status.failed, Status.timeout, Status.error]
    failing = facts.tests[1]
    assert (failing.actual, failing.expected) == ("0", "6")
    assert facts.tests[3].exception is not None and facts.tests[3].exception.type == "EOFError"
    assert facts.tests[3].exception.line == 12
    coverage = facts.coverage()
    assert {2, 3, 5} <= coverage[0] and 4 not in facts.tests[0].covered_lines
    assert 4 in coverage[1]
    assert {1, 7, 11} <= set(facts.load_lines)
    assert [test.index for test in facts.failing] == [1, 2, 3]
    # "what is fact after line 4 in the first iteration?" and in the third
    assert facts.trace is not None and facts.trace.test_index == 1
    assert facts.value_after(4, "fact", hit=1) == "0"
    assert facts.value_after(3, "i", hit=3) == "2"
    assert facts.value_after(4, "missing") is None
    returned = [step.returned for step in facts.trace.steps if step.returned is not None]
    assert returned == ["0"]


@pytest.mark.slow
def test_trace_first_failing_test_and_event_bound() -> None:
    tests = ["assert factorial(0) == 1", "assert factorial(40) == 1"]
    facts = collect_execution_facts(FACTORIAL, tests, trace_test=FIRST_FAILING, max_events=10, max_repr=12)
    assert facts.trace is not None and facts.trace.test_index == 1
    assert len(facts.trace.steps) == 10 and facts.trace.truncated
    assert all(len(value) <= 12 for step in facts.trace.steps for value in step.locals.values())


@pytest.mark.slow
def test_program_that_does_not_load_reports_every_test() -> None:
    facts = collect_execution_facts("def f(:\n    return 1\n", ["assert f() == 1", "assert f() == 2"])
    assert facts.load_error is not None and facts.load_error.type == "SyntaxError"
    assert facts.load_error.line == 1
    assert [test.status for test in facts.tests] == [Status.error, Status.error]
    assert facts.trace is None


@pytest.mark.slow
def test_prints_and_setup_do_not_confuse_the_harness() -> None:
    code = "def add(a, b):\n    print('@@not a record', a + b)\n    return a + b\n"
    facts = collect_execution_facts(code, ["assert add(x, 1) == 3"], setup="x = 2")
    assert facts.tests[0].status == Status.passed
    assert facts.tests[0].stdout == "@@not a record 3\n"
