"""Fixtures for the sandbox tests: run a test under both isolation levels, and find leftover processes."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from debugtutor.sandbox import Isolation


@pytest.fixture(
    params=[pytest.param("bwrap", marks=pytest.mark.bwrap), "rlimits"],
)
def isolation(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Isolation:
    """Each test using this runs twice: inside bubblewrap and under the rlimits fallback."""
    level: Isolation = request.param
    if level == "bwrap" and shutil.which("bwrap") is None:
        pytest.fail("bubblewrap is not installed: run .ci/install-system-deps")
    monkeypatch.setenv("DEBUGTUTOR_SANDBOX", level)
    return level


@pytest.fixture
def bwrap_only(monkeypatch: pytest.MonkeyPatch) -> Isolation:
    """Insist on bubblewrap (the security suite's guarantees need it)."""
    if shutil.which("bwrap") is None:
        pytest.fail("bubblewrap is not installed: run .ci/install-system-deps")
    monkeypatch.setenv("DEBUGTUTOR_SANDBOX", "bwrap")
    return "bwrap"


def processes_with(marker: str) -> list[int]:
    """Pids whose command line contains ``marker`` (seen from the host, across pid namespaces)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if marker in cmdline:
            found.append(int(entry))
    return found


@pytest.fixture
def find_processes() -> Callable[[str], list[int]]:
    """A function that lists host pids whose command line contains a marker string."""
    return processes_with
