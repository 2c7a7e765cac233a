"""The ``debugtutor sandbox`` command group: run a program or a test file in the sandbox from the shell."""

from __future__ import annotations

from pathlib import Path
from typing import Literal, cast

import typer
from rich.table import Table

from debugtutor.console import emit_json, state, stdout
from debugtutor.errors import InputError, read_text
from debugtutor.sandbox import (
    ExecOutcome,
    JudgeRequest,
    Limits,
    ProgramRequest,
    PythonTestsRequest,
    SandboxPool,
    SandboxRequest,
    Status,
    TestReport,
    isolation_level,
)

app = typer.Typer(help="Run untrusted code with limits and isolation.", no_args_is_help=True)

_EXTENSIONS = {".py": "python", ".cpp": "cpp", ".cc": "cpp", ".cxx": "cpp", ".java": "java"}


def _test_lines(path: Path) -> list[str]:
    lines = [line for line in read_text(path).splitlines() if line.strip() and not line.lstrip().startswith("#")]
    if not lines:
        raise InputError("the tests file has no test lines", path=str(path))
    return lines


@app.command("run")
def run(
    file: Path = typer.Argument(..., help="The program: .py, .cpp or .java."),
    lang: str | None = typer.Option(None, "--lang", help="python | cpp | java (default: from the extension)."),
    tests: Path | None = typer.Option(None, "--tests", help="Python only: a file of assert lines to run."),
    stdin: Path | None = typer.Option(None, "--stdin", help="A file fed to the program's standard input."),
    expect: Path | None = typer.Option(None, "--expect", help="Expected stdout: the run passes only if it matches."),
    float_tol: float | None = typer.Option(None, "--float-tol", help="Compare tokens with this float tolerance."),
    timeout: float | None = typer.Option(
        None, "--timeout", min=0.01, help="Wall-clock seconds (per test with --tests) [default: the sandbox's]."
    ),
    memory: int | None = typer.Option(None, "--memory", min=16, help="Memory limit in MB [default: the sandbox's]."),
    executor: str = typer.Option("local", "--executor", help="local | ray"),
    json_out: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Run FILE in the sandbox and show the outcome; the exit code is 0 only when it passed (exit 0 within its
    limits, every test passed, or stdout as expected), else 1."""
    state.json_mode = state.json_mode or json_out
    language = lang or _EXTENSIONS.get(file.suffix.lower())
    if language not in ("python", "cpp", "java"):
        raise InputError("cannot tell the language; pass --lang python|cpp|java", path=str(file), field="lang")
    if executor not in ("local", "ray"):
        raise InputError(f"unknown executor {executor!r}", field="executor", hint="use local or ray")
    lang_value = cast(Literal["python", "cpp", "java"], language)
    source = read_text(file)
    # only what was given: every other budget keeps the sandbox's own default
    given = {"wall_s": timeout, "memory_mb": memory}
    limits = Limits.model_validate({name: value for name, value in given.items() if value is not None})
    stdin_text = read_text(stdin) if stdin is not None else ""
    request: SandboxRequest
    if tests is not None:
        if lang_value != "python":
            raise InputError("--tests works with Python programs only", field="tests")
        if timeout is not None:
            limits = limits.model_copy(update={"per_test_s": timeout})
        request = PythonTestsRequest(code=source, tests=_test_lines(tests), limits=limits)
    elif expect is not None:
        request = JudgeRequest(
            source=source,
            lang=lang_value,
            stdin=stdin_text,
            expected_stdout=read_text(expect),
            float_tol=float_tol,
            limits=limits,
        )
    else:
        request = ProgramRequest(source=source, lang=lang_value, stdin=stdin_text, limits=limits)
    with SandboxPool(workers=1, executor="ray" if executor == "ray" else "local", isolation=isolation_level()) as pool:
        result = pool.run(request)
    if state.json_mode:
        emit_json({"file": str(file), "lang": lang_value, **result.model_dump(mode="json")})
    elif isinstance(result, TestReport):
        _show_report(result)
    else:
        _show_outcome(result)
    if result.status is not Status.passed:
        raise typer.Exit(1)


def _show_outcome(outcome: ExecOutcome) -> None:
    table = Table(title="sandbox run", show_header=False)
    table.add_row("status", outcome.status.value)
    table.add_row("exit code", str(outcome.returncode))
    table.add_row("wall / cpu", f"{outcome.wall_s:.3f} s / {outcome.cpu_s or 0.0:.3f} s")
    table.add_row("isolation", outcome.isolation)
    if outcome.exception is not None:
        line = f" (line {outcome.exception.line})" if outcome.exception.line else ""
        table.add_row("exception", f"{outcome.exception.type}: {outcome.exception.message}{line}")
    if outcome.compile_output:
        table.add_row("compiler", outcome.compile_output[:2000])
    table.add_row("stdout", outcome.stdout[:2000] + (" [truncated]" if outcome.stdout_truncated else ""))
    table.add_row("stderr", outcome.stderr[:2000] + (" [truncated]" if outcome.stderr_truncated else ""))
    stdout.print(table)


def _show_report(report: TestReport) -> None:
    table = Table(title=f"{report.passed}/{len(report.tests)} tests passed ({report.status.value}, {report.isolation})")
    for column in ("#", "test", "status", "actual", "expected", "exception"):
        table.add_column(column)
    for test in report.tests:
        exception = ""
        if test.exception is not None:
            exception = f"{test.exception.type}: {test.exception.message}"
            exception += f" (line {test.exception.line})" if test.exception.line else ""
        table.add_row(
            str(test.index), test.source, test.status.value, test.actual or "", test.expected or "", exception
        )
    if report.setup_error is not None:
        error = report.setup_error
        stdout.print(f"the code did not load: {error.type}: {error.message} (line {error.line})", highlight=False)
    stdout.print(table)
