"""Behaviour edit families: what a student of each behaviour type does to a task's program, as a probability model.

This is this project's own rule-based student model (the technique ``behaviour-edits``), separate from the original
SymSS (:mod:`debugtutor.studentsyn.symss_original`). A behaviour is defined by what it does to a program, never by one
student's code, and reads only the target task (its grid, its solution, the solution unrolled into basic actions):

1. **Base programs**: the program the student starts from, made by a structural transformation of the task's
   solution that applies to any program: the solution itself, the path in basic actions, other small corridor-
   following loops on the grid (found by running them), loops that walk into a path segment the solution never
   enters, the solution with every RepeatUntil unwrapped, with each IfElse replaced by its branches' blocks, with
   both branches given the same blocks (the rest placed after the IfElse, after the loop, or left out), or the
   path's shape (its turns, each straight run as one move) inside the loop.
2. **An edit profile**: a stochastic transducer from a base program to the attempt. Every statement is kept, changed
   (a turn mirrored, an action swapped, a condition mirrored or changed) or left out; before every statement and at
   the end of every block any number of blocks may be inserted, where an extra turn is likelier beside a turn and an
   extra move beside a move (so a run of repeated turns or stretched moves may be of any length, anywhere, also
   inside a branch before or after its turn); the top level may stop early. Each behaviour sets the probabilities of
   the edits that characterise it (mirroring for left/right confusion, stopping for partial solving, turn runs for
   repetitive turns, move runs for extra moves, dropped turns for forgotten turns, many insertions for random
   blocks) and keeps the rest at a low slip rate.

:class:`BehaviourModel` scores any code by ``log sum_base w_base * P(best edit script | base)`` (a Viterbi alignment
over statement lists, recursive through matching control structures), samples attempts (NeurSS's synthetic
students) and ranks synthesized codes. A behaviour description is mapped to its family by keywords
(:func:`rule_for`); one no family matches gets the slip profile on the solution.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from debugtutor.maze import (
    Condition,
    Heading,
    If,
    IfElse,
    MazeTask,
    Move,
    Program,
    Repeat,
    RepeatUntilGoal,
    Stmt,
    TurnLeft,
    TurnRight,
    execute,
    program_size,
)

Candidates = list[tuple[Program, float]]

MOVE, LEFT, RIGHT = Move(), TurnLeft(), TurnRight()
ACTIONS: tuple[Stmt, ...] = (MOVE, LEFT, RIGHT)
_MIRROR_CONDITION = {Condition.PATH_LEFT: Condition.PATH_RIGHT, Condition.PATH_RIGHT: Condition.PATH_LEFT}
NEG_INF = float("-inf")


@dataclass(frozen=True)
class TaskContext:
    """What the rules may look at: the task, its solution, and that solution unrolled into basic actions."""

    task: MazeTask
    solution: Program
    basic: tuple[Stmt, ...]


# ---------------------------------------------------------------------------------------------- AST helpers


def is_turn(stmt: object) -> bool:
    return isinstance(stmt, (TurnLeft, TurnRight))


def is_action(stmt: object) -> bool:
    return isinstance(stmt, (Move, TurnLeft, TurnRight))


def mirror_action(stmt: Stmt) -> Stmt:
    if isinstance(stmt, TurnLeft):
        return RIGHT
    if isinstance(stmt, TurnRight):
        return LEFT
    return stmt


def has_control(program: Program) -> bool:
    return any(not is_action(stmt) for stmt in program.body)


def _children(stmt: Stmt) -> tuple[tuple[Stmt, ...], ...]:
    if isinstance(stmt, (RepeatUntilGoal, Repeat, If)):
        return (stmt.body,)
    if isinstance(stmt, IfElse):
        return (stmt.then_body, stmt.else_body)
    return ()


def count_sites(body: Sequence[Stmt]) -> tuple[int, int]:
    """(turns, left/right conditions) in pre-order over the whole body."""
    turns = conditions = 0
    for stmt in body:
        if is_turn(stmt):
            turns += 1
        if isinstance(stmt, (IfElse, If)) and stmt.cond in _MIRROR_CONDITION:
            conditions += 1
        for child in _children(stmt):
            sub_turns, sub_conditions = count_sites(child)
            turns += sub_turns
            conditions += sub_conditions
    return turns, conditions


def mirror_sites(body: Sequence[Stmt], turns: frozenset[int], conditions: frozenset[int]) -> tuple[Stmt, ...]:
    """Mirror the turns and conditions whose pre-order positions are in ``turns`` / ``conditions``."""
    counters = [0, 0]

    def walk(statements: Sequence[Stmt]) -> tuple[Stmt, ...]:
        out: list[Stmt] = []
        for stmt in statements:
            if is_turn(stmt):
                out.append(mirror_action(stmt) if counters[0] in turns else stmt)
                counters[0] += 1
                continue
            if isinstance(stmt, (IfElse, If)):
                cond = stmt.cond
                if cond in _MIRROR_CONDITION:
                    cond = _MIRROR_CONDITION[cond] if counters[1] in conditions else cond
                    counters[1] += 1
                if isinstance(stmt, IfElse):
                    out.append(IfElse(cond, walk(stmt.then_body), walk(stmt.else_body)))
                else:
                    out.append(If(cond, walk(stmt.body)))
            elif isinstance(stmt, RepeatUntilGoal):
                out.append(RepeatUntilGoal(walk(stmt.body)))
            elif isinstance(stmt, Repeat):
                out.append(Repeat(stmt.times, walk(stmt.body)))
            else:
                out.append(stmt)
        return tuple(out)

    return walk(body)


def side_mismatch(body: Sequence[Stmt]) -> bool:
    """Whether some branch checks the path on one side but its first turn goes to the other side."""
    for stmt in body:
        if isinstance(stmt, (IfElse, If)) and stmt.cond in _MIRROR_CONDITION:
            then_body = stmt.then_body if isinstance(stmt, IfElse) else stmt.body
            first_turn = next((s for s in then_body if is_turn(s)), None)
            wanted = TurnLeft if stmt.cond is Condition.PATH_LEFT else TurnRight
            if first_turn is not None and not isinstance(first_turn, wanted):
                return True
        if any(side_mismatch(child) for child in _children(stmt)):
            return True
    return False


def _heading_vector(heading: Heading) -> tuple[int, int]:
    return {Heading.EAST: (0, 1), Heading.WEST: (0, -1), Heading.NORTH: (-1, 0), Heading.SOUTH: (1, 0)}[heading]


def unroll_to_basic(task: MazeTask, program: Program) -> tuple[Stmt, ...]:
    """The program as the basic actions it performs on ``task``, read from the emulator's trace."""
    result = execute(task, program)
    actions: list[Stmt] = []
    previous = (task.start[0], task.start[1], task.heading)
    for step in result.trace:
        state = (step.row, step.col, step.heading)
        if state == previous:
            continue  # a trace may open with the start state itself
        if (state[0], state[1]) != (previous[0], previous[1]):
            actions.append(MOVE)
        else:
            before, after = _heading_vector(previous[2]), _heading_vector(state[2])
            # Turning left maps (dr, dc) to (-dc, dr) on a grid whose rows grow downward.
            actions.append(LEFT if after == (-before[1], before[0]) else RIGHT)
        previous = state
    return tuple(actions)


