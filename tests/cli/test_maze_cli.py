"""``debugtutor maze show | run | solve`` through Typer's test runner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from debugtutor.cli import maze as maze_cli
from debugtutor.errors import InputError
from debugtutor.samples import sample_dir

root = typer.Typer()
root.add_typer(maze_cli.app, name="maze")
runner = CliRunner()
SAMPLES = sample_dir("maze")
LOOP_A = str(SAMPLES / "loop" / "task" / "loopA_task.txt")


def invoke(*args: str) -> tuple[int, str]:
    result = runner.invoke(root, ["maze", *args])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout


def test_run_json_with_literal_program() -> None:
    code, out = invoke("run", LOOP_A, "repeatUntil(goal) { if (pathAhead) { move(); } else { turnLeft(); } }", "--json")
    assert code == 0
    payload = json.loads(out)
    assert payload["outcome"] == "success" and payload["program"] == "RUG{IF(pathAhead){M}ELSE{L}}"
    assert payload["trace"][0][3] == "start"


def test_run_json_file_and_compact_literal() -> None:
    student = str(SAMPLES / "loop" / "stu" / "loopA_code_stu1.json")
    assert json.loads(invoke("run", LOOP_A, student, "--json")[1])["outcome"] == "loop_cap"
    assert json.loads(invoke("run", LOOP_A, "M M M M M M M", "--json")[1])["outcome"] == "crash"
    code, out = invoke("run", LOOP_A, "M M")
    assert code == 0 and "not_at_goal after 2 steps" in out


def test_run_text_file(tmp_path: Path) -> None:
    code_file = tmp_path / "attempt.txt"
    code_file.write_text("move();\nmove();\n")
    assert json.loads(invoke("run", LOOP_A, str(code_file), "--json")[1])["steps"] == 2


def test_bad_program_names_position() -> None:
    with pytest.raises(InputError, match=r"<program>:1:6"):
        invoke("run", LOOP_A, "move(;")


def test_solve_json() -> None:
    code, out = invoke("solve", LOOP_A, "--json")
    payload = json.loads(out)
    assert code == 0 and payload["solution"]["size"] == 4 and payload["solution"]["depth"] == 3
    seq_a = str(SAMPLES / "seq" / "task" / "seqA_task.txt")
    payload = json.loads(invoke("solve", seq_a, "--blocks", "move,turn_left,turn_right", "--json")[1])
    assert payload["solution"]["compact"] == "M L M R M M L M M"


def test_solve_without_answer_exits_1() -> None:
    code, out = invoke("solve", LOOP_A, "--blocks", "move,turnLeft,turnRight", "--max-size", "5", "--json")
    assert code == 1 and json.loads(out)["solution"] is None


def test_show_png_and_svg(tmp_path: Path) -> None:
    code, out = invoke("show", LOOP_A, "--code", "M M", "--out", str(tmp_path / "p.png"), "--json")
    assert code == 0 and json.loads(out)["outcome"] == "not_at_goal"
    assert (tmp_path / "p.png").stat().st_size > 1000
    assert invoke("show", LOOP_A, "--out", str(tmp_path / "p.svg"))[0] == 0
    with pytest.raises(InputError, match=r"\.png or \.svg"):
        invoke("show", LOOP_A, "--out", str(tmp_path / "p.gif"))
