"""The solver: smallest programs, block restrictions, verification by the emulator, and the time limit."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from debugtutor.errors import InputError
from debugtutor.maze import (
    BASIC_BLOCKS,
    LOOP_BLOCKS,
    Program,
    SearchLimitError,
    execute,
    parse_task_text,
    program_size,
    read_program,
    read_task,
    solve,
)
from debugtutor.maze.ast import walk
from debugtutor.maze.solve import normalize_blocks

ROOM = parse_task_text(
    "\t1\t2\t3\t4\t5\t6\n1\t#\t#\t#\t#\t#\t#\n2\t#\t>\t.\t.\t.\t#\n3\t#\t.\t.\t+\t.\t#\n4\t#\t#\t#\t#\t#\t#\n", "room"
)


def _block_names(program: Program) -> set[str]:
    names = {
        "Move": "move",
        "TurnLeft": "turnLeft",
        "TurnRight": "turnRight",
        "RepeatUntilGoal": "repeatUntil",
        "IfElse": "ifElse",
        "If": "if",
        "Repeat": "repeat",
    }
    return {names[type(stmt).__name__] for stmt in walk(program.body)}


def test_basic_actions_give_the_shortest_path() -> None:
    program = solve(ROOM, blocks=BASIC_BLOCKS)
    assert program is not None and program_size(program) == 4
    assert execute(ROOM, program).success


def test_max_size_below_the_answer_gives_none() -> None:
    assert solve(ROOM, blocks=BASIC_BLOCKS, max_size=3) is None
    assert solve(ROOM, blocks={"turnLeft", "turnRight"}) is None


def test_repeat_makes_programs_smaller() -> None:
    wide = parse_task_text("1\t#\t#\t#\t#\t#\t#\t#\t#\n2\t#\t>\t.\t.\t.\t.\t+\t#\n3\t#\t#\t#\t#\t#\t#\t#\t#\n", "wide")
    assert program_size(solve(wide, blocks=BASIC_BLOCKS) or Program([])) == 5
    program = solve(wide, blocks=BASIC_BLOCKS | {"repeat"})
    assert program is not None and program_size(program) == 2
    assert execute(wide, program).success


def test_block_names_are_normalised_and_checked() -> None:
    assert normalize_blocks(["turn_left", "while", "IfElse", "move"]) == {"turnLeft", "repeatUntil", "ifElse", "move"}
    with pytest.raises(InputError, match="unknown block 'jump'"):
        normalize_blocks(["jump"])


def test_time_limit_is_reported() -> None:
    closed = parse_task_text(
        "1\t#\t#\t#\t#\t#\t#\n2\t#\t>\t.\t.\t.\t#\n3\t#\t.\t.\t.\t.\t#\n4\t#\t#\t#\t#\t#\t#\n5\t#\t+\t#\t#\t#\t#\n",
        "closed",
    )
    with pytest.raises(SearchLimitError, match="no program of at most"):
        solve(closed, blocks=LOOP_BLOCKS | {"if"}, max_size=30, time_limit=0.2)


def test_samples_solved_within_their_blocks(maze_samples: Path) -> None:
    for family, blocks in (("seq", BASIC_BLOCKS), ("loop", LOOP_BLOCKS)):
        for task_path in sorted((maze_samples / family / "task").glob("*_task.txt")):
            task = read_task(task_path)
            reference = read_program(maze_samples / family / "solution" / f"{task.name}_code_solution.json")
            program = solve(task, blocks=blocks)
            assert program is not None
            assert execute(task, program).success
            assert program_size(program) <= program_size(reference)
            assert _block_names(program) <= blocks


@pytest.mark.shared_data
@pytest.mark.parametrize("name", ["hoc4", "hoc4a", "hoc4b", "hoc18", "hoc18a", "hoc18b"])
def test_shared_tasks_solved_quickly_and_no_larger_than_reference(studentsyn_data: Path, name: str) -> None:
    family = "hoc18" if name.startswith("hoc18") else "hoc4"
    blocks = LOOP_BLOCKS if family == "hoc18" else BASIC_BLOCKS
    task = read_task(studentsyn_data / family / "task" / f"{name}_task.txt")
    reference = read_program(studentsyn_data / family / "solution" / f"{name}_code_solution.json")
    started = time.perf_counter()
    program = solve(task, blocks=blocks, max_size=program_size(reference))
    assert time.perf_counter() - started < 5
    assert program is not None and execute(task, program).success
    assert program_size(program) <= program_size(reference)
    assert _block_names(program) <= blocks
    if family == "hoc4":  # action-only tasks: the shortest path is the reference's length
        assert program_size(program) == program_size(reference)