def visited_cells(task: MazeTask, program: Program) -> tuple[set[tuple[int, int]], str, int]:
    result = execute(task, program)
    cells = {(step.row, step.col) for step in result.trace} | {tuple(task.start)}
    moves = len({(step.row, step.col) for step in result.trace})
    return cells, result.outcome, moves  # type: ignore[return-value]


def task_context(task: MazeTask, solution: Program, basic: Program | None = None) -> TaskContext:
    return TaskContext(task, solution, basic.body if basic is not None else unroll_to_basic(task, solution))


# ------------------------------------------------------------------------- structural transformations


def loop_templates() -> list[IfElse]:
    """The one-IfElse loop bodies that follow a corridor turning to one side (ahead-or-turn, turn-when-open)."""
    templates = []
    for turn, cond in ((LEFT, Condition.PATH_LEFT), (RIGHT, Condition.PATH_RIGHT)):
        templates.append(IfElse(Condition.PATH_AHEAD, (MOVE,), (turn,)))
        templates.append(IfElse(cond, (turn, MOVE), (MOVE,)))
        templates.append(IfElse(cond, (turn,), (MOVE,)))
    return templates


def _split_solution(solution: Program) -> tuple[tuple[Stmt, ...], RepeatUntilGoal | None, tuple[Stmt, ...]]:
    for i, stmt in enumerate(solution.body):
        if isinstance(stmt, RepeatUntilGoal):
            return solution.body[:i], stmt, solution.body[i + 1 :]
    return solution.body, None, ()


