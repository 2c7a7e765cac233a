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
from debugtutor.sandbox._isolation import ServerAccount, prepare_host_dir, server_account, server_command
from debugtutor.sandbox._records import Isolation

START_TIMEOUT_S = 30.0
REPLY_GRACE_S = 15.0  # on top of the job's own limits: the server enforces those, this only catches a hung server
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


class ServerProcess:
    """One running server (inside bubblewrap or not); used by one thread at a time."""

    def __init__(self, isolation: Isolation, uid: int, account: ServerAccount | None = None) -> None:
        self.isolation = isolation
        self.uid = uid
        self.account = account or server_account()
        self.host_dir = Path(tempfile.mkdtemp(prefix="debugtutor-sandbox-"))
        prepare_host_dir(self.host_dir, uid if self.account.is_root else self.account.uid)
        command, env = server_command(isolation, self.host_dir, uid, self.account)
        switch_user = self.account.uid != os.getuid()
        if switch_user:  # the server's own work root, for the rlimits level (bubblewrap mounts a tmpfs over it)
            os.chown(self.host_dir / "work", self.account.uid, self.account.gid)
        try:
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=env,
                start_new_session=True,
                user=self.account.uid if switch_user else None,
                group=self.account.gid if switch_user else None,
                extra_groups=[] if switch_user else None,
                cwd=self.host_dir if switch_user else None,
            )
        except OSError as exc:
            shutil.rmtree(self.host_dir, ignore_errors=True)
            raise SandboxError(f"could not start the sandbox server ({command[0]}): {exc}") from exc
        self._buffer = b""
        ready = self._read_line(time.monotonic() + START_TIMEOUT_S)
        if not ready.get("ready"):
            self.close()
            raise SandboxError(f"the sandbox server did not start: {ready}")
        self.syscall_filter = bool(ready.get("syscall_filter"))

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
        try:
            reply = json.loads(line)
        except ValueError as exc:
            self.close()
            raise SandboxError(f"the sandbox server sent a malformed answer: {exc}") from exc
        if not isinstance(reply, dict):
            self.close()
            raise SandboxError("the sandbox server sent a malformed answer")
        return reply

    def rss_bytes(self) -> int:
        """Resident memory of the server and everything under it (bwrap, the Python server, running children)."""
        return sum(_rss_bytes(pid) for pid in _process_tree(self.process.pid))

    def cpu_seconds(self) -> float:
        """CPU time used so far by the server's processes and by every program they have reaped.

        A job's worker exits right after its answer, and its time moves into the server's count when the server
        reaps it: a reading that straddles that moment would miss or double it, so the tree is read until it is the
        same before and after."""
        total = 0.0
        for _ in range(100):
            before = _process_tree(self.process.pid)
            times = [_cpu_seconds(pid) for pid in before]
            total = sum(value or 0.0 for value in times)
            if None not in times and _process_tree(self.process.pid) == before:
                return total
            time.sleep(0.005)  # a worker that exited but is not reaped yet shows no times: wait for the reap
        return total

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


def _cpu_seconds(pid: int) -> float | None:
    """The process's CPU time and its reaped children's; 0 when it is gone, None while it is a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    # state is field 3; utime, stime, cutime, cstime fields 14-17, counted after the parenthesised command name
    # (which may hold spaces)
    fields = stat.rsplit(")", 1)[1].split()
    if fields[0] == "Z":
        return None
    return sum(int(value) for value in fields[11:15]) / CLOCK_TICKS
