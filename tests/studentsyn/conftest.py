"""Fixtures for the StudentSyn tests: the built-in sample and the shared benchmark copy, loaded once per session."""

from __future__ import annotations

from pathlib import Path

import pytest

from debugtutor.samples import sample_dir
from debugtutor.studentsyn import TaskFamily, load_benchmark

SHARED_STUDENTSYN = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "studentsyn"


@pytest.fixture(scope="session")
def sample_families() -> list[TaskFamily]:
    return load_benchmark(sample_dir("studentsyn"))


@pytest.fixture(scope="session")
def shared_families() -> list[TaskFamily]:
    if not SHARED_STUDENTSYN.is_dir():
        pytest.fail(f"{SHARED_STUDENTSYN} is missing: tests marked shared_data need ../shared/data")
    return load_benchmark(SHARED_STUDENTSYN)
