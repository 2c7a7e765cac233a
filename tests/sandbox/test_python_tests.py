"""Assert-style unit tests (the Socratic benchmark's format): one outcome per line, with actual and expected values."""

from __future__ import annotations

from typing import Any

from debugtutor.sandbox import (
    LeetCodeCall,
    LeetCodeRequest,
    Limits,
    PythonTestsRequest,
    SandboxPool,
    Status,
    TestReport,
    reference_time_s,
    run,
)
from debugtutor.sandbox._programs import run_python_tests_with

FIB = """def fibonacci(n):
    if n <= 0:
        return "OOPS"
    elif n == 1:
        return 1
    a, b = 0, 1
    for _ in range(n - 1):
        a, b = b, a + b
    return b
"""


def test_each_line_gets_an_outcome_with_values(isolation: str) -> None:
    report = run(
        PythonTestsRequest(
            code=FIB, tests=["assert fibonacci(1) == 1", "assert fibonacci(5) == 5", "assert fibonacci(0) == 0"]
        )
    )
    assert [test.status for test in report.tests] == [Status.passed, Status.passed, Status.failed]
    failing = report.tests[2]
    assert failing.actual == "'OOPS'" and failing.expected == "0"
    assert report.status is Status.failed
    assert (report.passed, report.failed) == (2, 1)
    assert report.isolation == isolation


def test_exception_in_student_code_has_student_line(isolation: str) -> None:
    code = "def first(xs):\n    total = 0\n    return xs[0]\n"
    report = run(PythonTestsRequest(code=code, tests=["assert first([]) == None", "assert first([4]) == 4"]))
    error = report.tests[0]
    assert error.status is Status.error
    assert error.exception is not None and error.exception.type == "IndexError" and error.exception.line == 3
    assert report.tests[1].status is Status.passed
    assert report.status is Status.error


def test_a_test_that_times_out_does_not_stop_the_others(isolation: str) -> None:
    code = "def spin(n):\n    while n > 0:\n        pass\n    return n\n"
    tests = ["assert spin(0) == 0", "assert spin(1) == 1", "assert spin(-1) == -1"]
    report = run(PythonTestsRequest(code=code, tests=tests, limits=Limits(per_test_s=0.5)))
    assert [test.status for test in report.tests] == [Status.passed, Status.timeout, Status.passed]
    assert report.status is Status.timeout


def test_lines_share_one_namespace_in_order(isolation: str) -> None:
    # As in the benchmark's own scripts: setup lines serve later tests, and mutations are seen by later lines.
    code = "def total(xs):\n    xs.append(0)\n    return sum(xs)\n"
    tests = ["import math", "data = [1, 2]", "assert total(data) == 3", "assert len(data) == 3", "assert math.pi > 3"]
    report = run(PythonTestsRequest(code=code, tests=tests))
    assert report.status is Status.passed, report.tests
    assert len(report.tests) == 5


def test_syntax_error_in_code_is_a_setup_error(isolation: str) -> None:
    report = run(PythonTestsRequest(code="def f(:\n    return 1\n", tests=["assert f() == 1"]))
    assert report.status is Status.error
    assert report.setup_error is not None and report.setup_error.type == "SyntaxError"
    assert report.setup_error.line == 1
    assert report.tests[0].status is Status.error


def test_name_error_at_import_is_a_setup_error(isolation: str) -> None:
    report = run(PythonTestsRequest(code="x = undefined_thing + 1\n", tests=["assert x == 1"]))
    assert report.setup_error is not None and report.setup_error.type == "NameError"
    assert report.setup_error.line == 1


def test_setup_argument_runs_before_code(isolation: str) -> None:
    report = run(
        PythonTestsRequest(
            code="def area(r):\n    return pi * r * r\n", tests=["assert area(1) > 3.14"], setup="from math import pi"
        )
    )
    assert report.status is Status.passed


def test_other_assert_forms_and_bad_test_lines(isolation: str) -> None:
    code = "def is_even(n):\n    return n % 2 == 1\n"
    report = run(
        PythonTestsRequest(
            code=code,
            tests=["assert is_even(2)", "assert not is_even(3)", "assert is_even(", "assert 3 in [is_even(1)]"],
        )
    )
    statuses = [test.status for test in report.tests]
    assert statuses == [Status.failed, Status.failed, Status.error, Status.failed]
    assert report.tests[2].exception is not None and report.tests[2].exception.type == "SyntaxError"