def _loop_prefixes(ctx: TaskContext) -> list[tuple[tuple[Stmt, ...], float]]:
    """What a student may write before the loop: nothing, the solution's own prefix, or a short walk (up to three
    moves) that may end with one turn, shorter ones likelier."""
    own = _split_solution(ctx.solution)[0]
    prefixes: dict[tuple[Stmt, ...], float] = {(): 1.0, own: 1.0}
    for moves in range(4):
        for turn in ((), (LEFT,), (RIGHT,)):
            walk: tuple[Stmt, ...] = (MOVE,) * moves + turn
            if walk:
                prefixes.setdefault(walk, 0.3 / len(walk))
    return list(prefixes.items())


@lru_cache(maxsize=256)
def _loop_programs(ctx: TaskContext) -> tuple[tuple[Program, float, bool, bool], ...]:
    """(program, prior, solves the task, walks into a segment off the solution's path) for small loop programs."""
    on_path, _, _ = visited_cells(ctx.task, ctx.solution)
    out = []
    for prefix, prior in _loop_prefixes(ctx):
        for template in loop_templates():
            program = Program((*prefix, RepeatUntilGoal((template,))))
            cells, outcome, moves = visited_cells(ctx.task, program)
            wrong = bool(cells - on_path) and moves >= 2
            out.append((program, prior, outcome == "success", wrong))
    return tuple(out)


def equivalent_solutions(ctx: TaskContext) -> list[Program]:
    """Other small loop programs that also solve the task."""
    if not has_control(ctx.solution):
        return []
    return [p for p, _, solved, _ in _loop_programs(ctx) if solved and p != ctx.solution][:6]


def same_prefix_loops(ctx: TaskContext) -> list[Program]:
    """The corridor-following loops written after the solution's own prefix (none for a loop-free solution)."""
    if not has_control(ctx.solution):
        return []
    prefix, _, _ = _split_solution(ctx.solution)
    return [Program((*prefix, RepeatUntilGoal((template,)))) for template in loop_templates()]


def wrong_path_programs(ctx: TaskContext) -> Candidates:
    """Small corridor-following loop programs that do not solve the task: they follow a wrong path. Those that walk
    into a segment the solution never enters weigh three times as much."""
    return [(p, prior * (3.0 if wrong else 1.0)) for p, prior, solved, wrong in _loop_programs(ctx) if not solved]


def unwrap_loops(body: Sequence[Stmt]) -> tuple[Stmt, ...]:
    """Every RepeatUntil replaced by its body, run once (the loop left out)."""
    out: list[Stmt] = []
    for stmt in body:
        if isinstance(stmt, RepeatUntilGoal):
            out.extend(unwrap_loops(stmt.body))
        elif isinstance(stmt, IfElse):
            out.append(IfElse(stmt.cond, unwrap_loops(stmt.then_body), unwrap_loops(stmt.else_body)))
        else:
            out.append(stmt)
    return tuple(out)


