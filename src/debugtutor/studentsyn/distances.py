"""Distances between Maze programs: the original EditD token distance and a true tree edit distance.

EditD in the StudentSyn code is not a tree distance: it serializes each AST to the pre-order integer sequence of
spec section 4.2 (``maze.token_sequence``) and takes the plain Levenshtein distance of the two sequences. We keep that
as the default so EditD matches the paper, and offer the Zhang-Shasha tree edit distance (``zss``) as an option.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

import zss
from rapidfuzz.distance import Levenshtein

from debugtutor.maze import If, IfElse, Move, Program, Repeat, RepeatUntilGoal, TurnLeft, TurnRight, token_sequence

DistanceKind = Literal["tokens", "tree"]
DISTANCE_KINDS: tuple[DistanceKind, ...] = ("tokens", "tree")


@lru_cache(maxsize=200_000)
def tokens_of(program: Program) -> tuple[int, ...]:
    """The EditD token sequence, cached: the same few hundred codes are compared over and over."""
    return tuple(token_sequence(program))


def token_edit_distance(a: Program, b: Program) -> int:
    """Levenshtein distance (unit costs) between the two programs' EditD token sequences."""
    return int(Levenshtein.distance(tokens_of(a), tokens_of(b)))


def _stmt_node(stmt: object) -> zss.Node:
    if isinstance(stmt, Move):
        return zss.Node("move")
    if isinstance(stmt, TurnLeft):
        return zss.Node("turn_left")
    if isinstance(stmt, TurnRight):
        return zss.Node("turn_right")
    if isinstance(stmt, RepeatUntilGoal):
        return _list_node("repeat_until_goal", stmt.body)
    if isinstance(stmt, Repeat):
        return _list_node(f"repeat {stmt.times}", stmt.body)
    if isinstance(stmt, IfElse):
        node = zss.Node(f"ifelse {stmt.cond.name}")
        node.addkid(_list_node("do", stmt.then_body))
        node.addkid(_list_node("else", stmt.else_body))
        return node
    if isinstance(stmt, If):
        return _list_node(f"if {stmt.cond.name}", stmt.body)
    raise TypeError(f"not a Maze statement: {stmt!r}")


def _list_node(label: str, body: tuple[object, ...]) -> zss.Node:
    node = zss.Node(label)
    for stmt in body:
        node.addkid(_stmt_node(stmt))
    return node


@lru_cache(maxsize=50_000)
def tree_edit_distance(a: Program, b: Program) -> int:
    """Zhang-Shasha tree edit distance (unit costs) between the two ASTs (root, statements, do/else slots)."""
    return int(zss.simple_distance(_list_node("run", a.body), _list_node("run", b.body)))


def program_distance(a: Program, b: Program, kind: DistanceKind = "tokens") -> int:
    return tree_edit_distance(a, b) if kind == "tree" else token_edit_distance(a, b)
