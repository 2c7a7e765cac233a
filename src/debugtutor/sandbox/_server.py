"""The sandbox server: a long-lived process that forks one limited child per program.

This file runs as a script under the *system* Python (``/usr/bin/python3 -I -S``), usually inside bubblewrap, so it
imports nothing but the standard library and stays compatible with Python 3.8+. The host (``_pool.py``) starts one
server per worker and sends it jobs as JSON lines on stdin; each answer is one JSON line on stdout.

Why a server: starting a Python interpreter costs tens of milliseconds, while forking an already running one costs
about one. Every program still gets a process of its own: the forked child moves into a fresh session (so the whole
group can be killed), sets its rlimits, drops to an unprivileged uid, gets a fresh work directory and runs there with
an empty environment. Python programs run in the forked interpreter itself; C++, Java and compilers are exec'd.

A job is a list of steps (for example: compile, then run) that share one work directory, which is removed afterwards.
After every step all processes of the run's uid are killed, so nothing a program starts outlives it.
"""

from __future__ import annotations

# Modules user programs and our harnesses commonly import; loading them once here makes every fork start warm.
import ast  # noqa: F401
import bisect  # noqa: F401
import builtins
import collections  # noqa: F401
import functools  # noqa: F401
import heapq  # noqa: F401
import inspect  # noqa: F401
import io  # noqa: F401
import itertools  # noqa: F401
import json
import math  # noqa: F401
import os
import re  # noqa: F401
import resource
import select
import shutil
import signal
import string  # noqa: F401
import sys
import time
import traceback
import types
import typing  # noqa: F401
from typing import Any

CONTROL_FD = 3  # Python children report structured results (exception info, harness outcomes) on this descriptor
READ_CHUNK = 65536
CONTROL_LIMIT = 64_000_000
CLONE_NEWNET = 0x40000000
HARD_GRACE_S = 0.5  # after a test's own alarm should have fired
HARNESS_MODULES = {"tests": "_dt_harness", "leetcode": "_dt_leetcode"}  # copied next to this script by the host


def _limit(seconds: float) -> int:
    return max(1, int(seconds + 0.999))


def _try_unshare_net() -> None:
    # Without bubblewrap a root server can still give each child an empty network namespace.
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.unshare(CLONE_NEWNET)
    except Exception:
        return


