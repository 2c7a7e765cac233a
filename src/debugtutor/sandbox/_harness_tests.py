"""The program-side harness for assert-style tests (standard library only; imported by the server as ``_dt_harness``).

It runs in the same process as the program, so nothing it reports is trusted for a verdict: it loads the student's
``code`` and ``setup`` into one namespace, replays earlier test statements, and for each test either evaluates the
test's *probes* (the sub-expressions that call into the program; see ``_test_plans.py``) and sends their values as
plain data, or runs a test statement. It never sees a test's expected value or its comparison: the judge outside the
process does that. Each test has its own time budget, enforced here by a repeating alarm and, for code an alarm
cannot stop, by the server, which expects one result per budget.

Records go to the control descriptor (fd 3) as JSON lines, never to stdout, which belongs to the student's prints.
The functions :func:`emit`, :func:`run_with_alarm`, :func:`load_code` and :func:`exception_info` serve the LeetCode
and judge harnesses too.
"""

from __future__ import annotations

import builtins
import importlib
import json
import os
import signal
import time
from collections.abc import Callable
from typing import Any

import _dt_codec as codec  # the server imports _value_codec.py under this name

CONTROL_FD = 3
CODE_FILENAME = "solution.py"
TEST_FILENAME = "<test>"
REPR_LIMIT = 2000


class TestTimeout(BaseException):
    """Raised by the alarm when a test exceeds its budget."""


# The raw C function: the ``signal.signal`` wrapper's enum conversions cost a forked child page faults on every run.
_set_handler: Callable[[int, Any], Any] = importlib.import_module("_signal").signal


def emit(record: dict[str, Any]) -> None:
    data = (json.dumps(record) + "\n").encode("utf-8")
    while data:
        written = os.write(CONTROL_FD, data)
        data = data[written:]


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


def run_with_alarm(index: int, budget_s: float, work: Callable[[], dict[str, Any]], code_path: str) -> dict[str, Any]:
    """Run one test in this process under a per-test alarm; return its record.

    The alarm repeats, so code that swallows one TestTimeout gets another. Code the alarm cannot interrupt (a long C
    call, a crash, ``os._exit``) ends the whole harness instead: the server stops it when no result came within the
    budget, and the host continues with the tests after it in a new process.
    """

    def on_alarm(signum: int, frame: Any) -> None:
        raise TestTimeout()

    previous = _set_handler(signal.SIGALRM, on_alarm)
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
    record.update({"event": "test", "index": index, "wall_s": time.monotonic() - started})
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
    emit({"event": "loaded"})
    return namespace, code_path


def evaluate_probe(source: str, namespace: dict[str, Any], code_path: str) -> dict[str, Any]:
    """One probe's value as plain data (``{"v": ...}``), or how evaluating it ended (``{"x": {...}}``)."""
    try:
        value = eval(compile(source, TEST_FILENAME, "eval"), namespace)
        return {"v": codec.encode(value)}
    except TestTimeout:
        raise
    except BaseException as exc:
        return {"x": {"status": status_of(exc), "exception": exception_info(exc, code_path)}}


def run_test(test: dict[str, Any], namespace: dict[str, Any], code_path: str) -> dict[str, Any]:
    kind = test["kind"]
    if kind == "probes":
        return {"probes": [evaluate_probe(source, namespace, code_path) for source in test["probes"]]}
    if kind == "statement":
        exec(compile(test["source"], TEST_FILENAME, "exec"), namespace)
        return {"status": "passed"}
    return {}  # "skip": the host judges it (a line that does not parse)


def main(job: dict[str, Any]) -> None:
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
    for index, test in enumerate(job["tests"], start=int(job.get("start", 0))):

        def work(test: dict[str, Any] = test) -> dict[str, Any]:
            return run_test(test, namespace, code_path)

        emit(run_with_alarm(index, budget, work, code_path))
