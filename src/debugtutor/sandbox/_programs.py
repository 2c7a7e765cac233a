"""Turning requests (a program, a judged program, Python tests, LeetCode calls) into server jobs and back.

A job is a list of steps in one work directory (compile, then run); the server answers with raw step results
(return code, signal, captured output, the control channel). This module owns the per-language command lines and the
rules that map raw results to :class:`Status`, so the pool and the Ray executor only move JSON around.

Verdicts are reached here, never in the program's process: a test's expected value stays on this side (LeetCode
calls, stdout judging, literal comparisons) or goes only to a judge process that never ran the program
(``_test_plans.py``). What the program's process reports is read as claims about its own values: only an unbroken
run of results in test order is accepted, and two results for one test are a conflict, which fails it.
"""

from __future__ import annotations

import json
import re
import signal
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from debugtutor import python_ast
from debugtutor.errors import InputError
from debugtutor.sandbox import _leetcode_cpp, _leetcode_java, _test_plans, _value_codec
from debugtutor.sandbox._isolation import precompiled_header_flags
from debugtutor.sandbox._records import (
    CompareMode,
    ExceptionInfo,
    ExecOutcome,
    Isolation,
    JudgeRequest,
    Language,
    LeetCodeCall,
    LeetCodeRequest,
    Limits,
    ProgramRequest,
    PythonTestsRequest,
    RunBudget,
    Status,
    TestOutcome,
    TestReport,
)

JobRunner = Callable[[dict[str, Any], float], dict[str, Any]]

COMPILE_WALL_S = 60.0
COMPILE_MEMORY_MB = 4096
JVM_OVERHEAD_MB = 1024  # address space the JVM reserves beyond its heap (code cache, metaspace, thread stacks)
JVM_THREADS = 32  # the JVM's own threads count against RLIMIT_NPROC
CPP_OPTIONS = ["-O2", "-std=c++17"]
JAVA_FLAGS = ["-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData", "-Xshare:auto"]
JVM_RESERVATIONS = ["-XX:ReservedCodeCacheSize=64m", "-XX:CompressedClassSpaceSize=64m", "-XX:MaxMetaspaceSize=256m"]


def _step_limits(limits: Limits, budget: RunBudget) -> dict[str, Any]:
    return {
        "wall_s": budget.wall_s,
        "cpu_s": budget.cpu_s,
        "memory_mb": limits.memory_mb,
        "max_processes": limits.max_processes,
        "output_bytes": limits.output_bytes,
        "file_bytes": limits.file_bytes,
    }


def _compile_limits(limits: Limits) -> dict[str, Any]:
    return {
        "wall_s": COMPILE_WALL_S,
        "cpu_s": COMPILE_WALL_S,
        "memory_mb": max(COMPILE_MEMORY_MB, limits.memory_mb),
        "max_processes": max(limits.max_processes, 64),
        "output_bytes": 200_000,
        "file_bytes": max(limits.file_bytes, 256_000_000),
        "stop_on_failure": True,
    }


def java_class_name(source: str) -> str:
    """The class to run: the public class, else the one with ``main``, else ``Main`` (comments and string literals
    do not count: LeetCode's Java templates describe ``public class TreeNode`` in a comment)."""
    source = _leetcode_cpp.code_only(source)
    public = re.search(r"public\s+(?:final\s+)?class\s+([A-Za-z_]\w*)", source)
    if public:
        return public.group(1)
    with_main = re.search(r"class\s+([A-Za-z_]\w*)[^{]*\{(?:(?!\bclass\b).)*?static\s+void\s+main\s*\(", source, re.S)
    return with_main.group(1) if with_main else "Main"


