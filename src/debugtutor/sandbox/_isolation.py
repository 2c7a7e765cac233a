"""Which isolation the sandbox can offer here, and how a sandbox server process is started at that level.

``bwrap``: the server runs inside bubblewrap on an empty root: only the toolchains are bound in, read-only (``/usr``
and the ``/bin``, ``/lib*`` links or folders beside it, the few ``/etc`` entries the dynamic loader and the JVM read,
and the install folder of any compiler or interpreter that lives elsewhere, and the precompiled C++ standard header at
``/dt-pch``, see :mod:`debugtutor.sandbox._precompiled`), plus a private ``/tmp``, a minimal
``/dev``, its own ``/proc``, and the server's own folder (read-only) with a tmpfs for work directories. No home, no
project tree, no runs folder, no data. It has no network, its own pid, IPC and UTS namespaces and an empty
environment; when started as root it keeps only the capabilities it needs to drop each program to an unprivileged
uid and clean up after it. ``rlimits``: the same server runs as a plain subprocess (rlimits, an unprivileged uid
when we are root, an empty environment, and a private network namespace when root can make one). It is weaker: the
program sees the host's filesystem as that uid does. ``DEBUGTUTOR_SANDBOX=rlimits`` forces it, ``=bwrap`` insists on
bubblewrap. At both levels the server installs a seccomp filter (no new namespaces, no ptrace, no kernel modules or
mounts) that every program inherits.

``DEBUGTUTOR_SANDBOX_USER=NAME`` (root only) starts the servers as that ordinary user instead of root, so not even the
server holds root privileges; programs then run as that user too.
"""

from __future__ import annotations

import functools
import glob
import itertools
import os
import pwd
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from debugtutor.console import warn
from debugtutor.errors import SandboxError
from debugtutor.sandbox._precompiled import PCH_INSIDE, header_flags, pch_root
from debugtutor.sandbox._records import Isolation

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
    true = shutil.which("true") or "/usr/bin/true"
    try:
        probe = subprocess.run(
            [bwrap, *toolchain_binds(), "--dev", "/dev", "--proc", "/proc", "--unshare-net", "--unshare-pid", true],
            capture_output=True,
            timeout=20,
            env={},
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0


_TOP_LEVEL_SYSTEM = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
# What the dynamic loader, the C library and the JVM read from /etc (nothing there is about users or secrets).
_ETC_ENTRIES = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "localtime", "java-*", "gcc")
# The commands a language's programs need on the host (Python runs on the interpreter running this code).
TOOLCHAIN_BY_LANGUAGE: dict[str, tuple[str, ...]] = {"python": (), "cpp": ("g++",), "java": ("javac", "java")}
_TOOLCHAIN_COMMANDS = tuple(command for commands in TOOLCHAIN_BY_LANGUAGE.values() for command in commands)


def missing_toolchain(language: str) -> list[str]:
    """The commands ``language``'s programs need that are not on PATH (empty when it can run here)."""
    return [command for command in TOOLCHAIN_BY_LANGUAGE.get(language, ()) if shutil.which(command) is None]


def precompiled_header_flags(options: Sequence[str]) -> list[str]:
    """The ``-I`` arguments that give a sandboxed ``g++`` run with ``options`` (warning options left out) the
    precompiled ``<bits/stdc++.h>``, where the programs see it at this isolation level; none when it cannot be
    built. The first call per flag set may build it (seconds): call it off the event loop."""
    return header_flags(options, inside_bubblewrap=isolation_level() == "bwrap")


@functools.lru_cache(maxsize=1)
def toolchain_binds() -> tuple[str, ...]:
    """bubblewrap arguments that show the programs an empty root with only the toolchains in it, read-only."""
    # (folders bubblewrap makes for a bind's parents are private to root unless made first, readable by all)
    args: list[str] = ["--ro-bind", "/usr", "/usr", "--perms", "0755", "--dir", "/etc"]
    for name in _TOP_LEVEL_SYSTEM:
        path = Path("/") / name
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            args += ["--ro-bind", str(path), str(path)]
    for pattern in _ETC_ENTRIES:
        for found in sorted(glob.glob(f"/etc/{pattern}")):
            args += ["--ro-bind", found, found]
    for root in sorted(_toolchain_roots()):
        args += ["--ro-bind", root, root]
    return tuple(args)


def _precompiled_header_binds(account: ServerAccount) -> list[str]:
    """bubblewrap arguments that show the precompiled standard headers read-only at ``PCH_INSIDE``, for a server
    that runs as us or as root (another user may not reach our cache folder: its compiles go without)."""
    if not (account.is_root or account.uid == os.getuid()):
        return []
    try:
        # (made now, so that the headers built after the server started show through the bind)
        pch_root().mkdir(parents=True, exist_ok=True)
    except OSError:
        return []
    return ["--perms", "0755", "--dir", PCH_INSIDE, "--ro-bind-try", str(pch_root()), PCH_INSIDE]


def _toolchain_roots() -> set[str]:
    """Install folders of the interpreter and compilers that live outside the bound system folders (e.g. a JDK
    under /opt): the folder above the ``bin`` the command resolves into."""
    roots = set()
    for command in (system_python(), *(shutil.which(name) for name in _TOOLCHAIN_COMMANDS)):
        if not command:
            continue
        real = Path(os.path.realpath(command))
        top = real.parts[1] if len(real.parts) > 1 else ""
        if top in ("usr", *_TOP_LEVEL_SYSTEM):
            continue
        home = real.parent.parent if real.parent.name == "bin" else real.parent
        roots.add(str(home))
    return roots


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


