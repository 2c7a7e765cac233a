"""The one ``debugtutor`` command: a Typer app that each part adds its command group to.

Errors raised on purpose (:class:`debugtutor.errors.DebugtutorError`) are printed as one line on stderr with exit
code 2 (usage or input) or 1 (failure); ``--debug`` shows the traceback instead.
"""

from __future__ import annotations

import importlib
import sys
import traceback
from typing import Any

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

# Every command: name -> (module under debugtutor.cli, one line of help for `debugtutor --help`). A module exposes
# `app` (a Typer group) or `register(app)` (top-level commands). Only the module a command line names is imported:
# the arenas pull in scipy, matplotlib and more, which would make every start slow.
_COMMANDS: dict[str, tuple[str, str]] = {
    "models": ("models", "Model back-ends: list providers and spec syntax, try a model."),
    "runs": ("runs", "Recorded evaluation runs: list, show, rebuild reports."),
    "cache": ("cache", "The persistent model response cache: info and clear."),
    "data": ("data", "Public datasets at pinned versions: list, fetch, locate."),
    "sandbox": ("sandbox", "Run untrusted code with limits and isolation."),
    "maze": ("maze", "The Hour-of-Code Maze world: show tasks, run programs, solve tasks."),
    "socratic": ("socratic", "The Socratic Debugging Benchmark: statistics, evaluation and scoring."),
    "studentsyn": ("studentsyn", "StudentSyn: synthesize a student's attempt on a new Maze task, and evaluate it."),
    "debugeval": ("debugeval", "DebugEval: localization, identification, review and repair in Python, C++ and Java."),
    "master": ("master", "MASTER: synthesize verified debugging SFT data, fine-tune on it, compare strategies."),
    "analyze": ("analyze", "Analyze a Python program: static checks, tests, fault localization, repairs."),
    "tutor": ("tutor", "Tutor a student live in the terminal (offline instructor or any model)."),
    "demo": ("demo", "Run the offline engine on the built-in sample data: no model, no network, no downloads."),
    "serve": ("serve", "The web app: tutor, dialogue annotation, manual evaluation, expert ratings, runs."),
    "web-users": ("serve", "Users of the web app and their login tokens: add, list, revoke."),
}
_TOP_LEVEL_COMMANDS = {"analyze", "tutor", "demo", "serve"}  # the others are command groups
_ROOT_FLAGS = {"--debug", "--quiet", "-q", "--version", "--help"}


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


_added: list[object] = []  # what _prepare registered on the app (removed again by the next call)


def _command_named(args: list[str]) -> str | None:
    """The command a command line names: its first word that is not one of the root's own flags."""
    for arg in args:
        if arg in _ROOT_FLAGS:
            continue
        return None if arg.startswith("-") else arg
    return None


def _prepare(args: list[str]) -> None:
    """Register the one command ``args`` names (importing its module), or light stand-ins of all of them when the
    root's own help (or an error listing the commands) is what will be shown."""
    app.registered_groups = [group for group in app.registered_groups if group not in _added]
    app.registered_commands = [command for command in app.registered_commands if command not in _added]
    _added.clear()
    before_groups, before_commands = list(app.registered_groups), list(app.registered_commands)
    name = _command_named(args)
    if name in _COMMANDS:
        module = importlib.import_module(f"debugtutor.cli.{_COMMANDS[name][0]}")
        if hasattr(module, "app"):
            app.add_typer(module.app, name=name)
        else:
            module.register(app)
    else:
        for command, (_, help_text) in _COMMANDS.items():
            if command in _TOP_LEVEL_COMMANDS:
                app.command(command, help=help_text, add_help_option=False)(_stand_in)
            else:
                app.add_typer(typer.Typer(help=help_text), name=command)
    _added.extend(group for group in app.registered_groups if group not in before_groups)
    _added.extend(command for command in app.registered_commands if command not in before_commands)


def _stand_in() -> None:
    """(Listed in the root's help only; a command line that names a command loads the real one.)"""


def _click_exceptions() -> tuple[type[Exception], type[Exception], type[Exception], type[Exception]]:
    """(Exit, Abort, ClickException, UsageError) of the click that Typer uses (recent Typer vendors its own)."""
    try:
        from typer._click import exceptions as vendored

        return typer.Exit, typer.Abort, vendored.ClickException, vendored.UsageError
    except ImportError:  # older Typer runs on click itself
        import click

        return click.exceptions.Exit, click.exceptions.Abort, click.ClickException, click.UsageError


_Exit, _Abort, _ClickException, _UsageError = _click_exceptions()


def _take_incomplete_runs() -> list[Any]:
    """The runs this command line left incomplete; only a command that ran one has imported the run options."""
    run_options = sys.modules.get("debugtutor.cli.run_options")
    return [] if run_options is None else run_options.take_incomplete_runs()


def _exit_if_a_run_was_incomplete() -> None:
    incomplete = _take_incomplete_runs()
    if not incomplete:
        return
    from debugtutor.cli.run_options import describe_incomplete

    for result in incomplete:
        stderr.print(f"[red]error:[/red] {escape(describe_incomplete(result))}", highlight=False, soft_wrap=True)
    sys.exit(1)


def main(argv: list[str] | None = None) -> None:
    """Run the CLI; map debugtutor errors to one line and an exit code."""
    args = sys.argv[1:] if argv is None else argv
    state.debug = "--debug" in args
    state.json_mode = "--json" in args
    _prepare(args)
    _take_incomplete_runs()  # (left over from an earlier command line in this process: not this one's business)
    try:
        # Without standalone mode click returns the code of a typer.Exit instead of raising it.
        code = app(args=args, standalone_mode=False, prog_name="debugtutor")
        if isinstance(code, int) and code:
            sys.exit(code)
        _exit_if_a_run_was_incomplete()
    except _Exit as exc:
        sys.exit(getattr(exc, "exit_code", 0))
    except _Abort:
        stderr.print("aborted")
        sys.exit(130)
    except _ClickException as exc:
        show = getattr(exc, "show", None)  # (click's exceptions print themselves, usage line included)
        if callable(show):
            show(file=sys.stderr)
        else:
            stderr.print(f"error: {escape(str(exc))}", highlight=False)
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
