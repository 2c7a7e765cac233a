"""Bug injection per language, behind one interface: a correct program in, verified buggy variants out.

A :class:`Mutator` returns only mutants whose class execution confirms (:func:`debugtutor.master.checks.
observed_class`): a syntax mutant fails to compile with a grammar error, a reference mutant fails on an unknown name or
an index out of range, a logic mutant runs and gives a wrong answer; a ``multiple`` mutant stacks two verified edits
on different lines and must fail too. Labels are therefore exact by construction and checked by the sandbox.

Every language goes through the analysis engine's own verified mutation,
:func:`debugtutor.analysis.mutation.mutate`, over the DebugBench taxonomy: AST and token edits in Python, tree-sitter
edits compiled and run in batches in C++ and Java. :func:`mutator_for` picks the mutator of a language.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from debugtutor.analysis.mutation import Mutant, mutate
from debugtutor.master.checks import observed_class, run_tests_sync
from debugtutor.master.records import BugClass, LanguageName, ProgramTests
from debugtutor.sandbox import Status, TestReport


@dataclass(frozen=True)
class Mutation:
    code: str
    bug_class: BugClass
    kinds: tuple[str, ...]
    lines: tuple[int, ...]


@dataclass(frozen=True)
class VerifiedMutation:
    mutation: Mutation
    report: TestReport
    """The buggy program's run against the tests (the evidence)."""


class Mutator(Protocol):
    """Verified mutants of one language."""

    language: LanguageName

    def mutants(
        self, code: str, tests: ProgramTests, bug_class: BugClass, *, seed: int, count: int = 1
    ) -> list[VerifiedMutation]: ...


def confirms(mutation: Mutation, report: TestReport, language: LanguageName) -> bool:
    """Whether a run shows the mutant's claimed class (a ``multiple`` mutant only has to fail)."""
    if report.status == Status.passed:
        return False
    if mutation.bug_class == "multiple":
        return True
    return observed_class(mutation.code, language, report) == mutation.bug_class


class EngineMutator:
    """Mutants from the analysis engine's verified mutation (Python's AST and token edits; C++ and Java through
    tree-sitter edits compiled and run in batches), each confirmed once more by :func:`confirms`."""

    def __init__(self, language: LanguageName) -> None:
        self.language = language

    def _report(self, source: str, tests: ProgramTests) -> TestReport:
        return run_tests_sync(source, tests, self.language)

    def _found(self, code: str, tests: ProgramTests, bug_class: BugClass, *, seed: int, count: int) -> list[Mutant]:
        shape: dict[str, Any] = (
            {"order": 2, "max_attempts": count * 8} if bug_class == "multiple" else
            {"categories": [bug_class], "max_attempts": count * 10}
        )  # fmt: skip
        if self.language == "python":
            runner: Callable[[str], TestReport] = functools.partial(self._report, tests=tests)
            return mutate(code, runner, count=count * 2, seed=seed, **shape)
        # more candidates than Python: a compiled syntax mutant that still compiles (a stray ';') or breaks the
        # signature the harness calls is verified as a bug by the engine but not confirmed as its class here
        return mutate(code, list(tests.calls), count=count * 4, seed=seed, language=self.language,
                      method=tests.method, **shape)  # fmt: skip

    def mutants(
        self, code: str, tests: ProgramTests, bug_class: BugClass, *, seed: int, count: int = 1
    ) -> list[VerifiedMutation]:
        with warnings.catch_warnings():  # compiling mutants warns about their own oddities ("is" with a literal)
            warnings.simplefilter("ignore", SyntaxWarning)
            found = self._found(code, tests, bug_class, seed=seed, count=count)
        verified: list[VerifiedMutation] = []
        for mutant in found:
            mutation = Mutation(mutant.source, bug_class, tuple(f"{kind}: {text}" if kind else text for kind, text in
                                zip(mutant.bug_types, mutant.descriptions)), mutant.lines)  # fmt: skip
            report = self._report(mutant.source, tests)
            if confirms(mutation, report, self.language):
                verified.append(VerifiedMutation(mutation, report))
            if len(verified) >= count:
                break
        return verified


def mutator_for(language: LanguageName) -> Mutator:
    """The mutator used for a language."""
    return EngineMutator(language)