# Capabilities a root server keeps: switch each program to its uid, chown its work directory, remove what it wrote
# and kill what it left.
_ROOT_SERVER_CAPS = ("CAP_SETUID", "CAP_SETGID", "CAP_CHOWN", "CAP_FOWNER", "CAP_DAC_OVERRIDE", "CAP_KILL")


@dataclass(frozen=True)
class ServerAccount:
    """Who a server runs as: root (it then drops each program to ``program_uid``) or an ordinary user."""

    uid: int
    gid: int

    @property
    def is_root(self) -> bool:
        return self.uid == 0


def server_account() -> ServerAccount:
    """The current user, or the ordinary user ``DEBUGTUTOR_SANDBOX_USER`` names when we are root."""
    name = os.environ.get("DEBUGTUTOR_SANDBOX_USER", "").strip()
    if not name or os.getuid() != 0:
        return ServerAccount(os.getuid(), os.getgid())
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        raise SandboxError(f"DEBUGTUTOR_SANDBOX_USER={name!r} is not a user on this machine") from None
    if entry.pw_uid == 0:
        raise SandboxError("DEBUGTUTOR_SANDBOX_USER must name an ordinary user, not root")
    return ServerAccount(entry.pw_uid, entry.pw_gid)


def server_command(
    isolation: Isolation, host_dir: Path, uid: int, account: ServerAccount | None = None
) -> tuple[list[str], dict[str, str]]:
    """The command line and environment that start one sandbox server whose files live in ``host_dir``."""
    account = account or server_account()
    python = system_python()
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}
    run_uid = uid if account.is_root else -1
    if isolation == "bwrap":
        bwrap = shutil.which("bwrap")
        if bwrap is None:
            raise SandboxError("bubblewrap disappeared while the sandbox was starting")
        inside = SANDBOX_ROOT_INSIDE
        capabilities: list[str] = []
        if account.is_root:
            capabilities = ["--cap-drop", "ALL"]
            for capability in _ROOT_SERVER_CAPS:
                capabilities += ["--cap-add", capability]
        command = [
            bwrap,
            *toolchain_binds(),
            *_precompiled_header_binds(account),
            "--ro-bind", str(host_dir / "passwd"), "/etc/passwd",
            "--ro-bind", str(host_dir / "group"), "/etc/group",
            "--tmpfs", "/tmp",
            "--ro-bind", str(host_dir), inside,
            # Work directories live on a tmpfs of the sandbox's own (fast to create and remove, gone with it).
            "--size", str(WORK_TMPFS_BYTES), "--tmpfs", f"{inside}/work",
            "--dev", "/dev",
            "--proc", "/proc",
            # the root itself (and the folders made in it, such as /etc) read-only: an ordinary user owns them
            "--remount-ro", "/",
            "--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
            # (no --die-with-parent: pools start servers from worker threads, and that signal follows the thread;
            # a server whose host is gone exits anyway, at the end of its stdin)
            "--new-session",
            *capabilities,
            "--clearenv",
            "--setenv", "PATH", env["PATH"],
            "--setenv", "LANG", env["LANG"],
            "--chdir", inside,
            python, "-I", "-S", f"{inside}/server.py", f"{inside}/work", str(run_uid), "0", "1",
        ]  # fmt: skip
        return command, env
    unshare_net = "1" if account.is_root else "0"
    command = [python, "-I", "-S", str(host_dir / "server.py"), str(host_dir / "work"), str(run_uid), unshare_net, "0"]
    return command, env


def prepare_host_dir(host_dir: Path, program_uid: int) -> None:
    """Put the server script, its harnesses, account files and an empty work root into a fresh host folder."""
    host_dir.chmod(0o755)  # (readable: Python lists a folder to import from it; nothing here is private)
    shutil.copyfile(SERVER_SCRIPT, host_dir / "server.py")
    # The harnesses, importable by the server under the names they import each other by.
    for source, name in (
        ("_value_codec.py", "_dt_codec.py"),
        ("_harness_tests.py", "_dt_harness.py"),
        ("_harness_leetcode.py", "_dt_leetcode.py"),
        ("_harness_judge.py", "_dt_judge.py"),
    ):
        shutil.copyfile(SERVER_SCRIPT.with_name(source), host_dir / name)
    # Who is who inside: programs that ask for their user name or home find the sandbox's, not the host's.
    (host_dir / "passwd").write_text(
        f"root:x:0:0:root:/:/usr/sbin/nologin\nsandbox:x:{program_uid}:{program_uid}:sandbox:{SANDBOX_ROOT_INSIDE}"
        "/work/run:/usr/sbin/nologin\nnobody:x:65534:65534:nobody:/:/usr/sbin/nologin\n"
    )
    (host_dir / "group").write_text(f"root:x:0:\nsandbox:x:{program_uid}:\nnogroup:x:65534:\n")
    for name in ("passwd", "group"):
        (host_dir / name).chmod(0o644)
    (host_dir / "work").mkdir(mode=0o711)
