"""``debugtutor maze``: draw a Maze task, run a program on it, or find a smallest solution.

TASK is a ``*_task.txt`` file in the StudentSyn benchmark's format. CODE is a ``.json`` AST file, a file in the
readable text form (``move(); repeatUntil(goal) { ... }``) or the compact notation (``M L RUG{...}``), or such a
program given literally on the command line.
"""

from __future__ import annotations

import time
from pathlib import Path

import typer

from debugtutor.console import emit_json, log, state, stdout
from debugtutor.errors import InputError, read_text
from debugtutor.maze import (
    LOOP_BLOCKS,
    MazeTask,
    Program,
    ProgramSyntaxError,
    compact,
    execute,
    format_program,
    parse_compact,
    parse_program,
    program_depth,
    program_size,
    program_to_json,
    read_program,
    read_task,
    solve,
)
from debugtutor.maze.solve import normalize_blocks

app = typer.Typer(help="The Hour-of-Code Maze world: show tasks, run programs, solve tasks.", no_args_is_help=True)


def load_program(code: str) -> Program:
    """A program from a .json file, a text-form or compact file, or a literal program text."""
    path = Path(code)
    if path.suffix == ".json":
        return read_program(path)
    source: str | None = None
    text = code
    if path.is_file():
        source, text = str(path), read_text(path)
    try:
        return parse_program(text, source=source)
    except ProgramSyntaxError as text_error:
        try:
            return parse_compact(text, source=source)
        except ProgramSyntaxError:
            raise text_error from None


def _task(path: Path) -> MazeTask:
    if not path.is_file():
        raise InputError("no such task file", path=str(path))
    return read_task(path)


def _program_summary(program: Program) -> dict[str, object]:
    return {
        "compact": compact(program),
        "text": format_program(program),
        "json": program_to_json(program),
        "size": program_size(program),
        "depth": program_depth(program),
    }


@app.command("show")
def show(
    task_path: Path = typer.Argument(..., metavar="TASK", help="A *_task.txt file."),
    code: str | None = typer.Option(None, "--code", help="A program to run and draw beside the grid."),
    out: Path = typer.Option(..., "--out", "-o", help="The picture to write: FILE.png or FILE.svg."),
    json_output: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Draw the task, and the path a program takes with the code beside it."""
    state.json_mode = json_output or state.json_mode
    task = _task(task_path)
    program = load_program(code) if code is not None else None
    suffix = out.suffix.lower()
    if suffix not in (".png", ".svg"):
        raise InputError("the picture must end in .png or .svg", field="--out")
    result = execute(task, program) if program is not None else None
    from debugtutor.maze.render import render_png, render_svg  # matplotlib loads only for pictures

    render = render_png if suffix == ".png" else render_svg
    written = render(task, program=program, trace=result, out=out)
    if json_output:
        emit_json({"task": task.name, "out": str(written), "outcome": result.outcome if result else None})
    else:
        stdout.print(f"wrote {written}", highlight=False)


@app.command("run")
def run(
    task_path: Path = typer.Argument(..., metavar="TASK", help="A *_task.txt file."),
    code: str = typer.Argument(..., metavar="CODE", help="A .json AST file, a text-form file or a literal program."),
    loop_cap: int = typer.Option(100, "--loop-cap", help="RepeatUntil iterations before a silent stop (+1)."),
    max_visits: int = typer.Option(100, "--max-visits", help="Visits of one state before a silent stop."),
    strict: bool = typer.Option(False, "--strict", help="Stop at the first revisited state."),
    json_output: bool = typer.Option(False, "--json", help="Print one JSON object with the trace."),
) -> None:
    """Run a program on a task and say how it ended."""
    state.json_mode = json_output or state.json_mode
    task = _task(task_path)
    program = load_program(code)
    result = execute(task, program, loop_cap=loop_cap, max_visits=max_visits, strict=strict)
    if json_output:
        emit_json({"task": task.name, "program": compact(program), **result.to_dict()})
        return
    final = result.final
    stdout.print(
        f"{task.name}: {result.outcome} after {result.steps} steps, avatar at row {final.row + 1}, "
        f"col {final.col + 1} facing {final.heading.value}",
        highlight=False,
    )


@app.command("solve")
def solve_command(
    task_path: Path = typer.Argument(..., metavar="TASK", help="A *_task.txt file."),
    blocks: str = typer.Option(
        ",".join(sorted(LOOP_BLOCKS)),
        "--blocks",
        help="Comma-separated blocks the program may use (move, turnLeft, turnRight, repeatUntil, ifElse, if, repeat).",
    ),
    max_size: int = typer.Option(12, "--max-size", help="The largest program (in blocks) to look for."),
    time_limit: float = typer.Option(30.0, "--time-limit", help="Seconds the enumeration may take."),
    json_output: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Find a smallest program that solves the task, by enumerative search verified with the emulator."""
    state.json_mode = json_output or state.json_mode
    task = _task(task_path)
    allowed = normalize_blocks(part for part in blocks.split(",") if part.strip())
    started = time.perf_counter()
    program = solve(task, blocks=allowed, max_size=max_size, time_limit=time_limit)
    seconds = round(time.perf_counter() - started, 3)
    summary = {
        "task": task.name,
        "blocks": sorted(allowed),
        "max_size": max_size,
        "seconds": seconds,
        "solution": _program_summary(program) if program is not None else None,
    }
    if json_output:
        emit_json(summary)
    elif program is None:
        log(f"no program of at most {max_size} blocks from {{{', '.join(sorted(allowed))}}} solves {task.name}")
    else:
        stdout.print(f"{task.name}: {program_size(program)} blocks ({seconds} s)", highlight=False)
        stdout.print(format_program(program), highlight=False, end="")
    if program is None:
        raise typer.Exit(1)