def inline_branches(body: Sequence[Stmt], order: str) -> tuple[Stmt, ...]:
    """Every IfElse replaced by its branches' blocks: ``then+else``, ``else+then``, ``then`` or ``else``."""
    out: list[Stmt] = []
    for stmt in body:
        if isinstance(stmt, IfElse):
            then_body, else_body = inline_branches(stmt.then_body, order), inline_branches(stmt.else_body, order)
            parts = {
                "then+else": then_body + else_body,
                "else+then": else_body + then_body,
                "then": then_body,
                "else": else_body,
            }
            out.extend(parts[order])
        elif isinstance(stmt, RepeatUntilGoal):
            out.append(RepeatUntilGoal(inline_branches(stmt.body, order)))
        else:
            out.append(stmt)
    return tuple(out)


def path_shape(basic: Sequence[Stmt]) -> tuple[Stmt, ...]:
    """The path's shape: its turns in order, each straight run of moves written as one move."""
    out: list[Stmt] = []
    for action in basic:
        if not (isinstance(action, Move) and out and isinstance(out[-1], Move)):
            out.append(action)
    return tuple(out)


def _subsequences(items: Sequence[Stmt]) -> list[tuple[Stmt, ...]]:
    return [
        tuple(items[i] for i in chosen)
        for r in range(1, len(items) + 1)
        for chosen in itertools.combinations(range(len(items)), r)
    ]


def _without(items: Sequence[Stmt], taken: Sequence[Stmt]) -> tuple[Stmt, ...]:
    """The distinct blocks of ``items`` that ``taken`` does not use, in order."""
    return tuple(item for item in dict.fromkeys(items) if item not in taken)


def same_branch_variants(program: Program) -> Candidates:
    """The first IfElse given the same blocks X in both branches, X drawn from its branches' blocks; the kinds of
    block X does not use go right after the IfElse (weight 1), after the enclosing loop (0.3) or nowhere (0.3)."""
    prefix, loop, suffix = _split_solution(program)
    body = loop.body if loop is not None else program.body
    index = next((i for i, stmt in enumerate(body) if isinstance(stmt, IfElse)), None)
    if index is None:
        return [(program, 1.0)]
    branch = body[index]
    assert isinstance(branch, IfElse)
    pooled = (*branch.then_body, *branch.else_body)
    shared_blocks = dict.fromkeys([*_subsequences(pooled), *_subsequences((*branch.else_body, *branch.then_body))])
    out: Candidates = []
    for shared in shared_blocks:
        rest = _without(pooled, shared)
        same = IfElse(branch.cond, shared, shared)
        placements: list[tuple[tuple[Stmt, ...], tuple[Stmt, ...], float]] = [
            ((*body[:index], same, *rest, *body[index + 1 :]), (), 1.0)
        ]
        if rest:
            placements.append(((*body[:index], same, *body[index + 1 :]), rest, 0.3))
            placements.append(((*body[:index], same, *body[index + 1 :]), (), 0.3))
        for new_body, after_loop, weight in placements:
            if loop is None:
                out.append((Program((*new_body, *after_loop)), weight))
            else:
                out.append((Program((*prefix, RepeatUntilGoal(new_body), *after_loop, *suffix)), weight))
    return out


# ------------------------------------------------------------------------------------- the edit profile


@dataclass(frozen=True)
class EditProfile:
    """Per-statement edit probabilities of the transducer from a base program to an attempt (see module doc)."""

    mirror: float = 0.03  # a turn becomes the other turn
    swap: float = 0.02  # an action becomes another one (a move a turn, a turn a move)
    drop_move: float = 0.03
    drop_turn: float = 0.03
    drop_block: float = 0.01  # a control structure left out with everything in it
    cond_mirror: float = 0.03  # pathLeft <-> pathRight
    cond_other: float = 0.03  # any other change of condition
    insert: float = 0.02  # an extra block of each kind, anywhere
    turn_run: float = 0.0  # an extra turn (either way) beside a turn
    move_run: float = 0.0  # an extra move beside a move
    stop: float = 0.0  # the attempt is cut short: the top level ends at a gap drawn uniformly, the rest left out


