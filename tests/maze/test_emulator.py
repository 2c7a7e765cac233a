"""The emulator's Hour-of-Code semantics, on hand-made grids, the built-in samples and the shared benchmark."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from debugtutor.maze import (
    Condition,
    Heading,
    IfElse,
    Move,
    Program,
    Repeat,
    RepeatUntilGoal,
    TurnLeft,
    TurnRight,
    execute,
    parse_compact,
    parse_task_text,
    read_program,
    read_task,
)

M, L, R = Move(), TurnLeft(), TurnRight()
# A 4x6 room: the avatar at (1,1) facing east, the goal at (2,3).
ROOM = parse_task_text(
    "\t1\t2\t3\t4\t5\t6\n1\t#\t#\t#\t#\t#\t#\n2\t#\t>\t.\t.\t.\t#\n3\t#\t.\t.\t+\t.\t#\n4\t#\t#\t#\t#\t#\t#\n", "room"
)


def test_room_parses() -> None:
    assert ROOM.grid == ("######", "#....#", "#....#", "######")
    assert (ROOM.start, ROOM.heading, ROOM.goal) == ((1, 1), Heading.EAST, (2, 3))


def test_success_stops_at_once_and_later_blocks_never_run() -> None:
    result = execute(ROOM, Program([M, M, R, M, M, M]))
    assert result.outcome == "success" and result.success and not result.crashed
    assert result.steps == 4
    assert (result.final.row, result.final.col) == ROOM.goal
    assert [step.block for step in result.trace] == ["start", "move", "move", "turn_right", "move"]


def test_crash_keeps_avatar_in_place() -> None:
    result = execute(ROOM, Program([L, M]))
    assert result.outcome == "crash" and result.crashed and not result.success
    assert (result.final.row, result.final.col, result.final.heading) == (1, 1, Heading.NORTH)
    assert result.crash_cell == (0, 1)


def test_moving_onto_the_outer_ring_is_a_crash_even_if_free() -> None:
    open_ring = parse_task_text("1\t>\t.\t+\n", "ring")
    assert execute(open_ring, Program([M])).outcome == "crash"


def test_running_out_of_blocks_is_not_at_goal() -> None:
    result = execute(ROOM, Program([M, M]))
    assert result.outcome == "not_at_goal" and not result.crashed
    assert result.steps == 2


def test_loop_cap_stops_silently_after_101_iterations() -> None:
    result = execute(ROOM, Program([RepeatUntilGoal([L])]))
    assert result.outcome == "loop_cap" and not result.crashed and not result.success
    assert result.steps == 101
    assert execute(ROOM, Program([RepeatUntilGoal([L])]), loop_cap=10).steps == 11


def test_visit_limit_and_strict_mode() -> None:
    spin = Program([Repeat(500, [L])])
    result = execute(ROOM, spin)
    assert result.outcome == "visit_limit"
    assert result.steps == 4 * 99 + 1  # the first state reaches 100 visits on its 100th time round
    assert execute(ROOM, spin, strict=True).steps == 5
    assert execute(ROOM, spin, max_visits=3).steps == 4 * 2 + 1


def test_conditions_are_relative_to_heading() -> None:
    # facing east at (1,1): ahead (1,2) free, left (0,1) wall, right (2,1) free
    def branch(cond: Condition) -> str:
        return execute(ROOM, Program([IfElse(cond, [R], [L])])).final.heading.value

    assert branch(Condition.PATH_AHEAD) == "south"
    assert branch(Condition.PATH_LEFT) == "north"
    assert branch(Condition.PATH_RIGHT) == "south"


def test_repeat_until_goal_with_ifelse_solves_room() -> None:
    result = execute(ROOM, parse_compact("RUG{IF(pathAhead){M}ELSE{R}}"))
    assert result.success
    assert [(step.row, step.col) for step in result.trace if step.block == "move"] == [
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 4),
        (2, 3),
    ]
    assert execute(ROOM, Program([RepeatUntilGoal([M, TurnLeft()])])).outcome == "crash"
    assert execute(ROOM, Program([RepeatUntilGoal([M, TurnRight()])])).outcome == "loop_cap"


def test_to_dict_is_json_ready() -> None:
    summary = execute(ROOM, Program([M, M, R, M])).to_dict()
    assert summary["outcome"] == "success"
    assert summary["final"] == {"row": 2, "col": 3, "heading": "south"}
    trace = summary["trace"]
    assert isinstance(trace, list) and trace[0] == [1, 1, "east", "start"]
    json.dumps(summary)


def _family_outcomes(root: Path, family: str) -> dict[str, str]:
    tasks = {task.name: task for task in map(read_task, (root / family / "task").glob("*_task.txt"))}
    outcomes: dict[str, str] = {}
    for path in (root / family).glob("s*/*.json"):
        task_name = path.stem.split("_code_")[0]
        outcomes[path.stem] = execute(tasks[task_name], read_program(path)).outcome
    return outcomes


def test_sample_solutions_succeed_and_attempts_fail_as_labelled(maze_samples: Path) -> None:
    for family in ("seq", "loop"):
        outcomes = _family_outcomes(maze_samples, family)
        solutions = [stem for stem in outcomes if "_solution" in stem]
        assert solutions and all(outcomes[stem] == "success" for stem in solutions)
        with (maze_samples / family / "info.tsv").open() as handle:
            rows = list(csv.DictReader(handle, delimiter="\t"))
        assert {row["stu"] for row in rows} == {stem for stem in outcomes if "_stu" in stem}
    seq = _family_outcomes(maze_samples, "seq")
    assert seq["seqA_code_stu2"] == "not_at_goal" and seq["seqA_code_stu1"] == "crash"
    loop = _family_outcomes(maze_samples, "loop")
    assert loop["loopA_code_stu1"] == loop["loopB_code_stu1"] == "loop_cap"


@pytest.mark.shared_data
@pytest.mark.parametrize("family", ["hoc4", "hoc18"])
def test_spec_test_vectors(studentsyn_data: Path, family: str) -> None:
    outcomes = _family_outcomes(studentsyn_data, family)
    solutions = {stem: outcome for stem, outcome in outcomes.items() if "solution" in stem}
    assert len(solutions) == (3 if family == "hoc4" else 6)
    assert set(solutions.values()) == {"success"}
    for stem, outcome in outcomes.items():
        if "_stu" not in stem:
            continue
        task, student = stem.split("_code_")
        if family == "hoc4":
            expected = "not_at_goal" if student in ("stu2", "stu8") else "crash"
        else:
            loop_student = "stu2" if task == "hoc18b" else "stu1"
            expected = {loop_student: "loop_cap", "stu5": "not_at_goal", "stu6": "success"}.get(student, "crash")
        assert outcome == expected, stem
