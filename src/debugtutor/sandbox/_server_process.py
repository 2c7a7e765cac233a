"""The host's handle on one sandbox server process: start it, send it a job, read the answer, stop it."""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from debugtutor.errors import SandboxError
from debugtutor.sandbox._isolation import prepare_host_dir, server_command
from debugtutor.sandbox._models import Isolation

START_TIMEOUT_S = 30.0
REPLY_GRACE_S = 15.0  # on top of the job's own limits: the server enforces those, this only catches a hung server
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


class ServerProcess:
    """One running server (inside bubblewrap or not); used by one thread at a time."""

    def __init__(self, isolation: Isolation, uid: int) -> None:
        self.isolation = isolation
        self.uid = uid
        self.host_dir = Path(tempfile.mkdtemp(prefix="debugtutor-sandbox-"))
        prepare_host_dir(self.host_dir)
        command, env = server_command(isolation, self.host_dir, uid)
        try:
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=env,
                start_new_session=True,
            )
        except OSError as exc:
            shutil.rmtree(self.host_dir, ignore_errors=True)
            raise SandboxError(f"could not start the sandbox server ({command[0]}): {exc}") from exc
        self._buffer = b""
        ready = self._read_line(time.monotonic() + START_TIMEOUT_S)
        if not ready.get("ready"):
            self.close()
            raise SandboxError(f"the sandbox server did not start: {ready}")

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def run(self, job: dict[str, Any], budget_s: float) -> dict[str, Any]:
        """Send one job and wait for its answer; raises SandboxError if the server dies or hangs."""
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps(job).encode("utf-8") + b"\n")
            self.process.stdin.flush()
        except OSError as exc:
            raise SandboxError(f"the sandbox server is gone: {exc}") from exc
        reply = self._read_line(time.monotonic() + budget_s + REPLY_GRACE_S)
        if "error" in reply:
            raise SandboxError(f"the sandbox server could not run the job: {reply['error']}")
        return reply

    def _read_line(self, deadline: float) -> dict[str, Any]:
        assert self.process.stdout is not None
        fd = self.process.stdout.fileno()
        while b"\n" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.close()
                raise SandboxError("the sandbox server stopped answering")
            readable, _, _ = select.select([fd], [], [], remaining)
            if not readable:
                continue
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                self.close()
                raise SandboxError("the sandbox server exited unexpectedly")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        reply: dict[str, Any] = json.loads(line)
        return reply

    def rss_bytes(self) -> int:
        """Resident memory of the server and everything under it (bwrap, the Python server, running children)."""
        return sum(_rss_bytes(pid) for pid in _process_tree(self.process.pid))

    def cpu_seconds(self) -> float:
        """CPU time used so far by the server's processes and by every program they have reaped."""
        return sum(_cpu_seconds(pid) for pid in _process_tree(self.process.pid))

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, 9)
            except OSError:
                self.process.kill()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    continue
        shutil.rmtree(self.host_dir, ignore_errors=True)


def _process_tree(root_pid: int) -> list[int]:
    """``root_pid`` and its descendants, found through each thread's children list (not a scan of all of /proc)."""
    found, stack = [], [root_pid]
    while stack:
        pid = stack.pop()
        found.append(pid)
        try:
            threads = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue  # gone meanwhile
        for tid in threads:
            try:
                stack.extend(int(child) for child in Path(f"/proc/{pid}/task/{tid}/children").read_text().split())
            except OSError:
                continue
    return found


def _rss_bytes(pid: int) -> int:
    try:
        fields = Path(f"/proc/{pid}/statm").read_text().split()
    except OSError:
        return 0
    return int(fields[1]) * PAGE_BYTES


def _cpu_seconds(pid: int) -> float:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    # utime, stime, cutime, cstime: fields 14-17, counted after the parenthesised command name (which may hold spaces)
    fields = stat.rsplit(")", 1)[1].split()
    return sum(int(value) for value in fields[11:15]) / CLOCK_TICKS
