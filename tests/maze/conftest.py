"""Fixtures for the maze tests: the built-in sample set and the shared StudentSyn benchmark folders."""

from __future__ import annotations

from pathlib import Path

import pytest

from debugtutor.samples import sample_dir


@pytest.fixture
def maze_samples() -> Path:
    """The built-in maze sample set (``seq`` and ``loop`` families)."""
    return sample_dir("maze")


@pytest.fixture
def studentsyn_data(shared_data: Path) -> Path:
    """The shared StudentSyn benchmark copy (``hoc4``, ``hoc18`` families)."""
    return shared_data / "studentsyn"
