"""Records of the sandbox: requests and their limits going in, typed outcomes coming out.

These records are the contract other parts of debugtutor code against (see ``debugtutor.sandbox``), and they travel
as plain JSON to Ray workers, so they hold only JSON-friendly values.
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

Isolation = Literal["bwrap", "rlimits"]
Language = Literal["python", "cpp", "java"]
CompareMode = Literal["exact", "unordered", "float"]


class RunBudget(NamedTuple):
    """The wall-clock and CPU seconds one process of a run may take."""

    wall_s: float
    cpu_s: float


# Reporting slack per test: a result written right at the end of its budget still arrives in time.
TEST_SLACK_S = 0.25


class Limits(BaseModel):
    """Every budget of one run: time, memory, processes, output and files.

    Time budgets, in one order of precedence (each rule applies only where the ones before it do not):

    1. ``reference_s`` set: the budget is ``time_limit_from_reference(reference_s, reference_factor,
       reference_floor_s)``: for a whole program its wall time, for tests and calls each test's budget.
    2. ``per_test_s`` set: each test line or call gets that many seconds (whole programs ignore it).
    3. ``wall_s``: a whole program's wall time; for tests and calls, loading the code (and each test's budget when
       nothing above applies).

    A suite of N tests or calls runs in one process whose wall budget is ``wall_s + N * (test budget + 0.25)``
    (:meth:`suite_budget`). ``cpu_s`` caps each process's CPU seconds; unset, it equals that process's wall budget.
    Compilation (C++, Java) has its own fixed budget and is not counted here.
    """

    model_config = ConfigDict(frozen=True)

    wall_s: float = Field(default=10.0, gt=0)
    """A whole program's wall-clock seconds; for tests and calls, the seconds to load the code."""
    cpu_s: float | None = Field(default=None, gt=0)
    """CPU seconds per process; None means the process's wall budget."""
    per_test_s: float | None = Field(default=None, gt=0)
    """Seconds for each test line or LeetCode call; None means ``wall_s``."""
    reference_s: float | None = Field(default=None, ge=0)
    """A reference solution's measured runtime: when set, the time budgets derive from it (see the class doc)."""
    reference_factor: float = Field(default=4.0, gt=0)
    reference_floor_s: float = Field(default=1.0, gt=0)
    memory_mb: int = Field(default=1024, gt=0)
    """Address space (RLIMIT_AS). The JVM gets this as its heap and a larger address space for its own reservations."""
    max_processes: int = Field(default=32, gt=0)
    """Processes and threads the run's unprivileged uid may have at once (RLIMIT_NPROC)."""
    output_bytes: int = Field(default=1_000_000, gt=0)
    """Bytes kept of stdout and of stderr; more than this stops the run with status ``output_limit``."""
    file_bytes: int = Field(default=16_000_000, gt=0)
    """Largest file the program may write (RLIMIT_FSIZE)."""

    def _from_reference(self) -> float | None:
        if self.reference_s is None:
            return None
        return time_limit_from_reference(self.reference_s, factor=self.reference_factor, floor_s=self.reference_floor_s)

    @property
    def test_s(self) -> float:
        """The budget of one test line or call."""
        derived = self._from_reference()
        if derived is not None:
            return derived
        return self.per_test_s if self.per_test_s is not None else self.wall_s

    def program_budget(self) -> RunBudget:
        """The budget of a whole program's process."""
        derived = self._from_reference()
        wall = derived if derived is not None else self.wall_s
        return RunBudget(wall, self.cpu_s if self.cpu_s is not None else wall)

    def suite_budget(self, count: int) -> RunBudget:
        """The budget of one process that loads the code and then runs ``count`` tests or calls."""
        wall = self.wall_s + max(count, 0) * (self.test_s + TEST_SLACK_S)
        return RunBudget(wall, self.cpu_s if self.cpu_s is not None else wall)


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
    results: list[dict[str, Any]] = Field(default_factory=list)
    """For a request that owes ``results``: the records the program wrote on the judge's channel (fd 3), in index
    order, as far as an unbroken run from index 0 goes; an index written twice comes back as ``{"conflict": true}``
    (see :class:`ProgramRequest`)."""


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


# ---- requests -------------------------------------------------------------------------------------------------------


class ProgramRequest(BaseModel):
    """A whole program to run; its outcome is ``passed`` when it exits 0 within its limits.

    Python ``source`` runs as ``__main__`` from ``main.py`` in a fresh work directory that also holds ``files``
    (relative names), so a harness script can import helper files and print JSON for the caller to read.
    """

    kind: Literal["program"] = "program"
    source: str
    lang: Language = "python"
    stdin: str = ""
    files: dict[str, str] | None = None
    limits: Limits = Field(default_factory=Limits)
    results: int = Field(default=0, ge=0)
    """How many result records the program owes its caller, written as JSON lines ``{"event": "test", "index": i,
    ...}`` on the judge's channel (fd 3, open for C++ and Java too when this is set) rather than on stdout, which
    belongs to the program's own prints and is truncated at the output limit. They come back in
    :attr:`ExecOutcome.results`, read as the harnesses' records are: a record past the first missing index, or a
    second one for an index, is not believed."""


class JudgeRequest(BaseModel):
    """A whole program judged on its stdout: passed or failed (or why it did not finish).

    The comparison is exact modulo trailing whitespace, or token-wise with ``float_tol`` (absolute, relative for
    values above 1); the expected output stays outside the program's process.
    """

    kind: Literal["judge"] = "judge"
    source: str
    lang: Language = "python"
    stdin: str = ""
    expected_stdout: str
    float_tol: float | None = None
    limits: Limits = Field(default_factory=Limits)


class PythonTestsRequest(BaseModel):
    """Assert-style test lines run against the module namespace of ``code``: one outcome per line.

    Each ``assert`` is judged outside the program's process: only the sub-expressions that call into the program run
    there, and their values come back as plain data (see ``_test_plans``), so nothing the program writes can pass a
    test for it. The lines run in order in one fresh process, each assert or expression line with the test budget of
    ``limits``; other statements (imports, node construction) run in the shared namespace so later lines see them. A
    line that overruns its budget in a way its alarm cannot stop, or ends the process, is reported as such, and the
    lines after it continue in a new process.
    """

    kind: Literal["python_tests"] = "python_tests"
    code: str
    tests: list[str]
    setup: str = ""
    limits: Limits = Field(default_factory=Limits)


class LeetCodeRequest(BaseModel):
    """A ``class Solution`` method called once per call (Python, C++ or Java); C++ and Java compile one generated
    program for all calls.

    With ``expected=None`` a call passes when it returns, and ``actual`` records the value (an oracle's output).
    The expected values never enter the program's process. A returned iterator (generator, ``map``, ``deque``) reads
    as its list, as on LeetCode. A C++/Java method whose signature the calls do not fit is a ``setup_error`` of type
    ``SignatureError`` with every call failing, not an exception.
    """

    kind: Literal["leetcode"] = "leetcode"
    code: str
    calls: list[LeetCodeCall]
    lang: Language = "python"
    method: str | None = None
    compare: CompareMode = "exact"
    parameter_types: list[str] | None = None
    """The problem's parameter types, in order (a reference solution's hints): they decide how arguments are built
    (``ListNode``/``TreeNode`` or plain), whatever the program's own hints say (Python)."""
    return_type: str | None = None
    limits: Limits = Field(default_factory=Limits)


SandboxRequest = Annotated[
    ProgramRequest | JudgeRequest | PythonTestsRequest | LeetCodeRequest, Field(discriminator="kind")
]
SandboxResult = ExecOutcome | TestReport
