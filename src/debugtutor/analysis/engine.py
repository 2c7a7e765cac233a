"""The analysis facade: one call that tells what is wrong with a program and how to fix it.

:func:`analyze` runs the static checks, runs the tests in the sandbox with coverage and a trace of the first failing
test, ranks suspicious lines, and searches for a repair within a budget; a repair that is found moves the lines it
changed to the top of the ranking. The Socratic tutor and the DebugEval solvers call this (or :func:`aanalyze` from
async code) to answer without a model, and to ground a model's prompts in facts.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from functools import lru_cache

from pydantic import BaseModel, Field

from debugtutor.analysis.examples import is_design
from debugtutor.analysis.execution import (
    FIRST_FAILING,
    LOAD_S,
    ExecutionFacts,
    LineTrace,
    collect_execution_facts,
    split_unit_tests,
)
from debugtutor.analysis.localization import SuspiciousLine, enclosing_loop, localize
from debugtutor.analysis.repair import Repair, RepairBudget, RepairSearch, arepair
from debugtutor.analysis.static import Diagnostic, check
from debugtutor.sandbox import (
    CompareMode,
    Language,
    LeetCodeCall,
    LeetCodeRequest,
    Limits,
    PythonTestsRequest,
    Status,
    TestOutcome,
    TestReport,
    arun,
    isolation_level,
    run,
)

# Per-test time budget of a repair candidate: generous against the buggy program's own (traced) test times, so a
# fix is never cut short, yet short enough that candidates which loop forever cost little.
REPAIR_TEST_TIMEOUT_BOUNDS_S = (0.05, 0.5)
REPAIR_TEST_TIMEOUT_FACTOR = 20.0


def repair_test_timeout(facts: ExecutionFacts) -> float:
    """The per-test timeout for repair candidates, scaled from how long the buggy program's tests took."""
    low, high = REPAIR_TEST_TIMEOUT_BOUNDS_S
    finished = [test.wall_s for test in facts.tests if test.status not in (Status.timeout, Status.memory)]
    if not finished:
        return high
    return min(high, max(low, REPAIR_TEST_TIMEOUT_FACTOR * max(finished)))


class AnalysisBudget(BaseModel):
    """Limits for one analysis: the repair search's budget (``repair_seconds`` 0 disables the search)."""

    repair_seconds: float = 10.0
    repair_executions: int = 20000
    per_test_s: float = 1.0
    max_trace_events: int = 1000


class AnalysisReport(BaseModel):
    """What :func:`analyze` found about one program and its tests."""

    diagnostics: list[Diagnostic] = Field(default_factory=list)
    test_report: TestReport | None = None
    coverage: dict[int, list[int]] = Field(default_factory=dict)
    suspicious_lines: list[SuspiciousLine] = Field(default_factory=list)
    repair: Repair | None = None
    repair_search: RepairSearch | None = None
    trace: LineTrace | None = None
    execution: ExecutionFacts | None = None

    @property
    def failing_tests(self) -> list[int]:
        if self.test_report is None:
            return []
        return [test.index for test in self.test_report.tests if test.status != Status.passed]


# Exceptions that do not say where a running program went wrong: load errors and failed asserts.
_NOT_RAISED_HERE = frozenset({"AssertionError", "SyntaxError", "IndentationError", "TabError"})


