"""The Hour-of-Code Maze world: tasks, the block language, its JSON and text forms, an emulator, a solver, pictures.

A foundation (a world, not an arena): :mod:`debugtutor.studentsyn` and the web app's rating pages build on it, and
it imports no arena. Tasks and
programs are read in the StudentSyn benchmark's formats exactly (``*_task.txt`` grids, JSON ASTs), the emulator
follows the benchmark's Hour-of-Code semantics, and :func:`solve` finds a smallest program by enumerative search.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from debugtutor.maze.ast import (
    ACTIONS,
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
    compact,
    program_depth,
    program_size,
    token_sequence,
)
from debugtutor.maze.emulator import ExecutionResult, Outcome, TraceStep, execute
from debugtutor.maze.grid import Heading, MazeTask, parse_task_text, read_task
from debugtutor.maze.json_ast import (
    parse_program_json,
    program_from_json,
    program_to_json,
    read_program,
    write_program,
)
from debugtutor.maze.solve import ALL_BLOCKS, BASIC_BLOCKS, LOOP_BLOCKS, SearchLimitError, solve
from debugtutor.maze.text import ProgramSyntaxError, format_program, parse_compact, parse_program

__all__ = [
    "ACTIONS",
    "ALL_BLOCKS",
    "BASIC_BLOCKS",
    "LOOP_BLOCKS",
    "Condition",
    "ExecutionResult",
    "Heading",
    "If",
    "IfElse",
    "MazeTask",
    "Move",
    "Outcome",
    "Program",
    "ProgramSyntaxError",
    "Repeat",
    "RepeatUntilGoal",
    "SearchLimitError",
    "Stmt",
    "TraceStep",
    "TurnLeft",
    "TurnRight",
    "compact",
    "execute",
    "format_program",
    "parse_compact",
    "parse_program",
    "parse_program_json",
    "parse_task_text",
    "program_depth",
    "program_from_json",
    "program_size",
    "program_to_json",
    "read_program",
    "read_task",
    "render_png",
    "render_svg",
    "solve",
    "token_sequence",
    "write_program",
]


if TYPE_CHECKING:  # (at run time they load on first use: see __getattr__)
    from debugtutor.maze.render import render_png, render_svg


def __getattr__(name: str) -> object:
    # Pictures need matplotlib; load it only when a picture is asked for, so the CLI and the emulator start fast.
    if name in ("render_png", "render_svg"):
        from debugtutor.maze import render

        return getattr(render, name)
    raise AttributeError(f"module 'debugtutor.maze' has no attribute {name!r}")
