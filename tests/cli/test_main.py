"""The root command: version, usage errors and the mapping of debugtutor errors to one line and an exit code."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from debugtutor import __version__
from debugtutor.cli import main as cli_main
from debugtutor.errors import InputError, ModelError


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        cli_main.main(args)
        sys.exit(0)
    out, err = capsys.readouterr()
    code = info.value.code
    return (code if isinstance(code, int) else 0), out, err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["--version"], capsys)
    assert code == 0
    assert out.strip() == f"debugtutor {__version__}"


def test_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["no-such-command"], capsys)
    assert code == 2
    assert out == ""
    assert "no-such-command" in err


@pytest.mark.parametrize(
    ("error", "expected_code", "expected_text"),
    [
        (InputError("missing field", path="data.jsonl", line=3, field="id"), 2, "data.jsonl:3, field 'id': missing"),
        (ModelError("openai:x at http://127.0.0.1:1/v1 failed with status 500"), 1, "status 500"),
    ],
)
def test_debugtutor_errors_become_one_line(
    error: Exception, expected_code: int, expected_text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    probe = typer.Typer()

    @probe.command("boom")
    def boom() -> None:
        raise error

    cli_main.app.add_typer(probe, name="probe-errors")
    try:
        code, out, err = run_cli(["probe-errors", "boom"], capsys)
    finally:
        cli_main.app.registered_groups = [g for g in cli_main.app.registered_groups if g.name != "probe-errors"]
    assert code == expected_code
    assert out == ""
    assert expected_text in err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_console_script_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "debugtutor.cli.main", "--version"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0
    assert __version__ in done.stdout


def test_the_root_help_lists_every_command_without_importing_the_arenas() -> None:
    # a fresh interpreter: `debugtutor --help` must not pay for scipy, matplotlib or the arenas
    probe = (
        "import sys\nfrom debugtutor.cli import main\n"
        "try:\n    main.main(['--help'])\nexcept SystemExit:\n    pass\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('scipy', 'matplotlib', 'torch') "
        "or m.startswith(('debugtutor.socratic', 'debugtutor.studentsyn', 'debugtutor.debugeval')))\n"
        "print('HEAVY', heavy)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    assert "HEAVY []" in done.stdout, done.stdout[-2000:]
    for name in ("socratic", "studentsyn", "debugeval", "sandbox", "analyze", "demo"):
        assert name in done.stdout


def test_a_command_loads_only_its_own_module() -> None:
    probe = (
        "import sys\nfrom debugtutor.cli import main\n"
        "try:\n    main.main(['sandbox', '--help'])\nexcept SystemExit:\n    pass\n"
        "print('LOADED', sorted(m for m in sys.modules if m.startswith('debugtutor.cli.')))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    assert "LOADED ['debugtutor.cli.main', 'debugtutor.cli.sandbox']" in done.stdout, done.stdout[-2000:]


def test_help_texts_keep_their_bracketed_words() -> None:
    # rich reads [words] in help texts as markup and drops them unless escaped; every help that means a bracket
    # must show it
    import re

    from debugtutor.cli.main import _COMMANDS

    root = typer.Typer()
    for module_name in sorted({module for module, _ in _COMMANDS.values()}):
        module = __import__(f"debugtutor.cli.{module_name}", fromlist=["x"])
        if hasattr(module, "app"):
            root.add_typer(module.app, name=module_name)
        else:
            module.register(root)
    checked = 0

    def visit(command: Any, path: list[str]) -> None:  # (Typer's own vendored click classes)
        nonlocal checked
        if hasattr(command, "commands"):
            for name, sub in command.commands.items():
                visit(sub, [*path, name])
            return
        wanted = [
            " ".join(re.sub(r"\\(\[)", r"\1", param.help).split())
            for param in command.params
            if getattr(param, "help", None) and "[" in param.help
        ]
        if not wanted:
            return
        # (in this process, through the same Typer app and rich rendering: a process per command took 30 s)
        done = CliRunner().invoke(root, [*path, "--help"], env={"COLUMNS": "400", "TERMINAL_WIDTH": "400"})
        assert done.exit_code == 0, (path, done.output[-500:])
        shown = " ".join(re.sub(r"[│╭╮╰╯─]", " ", done.output).split())
        for text in wanted:
            assert text in shown, (path, text)
            checked += 1

    visit(typer.main.get_command(root), [])
    assert checked >= 8
