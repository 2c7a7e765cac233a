"""SymSS rules: derived from the task's grid and solution only, and shaped like each behaviour description."""

from __future__ import annotations

import pytest

from debugtutor.maze import IfElse, Program, RepeatUntilGoal, compact, execute, parse_compact
from debugtutor.studentsyn import TaskFamily, rule_for, task_context
from debugtutor.studentsyn.rules import (
    extra_moves,
    forgotten_turns,
    ignore_while,
    lr_confusion,
    partial_solution,
    repetitive_turns,
    same_branches,
    side_mismatch,
    visited_cells,
    wrong_path,
)


def family(families: list[TaskFamily], reference: str) -> TaskFamily:
    return next(f for f in families if f.reference == reference)


@pytest.mark.parametrize(
    ("description", "rule"),
    [
        ("confusing left/right directions when turning", "lr_confusion"),
        ("partially solving the task in terms of getting closer to the goal", "partial_solution"),
        ("misunderstanding of turning functionality and writing repetitive turn commands", "repetitive_turns"),
        ("adding more than the correct number of required move commands", "extra_moves"),
        ("forgetting to include some turns needed in the solution", "forgotten_turns"),
        ("attempting to randomly solve the task by adding lots of blocks", "random_blocks"),
        ("following one of the wrong path segments", "wrong_path"),
        (
            "misunderstanding of IfElse structure functionality and writing the same blocks in both the execution "
            "branches",
            "same_branches",
        ),
        ("ignoring the IfElse structure when solving the task", "ignore_ifelse"),
        ("ignoring the While structure when solving the task", "ignore_while"),
        ("attempting to solve the task by using only the basic action blocks", "basic_actions_only"),
        ("something nobody described", "solution_only"),
    ],
)
def test_behaviour_descriptions_map_to_rules(description: str, rule: str) -> None:
    assert rule_for(description)[0] == rule


def test_basic_rules_on_a_sample_task(sample_families: list[TaskFamily]) -> None:
    walk = family(sample_families, "walk")
    ctx = task_context(walk.tasks["walka"], walk.solutions["walka"])
    assert compact(Program(ctx.basic)) == compact(walk.solutions["walka"])
    mirrored = lr_confusion(ctx)[0][0]
    assert compact(mirrored) == compact(walk.solutions["walka"]).replace("L", "x").replace("R", "L").replace("x", "R")
    assert all(len(p.body) < len(ctx.basic) for p, _ in partial_solution(ctx))
    assert all(len(p.body) > len(ctx.basic) for p, _ in repetitive_turns(ctx))
    assert all(compact(p).count("M") > compact(Program(ctx.basic)).count("M") for p, _ in extra_moves(ctx))
    assert all(compact(p).count("M") == compact(Program(ctx.basic)).count("M") for p, _ in forgotten_turns(ctx))
    assert abs(sum(w for _, w in extra_moves(ctx)) - 1.0) < 1e-9


def test_side_mismatch_is_checking_one_side_and_turning_to_the_other() -> None:
    assert side_mismatch(parse_compact("RUG{IF(pathLeft){R M}ELSE{M}}").body)
    assert side_mismatch(parse_compact("M RUG{IF(pathRight){L}ELSE{M}}").body)
    assert not side_mismatch(parse_compact("RUG{IF(pathLeft){L M}ELSE{M}}").body)
    assert not side_mismatch(parse_compact("RUG{IF(pathAhead){M}ELSE{R}}").body)
    assert not side_mismatch(parse_compact("M L M R").body)


@pytest.mark.shared_data
def test_unrolled_solutions_match_the_shipped_basic_action_solutions(shared_families: list[TaskFamily]) -> None:
    hoc18 = family(shared_families, "hoc18")
    for name, basic in hoc18.basic_solutions.items():
        assert task_context(hoc18.tasks[name], hoc18.solutions[name]).basic == basic.body


@pytest.mark.shared_data
def test_loop_rules_on_the_shared_reference(shared_families: list[TaskFamily]) -> None:
    hoc18 = family(shared_families, "hoc18")
    ctx = task_context(hoc18.tasks["hoc18"], hoc18.solutions["hoc18"])
    on_path, _, _ = visited_cells(ctx.task, ctx.solution)
    for program, _ in wrong_path(ctx):
        cells, outcome, _ = visited_cells(ctx.task, program)
        assert outcome != "success" and cells - on_path
    # The paper's hand-written distractor for hoc18 is found by searching the grid.
    assert parse_compact("RUG{IF(pathLeft){L M}ELSE{M}}") in [p for p, _ in wrong_path(ctx)]
    for program, _ in same_branches(ctx):
        loop = next(s for s in program.body if isinstance(s, RepeatUntilGoal))
        branch = next(s for s in loop.body if isinstance(s, IfElse))
        assert branch.then_body == branch.else_body
    for program, _ in ignore_while(ctx):
        assert not any(isinstance(s, RepeatUntilGoal) for s in program.body)
        assert not execute(ctx.task, program).success