class Server:
    """Reads jobs, runs their steps in forked children, answers with one JSON line per job."""

    def __init__(self, workroot: str, uid: int, unshare_net: bool) -> None:
        self.workroot = workroot
        self.uid = uid  # -1: we are not root and cannot switch users
        self.unshare_net = unshare_net
        self.counter = 0

    # ---- child side -------------------------------------------------------------------------------------------

    def _child_setup(self, step: dict[str, Any], workdir: str, stdin_path: str, out_w: int, err_w: int) -> None:
        os.setsid()
        stdin_fd = os.open(stdin_path, os.O_RDONLY)
        os.dup2(stdin_fd, 0)
        os.dup2(out_w, 1)
        os.dup2(err_w, 2)
        os.chdir(workdir)
        memory_mb = step.get("memory_mb")
        if memory_mb:
            as_bytes = int(memory_mb) * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (as_bytes, as_bytes))
        cpu = _limit(float(step.get("cpu_s") or step["wall_s"]))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        file_bytes = int(step["file_bytes"])
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_bytes, file_bytes))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        nproc = int(step["max_processes"])
        if self.uid < 0:
            # Not root: the count is per user, so allow what this user already runs plus the budget.
            nproc += _count_own_processes()
        resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
        if self.unshare_net:
            _try_unshare_net()
        if self.uid >= 0:
            os.setgroups([])
            os.setgid(self.uid)
            os.setuid(self.uid)
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": workdir, "TMPDIR": workdir, "LANG": "C.UTF-8"}
        env.update(step.get("env") or {})
        os.environ.clear()
        os.environ.update(env)

    def _child_exec(self, step: dict[str, Any]) -> None:
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
        argv = [str(a) for a in step["argv"]]
        try:
            os.closerange(3, 1 << 16)
            os.execvpe(argv[0], argv, dict(os.environ))
        except OSError as exc:
            os.write(2, (f"cannot run {argv[0]}: {exc}\n").encode())
            os._exit(127)

    def _child_python(self, step: dict[str, Any], workdir: str, control_w: int, code: types.CodeType | None) -> None:
        os.dup2(control_w, CONTROL_FD)
        os.set_inheritable(CONTROL_FD, False)
        os.closerange(CONTROL_FD + 1, 1 << 16)
        filename = os.path.join(workdir, str(step.get("filename") or "main.py"))
        main = types.ModuleType("__main__")
        main.__dict__.update({"__file__": filename, "__builtins__": builtins, "__cached__": None})
        sys.modules["__main__"] = main
        sys.argv = [filename]
        sys.path[:0] = [workdir]
        sys.stdin = open(0, encoding="utf-8", errors="surrogateescape", closefd=False)  # noqa: SIM115
        sys.stdout = open(1, "w", encoding="utf-8", errors="backslashreplace", closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False, buffering=1)  # noqa: SIM115
        # Code that writes to sys.__stdout__ must reach the captured pipe too.
        sys.__stdin__, sys.__stdout__, sys.__stderr__ = sys.stdin, sys.stdout, sys.stderr  # type: ignore[misc]
        sys.setrecursionlimit(1000)
        if "random" in sys.modules:
            sys.modules["random"].seed()  # a fork shares the parent's state; each program gets fresh randomness
        exit_code = 0
        try:
            compiled = code if code is not None else compile(str(step["source"]), filename, "exec")
            exec(compiled, main.__dict__)
        except SystemExit as exc:
            exit_code = _exit_code(exc)
        except BaseException as exc:
            exit_code = 1
            _report_exception(exc, filename)
        try:
            if "threading" in sys.modules:
                sys.modules["threading"]._shutdown()
        except BaseException:
            exit_code = exit_code or 1
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BaseException:
                continue
        os._exit(exit_code)

    # ---- server side ------------------------------------------------------------------------------------------

    def _kill_run(self, pgid: int) -> None:
        try:
            os.killpg(pgid, signal.SIGKILL)
        except OSError:
            pass
        if self.uid < 0:
            return
        # Anything of the run's uid (daemons that left the process group, double forks) dies too. Inside bubblewrap
        # /proc lists only this sandbox, so looking first is cheap and usually saves the helper fork.
        for _ in range(2):
            if not _uid_has_processes(self.uid, exclude=pgid):
                return
            helper = os.fork()
            if helper == 0:
                try:
                    os.setuid(self.uid)
                    os.kill(-1, signal.SIGKILL)
                except BaseException:
                    os._exit(1)
                os._exit(0)
            os.waitpid(helper, 0)

    def run_step(self, step: dict[str, Any], workdir: str) -> dict[str, Any]:
        stdin_path = workdir + ".stdin"
        with open(stdin_path, "wb") as handle:
            handle.write(str(step.get("stdin") or "").encode("utf-8"))
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        ctl_r, ctl_w = os.pipe()
        is_python = step["kind"] == "python"
        code = None
        if is_python and step.get("harness"):
            # Our own harnesses are imported by the server at start-up: a child just calls their main().
            code = compile(
                "import {} as _h\n_h.main()\n".format(HARNESS_MODULES[str(step["harness"])]), "<harness>", "exec"
            )
        started = time.monotonic()
        pid = os.fork()
        if pid == 0:
            try:
                os.close(out_r)
                os.close(err_r)
                os.close(ctl_r)
                self._child_setup(step, workdir, stdin_path, out_w, err_w)
                if is_python:
                    self._child_python(step, workdir, ctl_w, code)
                else:
                    self._child_exec(step)
            except BaseException as exc:
                try:
                    os.write(2, (f"sandbox setup failed: {exc!r}\n").encode())
                finally:
                    os._exit(126)
        for fd in (out_w, err_w, ctl_w):
            os.close(fd)
        result = self._supervise(step, pid, started, out_r, err_r, ctl_r)
        os.unlink(stdin_path)
        return result

    def _supervise(
        self, step: dict[str, Any], pid: int, started: float, out_r: int, err_r: int, ctl_r: int
    ) -> dict[str, Any]:
        output_bytes = int(step["output_bytes"])
        wall_s = float(step["wall_s"])
        deadline = started + wall_s
        buffers: dict[int, bytearray] = {out_r: bytearray(), err_r: bytearray(), ctl_r: bytearray()}
        caps = {out_r: output_bytes, err_r: output_bytes, ctl_r: CONTROL_LIMIT}
        truncated = {out_r: False, err_r: False, ctl_r: False}
        open_fds = [out_r, err_r, ctl_r]
        pidfd = os.pidfd_open(pid)
        timed_out = output_limited = exited = False
        status = 0
        rusage: Any = None
        # A harness announces each test with its budget on the control channel; a test that outlives it (in code its
        # own alarm cannot interrupt) ends the run here, and the host continues with the next test.
        test_deadline: float | None = None
        control_seen = 0
        while True:
            remaining = min(deadline, test_deadline or deadline) - time.monotonic()
            if remaining <= 0:
                timed_out = not exited
                break
            watch = open_fds + ([] if exited else [pidfd])
            if not watch:
                break
            readable, _, _ = select.select(watch, [], [], remaining)
            for fd in readable:
                if fd == pidfd:
                    # The program is over: whatever it left running dies now, which also closes the pipes. The
                    # zombie still holds its pid, so the process group id cannot have been reused yet.
                    self._kill_run(pid)
                    _, status, rusage = os.wait4(pid, 0)
                    exited = True
                    continue
                chunk = os.read(fd, READ_CHUNK)
                if not chunk:
                    open_fds.remove(fd)
                    continue
                room = caps[fd] - len(buffers[fd])
                if len(chunk) > room:
                    buffers[fd] += chunk[: max(room, 0)]
                    truncated[fd] = True
                    if fd != ctl_r:
                        output_limited = True
                else:
                    buffers[fd] += chunk
                if fd == ctl_r:
                    test_deadline, control_seen = _track_tests(buffers[ctl_r], control_seen, test_deadline)
            if output_limited:
                break
        if not exited:
            self._kill_run(pid)
            _, status, rusage = os.wait4(pid, 0)
        wall = time.monotonic() - started
        self._drain(open_fds, buffers, caps, truncated)
        os.close(pidfd)
        for fd in (out_r, err_r, ctl_r):
            os.close(fd)
        returncode = signum = None
        if os.WIFEXITED(status):
            returncode = os.WEXITSTATUS(status)
        elif os.WIFSIGNALED(status):
            signum = os.WTERMSIG(status)
            returncode = -signum
        return {
            "returncode": returncode,
            "signal": signum,
            "stdout": buffers[out_r].decode("utf-8", "replace"),
            "stderr": buffers[err_r].decode("utf-8", "replace"),
            "stdout_truncated": truncated[out_r],
            "stderr_truncated": truncated[err_r],
            "control": buffers[ctl_r].decode("utf-8", "replace"),
            "timed_out": timed_out,
            "output_limited": output_limited,
            "wall_s": wall,
            "cpu_s": (rusage.ru_utime + rusage.ru_stime) if rusage is not None else None,
            "skipped": False,
        }

    def _drain(
        self, open_fds: list[int], buffers: dict[int, bytearray], caps: dict[int, int], truncated: dict[int, bool]
    ) -> None:
        # Writers are dead by now; keep what is left in the pipes, within the caps, without waiting on anyone.
        end = time.monotonic() + 0.5
        while open_fds and time.monotonic() < end:
            readable, _, _ = select.select(open_fds, [], [], max(0.0, end - time.monotonic()))
            if not readable:
                break
            for fd in readable:
                chunk = os.read(fd, READ_CHUNK)
                if not chunk:
                    open_fds.remove(fd)
                    continue
                room = caps[fd] - len(buffers[fd])
                buffers[fd] += chunk[: max(room, 0)]
                if len(chunk) > room:
                    truncated[fd] = True

    def run_job(self, job: dict[str, Any]) -> dict[str, Any]:
        self.counter += 1
        workdir = os.path.join(self.workroot, f"run{self.counter}")
        os.mkdir(workdir, 0o700)
        results: list[dict[str, Any]] = []
        try:
            for name, content in (job.get("files") or {}).items():
                path = os.path.normpath(os.path.join(workdir, name))
                if not path.startswith(workdir + os.sep):
                    raise ValueError(f"file name escapes the work directory: {name!r}")
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8") as handle:
                    handle.write(content)
            if self.uid >= 0:
                for base, dirs, files in os.walk(workdir):
                    for entry in (
                        [base] + [os.path.join(base, d) for d in dirs] + [os.path.join(base, f) for f in files]
                    ):
                        os.chown(entry, self.uid, self.uid)
            failed = False
            for step in job["steps"]:
                if failed:
                    results.append({"skipped": True})
                    continue
                result = self.run_step(step, workdir)
                results.append(result)
                if step.get("stop_on_failure") and (result["returncode"] != 0 or result["timed_out"]):
                    failed = True
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        return {"id": job.get("id"), "steps": results}

    def serve(self) -> None:
        inp = sys.stdin.buffer
        out = sys.stdout.buffer
        out.write(b'{"ready": true}\n')
        out.flush()
        for line in inp:
            if not line.strip():
                continue
            try:
                reply = self.run_job(json.loads(line))
            except Exception as exc:
                reply = {"error": f"{type(exc).__name__}: {exc}"}
            out.write(json.dumps(reply).encode("utf-8") + b"\n")
            out.flush()


