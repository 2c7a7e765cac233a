"""The program that runs assert-style unit tests inside the sandbox (stdlib only, run as ``__main__``).

It reads ``debugtutor_job.json`` from the work directory: the student's ``code``, ``setup`` lines, the ``tests`` and a
per-test time budget (plus, for LeetCode jobs, the calls; see ``_harness_leetcode.py``, which reuses this file).
The code is loaded once; the test lines then run in order in its namespace, as the benchmark's own scripts do (so
``import math`` or ``node = ListNode(1)`` lines serve later tests). Each test has its own time budget, enforced by a
repeating alarm here and, for code an alarm cannot stop, by the host restarting the harness after that test.

Results go to the control descriptor (fd 3) as JSON lines, never to stdout, which belongs to the student's prints.
"""

from __future__ import annotations

import ast
import builtins
import json
import os
import signal
import time
from collections.abc import Callable
from typing import Any

CONTROL_FD = 3
CODE_FILENAME = "solution.py"
TEST_FILENAME = "<test>"
REPR_LIMIT = 2000


class TestTimeout(BaseException):
    """Raised by the alarm when a statement run in the harness itself exceeds its budget."""


def emit(record: dict[str, Any]) -> None:
    data = (json.dumps(record) + "\n").encode("utf-8")
    while data:
        written = os.write(CONTROL_FD, data)
        data = data[written:]


def safe_repr(value: Any) -> str:
    try:
        text = repr(value)
    except BaseException as exc:
        text = f"<unrepresentable {type(value).__name__}: {type(exc).__name__}>"
    return text if len(text) <= REPR_LIMIT else text[:REPR_LIMIT] + "..."


def exception_info(exc: BaseException, code_path: str) -> dict[str, Any]:
    line = None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == code_path:
            line = tb.tb_lineno
        tb = tb.tb_next
    if isinstance(exc, SyntaxError) and exc.filename == code_path:
        line = exc.lineno
    try:
        message = str(exc)
    except BaseException:
        message = ""
    return {"type": type(exc).__name__, "message": message[:REPR_LIMIT], "line": line}


def status_of(exc: BaseException) -> str:
    if isinstance(exc, MemoryError):
        return "memory"
    if isinstance(exc, TestTimeout):
        return "timeout"
    if isinstance(exc, AssertionError):
        return "failed"
    return "error"


_COMPARE: dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: lambda a, b: a == b,
    ast.NotEq: lambda a, b: a != b,
    ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b,
    ast.Gt: lambda a, b: a > b,
    ast.GtE: lambda a, b: a >= b,
    ast.Is: lambda a, b: a is b,
    ast.IsNot: lambda a, b: a is not b,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}


def evaluate_statement(tree: ast.Module, namespace: dict[str, Any], code_path: str) -> dict[str, Any]:
    """Run one test statement; for ``assert X <op> Y`` evaluate both sides once so both can be reported."""
    stmt = tree.body[0] if len(tree.body) == 1 else None
    try:
        if isinstance(stmt, ast.Assert) and isinstance(stmt.test, ast.Compare) and len(stmt.test.ops) == 1:
            left = eval(compile(ast.Expression(stmt.test.left), TEST_FILENAME, "eval"), namespace)
            right = eval(compile(ast.Expression(stmt.test.comparators[0]), TEST_FILENAME, "eval"), namespace)
            passed = bool(_COMPARE[type(stmt.test.ops[0])](left, right))
            record = {"status": "passed" if passed else "failed", "actual": safe_repr(left)}
            record["expected"] = safe_repr(right)
            return record
        exec(compile(tree, TEST_FILENAME, "exec"), namespace)
        return {"status": "passed"}
    except BaseException as exc:
        return {"status": status_of(exc), "exception": exception_info(exc, code_path)}


def run_with_alarm(
    index: int, source: str, budget_s: float, work: Callable[[], dict[str, Any]], code_path: str
) -> dict[str, Any]:
    """Run one test in this process under a soft per-test alarm; return its record.

    The alarm repeats, so code that swallows one TestTimeout gets another. Code the alarm cannot interrupt (a long C
    call, a crash, ``os._exit``) ends the whole harness instead: the host then reports that test and starts a fresh
    harness for the tests after it, so one such test never stops the others.
    """

    def on_alarm(signum: int, frame: Any) -> None:
        raise TestTimeout()

    previous = signal.signal(signal.SIGALRM, on_alarm)
    emit({"event": "start", "index": index, "budget": budget_s})
    started = time.monotonic()
    signal.setitimer(signal.ITIMER_REAL, budget_s, 0.05)
    try:
        record = work()
    except BaseException as exc:
        record = {"status": status_of(exc)}
        if not isinstance(exc, TestTimeout):
            record["exception"] = exception_info(exc, code_path)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    record.update({"index": index, "source": source, "wall_s": time.monotonic() - started, "event": "test"})
    return record


def load_code(job: dict[str, Any], prelude: str = "") -> tuple[dict[str, Any], str] | None:
    """Load setup + student code into a fresh module namespace; report a setup error and return None if it fails."""
    code_path = os.path.abspath(CODE_FILENAME)
    with open(code_path, "w", encoding="utf-8") as handle:
        handle.write(job["code"])  # on disk so tracebacks can quote the student's lines
    namespace: dict[str, Any] = {"__name__": "solution", "__builtins__": builtins, "__file__": code_path}
    try:
        if prelude:
            exec(compile(prelude, "<prelude>", "exec"), namespace)
        if job.get("setup"):
            exec(compile(job["setup"], "<setup>", "exec"), namespace)
        exec(compile(job["code"], code_path, "exec"), namespace)
    except BaseException as exc:
        info = exception_info(exc, code_path)
        emit({"event": "setup_error", "status": status_of(exc), "exception": info})
        return None
    return namespace, code_path


def main() -> None:
    with open("debugtutor_job.json", encoding="utf-8") as handle:
        job = json.load(handle)
    loaded = load_code(job)
    if loaded is None:
        return
    namespace, code_path = loaded
    # A harness that continues after a test which killed the previous one first replays the earlier statement
    # lines (imports, node construction), so later tests see the same namespace.
    for line in job.get("replay", []):
        try:
            exec(compile(line, TEST_FILENAME, "exec"), namespace)
        except BaseException:
            continue
    budget = float(job["per_test_s"])
    for index, source in enumerate(job["tests"], start=int(job.get("start", 0))):
        try:
            tree = ast.parse(source, TEST_FILENAME)
        except SyntaxError as exc:
            info = {"type": "SyntaxError", "message": str(exc), "line": None}
            emit(
                {"event": "test", "index": index, "source": source, "status": "error", "exception": info, "wall_s": 0.0}
            )
            continue

        def work(tree: ast.Module = tree) -> dict[str, Any]:
            return evaluate_statement(tree, namespace, code_path)

        emit(run_with_alarm(index, source, budget, work, code_path))


if __name__ == "__main__":
    main()
