"""What a sandboxed program can see of the host: nothing but the toolchains, as root and as an ordinary user.

Each program below looks for the project's source, another run's records, the shared data, root's and an ordinary
user's private files, and tries to create a user namespace or trace a process. It must find none of the files and be
refused both calls, whether the sandbox servers run as root (the usual CI case: programs are dropped to an
unprivileged uid) or as an ordinary user (``DEBUGTUTOR_SANDBOX_USER``; bubblewrap then works through an unprivileged
user namespace and programs share the server's uid). Python, C++ and Java must still run in both.
"""

from __future__ import annotations

import json
import os
import pwd
from collections.abc import Iterator
from pathlib import Path

import pytest

from debugtutor.sandbox import Language, LeetCodeCall, LeetCodeRequest, Limits, ProgramRequest, SandboxPool, Status

from .conftest import ORDINARY_USER_SECRET

pytestmark = pytest.mark.bwrap

REPO_ROOT = Path(__file__).resolve().parents[2]
# What the sandbox's root may hold: the toolchains' system folders and the sandbox's own mounts.
ALLOWED_TOP_LEVEL = {"bin", "sbin", "lib", "lib32", "lib64", "libx32", "usr", "etc", "tmp", "dev", "proc", "dt-pch"}
PROBE = """
import ctypes, json, os, subprocess
libc = ctypes.CDLL(None, use_errno=True)
report = {"root": sorted(os.listdir("/")), "etc": sorted(os.listdir("/etc")), "files": {}}
for path in PATHS:
    try:
        with open(path, "rb") as handle:
            report["files"][path] = "READ " + handle.read(64).decode("latin-1")
    except OSError as exc:
        report["files"][path] = type(exc).__name__
CLONE_NEWUSER, CLONE_NEWNS = 0x10000000, 0x00020000
report["unshare_user"] = [libc.unshare(CLONE_NEWUSER), ctypes.get_errno()]
report["unshare_mount"] = [libc.unshare(CLONE_NEWNS), ctypes.get_errno()]
report["ptrace"] = [libc.ptrace(0, 0, None, None), ctypes.get_errno()]
try:
    report["unshare_command"] = subprocess.run(["unshare", "--user", "true"], capture_output=True).returncode
except OSError as exc:
    report["unshare_command"] = type(exc).__name__
pid = os.fork()
if pid == 0:
    os._exit(7)
report["fork"] = os.WEXITSTATUS(os.waitpid(pid, 0)[1])
print(json.dumps(report))
"""


@pytest.fixture
def pool(server_account: str) -> Iterator[SandboxPool]:
    with SandboxPool(workers=1, isolation="bwrap") as sandbox:
        yield sandbox


@pytest.fixture
def private_files(tmp_path: Path, ordinary_user: str) -> list[str]:
    """Paths a program must not read: the project's source, another run's records, the shared data, secrets."""
    runs = tmp_path / "runs" / "some-run"
    runs.mkdir(parents=True)
    (runs / "samples.jsonl").write_text(json.dumps({"secret": ORDINARY_USER_SECRET}) + "\n")
    root_secret = Path("/root/.debugtutor-test-secret")
    root_secret.write_text(ORDINARY_USER_SECRET + "\n")
    root_secret.chmod(0o600)
    paths = [
        str(REPO_ROOT / "src" / "debugtutor" / "__init__.py"),
        str(REPO_ROOT / "pyproject.toml"),
        str(runs / "samples.jsonl"),
        str(root_secret),
        str(Path(pwd.getpwnam(ordinary_user).pw_dir) / ".ssh" / "id_ed25519"),
        "/etc/shadow",
        "/etc/hostname",
        "/etc/hosts",
    ]
    shared = sorted((REPO_ROOT.parent / "shared" / "data").glob("*"))
    paths += [str(path) for path in shared[:1]]
    return paths


def test_a_program_sees_only_the_toolchains(pool: SandboxPool, private_files: list[str]) -> None:
    outcome = pool.run(ProgramRequest(source=f"PATHS = {private_files!r}\n" + PROBE, limits=Limits(wall_s=10)))
    assert outcome.status is Status.passed and outcome.isolation == "bwrap", outcome.stderr
    report = json.loads(outcome.stdout)
    toolchain_roots = {Path(os.path.realpath(p)).parts[1] for p in ("/usr/bin/java", "/usr/bin/g++")}
    assert set(report["root"]) <= ALLOWED_TOP_LEVEL | toolchain_roots, report["root"]
    assert "shadow" not in report["etc"] and "hostname" not in report["etc"]
    for path, result in report["files"].items():
        assert result in ("FileNotFoundError", "PermissionError"), (path, result)


def test_no_new_namespaces_no_tracing(pool: SandboxPool, private_files: list[str]) -> None:
    outcome = pool.run(ProgramRequest(source=f"PATHS = {private_files[:1]!r}\n" + PROBE, limits=Limits(wall_s=10)))
    report = json.loads(outcome.stdout)
    eperm = 1
    assert report["unshare_user"] == [-1, eperm]
    assert report["unshare_mount"] == [-1, eperm]
    assert report["ptrace"] == [-1, eperm]
    assert report["unshare_command"] != 0
    assert report["fork"] == 7  # plain processes (and threads) are still allowed


def test_the_toolchains_still_work(pool: SandboxPool) -> None:
    calls = [LeetCodeCall(args={"a": 2, "b": 3}, expected=5)]
    cpp = "class Solution {\npublic:\n    int add(int a, int b) { return a + b; }\n};\n"
    java = "class Solution {\n    public int add(int a, int b) { return a + b; }\n}\n"
    python = "class Solution:\n    def add(self, a: int, b: int) -> int:\n        return a + b\n"
    programs: list[tuple[Language, str]] = [("cpp", cpp), ("java", java), ("python", python)]
    for lang, code in programs:
        report = pool.run(LeetCodeRequest(code=code, calls=calls, lang=lang, method="add"))
        assert report.status is Status.passed, (lang, report)
    threads = "import threading\nt = threading.Thread(target=print, args=('thread',))\nt.start()\nt.join()\n"
    assert pool.run(ProgramRequest(source=threads)).stdout == "thread\n"


PCH_PROBE = """
import json, os
found = []
for folder, _, files in os.walk("/dt-pch"):
    found += [os.path.relpath(os.path.join(folder, name), "/dt-pch").split("/", 1)[1] for name in files]
try:
    open("/dt-pch/planted.h", "w").write("#define int long")
    wrote = True
except OSError:
    wrote = False
print(json.dumps({"files": sorted(set(found)), "wrote": wrote}))
"""


def test_the_precompiled_header_folder_holds_only_the_headers_and_is_read_only(
    pool: SandboxPool, server_account: str
) -> None:
    cpp = "class Solution {\npublic:\n    int add(int a, int b) { return a + b; }\n};\n"
    # a C++ run builds the precompiled header first (outside the sandbox) when there is none yet
    assert pool.run(LeetCodeRequest(code=cpp, calls=[LeetCodeCall(args={"a": 2, "b": 3}, expected=5)], lang="cpp",
                                    method="add")).status is Status.passed  # fmt: skip
    outcome = pool.run(ProgramRequest(source=PCH_PROBE, limits=Limits(wall_s=10)))
    report = json.loads(outcome.stdout)
    # (a server running as another ordinary user cannot reach our cache folder: its compiles go without)
    headers = ["bits/stdc++.h", "bits/stdc++.h.gch"] if server_account == "root" else []
    assert report == {"files": headers, "wrote": False}, report
