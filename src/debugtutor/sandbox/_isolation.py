"""Which isolation the sandbox can offer here, and how a sandbox server process is started at that level.

``bwrap``: the server runs inside bubblewrap with no network, a read-only root filesystem, a private /tmp, its own
pid, IPC and UTS namespaces and an empty environment; it forks each program and drops it to an unprivileged uid.
``rlimits``: the same server runs as a plain subprocess (rlimits, an unprivileged uid when we are root, an empty
environment, and a private network namespace when root can make one). It is weaker: the program sees the host's
filesystem as that uid does. ``DEBUGTUTOR_SANDBOX=rlimits`` forces it, ``=bwrap`` insists on bubblewrap.
"""

from __future__ import annotations

import functools
import itertools
import os
import shutil
import subprocess
import sys
from pathlib import Path

from debugtutor.console import warn
from debugtutor.errors import SandboxError
from debugtutor.sandbox._models import Isolation

SERVER_SCRIPT = Path(__file__).with_name("_server.py")
SANDBOX_ROOT_INSIDE = "/tmp/sbx"  # where the server's host folder appears inside bubblewrap
WORK_TMPFS_BYTES = 2 * 1024**3
_warned_fallback = False
_pool_sequence = itertools.count()


def system_python() -> str:
    """The interpreter for sandboxed Python: the system one, readable by an unprivileged uid (a pyenv or venv
    Python under /root is not), else the current one."""
    for candidate in ("/usr/bin/python3", "/usr/local/bin/python3"):
        if os.access(candidate, os.X_OK):
            return candidate
    return sys.executable


@functools.lru_cache(maxsize=1)
def bwrap_works() -> bool:
    """Whether bubblewrap is installed and can create the namespaces we use (it cannot in some containers)."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return False
    try:
        probe = subprocess.run(
            [
                bwrap,
                "--ro-bind",
                "/",
                "/",
                "--dev",
                "/dev",
                "--proc",
                "/proc",
                "--unshare-net",
                "--unshare-pid",
                "true",
            ],
            capture_output=True,
            timeout=20,
            env={},
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0


def isolation_level() -> Isolation:
    """The isolation to use now, honouring ``DEBUGTUTOR_SANDBOX`` (auto | bwrap | rlimits); warns once on fallback."""
    global _warned_fallback
    mode = os.environ.get("DEBUGTUTOR_SANDBOX", "auto").strip().lower() or "auto"
    if mode not in ("auto", "bwrap", "rlimits"):
        raise SandboxError(f"DEBUGTUTOR_SANDBOX={mode!r} is not one of auto, bwrap, rlimits")
    if mode == "rlimits":
        return "rlimits"
    if bwrap_works():
        return "bwrap"
    if mode == "bwrap":
        raise SandboxError(
            "DEBUGTUTOR_SANDBOX=bwrap but bubblewrap is missing or cannot create namespaces here",
            hint="apt-get install -y bubblewrap, or unset DEBUGTUTOR_SANDBOX",
        )
    if not _warned_fallback:
        _warned_fallback = True
        warn(
            "bubblewrap (bwrap) is not available: untrusted code runs with rlimits only, without filesystem or "
            "network isolation (install the 'bubblewrap' package)"
        )
    return "rlimits"


def new_uid_block() -> int:
    """A block of 64 uids for one pool's servers, distinct across processes on this host.

    Each server's programs run as their own uid, so the process limit counts only that run's processes and killing
    "every process of this uid" after a run can never touch another run.
    """
    sequence = next(_pool_sequence) % 16
    return 1_000_000 + (os.getpid() % 1_000_000) * 1024 + sequence * 64


def server_command(isolation: Isolation, host_dir: Path, uid: int) -> tuple[list[str], dict[str, str]]:
    """The command line and environment that start one sandbox server whose files live in ``host_dir``."""
    python = system_python()
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}
    run_uid = uid if os.getuid() == 0 else -1
    if isolation == "bwrap":
        bwrap = shutil.which("bwrap")
        if bwrap is None:
            raise SandboxError("bubblewrap disappeared while the sandbox was starting")
        inside = SANDBOX_ROOT_INSIDE
        command = [
            bwrap,
            "--ro-bind", "/", "/",
            "--tmpfs", "/tmp",
            "--bind", str(host_dir), inside,
            # Work directories live on a tmpfs of the sandbox's own (fast to create and remove, gone with it).
            "--size", str(WORK_TMPFS_BYTES), "--tmpfs", f"{inside}/work",
            "--dev", "/dev",
            "--proc", "/proc",
            "--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
            "--new-session",
            "--clearenv",
            "--setenv", "PATH", env["PATH"],
            "--setenv", "LANG", env["LANG"],
            "--chdir", inside,
            python, "-I", "-S", f"{inside}/server.py", f"{inside}/work", str(run_uid), "0",
        ]  # fmt: skip
        return command, env
    unshare_net = "1" if os.getuid() == 0 else "0"
    command = [python, "-I", "-S", str(host_dir / "server.py"), str(host_dir / "work"), str(run_uid), unshare_net]
    return command, env


def prepare_host_dir(host_dir: Path) -> None:
    """Put the server script and an empty work root into a fresh host folder."""
    host_dir.chmod(0o711)
    shutil.copyfile(SERVER_SCRIPT, host_dir / "server.py")
    # The harnesses, importable by the server under the names the LeetCode harness uses.
    shutil.copyfile(SERVER_SCRIPT.with_name("_harness_tests.py"), host_dir / "_dt_harness.py")
    shutil.copyfile(SERVER_SCRIPT.with_name("_harness_leetcode.py"), host_dir / "_dt_leetcode.py")
    (host_dir / "work").mkdir(mode=0o711)
