"""Pictures: PNG and SVG files of a task, with and without a program's run."""

from __future__ import annotations

from pathlib import Path

from debugtutor.maze import execute, parse_compact, read_task, render_png, render_svg


def test_png_and_svg_are_written(maze_samples: Path, tmp_path: Path) -> None:
    task = read_task(maze_samples / "loop" / "task" / "loopA_task.txt")
    program = parse_compact("RUG{IF(pathAhead){M}ELSE{L}}")
    png = render_png(task, program=program, out=tmp_path / "a.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = render_svg(task, program=program, trace=execute(task, program), out=tmp_path / "sub" / "a.svg")
    text = svg.read_text()
    assert text.lstrip().startswith("<?xml") and "<svg" in text
    assert "success after" in text or "success" in text


def test_task_alone_and_crash(maze_samples: Path, tmp_path: Path) -> None:
    task = read_task(maze_samples / "seq" / "task" / "seqA_task.txt")
    plain = render_png(task, out=tmp_path / "plain.png")
    crashed = render_png(task, program=parse_compact("M M"), out=tmp_path / "crash.png")
    assert plain.stat().st_size > 1000 and crashed.stat().st_size > 1000
    assert plain.read_bytes() != crashed.read_bytes()
