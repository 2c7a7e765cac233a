"""The benchmark's JSON AST form: exact round trips, Python-literal input and clear errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from debugtutor.errors import InputError
from debugtutor.maze import (
    Condition,
    If,
    IfElse,
    Move,
    Program,
    Repeat,
    RepeatUntilGoal,
    TurnLeft,
    TurnRight,
    parse_program_json,
    program_from_json,
    program_to_json,
    read_program,
    write_program,
)

HOC18_JSON: dict[str, Any] = {
    "type": "run",
    "children": [
        {
            "children": [
                {
                    "type": "ifelse bool_path_ahead",
                    "children": [
                        {"type": "do", "children": [{"type": "move"}]},
                        {"children": [{"type": "turn_left"}], "type": "else"},
                    ],
                }
            ],
            "type": "while",
        }
    ],
}


def test_reads_benchmark_tree() -> None:
    program = program_from_json(HOC18_JSON)
    assert program == Program([RepeatUntilGoal([IfElse(Condition.PATH_AHEAD, [Move()], [TurnLeft()])])])
    assert program_to_json(program) == HOC18_JSON


def test_repeat_and_if_forms_round_trip() -> None:
    program = Program([Repeat(4, [Move(), TurnRight()]), If(Condition.PATH_LEFT, [TurnLeft()])])
    tree = program_to_json(program)
    assert tree["children"][0]["type"] == "repeat 4"
    assert tree["children"][1]["children"][0]["type"] == "do"
    assert program_from_json(tree) == program


def test_python_literal_and_singleton_list(tmp_path: Path) -> None:
    literal = repr(HOC18_JSON)
    assert "'" in literal
    assert parse_program_json(literal) == program_from_json(HOC18_JSON)
    path = tmp_path / "distractor.json"
    path.write_text(json.dumps([HOC18_JSON]))
    assert read_program(path) == program_from_json(HOC18_JSON)


def test_write_then_read(tmp_path: Path) -> None:
    program = Program([Move(), TurnLeft(), RepeatUntilGoal([IfElse(Condition.PATH_RIGHT, [TurnRight()], [Move()])])])
    assert read_program(write_program(program, tmp_path / "p.json")) == program


@pytest.mark.parametrize(
    ("tree", "message"),
    [
        ({"type": "program", "children": []}, "root node must be 'run'"),
        ({"type": "run", "children": [{"type": "jump"}]}, "unknown node type 'jump'"),
        ({"type": "run", "children": [{"type": "ifelse bool_path_up", "children": []}]}, "unknown condition"),
        (
            {"type": "run", "children": [{"type": "ifelse bool_path_ahead", "children": [{"type": "do"}]}]},
            "needs 'do' and 'else'",
        ),
        ({"type": "run", "children": [{"type": "move", "children": [{"type": "move"}]}]}, "cannot have children"),
        ({"type": "run", "children": [{"type": "repeat x", "children": []}]}, "needs a count"),
    ],
)
def test_malformed_trees(tree: dict[str, Any], message: str) -> None:
    with pytest.raises(InputError, match=message):
        program_from_json(tree, source="bad.json")


def test_unparsable_text_names_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{\n  "type": "run",\n  "children": [\n')
    with pytest.raises(InputError, match="not a JSON AST") as info:
        read_program(path)
    assert info.value.path == str(path)
    assert info.value.line is not None


def _all_program_files(root: Path) -> list[Path]:
    return sorted(root.rglob("*.json"))


def test_sample_files_round_trip(maze_samples: Path) -> None:
    files = _all_program_files(maze_samples)
    assert len(files) >= 20
    for path in files:
        tree = json.loads(path.read_text())
        assert program_to_json(program_from_json(tree)) == tree, path


@pytest.mark.shared_data
def test_every_shared_file_round_trips_exactly(studentsyn_data: Path) -> None:
    # tutorSS/ holds the experts' response files (records that contain codes), not program files
    files = [path for path in _all_program_files(studentsyn_data) if "tutorSS" not in path.parts]
    assert len(files) > 290
    for path in files:
        tree = json.loads(path.read_text())
        if isinstance(tree, list):
            (tree,) = tree
        assert program_to_json(program_from_json(tree)) == tree, path
