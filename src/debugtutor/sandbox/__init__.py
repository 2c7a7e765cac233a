"""Running untrusted code: every program from a student, a dataset or a model runs here and nowhere else.

Whole programs (Python, C++, Java) with stdin, judged on stdout; Python code against assert-style unit tests; LeetCode
``class Solution`` methods with ListNode / TreeNode arguments. Each run has wall and CPU time, address space, process,
output and file size limits, a fresh work directory, an empty environment, no network, and is killed with everything it
started. Isolation is bubblewrap when available (``ExecOutcome.isolation == "bwrap"``), else rlimits only.

The module-level functions use a shared process-wide pool (:func:`default_pool`); create a :class:`SandboxPool` to
choose the number of workers or the Ray executor, and use :meth:`SandboxPool.map` for batches.
"""

from __future__ import annotations

import asyncio

from debugtutor.sandbox._isolation import isolation_level
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
from debugtutor.sandbox._pool import (
    JudgeRequest,
    LeetCodeRequest,
    ProgramRequest,
    PythonTestsRequest,
    SandboxPool,
    SandboxRequest,
    SandboxResult,
    default_pool,
)
from debugtutor.sandbox._programs import CompareMode, outputs_match

__all__ = [
    "CompareMode",
    "ExceptionInfo",
    "ExecOutcome",
    "Isolation",
    "JudgeRequest",
    "Language",
    "LeetCodeCall",
    "LeetCodeRequest",
    "Limits",
    "ProgramRequest",
    "PythonTestsRequest",
    "SandboxPool",
    "SandboxRequest",
    "SandboxResult",
    "Status",
    "TestOutcome",
    "TestReport",
    "ajudge_program",
    "arun_leetcode",
    "arun_program",
    "arun_python_tests",
    "default_pool",
    "isolation_level",
    "judge_program",
    "outputs_match",
    "reference_time_s",
    "run_leetcode",
    "run_program",
    "run_python_tests",
    "solution_signatures",
    "time_limit_from_reference",
]


def run_program(
    source: str,
    *,
    lang: Language = "python",
    stdin: str = "",
    files: dict[str, str] | None = None,
    limits: Limits | None = None,
) -> ExecOutcome:
    """Run a whole program; ``passed`` means it exited 0 within its limits.

    Python ``source`` runs as ``__main__`` from ``main.py`` in a fresh work directory that also holds ``files``
    (relative names), so a harness script can import helper files and print JSON for the caller to read.
    """
    return default_pool().run_program(source, lang=lang, stdin=stdin, files=files, limits=limits)


def judge_program(
    source: str,
    *,
    lang: Language = "python",
    stdin: str = "",
    expected_stdout: str,
    float_tol: float | None = None,
    limits: Limits | None = None,
    reference_s: float | None = None,
) -> ExecOutcome:
    """Run a program and compare its stdout with ``expected_stdout``: passed or failed (or why it did not finish).

    The comparison is exact modulo trailing whitespace, or token-wise with ``float_tol`` (absolute, relative for
    values above 1). With ``reference_s`` (a reference solution's runtime) the wall limit becomes
    :func:`time_limit_from_reference` of it.
    """
    return default_pool().judge_program(
        source,
        lang=lang,
        stdin=stdin,
        expected_stdout=expected_stdout,
        float_tol=float_tol,
        limits=limits,
        reference_s=reference_s,
    )


def run_python_tests(
    code: str,
    tests: list[str],
    *,
    limits: Limits | None = None,
    per_test_timeout_s: float | None = None,
    setup: str = "",
    reference_s: float | None = None,
) -> TestReport:
    """Run assert-style test lines against the module namespace of ``code``: one outcome per test line.

    Each ``assert`` is judged outside the program's process: only the sub-expressions that call into the program run
    there, and their values come back as plain data (see ``_test_plans``), so nothing the program writes can pass a
    test for it.

    The lines run in order in one fresh process, each ``assert``/expression line with its own budget
    (``per_test_timeout_s``, else ``limits.wall_s``, else :func:`time_limit_from_reference` of ``reference_s``);
    other statements (imports, node construction) run in the shared namespace so later lines see them. A line that
    overruns its budget in a way its alarm cannot stop, or ends the process, is reported as such, and the lines after
    it continue in a new process.
    """
    return default_pool().run_python_tests(
        code, tests, limits=limits, per_test_timeout_s=per_test_timeout_s, setup=setup, reference_s=reference_s
    )


