"""Tests for the analysis facade on small buggy programs (sandbox, static checks and edit operators together)."""

from __future__ import annotations

from pathlib import Path

import pytest

from debugtutor.analysis.engine import AnalysisBudget, analyze, rank_lines
from debugtutor.analysis.repair import AppliedEdit, Repair
from debugtutor.analysis.static import Diagnostic
from debugtutor.formats.socratic_sections import read_sections
from debugtutor.sandbox import PythonTestsRequest, Status, run

OFF_BY_ONE = """def fibonacci(n):
    if n <= 0:
        return "OOPS"
    elif n == 1 or n == 2:
        return 1
    a = 1
    b = 1
    for i in range(0, n):
        a, b = b, a + b
    return b
"""
FIB_TESTS = """assert fibonacci(0) == 'OOPS'
assert fibonacci(1) == 1
assert fibonacci(2) == 1
assert fibonacci(5) == 5
assert fibonacci(10) == 55
"""


TOTAL = """def total(nums):
    s = 0
    for i in range(1, len(nums)):
        s += nums[i]
    return s
"""
TOTAL_TESTS = ["assert total([]) == 0", "assert total([5]) == 5", "assert total([1, 2, 3]) == 6"]


@pytest.mark.slow
def test_analyze_finds_failures_ranks_the_bug_line_and_repairs_it() -> None:
    report = analyze(TOTAL, TOTAL_TESTS, budget=AnalysisBudget(repair_seconds=20))
    assert report.test_report is not None
    assert report.failing_tests == [1, 2]
    assert (report.test_report.tests[2].actual, report.test_report.tests[2].expected) == ("5", "6")
    assert 4 in report.coverage[2] and 4 not in report.coverage[0]
    assert report.trace is not None and report.trace.test_index == 1
    assert report.execution is not None and report.execution.value_after(3, "i") is None  # the loop never ran
    assert report.repair is not None
    assert report.repair.changed_lines == [3]
    assert run(PythonTestsRequest(code=report.repair.source, tests=TOTAL_TESTS)).status == Status.passed
    assert report.suspicious_lines[0].line == 3
    assert "verified repair" in report.suspicious_lines[0].reasons[0]


@pytest.mark.slow
def test_fibonacci_off_by_one_is_repaired_near_the_loop() -> None:
    report = analyze(OFF_BY_ONE, FIB_TESTS, budget=AnalysisBudget(repair_seconds=20))
    assert report.failing_tests == [3, 4]
    assert report.test_report is not None and report.test_report.tests[3].actual == "13"
    assert report.repair is not None
    # one edit fixes it: the loop range (line 8) or, equally valid, the seed values (lines 6-7)
    assert len(report.repair.edits) == 1 and report.repair.changed_lines[0] in (6, 7, 8)
    assert run(PythonTestsRequest(code=report.repair.source, tests=FIB_TESTS.splitlines())).status == Status.passed


@pytest.mark.slow
def test_analyze_a_syntax_error() -> None:
    code = "def double(x)\n    return x * 2\n"
    report = analyze(code, ["assert double(2) == 4"], budget=AnalysisBudget(repair_seconds=20))
    assert any(diagnostic.category == "syntax" and diagnostic.line == 1 for diagnostic in report.diagnostics)
    assert report.test_report is not None and report.test_report.setup_error is not None
    assert report.coverage == {}
    assert report.repair is not None and "def double(x):" in report.repair.source
    assert report.suspicious_lines[0].line == 1


@pytest.mark.slow
def test_passing_program_has_no_repair_and_no_suspects() -> None:
    report = analyze("def one():\n    return 1\n", ["assert one() == 1"])
    assert report.failing_tests == []
    assert report.repair is None and report.repair_search is None
    assert report.suspicious_lines == []


@pytest.mark.slow
def test_repair_budget_zero_skips_the_search() -> None:
    report = analyze(OFF_BY_ONE, FIB_TESTS, budget=AnalysisBudget(repair_seconds=0))
    assert report.repair is None and report.repair_search is None
    assert report.suspicious_lines  # spectra still rank lines
    assert 8 in [item.line for item in report.suspicious_lines[:4]]


@pytest.mark.slow
@pytest.mark.shared_data
def test_a_socratic_benchmark_bug_is_repaired(shared_data: Path) -> None:
    files = sorted((shared_data / "socratic" / "v2_sigcse" / "train").glob("*_socratic_dialogue.txt"))
    repaired = 0
    for path in files[:3]:
        sections = read_sections(path)
        report = analyze(sections.bug_code, sections.unit_tests, budget=AnalysisBudget(repair_seconds=10))
        assert report.test_report is not None
        if report.repair is not None:
            repaired += 1
            assert report.repair.changed_lines
    assert repaired >= 1


def _two_edit_repair(source: str) -> Repair:
    edits = [
        AppliedEdit(
            operator="insert_separator", category="syntax", line=3, description="insert ';'", made_it_compile=True
        ),
        AppliedEdit(operator="replace_operator", category="logic", line=2, description="'<=' -> '<'"),
    ]
    return Repair(edits=edits, source=source, diff="", changed_lines=[2, 3], executions=2, seconds=0.1)


def test_a_compiled_repairs_syntax_edit_leads_where_the_compiler_points_a_line_late() -> None:
    # g++ reports the ';' missing after `return total` at the '}' below it
    code = "int f(vector<int>& v) {\n    for (int i = 0; i <= v.size(); i++) {}\n    return total\n}\n"
    late = Diagnostic(category="syntax", line=4, column=0, message="expected ';' before '}' token", code="parse-error")
    ranked = rank_lines(code, None, [late], repair=_two_edit_repair(code), language="cpp")
    lines = [item.line for item in ranked]
    assert lines.index(3) < lines.index(4)
    assert "a verified repair changes this line" in next(item for item in ranked if item.line == 3).reasons


def test_a_python_repairs_syntax_edit_only_supports_the_line_the_interpreter_names() -> None:
    code = "def f(v):\n    for i in range(len(v) + 1): pass\n    return total\n"
    ranked = rank_lines(code, None, [], repair=_two_edit_repair(code), language="python")
    assert "a verified repair also touches this line" in next(item for item in ranked if item.line == 3).reasons