def _track_tests(control: bytearray, seen: int, deadline: float | None) -> tuple[float | None, int]:
    """Follow harness start/finish events in the control stream; returns the running test's hard deadline."""
    end = control.rfind(b"\n")
    if end < seen:
        return deadline, seen
    for line in bytes(control[seen:end]).split(b"\n"):
        if b'"event": "start"' in line:
            try:
                deadline = time.monotonic() + float(json.loads(line)["budget"]) + HARD_GRACE_S
            except (ValueError, KeyError, TypeError):
                continue
        elif b'"event": "test"' in line:
            deadline = None
    return deadline, end + 1


def _uid_has_processes(uid: int, exclude: int) -> bool:
    """Whether a process of ``uid`` other than ``exclude`` (the run's own zombie, already dead) exists."""
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != exclude:
            try:
                if os.stat("/proc/" + entry).st_uid == uid:
                    return True
            except OSError:
                continue
    return False


def _count_own_processes() -> int:
    uid = os.getuid()
    count = 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.stat("/proc/" + entry).st_uid == uid:
                    count += len(os.listdir(f"/proc/{entry}/task"))
            except OSError:
                continue
    return count


def _exit_code(exc: SystemExit) -> int:
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code & 0xFF
    try:
        sys.stderr.write(str(exc.code) + "\n")
    except BaseException:
        pass
    return 1


