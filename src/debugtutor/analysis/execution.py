"""Execution facts about a Python program and its tests: outcomes, per-test line coverage and a line trace.

The program runs only inside :mod:`debugtutor.sandbox`: a harness script (``_trace_harness.py``, shipped in this
package and run as ``__main__`` beside ``student.py`` and ``tests.json``) executes the tests one by one in the
program's namespace under ``sys.settrace`` restricted to ``student.py``. It reports which lines each test ran, how
each test ended (with the values on both sides of ``assert X == Y``), and for one chosen test a bounded trace of the
local variables after each executed line, per call and per repetition of the line (so "what is ``fact`` after line 6
in the first iteration?" is :meth:`ExecutionFacts.value_after`). These facts feed fault localization and ground a
tutor's questions.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from pydantic import BaseModel, Field

from debugtutor.sandbox import ExceptionInfo, Limits, ProgramRequest, Status, run

HARNESS_MARKER = "@@debugtutor-trace@@"
FIRST_FAILING = -1
LOAD_S = 3.0
"""Seconds to load the student's code before its first test (analysis runs)."""
"""Pass as ``trace_test`` to trace the first test that does not pass."""


class UnitTests(BaseModel):
    """Assert-style tests split from a unit-test block: setup code that runs once, then one entry per test."""

    setup: str = ""
    tests: list[str] = Field(default_factory=list)


class TestRun(BaseModel):
    """One test as the tracing harness saw it."""

    __test__ = False  # a record, not a pytest test class

    index: int
    source: str
    status: Status
    covered_lines: list[int] = Field(default_factory=list)
    actual: str | None = None
    expected: str | None = None
    exception: ExceptionInfo | None = None
    stdout: str = ""
    wall_s: float = 0.0


class TraceStep(BaseModel):
    """The local variables of one frame right after ``line`` ran.

    ``call`` numbers the function calls of the traced test from 1; ``hit`` counts how many times this line has run
    in that call (the loop iteration, for a line inside a loop); ``returned`` is set when the frame returned at
    this line."""

    line: int
    function: str
    call: int
    hit: int
    locals: dict[str, str]
    returned: str | None = None


class LineTrace(BaseModel):
    """The bounded trace of one test; ``truncated`` when it stopped at the event limit."""

    test_index: int
    steps: list[TraceStep]
    truncated: bool = False


class ExecutionFacts(BaseModel):
    """Everything one traced run of the tests found out."""

    load_lines: list[int] = Field(default_factory=list)
    load_error: ExceptionInfo | None = None
    tests: list[TestRun] = Field(default_factory=list)
    trace: LineTrace | None = None
    run_status: Status
    isolation: str
    wall_s: float

    def coverage(self) -> dict[int, set[int]]:
        """Lines of the program run by each test (by test index), counting the lines run while it loaded."""
        load = set(self.load_lines)
        return {test.index: load | set(test.covered_lines) for test in self.tests}

    @property
    def failing(self) -> list[TestRun]:
        return [test for test in self.tests if test.status != Status.passed]

    @property
    def passing(self) -> list[TestRun]:
        return [test for test in self.tests if test.status == Status.passed]

    def value_after(self, line: int, name: str, *, hit: int = 1, call: int | None = None) -> str | None:
        """The repr of variable ``name`` right after ``line`` ran for the ``hit``-th time (in call ``call``, or the
        first call that reached it), or None when the trace does not show it."""
        if self.trace is None:
            return None
        for step in self.trace.steps:
            if step.line == line and step.hit == hit and (call is None or step.call == call):
                return step.locals.get(name)
        return None


def split_unit_tests(text: str) -> UnitTests:
    """Split a block of test code into setup and tests.

    Non-assert lines before the first assert (imports, fixtures) are setup. Later non-assert lines (and indented
    continuation lines) join the assert that follows them, so stateful tests keep their order."""
    setup: list[str] = []
    tests: list[str] = []
    pending: list[str] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        if line[:1].isspace() and (pending or tests):
            # a continuation of the previous statement
            if pending:
                pending.append(line)
            else:
                tests[-1] = tests[-1] + "\n" + line
            continue
        if line.startswith("assert"):
            tests.append("\n".join([*pending, line]))
            pending = []
        elif tests:
            pending.append(line)
        else:
            setup.append(line)
    if pending:
        # trailing statements after the last assert still belong to the run
        if tests:
            tests[-1] = tests[-1] + "\n" + "\n".join(pending)
        else:
            setup.extend(pending)
    return UnitTests(setup="\n".join(setup), tests=tests)


