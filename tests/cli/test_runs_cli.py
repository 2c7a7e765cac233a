"""Tests for `debugtutor runs list|show|report` and the shared run options arenas add to their eval commands."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from debugtutor.cli.run_options import RunOptions, with_run_options
from debugtutor.cli.runs import app
from debugtutor.console import state
from debugtutor.errors import InputError
from debugtutor.runs import EvalItem, EvalTask, RunResult, run_task

runner = CliRunner()


@pytest.fixture(autouse=True)
def _reset_console_state() -> Iterator[None]:
    yield
    state.json_mode = False


def _toy_task(name: str = "cli-toy") -> EvalTask:
    items = [EvalItem(id=str(n), input=n, target=n % 4 != 1) for n in range(4)]
    return EvalTask(name=name, items=items, solver=lambda item: item.target, scorer=lambda item, output: float(output))


@pytest.fixture
def two_runs(tmp_path: Path) -> tuple[Path, RunResult, RunResult]:
    runs_dir = tmp_path / "runs"
    first = run_task(_toy_task("first-task"), runs_dir=runs_dir)
    second = run_task(_toy_task("second-task"), runs_dir=runs_dir)
    return runs_dir, first, second


def test_list_json(two_runs: tuple[Path, RunResult, RunResult]) -> None:
    runs_dir, first, second = two_runs
    result = runner.invoke(app, ["list", "--runs-dir", str(runs_dir), "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert [row["id"] for row in payload["runs"]] == [first.run_id, second.run_id]
    assert payload["runs"][0]["task"] == "first-task"
    assert payload["runs"][0]["status"] == "success"
    assert payload["runs"][0]["items"] == 4


def test_list_table_uses_the_environment_runs_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DEBUGTUTOR_RUNS_DIR", str(tmp_path / "env-runs"))
    made = run_task(_toy_task())
    result = runner.invoke(app, ["list"])
    assert result.exit_code == 0, result.output
    assert made.run_id in result.stdout and "cli-toy" in result.stdout


def test_show_json_by_id_prefix(two_runs: tuple[Path, RunResult, RunResult]) -> None:
    runs_dir, _, second = two_runs
    result = runner.invoke(app, ["show", "latest", "--runs-dir", str(runs_dir), "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["manifest"]["run_id"] == second.run_id
    assert payload["summary"]["metrics"]["score"]["mean"] == 0.75
    human = runner.invoke(app, ["show", str(second.run_dir)])
    assert "second-task" in human.stdout and "0.75" in human.stdout


def test_report_rebuilds_summary_and_html(two_runs: tuple[Path, RunResult, RunResult], tmp_path: Path) -> None:
    runs_dir, first, _ = two_runs
    (first.run_dir / "summary.json").unlink()
    out = tmp_path / "out" / "first.html"
    result = runner.invoke(app, ["report", first.run_id, "--runs-dir", str(runs_dir), "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["report_path"] == str(out)
    assert payload["summary"]["metrics"]["score"]["mean"] == 0.75
    assert json.loads((first.run_dir / "summary.json").read_text())["counts"]["done"] == 4
    assert "data:image/png;base64," in out.read_text(encoding="utf-8")


def test_unknown_run_is_an_input_error(tmp_path: Path) -> None:
    for command in (["show", "nope"], ["report", "nope"]):
        result = runner.invoke(app, [*command, "--runs-dir", str(tmp_path)])
        assert isinstance(result.exception, InputError)
        assert result.exception.exit_code == 2
        assert "no run 'nope'" in str(result.exception)


def test_with_run_options_adds_the_common_flags(tmp_path: Path) -> None:
    seen: list[RunOptions] = []
    arena = typer.Typer()

    @arena.command("eval")
    @with_run_options
    def eval_command(data: str, run_options: RunOptions, verbose: bool = False) -> None:
        seen.append(run_options)

    @arena.command("other")
    def other() -> None:
        """A second command keeps Typer from collapsing the group."""

    help_text = runner.invoke(arena, ["eval", "--help"], terminal_width=200).stdout
    for flag in ("--resume", "--retry-errors", "--runs-dir", "--concurrency", "--limit", "--force"):
        assert flag in help_text
    args = ["eval", "d.json", "--resume", "latest", "--retry-errors", "-j", "3", "--limit", "7"]
    result = runner.invoke(arena, [*args, "--runs-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert seen == [RunOptions(runs_dir=tmp_path, resume="latest", retry_errors=True, concurrency=3, limit=7)]
    assert runner.invoke(arena, ["eval", "d.json", "--concurrency", "0"]).exit_code == 2


def test_run_options_run_a_task(tmp_path: Path) -> None:
    options = RunOptions(runs_dir=tmp_path, limit=2, concurrency=1)
    result = options.run(_toy_task())
    assert result.summary["counts"] == {"items": 2, "done": 2, "errors": 0}
    assert result.run_dir.parent == tmp_path
