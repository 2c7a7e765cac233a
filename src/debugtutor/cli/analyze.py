"""``debugtutor analyze FILE``: what is wrong with a Python program, where, and a verified fix when one is found.

FILE is a Python program (lines numbered ``1. def f():`` as in the Socratic benchmark are accepted when every line
is numbered) or a Socratic benchmark ``.txt`` file, whose ``<bug_code>`` and ``<unit_tests>`` are used. ``--tests``
names a file of assert statements (setup lines before the first assert run once).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape
from rich.syntax import Syntax
from rich.table import Table

from debugtutor.analysis.engine import AnalysisBudget, AnalysisReport, analyze
from debugtutor.analysis.execution import split_unit_tests
from debugtutor.console import emit_json, state, stdout
from debugtutor.errors import InputError, read_text
from debugtutor.formats.socratic_sections import parse_sections, strip_line_numbers

_NUMBERED = re.compile(r"^\d+\.")


def _read(path: Path, what: str) -> str:
    return read_text(path)


def program_text(text: str) -> str:
    """The program in ``text``, with ``N.`` line prefixes removed when every non-blank line carries one."""
    lines = [line for line in text.splitlines() if line.strip()]
    if lines and all(_NUMBERED.match(line) for line in lines):
        return strip_line_numbers(text)
    return text


def load_inputs(file: Path, tests_file: Path | None) -> tuple[str, str]:
    """(program, test code) from the command's files; the test code is empty when there are no tests."""
    text = _read(file, "program")
    tests = ""
    if "<bug_code>" in text and "<unit_tests>" in text:
        sections = parse_sections(text, path=str(file))
        code, tests = sections.bug_code, sections.unit_tests
    else:
        code = program_text(text)
    if tests_file is not None:
        tests = _read(tests_file, "tests")
        if not split_unit_tests(tests).tests:
            raise InputError("no assert statements found", path=str(tests_file), hint="one `assert ...` per line")
    if not code.strip():
        raise InputError("the program is empty", path=str(file))
    return code, tests


def report_json(file: Path, report: AnalysisReport) -> dict[str, Any]:
    return {
        "file": str(file),
        "diagnostics": [diagnostic.model_dump(mode="json") for diagnostic in report.diagnostics],
        "tests": [test.model_dump(mode="json") for test in report.test_report.tests] if report.test_report else [],
        "setup_error": report.test_report.setup_error.model_dump(mode="json")
        if report.test_report and report.test_report.setup_error
        else None,
        "failing_tests": report.failing_tests,
        "suspicious_lines": [line.model_dump(mode="json") for line in report.suspicious_lines],
        "repair": report.repair.model_dump(mode="json") if report.repair else None,
        "repair_search": report.repair_search.model_dump(mode="json", exclude={"repairs"})
        if report.repair_search
        else None,
        "trace": report.trace.model_dump(mode="json") if report.trace else None,
    }


def _print_report(code: str, report: AnalysisReport) -> None:
    if report.diagnostics:
        table = Table(title="Diagnostics", title_justify="left")
        for column in ("line", "category", "message"):
            table.add_column(column)
        for diagnostic in report.diagnostics:
            table.add_row(str(diagnostic.line), diagnostic.category, escape(diagnostic.message))
        stdout.print(table)
    else:
        stdout.print("No static diagnostics.")
    test_report = report.test_report
    if test_report is not None and test_report.tests:
        if test_report.setup_error is not None:
            error = test_report.setup_error
            where = (
                f" (line {error.line})" if error.line is not None and f"line {error.line}" not in error.message else ""
            )
            stdout.print(f"The program does not load: {error.type}: {escape(error.message)}{where}")
        stdout.print(f"Tests: {test_report.passed} of {len(test_report.tests)} pass.")
        failing = [test for test in test_report.tests if test.status.value != "passed"]
        if failing:
            table = Table(title="Failing tests", title_justify="left")
            for column in ("#", "test", "status", "actual", "expected / error"):
                table.add_column(column)
            for test in failing:
                detail = test.expected or ""
                if test.exception is not None and test.exception.type != "AssertionError":
                    where = f" (line {test.exception.line})" if test.exception.line else ""
                    detail = f"{test.exception.type}: {test.exception.message}{where}"
                table.add_row(
                    str(test.index + 1), escape(test.source), test.status.value, escape(test.actual or ""),
                    escape(detail),
                )  # fmt: skip
            stdout.print(table)
    if report.suspicious_lines:
        lines = code.splitlines()
        table = Table(title="Suspicious lines", title_justify="left")
        for column in ("rank", "line", "score", "code", "why"):
            table.add_column(column)
        for rank, item in enumerate(report.suspicious_lines[:5], 1):
            text = lines[item.line - 1].strip() if item.line <= len(lines) else ""
            table.add_row(
                str(rank), str(item.line), f"{item.score:.2f}", escape(text), escape("; ".join(item.reasons[:2]))
            )
        stdout.print(table)
    if report.repair is not None:
        edits = "; ".join(edit.description for edit in report.repair.edits)
        stdout.print(f"Repair found ({edits}), verified by running every test:")
        stdout.print(Syntax(report.repair.diff, "diff", theme="ansi_dark"))
    elif report.repair_search is not None:
        search = report.repair_search
        stdout.print(f"No repair found ({search.executions} executions, {search.seconds:.1f} s).")


def register(app: typer.Typer) -> None:
    """Add the top-level ``analyze`` command."""

    @app.command("analyze")
    def analyze_command(
        file: Path = typer.Argument(..., help="Python program, numbered lines, or a Socratic benchmark .txt file."),
        tests: Path | None = typer.Option(None, "--tests", help="File of assert statements to run."),
        budget_s: float = typer.Option(10.0, "--budget-s", min=0.0, help="Seconds for the repair search (0: none)."),
        json_output: bool = typer.Option(False, "--json", help="Print one JSON object."),
    ) -> None:
        """Diagnose a Python program: static checks, failing tests, suspicious lines and a verified repair."""
        state.json_mode = state.json_mode or json_output
        code, test_code = load_inputs(file, tests)
        split = split_unit_tests(test_code)
        report = analyze(code, split.tests, setup=split.setup, budget=AnalysisBudget(repair_seconds=budget_s))
        if json_output:
            emit_json(report_json(file, report))
        else:
            _print_report(code, report)