SLIP = EditProfile()
# Inserting a whole control structure the base does not have: rare, and paid per block it holds.
_INSERT_STRUCTURE, _PER_INSERTED_BLOCK = math.log(1e-5), math.log(0.05)


def _log(p: float) -> float:
    return math.log(p) if p > 0 else NEG_INF


def _insertions(profile: EditProfile, left: Stmt | None, right: Stmt | None) -> tuple[float, float, float]:
    """Probabilities of inserting (move, left turn, right turn) at a gap between ``left`` and ``right``."""
    move = profile.insert + (profile.move_run if isinstance(left, Move) or isinstance(right, Move) else 0.0)
    turn = profile.insert + (profile.turn_run / 2 if is_turn(left) or is_turn(right) else 0.0)
    total = move + 2 * turn
    if total > 0.9:  # leave room to stop inserting
        move, turn = move * 0.9 / total, turn * 0.9 / total
    return move, turn, turn


def _insert_index(stmt: Stmt) -> int:
    return 0 if isinstance(stmt, Move) else 1 if isinstance(stmt, TurnLeft) else 2


def _condition_log(profile: EditProfile, base: Condition, code: Condition) -> float:
    if base in _MIRROR_CONDITION:
        if code is base:
            return _log(1 - profile.cond_mirror - profile.cond_other)
        return _log(profile.cond_mirror if code is _MIRROR_CONDITION[base] else profile.cond_other)
    return _log(1 - profile.cond_other) if code is base else _log(profile.cond_other / 2)


def _inserted_structure_log(stmt: Stmt) -> float:
    return _INSERT_STRUCTURE + _PER_INSERTED_BLOCK * (program_size((stmt,)) - 1)


def _drop_log(profile: EditProfile, stmt: Stmt) -> float:
    if isinstance(stmt, Move):
        return _log(profile.drop_move)
    if is_turn(stmt):
        return _log(profile.drop_turn)
    return _log(profile.drop_block)


def _replace_log(profile: EditProfile, base: Stmt, code: Stmt) -> float:
    """log P(base statement becomes code statement), control structures matched recursively."""
    if isinstance(base, Move):
        if isinstance(code, Move):
            return _log(1 - profile.swap - profile.drop_move)
        return _log(profile.swap / 2) if is_turn(code) else NEG_INF
    if is_turn(base):
        if code == base:
            return _log(1 - profile.mirror - profile.swap - profile.drop_turn)
        if is_turn(code):
            return _log(profile.mirror)
        return _log(profile.swap) if isinstance(code, Move) else NEG_INF
    keep = _log(1 - profile.drop_block)
    if isinstance(base, RepeatUntilGoal) and isinstance(code, RepeatUntilGoal):
        return keep + align(base.body, code.body, profile, False)
    if isinstance(base, IfElse) and isinstance(code, IfElse):
        return (
            keep
            + _condition_log(profile, base.cond, code.cond)
            + align(base.then_body, code.then_body, profile, False)
            + align(base.else_body, code.else_body, profile, False)
        )
    if isinstance(base, Repeat) and isinstance(code, Repeat) and base.times == code.times:
        return keep + align(base.body, code.body, profile, False)
    if isinstance(base, If) and isinstance(code, If):
        return keep + _condition_log(profile, base.cond, code.cond) + align(base.body, code.body, profile, False)
    return NEG_INF


