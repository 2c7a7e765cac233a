"""Find a smallest Maze program that solves a task, by bottom-up enumeration with observational equivalence.

The world of one task is tiny: the avatar's states are (free cell, heading) pairs, a few dozen to a few hundred.
So every statement list has a *behaviour*: the state each state ends in after running it, or one of the terminal
outcomes CRASH, SUCCESS (moved onto the goal) and STOP (a loop cap). Lists are enumerated by block count, and a
list whose behaviour was already reached by a list no larger is dropped: any program using it has an equal
program no larger. Behaviours compose by array indexing (numpy), IfElse is a ``where`` over the condition's mask,
RepeatUntil(goal) is the body's behaviour iterated ``loop_cap + 1`` times. The search stops at the first size where
some list takes the start state to SUCCESS; that program is checked with the real emulator (which also counts
state visits) before it is returned.

Only actions are allowed? Then a breadth-first search over the states gives the shortest action sequence at once.
Behaviours are keyed by a random 64-bit projection of their rows; a collision (odds about n^2 / 2^64) could only
drop a candidate, never return a wrong program, because every answer is verified.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from debugtutor.errors import DebugtutorError, InputError
from debugtutor.maze.ast import (
    Condition,
    If,
    IfElse,
    Move,
    Program,
    Repeat,
    RepeatUntilGoal,
    Stmt,
    TurnLeft,
    TurnRight,
)
from debugtutor.maze.emulator import execute, path_is_free
from debugtutor.maze.grid import Heading, MazeTask

ALL_BLOCKS = frozenset({"move", "turnLeft", "turnRight", "repeatUntil", "ifElse", "if", "repeat"})
BASIC_BLOCKS = frozenset({"move", "turnLeft", "turnRight"})
# The toolbox of the benchmark's hoc18 family, and the default: actions, RepeatUntil(goal), IfElse.
LOOP_BLOCKS = BASIC_BLOCKS | {"repeatUntil", "ifElse"}
_BLOCK_ALIASES = {
    "move": "move",
    "turnleft": "turnLeft",
    "turn_left": "turnLeft",
    "turnright": "turnRight",
    "turn_right": "turnRight",
    "repeatuntil": "repeatUntil",
    "repeatuntilgoal": "repeatUntil",
    "while": "repeatUntil",
    "rug": "repeatUntil",
    "ifelse": "ifElse",
    "if": "if",
    "repeat": "repeat",
}
_ACTION_BLOCKS: dict[str, Stmt] = {"move": Move(), "turnLeft": TurnLeft(), "turnRight": TurnRight()}

Matrix = NDArray[np.int16]


def normalize_blocks(names: Iterable[str]) -> frozenset[str]:
    """Block names in the text form's spelling; JSON names (``turn_left``, ``while``, ``ifelse``) are accepted."""
    blocks = set()
    for name in names:
        key = name.strip().replace("-", "_").lower()
        if key not in _BLOCK_ALIASES:
            raise InputError(
                f"unknown block {name!r}", field="blocks", hint=f"use some of {', '.join(sorted(ALL_BLOCKS))}"
            )
        blocks.add(_BLOCK_ALIASES[key])
    return frozenset(blocks)


@dataclass
class _World:
    """The task's states as integer ids, the behaviour of each action, and the condition masks."""

    task: MazeTask
    states: list[tuple[int, int, Heading]]
    crash: int
    success: int
    stop: int
    width: int
    start: int
    actions: dict[str, Matrix] = field(default_factory=dict)
    masks: dict[Condition, NDArray[np.bool_]] = field(default_factory=dict)
    on_goal: NDArray[np.bool_] = field(default_factory=lambda: np.zeros(0, dtype=bool))