@cache
def harness_source() -> str:
    """The text of the in-sandbox tracing harness."""
    return resources.files("debugtutor.analysis").joinpath("_trace_harness.py").read_text(encoding="utf-8")


class _LoadRecord(BaseModel):
    lines: list[int] = Field(default_factory=list)
    error: ExceptionInfo | None = None


class _TestRecord(BaseModel):
    index: int
    status: Status
    lines: list[int] = Field(default_factory=list)
    actual: str | None = None
    expected: str | None = None
    exception: ExceptionInfo | None = None
    stdout: str = ""
    wall_s: float = 0.0


class _TraceRecord(BaseModel):
    test: int
    events: list[TraceStep] = Field(default_factory=list)
    truncated: bool = False


def _records(stdout: str) -> list[dict[str, Any]]:
    records = []
    for line in stdout.splitlines():
        start = line.find(HARNESS_MARKER)
        if start < 0:
            continue
        try:
            record = json.loads(line[start + len(HARNESS_MARKER) :])
        except json.JSONDecodeError:
            continue  # a record cut off by the output limit
        if isinstance(record, dict):
            records.append(record)
    return records


def collect_execution_facts(
    code: str,
    tests: list[str],
    *,
    setup: str = "",
    trace_test: int | None = None,
    max_events: int = 1000,
    max_repr: int = 80,
    per_test_s: float = 2.0,
) -> ExecutionFacts:
    """Run ``tests`` against ``code`` in the sandbox with line tracing; trace locals for test ``trace_test``
    (an index, :data:`FIRST_FAILING`, or None for no trace). ``setup`` runs once after the program loads.

    Every test comes back with a status, even when the program loops forever or the run is killed: tests the
    harness never reported get the run's status (timeout, memory, ...) or ``error``."""
    # The traced harness runs the tests itself, each with ``per_test_s``; its process gets the sandbox's budget
    # for such a suite.
    suite = Limits(wall_s=LOAD_S, per_test_s=per_test_s)
    limits = Limits(wall_s=suite.suite_budget(len(tests)).wall_s)
    config = {
        "tests": tests,
        "setup": setup,
        "trace_test": trace_test,
        "max_events": max_events,
        "max_repr": max_repr,
        "per_test_timeout_s": per_test_s,
    }
    files = {"student.py": code, "tests.json": json.dumps(config)}
    outcome = run(ProgramRequest(source=harness_source(), files=files, limits=limits))
    facts = ExecutionFacts(run_status=outcome.status, isolation=outcome.isolation, wall_s=outcome.wall_s)
    reported: dict[int, TestRun] = {}
    records = _records(outcome.stdout)
    for record in records:
        kind = record.get("kind")
        if kind == "load":
            load = _LoadRecord.model_validate(record)
            facts.load_lines = load.lines
            facts.load_error = load.error
        elif kind == "test":
            test = _TestRecord.model_validate(record)
            reported[test.index] = TestRun(
                index=test.index,
                source=tests[test.index],
                status=test.status,
                covered_lines=test.lines,
                actual=test.actual,
                expected=test.expected,
                exception=test.exception,
                stdout=test.stdout,
                wall_s=test.wall_s,
            )
        elif kind == "trace":
            trace = _TraceRecord.model_validate(record)
            facts.trace = LineTrace(test_index=trace.test, steps=trace.events, truncated=trace.truncated)
    if not any(record.get("kind") == "load" for record in records):
        # the harness itself never got going: report the sandbox's view of why
        facts.load_error = outcome.exception or ExceptionInfo(
            type=outcome.status.value, message=(outcome.stderr or outcome.stdout)[-300:].strip(), line=None
        )
    missing_status = outcome.status if outcome.status not in (Status.passed, Status.failed) else Status.error
    for index, source in enumerate(tests):
        if index in reported:
            facts.tests.append(reported[index])
        else:
            facts.tests.append(
                TestRun(
                    index=index,
                    source=source,
                    status=Status.error if facts.load_error else missing_status,
                    exception=facts.load_error,
                )
            )
    return facts
