"""Built-in sample data of the project's own making, so the demo and the tests run without ../shared.

``samples/socratic/`` holds a few novice Python problems in the Socratic Debugging Benchmark's file format (problem,
buggy code, bug description, fixes, unit tests, and a short Socratic dialogue).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def sample_dir(name: str) -> Path:
    """The folder of a built-in sample set (``socratic``, ...) inside the installed package."""
    path = Path(str(resources.files("debugtutor.samples").joinpath(name)))
    if not path.is_dir():
        raise FileNotFoundError(f"no built-in sample set named {name!r} at {path}")
    return path
