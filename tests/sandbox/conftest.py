"""Fixtures for the sandbox tests: run a test under both isolation levels, and find leftover processes."""

from __future__ import annotations

import os
import random
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


ORDINARY_USER = "dtsandbox"
ORDINARY_USER_SECRET = "debugtutor-private-7731"


@pytest.fixture(scope="session")
def ordinary_user() -> str:
    """An ordinary user with a private key in its home, made here when we are root."""
    import pwd
    import subprocess

    if os.getuid() != 0:
        pytest.skip("creating an ordinary user needs root (CI runs as root); this test is about root hosts")
    try:
        pwd.getpwnam(ORDINARY_USER)
    except KeyError:
        subprocess.run(["useradd", "--create-home", ORDINARY_USER], check=True, capture_output=True)
    entry = pwd.getpwnam(ORDINARY_USER)
    ssh = Path(entry.pw_dir) / ".ssh"
    ssh.mkdir(mode=0o700, exist_ok=True)
    key = ssh / "id_ed25519"
    key.write_text(ORDINARY_USER_SECRET + "\n")
    for path in (ssh, key):
        os.chown(path, entry.pw_uid, entry.pw_gid)
    key.chmod(0o600)
    return ORDINARY_USER


@pytest.fixture(params=["root", "ordinary user"])
def server_account(
    request: pytest.FixtureRequest, bwrap_only: str, ordinary_user: str, monkeypatch: pytest.MonkeyPatch
) -> str:
    """Each attack runs twice under bubblewrap: with the servers running as root (programs dropped to an
    unprivileged uid) and as an ordinary user (``DEBUGTUTOR_SANDBOX_USER``; programs share its uid)."""
    if request.param == "ordinary user":
        monkeypatch.setenv("DEBUGTUTOR_SANDBOX_USER", ordinary_user)
    else:
        monkeypatch.delenv("DEBUGTUTOR_SANDBOX_USER", raising=False)
    return str(request.param)


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
def sleep_seconds() -> str:
    """A ``sleep`` argument no other test (or a second test run on the machine) uses, so that looking for the
    process by its command line finds only this test's."""
    return f"{random.randrange(10**6, 10**8)}.5"


@pytest.fixture
def find_processes() -> Callable[[str], list[int]]:
    """A function that lists host pids whose command line contains a marker string."""
    return processes_with