def _exception_lines(
    code: str, facts: ExecutionFacts, test_report: TestReport | None = None, language: Language = "python"
) -> dict[int, str]:
    """Where failing tests raised (not assertion failures). The plain test run's lines are preferred: under the
    tracer a deep recursion overflows inside the trace hook, which blurs the line."""
    lines: dict[int, str] = {}
    if test_report is not None:
        for outcome in test_report.tests:
            error = outcome.exception
            if outcome.status == Status.passed or error is None or error.line is None:
                continue
            if outcome.status == Status.timeout:
                _timed_out_at(lines, code, error.line, language)
            elif error.type not in _NOT_RAISED_HERE:
                _raised_at(lines, code, error.line, error.type, language)
    if lines:
        return lines
    for test in facts.failing:
        if test.status == Status.timeout and test.exception is not None and test.exception.line is not None:
            _timed_out_at(lines, code, test.exception.line, language)
        elif (
            test.exception is not None
            and test.exception.line is not None
            and test.exception.type not in _NOT_RAISED_HERE
        ):
            _raised_at(lines, code, test.exception.line, test.exception.type, language)
    if facts.load_error is not None and facts.load_error.line is not None:
        lines.setdefault(facts.load_error.line, facts.load_error.type)
    return lines


def _timed_out_at(lines: dict[int, str], code: str, line: int, language: Language) -> None:
    """Book a timeout stopped at ``line``: it is somewhere inside the loop that does not end (point at the loop),
    or below a call of the function by itself that never gets nearer to an end (its own arguments, or one that its
    base case waits for passed on unchanged or moved away: point at the call)."""
    for call_line in _endless_self_calls(code, language):
        lines.setdefault(call_line, "a timeout (the function calls itself with its own arguments)")
    loop = enclosing_loop(code, line, language)
    if loop is not None:
        lines.setdefault(loop, "a timeout (the loop does not end)")


@lru_cache(maxsize=8)
def _endless_self_calls(code: str, language: Language) -> tuple[int, ...]:
    """(one parse per program, however many of its tests time out)"""
    if language == "python":
        return ()
    from debugtutor.analysis.clike.syntax_tree import line_of, parse, receding_self_calls, unchanged_self_calls

    tree = parse(code, language)
    calls = [call for _, call in unchanged_self_calls(tree)] + [call for call, _ in receding_self_calls(tree)]
    return tuple(dict.fromkeys(line_of(call) for call in calls))


def _raised_at(lines: dict[int, str], code: str, line: int, error: str, language: Language) -> None:
    """Book an exception at ``line``; a null used in C++/Java also points back to where it was set to null."""
    lines.setdefault(line, error)
    if language != "python":
        from debugtutor.analysis.clike.nulls import is_null_failure, null_origins

        if is_null_failure(error):
            for origin in null_origins(code, line, language):
                lines.setdefault(origin, f"the null behind the {error} at line {line} is set here")


def rank_lines(
    code: str,
    facts: ExecutionFacts | None,
    diagnostics: Sequence[Diagnostic],
    repair: Repair | None = None,
    test_report: TestReport | None = None,
    language: Language = "python",
) -> list[SuspiciousLine]:
    """Localization from what is known: coverage and failures, static diagnostics, and a verified repair.

    The lines of a repair's logic edits and its reference edits lead; in Python, syntax-level edits (labelled
    syntax, or a non-logic edit that made the program compile: the interpreter already points at those) and the lines
    the repair merely touched support. A logic edit that restores compilation (a moved statement) is the fix itself.
    In C++ and Java every edit leads: a compiler places a missing ';' or brace at the token after it, often on the
    next line, so its message alone points at the wrong line."""
    repaired: list[int] = []
    support: list[int] = []
    if repair is not None:
        semantic = [
            edit
            for edit in repair.edits
            if language != "python"
            or edit.category == "logic"
            or (edit.category != "syntax" and not edit.made_it_compile)
        ] or repair.edits
        repaired = [edit.original_line or edit.line for edit in semantic]
        support = [line for line in [*repair.edit_lines, *repair.changed_lines] if line not in repaired]
    coverage = facts.coverage() if facts is not None else None
    failed = [test.index for test in facts.failing] if facts is not None else []
    return localize(
        code,
        coverage=coverage,
        failed_tests=failed,
        diagnostics=diagnostics,
        exception_lines=_exception_lines(code, facts, test_report, language) if facts is not None else None,
        repaired_lines=repaired,
        repair_support_lines=support,
        language=language,
    )


