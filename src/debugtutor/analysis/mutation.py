"""Bug injection: mutants of a correct program over the DebugBench taxonomy, each checked to be a real bug.

Single mutants come from :func:`debugtutor.analysis.edits.candidate_edits` in ``mutate`` direction; double, triple
and quadruple mutants stack edits at distinct lines (AST-based edits first, syntax-breaking ones last, since those
leave a program that no longer parses). Every mutant is verified for its claimed category:

* ``syntax`` — the program must fail to compile;
* ``reference`` — it must compile and raise ``NameError``/``AttributeError``/``UnboundLocalError`` when tested, or
  be flagged by the static reference check;
* ``logic`` — it must compile and change at least one test outcome (run in :mod:`debugtutor.sandbox`);
* ``multiple`` — it must be observable: fail to compile or change some test outcome.

Sampling is driven by ``seed`` only, so the same call returns the same mutants.
"""

from __future__ import annotations

import ast
import random
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Literal

from debugtutor.analysis.edits import ALL_CATEGORIES, Edit, candidate_edits
from debugtutor.analysis.static import LEETCODE_PREAMBLE, reference_diagnostics
from debugtutor.sandbox import PythonTestsRequest, Status, TestReport, run

MutantCategory = Literal["syntax", "reference", "logic", "multiple"]
TestRunner = Callable[[str], TestReport]
_REFERENCE_EXCEPTIONS = frozenset({"NameError", "AttributeError", "UnboundLocalError"})


@dataclass(frozen=True)
class Mutant:
    """A verified buggy variant of the original program."""

    operators: tuple[str, ...]
    category: MutantCategory
    lines: tuple[int, ...]
    source: str
    descriptions: tuple[str, ...]
    bug_types: tuple[str, ...]
    """DebugBench minor types of the injected edits, e.g. ``("condition error", "unclosed string")``."""

    @property
    def operator(self) -> str:
        """The operator names joined with ``+`` (one name for a single mutant)."""
        return "+".join(self.operators)