def build_program_job(
    source: str, lang: Language, stdin: str, files: dict[str, str] | None, limits: Limits, budget: RunBudget
) -> tuple[dict[str, Any], float]:
    """The server job for one whole program whose run step has ``budget``, and the wall-clock time it may take in all
    (compilation included)."""
    job_files = dict(files or {})
    run = {**_step_limits(limits, budget), "stdin": stdin}
    if lang == "python":
        if "main.py" in job_files:
            raise InputError("'main.py' is reserved for the program itself", field="files")
        job_files["main.py"] = source
        steps = [{**run, "kind": "python", "source": source, "filename": "main.py"}]
        return {"files": job_files, "steps": steps}, budget.wall_s
    if lang == "cpp":
        job_files["main.cpp"] = source
        compile_step = {
            **_compile_limits(limits),
            "kind": "exec",
            "argv": ["g++", *CPP_OPTIONS, *precompiled_header_flags(CPP_OPTIONS), "-o", "main", "main.cpp"],
        }
        steps = [compile_step, {**run, "kind": "exec", "argv": ["./main"]}]
        return {"files": job_files, "steps": steps}, COMPILE_WALL_S + budget.wall_s
    if lang == "java":
        name = java_class_name(source)
        job_files[f"{name}.java"] = source
        javac = ["javac", "-J-Xmx512m", *(f"-J{flag}" for flag in JAVA_FLAGS), "-encoding", "UTF-8", f"{name}.java"]
        compile_step = {**_compile_limits(limits), "kind": "exec", "argv": javac}
        java = ["java", f"-Xmx{limits.memory_mb}m", "-Xss16m", *JAVA_FLAGS, *JVM_RESERVATIONS, "-cp", ".", name]
        run.update(memory_mb=limits.memory_mb + JVM_OVERHEAD_MB, max_processes=limits.max_processes + JVM_THREADS)
        steps = [compile_step, {**run, "kind": "exec", "argv": java}]
        return {"files": job_files, "steps": steps}, COMPILE_WALL_S + budget.wall_s
    raise InputError(f"unknown language {lang!r} (python, cpp or java)", field="lang")


def _exception_from_control(control: str) -> ExceptionInfo | None:
    for line in control.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and record.get("event") == "exception":
            return ExceptionInfo(type=record["type"], message=record["message"], line=record.get("line"))
    return None


def run_status(step: dict[str, Any], cpu_limit_s: float, exception: ExceptionInfo | None) -> Status:
    """The status of a finished run step."""
    if step["output_limited"]:
        return Status.output_limit
    if step["timed_out"]:
        return Status.timeout
    sig = step.get("signal")
    cpu = step.get("cpu_s") or 0.0
    if sig == signal.SIGXCPU or (sig == signal.SIGKILL and cpu >= cpu_limit_s - 0.05):
        return Status.timeout
    if step["returncode"] == 0:
        return Status.passed
    stderr = step.get("stderr", "")
    if (exception is not None and exception.type == "MemoryError") or (
        "std::bad_alloc" in stderr or "java.lang.OutOfMemoryError" in stderr
    ):
        return Status.memory
    return Status.error


def outcome_from_reply(reply: dict[str, Any], budget: RunBudget, isolation: Isolation) -> ExecOutcome:
    """The ExecOutcome of a program job (python: one step; cpp/java: compile, run)."""
    steps = reply["steps"]
    compile_output = None
    if len(steps) == 2:
        build = steps[0]
        compile_output = (build["stderr"] + build["stdout"]).strip() or None
        if build["returncode"] != 0 or build["timed_out"]:
            message = compile_output or ""
            if build["timed_out"]:
                message = (message + "\ncompilation timed out").strip()
            return ExecOutcome(
                status=Status.compile_error,
                returncode=build["returncode"],
                stdout="",
                stderr="",
                wall_s=build["wall_s"],
                cpu_s=build["cpu_s"],
                isolation=isolation,
                compile_output=message or f"compiler exited with {build['returncode']}",
            )
    run = steps[-1]
    if run.get("lost") or run.get("skipped"):
        return ExecOutcome(
            status=Status.error, returncode=None, stdout=run.get("stdout", ""), stderr=run.get("stderr", ""),
            wall_s=float(run.get("wall_s") or 0.0), isolation=isolation, compile_output=compile_output,
            exception=LOST,
        )  # fmt: skip
    exception = _exception_from_control(run.get("control", ""))
    return ExecOutcome(
        status=run_status(run, budget.cpu_s, exception),
        returncode=run["returncode"],
        stdout=run["stdout"],
        stderr=run["stderr"],
        stdout_truncated=run["stdout_truncated"],
        stderr_truncated=run["stderr_truncated"],
        wall_s=run["wall_s"],
        cpu_s=run["cpu_s"],
        isolation=isolation,
        compile_output=compile_output,
        exception=exception,
    )


