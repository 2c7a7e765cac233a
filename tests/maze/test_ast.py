"""The AST's measures: size, depth, EditD token sequence and compact notation."""

from __future__ import annotations

import pytest

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
    compact,
    parse_compact,
    program_depth,
    program_size,
    token_sequence,
)

M, L, R = Move(), TurnLeft(), TurnRight()
HOC18_LIKE = Program([RepeatUntilGoal([IfElse(Condition.PATH_AHEAD, [M], [L])])])


def test_nodes_are_hashable_and_structural() -> None:
    assert Program([M, L]) == Program((M, L))
    assert hash(HOC18_LIKE) == hash(Program((RepeatUntilGoal((IfElse(Condition.PATH_AHEAD, (M,), (L,)),)),)))
    assert Program([M, L]) != Program([L, M])
    with pytest.raises(ValueError):
        Repeat(-1, [M])


@pytest.mark.parametrize(
    ("program", "size", "depth"),
    [
        (Program([]), 0, 1),
        (Program([M, L, M, R, M]), 5, 1),
        (HOC18_LIKE, 4, 3),
        (Program([M, M, L, RepeatUntilGoal([IfElse(Condition.PATH_RIGHT, [R, M], [M])])]), 8, 3),
        (Program([M, If(Condition.PATH_LEFT, [L, M]), Repeat(3, [M])]), 6, 2),
        (Program([RepeatUntilGoal([])]), 1, 2),
    ],
)
def test_size_and_depth(program: Program, size: int, depth: int) -> None:
    assert program_size(program) == size
    assert program_depth(program) == depth


def test_token_sequence_matches_editd_labels() -> None:
    assert token_sequence(Program([M, L, M, R, M])) == [1, 2, 4, 2, 8, 2, 7]
    assert token_sequence(HOC18_LIKE) == [1, 5, 1, 3, 1, 2, 7, 1, 4, 7, 7, 7]
    assert token_sequence(Program([IfElse(Condition.PATH_LEFT, [M], [R])])) == [1, 6, 1, 2, 7, 1, 8, 7, 7]
    assert token_sequence(Program([IfElse(Condition.PATH_RIGHT, [], [M])])) == [1, 9, 1, 7, 1, 2, 7, 7]
    # forms the benchmark never uses still get distinct labels
    assert token_sequence(Program([Repeat(3, [M])])) != token_sequence(Program([Repeat(4, [M])]))
    assert token_sequence(Program([If(Condition.PATH_AHEAD, [M])])) != token_sequence(
        Program([IfElse(Condition.PATH_AHEAD, [M], [])])
    )


def test_compact_notation_round_trip() -> None:
    program = Program(
        [M, L, RepeatUntilGoal([IfElse(Condition.PATH_AHEAD, [M], [L])]), Repeat(3, [R]), If(Condition.PATH_RIGHT, [M])]
    )
    text = compact(program)
    assert text == "M L RUG{IF(pathAhead){M}ELSE{L}} REP3{R} IF(pathRight){M}"
    assert parse_compact(text) == program