@lru_cache(maxsize=400_000)
def align(base: tuple[Stmt, ...], code: tuple[Stmt, ...], profile: EditProfile, top: bool) -> float:
    """log P of the best edit script turning the statement list ``base`` into ``code`` (a Viterbi alignment)."""
    n, m = len(base), len(code)
    table = [[NEG_INF] * (m + 1) for _ in range(n + 1)]
    table[0][0] = 0.0
    # Cutting the attempt short: at one of the n - 1 inner gaps of the top level, each equally likely.
    cut = profile.stop if top and n > 1 else 0.0
    cut_at_gap = _log(cut / (n - 1)) if cut else NEG_INF
    best_cut = NEG_INF
    for i in range(n + 1):
        row, following = table[i], table[i + 1] if i < n else None
        right = base[i] if i < n else None
        for j in range(m + 1):
            value = row[j]
            if value == NEG_INF:
                continue
            left = code[j - 1] if j else None
            inserts = _insertions(profile, left, right)
            if j < m:
                stmt = code[j]
                cost = _log(inserts[_insert_index(stmt)]) if is_action(stmt) else _inserted_structure_log(stmt)
                if value + cost > row[j + 1]:
                    row[j + 1] = value + cost
            if i == n:
                continue
            if cut and j == m and i > 0:
                best_cut = max(best_cut, value + cut_at_gap)
            proceed = value + _log(1.0 - sum(inserts))
            assert following is not None
            dropped = proceed + _drop_log(profile, base[i])
            if dropped > following[j]:
                following[j] = dropped
            if j < m:
                replaced = proceed + _replace_log(profile, base[i], code[j])
                if replaced > following[j + 1]:
                    following[j + 1] = replaced
    end = table[n][m]
    if end != NEG_INF:
        end += _log(1.0 - sum(_insertions(profile, code[m - 1] if m else None, None))) + _log(1.0 - cut)
    return max(end, best_cut)


def _sample_list(base: Sequence[Stmt], profile: EditProfile, top: bool, rng: random.Random) -> tuple[Stmt, ...]:
    out: list[Stmt] = []
    end = len(base)
    if top and len(base) > 1 and rng.random() < profile.stop:
        end = rng.randint(1, len(base) - 1)
    for i in range(end + 1):
        right = base[i] if i < end else None
        while True:
            move, left_turn, right_turn = _insertions(profile, out[-1] if out else None, right)
            draw = rng.random()
            if draw < move:
                out.append(MOVE)
            elif draw < move + left_turn:
                out.append(LEFT)
            elif draw < move + left_turn + right_turn:
                out.append(RIGHT)
            else:
                break
        if right is None:
            break
        out.extend(_sample_statement(right, profile, rng))
    return tuple(out)


def _sample_statement(stmt: Stmt, profile: EditProfile, rng: random.Random) -> tuple[Stmt, ...]:
    draw = rng.random()
    if isinstance(stmt, Move):
        if draw < profile.drop_move:
            return ()
        return (rng.choice((LEFT, RIGHT)),) if draw < profile.drop_move + profile.swap else (MOVE,)
    if is_turn(stmt):
        if draw < profile.drop_turn:
            return ()
        if draw < profile.drop_turn + profile.mirror:
            return (mirror_action(stmt),)
        return (MOVE,) if draw < profile.drop_turn + profile.mirror + profile.swap else (stmt,)
    if draw < profile.drop_block:
        return ()

    def condition(cond: Condition) -> Condition:
        roll = rng.random()
        if cond in _MIRROR_CONDITION:
            if roll < profile.cond_mirror:
                return _MIRROR_CONDITION[cond]
            if roll < profile.cond_mirror + profile.cond_other:
                return Condition.PATH_AHEAD
            return cond
        return rng.choice((Condition.PATH_LEFT, Condition.PATH_RIGHT)) if roll < profile.cond_other else cond

    if isinstance(stmt, RepeatUntilGoal):
        return (RepeatUntilGoal(_sample_list(stmt.body, profile, False, rng) or (MOVE,)),)
    if isinstance(stmt, IfElse):
        then_body = _sample_list(stmt.then_body, profile, False, rng) or (MOVE,)
        else_body = _sample_list(stmt.else_body, profile, False, rng) or (MOVE,)
        return (IfElse(condition(stmt.cond), then_body, else_body),)
    return (stmt,)