def _build_world(task: MazeTask) -> _World:
    states = [(row, col, heading) for row, col in task.free_cells() for heading in Heading]
    index = {state: number for number, state in enumerate(states)}
    crash, success, stop = len(states), len(states) + 1, len(states) + 2
    width = len(states) + 3
    world = _World(task, states, crash, success, stop, width, index[(task.start[0], task.start[1], task.heading)])
    if width > np.iinfo(np.int16).max:
        raise InputError(f"task {task.name} is too large for the solver ({len(states)} states)")
    move, left, right = (np.arange(width, dtype=np.int16) for _ in range(3))
    masks = {cond: np.zeros(width, dtype=bool) for cond in Condition}
    world.on_goal = np.zeros(width, dtype=bool)
    for number, (row, col, heading) in enumerate(states):
        d_row, d_col = heading.delta
        target = (row + d_row, col + d_col)
        if task.is_wall(*target) or task.on_outer_ring(*target):
            move[number] = crash
        elif target == task.goal:
            move[number] = success
        else:
            move[number] = index[(target[0], target[1], heading)]
        left[number] = index[(row, col, heading.left())]
        right[number] = index[(row, col, heading.right())]
        for cond in Condition:
            masks[cond][number] = path_is_free(task, row, col, heading, cond)
        world.on_goal[number] = (row, col) == task.goal
    world.actions = {"move": move, "turnLeft": left, "turnRight": right}
    world.masks = masks
    return world


def _shortest_actions(world: _World, blocks: frozenset[str], max_size: int) -> Program | None:
    """Breadth-first search over states: the fewest actions that move the avatar onto the goal."""
    allowed = [name for name in ("move", "turnLeft", "turnRight") if name in blocks]
    parents: dict[int, tuple[int, str]] = {}
    queue = deque([(world.start, 0)])
    seen = {world.start}
    while queue:
        state, depth = queue.popleft()
        if depth >= max_size:
            continue
        for name in allowed:
            target = int(world.actions[name][state])
            if target == world.success:
                names: list[str] = [name]
                while state != world.start:
                    state, step = parents[state]
                    names.append(step)
                return Program(tuple(_ACTION_BLOCKS[step] for step in reversed(names)))
            if target < len(world.states) and target not in seen:
                seen.add(target)
                parents[target] = (state, name)
                queue.append((target, depth + 1))
    return None


# Recipes say how to rebuild an enumerated list's or statement's AST without keeping a tree per candidate: one int
# row per behaviour, [kind, a, b, c, d, e]; list and statement references are (size, row) pairs.
_EMPTY, _ACTION, _RUG, _REPEAT, _IF, _IFELSE, _SINGLE, _SEQ = range(8)
_ACTION_ORDER = ("move", "turnLeft", "turnRight")
_CONDITION_ORDER = tuple(Condition)
Recipes = NDArray[np.int64]


def _recipes(kind: int, count: int, *columns: int | NDArray[np.int64]) -> Recipes:
    table = np.zeros((count, 6), dtype=np.int64)
    table[:, 0] = kind
    for position, column in enumerate(columns, start=1):
        table[:, position] = column
    return table


class SearchLimitError(DebugtutorError):
    """The enumeration ran past its time limit before it could prove which program is smallest."""


