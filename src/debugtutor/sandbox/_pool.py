"""A pool of sandbox servers that runs many programs in parallel, locally or on a Ray cluster.

``SandboxPool(workers=N)`` keeps up to N servers (started on demand, one job each at a time). Every operation is a
request record: :meth:`SandboxPool.run` runs one (``arun`` from a coroutine), :meth:`SandboxPool.map` a batch in
parallel, on local threads (``executor="local"``) or as Ray tasks (``executor="ray"``), where each Ray worker process
keeps its own local pool.
"""

from __future__ import annotations

import asyncio
import atexit
import itertools
import os
import queue
import threading
from collections.abc import Sequence
from typing import Any, Literal, overload

from pydantic import TypeAdapter

from debugtutor.errors import SandboxError, require
from debugtutor.sandbox._isolation import isolation_level, new_uid_block
from debugtutor.sandbox._programs import (
    LOST_STEP,
    judge_program_with,
    run_leetcode_with,
    run_program_with,
    run_python_tests_with,
)
from debugtutor.sandbox._records import (
    ExecOutcome,
    Isolation,
    JudgeRequest,
    LeetCodeRequest,
    ProgramRequest,
    PythonTestsRequest,
    SandboxRequest,
    SandboxResult,
    TestReport,
)
from debugtutor.sandbox._server_process import ServerProcess

Executor = Literal["local", "ray"]


_REQUEST_ADAPTER: TypeAdapter[SandboxRequest] = TypeAdapter(SandboxRequest)


