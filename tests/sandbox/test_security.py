"""Hostile programs: each must be contained, come back as a structured outcome within its limit, and leave the host
as it was. These need bubblewrap (CI installs it with .ci/install-system-deps)."""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from debugtutor.sandbox import Limits, ProgramRequest, SandboxPool, Status

pytestmark = pytest.mark.bwrap

QUICK = Limits(wall_s=1.5, memory_mb=512)
FORK_BOMB = "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n"


@pytest.fixture
def pool(server_account: str) -> Iterator[SandboxPool]:
    with SandboxPool(workers=1, isolation="bwrap") as sandbox:
        yield sandbox


def server_descendants(pool: SandboxPool) -> int:
    """Processes under the pool's server (bwrap, its namespace init, the server itself, anything left over)."""
    roots = [server.process.pid for server in pool._all]
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                status = Path(f"/proc/{entry}/status").read_text()
            except OSError:
                continue
            ppid = next(line for line in status.splitlines() if line.startswith("PPid:")).split()[1]
            parents[int(entry)] = int(ppid)
    count, frontier = 0, set(roots)
    while frontier:
        count += len(frontier)
        frontier = {pid for pid, ppid in parents.items() if ppid in frontier}
    return count


def settled_descendants(pool: SandboxPool) -> int:
    """:func:`server_descendants` once two readings agree (the server forks each job's worker ahead of the job)."""
    last = server_descendants(pool)
    for _ in range(100):
        time.sleep(0.05)
        now = server_descendants(pool)
        if now == last:
            return now
        last = now
    return last


def assert_pool_still_works(pool: SandboxPool) -> None:
    assert pool.run(ProgramRequest(source="print(6 * 7)")).stdout == "42\n"


def test_infinite_loop(pool: SandboxPool) -> None:
    started = time.monotonic()
    outcome = pool.run(ProgramRequest(source="while True:\n    pass\n", limits=QUICK))
    assert outcome.status is Status.timeout and outcome.isolation == "bwrap"
    assert time.monotonic() - started < QUICK.wall_s + 2


def test_fork_bomb(pool: SandboxPool) -> None:
    pool.run(ProgramRequest(source="pass"))
    baseline = settled_descendants(pool)
    started = time.monotonic()
    outcome = pool.run(ProgramRequest(source=FORK_BOMB, limits=Limits(wall_s=1.0, max_processes=16)))
    assert outcome.status is Status.timeout
    assert time.monotonic() - started < 4
    assert settled_descendants(pool) == baseline
    assert_pool_still_works(pool)


@pytest.mark.slow
def test_repeated_fork_bombs_leave_no_zombie(pool: SandboxPool) -> None:
    # Killed bomb processes hand their children to the server while it reads its children list; a sweep that
    # stopped at the first read without live processes left such children behind as zombies (about 1 run in 40).
    pool.run(ProgramRequest(source="pass"))
    baseline = settled_descendants(pool)
    left = []
    for _ in range(60):
        pool.run(ProgramRequest(source=FORK_BOMB, limits=Limits(wall_s=0.3, max_processes=64)))
        left.append(server_descendants(pool) - baseline)
    assert left == [0] * 60


def test_allocating_10_gb(pool: SandboxPool) -> None:
    outcome = pool.run(ProgramRequest(source="block = bytearray(10 * 1024 ** 3)\nprint(len(block))\n", limits=QUICK))
    assert outcome.status is Status.memory
    assert outcome.stdout == ""


def test_files_outside_the_work_dir_survive(pool: SandboxPool, tmp_path: Path) -> None:
    sentinel = tmp_path / "sentinel.txt"
    sentinel.write_text("keep me")
    intruder = tmp_path / "intruder.txt"
    program = f"""
import os
results = []
for action in (lambda: os.remove({str(sentinel)!r}), lambda: open({str(intruder)!r}, "w").write("x"),
               lambda: open("/etc/debugtutor-intruder", "w"), lambda: os.remove("/etc/hostname")):
    try:
        action()
        results.append("done")
    except OSError as exc:
        results.append(type(exc).__name__)
print(results)
"""
    outcome = pool.run(ProgramRequest(source=program, limits=QUICK))
    assert outcome.status is Status.passed
    assert "done" not in outcome.stdout
    assert sentinel.read_text() == "keep me"
    assert not intruder.exists()
    assert not Path("/etc/debugtutor-intruder").exists()