class _Enumerator:
    """Bottom-up enumeration of statement lists by size, one representative per behaviour."""

    def __init__(
        self, world: _World, blocks: frozenset[str], loop_cap: int, repeat_counts: tuple[int, ...], deadline: float
    ) -> None:
        self.world = world
        self.blocks = blocks
        self.loop_cap = loop_cap
        self.repeat_counts = repeat_counts if "repeat" in blocks else ()
        self.deadline = deadline
        self.projection = np.random.default_rng(0).integers(1, 2**62, size=world.width, dtype=np.int64)
        self.identity = np.arange(world.width, dtype=np.int16)[None, :]
        self.lists: dict[int, tuple[Matrix, Recipes]] = {0: (self.identity, _recipes(_EMPTY, 1))}
        self.stmts: dict[int, tuple[Matrix, Recipes]] = {}
        self.seen = self._keys(self.identity)

    def _keys(self, rows: Matrix) -> NDArray[np.int64]:
        # int64 products wrap around, which is what a hash wants
        return rows.astype(np.int64) @ self.projection

    def _check_time(self) -> None:
        if time.monotonic() > self.deadline:
            raise SearchLimitError("the solver ran out of time")

    def _novel(self, rows: Matrix) -> NDArray[np.intp]:
        """Row indices of behaviours not seen before (first of each duplicate)."""
        if len(rows) == 0:
            return np.zeros(0, dtype=np.intp)
        keys = self._keys(rows)
        _, first = np.unique(keys, return_index=True)
        return np.sort(first[~np.isin(keys[first], self.seen)])

    def _remember(self, rows: Matrix) -> None:
        self.seen = np.concatenate([self.seen, self._keys(rows)])

    def _iterate(self, body: Matrix, times: int) -> Matrix:
        """The behaviour of running ``body`` ``times`` times (rows are independent bodies)."""
        result = np.broadcast_to(self.identity, body.shape).copy()
        power = body
        while times:
            if times & 1:
                result = np.take_along_axis(power, result.astype(np.intp), axis=1)
            times >>= 1
            if times:
                power = np.take_along_axis(power, power.astype(np.intp), axis=1)
        return result

    def _repeat_until_goal(self, body: Matrix) -> Matrix:
        iterated = self._iterate(body, self.loop_cap + 1)
        result = np.where(iterated >= self.world.crash, iterated, self.world.stop).astype(np.int16)
        # The loop checks "not on the goal" first, so it does nothing where the avatar already stands on it.
        return np.where(self.world.on_goal[None, :], self.identity, result)

    def build_statements(self, size: int) -> None:
        """All novel statements of exactly ``size`` blocks (a control block around smaller lists)."""
        chunks: list[Matrix] = []
        recipes: list[Recipes] = []
        if size == 1:
            for number, name in enumerate(_ACTION_ORDER):
                if name in self.blocks:
                    chunks.append(self.world.actions[name][None, :])
                    recipes.append(_recipes(_ACTION, 1, number))
        else:
            body_rows, _ = self.lists[size - 1]
            body_index = np.arange(len(body_rows))
            if "repeatUntil" in self.blocks:
                chunks.append(self._repeat_until_goal(body_rows))
                recipes.append(_recipes(_RUG, len(body_rows), size - 1, body_index))
            for times in self.repeat_counts:
                chunks.append(self._iterate(body_rows, times))
                recipes.append(_recipes(_REPEAT, len(body_rows), times, size - 1, body_index))
            for cond_number, cond in enumerate(_CONDITION_ORDER):
                mask = self.world.masks[cond][None, :]
                if "if" in self.blocks:
                    chunks.append(np.where(mask, body_rows, self.identity))
                    recipes.append(_recipes(_IF, len(body_rows), cond_number, size - 1, body_index))
                if "ifElse" not in self.blocks:
                    continue
                for then_size in range(size):
                    then_rows, _ = self.lists[then_size]
                    else_size = size - 1 - then_size
                    else_rows, _ = self.lists[else_size]
                    else_index = np.arange(len(else_rows))
                    for then_row in range(len(then_rows)):
                        chunks.append(np.where(mask, then_rows[then_row][None, :], else_rows))
                        recipes.append(
                            _recipes(_IFELSE, len(else_rows), cond_number, then_size, then_row, else_size, else_index)
                        )
                    self._check_time()
        self.stmts[size] = self._select(chunks, recipes)

    def _select(self, chunks: list[Matrix], recipes: list[Recipes]) -> tuple[Matrix, Recipes]:
        if not chunks:
            return np.zeros((0, self.world.width), dtype=np.int16), np.zeros((0, 6), dtype=np.int64)
        rows = np.concatenate(chunks)
        fresh = self._novel(rows)
        return rows[fresh], np.concatenate(recipes)[fresh]

    def successes(self, size: int) -> list[Recipes]:
        """Recipes of lists of exactly ``size`` blocks that take the start state to SUCCESS (statements built)."""
        start, success = self.world.start, self.world.success
        stmt_rows, _ = self.stmts[size]
        hits = np.nonzero(stmt_rows[:, start] == success)[0]
        found = [_recipes(_SINGLE, len(hits), size, hits)]
        for first_size in range(1, size):
            first_rows, _ = self.stmts[first_size]
            rest_rows, _ = self.lists[size - first_size]
            for first_row in np.nonzero(first_rows[:, start] < self.world.crash)[0]:
                rest_hits = np.nonzero(rest_rows[:, first_rows[first_row, start]] == success)[0]
                found.append(_recipes(_SEQ, len(rest_hits), first_size, int(first_row), size - first_size, rest_hits))
        return [row for table in found for row in table]

    def build_lists(self, size: int) -> None:
        """All novel lists of exactly ``size`` blocks: a statement, or a statement followed by a list."""
        stmt_rows, _ = self.stmts[size]
        chunks: list[Matrix] = [stmt_rows]
        recipes: list[Recipes] = [_recipes(_SINGLE, len(stmt_rows), size, np.arange(len(stmt_rows)))]
        for first_size in range(1, size):
            first_rows, _ = self.stmts[first_size]
            rest_rows, _ = self.lists[size - first_size]
            rest_index = np.arange(len(rest_rows))
            for first_row in range(len(first_rows)):
                chunks.append(rest_rows[:, first_rows[first_row]])
                recipes.append(_recipes(_SEQ, len(rest_rows), first_size, first_row, size - first_size, rest_index))
            self._check_time()
        self.lists[size] = self._select(chunks, recipes)
        self._remember(self.lists[size][0])
        self._remember(self.stmts[size][0])

    def statement(self, size: int, row: int) -> Stmt:
        kind, a, b, c, d, e = (int(value) for value in self.stmts[size][1][row])
        if kind == _ACTION:
            return _ACTION_BLOCKS[_ACTION_ORDER[a]]
        if kind == _RUG:
            return RepeatUntilGoal(self.body(a, b))
        if kind == _REPEAT:
            return Repeat(a, self.body(b, c))
        if kind == _IF:
            return If(_CONDITION_ORDER[a], self.body(b, c))
        return IfElse(_CONDITION_ORDER[a], self.body(b, c), self.body(d, e))

    def body(self, size: int, row: int) -> tuple[Stmt, ...]:
        return self.from_recipe(self.lists[size][1][row])

    def from_recipe(self, recipe: Recipes) -> tuple[Stmt, ...]:
        kind, a, b, c, d, _ = (int(value) for value in recipe)
        if kind == _EMPTY:
            return ()
        if kind == _SINGLE:
            return (self.statement(a, b),)
        return (self.statement(a, b), *self.body(c, d))


