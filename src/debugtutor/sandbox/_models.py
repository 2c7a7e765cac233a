"""Records of the sandbox: limits going in, typed outcomes coming out.

These pydantic models are the contract other parts of debugtutor code against (see ``debugtutor.sandbox``), and they
travel as plain JSON to Ray workers, so they hold only JSON-friendly values.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Isolation = Literal["bwrap", "rlimits"]
Language = Literal["python", "cpp", "java"]


class Limits(BaseModel):
    """Resource limits for one run; ``cpu_s`` defaults to ``wall_s``."""

    model_config = ConfigDict(frozen=True)

    wall_s: float = Field(default=10.0, gt=0)
    """Wall-clock seconds for the whole run (per test: see ``per_test_timeout_s``)."""
    cpu_s: float | None = Field(default=None, gt=0)
    """CPU seconds per process; None means the same as ``wall_s``."""
    memory_mb: int = Field(default=1024, gt=0)
    """Address space (RLIMIT_AS). The JVM gets this as its heap and a larger address space for its own reservations."""
    max_processes: int = Field(default=32, gt=0)
    """Processes and threads the run's unprivileged uid may have at once (RLIMIT_NPROC)."""
    output_bytes: int = Field(default=1_000_000, gt=0)
    """Bytes kept of stdout and of stderr; more than this stops the run with status ``output_limit``."""
    file_bytes: int = Field(default=16_000_000, gt=0)
    """Largest file the program may write (RLIMIT_FSIZE)."""

    @property
    def effective_cpu_s(self) -> float:
        return self.cpu_s if self.cpu_s is not None else self.wall_s


class Status(str, Enum):
    """How a run or a test ended."""

    passed = "passed"
    failed = "failed"
    error = "error"
    timeout = "timeout"
    memory = "memory"
    compile_error = "compile_error"
    output_limit = "output_limit"


class ExceptionInfo(BaseModel):
    """An uncaught exception; ``line`` is the line in the user's (student's) code, when the traceback reaches it."""

    type: str
    message: str
    line: int | None = None


class ExecOutcome(BaseModel):
    """The outcome of one whole program."""

    status: Status
    returncode: int | None
    stdout: str
    stderr: str
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    wall_s: float
    cpu_s: float | None = None
    isolation: Isolation
    compile_output: str | None = None
    """The compiler's message when ``status`` is ``compile_error`` (also kept for warnings otherwise)."""
    exception: ExceptionInfo | None = None
    """The uncaught Python exception, when one ended the program."""


class TestOutcome(BaseModel):
    """One test line (or one LeetCode call) and how it went."""

    __test__ = False  # a record, not a pytest test class

    index: int
    source: str
    status: Status
    actual: str | None = None
    """repr of the evaluated left side of ``assert X == Y`` (json.dumps of the result for LeetCode calls)."""
    expected: str | None = None
    """repr of the evaluated right side (json.dumps of the expected value for LeetCode calls)."""
    exception: ExceptionInfo | None = None
    wall_s: float = 0.0


class TestReport(BaseModel):
    """All tests of one piece of code: ``status`` is passed iff every test passed."""

    __test__ = False

    status: Status
    tests: list[TestOutcome]
    setup_error: ExceptionInfo | None = None
    """The code did not load (SyntaxError, an exception at import time, a compile error)."""
    isolation: Isolation
    wall_s: float
    stdout: str = ""
    """What the program printed (truncated to the output limit), for diagnostics."""
    stderr: str = ""

    @property
    def passed(self) -> int:
        return sum(1 for test in self.tests if test.status is Status.passed)

    @property
    def failed(self) -> int:
        return len(self.tests) - self.passed


class LeetCodeCall(BaseModel):
    """One call of a ``class Solution`` method: arguments and expected value in LeetCode list notation."""

    args: dict[str, Any]
    expected: Any | None = None


def time_limit_from_reference(reference_s: float, *, factor: float = 4.0, floor_s: float = 1.0) -> float:
    """A time limit scaled from a reference solution's measured runtime: ``max(floor_s, factor * reference_s)``.

    Buggy code often loops forever, so limits should be tight, but not tighter than the reference needs on a busy
    machine; the floor covers interpreter and JVM start-up noise.
    """
    if reference_s < 0:
        raise ValueError("reference_s must be >= 0")
    return max(floor_s, factor * reference_s)
