"""Turning requests (a program, a judged program, Python tests, LeetCode calls) into server jobs and back.

A job is a list of steps in one work directory (compile, then run); the server answers with raw step results
(return code, signal, captured output, the control channel). This module owns the per-language command lines and the
rules that map raw results to :class:`Status`, so the pool and the Ray executor only move JSON around.
"""

from __future__ import annotations

import ast
import functools
import json
import re
import signal
from collections.abc import Callable
from typing import Any, Literal

from debugtutor.errors import InputError
from debugtutor.sandbox import _leetcode_cpp, _leetcode_java
from debugtutor.sandbox._models import (
    ExceptionInfo,
    ExecOutcome,
    Isolation,
    Language,
    LeetCodeCall,
    Limits,
    Status,
    TestOutcome,
    TestReport,
    time_limit_from_reference,
)

JobRunner = Callable[[dict[str, Any], float], dict[str, Any]]
CompareMode = Literal["exact", "unordered", "float"]

COMPILE_WALL_S = 60.0
COMPILE_MEMORY_MB = 4096
JVM_OVERHEAD_MB = 1024  # address space the JVM reserves beyond its heap (code cache, metaspace, thread stacks)
JVM_THREADS = 32  # the JVM's own threads count against RLIMIT_NPROC
JAVA_FLAGS = ["-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData", "-Xshare:auto"]
JVM_RESERVATIONS = ["-XX:ReservedCodeCacheSize=64m", "-XX:CompressedClassSpaceSize=64m", "-XX:MaxMetaspaceSize=256m"]


