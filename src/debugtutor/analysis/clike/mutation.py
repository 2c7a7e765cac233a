"""Bug injection for C++ and Java: mutants over the DebugBench taxonomy, each verified by compiling and running it.

Candidates come from :func:`debugtutor.analysis.clike.edits.candidate_edits` in ``mutate`` direction (shuffled by
``seed``), are compiled and run on the calls in batches (one sandboxed job for a few dozen), and are kept when they
show the bug they claim:

* ``syntax`` — the program no longer compiles; or, for the two syntax types that C++ lets compile (``misused == or
  =``, ``illegal separation``), it compiles and some call's outcome changes;
* ``reference`` — it no longer compiles with an error about a name, member or type; or (``faulty indexing``) a
  call now fails on an out-of-range index, or its outcome changes;
* ``logic`` — it compiles and some call's outcome changes;
* ``multiple`` (2-4 edits at distinct lines) — it fails to compile or some outcome changes.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Collection, Iterable, Sequence

from debugtutor.analysis.clike.diagnostics import compiler_diagnostics
from debugtutor.analysis.clike.edits import candidate_edits
from debugtutor.analysis.clike.harness import Variant, VariantResult, arun_variants
from debugtutor.analysis.clike.syntax_tree import CompiledLanguage
from debugtutor.analysis.edits import ALL_CATEGORIES, Edit
from debugtutor.analysis.mutation import Mutant, MutantCategory, stack_edits
from debugtutor.sandbox import LeetCodeCall

BATCH = 24
_INDEX_ERRORS = frozenset(
    {"IndexOutOfRange", "ArrayIndexOutOfBoundsException", "StringIndexOutOfBoundsException",
     "IndexOutOfBoundsException", "std::out_of_range", "EmptyContainer", "SegmentationFault"}
)  # fmt: skip
_COMPILING_SYNTAX = frozenset({"misused == or =", "illegal separation"})


def _signature(result: VariantResult) -> tuple[str, ...]:
    if not result.compiled:
        return ("compile-error",)
    return tuple(f"{call.status.value}:{call.actual}" for call in result.calls)


def _shows(
    result: VariantResult, source: str, category: str, bug_types: Sequence[str], baseline: tuple[str, ...] | None,
    language: CompiledLanguage,
) -> bool:  # fmt: skip
    changed = baseline is not None and result.compiled and _signature(result) != baseline
    if category == "multiple":
        return not result.compiled or changed
    if category == "syntax":
        if not result.compiled:
            return True
        return changed and any(bug in _COMPILING_SYNTAX for bug in bug_types)
    if category == "reference":
        if not result.compiled:
            found = compiler_diagnostics(result.messages, source, language)
            return any(d.category == "reference" for d in found)
        if "faulty indexing" in bug_types:
            raised = any(call.error_type in _INDEX_ERRORS for call in result.calls)
            return raised or changed
        return False
    return changed


async def amutate_compiled(
    source: str,
    calls: Sequence[LeetCodeCall] | None,
    *,
    language: CompiledLanguage,
    method: str | None = None,
    operators: Collection[str] | None = None,
    categories: Collection[str] = ALL_CATEGORIES,
    order: int = 1,
    count: int = 10,
    seed: int = 0,
    max_attempts: int | None = None,
    per_test_s: float = 1.0,
) -> list[Mutant]:
    """Up to ``count`` verified mutants of a C++/Java ``source`` with ``order`` (1-4) edits each (see the module
    docstring). Without ``calls`` only mutants that stop compilation can be verified."""
    if not 1 <= order <= 4:
        raise ValueError("order must be between 1 and 4")
    rng = random.Random(seed)
    calls = list(calls or [])
    pool = [
        edit
        for edit in candidate_edits(source, language, categories=categories, direction="mutate")
        if operators is None or edit.operator in operators
    ]
    rng.shuffle(pool)
    baseline: tuple[str, ...] | None = None
    if calls:
        first = await arun_variants(language, [Variant(source)], calls, method=method, per_test_s=per_test_s)
        if first.variants and first.variants[0].compiled:
            baseline = _signature(first.variants[0])
    attempts = max_attempts if max_attempts is not None else count * 8
    proposals: list[tuple[list[Edit], str]] = []
    seen = {source}
    if order == 1:
        for edit in pool:
            if edit.source not in seen:
                seen.add(edit.source)
                proposals.append(([edit], edit.source))
    else:

        def propose(program: str, line: int) -> Iterable[Edit]:
            return candidate_edits(program, language, lines=[line], categories=categories, direction="mutate")

        for _ in range(attempts * 3):
            stacked = stack_edits(source, pool, order, rng, propose, operators)
            if stacked is not None and stacked[-1].source not in seen:
                seen.add(stacked[-1].source)
                proposals.append((stacked, stacked[-1].source))
            if len(proposals) >= attempts:
                break
    proposals = proposals[:attempts]
    mutants: list[Mutant] = []
    for start in range(0, len(proposals), BATCH):
        if len(mutants) >= count:
            break
        chunk = proposals[start : start + BATCH]
        batch = await arun_variants(
            language, [Variant(text) for _, text in chunk], calls, method=method, signature_source=source,
            per_test_s=per_test_s, unbalanced_variants="fail",
        )  # fmt: skip
        for (edits, text), result in zip(chunk, batch.variants):
            category: MutantCategory = "multiple" if order > 1 else edits[0].category
            bug_types = tuple(edit.bug_type for edit in edits)
            if len(mutants) < count and _shows(result, text, category, bug_types, baseline, language):
                mutants.append(
                    Mutant(
                        tuple(edit.operator for edit in edits),
                        category,
                        tuple(edit.line for edit in edits),
                        text,
                        tuple(edit.description for edit in edits),
                        bug_types,
                    )
                )
    return mutants


def mutate_compiled(source: str, calls: Sequence[LeetCodeCall] | None, **options: object) -> list[Mutant]:
    """Synchronous :func:`amutate_compiled`."""
    return asyncio.run(amutate_compiled(source, calls, **options))  # type: ignore[arg-type]
