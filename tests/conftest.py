"""Test-wide fixtures: every test gets its own cache and runs folders, and no test reaches a network model hub."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO_ROOT.parent / "shared" / "data"

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


@pytest.fixture(autouse=True, scope="session")
def _shared_precompiled_headers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """One folder of precompiled C++ headers for the whole session (building one takes seconds)."""
    saved = os.environ.get("DEBUGTUTOR_PCH_DIR")
    os.environ["DEBUGTUTOR_PCH_DIR"] = str(tmp_path_factory.mktemp("pch"))
    yield
    if saved is None:
        os.environ.pop("DEBUGTUTOR_PCH_DIR", None)
    else:
        os.environ["DEBUGTUTOR_PCH_DIR"] = saved


@pytest.fixture(autouse=True)
def _isolated_user_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Point the response cache, dataset cache and runs folder at a fresh temporary directory."""
    base = tmp_path_factory.mktemp("user")
    monkeypatch.setenv("DEBUGTUTOR_CACHE_DIR", str(base / "cache"))
    monkeypatch.setenv("DEBUGTUTOR_RUNS_DIR", str(base / "runs"))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    yield


@pytest.fixture
def shared_data() -> Path:
    """The real datasets beside the repository (present on every developer machine and in CI)."""
    if not SHARED_DATA.is_dir():
        pytest.fail(f"{SHARED_DATA} is missing: tests marked shared_data need ../shared/data beside the repository")
    return SHARED_DATA
