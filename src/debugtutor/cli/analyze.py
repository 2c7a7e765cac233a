"""``debugtutor analyze FILE``: what is wrong with a program, where, and a verified fix when one is found.

FILE is a Python program (lines numbered ``1. def f():`` as in the Socratic benchmark are accepted when every line
is numbered), a Socratic benchmark ``.txt`` file, whose ``<bug_code>`` and ``<unit_tests>`` are used, or a C++
(``.cpp``, ``.cc``, ``.cxx``) or Java (``.java``) LeetCode ``class Solution``. ``--tests`` names a file of assert
statements for Python (setup lines before the first assert run once); for C++ and Java, a file of LeetCode example
blocks (``Input: nums = [2,7], target = 9`` then ``Output: [0,1]``) or of JSON calls (``{"args": {...},
"expected": ...}``, one per line or in a list), made on the method ``--method`` names (by default the one the
arguments fit). A design problem's class (LeetCode's "implement LRUCache") takes its example blocks as LeetCode
states them: ``Input``, the operations, their arguments, then ``Output`` and the answers.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape
from rich.syntax import Syntax
from rich.table import Table

from debugtutor.analysis.engine import AnalysisBudget, AnalysisReport, analyze
from debugtutor.analysis.examples import design_calls, example_calls, example_method, is_design
from debugtutor.analysis.execution import split_unit_tests
from debugtutor.console import emit_json, state, stdout
from debugtutor.errors import InputError, read_text
from debugtutor.formats.socratic_sections import parse_sections, strip_line_numbers
from debugtutor.sandbox import Language, LeetCodeCall

_NUMBERED = re.compile(r"^\d+\.")


def _read(path: Path, what: str) -> str:
    return read_text(path)


def program_text(text: str) -> str:
    """The program in ``text``, with ``N.`` line prefixes removed when every non-blank line carries one."""
    lines = [line for line in text.splitlines() if line.strip()]
    if lines and all(_NUMBERED.match(line) for line in lines):
        return strip_line_numbers(text)
    return text


_EXTENSIONS: dict[str, Language] = {".cpp": "cpp", ".cc": "cpp", ".cxx": "cpp", ".c++": "cpp", ".java": "java"}


def language_of(file: Path, lang: str | None) -> Language:
    """The program's language: ``--lang`` when given, else from the file's extension (Python by default)."""
    if lang:
        if lang not in ("python", "cpp", "java"):
            raise InputError(f"unknown language {lang!r}", field="--lang", hint="python, cpp or java")
        return lang  # type: ignore[return-value]
    return _EXTENSIONS.get(file.suffix.lower(), "python")


def _json_calls(text: str) -> list[Any] | None:
    stripped = text.strip()
    if not stripped.startswith(("[", "{")):
        return None
    try:
        loaded = json.loads(stripped)
        return loaded if isinstance(loaded, list) else [loaded]
    except json.JSONDecodeError:
        pass
    records = []
    for line in stripped.splitlines():
        if line.strip():
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                return None
    return records


def load_calls(tests_file: Path, code: str, language: Language) -> list[LeetCodeCall]:
    """LeetCode calls from a ``--tests`` file for C++/Java: JSON calls, or example blocks bound to ``code``."""
    text = _read(tests_file, "tests")
    records = _json_calls(text)
    if records is not None:
        calls = []
        for number, record in enumerate(records, 1):
            if not isinstance(record, dict) or not isinstance(record.get("args"), dict):
                raise InputError(
                    f"call {number} is not an object with an 'args' object", path=str(tests_file),
                    hint='{"args": {"nums": [1, 2]}, "expected": 3}',
                )  # fmt: skip
            calls.append(LeetCodeCall(args=record["args"], expected=record.get("expected")))
        return calls
    blocks = [block for block in re.split(r"\n\s*(?=Input\s*:)", "\n" + text) if block.strip()]
    calls = example_calls(blocks, code, language) or design_calls(blocks)
    if not calls:
        raise InputError(
            "no LeetCode example (Input: ... / Output: ...) or JSON call found", path=str(tests_file),
            hint="Input: nums = [2,7,11,15], target = 9 / Output: [0,1]",
        )  # fmt: skip
    return calls


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


def _block_for(call: LeetCodeCall) -> str:
    """An example block for a call (to choose the method its argument names fit)."""
    arguments = ", ".join(f"{name} = {json.dumps(value)}" for name, value in call.args.items())
    return f"Input: {arguments}\nOutput: {json.dumps(call.expected)}"


def register(app: typer.Typer) -> None:
    """Add the top-level ``analyze`` command."""

    @app.command("analyze")
    def analyze_command(
        file: Path = typer.Argument(
            ...,
            help="A Python, C++ (.cpp) or Java (.java) program; for Python also numbered lines or a Socratic "
            "benchmark .txt file.",
        ),
        tests: Path | None = typer.Option(
            None, "--tests", help="Python: a file of assert statements. C++/Java: LeetCode examples or JSON calls."
        ),
        budget_s: float | None = typer.Option(
            None,
            "--budget-s",
            min=0.0,
            help="Seconds for the repair search (0: none; default 10 for Python, 60 for C++ and Java, where each batch "
            "of candidates waits for a compiler).",
        ),
        per_test_s: float = typer.Option(
            AnalysisBudget().per_test_s, "--per-test-s", min=0.01, help="Seconds each test (or LeetCode call) may run."
        ),
        lang: str | None = typer.Option(None, "--lang", help="python, cpp or java (default: from the extension)."),
        method: str | None = typer.Option(
            None, "--method", help="C++/Java: the Solution method the tests call (a design problem: its class)."
        ),
        json_output: bool = typer.Option(False, "--json", help="Print one JSON object."),
    ) -> None:
        """Diagnose a program: static checks, failing tests, suspicious lines and a verified repair."""
        state.json_mode = state.json_mode or json_output
        language = language_of(file, lang)
        if budget_s is None:
            budget_s = 10.0 if language == "python" else 60.0
        if language != "python":
            code = _read(file, "program")
            if not code.strip():
                raise InputError("the program is empty", path=str(file))
            calls = load_calls(tests, code, language) if tests is not None else []
            if method is None and calls and is_design(calls):
                method = str(calls[0].args["operations"][0])  # a design problem's class
            elif method is None and tests is not None:
                method = example_method([_block_for(call) for call in calls[:1]], code, language) if calls else None
            report = analyze(
                code,
                calls,
                budget=AnalysisBudget(repair_seconds=budget_s, per_test_s=per_test_s),
                language=language,
                method=method,
            )
            if json_output:
                emit_json(report_json(file, report))
            else:
                _print_report(code, report)
            return
        code, test_code = load_inputs(file, tests)
        split = split_unit_tests(test_code)
        budget = AnalysisBudget(repair_seconds=budget_s, per_test_s=per_test_s)
        report = analyze(code, split.tests, setup=split.setup, budget=budget)
        if json_output:
            emit_json(report_json(file, report))
        else:
            _print_report(code, report)
