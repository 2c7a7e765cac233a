"""Pictures of a Maze task: the grid, the avatar and goal, the path a run takes, and the program beside it.

One matplotlib figure (the Agg backend, so no display is needed) is saved as PNG or, through matplotlib's own SVG
backend, as SVG. Walls are dark, free cells light; the avatar is a triangle pointing along its heading, the goal a
star; the path is a line through the visited cells, and a crash is marked with a red cross on the wall it hit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

from matplotlib import pyplot as plt
from matplotlib.patches import Polygon, Rectangle

from debugtutor.maze.ast import Program
from debugtutor.maze.emulator import ExecutionResult, TraceStep, execute
from debugtutor.maze.grid import Heading, MazeTask
from debugtutor.maze.text import format_program

_WALL_COLOUR = "#3d4a5c"
_FREE_COLOUR = "#f4efe1"
_PATH_COLOUR = "#2a7de1"
_AVATAR_COLOUR = "#e8a317"
_GOAL_COLOUR = "#d62728"
_ANGLES = {Heading.EAST: 0.0, Heading.NORTH: 90.0, Heading.WEST: 180.0, Heading.SOUTH: 270.0}


def _avatar(ax: Any, row: int, col: int, heading: Heading, *, alpha: float = 1.0) -> None:
    import math

    angle = math.radians(_ANGLES[heading])
    # a triangle pointing along the heading; y grows downward on screen, hence the minus on sin
    tip = (col + 0.38 * math.cos(angle), row - 0.38 * math.sin(angle))
    back_left = (col + 0.3 * math.cos(angle + 2.4), row - 0.3 * math.sin(angle + 2.4))
    back_right = (col + 0.3 * math.cos(angle - 2.4), row - 0.3 * math.sin(angle - 2.4))
    ax.add_patch(
        Polygon(
            [tip, back_left, back_right],
            closed=True,
            facecolor=_AVATAR_COLOUR,
            edgecolor="black",
            alpha=alpha,
            zorder=5,
        )
    )


def _figure(task: MazeTask, program: Program | None, result: ExecutionResult | None) -> Any:
    code = format_program(program) if program is not None else ""
    code_lines = code.splitlines() or [""]
    has_code = program is not None
    figure = plt.figure(figsize=(9.5 if has_code else 5.5, 5.5))
    ax = figure.add_axes((0.02, 0.08, 0.55 if has_code else 0.96, 0.86))
    for row in range(task.height):
        for col in range(task.width):
            colour = _WALL_COLOUR if task.is_wall(row, col) else _FREE_COLOUR
            ax.add_patch(Rectangle((col - 0.5, row - 0.5), 1, 1, facecolor=colour, edgecolor="#bbbbbb", lw=0.5))
    goal_row, goal_col = task.goal
    ax.plot(goal_col, goal_row, marker="*", markersize=22, color=_GOAL_COLOUR, zorder=4)
    _avatar(ax, task.start[0], task.start[1], task.heading, alpha=0.45 if result else 1.0)
    title = task.name
    if result is not None:
        cells = _path_cells(result.trace)
        if len(cells) > 1:
            ax.plot([c for _, c in cells], [r for r, _ in cells], color=_PATH_COLOUR, lw=3, alpha=0.8, zorder=3)
        final = result.final
        _avatar(ax, final.row, final.col, final.heading)
        if result.crash_cell is not None:
            ax.plot(result.crash_cell[1], result.crash_cell[0], marker="X", markersize=18, color=_GOAL_COLOUR, zorder=6)
        title += f": {result.outcome.replace('_', ' ')} after {result.steps} steps"
    ax.set_xlim(-0.5, task.width - 0.5)
    ax.set_ylim(task.height - 0.5, -0.5)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_title(title, fontsize=11)
    if has_code:
        text_ax = figure.add_axes((0.6, 0.08, 0.38, 0.86))
        text_ax.axis("off")
        text_ax.text(
            0.0,
            1.0,
            "\n".join(code_lines),
            family="monospace",
            fontsize=min(11, max(5, 300 // max(len(code_lines), 1) // 3)),
            va="top",
            ha="left",
            transform=text_ax.transAxes,
        )
    return figure


def _path_cells(trace: list[TraceStep]) -> list[tuple[int, int]]:
    cells: list[tuple[int, int]] = []
    for step in trace:
        if not cells or cells[-1] != (step.row, step.col):
            cells.append((step.row, step.col))
    return cells


def _render(task: MazeTask, program: Program | None, trace: ExecutionResult | None, out: Path, fmt: str) -> Path:
    result = trace if trace is not None or program is None else execute(task, program)
    figure = _figure(task, program, result)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        figure.savefig(out, format=fmt, dpi=110)
    finally:
        plt.close(figure)
    return out


def render_png(
    task: MazeTask, *, program: Program | None = None, trace: ExecutionResult | None = None, out: Path
) -> Path:
    """Draw the task (and, given a program, its run and code) as a PNG; ``trace`` reuses an earlier run."""
    return _render(task, program, trace, Path(out), "png")


def render_svg(
    task: MazeTask, *, program: Program | None = None, trace: ExecutionResult | None = None, out: Path
) -> Path:
    """Draw the same picture as :func:`render_png`, as SVG."""
    return _render(task, program, trace, Path(out), "svg")