class SandboxPool:
    """Up to ``workers`` sandbox servers; thread-safe; close it (or use ``with``) to stop them."""

    def __init__(
        self, workers: int | None = None, *, executor: Executor = "local", isolation: Isolation | None = None
    ) -> None:
        if executor not in ("local", "ray"):
            raise SandboxError(f"unknown executor {executor!r} (local or ray)")
        self.workers = max(1, workers or os.cpu_count() or 1)
        if self.workers > 64:
            raise SandboxError("a pool has at most 64 workers; start several pools for more")
        self.executor: Executor = executor
        self.isolation: Isolation = isolation or isolation_level()
        self._uid_base = new_uid_block()
        self._idle: queue.LifoQueue[ServerProcess] = queue.LifoQueue()
        self._all: list[ServerProcess] = []
        self._free_slots = list(range(self.workers))
        self._lock = threading.Lock()
        self._available = threading.Semaphore(self.workers)
        self._closed = False

    # ---- servers ------------------------------------------------------------------------------------------------

    def _acquire(self) -> ServerProcess:
        self._available.acquire()
        try:
            server = self._idle.get_nowait()
        except queue.Empty:
            server = None
        if server is not None and server.alive:
            return server
        with self._lock:
            if server is not None:
                self._retire(server)
            if self._closed:
                self._available.release()
                raise SandboxError("the sandbox pool is closed")
            slot = self._free_slots.pop()
        try:
            server = ServerProcess(self.isolation, self._uid_base + slot)
        except BaseException:
            with self._lock:
                self._free_slots.append(slot)
            self._available.release()
            raise
        server.slot = slot  # type: ignore[attr-defined]
        with self._lock:
            self._all.append(server)
        return server

    def _retire(self, server: ServerProcess) -> None:
        server.close()
        if server in self._all:
            self._all.remove(server)
            self._free_slots.append(server.slot)  # type: ignore[attr-defined]

    def _release(self, server: ServerProcess) -> None:
        if server.alive and not self._closed:
            self._idle.put(server)
        else:
            with self._lock:
                self._retire(server)
        self._available.release()

    def run_job(self, job: dict[str, Any], budget_s: float) -> dict[str, Any]:
        """Run one raw server job on a free server; a server that died is replaced and the job retried once.

        A server that dies twice while running the same job was taken down by that job's program (possible when the
        servers run as an ordinary user, whose uid the programs share): the job's steps are then reported as lost,
        an outcome of the program, not an error of the sandbox. A server that cannot start is a SandboxError.
        """
        for attempt in range(2):
            server = self._acquire()
            try:
                return server.run(job, budget_s)
            except SandboxError:
                server.close()
                if attempt == 1:
                    return {"steps": [dict(LOST_STEP) for _ in job["steps"]]}
            finally:
                self._release(server)
        raise SandboxError("unreachable")

    def rss_bytes(self) -> int:
        """Resident memory of all servers (and whatever runs under them right now)."""
        with self._lock:
            servers = list(self._all)
        return sum(server.rss_bytes() for server in servers)

    def cpu_seconds(self) -> float:
        """CPU time used by the running servers and the programs they ran (a measure for benchmarks)."""
        with self._lock:
            servers = list(self._all)
        # (rounded: the same ticks summed in another grouping must not read as less time)
        return round(sum(server.cpu_seconds() for server in servers), 6)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            servers, self._all = list(self._all), []
        for server in servers:
            server.close()

    def __enter__(self) -> SandboxPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- operations ---------------------------------------------------------------------------------------------

    @overload
    def run(self, request: ProgramRequest | JudgeRequest) -> ExecOutcome: ...
    @overload
    def run(self, request: PythonTestsRequest | LeetCodeRequest) -> TestReport: ...
    @overload
    def run(self, request: SandboxRequest) -> SandboxResult: ...
    def run(self, request: SandboxRequest) -> SandboxResult:
        """Run one request (locally, or as one Ray task with ``executor="ray"``): an :class:`ExecOutcome` for a
        program, a :class:`TestReport` for tests and calls."""
        if self.executor == "ray":
            return self.map([request])[0]
        return self._execute_local(request)

    @overload
    async def arun(self, request: ProgramRequest | JudgeRequest) -> ExecOutcome: ...
    @overload
    async def arun(self, request: PythonTestsRequest | LeetCodeRequest) -> TestReport: ...
    @overload
    async def arun(self, request: SandboxRequest) -> SandboxResult: ...
    async def arun(self, request: SandboxRequest) -> SandboxResult:
        """:meth:`run` from a coroutine (on a worker thread; the pool bounds the parallelism)."""
        return await asyncio.to_thread(self.run, request)

    def _execute_local(self, request: SandboxRequest) -> SandboxResult:
        runner, isolation = self.run_job, self.isolation
        if isinstance(request, ProgramRequest):
            return run_program_with(runner, isolation, request)
        if isinstance(request, JudgeRequest):
            return judge_program_with(runner, isolation, request)
        if isinstance(request, PythonTestsRequest):
            return run_python_tests_with(runner, isolation, request)
        return run_leetcode_with(runner, isolation, request)

    def map(self, requests: Sequence[SandboxRequest]) -> list[SandboxResult]:
        """Run a batch in parallel, results in request order."""
        if not requests:
            return []
        if self.executor == "ray":
            return _ray_map(list(requests))
        return self._map_local(requests)

    def _map_local(self, requests: Sequence[SandboxRequest]) -> list[SandboxResult]:
        # One thread per worker, each taking the next request until none is left. (An executor's map costs a future
        # and a wake-up of the calling thread per request: about a fifth of the host's CPU for a short program.) As
        # with an executor, every request runs; the first failure in request order is raised afterwards.
        results: list[SandboxResult | None] = [None] * len(requests)
        failures: dict[int, BaseException] = {}
        next_index = itertools.count()  # its next() is atomic, so the threads share it without a lock

        def work() -> None:
            for index in iter(next_index.__next__, None):
                if index >= len(requests):
                    return
                try:
                    results[index] = self._execute_local(requests[index])
                except BaseException as exc:
                    failures[index] = exc

        threads = [threading.Thread(target=work, daemon=True) for _ in range(min(self.workers, len(requests)))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if failures:
            raise failures[min(failures)]
        done = [result for result in results if result is not None]
        if len(done) != len(requests):
            raise SandboxError("a sandbox worker thread ended without a result")
        return done

    async def amap(self, requests: Sequence[SandboxRequest]) -> list[SandboxResult]:
        """:meth:`map` from a coroutine."""
        return await asyncio.to_thread(self.map, requests)


# ---- the default pools and Ray --------------------------------------------------------------------------------------

_default_pools: dict[Isolation, SandboxPool] = {}
_default_lock = threading.Lock()


def default_pool() -> SandboxPool:
    """The process-wide local pool for the current isolation level (servers start on first use)."""
    isolation = isolation_level()
    with _default_lock:
        pool = _default_pools.get(isolation)
        if pool is None or pool._closed:
            pool = SandboxPool(isolation=isolation)
            _default_pools[isolation] = pool
        return pool


@atexit.register
def _close_default_pools() -> None:
    for pool in list(_default_pools.values()):
        pool.close()


def execute_request_dict(request: dict[str, Any]) -> dict[str, Any]:
    """Run one request given as JSON in this process's default pool (the body of a Ray task)."""
    parsed = _REQUEST_ADAPTER.validate_python(request)
    result = default_pool()._execute_local(parsed)
    return {"type": type(result).__name__, "result": result.model_dump(mode="json")}


def _ray_map(requests: list[SandboxRequest]) -> list[SandboxResult]:
    ray: Any = require("ray", feature="the ray executor", extra="ray")
    if not ray.is_initialized():
        ray.init(address=os.environ.get("RAY_ADDRESS"), include_dashboard=False, log_to_driver=False)
    remote = ray.remote(execute_request_dict)
    refs = [remote.remote(request.model_dump(mode="json")) for request in requests]
    results: list[SandboxResult] = []
    for reply in ray.get(refs):
        model = ExecOutcome if reply["type"] == "ExecOutcome" else TestReport
        results.append(model.model_validate(reply["result"]))
    return results
