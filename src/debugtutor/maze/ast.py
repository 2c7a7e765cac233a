"""The Maze block language as a typed AST, with the measures the StudentSyn paper uses.

A program is the body of the "when run" block: a tuple of statements. Statements are the three actions (move,
turnLeft, turnRight) and the control structures RepeatUntil(goal), Repeat(n), If(condition) and
IfElse(condition). Every node is a frozen dataclass, so programs are hashable and compare structurally; lists given
to a constructor are turned into tuples.

Measures:
- ``program_size``: the paper's block count: one per action and one per control structure; the root, the do/else
  slots and the conditions are not counted.
- ``program_depth``: nesting depth with the root level counted as 1, so a program of actions only has depth 1 and
  ``RepeatUntil { IfElse { ... } }`` has depth 3.
- ``token_sequence``: the pre-order integer labels that EditD compares (a statement list is 1 ... 7, move 2,
  turnLeft 4, turnRight 8, RepeatUntil 5, IfElse 3/6/9 by condition).
- ``compact``: the one-line notation of the reference docs, e.g. ``M L RUG{IF(pathAhead){M}ELSE{L}}``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from dataclasses import dataclass


class Condition(enum.Enum):
    """The sensing conditions of IfElse and If: is the neighbouring cell in that direction free?"""

    PATH_AHEAD = "pathAhead"
    PATH_LEFT = "pathLeft"
    PATH_RIGHT = "pathRight"


@dataclass(frozen=True)
class Move:
    """Step one cell forward."""


@dataclass(frozen=True)
class TurnLeft:
    """Turn 90 degrees to the left."""


@dataclass(frozen=True)
class TurnRight:
    """Turn 90 degrees to the right."""


def _as_body(statements: Iterable[Stmt]) -> tuple[Stmt, ...]:
    return statements if isinstance(statements, tuple) else tuple(statements)


# The nodes below take any iterable of statements (a list reads well in tests and builders) and keep a tuple, so
# programs are hashable and comparable; hence their own __init__ (a dataclass keeps one the class defines).


@dataclass(frozen=True)
class RepeatUntilGoal:
    """Repeat the body until the avatar is on the goal (the benchmark's ``while``)."""

    body: tuple[Stmt, ...]

    def __init__(self, body: Iterable[Stmt]) -> None:
        object.__setattr__(self, "body", _as_body(body))


@dataclass(frozen=True)
class Repeat:
    """Run the body a fixed number of times."""

    times: int
    body: tuple[Stmt, ...]

    def __init__(self, times: int, body: Iterable[Stmt]) -> None:
        if times < 0:
            raise ValueError(f"Repeat needs a non-negative count, got {times}")
        object.__setattr__(self, "times", times)
        object.__setattr__(self, "body", _as_body(body))


@dataclass(frozen=True)
class If:
    """Run the body when the condition holds."""

    cond: Condition
    body: tuple[Stmt, ...]

    def __init__(self, cond: Condition, body: Iterable[Stmt]) -> None:
        object.__setattr__(self, "cond", cond)
        object.__setattr__(self, "body", _as_body(body))


@dataclass(frozen=True)
class IfElse:
    """Run ``then_body`` when the condition holds, ``else_body`` otherwise."""

    cond: Condition
    then_body: tuple[Stmt, ...]
    else_body: tuple[Stmt, ...]

    def __init__(self, cond: Condition, then_body: Iterable[Stmt], else_body: Iterable[Stmt]) -> None:
        object.__setattr__(self, "cond", cond)
        object.__setattr__(self, "then_body", _as_body(then_body))
        object.__setattr__(self, "else_body", _as_body(else_body))


Action = Move | TurnLeft | TurnRight
Stmt = Move | TurnLeft | TurnRight | RepeatUntilGoal | Repeat | If | IfElse
ACTIONS: tuple[Action, ...] = (Move(), TurnLeft(), TurnRight())


@dataclass(frozen=True)
class Program:
    """A whole program: the statements under the "when run" block."""

    body: tuple[Stmt, ...]

    def __init__(self, body: Iterable[Stmt]) -> None:
        object.__setattr__(self, "body", _as_body(body))


def child_bodies(stmt: Stmt) -> tuple[tuple[Stmt, ...], ...]:
    """The statement lists nested directly in a statement (none for an action)."""
    if isinstance(stmt, IfElse):
        return (stmt.then_body, stmt.else_body)
    if isinstance(stmt, (RepeatUntilGoal, Repeat, If)):
        return (stmt.body,)
    return ()


def walk(body: Iterable[Stmt]) -> Iterator[Stmt]:
    """Every statement in a body, in pre-order."""
    for stmt in body:
        yield stmt
        for child in child_bodies(stmt):
            yield from walk(child)


def _body_of(code: Program | Iterable[Stmt]) -> tuple[Stmt, ...]:
    return code.body if isinstance(code, Program) else tuple(code)


def program_size(code: Program | Iterable[Stmt]) -> int:
    """The paper's block count: actions and control structures (not the root, do/else slots or conditions)."""
    return sum(1 for _ in walk(_body_of(code)))


def program_depth(code: Program | Iterable[Stmt]) -> int:
    """Nesting depth: 1 for the root level, plus one for each control structure a statement sits inside."""

    def depth(body: tuple[Stmt, ...]) -> int:
        deepest = 1
        for stmt in body:
            children = child_bodies(stmt)
            if children:
                deepest = max(deepest, 1 + max(depth(child) for child in children))
        return deepest

    return depth(_body_of(code))


# EditD labels of the code.org student-data form; If and Repeat never occur in the benchmark and get labels of
# their own above that vocabulary so that they stay distinguishable.
LIST_OPEN, LIST_CLOSE = 1, 7
_ACTION_LABELS = {Move: 2, TurnLeft: 4, TurnRight: 8}
REPEAT_UNTIL_LABEL = 5
IFELSE_LABELS = {Condition.PATH_AHEAD: 3, Condition.PATH_LEFT: 6, Condition.PATH_RIGHT: 9}
IF_LABELS = {Condition.PATH_AHEAD: 10, Condition.PATH_LEFT: 11, Condition.PATH_RIGHT: 12}
REPEAT_LABEL_BASE = 100  # Repeat(n) is labelled 100 + n


def token_sequence(code: Program | Iterable[Stmt]) -> list[int]:
    """The pre-order integer labels EditD compares: every statement list is wrapped in 1 ... 7."""
    tokens: list[int] = []

    def emit_list(body: tuple[Stmt, ...]) -> None:
        tokens.append(LIST_OPEN)
        for stmt in body:
            emit_stmt(stmt)
        tokens.append(LIST_CLOSE)

    def emit_stmt(stmt: Stmt) -> None:
        if isinstance(stmt, (Move, TurnLeft, TurnRight)):
            tokens.append(_ACTION_LABELS[type(stmt)])
        elif isinstance(stmt, RepeatUntilGoal):
            tokens.append(REPEAT_UNTIL_LABEL)
            emit_list(stmt.body)
        elif isinstance(stmt, IfElse):
            tokens.append(IFELSE_LABELS[stmt.cond])
            emit_list(stmt.then_body)
            emit_list(stmt.else_body)
        elif isinstance(stmt, If):
            tokens.append(IF_LABELS[stmt.cond])
            emit_list(stmt.body)
        else:
            tokens.append(REPEAT_LABEL_BASE + stmt.times)
            emit_list(stmt.body)

    emit_list(_body_of(code))
    return tokens


_COMPACT_ACTIONS = {Move: "M", TurnLeft: "L", TurnRight: "R"}


def compact(code: Program | Iterable[Stmt]) -> str:
    """The one-line notation: ``M L RUG{IF(pathAhead){M}ELSE{L}}``; Repeat is ``REP3{...}``, If is ``IF(c){...}``."""

    def body_text(body: tuple[Stmt, ...]) -> str:
        return " ".join(stmt_text(stmt) for stmt in body)

    def stmt_text(stmt: Stmt) -> str:
        if isinstance(stmt, (Move, TurnLeft, TurnRight)):
            return _COMPACT_ACTIONS[type(stmt)]
        if isinstance(stmt, RepeatUntilGoal):
            return f"RUG{{{body_text(stmt.body)}}}"
        if isinstance(stmt, IfElse):
            return f"IF({stmt.cond.value}){{{body_text(stmt.then_body)}}}ELSE{{{body_text(stmt.else_body)}}}"
        if isinstance(stmt, If):
            return f"IF({stmt.cond.value}){{{body_text(stmt.body)}}}"
        return f"REP{stmt.times}{{{body_text(stmt.body)}}}"

    return body_text(_body_of(code))
