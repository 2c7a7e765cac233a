"""The run options every arena's eval command offers: ``--runs-dir --resume --retry-errors --concurrency --limit
--force --allow-errors``, defined once so that all arenas spell and document them the same way.

A run that ends ``partial`` or ``failed`` makes the command exit with code 1 after it has printed its results,
unless ``--allow-errors`` is given (:func:`incomplete_runs` is what ``debugtutor.cli.main`` checks).

Two ways to use them in a Typer command:

1. Decorate it with :func:`with_run_options` and take one ``run_options: RunOptions`` parameter::

       @app.command("eval")
       @with_run_options
       def eval_command(data: Path, run_options: RunOptions) -> None:
           result = run_options.run(build_task(data))

2. Or declare the parameters yourself with the ``*Option`` aliases and build :class:`RunOptions` from them.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Optional, TypeVar

import typer

from debugtutor.runs._runner import ReportWriter, RunResult, run_task
from debugtutor.runs._task import EvalTask

# Optional[...] rather than "X | None": these aliases are evaluated at run time by Typer, on Python 3.10 too.
RunsDirOption = Annotated[
    Optional[Path],  # noqa: UP045
    typer.Option(
        "--runs-dir", help="Folder of run records \\[default: $DEBUGTUTOR_RUNS_DIR or ./runs].", show_default=False
    ),
]
ResumeOption = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(
        "--resume",
        metavar="RUN",
        help="Continue run RUN (id, id prefix, 'latest' or path): skip items recorded without error.",
    ),
]
RetryErrorsOption = Annotated[
    bool, typer.Option("--retry-errors", help="With --resume: rerun only the items whose records show an error.")
]
ConcurrencyOption = Annotated[int, typer.Option("--concurrency", "-j", min=1, help="Items in flight at once.")]
LimitOption = Annotated[
    Optional[int],  # noqa: UP045
    typer.Option("--limit", min=0, help="Evaluate only the first N items."),
]
ForceOption = Annotated[
    bool,
    typer.Option("--force", help="Resume even though the task or the items' inputs changed (changed items rerun)."),
]
AllowErrorsOption = Annotated[
    bool,
    typer.Option(
        "--allow-errors", help="Exit 0 even when some items failed (the run is still recorded as partial or failed)."
    ),
]

DEFAULT_CONCURRENCY = 8


@dataclasses.dataclass
class RunOptions:
    """The common run options of an eval command, ready to pass to :func:`debugtutor.runs.run_task`."""

    runs_dir: Path | None = None
    resume: str | None = None
    retry_errors: bool = False
    concurrency: int = DEFAULT_CONCURRENCY
    limit: int | None = None
    force: bool = False
    allow_errors: bool = False

    def run_kwargs(self) -> dict[str, Any]:
        options = dataclasses.asdict(self)
        del options["allow_errors"]
        return options

    def run(self, task: EvalTask, *, argv: list[str] | None = None, report: bool = True) -> RunResult:
        writer: ReportWriter | None = None
        if report:
            from debugtutor.report import write_report

            writer = write_report
        result = run_task(task, argv=argv, report=writer, **self.run_kwargs())
        if result.status in ("partial", "failed") and not self.allow_errors:
            _INCOMPLETE.append(result)
        return result


_INCOMPLETE: list[RunResult] = []


def incomplete_runs() -> list[RunResult]:
    """Runs this process finished as ``partial`` or ``failed`` without ``--allow-errors`` (then the CLI exits 1)."""
    return list(_INCOMPLETE)


def describe_incomplete(result: RunResult) -> str:
    """One line saying how a run fell short and how to finish it."""
    counts = result.summary.get("counts", {})
    errors, done, items = counts.get("errors", 0), counts.get("done", 0), counts.get("items", 0)
    reason = result.summary.get("stop_reason")
    return (
        f"run {result.run_id} ended {result.status}: {errors} of {done} recorded item(s) failed"
        + (f", {items - done} never ran" if items > done else "")
        + (f" (stopped: {reason})" if reason else "")
        + f"; finish it with --resume {result.run_id} --retry-errors, or pass --allow-errors"
    )


_OPTION_PARAMETERS: list[tuple[str, Any, Any]] = [
    ("runs_dir", RunsDirOption, None),
    ("resume", ResumeOption, None),
    ("retry_errors", RetryErrorsOption, False),
    ("concurrency", ConcurrencyOption, DEFAULT_CONCURRENCY),
    ("limit", LimitOption, None),
    ("force", ForceOption, False),
    ("allow_errors", AllowErrorsOption, False),
]

CommandT = TypeVar("CommandT", bound=Callable[..., Any])


def with_run_options(command: CommandT) -> CommandT:
    """Add the common run options to a Typer command that takes a ``run_options: RunOptions`` parameter."""
    return with_option_group(command, "run_options", RunOptions, _OPTION_PARAMETERS)


def with_option_group(
    command: CommandT, parameter: str, group: Callable[..., Any], options: list[tuple[str, Any, Any]]
) -> CommandT:
    """Add the Typer ``options`` (name, annotation, default) to ``command`` and hand it one ``parameter``: the
    ``group`` (a dataclass) built from their values. Several groups can be stacked on one command."""
    signature = inspect.signature(command)
    if parameter not in signature.parameters:
        raise TypeError(f"{command.__name__} must take a {parameter!r} parameter to use this option group")
    names = [name for name, _, _ in options]
    clash = [name for name in names if name in signature.parameters]
    if clash:
        raise TypeError(f"{command.__name__} already has parameter(s) {clash} that the option group adds")

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        built = group(**{name: kwargs.pop(name) for name in names if name in kwargs})
        return command(*args, **{parameter: built}, **kwargs)

    # Resolve string annotations (modules using `from __future__ import annotations`): the wrapper lives in this
    # module, where Typer could not evaluate the command module's names and would drop those options silently.
    hints = typing.get_type_hints(command, include_extras=True)
    kept = [
        parameter_.replace(annotation=hints.get(parameter_.name, parameter_.annotation))
        for parameter_ in signature.parameters.values()
        if parameter_.name != parameter
    ]
    added = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)
        for name, annotation, default in options
    ]
    wrapper.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=kept + added, return_annotation=hints.get("return", signature.return_annotation)
    )
    annotations = {key: value for key, value in hints.items() if key != parameter}
    annotations.update({name: annotation for name, annotation, _ in options})
    wrapper.__annotations__ = annotations
    return wrapper  # type: ignore[return-value]
