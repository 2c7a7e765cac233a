"""The pool: parallel batches, async twins, isolation reporting, and the Ray executor."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator

import pytest

from debugtutor.errors import InputError, SandboxError
from debugtutor.sandbox import (
    ExecOutcome,
    JudgeRequest,
    LeetCodeCall,
    LeetCodeRequest,
    ProgramRequest,
    PythonTestsRequest,
    SandboxPool,
    SandboxResult,
    Status,
    TestReport,
    arun,
    isolation_level,
    time_limit_from_reference,
)


@pytest.fixture
def pool(isolation: str) -> Iterator[SandboxPool]:
    with SandboxPool(workers=2) as sandbox:
        yield sandbox


def batch() -> list[ProgramRequest | JudgeRequest | PythonTestsRequest | LeetCodeRequest]:
    return [
        ProgramRequest(source="print(sum(range(10)))"),
        JudgeRequest(source="print(input()[::-1])", stdin="abc\n", expected_stdout="cba"),
        PythonTestsRequest(code="def sq(x):\n    return x * x\n", tests=["assert sq(3) == 9", "assert sq(2) == 5"]),
        LeetCodeRequest(
            code="class Solution:\n    def add(self, a: int, b: int) -> int:\n        return a + b\n",
            calls=[LeetCodeCall(args={"a": 1, "b": 2}, expected=3)],
        ),
    ]


def check_batch(results: list[ExecOutcome | TestReport]) -> None:
    assert isinstance(results[0], ExecOutcome) and results[0].stdout == "45\n"
    assert results[1].status is Status.passed
    assert isinstance(results[2], TestReport) and [t.status for t in results[2].tests] == [Status.passed, Status.failed]
    assert isinstance(results[3], TestReport) and results[3].status is Status.passed


def test_map_keeps_order_and_types(pool: SandboxPool) -> None:
    check_batch(pool.map(batch()))


def test_many_programs_in_parallel_each_in_its_own_process(pool: SandboxPool) -> None:
    requests = [ProgramRequest(source=f"import os\nprint({index}, os.getpid())") for index in range(40)]
    results = pool.map(requests)
    assert [int(result.stdout.split()[0]) for result in results if isinstance(result, ExecOutcome)] == list(range(40))
    pids = {result.stdout.split()[1] for result in results if isinstance(result, ExecOutcome)}
    assert len(pids) > 1
    assert pool.rss_bytes() > 0
    assert len(pool._all) <= 2


def test_map_raises_the_first_failure_in_request_order(pool: SandboxPool) -> None:
    bad = ProgramRequest(source="print(1)", files={"main.py": "reserved"})
    with pytest.raises(InputError):
        pool.map([ProgramRequest(source="print(1)"), bad, ProgramRequest(source="print(2)"), bad])
    assert pool.map([ProgramRequest(source="print(3)")])[0].stdout == "3\n"


def test_cpu_seconds_count_the_servers_and_their_programs(pool: SandboxPool) -> None:
    assert pool.cpu_seconds() == 0.0  # no server has started yet
    busy = "total = 0\nfor i in range(3_000_000):\n    total += i\nprint(total)"
    pool.map([ProgramRequest(source=busy) for _ in range(2)])
    spent = pool.cpu_seconds()
    assert spent >= 0.1  # each program alone takes well over 0.05 s of CPU
    pool.run(ProgramRequest(source="print(1)"))
    assert pool.cpu_seconds() >= spent


def test_isolation_is_recorded(isolation: str, pool: SandboxPool) -> None:
    assert pool.isolation == isolation == isolation_level()
    assert pool.run(ProgramRequest(source="print(1)")).isolation == isolation


def test_arun_returns_each_requests_result(isolation: str) -> None:
    async def main() -> list[SandboxResult]:
        return list(
            await asyncio.gather(
                arun(ProgramRequest(source="print(2)")),
                arun(JudgeRequest(source="print(3)", expected_stdout="3")),
                arun(PythonTestsRequest(code="x = 1", tests=["assert x == 1"])),
                arun(
                    LeetCodeRequest(
                        code="class Solution:\n    def one(self) -> int:\n        return 1\n",
                        calls=[LeetCodeCall(args={}, expected=1)],
                    )
                ),
            )
        )

    results = asyncio.run(main())
    assert [type(result).__name__ for result in results] == ["ExecOutcome", "ExecOutcome", "TestReport", "TestReport"]
    assert all(result.status is Status.passed for result in results)


def test_closed_pool_refuses_work() -> None:
    pool = SandboxPool(workers=1)
    pool.close()
    with pytest.raises(SandboxError):
        pool.run(ProgramRequest(source="print(1)"))


def test_unknown_executor_and_sandbox_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SandboxError):
        SandboxPool(executor="dask")  # type: ignore[arg-type]
    monkeypatch.setenv("DEBUGTUTOR_SANDBOX", "docker")
    with pytest.raises(SandboxError):
        isolation_level()


def test_time_limit_from_reference() -> None:
    assert time_limit_from_reference(0.01) == 1.0
    assert time_limit_from_reference(2.0) == 8.0
    assert time_limit_from_reference(2.0, factor=2, floor_s=5) == 5.0
    with pytest.raises(ValueError):
        time_limit_from_reference(-1)


@pytest.mark.ray
@pytest.mark.slow
def test_ray_executor_runs_the_same_jobs() -> None:
    import ray

    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        runtime_env={"env_vars": {"DEBUGTUTOR_SANDBOX": os.environ.get("DEBUGTUTOR_SANDBOX", "auto")}},
    )
    try:
        with SandboxPool(workers=2, executor="ray") as pool:
            check_batch(pool.map(batch()))
            assert pool.run(ProgramRequest(source="print('via ray')")).stdout == "via ray\n"
    finally:
        ray.shutdown()
