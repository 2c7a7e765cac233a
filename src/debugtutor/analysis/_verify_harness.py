"""In-sandbox harness that checks many candidate programs against the same assert-style tests in one process.

Not imported by debugtutor: :mod:`debugtutor.analysis.repair` runs it as ``__main__`` inside the sandbox beside
``candidates.json`` (the programs, the tests, the setup code and the per-test time budget). Starting one sandboxed
process per candidate costs far more than running a novice's tests, so a repair search sends candidates in batches.
Each candidate loads into a fresh namespace, runs the setup and then the tests in order (they may share state); a
test that runs past its budget ends that candidate, since it can no longer pass, and is reported as timed out
(the search may give it a longer budget later). One JSON record per candidate is written to stdout (behind a
marker) as soon as it is known, so a batch the sandbox kills still reports what finished.
Standard library only.
"""

from __future__ import annotations

import io
import json
import os
import signal
import sys
import time
import warnings
from typing import Any

MARKER = "@@debugtutor-verify@@"
_REAL_STDOUT_FD = os.dup(1)


class _Timeout(BaseException):
    """Raised by the alarm; a BaseException so a candidate's `except Exception` cannot swallow it."""


class _Discard(io.TextIOBase):
    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        return len(text)


def _emit(record: dict[str, Any]) -> None:
    os.write(_REAL_STDOUT_FD, (MARKER + json.dumps(record) + "\n").encode("utf-8", "replace"))


def _on_alarm(signum: int, frame: object) -> None:
    raise _Timeout()


def _run_with_alarm(code: Any, namespace: dict[str, Any], seconds: float) -> str:
    """Execute compiled code; return passed / failed / error / timeout."""
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        exec(code, namespace)
        return "passed"
    except _Timeout:
        return "timeout"
    except AssertionError:
        return "failed"
    except BaseException:  # any exception of the candidate, SystemExit included, is an outcome
        return "error"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def main() -> None:
    with open("candidates.json", encoding="utf-8") as handle:
        config = json.load(handle)
    per_test = float(config.get("per_test_timeout_s", 0.5))
    # past the deadline no new candidate starts: the caller's time budget beats finishing the batch
    deadline = time.monotonic() + float(config.get("deadline_s", 3600.0))
    tests = [compile(test, "<test>", "exec") for test in config["tests"]]
    setup = compile(config.get("setup") or "", "<setup>", "exec")
    signal.signal(signal.SIGALRM, _on_alarm)
    sys.setrecursionlimit(3000)
    warnings.simplefilter("ignore")
    sys.stdout = _Discard()
    sys.stdin = io.StringIO("")
    for index, source in enumerate(config["programs"]):
        if time.monotonic() > deadline:
            return
        _emit({"index": index, **_check(source, tests, setup, per_test)})


def _check(source: str, tests: list[Any], setup: Any, per_test: float) -> dict[str, Any]:
    """Load one candidate into a fresh namespace and run the tests in order, stopping at the first timeout."""
    try:
        program = compile(source, "student.py", "exec")
    except (SyntaxError, ValueError):
        return {"loaded": False, "passed": 0, "total": len(tests), "timed_out": False}
    namespace: dict[str, Any] = {"__name__": "student", "__builtins__": __builtins__}
    outcome = _run_with_alarm(program, namespace, per_test)
    if outcome == "passed":
        outcome = _run_with_alarm(setup, namespace, per_test)
    loaded = outcome == "passed"
    timed_out = outcome == "timeout"
    passed = 0
    if loaded:
        for test in tests:
            outcome = _run_with_alarm(test, namespace, per_test)
            if outcome == "passed":
                passed += 1
            elif outcome == "timeout":
                timed_out = True
                break
    return {"loaded": loaded, "passed": passed, "total": len(tests), "timed_out": timed_out}


if __name__ == "__main__":
    main()
