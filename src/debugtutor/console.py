"""Where debugtutor talks to people: logs and progress on stderr, results on stdout.

Results are printed once, either as rich tables for a person or as exactly one JSON object (``--json``). Everything
else (logs, warnings, progress bars) goes to stderr, and progress bars stay silent when stdout is not a terminal or
JSON output was asked for, so pipes and scripts see only the result.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

stderr = Console(stderr=True)
stdout = Console()


class _State:
    json_mode: bool = False
    debug: bool = False
    quiet: bool = False


state = _State()


def progress_enabled() -> bool:
    """Progress bars show only for a person: stdout is a terminal and no JSON was asked for."""
    return not (state.json_mode or state.quiet) and sys.stdout.isatty() and sys.stderr.isatty()


class ProgressBar:
    """A single-task progress bar; ``advance`` is a no-op when progress is disabled."""

    def __init__(self, progress: Progress | None, task_id: Any) -> None:
        self._progress = progress
        self._task_id = task_id

    def advance(self, steps: int = 1) -> None:
        if self._progress is not None:
            self._progress.advance(self._task_id, steps)

    def update(self, *, total: int | None = None, description: str | None = None) -> None:
        if self._progress is not None:
            self._progress.update(self._task_id, total=total, description=description)


@contextmanager
def progress(description: str, total: int | None, *, enabled: bool | None = None) -> Iterator[ProgressBar]:
    """A progress bar on stderr for a long loop, silent unless :func:`progress_enabled`."""
    if not (progress_enabled() if enabled is None else enabled):
        yield ProgressBar(None, None)
        return
    bar = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=stderr,
        transient=False,
    )
    with bar:
        task_id = bar.add_task(description, total=total)
        yield ProgressBar(bar, task_id)


def log(message: str) -> None:
    """A line for a person on stderr (suppressed under ``--json``)."""
    if not state.json_mode and not state.quiet:
        stderr.print(message, highlight=False, soft_wrap=True)


def warn(message: str) -> None:
    """A warning on stderr, shown even under ``--json``."""
    stderr.print(f"[yellow]warning:[/yellow] {message}", highlight=False, soft_wrap=True)


def emit_json(obj: Any) -> None:
    """Print exactly one JSON object on stdout."""
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, default=_json_default) + "\n")
    sys.stdout.flush()


def _json_default(value: Any) -> Any:
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if hasattr(value, "__dataclass_fields__"):
        import dataclasses

        return dataclasses.asdict(value)
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    return str(value)
