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

import random
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Literal

from debugtutor import python_ast
from debugtutor.analysis.edits import ALL_CATEGORIES, Edit, candidate_edits
from debugtutor.analysis.static import LEETCODE_PREAMBLE, reference_diagnostics
from debugtutor.sandbox import Language, LeetCodeCall, PythonTestsRequest, Status, TestReport, run

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
            tree = python_ast.parse(source)
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
    tests_or_runner: list[str] | list[LeetCodeCall] | TestRunner | None,
    *,
    operators: Collection[str] | None = None,
    categories: Collection[str] = ALL_CATEGORIES,
    order: int = 1,
    count: int = 10,
    seed: int = 0,
    max_attempts: int | None = None,
    preamble: Collection[str] | None = None,
    language: Language = "python",
    method: str | None = None,
) -> list[Mutant]:
    """Up to ``count`` verified mutants of ``source`` with ``order`` (1-4) injected edits each.

    ``tests_or_runner`` is a list of assert-style test lines (run as a :class:`~debugtutor.sandbox.PythonTestsRequest`)
    or a function from code to :class:`~debugtutor.sandbox.TestReport` (e.g. one that runs a ``LeetCodeRequest``);
    with ``None`` nothing runs, so only syntax mutants and statically visible reference mutants can be verified.
    ``operators`` restricts the edit operators used; ``categories`` the edit categories. C++ and Java
    (``language``) take a list of LeetCode calls of ``method`` (or None) and are verified by compiling and running
    them in batches (:mod:`debugtutor.analysis.clike.mutation`).
    """
    if language != "python":
        from debugtutor.analysis.clike.mutation import mutate_compiled

        if callable(tests_or_runner):
            raise ValueError("C++ and Java mutants are verified on a list of LeetCode calls, not a runner")
        calls = [call for call in tests_or_runner or [] if isinstance(call, LeetCodeCall)]
        return mutate_compiled(
            source, calls, language=language, method=method, operators=operators, categories=categories,
            order=order, count=count, seed=seed, max_attempts=max_attempts,
        )  # fmt: skip
    if not 1 <= order <= 4:
        raise ValueError("order must be between 1 and 4")
    if preamble is None:
        preamble = LEETCODE_PREAMBLE if "class Solution" in source else ()
    rng = random.Random(seed)
    verifier = _Verifier(source, _runner_for(tests_or_runner), preamble)  # type: ignore[arg-type]
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

    def propose(program: str, line: int) -> Iterable[Edit]:
        return candidate_edits(program, lines=[line], direction="mutate", categories=categories, preamble=preamble)

    while len(mutants) < count and attempts > 0:
        attempts -= 1
        stacked = stack_edits(source, pool, order, rng, propose, operators)
        if stacked is None or stacked[-1].source in seen:
            continue
        edits, final = stacked, stacked[-1].source
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


def stack_edits(
    source: str,
    pool: list[Edit],
    order: int,
    rng: random.Random,
    propose: Callable[[str, int], Iterable[Edit]],
    operators: Collection[str] | None,
) -> list[Edit] | None:
    """Pick ``order`` edits of ``pool`` at distinct lines and apply them in turn (syntax-breaking ones last), each
    re-derived on the program so far by ``propose(program, line)``; ``None`` if it cannot. Python and the compiled
    languages share it; only their edit proposers differ."""
    # edits that add or remove lines would shift the lines of the later ones
    stable = [e for e in pool if e.source.count("\n") == source.count("\n")]
    chosen: list[Edit] = []
    used_lines: set[int] = set()
    for edit in rng.sample(stable, k=min(len(stable), order * 6)):
        if edit.line not in used_lines and len(chosen) < order:
            chosen.append(edit)
            used_lines.add(edit.line)
    if len(chosen) < order:
        return None
    chosen.sort(key=lambda e: e.category == "syntax")
    applied: list[Edit] = []
    current = source
    for wanted in chosen:
        # the same operator at the same line, preferably the same description
        options = [
            e
            for e in propose(current, wanted.line)
            if e.operator == wanted.operator and (operators is None or e.operator in operators)
        ]
        match = next((e for e in options if e.description == wanted.description), options[0] if options else None)
        if match is None:
            return None
        current = match.source
        applied.append(match)
    return applied


def killed_by_tests(report: TestReport) -> bool:
    """True when a test report shows the program failing (any test not passed, or a setup error)."""
    return report.setup_error is not None or any(t.status != Status.passed for t in report.tests)
