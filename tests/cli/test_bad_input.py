"""Bad bytes in any file a command reads: one line naming the file (and line), exit code 2, never a traceback."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from debugtutor.samples import sample_dir

BAD = b"\xff\xfe not utf-8 \xe9\n"


def _python_file(tmp_path: Path) -> Path:
    path = tmp_path / "student.py"
    path.write_bytes(b"def f(x):\n    return x  # caf\xe9\n")
    return path


def _socratic_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "socratic"
    shutil.copytree(sample_dir("socratic"), folder)
    victim = sorted(folder.glob("*.txt"))[0]
    victim.write_bytes(victim.read_bytes() + BAD)
    return folder


def _studentsyn_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "studentsyn"
    shutil.copytree(sample_dir("studentsyn"), folder)
    (folder / "walk" / "info.tsv").write_bytes(BAD)
    return folder


def _maze_task(tmp_path: Path) -> Path:
    path = tmp_path / "bad_task.txt"
    path.write_bytes(BAD)
    return path


# (name, arguments built in tmp_path, the file the error must name)
CASES: list[tuple[str, Callable[[Path], list[str]], str]] = [
    ("analyze", lambda t: ["analyze", str(_python_file(t))], "student.py"),
    ("sandbox run", lambda t: ["sandbox", "run", str(_python_file(t))], "student.py"),
    ("socratic stats", lambda t: ["socratic", "stats", "--data", str(_socratic_folder(t))], ".txt"),
    (
        "socratic eval",
        lambda t: ["socratic", "eval", "--data", str(_socratic_folder(t)), "--metrics", "rougeL", "--runs-dir", str(t)],
        ".txt",
    ),
    ("maze solve", lambda t: ["maze", "solve", str(_maze_task(t))], "bad_task.txt"),
    ("models try", lambda t: ["models", "try", f"scripted:{_python_file(t)}", "hi"], "student.py"),
    (
        "tutor",
        lambda t: ["tutor", "--problem", str(_python_file(t)), "--code", str(_python_file(t)), "--tests", "x.py"],
        "student.py",
    ),
    (
        "studentsyn eval",
        lambda t: ["studentsyn", "eval", "-t", "randd", "--data", str(_studentsyn_folder(t))],
        "info.tsv",
    ),
]


@pytest.mark.parametrize(("name", "arguments", "named"), CASES, ids=[case[0] for case in CASES])
def test_non_utf8_input_is_one_clear_line(
    tmp_path: Path, name: str, arguments: Callable[[Path], list[str]], named: str
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "debugtutor.cli.main", *arguments(tmp_path)],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=300,
        check=False,
    )
    assert done.returncode == 2, (name, done.returncode, done.stderr[-1500:])
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("error:") and named in last and "UTF-8" in last, (name, last)
    assert "Traceback" not in done.stderr