# --------------------------------------------------------------------------------- the behaviour families


def _normalise(candidates: Sequence[tuple[Program, float]]) -> Candidates:
    merged: dict[Program, float] = {}
    for program, weight in candidates:
        if program.body and weight > 0:
            merged[program] = merged.get(program, 0.0) + weight
    total = sum(merged.values()) or 1.0
    return sorted(((p, w / total) for p, w in merged.items()), key=lambda item: -item[1])


def _spread(programs: Sequence[Program], total: float) -> Candidates:
    return [(p, total / len(programs)) for p in programs] if programs else []


def solution_bases(ctx: TaskContext) -> Candidates:
    return [(ctx.solution, 1.0)]


def path_bases(ctx: TaskContext) -> Candidates:
    return [(Program(ctx.basic), 1.0)]


def corridor_bases(ctx: TaskContext) -> Candidates:
    """The solution, other loops that solve the task, and the corridor-following loops after its prefix."""
    return [(ctx.solution, 1.0), *_spread(equivalent_solutions(ctx), 0.5), *_spread(same_prefix_loops(ctx), 0.5)]


def partial_bases(ctx: TaskContext) -> Candidates:
    return [(Program(ctx.basic), 1.0), (ctx.solution, 1.0)]


def wrong_path_bases(ctx: TaskContext) -> Candidates:
    return wrong_path_programs(ctx) or [(ctx.solution, 1.0)]


def same_branch_bases(ctx: TaskContext) -> Candidates:
    return [
        *same_branch_variants(ctx.solution),
        *[(p, w * 0.3) for e in equivalent_solutions(ctx) for p, w in same_branch_variants(e)],
    ]


def inlined_bases(ctx: TaskContext) -> Candidates:
    """The IfElse replaced by its branches' blocks (both orders, or one branch), or the path's shape in the loop."""
    out: Candidates = []
    for order, weight in (("then+else", 1.0), ("else+then", 1.0), ("then", 0.3), ("else", 0.3)):
        out.append((Program(inline_branches(ctx.solution.body, order)), weight))
    if any(isinstance(stmt, RepeatUntilGoal) for stmt in ctx.solution.body):
        out.append((Program((RepeatUntilGoal(path_shape(ctx.basic)),)), 1.0))
    return out


def unwrapped_bases(ctx: TaskContext) -> Candidates:
    """The solution with its loops left out, and the same for other corridor-following loops on the grid."""
    others = [*equivalent_solutions(ctx), *same_prefix_loops(ctx)]
    return [
        (Program(unwrap_loops(ctx.solution.body)), 1.0),
        *_spread([Program(unwrap_loops(p.body)) for p in others], 0.4),
    ]


@dataclass(frozen=True)
class BehaviourFamily:
    """A behaviour: the base programs it starts from and the edits it makes."""

    name: str
    keywords: tuple[str, ...]
    bases: Callable[[TaskContext], Candidates]
    profile: EditProfile