def solution_signatures(code: str, lang: Language = "python") -> list[tuple[str, list[str]]]:
    """The ``class Solution`` methods of ``code`` as (name, parameter names), in order, for choosing ``method=``.

    Python is parsed with ``ast``; C++ and Java with the signature reader the compiled harnesses use."""
    if lang == "python":
        import ast

        try:
            tree = ast.parse(code)
        except SyntaxError:
            return []
        return [
            (node.name, [arg.arg for arg in node.args.args[1:]])
            for cls in tree.body
            if isinstance(cls, ast.ClassDef) and cls.name == "Solution"
            for node in cls.body
            if isinstance(node, ast.FunctionDef)
        ]
    if lang == "cpp":
        from debugtutor.sandbox._leetcode_cpp import solution_methods as cpp_methods

        return [(m.name, [name for _, name in m.parameters]) for m in cpp_methods(code)]
    from debugtutor.sandbox._leetcode_java import solution_methods as java_methods

    return [(m.name, [name for _, name in m.parameters]) for m in java_methods(code)]


def run_leetcode(
    code: str,
    calls: list[LeetCodeCall],
    *,
    lang: Language = "python",
    method: str | None = None,
    limits: Limits | None = None,
    compare: CompareMode = "exact",
    per_test_timeout_s: float | None = None,
    reference_s: float | None = None,
    parameter_types: list[str] | None = None,
    return_type: str | None = None,
) -> TestReport:
    """Call a ``class Solution`` method once per call (Python, C++ or Java); ``actual``/``expected`` hold JSON in
    list notation. C++ and Java compile one generated program for all calls.

    With ``expected=None`` a call passes when it returns, and ``actual`` records the value (an oracle's output).
    The expected values never enter the program's process: results are compared outside it. With
    ``parameter_types`` (and ``return_type``), the problem's own type hints in parameter order (Python), arguments
    and results are converted as those say, whatever the program's hints (a submission without hints still receives
    ``ListNode``/``TreeNode`` values). A returned iterator (generator, ``map``, ``deque``) reads as its list, as on
    LeetCode. A C++/Java method whose signature the calls do not fit is a
    ``setup_error`` of type ``SignatureError`` with every call failing, not an exception.
    """
    return default_pool().run_leetcode(
        code,
        calls,
        lang=lang,
        method=method,
        limits=limits,
        compare=compare,
        per_test_timeout_s=per_test_timeout_s,
        reference_s=reference_s,
        parameter_types=parameter_types,
        return_type=return_type,
    )


async def arun_program(
    source: str,
    *,
    lang: Language = "python",
    stdin: str = "",
    files: dict[str, str] | None = None,
    limits: Limits | None = None,
) -> ExecOutcome:
    """Async twin of :func:`run_program` (runs on a worker thread; the pool bounds the parallelism)."""
    return await asyncio.to_thread(run_program, source, lang=lang, stdin=stdin, files=files, limits=limits)


async def ajudge_program(
    source: str,
    *,
    lang: Language = "python",
    stdin: str = "",
    expected_stdout: str,
    float_tol: float | None = None,
    limits: Limits | None = None,
    reference_s: float | None = None,
) -> ExecOutcome:
    """Async twin of :func:`judge_program`."""
    return await asyncio.to_thread(
        judge_program,
        source,
        lang=lang,
        stdin=stdin,
        expected_stdout=expected_stdout,
        float_tol=float_tol,
        limits=limits,
        reference_s=reference_s,
    )


async def arun_python_tests(
    code: str,
    tests: list[str],
    *,
    limits: Limits | None = None,
    per_test_timeout_s: float | None = None,
    setup: str = "",
    reference_s: float | None = None,
) -> TestReport:
    """Async twin of :func:`run_python_tests`."""
    return await asyncio.to_thread(
        run_python_tests,
        code,
        tests,
        limits=limits,
        per_test_timeout_s=per_test_timeout_s,
        setup=setup,
        reference_s=reference_s,
    )


async def arun_leetcode(
    code: str,
    calls: list[LeetCodeCall],
    *,
    lang: Language = "python",
    method: str | None = None,
    limits: Limits | None = None,
    compare: CompareMode = "exact",
    per_test_timeout_s: float | None = None,
    reference_s: float | None = None,
    parameter_types: list[str] | None = None,
    return_type: str | None = None,
) -> TestReport:
    """Async twin of :func:`run_leetcode`."""
    return await asyncio.to_thread(
        run_leetcode,
        code,
        calls,
        lang=lang,
        method=method,
        limits=limits,
        compare=compare,
        per_test_timeout_s=per_test_timeout_s,
        reference_s=reference_s,
        parameter_types=parameter_types,
        return_type=return_type,
    )


def reference_time_s(report: TestReport) -> float:
    """The slowest test of a reference solution's report: feed it to ``reference_s`` when judging other code."""
    return max((test.wall_s for test in report.tests), default=0.0)