def compiled_localizer(
    calls: Sequence[LeetCodeCall],
    language: Language,
    method: str | None,
    *,
    per_test_s: float = 1.0,
    compare: CompareMode = "exact",
) -> Callable[[str], Awaitable[list[int]]]:
    """The repair search's ``localize`` for C++/Java: a variant of the program ranked on its own compile and run."""
    from debugtutor.analysis.clike.execution import acollect_compiled_facts

    async def localize_variant(source: str) -> list[int]:
        variant = await acollect_compiled_facts(source, calls, language, method=method, per_test_s=per_test_s,  # type: ignore[arg-type]
                                                compare=compare)  # fmt: skip
        facts = variant.facts if variant.compiled else None
        return [item.line for item in rank_lines(source, facts, variant.diagnostics, language=language)]

    return localize_variant


def _report_of(facts: ExecutionFacts) -> TestReport:
    """The test report of a compiled run the harness made (each call's outcome as the judge would report it)."""
    tests = [
        TestOutcome(index=run.index, source=run.source, status=run.status, actual=run.actual, expected=run.expected,
                    exception=run.exception, wall_s=run.wall_s)
        for run in facts.tests
    ]  # fmt: skip
    return TestReport(status=facts.run_status, tests=tests, setup_error=facts.load_error,
                      isolation=isolation_level(), wall_s=facts.wall_s)  # fmt: skip


async def _aanalyze_compiled(
    code: str,
    calls: Sequence[LeetCodeCall],
    language: Language,
    method: str | None,
    budget: AnalysisBudget,
) -> AnalysisReport:
    """The C++/Java path of :func:`aanalyze`: LeetCode calls instead of assert lines."""
    from debugtutor.analysis.clike.execution import acollect_compiled_facts

    calls = list(calls)
    per_test = budget.per_test_s
    if calls and is_design(calls):
        # the sandbox's LeetCode judge calls one Solution method; a design class's sequences run in the harness
        found = await acollect_compiled_facts(code, calls, language, method=method, per_test_s=per_test)  # type: ignore[arg-type]
        test_report = _report_of(found.facts)
    elif calls:
        request = LeetCodeRequest(
            code=code, calls=calls, lang=language, method=method,
            limits=Limits(wall_s=LOAD_S, per_test_s=per_test, memory_mb=1024),
        )  # fmt: skip
        test_report, found = await asyncio.gather(
            arun(request),
            acollect_compiled_facts(code, calls, language, method=method, per_test_s=per_test),  # type: ignore[arg-type]
        )
        judged, mapped = test_report.setup_error, found.facts.load_error
        if judged is not None and mapped is not None and judged.type == mapped.type == "CompileError":
            # the judge compiles the program inside its harness and quotes the compiler at the harness's lines
            # ("main.cpp:30:5"); the facts read the same message back onto the program's own lines
            test_report = test_report.model_copy(update={"setup_error": mapped})
    else:
        test_report = None
        found = await acollect_compiled_facts(code, calls, language, method=method)  # type: ignore[arg-type]
    facts = found.facts if found.compiled else None
    ranked = rank_lines(code, facts, found.diagnostics, test_report=test_report, language=language)
    report = AnalysisReport(
        diagnostics=found.diagnostics,
        test_report=test_report,
        coverage={index: sorted(lines) for index, lines in found.facts.coverage().items()} if facts else {},
        suspicious_lines=ranked,
        execution=found.facts,
    )
    if budget.repair_seconds <= 0 or not calls or test_report is None or test_report.status == Status.passed:
        return report

    search = await arepair(
        code,
        leetcode_calls=calls,
        method=method,
        language=language,
        suspicious_lines=[item.line for item in ranked],
        budget=RepairBudget(
            max_seconds=budget.repair_seconds,
            max_executions=budget.repair_executions,
            per_test_s=per_test,
            batch_size=32,
        ),
        localize=compiled_localizer(calls, language, method, per_test_s=per_test),
    )
    report.repair_search = search
    report.repair = search.best
    if search.best is not None:
        report.suspicious_lines = rank_lines(
            code, facts, found.diagnostics, repair=search.best, test_report=test_report, language=language
        )
    return report


