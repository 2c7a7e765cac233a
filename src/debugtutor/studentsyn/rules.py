"""SymSS rules: for each behaviour type, how a student of that type turns a task's solution into their own attempt.

Every rule is written from the behaviour's description and reads only the target task (its grid and its solution),
never a particular benchmark file, so it applies unchanged to target tasks it has not seen:

- the solution's turns and path conditions can be mirrored (left/right confusion);
- the basic-action path (the solution unrolled through the emulator's trace) can be cut short (partial solving),
  its turns repeated, dropped or its move runs stretched;
- wrong path segments are found by running small loop programs on the grid and keeping those that walk into cells
  the solution never visits;
- the IfElse can be collapsed into the same block on both branches, or dropped, and the RepeatUntil unwrapped.

A rule yields weighted candidate programs (its "synthesis"). :class:`BehaviourModel` turns them into a likelihood of
any code with a noisy channel (each edit of the EditD token sequence costs ``edit_cost`` nats), which the
discriminative techniques use; generation returns the candidates ranked by weight.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
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
)
from debugtutor.studentsyn.distances import token_edit_distance

Candidates = list[tuple[Program, float]]

MOVE, LEFT, RIGHT = Move(), TurnLeft(), TurnRight()
ACTIONS: tuple[Stmt, ...] = (MOVE, LEFT, RIGHT)
_MIRROR_CONDITION = {Condition.PATH_LEFT: Condition.PATH_RIGHT, Condition.PATH_RIGHT: Condition.PATH_LEFT}


@dataclass(frozen=True)
class TaskContext:
    """What the rules may look at: the task, its solution, and that solution unrolled into basic actions."""

    task: MazeTask
    solution: Program
    basic: tuple[Stmt, ...]


# ---------------------------------------------------------------------------------------------- AST helpers


def is_turn(stmt: Stmt) -> bool:
    return isinstance(stmt, (TurnLeft, TurnRight))


def mirror_action(stmt: Stmt) -> Stmt:
    if isinstance(stmt, TurnLeft):
        return RIGHT
    if isinstance(stmt, TurnRight):
        return LEFT
    return stmt


def has_control(program: Program) -> bool:
    return any(not isinstance(stmt, (Move, TurnLeft, TurnRight)) for stmt in program.body)


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


def _normalise(candidates: Iterable[tuple[Program, float]]) -> Candidates:
    merged: dict[Program, float] = {}
    for program, weight in candidates:
        if program.body and weight > 0:
            merged[program] = merged.get(program, 0.0) + weight
    total = sum(merged.values()) or 1.0
    return sorted(((p, w / total) for p, w in merged.items()), key=lambda item: -item[1])


def _runs(actions: Sequence[Stmt]) -> list[tuple[Stmt, int]]:
    runs: list[tuple[Stmt, int]] = []
    for action in actions:
        if runs and runs[-1][0] == action and isinstance(action, Move):
            runs[-1] = (action, runs[-1][1] + 1)
        else:
            runs.append((action, 1))
    return runs


def _cap(items: list[tuple[int, ...]], limit: int, seed: str) -> list[tuple[int, ...]]:
    if len(items) <= limit:
        return items
    return random.Random(seed).sample(items, limit)


# --------------------------------------------------------------------------------------------- the rules


def lr_confusion(ctx: TaskContext) -> Candidates:
    """Mirror some or all turns and left/right conditions; mirroring everything, or a branch that checks one side
    and turns to the other, is the most likely."""
    out: Candidates = []
    bases = [(ctx.solution, 1.0), *[(p, 0.5) for p in equivalent_solutions(ctx)]]
    # Checking the wrong side in a condition: the loop templates that keep the solution's prefix, mirrored in part.
    templates = [p for p in same_prefix_loops(ctx) if p not in dict(bases)]
    bases += [(p, 0.4) for p in templates]
    for base, base_weight in bases:
        turns, conditions = count_sites(base.body)
        sites = [("t", i) for i in range(turns)] + [("c", i) for i in range(conditions)]
        subsets = [s for r in range(1, len(sites) + 1) for s in itertools.combinations(range(len(sites)), r)]
        for subset in _cap(subsets, 64, "lr"):
            if base in templates and len(subset) == len(sites):
                continue  # a fully mirrored template is a consistent program on a wrong path, not a confusion
            chosen = [sites[i] for i in subset]
            mirrored = mirror_sites(
                base.body,
                frozenset(i for kind, i in chosen if kind == "t"),
                frozenset(i for kind, i in chosen if kind == "c"),
            )
            # The confusion is most visible where a branch checks one side and turns to the other: that mismatch is
            # as telling as mirroring everything, whichever program the student started from.
            telling = len(subset) == len(sites) or side_mismatch(mirrored)
            weight = base_weight * (3.0 if telling else 1.0 / len(subsets) ** 0.5)
            out.append((Program(mirrored), weight))
    return _normalise(out)


def partial_solution(ctx: TaskContext) -> Candidates:
    """Stop part way: every proper prefix of the basic-action path (and of the solution's own statement list)."""
    out: Candidates = []
    n = len(ctx.basic)
    for length in range(1, n):
        out.append((Program(ctx.basic[:length]), 1.0 / max(n - 1, 1)))
    body = ctx.solution.body
    for length in range(1, len(body)):
        out.append((Program(body[:length]), 0.5 / max(len(body) - 1, 1)))
    return _normalise(out)


def repetitive_turns(ctx: TaskContext) -> Candidates:
    """Each turn becomes a run of turns (the intended one wrapped in back-and-forth turning)."""
    patterns: list[Callable[[Stmt], tuple[Stmt, ...]]] = [
        lambda t: (t, mirror_action(t), t),
        lambda t: (mirror_action(t), t, mirror_action(t)),
        lambda t: (t, mirror_action(t), t, mirror_action(t)),
        lambda t: (mirror_action(t), mirror_action(t), t),
    ]
    turn_positions = [i for i, action in enumerate(ctx.basic) if is_turn(action)]
    if not turn_positions:
        return _normalise([(Program(ctx.basic), 1.0)])
    combos = list(itertools.product(range(len(patterns)), repeat=len(turn_positions)))
    out: Candidates = []
    for combo in _cap(combos, 128, "rep"):
        body: list[Stmt] = []
        choice = dict(zip(turn_positions, combo))
        for i, action in enumerate(ctx.basic):
            body.extend(patterns[choice[i]](action) if i in choice else (action,))
        out.append((Program(tuple(body)), 1.0))
    return _normalise(out)


def extra_moves(ctx: TaskContext) -> Candidates:
    """Move runs are stretched by a few extra moves each (some runs may stay as they are)."""
    runs = _runs(ctx.basic)
    move_runs = [i for i, (action, _) in enumerate(runs) if isinstance(action, Move)]
    extras = (0, 1, 2, 3, 4, 6)
    combos = [c for c in itertools.product(extras, repeat=len(move_runs)) if any(c)]
    out: Candidates = []
    for combo in _cap(combos, 400, "extra"):
        added = dict(zip(move_runs, combo))
        body: list[Stmt] = []
        for i, (action, length) in enumerate(runs):
            body.extend([action] * (length + added.get(i, 0)))
        stretched = sum(1 for extra in combo if extra)
        out.append((Program(tuple(body)), float(stretched) / len(combo)))
    return _normalise(out or [(Program(ctx.basic), 1.0)])


def forgotten_turns(ctx: TaskContext) -> Candidates:
    """Some turns of the path are left out, moves kept."""
    turn_positions = [i for i, action in enumerate(ctx.basic) if is_turn(action)]
    subsets = [s for r in range(1, len(turn_positions) + 1) for s in itertools.combinations(turn_positions, r)]
    out: Candidates = []
    for subset in _cap(subsets, 64, "forget"):
        kept = tuple(action for i, action in enumerate(ctx.basic) if i not in subset)
        out.append((Program(kept), 1.0 / len(subset)))
    return _normalise(out or [(Program(ctx.basic), 1.0)])


def random_blocks(ctx: TaskContext) -> Candidates:
    """Many blocks at random around the path (seeded by the task, so a synthesis is reproducible)."""
    rng = random.Random(f"random-blocks:{ctx.task.name}")
    out: Candidates = []
    for _ in range(20):
        body = list(ctx.basic)
        for _ in range(rng.randint(2, 5) * max(len(ctx.basic), 3)):
            body.insert(rng.randint(0, len(body)), rng.choice(ACTIONS))
        out.append((Program(tuple(body)), 1.0))
    return _normalise(out)


def _loop_prefixes(ctx: TaskContext) -> list[tuple[tuple[Stmt, ...], float]]:
    own = tuple(stmt for stmt in ctx.solution.body if not isinstance(stmt, RepeatUntilGoal))
    prefixes: dict[tuple[Stmt, ...], float] = {(): 1.0, own: 1.0}
    for length in range(1, 4):
        for combo in itertools.product(ACTIONS, repeat=length):
            prefixes.setdefault(tuple(combo), 0.3 / length)
    return list(prefixes.items())


def loop_templates() -> list[IfElse]:
    """The one-IfElse loop bodies that follow a corridor turning to one side (ahead-or-turn, turn-when-open)."""
    templates = []
    for turn, cond in ((LEFT, Condition.PATH_LEFT), (RIGHT, Condition.PATH_RIGHT)):
        templates.append(IfElse(Condition.PATH_AHEAD, (MOVE,), (turn,)))
        templates.append(IfElse(cond, (turn, MOVE), (MOVE,)))
        templates.append(IfElse(cond, (turn,), (MOVE,)))
    return templates


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
    """Other small loop programs that also solve the task (students mirror these too)."""
    if not has_control(ctx.solution):
        return []
    return [p for p, _, solved, _ in _loop_programs(ctx) if solved and p != ctx.solution][:6]


def same_prefix_loops(ctx: TaskContext) -> list[Program]:
    """The loop templates written after the solution's own prefix (no templates for a loop-free solution)."""
    if not has_control(ctx.solution):
        return []
    prefix, _, _ = _split_solution(ctx.solution)
    return [Program((*prefix, RepeatUntilGoal((template,)))) for template in loop_templates()]


def wrong_path(ctx: TaskContext) -> Candidates:
    """Loop programs that, run on the grid, lead into a path segment the solution never enters."""
    out = [(p, prior) for p, prior, solved, wrong in _loop_programs(ctx) if wrong and not solved]
    return _normalise(out or [(ctx.solution, 1.0)])


def _split_solution(solution: Program) -> tuple[tuple[Stmt, ...], RepeatUntilGoal | None, tuple[Stmt, ...]]:
    for i, stmt in enumerate(solution.body):
        if isinstance(stmt, RepeatUntilGoal):
            return solution.body[:i], stmt, solution.body[i + 1 :]
    return solution.body, None, ()


def _ifelse_in(body: Sequence[Stmt]) -> tuple[int, IfElse] | None:
    for i, stmt in enumerate(body):
        if isinstance(stmt, IfElse):
            return i, stmt
    return None


def _with_loop_body(solution: Program, new_body: tuple[Stmt, ...], *, keep_loop: bool = True) -> Program:
    prefix, loop, suffix = _split_solution(solution)
    if loop is None:
        return Program(new_body)
    return Program((*prefix, RepeatUntilGoal(new_body), *suffix) if keep_loop else (*prefix, *new_body, *suffix))


def same_branches(ctx: TaskContext) -> Candidates:
    """Both IfElse branches get the same block; the block left over moves after the IfElse inside the loop."""
    _, loop, _ = _split_solution(ctx.solution)
    body = loop.body if loop is not None else ctx.solution.body
    found = _ifelse_in(body)
    if found is None:
        return _normalise([(ctx.solution, 1.0)])
    index, branch = found
    actions = list(dict.fromkeys([*branch.then_body, *branch.else_body]))
    out: Candidates = []
    for shared in actions:
        rest = tuple(a for a in actions if a != shared)
        for after, weight in ((rest, 1.0), ((), 0.3)):
            new = (*body[:index], IfElse(branch.cond, (shared,), (shared,)), *after, *body[index + 1 :])
            out.append((_with_loop_body(ctx.solution, new), weight))
    both = (*branch.then_body, *branch.else_body)
    for side in (branch.then_body, branch.else_body, both, (*branch.else_body, *branch.then_body)):
        new = (*body[:index], IfElse(branch.cond, side, side), *body[index + 1 :])
        out.append((_with_loop_body(ctx.solution, new), 0.3))
    return _normalise(out)


def ignore_ifelse(ctx: TaskContext) -> Candidates:
    """The loop body is written as plain actions: the branches inlined, a stretch of the basic path, or the path's
    shape (its turns in order, each straight run as one move)."""
    _, loop, _ = _split_solution(ctx.solution)
    body = loop.body if loop is not None else ctx.solution.body
    found = _ifelse_in(body)
    out: Candidates = []
    if found is not None:
        index, branch = found
        for inner in ((*branch.then_body, *branch.else_body), (*branch.else_body, *branch.then_body)):
            new = (*body[:index], *inner, *body[index + 1 :])
            out.append((_with_loop_body(ctx.solution, new), 1.0))
    # Or the path in basic actions: a stretch of it written out, then a window of what follows wrapped in the loop.
    for start in range(0, min(len(ctx.basic), 5)):
        for length in range(2, 7):
            window = ctx.basic[start : start + length]
            if len(window) == length:
                out.append((Program((*ctx.basic[:start], RepeatUntilGoal(tuple(window)))), 0.5 / (1 + start)))
    # Or the path's shape in the loop: its turns in order with each straight run written as a single move.
    if loop is not None:
        shape = tuple(action for action, _ in _runs(ctx.basic))
        out.append((Program((RepeatUntilGoal(shape),)), 1.0))
    return _normalise(out or [(ctx.solution, 1.0)])


def ignore_while(ctx: TaskContext) -> Candidates:
    """The RepeatUntil is dropped: its body runs once, sometimes padded with extra moves."""
    out: Candidates = []
    for base, base_weight in [(ctx.solution, 1.0), *[(p, 0.4) for p in equivalent_solutions(ctx)]]:
        out.extend((p, w * base_weight) for p, w in _unwrapped(base))
    return _normalise(out or [(ctx.solution, 1.0)])


def _unwrapped(solution: Program) -> Candidates:
    prefix, loop, suffix = _split_solution(solution)
    if loop is None:
        return []
    out: Candidates = []
    for extra in range(0, 6):
        pad = (MOVE,) * extra
        weight = 1.0 / (1 + extra)
        out.append((Program((*prefix, *loop.body, *pad, *suffix)), weight))
        found = _ifelse_in(loop.body)
        if found is not None and extra:
            index, branch = found
            stretched = IfElse(branch.cond, (*branch.then_body, *pad), branch.else_body)
            new = (*loop.body[:index], stretched, *loop.body[index + 1 :])
            out.append((Program((*prefix, *new, *suffix)), weight * 0.5))
            stretched = IfElse(branch.cond, branch.then_body, (*branch.else_body, *pad))
            new = (*loop.body[:index], stretched, *loop.body[index + 1 :])
            out.append((Program((*prefix, *new, *suffix)), weight * 0.5))
        if extra:
            out.append((Program((*prefix, *pad, *loop.body, *suffix)), weight * 0.5))
    return out


def basic_actions_only(ctx: TaskContext) -> Candidates:
    """The path written out in basic actions, sometimes cut short or with a turn mirrored."""
    out: Candidates = [(Program(ctx.basic), 3.0)]
    n = len(ctx.basic)
    for length in range(max(1, n - 4), n):
        out.append((Program(ctx.basic[:length]), 0.3))
    for i, action in enumerate(ctx.basic):
        if is_turn(action):
            out.append((Program((*ctx.basic[:i], mirror_action(action), *ctx.basic[i + 1 :])), 0.3))
    return _normalise(out)


def solution_only(ctx: TaskContext) -> Candidates:
    """For a behaviour no rule matches: the solution, so the noisy channel still ranks codes sensibly."""
    return _normalise([(ctx.solution, 1.0)])


# --------------------------------------------------------------------------------- behaviour -> rule mapping

Rule = Callable[[TaskContext], Candidates]

# Matched against the behaviour's description in behaviours.tsv, first match wins; keys are lowercase fragments.
RULES_BY_DESCRIPTION: list[tuple[tuple[str, ...], str, Rule]] = [
    (("left/right", "left and right"), "lr_confusion", lr_confusion),
    (("partial",), "partial_solution", partial_solution),
    (("repetitive turn", "turning functionality"), "repetitive_turns", repetitive_turns),
    (("more than the correct number", "extra move"), "extra_moves", extra_moves),
    (("forget",), "forgotten_turns", forgotten_turns),
    (("random",), "random_blocks", random_blocks),
    (("wrong path",), "wrong_path", wrong_path),
    (("same blocks", "both the execution branches"), "same_branches", same_branches),
    (("ignoring the ifelse",), "ignore_ifelse", ignore_ifelse),
    (("ignoring the while",), "ignore_while", ignore_while),
    (("basic action",), "basic_actions_only", basic_actions_only),
]


def rule_for(description: str) -> tuple[str, Rule]:
    text = description.lower()
    for fragments, name, rule in RULES_BY_DESCRIPTION:
        if any(fragment in text for fragment in fragments):
            return name, rule
    return "solution_only", solution_only


@dataclass
class BehaviourModel:
    """One behaviour type's synthesis on one task, plus a noisy-channel likelihood of any code.

    ``log_likelihood(code) = log sum_c w_c exp(-edit_cost * d(c, code))``; the random-blocks behaviour instead
    scores how much longer than the path a code is, since its attempts share no structure but their length.
    """

    rule_name: str
    context: TaskContext
    candidates: Candidates
    edit_cost: float = 1.5
    _cache: dict[Program, float] = field(default_factory=dict, repr=False)

    def log_likelihood(self, code: Program) -> float:
        cached = self._cache.get(code)
        if cached is not None:
            return cached
        if self.rule_name == "random_blocks":
            value = self._random_blocks_likelihood(code)
        else:
            shape = _structure(code)
            terms = [
                math.log(w) - self.edit_cost * (token_edit_distance(c, code) + 2 * len(_structure(c) ^ shape))
                for c, w in self.candidates
            ]
            top = max(terms)
            value = top + math.log(sum(math.exp(t - top) for t in terms))
        self._cache[code] = value
        return value

    def _random_blocks_likelihood(self, code: Program) -> float:
        # Random attempts share no structure with the path, only their length (several times the path's) and a
        # mix of all three actions; a long code of nearly only moves is a stretched path, not a random one.
        actions = _flat_actions(code.body)
        ratio = len(actions) / max(len(self.context.basic), 1)
        turns = sum(1 for action in actions if is_turn(action)) / max(len(actions), 1)
        return -1.0 - self.edit_cost * (3.0 * max(0.0, 3.0 - ratio) + 10.0 * max(0.0, 0.3 - turns))

    def top(self, k: int) -> list[Program]:
        return [program for program, _ in self.candidates[:k]]


@lru_cache(maxsize=100_000)
def _structure(code: Program) -> frozenset[str]:
    """Which control structures a code uses; a behaviour keeps or drops them as a whole, not block by block."""
    return frozenset(type(stmt).__name__ for stmt in _flat_actions(code.body) if _children(stmt))


def _flat_actions(body: Sequence[Stmt]) -> list[Stmt]:
    out: list[Stmt] = []
    for stmt in body:
        out.append(stmt)
        for child in _children(stmt):
            out.extend(_flat_actions(child))
    return out


def task_context(task: MazeTask, solution: Program, basic: Program | None = None) -> TaskContext:
    return TaskContext(task, solution, basic.body if basic is not None else unroll_to_basic(task, solution))


def behaviour_model(ctx: TaskContext, description: str, *, edit_cost: float = 1.5) -> BehaviourModel:
    name, rule = rule_for(description)
    return BehaviourModel(name, ctx, rule(ctx), edit_cost)