def solve(
    task: MazeTask,
    *,
    blocks: Iterable[str] = LOOP_BLOCKS,
    max_size: int = 12,
    loop_cap: int = 100,
    repeat_counts: tuple[int, ...] = tuple(range(2, 11)),
    time_limit: float = 30.0,
) -> Program | None:
    """A smallest program using only ``blocks`` that solves ``task`` within ``max_size`` blocks, or None.

    Smallest means fewest blocks as the paper counts them; among equally small programs the first one enumerated is
    returned. Every answer has been run through :func:`debugtutor.maze.execute` and succeeds. When the enumeration
    needs more than ``time_limit`` seconds, :class:`SearchLimitError` says up to which size no program exists.
    """
    allowed = normalize_blocks(blocks)
    if "move" not in allowed:
        return None  # the avatar can only reach the goal by moving
    world = _build_world(task)
    if allowed <= BASIC_BLOCKS:
        return _shortest_actions(world, allowed, max_size)
    # The action-only answer bounds the search: no need to enumerate sizes beyond it.
    bound = _shortest_actions(world, allowed, max_size)
    limit = min(max_size, sum(1 for _ in bound.body) - 1) if bound is not None else max_size
    enumerator = _Enumerator(world, allowed, loop_cap, repeat_counts, time.monotonic() + time_limit)
    for size in range(1, limit + 1):
        try:
            enumerator.build_statements(size)
            for recipe in enumerator.successes(size):
                program = Program(enumerator.from_recipe(recipe))
                if execute(task, program, loop_cap=loop_cap).success:
                    return program
            if size < limit:
                enumerator.build_lists(size)
        except SearchLimitError:
            known = f"; an action-only program has {len(bound.body)} blocks" if bound is not None else ""
            raise SearchLimitError(
                f"no program of at most {size - 1} blocks solves {task.name}, and the search for {size} blocks ran "
                f"past {time_limit:g} s{known}",
                hint="raise --time-limit or lower --max-size",
            ) from None
    return bound
