"""In-sandbox harness that runs a student's program against assert-style tests and records what happened.

This file is not imported by debugtutor: :mod:`debugtutor.analysis.execution` reads its text and runs it as
``__main__`` inside the sandbox, next to ``student.py`` (the program) and ``tests.json`` (the tests and bounds). It
needs only the standard library, because the sandbox may run it under a bare interpreter.

It reports, one JSON record per line on stdout (each prefixed by a marker so the student's own prints cannot be
mistaken for a record): the lines run while the program loads, then for each test its status, the lines of
``student.py`` it ran, the values on both sides of ``assert X == Y`` and the exception; and, for one chosen test, a
bounded trace of the local variables after each executed line. Records are flushed as they are made, so when the
sandbox kills a runaway program the finished tests still come back.
"""

from __future__ import annotations

import ast
import io
import json
import os
import signal
import sys
import time
import types
from typing import Any

MARKER = "@@debugtutor-trace@@"
STUDENT_FILE = "student.py"


class _TestTimeout(BaseException):
    """Raised by the alarm when one test runs past its budget; a BaseException so `except Exception` in the
    student's code cannot swallow it."""


class _BoundedText(io.TextIOBase):
    """A stdout replacement that keeps at most ``limit`` characters and drops the rest."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.parts: list[str] = []
        self.size = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        room = self.limit - self.size
        if room > 0:
            piece = text[:room]
            self.parts.append(piece)
            self.size += len(piece)
        return len(text)

    def take(self) -> str:
        text = "".join(self.parts)
        self.parts = []
        self.size = 0
        return text


_REAL_STDOUT_FD = os.dup(1)


def _emit(record: dict) -> None:
    data = (MARKER + json.dumps(record, default=repr) + "\n").encode("utf-8", "replace")
    os.write(_REAL_STDOUT_FD, data)


def _short_repr(value: object, limit: int) -> str:
    try:
        text = repr(value)
    except BaseException as exc:  # a user __repr__ may raise anything
        text = f"<unrepresentable {type(value).__name__}: {type(exc).__name__}>"
    return text if len(text) <= limit else text[: max(0, limit - 3)] + "..."


def _student_line(tb: types.TracebackType | None) -> int | None:
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == STUDENT_FILE:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _exception_record(exc: BaseException) -> dict[str, Any]:
    line = _student_line(exc.__traceback__)
    if line is None and isinstance(exc, SyntaxError) and exc.filename == STUDENT_FILE:
        line = exc.lineno
    return {"type": type(exc).__name__, "message": str(exc)[:500], "line": line}


class _Tracer:
    """sys.settrace hook: line coverage of student.py, plus (when armed) a bounded trace of local values."""

    def __init__(self, max_events: int, max_repr: int) -> None:
        self.lines: set[int] = set()
        self.recording = False
        self.max_events = max_events
        self.max_repr = max_repr
        self.events: list[dict] = []
        self.truncated = False
        # per frame: [call ordinal, pending line, {line: hits}]
        self.frames: dict[int, list] = {}
        self.calls = 0

    def __call__(self, frame: types.FrameType, event: str, arg: object) -> Any:
        if frame.f_code.co_filename != STUDENT_FILE:
            return None
        return self.local_trace(frame, event, arg)

    def reset_trace(self) -> None:
        self.events = []
        self.truncated = False
        self.frames = {}
        self.calls = 0

    def _snapshot(self, frame: types.FrameType) -> dict:
        values = {}
        for name, value in list(frame.f_locals.items()):
            if name.startswith("__") or isinstance(value, (types.ModuleType, types.FunctionType, type)):
                continue
            values[name] = _short_repr(value, self.max_repr)
        return values

    def _flush(self, frame: types.FrameType, state: list, return_value: object = None, returning: bool = False) -> None:
        pending = state[1]
        if pending is None:
            return
        if len(self.events) >= self.max_events:
            self.truncated = True
            return
        hits = state[2]
        event = {
            "line": pending,
            "function": frame.f_code.co_name,
            "call": state[0],
            "hit": hits[pending],
            "locals": self._snapshot(frame),
        }
        if returning:
            event["returned"] = _short_repr(return_value, self.max_repr)
        self.events.append(event)
        state[1] = None

    def local_trace(self, frame: types.FrameType, event: str, arg: object) -> Any:
        if event == "line":
            self.lines.add(frame.f_lineno)
        if self.recording:
            key = id(frame)
            state = self.frames.get(key)
            if event == "call" or state is None:
                self.calls += 1
                state = [self.calls, None, {}]
                self.frames[key] = state
            if event == "line":
                self._flush(frame, state)
                state[1] = frame.f_lineno
                state[2][frame.f_lineno] = state[2].get(frame.f_lineno, 0) + 1
            elif event == "return":
                self._flush(frame, state, arg, returning=True)
                # frame ids are reused once a frame dies, so forget it
                self.frames.pop(key, None)
        return self.local_trace


def _run_test(source: str, namespace: dict) -> tuple[str | None, str | None, bool]:
    """Run one test; for a trailing `assert X == Y` evaluate both sides so their values can be reported.

    Returns (actual, expected, equal); a plain assert that fails raises AssertionError instead."""
    tree = ast.parse(source, "<test>", "exec")
    body = tree.body
    last = body[-1] if body else None
    if (
        isinstance(last, ast.Assert)
        and isinstance(last.test, ast.Compare)
        and len(last.test.ops) == 1
        and isinstance(last.test.ops[0], ast.Eq)
    ):
        if body[:-1]:
            exec(compile(ast.Module(body=body[:-1], type_ignores=[]), "<test>", "exec"), namespace)
        left = eval(compile(ast.Expression(last.test.left), "<test>", "eval"), namespace)
        right = eval(compile(ast.Expression(last.test.comparators[0]), "<test>", "eval"), namespace)
        return _short_repr(left, 500), _short_repr(right, 500), bool(left == right)
    exec(compile(tree, "<test>", "exec"), namespace)
    return None, None, True


def _on_alarm(signum: int, frame: object) -> None:
    raise _TestTimeout()


def main() -> None:
    with open("tests.json", encoding="utf-8") as handle:
        config = json.load(handle)
    with open(STUDENT_FILE, encoding="utf-8") as handle:
        code = handle.read()
    tests: list[str] = config["tests"]
    trace_test = config.get("trace_test")
    per_test_timeout = float(config.get("per_test_timeout_s", 2.0))
    tracer = _Tracer(int(config.get("max_events", 1000)), int(config.get("max_repr", 80)))
    captured = _BoundedText(int(config.get("max_stdout", 2000)))
    sys.stdout = captured
    sys.stdin = io.StringIO("")
    signal.signal(signal.SIGALRM, _on_alarm)
    sys.setrecursionlimit(3000)

    namespace: dict = {"__name__": "student", "__file__": STUDENT_FILE, "__builtins__": __builtins__}
    load_error = None
    signal.setitimer(signal.ITIMER_REAL, per_test_timeout)
    sys.settrace(tracer)
    try:
        exec(compile(code, STUDENT_FILE, "exec"), namespace)
        if config.get("setup"):
            exec(compile(config["setup"], "<setup>", "exec"), namespace)
    except _TestTimeout:
        load_error = {"type": "TimeoutError", "message": "loading the program timed out", "line": None}
    except BaseException as exc:
        load_error = _exception_record(exc)
    finally:
        sys.settrace(None)
        signal.setitimer(signal.ITIMER_REAL, 0)
    _emit({"kind": "load", "lines": sorted(tracer.lines), "error": load_error, "stdout": captured.take()})
    if load_error is not None:
        _emit({"kind": "done"})
        return

    traced = False
    for index, source in enumerate(tests):
        tracer.lines = set()
        # trace_test -1 asks for the first test that does not pass: record each test until one fails
        tracer.recording = index == trace_test or (trace_test == -1 and not traced)
        status = "passed"
        actual: str | None = None
        expected: str | None = None
        error: dict[str, Any] | None = None
        started = time.perf_counter()
        signal.setitimer(signal.ITIMER_REAL, per_test_timeout)
        sys.settrace(tracer)
        try:
            actual, expected, equal = _run_test(source, namespace)
            if not equal:
                status = "failed"
                error = {"type": "AssertionError", "message": f"{actual} != {expected}", "line": None}
        except _TestTimeout as exc:
            status = "timeout"
            # the line the test was running when its time ran out: inside the loop that never ends
            error = {
                "type": "TimeoutError",
                "message": f"test ran past {per_test_timeout:g} s",
                "line": _student_line(exc.__traceback__),
            }
        except AssertionError as exc:
            status = "failed"
            error = _exception_record(exc)
        except MemoryError as exc:
            status = "memory"
            error = _exception_record(exc)
        except RecursionError as exc:
            status = "error"
            error = _exception_record(exc)
            error["message"] = str(error["message"])[:200]
        except BaseException as exc:  # SystemExit, KeyboardInterrupt from input() and the like are outcomes too
            status = "error"
            error = _exception_record(exc)
        finally:
            sys.settrace(None)
            signal.setitimer(signal.ITIMER_REAL, 0)
        wall = time.perf_counter() - started
        if status == "failed" and actual is None:
            # an assert without `==`: keep the message only when it says something
            error = error if error and error["message"] else {"type": "AssertionError", "message": "", "line": None}
        _emit(
            {
                "kind": "test",
                "index": index,
                "status": status,
                "lines": sorted(tracer.lines),
                "actual": actual,
                "expected": expected,
                "exception": error,
                "stdout": captured.take(),
                "wall_s": round(wall, 6),
            }
        )
        if tracer.recording:
            tracer.recording = False
            if trace_test == -1 and status == "passed":
                tracer.reset_trace()
            else:
                traced = True
                _emit({"kind": "trace", "test": index, "events": tracer.events, "truncated": tracer.truncated})
    _emit({"kind": "done"})


if __name__ == "__main__":
    main()
