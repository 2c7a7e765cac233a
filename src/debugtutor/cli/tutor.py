"""``debugtutor tutor``: an interactive Socratic tutoring session in the terminal.

The student keeps their program in a file and edits it with any editor; the tutor asks one question per turn,
re-runs the tests whenever the file changes (or on ``:edit``) and ends the session when they pass. With ``--json``
the conversation goes to stderr and one JSON object describing the outcome is printed on stdout at the end.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from debugtutor.cli.options import ModelOptions, with_model_options
from debugtutor.console import emit_json
from debugtutor.errors import InputError
from debugtutor.socratic.tutor import TutorSession, run_interactive


def _read(path: Path, what: str) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise InputError(f"cannot read the {what}: {exc.strerror}", path=str(path)) from exc
    except UnicodeDecodeError as exc:
        raise InputError(f"the {what} is not UTF-8 text", path=str(path)) from exc


def _read_stdin_line() -> str | None:
    line = sys.stdin.readline()
    return line if line else None


_DEFAULT_MODEL_OPTIONS = ModelOptions()  # (replaced by the user's options: see with_model_options)


@with_model_options
def tutor_command(
    problem: Annotated[Path, typer.Option("--problem", help="Text file with the problem statement.")],
    code: Annotated[Path, typer.Option("--code", help="The student's Python program (edit it during the session).")],
    tests: Annotated[Path, typer.Option("--tests", help="File of assert statements (setup lines first).")],
    model: Annotated[
        Optional[str],  # noqa: UP045 - Typer evaluates annotations at run time, on Python 3.10 too
        typer.Option("--model", help="Model spec for the questions (default: the offline instructor)."),
    ] = None,
    transcript: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option("--transcript", help="Save the session in the benchmark's dialogue format."),
    ] = None,
    max_turns: Annotated[int, typer.Option("--max-turns", min=1, help="End after this many student turns.")] = 100,
    repair_seconds: Annotated[
        float, typer.Option("--repair-seconds", min=0.0, help="Budget of the analysis engine's repair search.")
    ] = 8.0,
    json_output: Annotated[bool, typer.Option("--json", help="Print one JSON outcome on stdout at the end.")] = False,
    model_options: ModelOptions = _DEFAULT_MODEL_OPTIONS,
) -> None:
    """Tutor a student through their bug, Socratically, until the tests pass."""
    session = TutorSession(
        problem=_read(problem, "problem").strip(),
        code_path=code,
        unit_tests=_read(tests, "tests"),
        model=model_options.resolve(model) if model else None,
        repair_seconds=repair_seconds,
    )
    conversation = sys.stderr if json_output else sys.stdout

    def write(text: str) -> None:
        conversation.write(text)
        conversation.flush()  # the prompt has no newline; a script driving us waits for it

    outcome = run_interactive(session, _read_stdin_line, write, transcript_path=transcript, max_turns=max_turns)
    if json_output:
        emit_json(
            {
                "solved": outcome.solved,
                "student_turns": outcome.turns,
                "blocked_utterances": outcome.blocked_utterances,
                "transcript": outcome.transcript_path,
                "diagnosis": session.diagnosis.description if session.diagnosis else None,
            }
        )
    else:
        status = "solved: all tests pass" if outcome.solved else "ended with failing tests"
        saved = f"; transcript saved to {outcome.transcript_path}" if outcome.transcript_path else ""
        write(f"Session {status}{saved}.\n")


def register(app: typer.Typer) -> None:
    """Add the top-level ``tutor`` command."""
    app.command("tutor")(tutor_command)
