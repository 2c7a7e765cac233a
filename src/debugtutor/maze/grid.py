"""Hour-of-Code Maze tasks: the grid, the avatar's start and heading, the goal, and the benchmark's text format.

A task file (``{name}_task.txt``) is a header line of column numbers, then one line per row: the row number and one
symbol per cell (``#`` wall, ``.`` free, ``+`` goal, ``>`` ``<`` ``^`` ``v`` the avatar facing east, west, north,
south). The separators are irregular in the published files (tabs, runs of spaces, trailing tabs), so every line is
split on any whitespace. Coordinates are 0-based ``(row, col)`` after the header and the row-number column are
dropped; row 0 is the top of the picture, so north is row - 1.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path

from debugtutor.errors import InputError, read_text

WALL = "#"
FREE = "."
GOAL = "+"


class Heading(enum.Enum):
    """The avatar's facing, with its unit step in (row, col) and its symbol in the task format."""

    EAST = "east"
    WEST = "west"
    NORTH = "north"
    SOUTH = "south"

    @property
    def delta(self) -> tuple[int, int]:
        """The (row, col) step of one move in this heading."""
        return _DELTAS[self]

    @property
    def symbol(self) -> str:
        """The avatar symbol for this heading in a task file."""
        return _SYMBOLS[self]

    def left(self) -> Heading:
        """The heading after a turn to the left (counter-clockwise on screen: east becomes north)."""
        return _LEFT_OF[self]

    def right(self) -> Heading:
        """The heading after a turn to the right (clockwise on screen: east becomes south)."""
        return _RIGHT_OF[self]

    @classmethod
    def from_symbol(cls, symbol: str) -> Heading:
        """The heading an avatar symbol (``>``, ``<``, ``^``, ``v``) stands for."""
        return _BY_SYMBOL[symbol]


_DELTAS = {Heading.EAST: (0, 1), Heading.WEST: (0, -1), Heading.NORTH: (-1, 0), Heading.SOUTH: (1, 0)}
_SYMBOLS = {Heading.EAST: ">", Heading.WEST: "<", Heading.NORTH: "^", Heading.SOUTH: "v"}
_BY_SYMBOL = {symbol: heading for heading, symbol in _SYMBOLS.items()}
_LEFT_OF = {
    Heading.EAST: Heading.NORTH,
    Heading.NORTH: Heading.WEST,
    Heading.WEST: Heading.SOUTH,
    Heading.SOUTH: Heading.EAST,
}
_RIGHT_OF = {after: before for before, after in _LEFT_OF.items()}


@dataclass(frozen=True)
class MazeTask:
    """One Maze task. ``grid`` holds one string per row of ``#`` (wall) and ``.`` (free); start and goal are free."""

    name: str
    grid: tuple[str, ...]
    start: tuple[int, int]
    heading: Heading
    goal: tuple[int, int]

    @property
    def height(self) -> int:
        """Number of rows."""
        return len(self.grid)

    @property
    def width(self) -> int:
        """Number of columns."""
        return len(self.grid[0]) if self.grid else 0

    def in_bounds(self, row: int, col: int) -> bool:
        """Whether (row, col) lies on the grid."""
        return 0 <= row < self.height and 0 <= col < self.width

    def is_wall(self, row: int, col: int) -> bool:
        """Whether (row, col) is a wall; cells off the grid count as walls."""
        return not self.in_bounds(row, col) or self.grid[row][col] == WALL

    def on_outer_ring(self, row: int, col: int) -> bool:
        """Whether (row, col) is on or outside the grid's border, where the benchmark's emulator forbids moving."""
        return row <= 0 or col <= 0 or row >= self.height - 1 or col >= self.width - 1

    def free_cells(self) -> list[tuple[int, int]]:
        """All free cells (start and goal included), row by row."""
        return [(r, c) for r in range(self.height) for c in range(self.width) if self.grid[r][c] != WALL]

    def to_text(self) -> str:
        """The task in the benchmark's file format (tab-separated, header of 1-based column numbers)."""
        lines = ["\t" + "\t".join(str(c + 1) for c in range(self.width))]
        for r, row in enumerate(self.grid):
            cells = list(row)
            if r == self.start[0]:
                cells[self.start[1]] = self.heading.symbol
            if r == self.goal[0]:
                cells[self.goal[1]] = GOAL
            lines.append(f"{r + 1}\t" + "\t".join(cells))
        return "\n".join(lines) + "\n"


def parse_task_text(text: str, name: str, *, path: str | None = None) -> MazeTask:
    """Parse a task in the benchmark's text format; errors name the file (``path`` or ``name``) and line."""
    where = path or name
    rows: list[tuple[int, list[str]]] = []
    for line_number, line in enumerate(text.splitlines(), start=1):
        tokens = line.split()
        if not tokens:
            continue
        # The header is a line of column numbers; a data row has a cell symbol as its second token.
        if len(tokens) == 1 or tokens[1].isdigit():
            if rows:
                raise InputError("a header line of column numbers after the grid began", path=where, line=line_number)
            continue
        rows.append((line_number, tokens[1:]))
    if not rows:
        raise InputError("no grid rows found", path=where)
    width = len(rows[0][1])
    grid: list[str] = []
    starts: list[tuple[int, int, Heading]] = []
    goals: list[tuple[int, int]] = []
    for r, (line_number, cells) in enumerate(rows):
        if len(cells) != width:
            raise InputError(f"row has {len(cells)} cells, expected {width}", path=where, line=line_number)
        row_chars = []
        for c, cell in enumerate(cells):
            if cell in (WALL, FREE):
                row_chars.append(cell)
            elif cell == GOAL:
                goals.append((r, c))
                row_chars.append(FREE)
            elif cell in _BY_SYMBOL:
                starts.append((r, c, Heading.from_symbol(cell)))
                row_chars.append(FREE)
            else:
                raise InputError(f"unknown cell symbol {cell!r} in column {c + 1}", path=where, line=line_number)
        grid.append("".join(row_chars))
    if len(starts) != 1:
        raise InputError(f"expected exactly one avatar (> < ^ v), found {len(starts)}", path=where)
    if len(goals) != 1:
        raise InputError(f"expected exactly one goal (+), found {len(goals)}", path=where)
    start_row, start_col, heading = starts[0]
    return MazeTask(name=name, grid=tuple(grid), start=(start_row, start_col), heading=heading, goal=goals[0])


def task_name_from_path(path: Path) -> str:
    """The task name of a task file: the stem without the ``_task`` suffix (``hoc4a_task.txt`` -> ``hoc4a``)."""
    stem = path.stem
    return stem[: -len("_task")] if stem.endswith("_task") else stem


def read_task(path: str | Path) -> MazeTask:
    """Read a ``*_task.txt`` file; the task is named after the file stem."""
    path = Path(path)
    text = read_text(path)
    return parse_task_text(text, task_name_from_path(path), path=str(path))
