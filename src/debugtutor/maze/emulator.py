"""Run a Maze program on a task with the Hour-of-Code semantics of the StudentSyn benchmark's emulator.

Rules (see the reference notes on the benchmark's World and Parser):
- ``move`` crashes when the cell ahead is a wall or lies on or outside the grid's outer ring; the avatar stays put
  and execution stops. A move onto the goal stops execution at once with success; later blocks never run.
- Turns never fail. Conditions test whether the neighbouring cell in that direction is free; they are not steps.
- RepeatUntil(goal) checks "not on the goal" before each iteration; one loop runs at most ``loop_cap + 1``
  iterations, then execution stops silently (``loop_cap``).
- After every action the (cell, heading) state is counted; when one state reaches ``max_visits`` visits execution
  stops silently (``visit_limit``). ``strict=True`` stops at the first revisit instead.
- Success means the avatar ends on the goal without a crash; running out of blocks elsewhere is ``not_at_goal``.

The trace starts with the start state (block ``start``) and has one step per action run, the state after it; a
crashing move appears with the avatar where it stayed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

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
)
from debugtutor.maze.grid import Heading, MazeTask

Outcome = Literal["success", "crash", "not_at_goal", "loop_cap", "visit_limit"]


@dataclass(frozen=True)
class TraceStep:
    """The avatar's state after one block ran (``start`` for the initial state)."""

    row: int
    col: int
    heading: Heading
    block: str


@dataclass
class ExecutionResult:
    """How a run ended and the states it went through."""

    success: bool
    crashed: bool
    outcome: Outcome
    trace: list[TraceStep]
    steps: int
    crash_cell: tuple[int, int] | None = None
    visits: Counter[tuple[int, int, Heading]] = field(default_factory=Counter, repr=False)

    @property
    def final(self) -> TraceStep:
        """The last state of the avatar."""
        return self.trace[-1]

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready summary (positions are 0-based ``[row, col]``)."""
        return {
            "success": self.success,
            "crashed": self.crashed,
            "outcome": self.outcome,
            "steps": self.steps,
            "final": {"row": self.final.row, "col": self.final.col, "heading": self.final.heading.value},
            "crash_cell": list(self.crash_cell) if self.crash_cell else None,
            "trace": [[step.row, step.col, step.heading.value, step.block] for step in self.trace],
        }


class _Stop(Exception):
    """Ends a run early with the given outcome."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__(outcome)
        self.outcome = outcome


def path_is_free(task: MazeTask, row: int, col: int, heading: Heading, cond: Condition) -> bool:
    """Whether the neighbouring cell in the condition's relative direction is free."""
    if cond is Condition.PATH_LEFT:
        heading = heading.left()
    elif cond is Condition.PATH_RIGHT:
        heading = heading.right()
    d_row, d_col = heading.delta
    return not task.is_wall(row + d_row, col + d_col)


class _Run:
    """The mutable state of one execution."""

    def __init__(self, task: MazeTask, *, max_visits: int, loop_cap: int, strict: bool) -> None:
        self.task = task
        self.row, self.col = task.start
        self.heading = task.heading
        self.max_visits = max_visits
        self.loop_cap = loop_cap
        self.strict = strict
        self.trace = [TraceStep(self.row, self.col, self.heading, "start")]
        self.visits: Counter[tuple[int, int, Heading]] = Counter()
        self.crash_cell: tuple[int, int] | None = None

    def on_goal(self) -> bool:
        return (self.row, self.col) == self.task.goal

    def act(self, stmt: Stmt) -> None:
        if isinstance(stmt, Move):
            d_row, d_col = self.heading.delta
            target = (self.row + d_row, self.col + d_col)
            if self.task.is_wall(*target) or self.task.on_outer_ring(*target):
                self.crash_cell = target
                self.trace.append(TraceStep(self.row, self.col, self.heading, "move"))
                raise _Stop("crash")
            self.row, self.col = target
            block = "move"
        elif isinstance(stmt, TurnLeft):
            self.heading = self.heading.left()
            block = "turn_left"
        else:
            self.heading = self.heading.right()
            block = "turn_right"
        self.trace.append(TraceStep(self.row, self.col, self.heading, block))
        if block == "move" and self.on_goal():
            raise _Stop("success")
        state = (self.row, self.col, self.heading)
        self.visits[state] += 1
        if self.visits[state] >= (2 if self.strict else self.max_visits):
            raise _Stop("visit_limit")

    def run_body(self, body: tuple[Stmt, ...]) -> None:
        for stmt in body:
            self.run_stmt(stmt)

    def run_stmt(self, stmt: Stmt) -> None:
        if isinstance(stmt, RepeatUntilGoal):
            iterations = 0
            while not self.on_goal():
                iterations += 1
                if iterations > self.loop_cap + 1:
                    raise _Stop("loop_cap")
                self.run_body(stmt.body)
        elif isinstance(stmt, Repeat):
            for _ in range(stmt.times):
                self.run_body(stmt.body)
        elif isinstance(stmt, IfElse):
            taken = path_is_free(self.task, self.row, self.col, self.heading, stmt.cond)
            self.run_body(stmt.then_body if taken else stmt.else_body)
        elif isinstance(stmt, If):
            if path_is_free(self.task, self.row, self.col, self.heading, stmt.cond):
                self.run_body(stmt.body)
        else:
            self.act(stmt)


def execute(
    task: MazeTask,
    program: Program,
    *,
    max_visits: int = 100,
    loop_cap: int = 100,
    strict: bool = False,
) -> ExecutionResult:
    """Run ``program`` on ``task`` and report the outcome and the trace."""
    run = _Run(task, max_visits=max_visits, loop_cap=loop_cap, strict=strict)
    outcome: Outcome
    try:
        run.run_body(program.body)
        outcome = "success" if run.on_goal() else "not_at_goal"
    except _Stop as stop:
        outcome = stop.outcome
    return ExecutionResult(
        success=outcome == "success",
        crashed=outcome == "crash",
        outcome=outcome,
        trace=run.trace,
        steps=len(run.trace) - 1,
        crash_cell=run.crash_cell,
        visits=run.visits,
    )