async def aanalyze(
    code: str,
    tests: Sequence[str] | Sequence[LeetCodeCall],
    *,
    setup: str = "",
    budget: AnalysisBudget | None = None,
    trace_test: int | None = FIRST_FAILING,
    language: Language = "python",
    method: str | None = None,
) -> AnalysisReport:
    """Analyze ``code`` against assert-style ``tests`` (run after ``setup``); see :func:`analyze`. C++ and Java
    (``language``) take LeetCode calls of ``class Solution``'s ``method`` as ``tests``."""
    budget = budget or AnalysisBudget()
    if language != "python":
        calls = [test for test in tests if isinstance(test, LeetCodeCall)]
        return await _aanalyze_compiled(code, calls, language, method, budget)
    tests = [test for test in tests if isinstance(test, str)]
    diagnostics = check(code)
    request = PythonTestsRequest(
        code=code, tests=tests, setup=setup, limits=Limits(wall_s=LOAD_S, per_test_s=budget.per_test_s)
    )
    test_report, facts = await asyncio.gather(
        asyncio.to_thread(run, request),
        asyncio.to_thread(
            collect_execution_facts,
            code,
            tests,
            setup=setup,
            trace_test=trace_test,
            max_events=budget.max_trace_events,
            per_test_s=budget.per_test_s,
        ),
    )
    compiles = not any(diagnostic.category == "syntax" for diagnostic in diagnostics)
    ranked = rank_lines(code, facts if compiles else None, diagnostics, test_report=test_report)
    report = AnalysisReport(
        diagnostics=diagnostics,
        test_report=test_report,
        coverage={index: sorted(lines) for index, lines in facts.coverage().items()} if compiles else {},
        suspicious_lines=ranked,
        trace=facts.trace,
        execution=facts,
    )
    if budget.repair_seconds <= 0 or not tests or test_report.status == Status.passed:
        return report

    per_test = repair_test_timeout(facts)

    async def localize_variant(source: str) -> list[int]:
        # a variant of the program: its tests get the repair search's short per-test budget
        variant_facts = await asyncio.to_thread(
            collect_execution_facts, source, tests, setup=setup, per_test_s=per_test
        )
        return [item.line for item in rank_lines(source, variant_facts, check(source))]

    search = await arepair(
        code,
        tests,
        setup=setup,
        suspicious_lines=[item.line for item in ranked],
        budget=RepairBudget(
            max_seconds=budget.repair_seconds,
            max_executions=budget.repair_executions,
            per_test_s=per_test,
        ),
        localize=localize_variant,
    )
    report.repair_search = search
    report.repair = search.best
    if search.best is not None:
        report.suspicious_lines = rank_lines(
            code, facts if compiles else None, diagnostics, repair=search.best, test_report=test_report
        )
    return report


def analyze(
    code: str,
    tests: Sequence[str] | Sequence[LeetCodeCall] | str,
    *,
    setup: str = "",
    budget: AnalysisBudget | None = None,
    trace_test: int | None = FIRST_FAILING,
    language: Language = "python",
    method: str | None = None,
) -> AnalysisReport:
    """Static diagnostics, test outcomes, coverage, ranked suspicious lines, a trace and (within ``budget``) a
    verified repair for ``code``. ``tests`` is a list of assert statements, or a block of test code that is split
    into setup and asserts; for C++ and Java (``language``) a list of LeetCode calls of ``method``."""
    if isinstance(tests, str):
        split = split_unit_tests(tests)
        setup = "\n".join(part for part in (setup, split.setup) if part)
        tests = split.tests
    return asyncio.run(
        aanalyze(code, tests, setup=setup, budget=budget, trace_test=trace_test, language=language, method=method)
    )
