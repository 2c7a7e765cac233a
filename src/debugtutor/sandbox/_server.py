"""The sandbox server: a long-lived process that forks one job worker per job and one limited child per program.

This file runs as a script under the *system* Python (``/usr/bin/python3 -I -S``), usually inside bubblewrap, so it
imports nothing but the standard library and stays compatible with Python 3.8+. The host (``_pool.py``) starts one
server per pool slot and sends it jobs as JSON lines on stdin; each answer is one JSON line on stdout.

Why a server: starting a Python interpreter costs tens of milliseconds, while forking an already running one costs
about one. Every program still gets a process of its own: the forked child moves into a fresh session (so the whole
group can be killed), sets its rlimits, drops to an unprivileged uid, gets a fresh work directory and runs there with
an empty environment. Python programs run in the forked interpreter itself; C++, Java and compilers are exec'd.

Why a zygote: a program forked from a process inherits a copy of that process's memory, freed parts included, and
the server holds every job it ever ran (codes, outputs, a judge's expected values) in freed memory. So programs are
never forked from the server: at start-up, before its first job, the server forks a *zygote*, which never sees a
job. For each step the server hands the zygote the step's limits and the child's pipes (over a unix socket), the
zygote forks the child and reports its end; the child reads its own code and payload from a file the server wrote
in its work directory. A program can thus find in its memory only its own job.

What a program cannot do: reach the network (bubblewrap's empty network namespace), see the host's files (bubblewrap
binds only the toolchains, read-only, on an empty root; see ``_isolation.py``), create namespaces, trace or read
another process's memory (a seccomp filter installed in the server, inherited by everything below it), or touch the
server (it runs as another uid, or, where it cannot, the server is not dumpable and the filter forbids ptrace). What
a program reports about itself is never a verdict: see ``_test_plans.py``.

A job is a list of steps (for example: compile, then run) that share one work directory, which is removed afterwards.
After every step all processes of the run's uid are killed, so nothing a program starts outlives it. Harness steps
name how many results they owe and the budget of each: the server stops a step when the next result has not arrived
within its budget (counted from the previous result's arrival, a clock the program cannot move).

What a run costs, and what keeps it low (measured; see ``bench/sandbox.py``): after a fork every page either process
writes first is copied, several microseconds each on a VM, and a Python child touches a few hundred; so whatever can
be prepared before the fork is (the limits, HOME and TMPDIR through a fixed work directory path, the child's stdio
objects and ``__main__`` module, all inherited through the zygote), and the zygote touches as little as it can while
a child lives. The server is a child subreaper, so whatever a program leaves behind is reparented to it and one read
of its own children list tells whether a kill sweep is needed (no /proc scan per run). The control channel is read
when the server wakes for another reason or every ``CONTROL_POLL_S``, so a test does not cost a wake-up.
"""

from __future__ import annotations

import array

# Modules user programs and our harnesses commonly import; loading them once here makes every fork start warm.
import ast  # noqa: F401
import bisect  # noqa: F401
import builtins
import collections  # noqa: F401
import ctypes
import fcntl
import functools  # noqa: F401
import gc
import heapq  # noqa: F401
import inspect  # noqa: F401
import io
import itertools  # noqa: F401
import json
import math  # noqa: F401
import os
import re  # noqa: F401
import resource
import select
import shutil
import signal
import socket
import string  # noqa: F401
import struct
import sys
import time
import traceback
import types
import typing  # noqa: F401
from typing import Any

CONTROL_FD = 3  # programs' harnesses report results (probe values, call results, exceptions) on this descriptor
READ_CHUNK = 65536
CONTROL_LIMIT = 64_000_000
CLONE_NEWNET = 0x40000000
HARD_GRACE_S = 0.5  # after a test's own alarm should have fired
# copied next to this script by the host, imported at start-up (the codec first: the harnesses import it)
HARNESS_MODULES = {"codec": "_dt_codec", "tests": "_dt_harness", "leetcode": "_dt_leetcode", "judge": "_dt_judge"}
# MALLOC_ARENA_MAX: glibc gives each thread that meets a locked malloc arena a new one (64 MB of address space each,
# up to 8 per core); how many a JVM's start-up threads create depends on how they race, so under load a JVM inside
# RLIMIT_AS sometimes failed a 104-byte malloc (3 of 60 starts, four at a time beside two busy loops). Two bound it.
BASE_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "MALLOC_ARENA_MAX": "2"}
CONTROL_POLL_S = 0.05  # how long harness events may wait in the control pipe before the server looks at them
CONTROL_PIPE_BYTES = 1 << 20  # room for the events written between two looks, so the child never waits on us
F_SETPIPE_SZ = 1031
PR_SET_CHILD_SUBREAPER = 36
REAP_WAIT_S = 2.0  # how long killed leftovers may take to die before the server moves on (they are reaped later)
KILL_REPEAT_S = 0.05  # between two sweeps over the run's uid while leftovers are still alive
PR_SET_DUMPABLE = 4
PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
JOB_FILE_SUFFIX = ".job"  # beside the work directory: a Python child's code and payload, read before it drops root
ZYGOTE_ANSWER_S = 30.0  # how long the zygote may take to report a child's end after the server killed it
_libc = ctypes.CDLL(None, use_errno=True)