FAMILIES: tuple[BehaviourFamily, ...] = (
    BehaviourFamily(
        "lr_confusion", ("left/right", "left and right"), corridor_bases, replace(SLIP, mirror=0.45, cond_mirror=0.45)
    ),
    BehaviourFamily("partial_solution", ("partial",), partial_bases, replace(SLIP, stop=0.9)),
    BehaviourFamily(
        "repetitive_turns",
        ("repetitive turn", "turning functionality"),
        path_bases,
        replace(SLIP, turn_run=0.7, mirror=0.1),
    ),
    BehaviourFamily(
        "extra_moves", ("more than the correct number", "extra move"), path_bases, replace(SLIP, move_run=0.6)
    ),
    BehaviourFamily("forgotten_turns", ("forget",), path_bases, replace(SLIP, drop_turn=0.5)),
    BehaviourFamily(
        "random_blocks",
        ("random",),
        path_bases,
        replace(SLIP, insert=0.25, swap=0.2, mirror=0.2, drop_move=0.2, drop_turn=0.2),
    ),
    BehaviourFamily("wrong_path", ("wrong path",), wrong_path_bases, replace(SLIP, move_run=0.1)),
    BehaviourFamily(
        "same_branches",
        ("same blocks", "both the execution branches"),
        same_branch_bases,
        replace(SLIP, move_run=0.3, insert=0.05),
    ),
    BehaviourFamily(
        "ignore_ifelse",
        ("ignoring the ifelse",),
        inlined_bases,
        replace(SLIP, move_run=0.4, insert=0.1, drop_move=0.1, drop_turn=0.1),
    ),
    BehaviourFamily(
        "ignore_while",
        ("ignoring the while",),
        unwrapped_bases,
        replace(
            SLIP, move_run=0.5, insert=0.08, cond_other=0.15, cond_mirror=0.1, drop_move=0.15, drop_turn=0.1, swap=0.05
        ),
    ),
    BehaviourFamily(
        "basic_actions_only",
        ("basic action",),
        path_bases,
        replace(SLIP, mirror=0.15, drop_move=0.1, move_run=0.1, stop=0.05),
    ),
)
FALLBACK = BehaviourFamily("solution_only", (), solution_bases, SLIP)
# How the benchmark's non-student options look: random edits of the solution (the background of every choice).
BACKGROUND = BehaviourFamily(
    "solution_edits",
    (),
    solution_bases,
    EditProfile(
        mirror=0.1, swap=0.1, drop_move=0.1, drop_turn=0.1, drop_block=0.1, cond_mirror=0.1, cond_other=0.1, insert=0.05
    ),
)


def rule_for(description: str) -> BehaviourFamily:
    """The edit family a behaviour description names (first keyword match), else the slip-only fallback."""
    text = description.lower()
    return next((f for f in FAMILIES if any(k in text for k in f.keywords)), FALLBACK)


@dataclass
class BehaviourModel:
    """One behaviour on one task: its base programs, its edit profile, and the likelihood of any code."""

    family: BehaviourFamily
    context: TaskContext
    bases: Candidates
    _cache: dict[Program, float] = field(default_factory=dict, repr=False)
    _top: list[Program] | None = field(default=None, repr=False)

    @property
    def rule_name(self) -> str:
        return self.family.name

    def log_likelihood(self, code: Program) -> float:
        cached = self._cache.get(code)
        if cached is None:
            terms = [math.log(w) + align(b.body, code.body, self.family.profile, True) for b, w in self.bases]
            top = max(terms)
            cached = top if top == NEG_INF else top + math.log(sum(math.exp(t - top) for t in terms))
            self._cache[code] = cached
        return cached

    def sample(self, rng: random.Random) -> Program:
        """One attempt of a student with this behaviour (a base drawn by weight, then edited)."""
        draw, total = rng.random(), 0.0
        base = self.bases[-1][0]
        for program, weight in self.bases:
            total += weight
            if draw < total:
                base = program
                break
        body = _sample_list(base.body, self.family.profile, True, rng)
        return Program(body or base.body)

    def top(self, k: int, draws: int = 300) -> list[Program]:
        """The ``k`` most likely attempts among the bases and ``draws`` seeded samples."""
        if self._top is None or len(self._top) < k:
            rng = random.Random(f"top:{self.family.name}:{self.context.task.grid}")
            pool = dict.fromkeys([b for b, _ in self.bases] + [self.sample(rng) for _ in range(draws)])
            self._top = sorted(pool, key=lambda p: -self.log_likelihood(p))[: max(k, 10)]
        return self._top[:k]


def behaviour_model(ctx: TaskContext, description: str) -> BehaviourModel:
    family = rule_for(description)
    return BehaviourModel(family, ctx, _normalise(family.bases(ctx)))


def background_model(ctx: TaskContext) -> BehaviourModel:
    return BehaviourModel(BACKGROUND, ctx, _normalise(BACKGROUND.bases(ctx)))