def _step_limits(limits: Limits) -> dict[str, Any]:
    return {
        "wall_s": limits.wall_s,
        "cpu_s": limits.effective_cpu_s,
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
    """The class to run: the public class, else the one with ``main``, else ``Main``."""
    public = re.search(r"public\s+(?:final\s+)?class\s+([A-Za-z_]\w*)", source)
    if public:
        return public.group(1)
    with_main = re.search(r"class\s+([A-Za-z_]\w*)[^{]*\{(?:(?!\bclass\b).)*?static\s+void\s+main\s*\(", source, re.S)
    return with_main.group(1) if with_main else "Main"


def build_program_job(
    source: str, lang: Language, stdin: str, files: dict[str, str] | None, limits: Limits
) -> tuple[dict[str, Any], float]:
    """The server job for one whole program, and the wall-clock budget it may take in all."""
    job_files = dict(files or {})
    run = {**_step_limits(limits), "stdin": stdin}
    if lang == "python":
        if "main.py" in job_files:
            raise InputError("'main.py' is reserved for the program itself", field="files")
        job_files["main.py"] = source
        steps = [{**run, "kind": "python", "source": source, "filename": "main.py"}]
        return {"files": job_files, "steps": steps}, limits.wall_s
    if lang == "cpp":
        job_files["main.cpp"] = source
        compile_step = {
            **_compile_limits(limits),
            "kind": "exec",
            "argv": ["g++", "-O2", "-std=c++17", "-o", "main", "main.cpp"],
        }
        steps = [compile_step, {**run, "kind": "exec", "argv": ["./main"]}]
        return {"files": job_files, "steps": steps}, COMPILE_WALL_S + limits.wall_s
    if lang == "java":
        name = java_class_name(source)
        job_files[f"{name}.java"] = source
        javac = ["javac", "-J-Xmx512m", *(f"-J{flag}" for flag in JAVA_FLAGS), "-encoding", "UTF-8", f"{name}.java"]
        compile_step = {**_compile_limits(limits), "kind": "exec", "argv": javac}
        java = ["java", f"-Xmx{limits.memory_mb}m", "-Xss16m", *JAVA_FLAGS, *JVM_RESERVATIONS, "-cp", ".", name]
        run.update(memory_mb=limits.memory_mb + JVM_OVERHEAD_MB, max_processes=limits.max_processes + JVM_THREADS)
        steps = [compile_step, {**run, "kind": "exec", "argv": java}]
        return {"files": job_files, "steps": steps}, COMPILE_WALL_S + limits.wall_s
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


def outcome_from_reply(reply: dict[str, Any], limits: Limits, isolation: Isolation) -> ExecOutcome:
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
    exception = _exception_from_control(run.get("control", ""))
    return ExecOutcome(
        status=run_status(run, limits.effective_cpu_s, exception),
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


def run_program_with(
    runner: JobRunner,
    isolation: Isolation,
    source: str,
    *,
    lang: Language = "python",
    stdin: str = "",
    files: dict[str, str] | None = None,
    limits: Limits | None = None,
) -> ExecOutcome:
    limits = limits or Limits()
    job, budget = build_program_job(source, lang, stdin, files, limits)
    return outcome_from_reply(runner(job, budget), limits, isolation)


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


def judge_program_with(
    runner: JobRunner,
    isolation: Isolation,
    source: str,
    *,
    lang: Language = "python",
    stdin: str = "",
    expected_stdout: str,
    float_tol: float | None = None,
    limits: Limits | None = None,
    reference_s: float | None = None,
) -> ExecOutcome:
    limits = limits or Limits()
    if reference_s is not None:
        limits = limits.model_copy(update={"wall_s": time_limit_from_reference(reference_s), "cpu_s": None})
    outcome = run_program_with(runner, isolation, source, lang=lang, stdin=stdin, limits=limits)
    if outcome.status is Status.passed and not outputs_match(outcome.stdout, expected_stdout, float_tol):
        outcome = outcome.model_copy(update={"status": Status.failed})
    return outcome


def _harness_job(
    harness: str, payload: dict[str, Any], n_tests: int, per_test_s: float, limits: Limits
) -> tuple[dict[str, Any], float]:
    """A job that runs one of our harnesses (``tests`` or ``leetcode``, preloaded by the server) on ``payload``.

    The payload travels inside the step: the forked child already holds it, with no file to write and parse.
    """
    # Loading the code gets limits.wall_s; each test gets its own budget on top (plus reporting slack).
    total = limits.wall_s + n_tests * (per_test_s + 0.25)
    step_limits = {**_step_limits(limits), "wall_s": total, "cpu_s": total}
    step = {**step_limits, "kind": "python", "harness": harness, "payload": payload, "filename": "main.py", "stdin": ""}
    return {"files": {}, "steps": [step]}, total


def _is_test_statement(line: str) -> bool:
    """Assert and expression lines are tests; other statements (imports, assignments) set up later tests."""
    try:
        body = ast.parse(line).body
    except SyntaxError:
        return True
    return len(body) == 1 and isinstance(body[0], (ast.Assert, ast.Expr))


@functools.lru_cache(maxsize=4096)
def plan_test_line(line: str) -> dict[str, str] | None:
    """How the tests harness should run one test line, worked out here once instead of in every sandboxed child.

    ``{"op": "Eq", "left": "(...)", "right": "(...)"}`` for ``assert left == right`` (any single comparison),
    ``{"op": ""}`` for any other statement, None when the line does not parse (the harness reports it). Test lines
    repeat across the programs judged on one problem, hence the cache; callers must not modify the result.
    """
    try:
        body = ast.parse(line).body
    except (SyntaxError, ValueError):  # ValueError: null bytes
        return None
    stmt = body[0] if len(body) == 1 else None
    if isinstance(stmt, ast.Assert) and isinstance(stmt.test, ast.Compare) and len(stmt.test.ops) == 1:
        left = ast.get_source_segment(line, stmt.test.left)
        right = ast.get_source_segment(line, stmt.test.comparators[0])
        if left is None or right is None:
            return None
        # Parenthesised (closing on a line of its own, after any comment) so a side spanning lines stays one expression.
        return {"op": type(stmt.test.ops[0]).__name__, "left": f"({left}\n)", "right": f"({right}\n)"}
    return {"op": ""}


def _run_harness(
    runner: JobRunner,
    isolation: Isolation,
    harness: str,
    payload: dict[str, Any],
    items_key: str,
    items: list[Any],
    sources: list[str],
    per_test_s: float,
    limits: Limits,
) -> TestReport:
    """Run the harness over all items; if one item kills the harness, record it and continue after it."""
    outcomes: dict[int, TestOutcome] = {}
    setup_error: ExceptionInfo | None = None
    wall = 0.0
    stdout = stderr = ""
    start = 0
    while start < len(items):
        part = {**payload, items_key: items[start:], "start": start}
        if items_key == "tests":
            part["replay"] = [line for line in sources[:start] if not _is_test_statement(line)]
        job, budget = _harness_job(harness, part, len(items) - start, per_test_s, limits)
        run = runner(job, budget)["steps"][0]
        wall += float(run["wall_s"])
        stdout, stderr = run["stdout"], run["stderr"]
        crash: ExceptionInfo | None = None
        for record in _control_records(run.get("control", "")):
            info = record.get("exception")
            exception = ExceptionInfo(**info) if isinstance(info, dict) else None
            event = record.get("event")
            if event == "setup_error":
                setup_error = exception
            elif event == "exception":
                crash = exception  # the harness itself died on an uncaught exception
            elif event == "test":
                outcome = TestOutcome(
                    index=int(record["index"]),
                    source=str(record["source"]),
                    status=Status(record["status"]),
                    actual=record.get("actual"),
                    expected=record.get("expected"),
                    exception=exception,
                    wall_s=float(record.get("wall_s", 0.0)),
                )
                outcomes[outcome.index] = outcome
        if setup_error is not None:
            break
        missing = next((index for index in range(start, len(items)) if index not in outcomes), None)
        if missing is None:
            break
        outcomes[missing] = TestOutcome(
            index=missing,
            source=sources[missing],
            status=_killed_status(run),
            exception=crash if crash is not None else _death_info(run),
            wall_s=max(0.0, float(run["wall_s"]) - sum(o.wall_s for i, o in outcomes.items() if i >= start)),
        )
        start = missing + 1
    tests = [
        outcomes.get(index) or TestOutcome(index=index, source=source, status=Status.error, wall_s=0.0)
        for index, source in enumerate(sources)
    ]
    if setup_error is not None:
        status = Status.error
    elif all(test.status is Status.passed for test in tests):
        status = Status.passed
    else:
        status = _worst(tests)
    return TestReport(
        status=status,
        tests=tests,
        setup_error=setup_error,
        isolation=isolation,
        wall_s=wall,
        stdout=stdout,
        stderr=stderr,
    )


def _control_records(control: str) -> list[dict[str, Any]]:
    records = []
    for line in control.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
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


def run_python_tests_with(
    runner: JobRunner,
    isolation: Isolation,
    code: str,
    tests: list[str],
    *,
    limits: Limits | None = None,
    per_test_timeout_s: float | None = None,
    setup: str = "",
    reference_s: float | None = None,
) -> TestReport:
    limits = limits or Limits()
    per_test = per_test_timeout_s or limits.wall_s
    if reference_s is not None:
        per_test = time_limit_from_reference(reference_s)
    tests = list(tests)
    payload = {"code": code, "setup": setup, "per_test_s": per_test, "plans": [plan_test_line(test) for test in tests]}
    return _run_harness(runner, isolation, "tests", payload, "tests", tests, tests, per_test, limits)


def run_leetcode_with(
    runner: JobRunner,
    isolation: Isolation,
    code: str,
    calls: list[LeetCodeCall],
    *,
    lang: Language = "python",
    method: str | None = None,
    limits: Limits | None = None,
    compare: CompareMode = "exact",
    per_test_timeout_s: float | None = None,
    reference_s: float | None = None,
) -> TestReport:
    limits = limits or Limits()
    per_test = per_test_timeout_s or limits.wall_s
    if reference_s is not None:
        per_test = time_limit_from_reference(reference_s)
    if lang in ("cpp", "java"):
        return _run_compiled_leetcode(runner, isolation, code, calls, lang, method, limits, compare, per_test)
    if lang != "python":
        raise InputError(f"unknown language {lang!r} (python, cpp or java)", field="lang")
    payload = {"code": code, "method": method, "compare": compare, "per_test_s": per_test}
    items = [call.model_dump(mode="json") for call in calls]
    sources = [_describe_call(method, call) for call in calls]
    return _run_harness(runner, isolation, "leetcode", payload, "calls", items, sources, per_test, limits)


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
    per_test: float,
) -> TestReport:
    """C++/Java calls: one generated program (compiled once) runs every call and prints one marked JSON line each.

    A call slower than ``per_test`` is a timeout; when the program dies, the call it was in gets the run's status
    and the calls after it are errors (they never ran).
    """
    items = [call.model_dump(mode="json") for call in calls]
    generator = _leetcode_cpp if lang == "cpp" else _leetcode_java
    source = generator.build_program(code, items, method)
    # the whole program gets every call's budget plus start-up (the JVM's included)
    run_limits = limits.model_copy(update={"wall_s": limits.wall_s + len(calls) * (per_test + 0.25), "cpu_s": None})
    job, budget = build_program_job(source, lang, "", None, run_limits)
    outcome = outcome_from_reply(runner(job, budget), run_limits, isolation)
    sources = [_describe_call(method, call) for call in calls]
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
    results: dict[int, tuple[float, str]] = {}
    for line in outcome.stdout.splitlines():
        if line.startswith(_leetcode_cpp.MARKER + " "):
            parts = line.split(" ", 3)
            if len(parts) == 4:
                results[int(parts[1])] = (float(parts[2]) / 1000.0, parts[3])
    tests = []
    for index, (call, text) in enumerate(zip(calls, sources)):
        if index in results:
            wall, actual_json = results[index]
            try:
                actual = json.loads(actual_json)
            except ValueError:
                actual = actual_json
            status = Status.passed
            expected = None
            if wall > per_test:
                status = Status.timeout
            elif call.expected is not None:
                expected = json.dumps(call.expected)
                status = Status.passed if _leetcode_matches(actual, call.expected, compare) else Status.failed
            tests.append(
                TestOutcome(
                    index=index, source=text, status=status, actual=json.dumps(actual), expected=expected, wall_s=wall
                )
            )
        elif index == len(results):
            died = outcome.status if outcome.status is not Status.passed else Status.error
            info = ExceptionInfo(type="Crash", message=(outcome.stderr.strip()[-500:] or f"status {died.value}"))
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
