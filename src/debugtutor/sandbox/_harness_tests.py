"""The program that runs assert-style unit tests inside the sandbox (stdlib only, run as ``__main__``).

The server hands it the job (``main(job)``; run as a script it reads ``debugtutor_job.json`` from the work directory):
the student's ``code``, ``setup`` lines, the ``tests`` and a per-test time budget (plus, for LeetCode jobs, the calls;
see ``_harness_leetcode.py``, which reuses this file).
The code is loaded once; the test lines then run in order in its namespace, as the benchmark's own scripts do (so
``import math`` or ``node = ListNode(1)`` lines serve later tests). Each test has its own time budget, enforced by a
repeating alarm here and, for code an alarm cannot stop, by the host restarting the harness after that test.

Results go to the control descriptor (fd 3) as JSON lines, never to stdout, which belongs to the student's prints.
"""

from __future__ import annotations

import ast
import builtins
import importlib
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


def to_json(value: Any) -> str:
    """JSON for the flat records this harness emits (str, int, float, bool, None, dicts of them).

    ``json.dumps`` would do, but its encoder classes are one more layer every forked child would touch (and copy)
    for the first time; the string escaping is the same C function it uses.
    """
    if isinstance(value, str):
        return _json_string(value)
    if value is None or isinstance(value, bool):
        return "null" if value is None else ("true" if value else "false")
    if isinstance(value, (int, float)):
        text = repr(value)
        return text if text not in ("inf", "-inf", "nan") else json.dumps(value)
    if isinstance(value, dict):
        return "{" + ", ".join(_json_string(str(key)) + ": " + to_json(item) for key, item in value.items()) + "}"
    return json.dumps(value)


def emit(record: dict[str, Any]) -> None:
    data = (to_json(record) + "\n").encode("utf-8")
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


COMPARISONS: dict[str, Callable[[Any, Any], Any]] = {  # keyed by the name of the ast comparison operator
    "Eq": lambda a, b: a == b,
    "NotEq": lambda a, b: a != b,
    "Lt": lambda a, b: a < b,
    "LtE": lambda a, b: a <= b,
    "Gt": lambda a, b: a > b,
    "GtE": lambda a, b: a >= b,
    "Is": lambda a, b: a is b,
    "IsNot": lambda a, b: a is not b,
    "In": lambda a, b: a in b,
    "NotIn": lambda a, b: a not in b,
}
_json_string: Callable[[str], str] = json.encoder.encode_basestring_ascii
# The raw C function: the ``signal.signal`` wrapper's enum conversions cost a forked child page faults on every run.
_set_handler: Callable[[int, Any], Any] = importlib.import_module("_signal").signal


def compared(left: Any, op: str, right: Any) -> dict[str, Any]:
    passed = bool(COMPARISONS[op](left, right))
    return {"status": "passed" if passed else "failed", "actual": safe_repr(left), "expected": safe_repr(right)}


def evaluate_statement(tree: ast.Module, namespace: dict[str, Any], code_path: str) -> dict[str, Any]:
    """Run one test statement; for ``assert X <op> Y`` evaluate both sides once so both can be reported."""
    stmt = tree.body[0] if len(tree.body) == 1 else None
    try:
        if isinstance(stmt, ast.Assert) and isinstance(stmt.test, ast.Compare) and len(stmt.test.ops) == 1:
            left = eval(compile(ast.Expression(stmt.test.left), TEST_FILENAME, "eval"), namespace)
            right = eval(compile(ast.Expression(stmt.test.comparators[0]), TEST_FILENAME, "eval"), namespace)
            return compared(left, type(stmt.test.ops[0]).__name__, right)
        exec(compile(tree, TEST_FILENAME, "exec"), namespace)
        return {"status": "passed"}
    except BaseException as exc:
        return {"status": status_of(exc), "exception": exception_info(exc, code_path)}


def evaluate_planned(source: str, plan: dict[str, str], namespace: dict[str, Any], code_path: str) -> dict[str, Any]:
    """Like :func:`evaluate_statement`, from the host's analysis of the line (see ``_programs.plan_test_line``).

    ``plan["op"]`` names the comparison of ``assert left <op> right`` (both sides as parenthesised source), or is
    empty for any other statement. The child then needs no ``ast`` objects of its own.
    """
    try:
        if plan["op"]:
            left = eval(compile(plan["left"], TEST_FILENAME, "eval"), namespace)
            right = eval(compile(plan["right"], TEST_FILENAME, "eval"), namespace)
            return compared(left, plan["op"], right)
        exec(compile(source, TEST_FILENAME, "exec"), namespace)
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

    previous = _set_handler(signal.SIGALRM, on_alarm)
    # ``at`` lets the server, which reads these events only now and then, date the test's deadline correctly.
    emit({"event": "start", "index": index, "budget": budget_s, "at": time.monotonic()})
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
        _set_handler(signal.SIGALRM, previous)
    record.update({"index": index, "source": source, "wall_s": time.monotonic() - started, "event": "test"})
    return record


def load_code(job: dict[str, Any], prelude: str = "") -> tuple[dict[str, Any], str] | None:
    """Load the student's code, then the setup lines, into a fresh module namespace; report a setup error and return
    None if either fails."""
    # On disk so tracebacks and inspect can quote the student's lines. Plain os calls: every Python-level layer a
    # forked child runs for the first time costs it copy-on-write page faults (see _server.py).
    code_path = os.getcwd() + os.sep + CODE_FILENAME
    fd = os.open(code_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        data = job["code"].encode("utf-8", "surrogateescape")
        while data:
            data = data[os.write(fd, data) :]
    finally:
        os.close(fd)
    namespace: dict[str, Any] = {"__name__": "solution", "__builtins__": builtins, "__file__": code_path}
    try:
        if prelude:
            exec(compile(prelude, "<prelude>", "exec"), namespace)
        exec(compile(job["code"], code_path, "exec"), namespace)
        if job.get("setup"):
            # after the code: test fixtures build objects of the student's classes (head = Node(1), ...)
            exec(compile(job["setup"], "<setup>", "exec"), namespace)
    except BaseException as exc:
        info = exception_info(exc, code_path)
        emit({"event": "setup_error", "status": status_of(exc), "exception": info})
        return None
    return namespace, code_path


def read_job_file() -> dict[str, Any]:
    with open("debugtutor_job.json", encoding="utf-8") as handle:
        job: dict[str, Any] = json.load(handle)
    return job


def main(job: dict[str, Any] | None = None) -> None:
    if job is None:
        job = read_job_file()
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
    plans: list[dict[str, str] | None] = job.get("plans") or []
    for index, source in enumerate(job["tests"], start=int(job.get("start", 0))):
        plan = plans[index] if index < len(plans) else None
        work: Callable[[], dict[str, Any]]
        if plan is not None:

            def work(source: str = source, plan: dict[str, str] = plan) -> dict[str, Any]:
                return evaluate_planned(source, plan, namespace, code_path)

        else:
            try:
                tree = ast.parse(source, TEST_FILENAME)
            except SyntaxError as exc:
                info = {"type": "SyntaxError", "message": str(exc), "line": None}
                record = {"event": "test", "index": index, "source": source, "status": "error", "wall_s": 0.0}
                emit({**record, "exception": info})
                continue

            def work(tree: ast.Module = tree) -> dict[str, Any]:
                return evaluate_statement(tree, namespace, code_path)

        emit(run_with_alarm(index, source, budget, work, code_path))


if __name__ == "__main__":
    main()