def _report_exception(exc: BaseException, filename: str) -> None:
    line = None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    if isinstance(exc, SyntaxError) and exc.filename == filename:
        line = exc.lineno
    try:
        # Hide this server's frame: the traceback starts at the user's module, as with `python main.py`.
        user_tb = exc.__traceback__.tb_next if exc.__traceback__ is not None else None
        traceback.print_exception(type(exc), exc, user_tb)
        sys.stderr.flush()
    except BaseException:
        pass
    try:
        message = str(exc)
    except BaseException:
        message = ""
    info = {"event": "exception", "type": type(exc).__name__, "message": message[:2000], "line": line}
    try:
        os.write(CONTROL_FD, (json.dumps(info) + "\n").encode("utf-8"))
    except OSError:
        pass


def main(argv: list[str]) -> None:
    workroot, uid, unshare_net = argv[1], int(argv[2]), argv[3] == "1"
    sys.path.insert(0, os.path.dirname(os.path.abspath(argv[0])))
    for module in HARNESS_MODULES.values():
        __import__(module)
    os.chmod(workroot, 0o711)
    if os.getuid() == 0 and os.path.ismount("/tmp") and workroot.startswith("/tmp/"):
        os.chmod("/tmp", 0o711)  # inside bubblewrap /tmp is our own tmpfs: children may only use their work dir
    Server(workroot, uid, unshare_net).serve()


if __name__ == "__main__":
    main(sys.argv)
