"""The one ``debugtutor`` command: a Typer app that each part adds its command group to.

Errors raised on purpose (:class:`debugtutor.errors.DebugtutorError`) are printed as one line on stderr with exit
code 2 (usage or input) or 1 (failure); ``--debug`` shows the traceback instead.
"""

from __future__ import annotations

import importlib
import sys
import traceback

import typer
from rich.markup import escape

from debugtutor import __version__
from debugtutor.console import state, stderr
from debugtutor.errors import DebugtutorError

app = typer.Typer(
    name="debugtutor",
    help="Build and evaluate AI that teaches debugging.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

# (module under debugtutor.cli, group name); a module exposes `app` (a Typer group) or `register(app)`.
_GROUPS: list[tuple[str, str]] = [
    ("models", "models"),
    ("runs", "runs"),
    ("cache", "cache"),
    ("data", "data"),
    ("sandbox", "sandbox"),
    ("maze", "maze"),
    ("socratic", "socratic"),
    ("studentsyn", "studentsyn"),
    ("debugeval", "debugeval"),
]
_COMMAND_MODULES: list[str] = ["analyze", "tutor", "serve", "demo"]


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"debugtutor {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version_callback, is_eager=True, help="Print the version and exit."
    ),
    debug: bool = typer.Option(False, "--debug", help="Show tracebacks on errors."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No logs or progress bars on stderr."),
) -> None:
    state.debug = debug
    state.quiet = quiet


def _load_groups() -> None:
    for module_name, group in _GROUPS:
        try:
            module = importlib.import_module(f"debugtutor.cli.{module_name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"debugtutor.cli.{module_name}":
                continue  # that part is not built yet
            raise
        app.add_typer(module.app, name=group)
    for module_name in _COMMAND_MODULES:
        try:
            module = importlib.import_module(f"debugtutor.cli.{module_name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"debugtutor.cli.{module_name}":
                continue
            raise
        module.register(app)


_load_groups()


def _click_exceptions() -> tuple[type[Exception], type[Exception], type[Exception], type[Exception]]:
    """(Exit, Abort, ClickException, UsageError) of the click that Typer uses (recent Typer vendors its own)."""
    try:
        from typer._click import exceptions as vendored

        return typer.Exit, typer.Abort, vendored.ClickException, vendored.UsageError
    except ImportError:  # older Typer runs on click itself
        import click

        return click.exceptions.Exit, click.exceptions.Abort, click.ClickException, click.UsageError


_Exit, _Abort, _ClickException, _UsageError = _click_exceptions()


def main(argv: list[str] | None = None) -> None:
    """Run the CLI; map debugtutor errors to one line and an exit code."""
    args = sys.argv[1:] if argv is None else argv
    state.debug = "--debug" in args
    state.json_mode = "--json" in args
    try:
        # Without standalone mode click returns the code of a typer.Exit instead of raising it.
        code = app(args=args, standalone_mode=False, prog_name="debugtutor")
        if isinstance(code, int) and code:
            sys.exit(code)
        from debugtutor.runs.cli_options import describe_incomplete, incomplete_runs

        incomplete = incomplete_runs()
        if incomplete:
            for result in incomplete:
                stderr.print(
                    f"[red]error:[/red] {escape(describe_incomplete(result))}", highlight=False, soft_wrap=True
                )
            sys.exit(1)
    except _Exit as exc:
        sys.exit(getattr(exc, "exit_code", 0))
    except _Abort:
        stderr.print("aborted")
        sys.exit(130)
    except _ClickException as exc:
        exc.show(file=sys.stderr)  # type: ignore[attr-defined]
        sys.exit(2 if isinstance(exc, _UsageError) else getattr(exc, "exit_code", 1))
    except DebugtutorError as exc:
        if state.debug:
            traceback.print_exc()
        stderr.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False, soft_wrap=True)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        stderr.print("interrupted")
        sys.exit(130)
    except Exception as exc:  # an unexpected failure: still one line unless --debug
        if state.debug:
            traceback.print_exc()
        else:
            stderr.print(
                f"[red]error:[/red] {type(exc).__name__}: {escape(str(exc))} (run with --debug for the traceback)",
                highlight=False,
                soft_wrap=True,
            )
        sys.exit(1)


if __name__ == "__main__":
    main()