def _limit(seconds: float) -> int:
    return max(1, int(seconds + 0.999))


def _try_unshare_net() -> None:
    # Without bubblewrap a root server can still move itself, and so every child it forks, into an empty network
    # namespace of its own (once: a namespace per child costs about as much as the rest of a run).
    try:
        _libc.unshare(CLONE_NEWNET)
    except Exception:
        return


class Server:
    """Reads jobs, runs their steps in forked children, answers with one JSON line per job."""

    def __init__(self, workroot: str, uid: int, isolated: bool) -> None:
        self.workroot = workroot
        # One path, made anew (empty) for every job and removed after it: jobs on a server run one at a time, and a
        # fixed path lets HOME and TMPDIR be set once in the server's environment instead of in every child.
        self.workdir = os.path.join(workroot, "run")
        self.uid = uid  # -1: we are not root and cannot switch users
        # Writable places outside the work directory a program of this uid could leave files in for a later job.
        self.scratch = [workroot, *(("/tmp", "/dev/shm") if isolated else ())]
        self.child_stdio = _prepare_child_stdio()
        self.child_main = _prepare_child_main(os.path.join(self.workdir, "main.py"))
        # Held so that a child replacing them in sys does not free them: tearing down objects costs it page faults.
        self.server_objects = (sys.stdin, sys.stdout, sys.stderr, sys.argv, sys.modules["__main__"])
        self.zygote_socket: socket.socket | None = None
        self.zygote_pid = -1
        self.broken = (
            False  # the zygote is gone (a program of an ordinary user's sandbox can kill it): stop after this job
        )

    # ---- child side -------------------------------------------------------------------------------------------

    def _rlimits(self, step: dict[str, Any]) -> list[tuple[int, tuple[int, int]]]:
        """The limits a step's process gets (computed in the server, so the child only applies them)."""
        limits = []
        memory_mb = step.get("memory_mb")
        if memory_mb:
            as_bytes = int(memory_mb) * 1024 * 1024
            limits.append((resource.RLIMIT_AS, (as_bytes, as_bytes)))
        cpu = _limit(float(step.get("cpu_s") or step["wall_s"]))
        limits.append((resource.RLIMIT_CPU, (cpu, cpu + 1)))
        file_bytes = int(step["file_bytes"])
        limits.append((resource.RLIMIT_FSIZE, (file_bytes, file_bytes)))
        limits.append((resource.RLIMIT_CORE, (0, 0)))
        nproc = int(step["max_processes"])
        if self.uid < 0:
            # Not root: the count is per user, so allow what this user already runs plus the budget.
            nproc += _count_own_processes()
        limits.append((resource.RLIMIT_NPROC, (nproc, nproc)))
        return limits

    def _child_setup(
        self, step: dict[str, Any], limits: list[tuple[int, tuple[int, int]]], stdin_path: str, out_w: int, err_w: int
    ) -> None:
        # Every Python-level call a forked child makes for the first time costs it copy-on-write page faults, so
        # everything that can be prepared in the server is (the limits, the environment, the stdio objects).
        os.setsid()
        stdin_fd = os.open(stdin_path, os.O_RDONLY)  # a file of its own, or /dev/null
        os.dup2(stdin_fd, 0)
        os.dup2(out_w, 1)
        os.dup2(err_w, 2)
        os.chdir(self.workdir)
        for which, values in limits:
            resource.setrlimit(which, values)
        if self.uid >= 0:
            os.setgroups([])
            os.setgid(self.uid)
            os.setuid(self.uid)
        # The server's environment is BASE_ENV plus HOME and TMPDIR (this run's work directory, see __init__).
        extra_env = step.get("env")
        if extra_env:
            os.environ.update(extra_env)

    def _child_exec(self, step: dict[str, Any], control_w: int) -> None:
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
        argv = [str(a) for a in step["argv"]]
        try:
            if step.get("control"):
                # a compiled harness reports its results on fd 3, as the Python harnesses do
                os.dup2(control_w, CONTROL_FD)
                os.set_inheritable(CONTROL_FD, True)
                os.closerange(CONTROL_FD + 1, 1 << 16)
            else:
                os.closerange(3, 1 << 16)
            os.execvpe(argv[0], argv, dict(os.environ))
        except OSError as exc:
            os.write(2, (f"cannot run {argv[0]}: {exc}\n").encode())
            os._exit(127)

    def _child_python(self, step: dict[str, Any], control_w: int) -> None:
        os.dup2(control_w, CONTROL_FD)
        os.set_inheritable(CONTROL_FD, False)
        os.closerange(CONTROL_FD + 1, 1 << 16)
        filename = self.workdir + os.sep + str(step.get("filename") or "main.py")
        main = self.child_main  # made by the server and never used there: as fresh as a new one
        if main.__file__ != filename:
            main.__file__ = filename
        sys.modules["__main__"] = main
        sys.argv = [filename]
        sys.path[:0] = [self.workdir]
        sys.stdin, sys.stdout, sys.stderr = self.child_stdio  # never used by the server: as fresh as new ones
        # Code that writes to sys.__stdout__ must reach the captured pipe too.
        sys.__stdin__, sys.__stdout__, sys.__stderr__ = sys.stdin, sys.stdout, sys.stderr  # type: ignore[misc]
        sys.setrecursionlimit(1000)
        if "random" in sys.modules:
            sys.modules["random"].seed()  # a fork shares the parent's state; each program gets fresh randomness
        exit_code = 0
        try:
            harness = step.get("harness")
            if harness:
                # Our own harnesses were imported by the server at start-up: the child just calls one on its payload.
                sys.modules[HARNESS_MODULES[str(harness)]].main(step["payload"])
            else:
                exec(compile(str(step["source"]), filename, "exec"), main.__dict__)
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

    def _end_run(self, pid: int) -> tuple[int, float | None]:
        """Kill the run (``pid`` and everything it started); the zygote reaps it: its wait status and CPU seconds."""
        # The process (a zombie at worst) still holds its pid, so the process group id cannot have been reused yet.
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
        try:
            status, cpu_s = self._zygote_result()
        except ZygoteGone:
            self.broken = True
            status, cpu_s = signal.SIGKILL, None
        self._kill_leftovers()
        return status, cpu_s

    def _kill_leftovers(self) -> None:
        # Anything else the run started (daemons that left the process group, double forks) dies too. The server is
        # a child subreaper and the run's own process is reaped, so every such process is now a child of the server
        # or below one: if the server has no children, nothing is left, and that costs one read, not a /proc scan.
        give_up = time.monotonic() + REAP_WAIT_S
        last_sweep = -KILL_REPEAT_S
        while True:
            children = [pid for pid in _children() if pid != self.zygote_pid]
            if not children:
                return
            leftovers = _reap_finished(children)
            now = time.monotonic()
            if now > give_up:
                return  # (what is stuck in the kernel is reaped after a later run)
            if not leftovers:
                # A child that died handed its own children to us before it became a zombie, possibly while the
                # children list was being read (that read is not atomic): only a read with nothing in it ends the sweep.
                continue
            if self.uid < 0:
                _kill_pids(leftovers)  # not root: they are ours, killed by pid (their children come to us as they go)
            elif now - last_sweep >= KILL_REPEAT_S:
                last_sweep = now
                self._kill_uid()  # again later only if something forked past the sweep
            time.sleep(0.001)

    def _kill_uid(self) -> None:
        """Kill every process of the run's uid, from a helper that takes on that uid (kill(-1) spares the caller)."""
        helper = os.fork()
        if helper == 0:
            try:
                os.setuid(self.uid)
                os.kill(-1, signal.SIGKILL)
            except BaseException:
                os._exit(1)
            os._exit(0)
        os.waitpid(helper, 0)

    def run_step(self, step: dict[str, Any]) -> dict[str, Any]:
        stdin_text = str(step.get("stdin") or "")
        stdin_path = os.devnull
        if stdin_text:
            stdin_path = self.workdir + ".stdin"
            with open(stdin_path, "wb") as handle:
                handle.write(stdin_text.encode("utf-8"))
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        ctl_r, ctl_w = os.pipe()
        try:
            fcntl.fcntl(ctl_w, F_SETPIPE_SZ, CONTROL_PIPE_BYTES)
        except OSError:
            pass  # a smaller pipe only means the child may wait for our next look
        os.set_blocking(ctl_r, False)
        if step["kind"] == "python":
            # The child's own job, for it alone: the zygote never sees it (see the module docstring).
            job = {"source": step.get("source"), "payload": step.get("payload")}
            _write_private(self.workdir + JOB_FILE_SUFFIX, json.dumps(job).encode("utf-8"))
        spec = {key: value for key, value in step.items() if key not in ("source", "payload", "stdin")}
        spec.update(limits=self._rlimits(step), stdin_path=stdin_path)
        started = time.monotonic()
        try:
            pid = self._spawn(spec, [out_w, err_w, ctl_w])
        except ZygoteGone:
            self.broken = True
            for fd in (out_r, err_r, ctl_r):
                os.close(fd)
            return {**LOST_STEP, "wall_s": time.monotonic() - started}
        finally:
            for fd in (out_w, err_w, ctl_w):
                os.close(fd)
        result = self._supervise(step, pid, started, (out_r, err_r, ctl_r))
        result["lost"] = self.broken
        for path in (stdin_path if stdin_text else None, self.workdir + JOB_FILE_SUFFIX):
            if path:
                _unlink(path)
        return result

    # ---- the zygote ---------------------------------------------------------------------------------------------

    def start_zygote(self) -> None:
        """Fork the zygote (before the first job, so it holds none) and keep our end of its socket."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                ours.close()
                null = os.open(os.devnull, os.O_RDWR)
                os.dup2(null, 0)  # (the host's pipes are the server's alone)
                os.dup2(null, 1)
                os.close(null)
                self._zygote_loop(theirs)
            except BaseException:
                code = 1
            finally:
                os._exit(code)
        theirs.close()
        self.zygote_socket, self.zygote_pid = ours, pid

    def _zygote_loop(self, sock: socket.socket) -> None:
        """The zygote: fork a child per request, report its pid, reap it, report its end; until the server is gone."""
        while True:
            message, fds = _receive_with_fds(sock)
            if not message:
                return
            spec = json.loads(message)
            pid = os.fork()
            if pid == 0:
                try:
                    sock.close()
                    self._child(spec, fds)
                except BaseException as exc:
                    try:
                        os.write(2, (f"sandbox setup failed: {exc!r}\n").encode())
                    finally:
                        os._exit(126)
            for fd in fds:
                os.close(fd)
            sock.send(str(pid).encode())
            # Reap only when the server says so: until then the child (a zombie at worst) keeps its pid and process
            # group id, so the server's kill can never reach a process that reused them.
            if not sock.recv(16):
                return
            _, status, rusage = os.wait4(pid, 0)
            sock.send(f"{status} {rusage.ru_utime + rusage.ru_stime!r}".encode())

    def _spawn(self, spec: dict[str, Any], fds: list[int]) -> int:
        sock = self.zygote_socket
        if sock is None:
            raise RuntimeError("the zygote is not running")
        sock.sendmsg(
            [json.dumps(spec).encode("utf-8")], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))]
        )
        sock.settimeout(ZYGOTE_ANSWER_S)
        try:
            answer = sock.recv(64)
        except OSError as exc:
            raise ZygoteGone(f"the zygote did not answer: {exc}") from exc
        if not answer:
            raise ZygoteGone("the zygote is gone")
        return int(answer)

    def _zygote_result(self) -> tuple[int, float]:
        sock = self.zygote_socket
        assert sock is not None
        try:
            sock.send(b"reap")
            answer = sock.recv(128)
        except OSError as exc:
            raise ZygoteGone(f"the zygote did not report a child's end: {exc}") from exc
        if not answer:
            raise ZygoteGone("the zygote is gone")
        status, cpu = answer.split()
        return int(status), float(cpu)

    def _child(self, spec: dict[str, Any], fds: list[int]) -> None:
        """In the forked child: read our job (while still root), set up, and run the step."""
        out_w, err_w, ctl_w = fds
        step = dict(spec)
        if spec["kind"] == "python":
            with open(self.workdir + JOB_FILE_SUFFIX, "rb") as handle:
                step.update(json.loads(handle.read()))
        if spec.get("control") and self.uid >= 0:
            # a JVM reopens the channel as /proc/self/fd/3, which checks the pipe's owner
            os.fchown(ctl_w, self.uid, self.uid)
        limits = [(int(which), (int(soft), int(hard))) for which, (soft, hard) in spec["limits"]]
        self._child_setup(step, limits, spec["stdin_path"], out_w, err_w)
        if spec["kind"] == "python":
            self._child_python(step, ctl_w)
        else:
            self._child_exec(step, ctl_w)

    def _supervise(
        self, step: dict[str, Any], pid: int, started: float, readers: tuple[int, int, int]
    ) -> dict[str, Any]:
        """Collect a running program's output until it ends or a limit ends it; kill what is left and reap it."""
        pidfd = os.pidfd_open(pid)
        out_r, err_r, ctl_r = readers
        wall_s = float(step["wall_s"])
        readable, _, _ = select.select([out_r, err_r, pidfd], [], [], min(wall_s, CONTROL_POLL_S))
        output_bytes = int(step["output_bytes"])
        deadline = started + wall_s
        buffers: dict[int, bytearray] = {out_r: bytearray(), err_r: bytearray(), ctl_r: bytearray()}
        caps = {out_r: output_bytes, err_r: output_bytes, ctl_r: CONTROL_LIMIT}
        truncated = {out_r: False, err_r: False, ctl_r: False}
        open_fds = [out_r, err_r]  # the control pipe is read at each wake-up instead (see the module docstring)
        control_open = True
        timed_out = output_limited = exited = False
        status = 0
        cpu_s: float | None = None
        # A harness step owes a number of results, each within its budget of the previous one; a test that outlives
        # it (in code its own alarm cannot interrupt) ends the run here, and the host continues after it.
        clock = ResultClock(step["results"], started) if step.get("results") else None
        while True:
            for fd in readable:
                if fd == pidfd:
                    # The program is over: whatever it left running dies now, which also closes the pipes.
                    status, cpu_s = self._end_run(pid)
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
                    output_limited = True
                else:
                    buffers[fd] += chunk
            if output_limited:
                break
            if control_open and not exited:  # (once the program is over, _drain reads the rest)
                control_open = _read_available(ctl_r, buffers[ctl_r], CONTROL_LIMIT, truncated)
                if clock is not None:
                    clock.update(buffers[ctl_r], time.monotonic())
            now = time.monotonic()
            limit = min(deadline, clock.deadline) if clock is not None and clock.deadline is not None else deadline
            if now >= limit:
                timed_out = not exited
                break
            watch = open_fds + ([] if exited else [pidfd])
            if not watch:
                break
            timeout = min(limit - now, CONTROL_POLL_S) if control_open else limit - now
            readable, _, _ = select.select(watch, [], [], timeout)
        if not exited:
            status, cpu_s = self._end_run(pid)
        wall = time.monotonic() - started
        self._drain(open_fds + ([ctl_r] if control_open else []), buffers, caps, truncated)
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
            "cpu_s": cpu_s,
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
                try:
                    chunk = os.read(fd, READ_CHUNK)
                except BlockingIOError:
                    continue
                if not chunk:
                    open_fds.remove(fd)
                    continue
                room = caps[fd] - len(buffers[fd])
                buffers[fd] += chunk[: max(room, 0)]
                if len(chunk) > room:
                    truncated[fd] = True

    def run_job(self, job: dict[str, Any]) -> dict[str, Any]:
        workdir = self.workdir
        try:
            os.mkdir(workdir, 0o700)
        except FileExistsError:
            _remove_tree(workdir)  # what an earlier removal left behind
            os.mkdir(workdir, 0o700)
        results: list[dict[str, Any]] = []
        try:
            if self.uid >= 0:
                os.chown(workdir, self.uid, self.uid)
            for name, content in (job.get("files") or {}).items():
                self._write_file(workdir, name, content)
            failed = False
            for step in job["steps"]:
                if failed or self.broken:
                    results.append({"skipped": True})
                    continue
                result = self.run_step(step)
                results.append(result)
                if step.get("stop_on_failure") and (result["returncode"] != 0 or result["timed_out"]):
                    failed = True
        finally:
            _remove_tree(workdir)
        return {"id": job.get("id"), "steps": results}

    def _write_file(self, workdir: str, name: str, content: str) -> None:
        """Write one of the job's files (owned by the run's uid), creating its folders inside ``workdir``."""
        path = os.path.normpath(os.path.join(workdir, name))
        if not path.startswith(workdir + os.sep):
            raise ValueError(f"file name escapes the work directory: {name!r}")
        folder = workdir
        for part in os.path.relpath(os.path.dirname(path), workdir).split(os.sep):
            if part in ("", "."):
                continue
            folder = os.path.join(folder, part)
            if not os.path.isdir(folder):
                os.mkdir(folder, 0o755)
                if self.uid >= 0:
                    os.chown(folder, self.uid, self.uid)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
        try:
            if self.uid >= 0:
                os.fchown(fd, self.uid, self.uid)
            data = content.encode("utf-8")
            while data:
                data = data[os.write(fd, data) :]
        finally:
            os.close(fd)

    def serve(self, filtered: bool) -> None:
        """Answer jobs until the host closes our stdin; a dead zygote ends the server (the host starts a new one)."""
        _write_all(1, (json.dumps({"ready": True, "syscall_filter": filtered}) + "\n").encode("utf-8"))
        for line in sys.stdin.buffer:
            if not line.strip():
                continue
            try:
                reply = self.run_job(json.loads(line))
            except Exception as exc:
                reply = {"error": f"{type(exc).__name__}: {exc}"}
            _write_all(1, json.dumps(reply).encode("utf-8") + b"\n")
            if self.broken:
                return  # without a zygote no program can run here: the host starts a fresh server
            self._after_job()

    def _after_job(self) -> None:
        """Empty the shared scratch folders a program could leave files in for a later job."""
        for folder in self.scratch:
            try:
                entries = os.listdir(folder)
            except OSError:
                continue
            for name in entries:
                path = os.path.join(folder, name)
                if path != self.workroot and not self.workroot.startswith(path + os.sep):
                    _remove_tree(path) if os.path.isdir(path) and not os.path.islink(path) else _unlink(path)


