"""Where debugtutor keeps things on the user's machine: the one place these folders and their variables are read.

- :func:`cache_dir`: model responses, fetched datasets, trained weights. ``$DEBUGTUTOR_CACHE_DIR`` when set (``~``
  expanded), else the platform's user cache folder for debugtutor.
- :func:`runs_dir`: recorded runs. ``$DEBUGTUTOR_RUNS_DIR`` when set (``~`` expanded), else ``./runs``.
- :func:`precompiled_headers_dir`: the C++ standard header compiled once per compiler and flag set (see
  :mod:`debugtutor.sandbox._precompiled`). ``$DEBUGTUTOR_PCH_DIR`` when set, else ``cxx-pch`` in the cache folder.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

CACHE_DIR_ENV = "DEBUGTUTOR_CACHE_DIR"
RUNS_DIR_ENV = "DEBUGTUTOR_RUNS_DIR"
PCH_DIR_ENV = "DEBUGTUTOR_PCH_DIR"


def cache_dir(*parts: str) -> Path:
    """The debugtutor cache folder, or a sub-folder of it (not created here)."""
    override = os.environ.get(CACHE_DIR_ENV, "").strip()
    base = Path(override).expanduser() if override else Path(platformdirs.user_cache_dir("debugtutor"))
    return base.joinpath(*parts)


def runs_dir() -> Path:
    """Where runs are recorded unless a command is told otherwise."""
    override = os.environ.get(RUNS_DIR_ENV, "").strip()
    return Path(override).expanduser() if override else Path("runs")


def precompiled_headers_dir() -> Path:
    """Where precompiled C++ headers are kept (not created here)."""
    override = os.environ.get(PCH_DIR_ENV, "").strip()
    return Path(override).expanduser() if override else cache_dir("cxx-pch")
