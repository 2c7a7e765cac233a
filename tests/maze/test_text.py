"""The readable text form: formatting, parsing, round trips and line:col errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from debugtutor.maze import (
    Condition,
    If,
    IfElse,
    Move,
    Program,
    ProgramSyntaxError,
    Repeat,
    RepeatUntilGoal,
    TurnLeft,
    TurnRight,
    format_program,
    parse_compact,
    parse_program,
    program_from_json,
)

M, L, R = Move(), TurnLeft(), TurnRight()


def test_parse_one_line_program() -> None:
    program = parse_program("move(); turnLeft(); repeatUntil(goal) { if (pathAhead) { move(); } else { turnLeft(); } }")
    assert program == Program([M, L, RepeatUntilGoal([IfElse(Condition.PATH_AHEAD, [M], [L])])])


def test_format_is_indented_and_parses_back() -> None:
    program = Program(
        [
            M,
            RepeatUntilGoal([IfElse(Condition.PATH_RIGHT, [R, M], [M])]),
            Repeat(2, []),
            If(Condition.PATH_LEFT, [L]),
            IfElse(Condition.PATH_AHEAD, [], []),
        ]
    )
    text = format_program(program)
    assert text.splitlines()[:4] == ["move();", "repeatUntil(goal) {", "    if (pathRight) {", "        turnRight();"]
    assert "} else {" in text
    assert parse_program(text) == program


def test_comments_and_optional_semicolons() -> None:
    text = "// walk\nmove()  # first step\nrepeat(3) { turnRight() }\n"
    assert parse_program(text) == Program([M, Repeat(3, [R])])


@pytest.mark.parametrize(
    ("text", "line", "col", "expected"),
    [
        ("move();\nturnLeft(;", 2, 10, "expected ')'"),
        ("move();\n  jump();", 2, 3, "expected a statement"),
        ("repeatUntil(wall) { }", 1, 13, "expected 'goal'"),
        ("if (pathUp) { }", 1, 5, "a condition"),
        ("repeat(x) { }", 1, 8, "a repeat count"),
        ("move(); }", 1, 9, "expected a statement"),
        ("repeatUntil(goal) { move();", 1, 28, "found end of input"),
        ("move(); @", 1, 9, "unexpected character '@'"),
    ],
)
def test_syntax_errors_give_line_and_column(text: str, line: int, col: int, expected: str) -> None:
    with pytest.raises(ProgramSyntaxError, match=re.escape(expected)) as info:
        parse_program(text, source="attempt.txt")
    assert (info.value.line, info.value.col) == (line, col)
    assert str(info.value).startswith(f"attempt.txt:{line}:{col}:")


def test_compact_errors() -> None:
    with pytest.raises(ProgramSyntaxError, match="expected a block"):
        parse_compact("M X")


def _round_trip_all(files: list[Path]) -> int:
    for path in files:
        tree = json.loads(path.read_text())
        program = program_from_json(tree[0] if isinstance(tree, list) else tree)
        assert parse_program(format_program(program)) == program, path
    return len(files)


def test_text_round_trip_on_samples(maze_samples: Path) -> None:
    assert _round_trip_all(sorted(maze_samples.rglob("*.json"))) >= 20


@pytest.mark.shared_data
def test_text_round_trip_on_shared_data(studentsyn_data: Path) -> None:
    # tutorSS/ holds the experts' response files (records that contain codes), not program files
    programs = [path for path in sorted(studentsyn_data.rglob("*.json")) if "tutorSS" not in path.parts]
    assert _round_trip_all(programs) > 290