def run_program_with(runner: JobRunner, isolation: Isolation, request: ProgramRequest) -> ExecOutcome:
    budget = request.limits.program_budget()
    job, total = build_program_job(request.source, request.lang, request.stdin, request.files, request.limits, budget)
    if request.results:
        job["steps"][-1]["control"] = True
    reply = runner(job, total)
    outcome = outcome_from_reply(reply, budget, isolation)
    if request.results:
        accepted, _ = _accepted_records(reply["steps"][-1].get("control", ""), 0, request.results)
        outcome.results = [accepted[index] for index in range(len(accepted))]
    return outcome


def outputs_match(actual: str, expected: str, float_tol: float | None = None) -> bool:
    """Exact modulo trailing whitespace (per line and at the end), or token-wise with a float tolerance."""
    if float_tol is None:
        return _normalized_lines(actual) == _normalized_lines(expected)
    got, want = actual.split(), expected.split()
    if len(got) != len(want):
        return False
    for a, e in zip(got, want):
        if a == e:
            continue
        try:
            a_value, e_value = float(a), float(e)
        except ValueError:
            return False
        if not abs(a_value - e_value) <= float_tol * max(1.0, abs(e_value)):
            return False
    return True


def _normalized_lines(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def judge_program_with(runner: JobRunner, isolation: Isolation, request: JudgeRequest) -> ExecOutcome:
    program = ProgramRequest(source=request.source, lang=request.lang, stdin=request.stdin, limits=request.limits)
    outcome = run_program_with(runner, isolation, program)
    if outcome.status is Status.passed and not outputs_match(
        outcome.stdout, request.expected_stdout, request.float_tol
    ):
        outcome = outcome.model_copy(update={"status": Status.failed})
    return outcome


def _harness_job(
    harness: str, payload: dict[str, Any], first: int, count: int, limits: Limits
) -> tuple[dict[str, Any], float]:
    """A job that runs one of our harnesses (``tests``, ``leetcode`` or ``judge``, preloaded by the server).

    The payload travels inside the step: the forked child already holds it, with no file to write and parse. The
    step owes ``count`` results from index ``first``, each due within the test budget of the previous one.
    """
    budget = limits.suite_budget(count)
    results = {"first": first, "count": count, "per_test_s": limits.test_s, "load_s": limits.wall_s}
    step = {
        **_step_limits(limits, budget),
        "kind": "python",
        "harness": harness,
        "payload": payload,
        "filename": "main.py",
        "stdin": "",
        "results": results,
    }
    return {"files": {}, "steps": [step]}, budget.wall_s


@dataclass
class _Collected:
    """The results of a harness over all its items, restarting after any item that ended the process."""

    records: dict[int, dict[str, Any]] = field(default_factory=dict)
    setup_error: ExceptionInfo | None = None
    wall_s: float = 0.0
    stdout: str = ""
    stderr: str = ""


LOST = ExceptionInfo(
    type="SandboxLost",
    message="the program took the sandbox's own processes down with it (killed them): it gets no verdict but this",
)
# What the pool reports for a step whose server died twice while running it (see SandboxPool.run_job).
LOST_STEP: dict[str, Any] = {
    "returncode": None, "signal": None, "stdout": "", "stderr": "", "stdout_truncated": False,
    "stderr_truncated": False, "control": "", "timed_out": False, "output_limited": False, "wall_s": 0.0,
    "cpu_s": None, "skipped": False, "lost": True,
}  # fmt: skip
_MALFORMED = ExceptionInfo(type="MalformedResult", message="the test's result did not have the expected form")
CONFLICT = ExceptionInfo(
    type="ConflictingResults",
    message="more than one result arrived for this test: something in the program wrote on the judge's channel",
)


def _accepted_records(control: str, first: int, count: int) -> tuple[dict[int, dict[str, Any]], dict[str, Any] | None]:
    """The test records of one harness run that can be its own, and its setup-error record if any.

    The harness reports tests in order, so only an unbroken run of indexes from ``first`` can be real; a record
    beyond the first gap was written by the program, not the harness, and is dropped (that test runs again). An
    index with two records gets a conflict record: the honest harness never writes twice.
    """
    by_index: dict[int, list[dict[str, Any]]] = {}
    setup_error = None
    for record in _control_records(control):
        event = record.get("event")
        if event == "setup_error" and setup_error is None:
            setup_error = record
        elif event == "test":
            index = record.get("index")
            if isinstance(index, int) and not isinstance(index, bool) and first <= index < first + count:
                by_index.setdefault(index, []).append(record)
    accepted: dict[int, dict[str, Any]] = {}
    index = first
    while index in by_index:
        found = by_index[index]
        accepted[index] = found[0] if len(found) == 1 else {"status": "error", "conflict": True}
        index += 1
    return accepted, setup_error


def _collect(
    runner: JobRunner,
    harness: str,
    payload: dict[str, Any],
    items_key: str,
    items: list[Any],
    limits: Limits,
    replay: Callable[[int], list[str]] | None = None,
) -> _Collected:
    """Run the harness over all items; if one item kills the harness, record it and continue after it."""
    collected = _Collected()
    start = 0
    while start < len(items):
        part = {**payload, items_key: items[start:], "start": start}
        if replay is not None:
            part["replay"] = replay(start)
        job, budget = _harness_job(harness, part, start, len(items) - start, limits)
        run = runner(job, budget)["steps"][0]
        collected.wall_s += float(run["wall_s"])
        collected.stdout, collected.stderr = run["stdout"], run["stderr"]
        accepted, setup = _accepted_records(run.get("control", ""), start, len(items) - start)
        if setup is not None and not accepted:
            info = setup.get("exception")
            collected.setup_error = _exception(info) or ExceptionInfo(type="Error", message="the code did not load")
            break
        collected.records.update(accepted)
        missing = next((index for index in range(start, len(items)) if index not in collected.records), None)
        if missing is None:
            break
        crash = LOST if run.get("lost") else _exception_from_control(run.get("control", ""))
        collected.records[missing] = {
            "status": Status.error.value if run.get("lost") else _killed_status(run).value,
            "exception": (crash or _death_info(run) or ExceptionInfo(type="Crash", message="no result")).model_dump(),
            "wall_s": max(0.0, float(run["wall_s"]) - sum(float(r.get("wall_s", 0.0)) for r in accepted.values())),
            "died": True,
        }
        start = missing + 1
    return collected


def _exception(info: Any) -> ExceptionInfo | None:
    if not isinstance(info, dict):
        return None
    try:
        return ExceptionInfo(
            type=str(info.get("type", "Error"))[:200],
            message=str(info.get("message", ""))[:2000],
            line=info.get("line") if isinstance(info.get("line"), int) else None,
        )
    except ValueError:
        return None


def _status(value: Any) -> Status:
    try:
        return Status(value)
    except ValueError:
        return Status.error


def _control_records(control: str) -> list[dict[str, Any]]:
    records = []
    for line in control.splitlines():
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if isinstance(record, dict):
            records.append(record)
    return records


def _killed_status(run: dict[str, Any]) -> Status:
    if run["output_limited"]:
        return Status.output_limit
    if run["timed_out"] or run.get("signal") in (signal.SIGXCPU, signal.SIGKILL):
        return Status.timeout
    return Status.error


def _death_info(run: dict[str, Any]) -> ExceptionInfo | None:
    if _killed_status(run) is not Status.error:
        return None
    how = f"signal {run['signal']}" if run.get("signal") else f"exit code {run['returncode']}"
    return ExceptionInfo(type="Crash", message=f"the test ended the process ({how})", line=None)


def _worst(tests: list[TestOutcome]) -> Status:
    statuses = {test.status for test in tests}
    for status in (Status.failed, Status.error, Status.timeout, Status.memory, Status.output_limit):
        if status in statuses:
            return status
    return Status.error


def _report(
    tests: list[TestOutcome], collected: _Collected, isolation: Isolation, extra_wall: float = 0.0
) -> TestReport:
    if collected.setup_error is not None:
        status = Status.error
    elif all(test.status is Status.passed for test in tests):
        status = Status.passed
    else:
        status = _worst(tests)
    return TestReport(
        status=status,
        tests=tests,
        setup_error=collected.setup_error,
        isolation=isolation,
        wall_s=collected.wall_s + extra_wall,
        stdout=collected.stdout,
        stderr=collected.stderr,
    )


def _unjudged(index: int, source: str, record: dict[str, Any], *, may_pass: bool = False) -> TestOutcome | None:
    """The outcome of a test whose record already decides it: it never reported values (a crash, a timeout, an
    exception, a conflict). None when the record carries values to judge.

    A record without values can only fail a test that is judged on values (``may_pass`` False): a "passed" there
    is a claim the harness never makes, so it is malformed.
    """
    if record.get("conflict"):
        return TestOutcome(index=index, source=source, status=Status.error, exception=CONFLICT)
    if "probes" in record or "actual" in record:
        return None
    status = _status(record.get("status", "error"))
    if status is Status.passed and not may_pass:
        return TestOutcome(
            index=index, source=source, status=Status.error, exception=_MALFORMED, wall_s=_seconds(record)
        )
    return TestOutcome(
        index=index,
        source=source,
        status=status,
        exception=_exception(record.get("exception")),
        wall_s=_seconds(record),
    )


def _seconds(record: dict[str, Any]) -> float:
    value = record.get("wall_s", 0.0)
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0


def run_python_tests_with(runner: JobRunner, isolation: Isolation, request: PythonTestsRequest) -> TestReport:
    code, tests, setup, limits = request.code, list(request.tests), request.setup, request.limits
    per_test = limits.test_s
    binds = _test_plans.bindings(code, setup, tuple(t for t in tests if not _is_assert(t)))
    plans = [_test_plans.plan_test(test, binds) for test in tests]
    payload = {"code": code, "setup": setup, "per_test_s": per_test}
    items = [plan.program_payload() for plan in plans]

    def replay(start: int) -> list[str]:
        return [plan.source for plan in plans[:start] if plan.kind == "statement"]

    collected = _collect(runner, "tests", payload, "tests", items, limits, replay)
    if collected.setup_error is not None:
        failed = [TestOutcome(index=i, source=test, status=Status.error) for i, test in enumerate(tests)]
        return _report(failed, collected, isolation)
    outcomes: list[TestOutcome | None] = []
    to_judge: list[tuple[int, dict[str, Any]]] = []
    for index, plan in enumerate(plans):
        record = collected.records.get(index, {"status": "error"})
        outcome = _host_verdict(index, plan, record)
        if outcome is None:
            to_judge.append((index, record))
        outcomes.append(outcome)
    judge_wall = 0.0
    if to_judge:
        judged, judge_wall = _judge(runner, [(plans[i], record) for i, record in to_judge], binds, limits)
        for (index, _), judged_outcome in zip(to_judge, judged):
            outcomes[index] = judged_outcome.model_copy(update={"index": index, "source": plans[index].source})
    final = [outcome for outcome in outcomes if outcome is not None]
    return _report(final, collected, isolation, judge_wall)


def _is_assert(line: str) -> bool:
    return line.lstrip().startswith("assert")


def _host_verdict(index: int, plan: _test_plans.TestPlan, record: dict[str, Any]) -> TestOutcome | None:
    """A test's outcome when the host can decide it alone; None when its judge expression needs the judge process."""
    source = plan.source
    if plan.kind == "invalid":
        info = ExceptionInfo(type="SyntaxError", message=plan.error)
        return TestOutcome(index=index, source=source, status=Status.error, exception=info)
    decided = _unjudged(index, source, record, may_pass=plan.kind == "statement")
    if decided is not None or plan.kind == "statement":
        if decided is None:  # a statement reports whether it raised, not values
            return TestOutcome(index=index, source=source, status=Status.error, exception=_MALFORMED)
        return decided
    probes = record.get("probes")
    if not isinstance(probes, list) or len(probes) != len(plan.probes):
        return TestOutcome(index=index, source=source, status=Status.error, exception=_MALFORMED)
    fast = plan.fast
    if fast is None:
        return None
    reported = probes[0]
    wall = _seconds(record)
    if isinstance(reported, dict) and isinstance(reported.get("x"), dict):
        raised = reported["x"]
        status, exception = _status(raised.get("status")), _exception(raised.get("exception"))
        return TestOutcome(index=index, source=source, status=status, exception=exception, wall_s=wall)
    try:
        if not isinstance(reported, dict) or "v" not in reported:
            raise ValueError("no value was reported")
        value = _value_codec.decode(reported["v"])
        if fast.op in ("truth", "falsity"):
            passed = bool(value) == (fast.op == "truth")
            return TestOutcome(
                index=index, source=source, status=Status.passed if passed else Status.failed,
                actual=_value_codec.safe_repr(value), wall_s=wall,
            )  # fmt: skip
        left, right = (value, fast.literal) if fast.probe_on_left else (fast.literal, value)
        passed = bool(_value_codec.COMPARISONS[fast.op](left, right))
    except (ValueError, RecursionError, MemoryError) as exc:
        info = ExceptionInfo(type="MalformedResult", message=str(exc)[:500])
        return TestOutcome(index=index, source=source, status=Status.error, exception=info, wall_s=wall)
    except Exception as exc:  # comparing plain values can still fail (e.g. '<' between str and int), as in Python
        info = ExceptionInfo(type=type(exc).__name__, message=str(exc)[:500])
        return TestOutcome(index=index, source=source, status=Status.error, exception=info, wall_s=wall)
    return TestOutcome(
        index=index, source=source, status=Status.passed if passed else Status.failed,
        actual=_value_codec.safe_repr(left), expected=_value_codec.safe_repr(right), wall_s=wall,
    )  # fmt: skip


def _judge(
    runner: JobRunner,
    pending: list[tuple[_test_plans.TestPlan, dict[str, Any]]],
    binds: _test_plans.Bindings,
    limits: Limits,
) -> tuple[list[TestOutcome], float]:
    """Judge assertions in a separate sandboxed process that never ran the program (see ``_test_plans.py``)."""
    items = [
        {**plan.judge_payload(), "index": position, "probes": record["probes"]}
        for position, (plan, record) in enumerate(pending)
    ]
    payload = {"imports": list(binds.imports), "per_test_s": limits.test_s}
    collected = _collect(runner, "judge", payload, "items", items, limits)
    outcomes = []
    for position, (plan, record) in enumerate(pending):
        verdict = collected.records.get(position, {"status": "error"})
        if collected.setup_error is not None:
            verdict = {"status": "error", "exception": collected.setup_error.model_dump()}
        # (the judge process ran no program code: its verdicts, passes included, are its own)
        outcome = _unjudged(position, plan.source, {k: v for k, v in verdict.items() if k != "actual"}, may_pass=True)
        assert outcome is not None
        outcomes.append(
            outcome.model_copy(
                update={
                    "actual": _text_or_none(verdict.get("actual")),
                    "expected": _text_or_none(verdict.get("expected")),
                    "wall_s": _seconds(record),
                }
            )
        )
    return outcomes, collected.wall_s


def _text_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def run_leetcode_with(runner: JobRunner, isolation: Isolation, request: LeetCodeRequest) -> TestReport:
    code, calls, lang, method, compare, limits = (
        request.code, list(request.calls), request.lang, request.method, request.compare, request.limits,
    )  # fmt: skip
    parameter_types, return_type = request.parameter_types, request.return_type
    if lang in ("cpp", "java"):
        return _run_compiled_leetcode(runner, isolation, code, calls, lang, method, limits, compare)
    if lang != "python":
        raise InputError(f"unknown language {lang!r} (python, cpp or java)", field="lang")
    payload: dict[str, Any] = {"code": code, "method": method, "per_test_s": limits.test_s}
    if parameter_types is not None:
        payload["kinds"] = [_node_kind(text) for text in parameter_types]
    if return_type is not None:
        payload["return_kind"] = _node_kind(return_type)
    # The calls' arguments only: expected values stay here, where the results are compared.
    items = [{"args": call.args} for call in calls]
    sources = [_describe_call(method or _only_public_method(code), call) for call in calls]
    collected = _collect(runner, "leetcode", payload, "calls", items, limits)
    if collected.setup_error is not None:
        outcomes = [TestOutcome(index=i, source=s, status=Status.error) for i, s in enumerate(sources)]
        return _report(outcomes, collected, isolation)
    tests = [
        _leetcode_outcome(index, sources[index], call, collected.records.get(index, {"status": "error"}), compare)
        for index, call in enumerate(calls)
    ]
    return _report(tests, collected, isolation)


def _leetcode_outcome(
    index: int, source: str, call: LeetCodeCall, record: dict[str, Any], compare: CompareMode
) -> TestOutcome:
    decided = _unjudged(index, source, record)
    if decided is not None:
        return decided
    actual = record.get("actual")
    try:
        actual_text = json.dumps(actual)
    except (TypeError, ValueError, RecursionError):
        return TestOutcome(index=index, source=source, status=Status.error, exception=_MALFORMED)
    if call.expected is None:
        status = Status.passed
        expected_text = None
    else:
        expected_text = json.dumps(call.expected)
        try:
            status = Status.passed if _leetcode_matches(actual, call.expected, compare) else Status.failed
        except RecursionError:
            return TestOutcome(index=index, source=source, status=Status.error, exception=_MALFORMED)
    return TestOutcome(
        index=index, source=source, status=status, actual=actual_text, expected=expected_text, wall_s=_seconds(record)
    )


def _only_public_method(code: str) -> str | None:
    """The name the harness will call when none is given: ``Solution``'s only public method (for descriptions)."""
    import ast

    try:
        tree = python_ast.parse(code)
    except (SyntaxError, ValueError):
        return None
    for cls in tree.body:
        if isinstance(cls, ast.ClassDef) and cls.name == "Solution":
            public = [n.name for n in cls.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")]
            return public[0] if len(public) == 1 else None
    return None


def _node_kind(annotation: str) -> str:
    text = annotation.replace(" ", "").replace("typing.", "")
    node = "tree" if "TreeNode" in text else "list" if "ListNode" in text else ""
    if node and any(text.startswith(prefix) for prefix in ("List[", "list[", "Sequence[")):
        return node + "s"
    return node


def _describe_call(method: str | None, call: LeetCodeCall) -> str:
    args = ", ".join(f"{key}={json.dumps(value)}" for key, value in call.args.items())
    return f"Solution().{method or '<method>'}({args})"


def _run_compiled_leetcode(
    runner: JobRunner,
    isolation: Isolation,
    code: str,
    calls: list[LeetCodeCall],
    lang: Language,
    method: str | None,
    limits: Limits,
    compare: CompareMode,
) -> TestReport:
    """C++/Java calls: one generated program (compiled once) runs every call and reports each result on fd 3.

    Each call's result must arrive within the test budget of the previous one (the server's clock); when the program
    dies or overruns, the call it was in gets the run's status and the calls after it are errors (they never ran).
    A method the calls cannot be made on (its signature does not fit) is a setup error, not an exception.
    """
    items = [{"args": call.args} for call in calls]  # no expected values in the program
    generator = _leetcode_cpp if lang == "cpp" else _leetcode_java
    sources = [_describe_call(method, call) for call in calls]
    try:
        source = generator.build_program(code, items, method)
    except InputError as exc:
        info = ExceptionInfo(type="SignatureError", message=exc.message)
        tests = [TestOutcome(index=i, source=s, status=Status.error) for i, s in enumerate(sources)]
        return TestReport(status=Status.error, tests=tests, setup_error=info, isolation=isolation, wall_s=0.0)
    # the whole program gets every call's budget plus start-up (the JVM's included)
    budget = limits.suite_budget(len(calls))
    job, total = build_program_job(source, lang, "", None, limits, budget)
    run_step = job["steps"][-1]
    run_step["control"] = True
    run_step["results"] = {"first": 0, "count": len(calls), "per_test_s": limits.test_s, "load_s": limits.wall_s}
    reply = runner(job, total)
    outcome = outcome_from_reply(reply, budget, isolation)
    if outcome.status is Status.compile_error:
        message = outcome.compile_output or "compile error"
        tests = [TestOutcome(index=i, source=s, status=Status.compile_error) for i, s in enumerate(sources)]
        return TestReport(
            status=Status.compile_error,
            tests=tests,
            setup_error=ExceptionInfo(type="CompileError", message=message),
            isolation=isolation,
            wall_s=outcome.wall_s,
            stderr=message,
        )
    run = reply["steps"][-1]
    accepted, _ = _accepted_records(run.get("control", ""), 0, len(calls))
    tests = []
    for index, (call, text) in enumerate(zip(calls, sources)):
        if index in accepted:
            tests.append(_leetcode_outcome(index, text, call, accepted[index], compare))
        elif index == len(accepted):
            died = outcome.status if outcome.status is not Status.passed else Status.error
            info = ExceptionInfo(type="Crash", message=(outcome.stderr.strip()[-500:] or f"status {died.value}"))
            if outcome.exception == LOST:
                info = LOST
            tests.append(TestOutcome(index=index, source=text, status=died, exception=info, wall_s=outcome.wall_s))
        else:
            info = ExceptionInfo(type="NotRun", message="an earlier call ended the program")
            tests.append(TestOutcome(index=index, source=text, status=Status.error, exception=info))
    status = Status.passed if all(t.status is Status.passed for t in tests) else _worst(tests)
    return TestReport(
        status=status,
        tests=tests,
        isolation=isolation,
        wall_s=outcome.wall_s,
        stdout=outcome.stdout,
        stderr=outcome.stderr,
    )


def _leetcode_matches(actual: Any, expected: Any, mode: CompareMode) -> bool:
    """The Python harness's comparison rules: exact, unordered (two list levels), or floats within 1e-5."""
    if mode == "unordered":
        return bool(_canonical(actual, 2) == _canonical(expected, 2))
    if mode == "float":
        return _close(actual, expected)
    return bool(actual == expected)


def _canonical(value: Any, depth: int) -> Any:
    if isinstance(value, list) and depth > 0:
        return sorted((_canonical(item, depth - 1) for item in value), key=json.dumps)
    return value


def _close(actual: Any, expected: Any, tol: float = 1e-5) -> bool:
    if isinstance(actual, bool) or isinstance(expected, bool):
        return bool(actual == expected)
    if isinstance(actual, (int, float)) and isinstance(expected, (int, float)):
        return abs(actual - expected) <= tol * max(1.0, abs(expected))
    if isinstance(actual, list) and isinstance(expected, list):
        return len(actual) == len(expected) and all(_close(a, e, tol) for a, e in zip(actual, expected))
    return bool(actual == expected)
