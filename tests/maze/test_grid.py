"""Reading Maze task grids: the benchmark's irregular separators, coordinates, headings and errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from debugtutor.errors import InputError
from debugtutor.maze import Heading, MazeTask, parse_task_text, read_task

SMALL = "\t1\t2\t3\t4\t5\n1\t#\t#\t#\t#\t#\n2\t#\tv   .\t+\t#\n3  #\t#\t#  #\t#\t\n"


def test_parse_small_grid_with_mixed_separators() -> None:
    task = parse_task_text(SMALL, "tiny")
    assert task == MazeTask("tiny", ("#####", "#...#", "#####"), (1, 1), Heading.SOUTH, (1, 3))
    assert (task.height, task.width) == (3, 5)
    assert task.free_cells() == [(1, 1), (1, 2), (1, 3)]
    assert task.is_wall(0, 0) and not task.is_wall(1, 2)
    assert task.is_wall(-1, 2) and task.is_wall(1, 5)  # off the grid counts as wall


def test_to_text_round_trip() -> None:
    task = parse_task_text(SMALL, "tiny")
    assert parse_task_text(task.to_text(), "tiny") == task


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("\t1\t2\t3\n1\t#\t>\t#\n2\t#\t#\n", "row has 2 cells"),
        ("\t1\t2\t3\n1\t#\t.\t+\n", "exactly one avatar"),
        ("\t1\t2\t3\n1\t>\t.\t.\n", "exactly one goal"),
        ("\t1\t2\t3\n1\t>\t?\t+\n", "unknown cell symbol '?'"),
        ("", "no grid rows"),
    ],
)
def test_malformed_grids_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message) as info:
        parse_task_text(text, "bad", path="bad_task.txt")
    assert "bad_task.txt" in str(info.value)


def test_error_names_the_line() -> None:
    with pytest.raises(InputError) as info:
        parse_task_text("\t1\t2\t3\n1\t#\t>\t+\n2\t#\t#\n", "bad", path="bad_task.txt")
    assert info.value.line == 3


def test_headings_turn_like_the_benchmark() -> None:
    assert Heading.EAST.left() is Heading.NORTH
    assert Heading.EAST.right() is Heading.SOUTH
    assert Heading.NORTH.delta == (-1, 0)
    for heading in Heading:
        assert heading.left().right() is heading
        assert Heading.from_symbol(heading.symbol) is heading


def test_read_sample_task_named_after_stem(maze_samples: Path) -> None:
    task = read_task(maze_samples / "seq" / "task" / "seqA_task.txt")
    assert task.name == "seqA"
    assert task.start == (7, 3) and task.heading is Heading.EAST and task.goal == (4, 6)


def test_missing_file_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        read_task(tmp_path / "nope_task.txt")


@pytest.mark.shared_data
def test_shared_tasks_start_and_goal(studentsyn_data: Path) -> None:
    tasks = {task.name: task for task in map(read_task, sorted(studentsyn_data.glob("*/task/*_task.txt")))}
    assert sorted(tasks) == ["hoc18", "hoc18a", "hoc18b", "hoc4", "hoc4a", "hoc4b"]
    # (col, row) 1-based in the reference notes -> (row, col) 0-based here
    expected = {
        "hoc4": ((6, 4), Heading.EAST, (5, 6)),
        "hoc4a": ((5, 3), Heading.EAST, (5, 6)),
        "hoc4b": ((6, 3), Heading.SOUTH, (7, 1)),
        "hoc18": ((9, 6), Heading.EAST, (5, 1)),
        "hoc18a": ((4, 1), Heading.NORTH, (8, 4)),
        "hoc18b": ((9, 2), Heading.EAST, (5, 8)),
    }
    for name, (start, heading, goal) in expected.items():
        task = tasks[name]
        assert (task.start, task.heading, task.goal) == (start, heading, goal)
        assert (task.height, task.width) == (12, 12)
        assert all(task.is_wall(r, c) for r in range(12) for c in (0, 11))
