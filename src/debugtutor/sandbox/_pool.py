"""A pool of sandbox servers that runs many programs in parallel, locally or on a Ray cluster.

``SandboxPool(workers=N)`` keeps up to N servers (started on demand, one job each at a time). Every public operation
exists as a method (sync), an ``a``-prefixed coroutine, and as a request record for :meth:`SandboxPool.map`, which
runs a batch in parallel: on local threads (``executor="local"``) or as Ray tasks (``executor="ray"``), where each
Ray worker process keeps its own local pool.
"""

from __future__ import annotations

import asyncio
import atexit
import itertools
import os
import queue
import threading
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter

from debugtutor.errors import SandboxError, require
from debugtutor.sandbox._isolation import isolation_level, new_uid_block
from debugtutor.sandbox._models import ExecOutcome, Isolation, Language, LeetCodeCall, Limits, TestReport
from debugtutor.sandbox._programs import (
    LOST_STEP,
    CompareMode,
    judge_program_with,
    run_leetcode_with,
    run_program_with,
    run_python_tests_with,
)
from debugtutor.sandbox._server_process import ServerProcess

Executor = Literal["local", "ray"]


class ProgramRequest(BaseModel):
    """A whole program to run (see :func:`debugtutor.sandbox.run_program`)."""

    kind: Literal["program"] = "program"
    source: str
    lang: Language = "python"
    stdin: str = ""
    files: dict[str, str] | None = None
    limits: Limits = Field(default_factory=Limits)


class JudgeRequest(BaseModel):
    """A whole program judged on its stdout (see :func:`debugtutor.sandbox.judge_program`)."""

    kind: Literal["judge"] = "judge"
    source: str
    lang: Language = "python"
    stdin: str = ""
    expected_stdout: str
    float_tol: float | None = None
    limits: Limits = Field(default_factory=Limits)
    reference_s: float | None = None


class PythonTestsRequest(BaseModel):
    """Python code against assert-style tests (see :func:`debugtutor.sandbox.run_python_tests`)."""

    kind: Literal["python_tests"] = "python_tests"
    code: str
    tests: list[str]
    limits: Limits = Field(default_factory=Limits)
    per_test_timeout_s: float | None = None
    setup: str = ""
    reference_s: float | None = None


class LeetCodeRequest(BaseModel):
    """A ``class Solution`` method called with LeetCode arguments (see :func:`debugtutor.sandbox.run_leetcode`)."""

    kind: Literal["leetcode"] = "leetcode"
    code: str
    calls: list[LeetCodeCall]
    lang: Language = "python"
    method: str | None = None
    limits: Limits = Field(default_factory=Limits)
    compare: CompareMode = "exact"
    per_test_timeout_s: float | None = None
    reference_s: float | None = None
    parameter_types: list[str] | None = None
    """The problem's parameter types, in order (a reference solution's hints): they decide how arguments are built
    (``ListNode``/``TreeNode`` or plain), whatever the program's own hints say (Python)."""
    return_type: str | None = None