# A step whose program took the sandbox's own processes down with it (see Server.broken).
LOST_STEP: dict[str, Any] = {
    "returncode": None, "signal": None, "stdout": "", "stderr": "", "stdout_truncated": False,
    "stderr_truncated": False, "control": "", "timed_out": False, "output_limited": False, "wall_s": 0.0,
    "cpu_s": None, "skipped": False, "lost": True,
}  # fmt: skip


class ZygoteGone(Exception):
    """The zygote stopped answering: this server cannot run programs any more."""


def _receive_with_fds(sock: socket.socket) -> tuple[bytes, list[int]]:
    fds = array.array("i")
    message, ancillary, _, _ = sock.recvmsg(1 << 20, socket.CMSG_LEN(8 * fds.itemsize))
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(data[: len(data) - (len(data) % fds.itemsize)])
    return message, list(fds)


def _write_private(path: str, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    try:
        _write_all(fd, data)
    finally:
        os.close(fd)


class ResultClock:
    """When a harness step's next result is due: each within its budget of the previous one's arrival.

    The clock is this process's, reading the control channel at least every ``CONTROL_POLL_S`` while the program
    runs; the program can neither move it nor buy time with look-alike records (only the next index in order counts,
    and a ``loaded`` record can only bring the first deadline forward).
    """

    def __init__(self, spec: dict[str, Any], started: float) -> None:
        self.next = int(spec["first"])
        self.end = self.next + int(spec["count"])
        self.budget = float(spec["per_test_s"]) + HARD_GRACE_S
        self.deadline: float | None = started + float(spec["load_s"]) + self.budget if self.next < self.end else None
        self.seen = 0

    def update(self, control: bytearray, now: float) -> None:
        end = control.rfind(b"\n")
        if end < self.seen:
            return
        for line in bytes(control[self.seen : end]).split(b"\n"):
            if self.deadline is None:
                break
            if b'"event"' not in line:
                continue
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if not isinstance(record, dict):
                continue
            event = record.get("event")
            if event == "loaded":
                self.deadline = min(self.deadline, now + self.budget)
            elif event == "test" and record.get("index") == self.next:
                self.next += 1
                self.deadline = now + self.budget if self.next < self.end else None
        self.seen = end + 1


def _read_available(fd: int, buffer: bytearray, cap: int, truncated: dict[int, bool]) -> bool:
    """Append what a non-blocking pipe holds now (within ``cap``); False once its writers are gone."""
    while True:
        try:
            chunk = os.read(fd, READ_CHUNK)
        except BlockingIOError:
            return True
        if not chunk:
            return False
        room = cap - len(buffer)
        if len(chunk) > room:
            truncated[fd] = True
        buffer += chunk[: max(room, 0)]


def _prepare_child_stdio() -> tuple[io.TextIOWrapper, io.TextIOWrapper, io.TextIOWrapper]:
    """Text streams on descriptors 0, 1 and 2 for the children; the server itself never touches them.

    Each child inherits an untouched copy, which saves it building three io stacks of its own. They are made while
    0 is /dev/null and 1 and 2 are a pipe, what a child has there (the stdin file is seekable like /dev/null), so the
    seekability they cache is right.
    """
    saved = [os.dup(fd) for fd in (0, 1, 2)]
    null_fd = os.open(os.devnull, os.O_RDONLY)
    pipe_r, pipe_w = os.pipe()
    try:
        os.dup2(null_fd, 0)
        os.dup2(pipe_w, 1)
        os.dup2(pipe_w, 2)
        stdin = open(0, encoding="utf-8", errors="surrogateescape", closefd=False)  # noqa: SIM115
        stdout = open(1, "w", encoding="utf-8", errors="backslashreplace", closefd=False)  # noqa: SIM115
        stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False, buffering=1)  # noqa: SIM115
    finally:
        for fd, original in zip((0, 1, 2), saved):
            os.dup2(original, fd)
            os.close(original)
        for fd in (null_fd, pipe_r, pipe_w):
            os.close(fd)
    return stdin, stdout, stderr