def _compiles(source: str) -> bool:
    try:
        compile(source, "<mutant>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return True


def _signature(report: TestReport) -> tuple[str, ...]:
    if report.setup_error is not None:
        return (f"setup:{report.setup_error.type}",)
    return tuple(f"{t.status.value}:{t.actual}" for t in report.tests)


def _raised(report: TestReport) -> set[str]:
    types = {t.exception.type for t in report.tests if t.exception is not None}
    if report.setup_error is not None:
        types.add(report.setup_error.type)
    return types


class _Verifier:
    def __init__(self, original: str, runner: TestRunner | None, preamble: Collection[str]) -> None:
        self.runner = runner
        self.preamble = preamble
        self.baseline = _signature(runner(original)) if runner is not None else None
        self.runs = 0

    def _report(self, source: str) -> TestReport | None:
        if self.runner is None:
            return None
        self.runs += 1
        return self.runner(source)

    def verify(self, source: str, category: MutantCategory) -> bool:
        compiles = _compiles(source)
        if category == "syntax":
            return not compiles
        if not compiles:
            return category == "multiple"
        if category == "reference":
            tree = ast.parse(source)
            if any(d.category == "reference" for d in reference_diagnostics(tree, preamble=self.preamble)):
                return True
            report = self._report(source)
            return report is not None and bool(_raised(report) & _REFERENCE_EXCEPTIONS)
        report = self._report(source)
        return report is not None and _signature(report) != self.baseline


def _runner_for(tests_or_runner: list[str] | TestRunner | None) -> TestRunner | None:
    if tests_or_runner is None or callable(tests_or_runner):
        return tests_or_runner
    tests = list(tests_or_runner)
    return lambda code: run(PythonTestsRequest(code=code, tests=tests))


def mutate(
    source: str,
    tests_or_runner: list[str] | TestRunner | None,
    *,
    operators: Collection[str] | None = None,
    categories: Collection[str] = ALL_CATEGORIES,
    order: int = 1,
    count: int = 10,
    seed: int = 0,
    max_attempts: int | None = None,
    preamble: Collection[str] | None = None,
) -> list[Mutant]:
    """Up to ``count`` verified mutants of ``source`` with ``order`` (1-4) injected edits each.

    ``tests_or_runner`` is a list of assert-style test lines (run as a :class:`~debugtutor.sandbox.PythonTestsRequest`)
    or a function from code to :class:`~debugtutor.sandbox.TestReport` (e.g. one that runs a ``LeetCodeRequest``);
    with ``None`` nothing runs, so only syntax mutants and statically visible reference mutants can be verified.
    ``operators`` restricts the edit operators used; ``categories`` the edit categories.
    """
    if not 1 <= order <= 4:
        raise ValueError("order must be between 1 and 4")
    if preamble is None:
        preamble = LEETCODE_PREAMBLE if "class Solution" in source else ()
    rng = random.Random(seed)
    verifier = _Verifier(source, _runner_for(tests_or_runner), preamble)
    pool = [
        e
        for e in candidate_edits(source, direction="mutate", categories=categories, preamble=preamble)
        if operators is None or e.operator in operators
    ]
    rng.shuffle(pool)
    attempts = max_attempts if max_attempts is not None else count * 8
    mutants: list[Mutant] = []
    seen: set[str] = {source}
    if order == 1:
        for edit in pool:
            if len(mutants) >= count or attempts <= 0:
                break
            if edit.source in seen:
                continue
            seen.add(edit.source)
            attempts -= 1
            if verifier.verify(edit.source, edit.category):
                mutants.append(
                    Mutant(
                        (edit.operator,),
                        edit.category,
                        (edit.line,),
                        edit.source,
                        (edit.description,),
                        (edit.bug_type,),
                    )
                )
        return mutants
    while len(mutants) < count and attempts > 0:
        attempts -= 1
        stacked = _stack(source, pool, order, rng, operators, categories, preamble)
        if stacked is None or stacked[-1][1] in seen:
            continue
        edits, final = [e for e, _ in stacked], stacked[-1][1]
        seen.add(final)
        if verifier.verify(final, "multiple"):
            mutants.append(
                Mutant(
                    tuple(e.operator for e in edits),
                    "multiple",
                    tuple(e.line for e in edits),
                    final,
                    tuple(e.description for e in edits),
                    tuple(e.bug_type for e in edits),
                )
            )
    return mutants


def _stack(
    source: str,
    pool: list[Edit],
    order: int,
    rng: random.Random,
    operators: Collection[str] | None,
    categories: Collection[str],
    preamble: Collection[str],
) -> list[tuple[Edit, str]] | None:
    """Pick ``order`` edits at distinct lines and apply them in turn (non-syntax first); ``None`` if it cannot."""
    # edits that add or remove lines would shift the lines of the later ones
    stable = [e for e in pool if len(e.source.splitlines()) == len(source.splitlines())]
    if not stable:
        return None
    chosen: list[Edit] = []
    used_lines: set[int] = set()
    for edit in rng.sample(stable, k=min(len(stable), order * 6)):
        if edit.line not in used_lines and len(chosen) < order:
            chosen.append(edit)
            used_lines.add(edit.line)
    if len(chosen) < order:
        return None
    chosen.sort(key=lambda e: e.category == "syntax")
    applied: list[tuple[Edit, str]] = []
    current = source
    for wanted in chosen:
        # re-derive the edit on the current program: the same operator at the same line, same description
        options = [
            e
            for e in candidate_edits(
                current, lines=[wanted.line], direction="mutate", categories=categories, preamble=preamble
            )
            if e.operator == wanted.operator and (operators is None or e.operator in operators)
        ]
        match = next((e for e in options if e.description == wanted.description), options[0] if options else None)
        if match is None:
            return None
        current = match.source
        applied.append((match, current))
    return applied


def killed_by_tests(report: TestReport) -> bool:
    """True when a test report shows the program failing (any test not passed, or a setup error)."""
    return report.setup_error is not None or any(t.status != Status.passed for t in report.tests)