SandboxRequest = Annotated[
    ProgramRequest | JudgeRequest | PythonTestsRequest | LeetCodeRequest, Field(discriminator="kind")
]
SandboxResult = ExecOutcome | TestReport
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

    def execute(self, request: SandboxRequest) -> SandboxResult:
        """Run one request (locally, or as one Ray task with ``executor="ray"``)."""
        if self.executor == "ray":
            return self.map([request])[0]
        return self._execute_local(request)

    def _execute_local(self, request: SandboxRequest) -> SandboxResult:
        runner, isolation = self.run_job, self.isolation
        if isinstance(request, ProgramRequest):
            return run_program_with(
                runner, isolation, request.source, lang=request.lang, stdin=request.stdin, files=request.files,
                limits=request.limits,
            )  # fmt: skip
        if isinstance(request, JudgeRequest):
            return judge_program_with(
                runner, isolation, request.source, lang=request.lang, stdin=request.stdin,
                expected_stdout=request.expected_stdout, float_tol=request.float_tol, limits=request.limits,
                reference_s=request.reference_s,
            )  # fmt: skip
        if isinstance(request, PythonTestsRequest):
            return run_python_tests_with(
                runner, isolation, request.code, request.tests, limits=request.limits,
                per_test_timeout_s=request.per_test_timeout_s, setup=request.setup, reference_s=request.reference_s,
            )  # fmt: skip
        return run_leetcode_with(
            runner, isolation, request.code, request.calls, lang=request.lang, method=request.method,
            limits=request.limits, compare=request.compare, per_test_timeout_s=request.per_test_timeout_s,
            reference_s=request.reference_s, parameter_types=request.parameter_types,
            return_type=request.return_type,
        )  # fmt: skip

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
        return await asyncio.to_thread(self.map, requests)

    def run_program(
        self, source: str, *, lang: Language = "python", stdin: str = "", files: dict[str, str] | None = None,
        limits: Limits | None = None,
    ) -> ExecOutcome:  # fmt: skip
        request = ProgramRequest(source=source, lang=lang, stdin=stdin, files=files, limits=limits or Limits())
        return _as_outcome(self.execute(request))

    def judge_program(
        self, source: str, *, lang: Language = "python", stdin: str = "", expected_stdout: str,
        float_tol: float | None = None, limits: Limits | None = None, reference_s: float | None = None,
    ) -> ExecOutcome:  # fmt: skip
        request = JudgeRequest(
            source=source, lang=lang, stdin=stdin, expected_stdout=expected_stdout, float_tol=float_tol,
            limits=limits or Limits(), reference_s=reference_s,
        )  # fmt: skip
        return _as_outcome(self.execute(request))

    def run_python_tests(
        self, code: str, tests: list[str], *, limits: Limits | None = None, per_test_timeout_s: float | None = None,
        setup: str = "", reference_s: float | None = None,
    ) -> TestReport:  # fmt: skip
        request = PythonTestsRequest(
            code=code, tests=list(tests), limits=limits or Limits(), per_test_timeout_s=per_test_timeout_s,
            setup=setup, reference_s=reference_s,
        )  # fmt: skip
        return _as_report(self.execute(request))

    def run_leetcode(
        self, code: str, calls: list[LeetCodeCall], *, lang: Language = "python", method: str | None = None,
        limits: Limits | None = None, compare: CompareMode = "exact", per_test_timeout_s: float | None = None,
        reference_s: float | None = None, parameter_types: list[str] | None = None,
    return_type: str | None = None,
    ) -> TestReport:  # fmt: skip
        request = LeetCodeRequest(
            code=code, calls=list(calls), lang=lang, method=method, limits=limits or Limits(), compare=compare,
            per_test_timeout_s=per_test_timeout_s, reference_s=reference_s, parameter_types=parameter_types,
        return_type=return_type,
        )  # fmt: skip
        return _as_report(self.execute(request))

    async def arun_program(self, source: str, **kwargs: Any) -> ExecOutcome:
        return await asyncio.to_thread(lambda: self.run_program(source, **kwargs))

    async def ajudge_program(self, source: str, **kwargs: Any) -> ExecOutcome:
        return await asyncio.to_thread(lambda: self.judge_program(source, **kwargs))

    async def arun_python_tests(self, code: str, tests: list[str], **kwargs: Any) -> TestReport:
        return await asyncio.to_thread(lambda: self.run_python_tests(code, tests, **kwargs))

    async def arun_leetcode(self, code: str, calls: list[LeetCodeCall], **kwargs: Any) -> TestReport:
        return await asyncio.to_thread(lambda: self.run_leetcode(code, calls, **kwargs))


def _as_outcome(result: SandboxResult) -> ExecOutcome:
    if not isinstance(result, ExecOutcome):
        raise SandboxError(f"expected an ExecOutcome, got {type(result).__name__}")
    return result


def _as_report(result: SandboxResult) -> TestReport:
    if not isinstance(result, TestReport):
        raise SandboxError(f"expected a TestReport, got {type(result).__name__}")
    return result


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
