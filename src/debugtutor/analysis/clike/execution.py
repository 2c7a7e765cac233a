"""Execution facts about a C++ or Java program on LeetCode calls: compiler diagnostics, per-call outcomes with the
line a failing call crashed or overran at, and per-call line coverage, from one sandboxed job.

The job compiles the program twice in one translation unit (or one ``javac`` run): as it is, for the compiler's
messages about the student's own lines, and with coverage probes, whose run gives the outcomes and the lines each
call ran. When the probed copy does not compile (a probe the parser placed badly), the plain copy's run stands in,
without coverage.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from debugtutor.analysis.clike.design import unmatched_operations
from debugtutor.analysis.clike.diagnostics import compiler_diagnostics, merge, pattern_diagnostics
from debugtutor.analysis.clike.harness import CallOutcome, Variant, VariantResult, arun_variants
from debugtutor.analysis.clike.syntax_tree import CompiledLanguage
from debugtutor.analysis.examples import is_design_call
from debugtutor.analysis.execution import ExecutionFacts, TestRun
from debugtutor.analysis.static import Diagnostic
from debugtutor.sandbox import CompareMode, ExceptionInfo, LeetCodeCall, Status, isolation_level


@dataclass
class CompiledFacts:
    """What one analysis job found: diagnostics, whether the program compiled, and the execution facts."""

    diagnostics: list[Diagnostic]
    compiled: bool
    facts: ExecutionFacts
    harness_error: str | None = None
    outcomes: list[CallOutcome] = field(default_factory=list)
    wall_s: float = 0.0


def describe_call(method: str | None, call: LeetCodeCall) -> str:
    if is_design_call(call):
        operations = zip(call.args["operations"], call.args["arguments"])
        return "; ".join(f"{name}({', '.join(json.dumps(value) for value in args)})" for name, args in operations)
    args = ", ".join(f"{key}={json.dumps(value)}" for key, value in call.args.items())
    return f"Solution().{method or '<method>'}({args})"


def _test_run(outcome: CallOutcome, source: str) -> TestRun:
    exception = None
    if outcome.status != Status.passed and outcome.error_type is not None:
        exception = ExceptionInfo(type=outcome.error_type, message=outcome.error_message, line=outcome.error_line)
    return TestRun(
        index=outcome.index,
        source=source,
        status=outcome.status,
        covered_lines=outcome.covered,
        actual=outcome.actual,
        expected=outcome.expected,
        exception=exception,
        wall_s=outcome.cpu_s,
    )


async def acollect_compiled_facts(
    code: str,
    calls: Sequence[LeetCodeCall],
    language: CompiledLanguage,
    *,
    method: str | None = None,
    per_test_s: float = 1.0,
    compare: CompareMode = "exact",
) -> CompiledFacts:
    """Compile ``code`` (plain and probed) and run it on ``calls``; see the module docstring."""
    batch = await arun_variants(
        language,
        [Variant(code), Variant(code, instrument=True)],
        list(calls),
        method=method,
        per_test_s=per_test_s,
        warnings=True,
        deadline_s=60.0 + per_test_s * 4 * len(calls),
        compare=compare,
    )
    plain: VariantResult = batch.variants[0] if batch.variants else VariantResult(compiled=False)
    probed: VariantResult = batch.variants[1] if len(batch.variants) > 1 else VariantResult(compiled=False)
    diagnostics = merge([*compiler_diagnostics(plain.messages, code, language), *pattern_diagnostics(code, language)])
    if plain.compiled and plain.harness_error:
        # (a design class the examples' operations cannot be called on: the compiler is silent, the harness is not)
        diagnostics = merge([*diagnostics, *unmatched_operations(code, calls)])
    used = probed if probed.compiled and probed.calls else plain
    sources = [describe_call(method, call) for call in calls]
    tests = [_test_run(outcome, sources[outcome.index]) for outcome in used.calls]
    load_error = None
    if not plain.compiled:
        errors = plain.errors
        first = errors[0] if errors else None
        message = first.message if first is not None else (batch.problem or "the program does not compile")
        load_error = ExceptionInfo(type="CompileError", message=message, line=first.line if first else None)
    elif plain.harness_error:
        load_error = ExceptionInfo(type="SignatureError", message=plain.harness_error)
    status = Status.passed if tests and all(t.status == Status.passed for t in tests) else Status.failed
    if load_error is not None:
        status = Status.compile_error if load_error.type == "CompileError" else Status.error
    facts = ExecutionFacts(
        load_error=load_error, tests=tests, run_status=status, isolation=isolation_level(), wall_s=batch.wall_s
    )
    return CompiledFacts(
        diagnostics=diagnostics,
        compiled=plain.compiled,
        facts=facts,
        harness_error=plain.harness_error,
        outcomes=used.calls,
        wall_s=batch.wall_s,
    )


def collect_compiled_facts(
    code: str, calls: Sequence[LeetCodeCall], language: CompiledLanguage, **options: object
) -> CompiledFacts:
    """Synchronous :func:`acollect_compiled_facts`."""
    return asyncio.run(acollect_compiled_facts(code, calls, language, **options))  # type: ignore[arg-type]
