"""Running untrusted code: every program from a student, a dataset or a model runs here and nowhere else.

Every run is a request record, and :func:`run` (``arun`` from a coroutine) returns its typed result:

- :class:`ProgramRequest`: a whole program (Python, C++, Java) with stdin → :class:`ExecOutcome` (and, for a driver we
  generate, the result records it owes on the judge's channel, never read from stdout);
- :class:`JudgeRequest`: a whole program judged on its stdout → :class:`ExecOutcome`;
- :class:`PythonTestsRequest`: Python code against assert-style test lines → :class:`TestReport`;
- :class:`LeetCodeRequest`: ``class Solution`` method calls with LeetCode arguments → :class:`TestReport`.

Each request carries its :class:`Limits`: every time budget (with one documented order of precedence), address
space, processes, output and file size. Each run has a fresh work directory, an empty environment, no network, and is
killed with everything it started. Isolation is bubblewrap when available (``isolation == "bwrap"``), else rlimits
only. :func:`run` uses a shared process-wide pool (:func:`default_pool`); create a :class:`SandboxPool` to choose the
number of workers or the Ray executor, and use :meth:`SandboxPool.map` for batches.
"""

from __future__ import annotations

import asyncio
from typing import overload

from debugtutor import python_ast
from debugtutor.sandbox._isolation import isolation_level, missing_toolchain, precompiled_header_flags
from debugtutor.sandbox._pool import SandboxPool, default_pool
from debugtutor.sandbox._programs import outputs_match
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
    SandboxRequest,
    SandboxResult,
    Status,
    TestOutcome,
    TestReport,
    time_limit_from_reference,
)

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
    "RunBudget",
    "SandboxPool",
    "SandboxRequest",
    "SandboxResult",
    "Status",
    "TestOutcome",
    "TestReport",
    "arun",
    "default_pool",
    "isolation_level",
    "missing_toolchain",
    "outputs_match",
    "precompiled_header_flags",
    "reference_time_s",
    "run",
    "solution_signatures",
    "time_limit_from_reference",
]


@overload
def run(request: ProgramRequest | JudgeRequest) -> ExecOutcome: ...
@overload
def run(request: PythonTestsRequest | LeetCodeRequest) -> TestReport: ...
@overload
def run(request: SandboxRequest) -> SandboxResult: ...
def run(request: SandboxRequest) -> SandboxResult:
    """Run one request in the process-wide pool."""
    return default_pool().run(request)


@overload
async def arun(request: ProgramRequest | JudgeRequest) -> ExecOutcome: ...
@overload
async def arun(request: PythonTestsRequest | LeetCodeRequest) -> TestReport: ...
@overload
async def arun(request: SandboxRequest) -> SandboxResult: ...
async def arun(request: SandboxRequest) -> SandboxResult:
    """:func:`run` from a coroutine (on a worker thread; the pool bounds the parallelism)."""
    return await asyncio.to_thread(default_pool().run, request)


def solution_signatures(code: str, lang: Language = "python") -> list[tuple[str, list[str]]]:
    """The ``class Solution`` methods of ``code`` as (name, parameter names), in order, for choosing ``method=``.

    Python is parsed with ``ast``; C++ and Java with the signature reader the compiled harnesses use."""
    if lang == "python":
        import ast

        try:
            tree = python_ast.parse(code)
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


def reference_time_s(report: TestReport) -> float:
    """The slowest test of a reference solution's report: give it as ``Limits(reference_s=...)`` when judging other
    code."""
    return max((test.wall_s for test in report.tests), default=0.0)