def _prepare_child_main(filename: str) -> types.ModuleType:
    """The ``__main__`` module a child runs its program in (each child has its own copy)."""
    main = types.ModuleType("__main__")
    main.__dict__.update({"__file__": filename, "__builtins__": builtins, "__cached__": None})
    return main


CHILDREN_FILE = f"/proc/self/task/{os.getpid()}/children"


def _reap_finished(pids: list[int]) -> list[int]:
    """Reap those of these children that have ended; the ones still running."""
    live = []
    for pid in pids:
        try:
            reaped, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            continue
        if reaped == 0:
            live.append(pid)
    return live


def _write_all(fd: int, data: bytes) -> None:
    while data:
        data = data[os.write(fd, data) :]


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _children() -> list[int]:
    """Pids of this (single-threaded) process's children, zombies included."""
    fd = os.open(CHILDREN_FILE, os.O_RDONLY)
    try:
        data = os.read(fd, 1 << 20)
    finally:
        os.close(fd)
    return [int(pid) for pid in data.split()]


def _kill_pids(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            continue


def _remove_tree(path: str) -> None:
    """Remove a finished run's work directory (its processes are dead, so nothing changes under us)."""
    try:
        with os.scandir(path) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    _remove_tree(entry.path)
                else:
                    os.unlink(entry.path)
        os.rmdir(path)
    except OSError:
        shutil.rmtree(path, ignore_errors=True)  # odd modes or names the plain walk could not handle


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


# ---- the system-call filter ---------------------------------------------------------------------------------------

# Calls no program needs and that widen what it can reach: new namespaces (a user namespace would give it root
# powers over fresh mounts), tracing or reading other processes, loading kernel code, mounting, io_uring and the
# other interfaces where kernel exploits usually start. Numbers per architecture, from the kernel's syscall tables.
_DENIED_CALLS = (
    "unshare", "setns", "ptrace", "process_vm_readv", "process_vm_writev", "bpf", "perf_event_open", "userfaultfd",
    "keyctl", "add_key", "request_key", "io_uring_setup", "mount", "umount2", "pivot_root", "kexec_load",
    "init_module", "finit_module", "delete_module",
)  # fmt: skip
_SYSCALLS = {
    "x86_64": (0xC000003E, {
        "unshare": 272, "setns": 308, "ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311, "bpf": 321,
        "perf_event_open": 298, "userfaultfd": 323, "keyctl": 250, "add_key": 248, "request_key": 249,
        "io_uring_setup": 425, "mount": 165, "umount2": 166, "pivot_root": 155, "kexec_load": 246,
        "init_module": 175, "finit_module": 313, "delete_module": 176, "clone": 56, "clone3": 435,
    }),
    "aarch64": (0xC00000B7, {
        "unshare": 97, "setns": 268, "ptrace": 117, "process_vm_readv": 270, "process_vm_writev": 271, "bpf": 280,
        "perf_event_open": 241, "userfaultfd": 282, "keyctl": 219, "add_key": 217, "request_key": 218,
        "io_uring_setup": 425, "mount": 40, "umount2": 39, "pivot_root": 41, "kexec_load": 104,
        "init_module": 105, "finit_module": 273, "delete_module": 106, "clone": 220, "clone3": 435,
    }),
}  # fmt: skip
_CLONE_NAMESPACE_FLAGS = 0x7E020000  # CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET
_X32_SYSCALL_BIT = 0x40000000
_BPF_LD_W_ABS, _BPF_JEQ_K, _BPF_JGE_K, _BPF_JSET_K, _BPF_RET_K = 0x20, 0x15, 0x35, 0x45, 0x06
_RET_ALLOW, _RET_ERRNO = 0x7FFF0000, 0x00050000
_EPERM, _ENOSYS = 1, 38


def _filter_program(machine: str) -> bytes | None:
    """The classic-BPF seccomp program for this architecture (None where we have no syscall table).

    Other ABIs on the same kernel (i386 through ``int 0x80``, x32) are refused outright, so numbers cannot be
    smuggled past the table. ``clone3`` answers ENOSYS (its flags are out of the filter's reach), and the C library
    then falls back to ``clone``, whose namespace flags are checked.
    """
    if machine not in _SYSCALLS:
        return None
    arch, numbers = _SYSCALLS[machine]
    program: list[list[Any]] = []
    labels: dict[str, int] = {}

    def add(code: int, k: int, jt: str | None = None, jf: str | None = None) -> None:
        program.append([code, jt, jf, k])

    add(_BPF_LD_W_ABS, 4)  # seccomp_data.arch
    add(_BPF_JEQ_K, arch, jt="native", jf="deny")
    labels["native"] = len(program)
    add(_BPF_LD_W_ABS, 0)  # seccomp_data.nr
    if machine == "x86_64":
        add(_BPF_JGE_K, _X32_SYSCALL_BIT, jt="deny")
    for name in _DENIED_CALLS:
        add(_BPF_JEQ_K, numbers[name], jt="deny")
    add(_BPF_JEQ_K, numbers["clone"], jt="clone")
    add(_BPF_JEQ_K, numbers["clone3"], jt="nosys")
    add(_BPF_RET_K, _RET_ALLOW)
    labels["clone"] = len(program)
    add(_BPF_LD_W_ABS, 16)  # the low half of args[0]: clone's flags
    add(_BPF_JSET_K, _CLONE_NAMESPACE_FLAGS, jt="deny")
    add(_BPF_RET_K, _RET_ALLOW)
    labels["deny"] = len(program)
    add(_BPF_RET_K, _RET_ERRNO | _EPERM)
    labels["nosys"] = len(program)
    add(_BPF_RET_K, _RET_ERRNO | _ENOSYS)
    encoded = []
    for index, (code, jt, jf, k) in enumerate(program):
        true_offset = labels[jt] - index - 1 if jt else 0
        false_offset = labels[jf] - index - 1 if jf else 0
        encoded.append(struct.pack("HBBI", code, true_offset, false_offset, k))
    return b"".join(encoded)


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def install_syscall_filter() -> bool:
    """Forbid the calls above for this process and everything it will start; False where no table exists."""
    program = _filter_program(os.uname().machine)
    if _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
    if program is None:
        return False
    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = _SockFprog(len(program) // 8, ctypes.addressof(buffer))
    if _libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.c_void_p(ctypes.addressof(fprog)), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP) failed")
    return True


def main(argv: list[str]) -> None:
    workroot, uid, unshare_net = argv[1], int(argv[2]), argv[3] == "1"
    isolated = len(argv) > 4 and argv[4] == "1"  # inside bubblewrap: /tmp and /dev/shm are the sandbox's own
    sys.path.insert(0, os.path.dirname(os.path.abspath(argv[0])))
    for module in HARNESS_MODULES.values():
        __import__(module)
    os.chmod(workroot, 0o711)
    if isolated and os.getuid() == 0:
        os.chmod("/tmp", 0o711)  # our own tmpfs: children may only use their work dir
    # Whatever a run leaves behind is reparented to us rather than to init, so _kill_run can see it cheaply.
    if _libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER) failed")
    if unshare_net:
        _try_unshare_net()
    filtered = install_syscall_filter()
    # Not dumpable: a program running as our own uid (no root here) can neither trace us nor open /proc/<us>/fd.
    _libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    server = Server(workroot, uid, isolated)
    os.environ.clear()
    os.environ.update({**BASE_ENV, "HOME": server.workdir, "TMPDIR": server.workdir})
    # Everything imported so far lives as long as the server: keep the collector off those pages in every child.
    gc.collect()
    gc.freeze()
    server.start_zygote()
    server.serve(filtered)


if __name__ == "__main__":
    main(sys.argv)
