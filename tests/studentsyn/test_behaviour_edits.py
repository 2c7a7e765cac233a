"""Behaviour edit families: defined by what they do to a program, general in how many edits and where."""

from __future__ import annotations

import itertools
import random

import pytest

from debugtutor.maze import MazeTask, Program, compact, execute, parse_compact
from debugtutor.maze.ast import Stmt
from debugtutor.studentsyn import TaskFamily, rule_for, task_context
from debugtutor.studentsyn.behaviour_edits import (
    SLIP,
    EditProfile,
    align,
    behaviour_model,
    inline_branches,
    path_shape,
    same_branch_variants,
    unwrap_loops,
    wrong_path_programs,
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
def test_behaviour_descriptions_map_to_families(description: str, rule: str) -> None:
    assert rule_for(description).name == rule


def _path(program: str) -> tuple[Stmt, ...]:
    return parse_compact(program).body


def test_a_repeated_turn_run_may_have_any_length() -> None:
    repetitive = rule_for("writing repetitive turn commands").profile
    base = _path("M L M")
    scores = [align(base, _path("M " + " ".join(["L", "R"] * k + ["L"]) + " M"), repetitive, True) for k in range(6)]
    # Each extra pair of turns costs the same: a geometric run, no cap on its length.
    steps = [round(b - a, 6) for a, b in itertools.pairwise(scores)]
    assert len(set(steps)) == 1 and steps[0] > -3.0
    # ... and a run of turns is far likelier under repetitive turns than under the slip profile.
    assert align(base, _path("M L R L R L M"), repetitive, True) > align(base, _path("M L R L R L M"), SLIP, True) + 5


def test_moves_may_go_before_or_after_a_turn_inside_a_branch() -> None:
    ignore_while = rule_for("ignoring the While structure").profile
    base = _path("IF(pathAhead){M}ELSE{R}")
    before = align(base, _path("IF(pathAhead){M}ELSE{M M R}"), ignore_while, True)
    after = align(base, _path("IF(pathAhead){M}ELSE{R M M}"), ignore_while, True)
    assert before > -12 and after > -12
    assert abs(before - after) < 3.0  # neither side is special


def test_partial_solving_cuts_at_any_point_equally() -> None:
    partial = rule_for("partially solving the task").profile
    base = _path("M L M R M M")
    cuts = [align(base, base[:k], partial, True) for k in range(1, len(base))]
    # A cut anywhere costs the same, bar the kept blocks' own keep probabilities.
    assert max(cuts) - min(cuts) < 1.0
    assert align(base, base, partial, True) < max(cuts)


def test_edits_are_per_statement_and_structures_are_matched_recursively() -> None:
    profile = EditProfile(mirror=0.4)
    loop = _path("RUG{IF(pathLeft){L M}ELSE{M}}")
    mirrored = _path("RUG{IF(pathLeft){R M}ELSE{M}}")
    assert align(loop, mirrored, profile, True) > align(loop, _path("M R M"), profile, True) + 5
    assert align(loop, loop, profile, True) > align(loop, mirrored, profile, True)


def test_structural_transformations_apply_to_any_program() -> None:
    program = parse_compact("M M L RUG{IF(pathRight){R M}ELSE{M}}")
    assert compact(Program(unwrap_loops(program.body))) == "M M L IF(pathRight){R M}ELSE{M}"
    assert compact(Program(inline_branches(program.body, "else+then"))) == "M M L RUG{M R M}"
    assert path_shape(_path("M M L M M M R M")) == _path("M L M R M")
    variants = {compact(p) for p, _ in same_branch_variants(program)}
    # Both branches get the same blocks, the kinds of block left over go after the IfElse (or after the loop).
    assert "M M L RUG{IF(pathRight){M}ELSE{M} R}" in variants
    assert "M M L RUG{IF(pathRight){R}ELSE{R} M}" in variants
    assert "M M L RUG{IF(pathRight){R M}ELSE{R M}}" in variants
    assert "M M L RUG{IF(pathRight){M}ELSE{M}} R" in variants


def test_wrong_path_loops_are_found_by_running_them(sample_families: list[TaskFamily]) -> None:
    loop = family(sample_families, "loop")
    ctx = task_context(loop.tasks["loop"], loop.solutions["loop"])
    programs = wrong_path_programs(ctx)
    assert programs and all(not execute(ctx.task, p).success for p, _ in programs)


def test_models_score_sample_and_rank(sample_families: list[TaskFamily]) -> None:
    walk = family(sample_families, "walk")
    ctx = task_context(walk.tasks["walka"], walk.solutions["walka"])
    model = behaviour_model(ctx, "adding more than the correct number of required move commands")
    rng = random.Random(4)
    drawn = [model.sample(rng) for _ in range(30)]
    assert all(model.log_likelihood(p) > float("-inf") for p in drawn)
    # Stretched move runs: samples have at least as many moves as the path, on average clearly more.
    moves = [compact(p).count("M") for p in drawn]
    assert sum(moves) / len(moves) > compact(Program(ctx.basic)).count("M")
    top = model.top(3)
    assert len(top) == 3 and model.log_likelihood(top[0]) >= model.log_likelihood(top[2])


def test_rules_read_only_the_task(sample_families: list[TaskFamily]) -> None:
    # The same description on a grid the rules have never seen: a model still comes out of the task alone.
    walk = family(sample_families, "walk")
    task = walk.tasks["walkb"]
    renamed = MazeTask("never-seen", task.grid, task.start, task.heading, task.goal)
    a = behaviour_model(task_context(task, walk.solutions["walkb"]), "forgetting to include some turns")
    b = behaviour_model(task_context(renamed, walk.solutions["walkb"]), "forgetting to include some turns")
    code = parse_compact("M M M M M L M")
    assert a.log_likelihood(code) == b.log_likelihood(code)