def test_parent_environment_secret_is_invisible(pool: SandboxPool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEBUGTUTOR_FAKE_API_KEY", "sk-not-for-students")
    program = (
        "import os\nprint(dict(os.environ))\n"
        "for pid in os.listdir('/proc'):\n"
        "    try:\n        print(open(f'/proc/{pid}/environ', 'rb').read())\n    except OSError:\n        pass\n"
    )
    outcome = pool.run(ProgramRequest(source=program, limits=QUICK))
    assert outcome.status is Status.passed
    assert "sk-not-for-students" not in outcome.stdout


def test_no_network_to_a_loopback_listener(pool: SandboxPool) -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        listener.settimeout(0.3)
        port = listener.getsockname()[1]
        program = f"import socket\nsocket.create_connection(('127.0.0.1', {port}), timeout=1)\nprint('connected')\n"
        outcome = pool.run(ProgramRequest(source=program, limits=QUICK))
        assert outcome.status is Status.error
        assert outcome.exception is not None and outcome.exception.type in ("ConnectionRefusedError", "OSError")
        with pytest.raises(socket.timeout):
            listener.accept()


def test_printing_a_gigabyte(pool: SandboxPool) -> None:
    started = time.monotonic()
    outcome = pool.run(
        ProgramRequest(source="import sys\nchunk = 'x' * 2 ** 20\nfor _ in range(1024):\n    sys.stdout.write(chunk)\n")
    )
    assert outcome.status is Status.output_limit
    assert outcome.stdout_truncated and len(outcome.stdout) == Limits().output_bytes
    assert time.monotonic() - started < 5


def test_killing_the_parent(pool: SandboxPool, server_account: str) -> None:
    outcome = pool.run(
        ProgramRequest(source="import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n", limits=QUICK)
    )
    assert outcome.status is Status.error
    if server_account == "root":
        assert outcome.exception is not None and outcome.exception.type == "PermissionError"
    else:
        # programs share an ordinary user's uid with the sandbox's own processes, so the kill lands; the run is an
        # error (never a pass), and a fresh server takes the next job
        assert outcome.exception is not None and outcome.exception.type == "SandboxLost"
        assert_pool_still_works(pool)
    # kill(-1) reaches only processes of the run's own uid (Linux spares the caller): nothing outside is touched.
    everyone = pool.run(
        ProgramRequest(source="import os, signal\nos.kill(-1, signal.SIGKILL)\nprint('alive')\n", limits=QUICK)
    )
    if server_account == "root":
        assert everyone.status is Status.passed and everyone.stdout == "alive\n"
    else:  # it takes the sandbox's processes (its own uid) down: an error for it, a fresh server for the next job
        assert everyone.status is Status.error and everyone.exception is not None
        assert everyone.exception.type == "SandboxLost"
    assert_pool_still_works(pool)


def test_unbounded_recursion_with_raised_limit(pool: SandboxPool) -> None:
    program = "import sys\nsys.setrecursionlimit(10 ** 9)\ndef down(n):\n    return down(n + 1) + 1\ndown(0)\n"
    started = time.monotonic()
    outcome = pool.run(ProgramRequest(source=program, limits=Limits(wall_s=2.0, memory_mb=256)))
    # CPython 3.11 recurses on the heap: it ends in MemoryError/SystemError or runs into the limit, never hangs.
    assert outcome.status in (Status.error, Status.memory, Status.timeout)
    assert outcome.returncode != 0
    assert time.monotonic() - started < 5
    assert_pool_still_works(pool)


def test_child_sleeping_past_the_limit_is_killed(
    pool: SandboxPool, find_processes: Callable[[str], list[int]], sleep_seconds: str
) -> None:
    program = f"import subprocess, time\nsubprocess.Popen(['sleep', '{sleep_seconds}'])\ntime.sleep(60)\n"
    outcome = pool.run(ProgramRequest(source=program, limits=Limits(wall_s=1.0)))
    assert outcome.status is Status.timeout
    assert find_processes(f"sleep {sleep_seconds}") == []


def test_double_forked_daemon_does_not_outlive_the_run(
    pool: SandboxPool, find_processes: Callable[[str], list[int]], sleep_seconds: str
) -> None:
    program = (
        "import os\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
        f"        os.execvp('sleep', ['sleep', '{sleep_seconds}'])\n    os._exit(0)\nprint('parent done')\n"
    )
    outcome = pool.run(ProgramRequest(source=program, limits=QUICK))
    assert outcome.status is Status.passed
    assert find_processes(f"sleep {sleep_seconds}") == []


def test_cpp_segfault(pool: SandboxPool) -> None:
    outcome = pool.run(
        ProgramRequest(source="int main() { volatile int *p = nullptr; *p = 1; return 0; }", lang="cpp", limits=QUICK)
    )
    assert outcome.status is Status.error
    assert outcome.returncode == -11


def test_java_program_that_never_ends(pool: SandboxPool) -> None:
    source = "public class Main { public static void main(String[] a) { long n = 0; while (true) { n++; } } }"
    started = time.monotonic()
    outcome = pool.run(ProgramRequest(source=source, lang="java", limits=Limits(wall_s=1.5)))
    assert outcome.status is Status.timeout
    assert time.monotonic() - started < 15  # javac start-up included


def test_program_closing_or_redirecting_its_stdout(pool: SandboxPool) -> None:
    redirect = "import os, sys\nsys.stdout = open(os.devnull, 'w')\nprint('hidden')\nos.close(1)\nos.close(2)\n"
    outcome = pool.run(ProgramRequest(source=redirect, limits=QUICK))
    assert outcome.status is Status.passed and outcome.stdout == ""
    closed_and_spinning = "import os\nos.close(1)\nos.close(2)\nwhile True:\n    pass\n"
    outcome = pool.run(ProgramRequest(source=closed_and_spinning, limits=Limits(wall_s=1.0)))
    assert outcome.status is Status.timeout


def test_huge_file_hits_the_file_size_limit(pool: SandboxPool) -> None:
    program = "with open('big.bin', 'wb') as f:\n    for _ in range(64):\n        f.write(b'x' * 2 ** 20)\n"
    outcome = pool.run(ProgramRequest(source=program, limits=Limits(wall_s=5, file_bytes=1_000_000)))
    assert outcome.status is Status.error
    assert outcome.exception is not None and "too large" in outcome.exception.message.lower()


def test_secrets_on_disk_are_unreadable(pool: SandboxPool) -> None:
    program = (
        "for path in ('/etc/shadow', '/root'):\n    try:\n        open(path).read() if path != '/root' "
        "else __import__('os').listdir(path)\n        print('READ', path)\n    except OSError as exc:\n"
        "        print(type(exc).__name__)\n"
    )
    outcome = pool.run(ProgramRequest(source=program, limits=QUICK))
    assert "READ" not in outcome.stdout
    # not even there: the sandbox's root holds the toolchains only (test_isolation.py has the whole list)
    assert outcome.stdout.splitlines() == ["FileNotFoundError", "FileNotFoundError"]


def test_setuid_back_to_root_and_ptrace_fail(pool: SandboxPool) -> None:
    program = (
        "import ctypes, os\n"
        # (EPERM as an unprivileged uid; EINVAL where root is not even mapped, as in an ordinary user's sandbox)
        "try:\n    os.setuid(0)\n    print('ROOT')\nexcept OSError:\n    print('no setuid')\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "print('ptrace', libc.ptrace(16, os.getppid(), 0, 0), ctypes.get_errno())\n"
    )
    outcome = pool.run(ProgramRequest(source=program, limits=QUICK))
    assert outcome.status is Status.passed, outcome.stderr
    assert "ROOT" not in outcome.stdout and "no setuid" in outcome.stdout
    assert "ptrace -1 1" in outcome.stdout  # EPERM


def test_sleep_in_a_signal_handler(pool: SandboxPool) -> None:
    program = (
        "import signal, time\nsignal.signal(signal.SIGALRM, lambda *a: time.sleep(100))\n"
        "signal.alarm(1)\nwhile True:\n    pass\n"
    )
    started = time.monotonic()
    outcome = pool.run(ProgramRequest(source=program, limits=Limits(wall_s=2.0)))
    assert outcome.status is Status.timeout
    assert time.monotonic() - started < 5


def test_cpp_unbounded_allocation(pool: SandboxPool) -> None:
    source = (
        "#include <vector>\nint main(){ std::vector<std::vector<char>> v; while (true) v.emplace_back(1 << 20, 'x'); }"
    )
    outcome = pool.run(ProgramRequest(source=source, lang="cpp", limits=Limits(wall_s=5, memory_mb=256)))
    assert outcome.status is Status.memory, outcome.stderr


def test_java_out_of_memory(pool: SandboxPool) -> None:
    source = (
        "import java.util.*;\npublic class Main { public static void main(String[] a) {"
        " List<long[]> keep = new ArrayList<>(); while (true) keep.add(new long[1 << 20]); } }"
    )
    outcome = pool.run(ProgramRequest(source=source, lang="java", limits=Limits(wall_s=10, memory_mb=128)))
    assert outcome.status is Status.memory, outcome.stdout + outcome.stderr


def test_dns_and_outside_network_fail(pool: SandboxPool) -> None:
    program = "import socket\nsocket.getaddrinfo('pypi.org', 443)\n"
    outcome = pool.run(ProgramRequest(source=program, limits=QUICK))
    assert outcome.status is Status.error
    assert outcome.exception is not None and outcome.exception.type == "gaierror"