def test_a_test_that_kills_the_process_does_not_stop_the_others(isolation: str) -> None:
    code = "import os\ndef quit_hard():\n    os._exit(0)\ndef spin_in_c():\n    return sum(range(10 ** 12))\n"
    tests = [
        "base = 40",
        "assert quit_hard() is None",
        "assert base + 2 == 42",
        "assert spin_in_c() > 0",
        "assert base == 40",
    ]
    report = run(PythonTestsRequest(code=code, tests=tests, limits=Limits(per_test_s=0.5)))
    statuses = [test.status for test in report.tests]
    assert statuses == [Status.passed, Status.error, Status.passed, Status.timeout, Status.passed]
    assert report.tests[1].exception is not None and report.tests[1].exception.type == "Crash"


def test_memory_error_in_a_test(isolation: str) -> None:
    code = "def grow():\n    return bytearray(4 * 1024 ** 3)\n"
    report = run(
        PythonTestsRequest(code=code, tests=["assert len(grow()) > 0", "assert 1 == 1"], limits=Limits(memory_mb=256))
    )
    assert [test.status for test in report.tests] == [Status.memory, Status.passed]


def test_reference_time_sets_the_per_test_budget(isolation: str) -> None:
    reference = run(PythonTestsRequest(code="def f():\n    return 1\n", tests=["assert f() == 1"]))
    budget_source = reference_time_s(reference)
    assert 0 < budget_source < 1
    slow = "import time\ndef f():\n    time.sleep(2)\n    return 1\n"
    report = run(PythonTestsRequest(code=slow, tests=["assert f() == 1"], limits=Limits(reference_s=budget_source)))
    assert report.tests[0].status is Status.timeout


def test_multi_line_comparison_with_a_comment_reports_both_sides(isolation: str) -> None:
    code = "def double(n):\n    return 2 * n\n"
    tests = ["assert (double(2) +  # four\n        1) == 5", "assert double(3) != 6", "assert double(1) is not None"]
    report = run(PythonTestsRequest(code=code, tests=tests))
    assert [test.status for test in report.tests] == [Status.passed, Status.failed, Status.passed]
    assert (report.tests[0].actual, report.tests[0].expected) == ("5", "5")
    assert (report.tests[1].actual, report.tests[1].expected) == ("6", "6")


def test_harness_without_host_plans_reports_the_same(isolation: str) -> None:
    # The harness still parses lines itself when a job carries no plans (its fallback): same outcomes either way.
    code = "def is_even(n):\n    return n % 2 == 1\n"
    tests = ["import math", "assert is_even(2) == True", "assert is_even(", "assert math.pi > 3", "assert is_even(3)"]
    with SandboxPool(workers=1) as pool:

        def without_plans(job: dict[str, Any], budget: float) -> dict[str, Any]:
            for step in job["steps"]:
                step["payload"].pop("plans", None)
            return pool.run_job(job, budget)

        request = PythonTestsRequest(code=code, tests=tests)
        planned = run_python_tests_with(pool.run_job, pool.isolation, request)
        unplanned = run_python_tests_with(without_plans, pool.isolation, request)

    def summary(report: TestReport) -> list[tuple[object, ...]]:
        return [(t.status, t.actual, t.expected, t.exception.type if t.exception else None) for t in report.tests]

    assert summary(planned) == summary(unplanned)
    assert [test.status for test in planned.tests] == [
        Status.passed,
        Status.failed,
        Status.error,
        Status.passed,
        Status.passed,
    ]


def test_setup_runs_after_the_code_so_fixtures_can_use_its_classes() -> None:
    code = (
        "class Node:\n    def __init__(self, v, nxt=None):\n        self.v, self.nxt = v, nxt\n\n"
        "def second(n):\n    return n.nxt.v\n"
    )
    report = run(PythonTestsRequest(code=code, tests=["assert second(head) == 2"], setup="head = Node(1, Node(2))"))
    assert report.setup_error is None
    assert [t.status for t in report.tests] == [Status.passed]


def test_leetcode_names_are_in_scope_like_on_leetcode() -> None:
    code = (
        "class Solution:\n"
        "    def f(self, n: int) -> int:\n"
        "        return ceil(sqrt(n)) + len(ascii_lowercase) + pow(2, 3, 5)\n"
    )
    report = run(LeetCodeRequest(code=code, calls=[LeetCodeCall(args={"n": 10}, expected=4 + 26 + 3)]))
    assert report.status == Status.passed, report


def test_a_reference_time_takes_precedence_over_the_per_test_budget(isolation: str) -> None:
    code = "import time\ndef slow():\n    time.sleep(3)\n    return 1\n"
    limits = Limits(per_test_s=30, reference_s=0.01)  # 1 s floor beats the 30 s per-test budget
    report = run(PythonTestsRequest(code=code, tests=["assert slow() == 1"], limits=limits))
    assert report.tests[0].status is Status.timeout
    assert report.wall_s < 10
