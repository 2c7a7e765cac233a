"""The judge process: evaluates test assertions over probe values, in a sandboxed process that never ran the program.

Standard library only (imported by the server as ``_dt_judge``). Its job holds, for each test, the judge expression
from ``_test_plans.py`` (the assertion with every call into the program replaced by ``__dt_probe__(j)``) and the
probes' values as the program's process reported them. The test's own code (its expected side, helper calls such as
``math.isclose``) runs here, never in the program's process; the standard-library imports of the program and its
tests are repeated first so the judge sees the same modules. A probe that raised raises again where the assertion
reads it, so ``a or b`` only fails on ``b``'s exception when Python would have evaluated ``b``.
"""

from __future__ import annotations

import builtins
from typing import Any

import _dt_codec as codec  # the server imports _value_codec.py under this name
import _dt_harness as harness  # the server imports _harness_tests.py under this name

JUDGE_FILENAME = "<judge>"
PROBE_FUNCTION = "__dt_probe__"


class ProbeRaised(Exception):
    """Reading a probe whose evaluation in the program ended with an exception (or a malformed value)."""

    def __init__(self, outcome: dict[str, Any]) -> None:
        super().__init__(outcome.get("exception", {}).get("type", "error"))
        self.outcome = outcome


def judge_one(item: dict[str, Any], namespace: dict[str, Any]) -> dict[str, Any]:
    memo: dict[int, Any] = {}
    probes: list[Any] = item["probes"]

    def probe(index: int) -> Any:
        reported = probes[index] if 0 <= index < len(probes) else None
        if isinstance(reported, dict) and "x" in reported and isinstance(reported["x"], dict):
            raise ProbeRaised(reported["x"])
        if not isinstance(reported, dict) or "v" not in reported:
            raise ProbeRaised(_malformed("no value was reported"))
        try:
            return codec.decode(reported["v"], memo)
        except (ValueError, RecursionError, MemoryError) as exc:
            raise ProbeRaised(_malformed(str(exc))) from None

    local = dict(namespace)
    local[PROBE_FUNCTION] = probe
    try:
        if item.get("left") is not None and item.get("op") in codec.COMPARISONS:
            left = eval(compile(item["left"], JUDGE_FILENAME, "eval"), local)
            right = eval(compile(item["right"], JUDGE_FILENAME, "eval"), local)
            passed = bool(codec.COMPARISONS[item["op"]](left, right))
            return {
                "status": "passed" if passed else "failed",
                "actual": codec.safe_repr(left),
                "expected": codec.safe_repr(right),
            }
        value = eval(compile(item["expr"], JUDGE_FILENAME, "eval"), local)
        return {"status": "passed" if value else "failed"}
    except ProbeRaised as raised:
        return dict(raised.outcome)


def _malformed(why: str) -> dict[str, Any]:
    return {"status": "error", "exception": {"type": "MalformedResult", "message": why[:500], "line": None}}


def main(job: dict[str, Any]) -> None:
    namespace: dict[str, Any] = {"__name__": "__judge__", "__builtins__": builtins}
    for statement in job.get("imports", []):
        try:
            exec(compile(statement, JUDGE_FILENAME, "exec"), namespace)
        except BaseException:
            continue  # the assertion that needs the name then fails with a NameError of its own
    harness.emit({"event": "loaded"})
    budget = float(job["per_test_s"])
    for item in job["items"]:

        def work(item: dict[str, Any] = item) -> dict[str, Any]:
            return judge_one(item, namespace)

        harness.emit(harness.run_with_alarm(int(item["index"]), budget, work, JUDGE_FILENAME))
