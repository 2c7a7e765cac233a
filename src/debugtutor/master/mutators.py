"""Bug injection per language, behind one interface: a correct program in, verified buggy variants out.

A :class:`Mutator` returns only mutants whose class execution confirms (:func:`debugtutor.master.checks.
observed_class`): a syntax mutant fails to compile with a grammar error, a reference mutant fails on an unknown name or
an index out of range, a logic mutant runs and gives a wrong answer; a ``multiple`` mutant stacks two verified edits
on different lines and must fail too. Labels are therefore exact by construction and checked by the sandbox.

* Python: :func:`debugtutor.analysis.mutation.mutate` (the analysis engine's AST and token edits over the
  DebugBench taxonomy).
* C++ and Java: :class:`TokenMutator`, simple line-level token edits made here (comparison, arithmetic, boolean and
  constant changes; a dropped ``;``, ``)`` or closing quote, a broken comment mark; a misspelt variable, a method or
  keyword from another language, an index moved past the end (Java, where it raises)). The analysis engine's own
  C++/Java mutation (issue 15) can replace it behind the same interface.

:func:`mutator_for` picks the mutator of a language.
"""

from __future__ import annotations

import random
import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

from debugtutor.analysis.mutation import mutate
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


class PythonMutator:
    """Python mutants from the analysis engine, each confirmed once more by :func:`confirms`."""

    language: LanguageName = "python"

    def mutants(
        self, code: str, tests: ProgramTests, bug_class: BugClass, *, seed: int, count: int = 1
    ) -> list[VerifiedMutation]:
        def runner(source: str) -> TestReport:
            return run_tests_sync(source, tests, "python")

        with warnings.catch_warnings():  # compiling mutants warns about their own oddities ("is" with a literal)
            warnings.simplefilter("ignore", SyntaxWarning)
            if bug_class == "multiple":
                found = mutate(code, runner, order=2, count=count * 2, seed=seed, max_attempts=count * 8)
            else:
                found = mutate(code, runner, categories=[bug_class], count=count * 2, seed=seed,
                               max_attempts=count * 10)  # fmt: skip
        verified: list[VerifiedMutation] = []
        for mutant in found:
            mutation = Mutation(mutant.source, bug_class, tuple(f"{kind}: {text}" if kind else text for kind, text in
                                zip(mutant.bug_types, mutant.descriptions)), mutant.lines)  # fmt: skip
            report = runner(mutant.source)
            if confirms(mutation, report, "python"):
                verified.append(VerifiedMutation(mutation, report))
            if len(verified) >= count:
                break
        return verified


# ---------------------------------------------------------------------------------------------------------------
# C++ and Java: token edits on single lines.

LineEdit = tuple[str, str]  # (new line, what changed)
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def _code_part(line: str) -> str:
    """The line without its ``//`` comment and with string literals blanked (so edits never land inside them)."""
    blanked = _STRING.sub(lambda m: '"' + "_" * (len(m.group(0)) - 2) + '"', line)
    cut = blanked.find("//")
    return blanked if cut < 0 else blanked[:cut]


def _swaps(line: str, pairs: list[tuple[str, str]], label: str) -> Iterator[LineEdit]:
    code = _code_part(line)
    for old, new in pairs:
        for match in re.finditer(old, code):
            start, end = match.span()
            yield line[:start] + new + line[end:], f"{label}: '{match.group(0).strip()}' -> '{new.strip()}'"


_COMPARISONS = [(r" <= ", " < "), (r" < ", " <= "), (r" >= ", " > "), (r" > ", " >= "), (r" == ", " != "),
                (r" != ", " == ")]  # fmt: skip
_ARITHMETIC = [(r" \+ ", " - "), (r" - ", " + "), (r" \* ", " + "), (r"\+\+", "--"), (r"(?<![-\w])--", "++")]
_BOOLEAN = [(r" && ", " || "), (r" \|\| ", " && ")]


def _logic_edits(line: str) -> Iterator[LineEdit]:
    yield from _swaps(line, _COMPARISONS, "condition error")
    yield from _swaps(line, _ARITHMETIC, "operation error")
    yield from _swaps(line, _BOOLEAN, "condition error")
    code = _code_part(line)
    for match in re.finditer(r"(?<![\w.])(0|1|2)(?![\w.])", code):
        new = {"0": "1", "1": "0", "2": "1"}[match.group(1)]
        yield line[: match.start()] + new + line[match.end() :], f"variable value error: {match.group(1)} -> {new}"


def _syntax_edits(line: str) -> Iterator[LineEdit]:
    code = _code_part(line)
    stripped = code.rstrip()
    if stripped.endswith(";") and not stripped.lstrip().startswith("for"):
        cut = len(stripped) - 1
        yield line[:cut] + line[cut + 1 :], "missing semicolon: the ';' ending the statement is gone"
    if ")" in code and code.count("(") == code.count(")"):
        cut = code.rfind(")")
        yield line[:cut] + line[cut + 1 :], "unclosed parentheses: a ')' is missing"
    for match in _STRING.finditer(line):
        if match.start() < len(code):
            end = match.end() - 1
            yield line[:end] + line[end + 1 :], "unclosed string: the closing '\"' is missing"
            break
    comment = line.find("//")
    if comment >= 0 and comment >= len(code) and line[:comment].strip():
        yield line[:comment] + "/" + line[comment + 2 :], "illegal comment: '//' written as '/'"


_FOREIGN = {
    "cpp": [(r"\bnullptr\b", "None"), (r"\btrue\b", "True"), (r"\bfalse\b", "False"), (r"\.push_back\(", ".append("),
            (r"\.size\(\)", ".length()"), (r"\belse if\b", "elif")],
    "java": [(r"\bnull\b", "None"), (r"\btrue\b", "True"), (r"\bfalse\b", "False"), (r"\.add\(", ".append("),
             (r"\.length\b(?!\()", ".size()"), (r"\.size\(\)", ".length()"), (r"\belse if\b", "elif")],
}  # fmt: skip
_DECLARED = re.compile(r"\b(?:int|long|double|float|bool|boolean|char|string|String|auto|var)\s+([a-z_]\w*)\s*[=;,]")


def _reference_edits(line: str, language: LanguageName, declared: list[str], program: str) -> Iterator[LineEdit]:
    yield from _swaps(line, _FOREIGN[language], "undefined methods or keywords from another language")
    code = _code_part(line)
    for name in declared:
        for match in re.finditer(rf"(?<![\w.]){re.escape(name)}(?!\w)", code):
            wrong = name + "s" if not re.search(rf"\b{re.escape(name)}s\b", program) else name + "_"
            before = code[: match.start()]
            if _DECLARED.search(before + name + " ="):
                continue  # the declaration itself
            yield line[: match.start()] + wrong + line[match.end() :], f"undefined objects: '{name}' used as '{wrong}'"
            break
    if language == "java":
        for match in re.finditer(r"\[([a-z_]\w*)\]", code):
            index = match.group(1)
            yield (line[: match.start()] + f"[{index} + 1]" + line[match.end() :],
                   f"faulty indexing: [{index}] -> [{index} + 1]")  # fmt: skip


class TokenMutator:
    """Line-level token edits for C++ and Java, each compiled and run in the sandbox before it is believed."""

    def __init__(self, language: LanguageName, *, max_attempts: int = 8) -> None:
        self.language = language
        self.max_attempts = max_attempts

    def candidates(self, code: str, bug_class: BugClass, rng: random.Random) -> list[Mutation]:
        """Single-edit mutants of one class, shuffled by ``rng`` (unverified)."""
        lines = code.splitlines()
        declared = sorted({match.group(1) for match in _DECLARED.finditer(code)})
        found: list[Mutation] = []
        for index, line in enumerate(lines):
            if not line.strip() or line.strip().startswith(("//", "/*", "*", "#", "import", "package")):
                continue
            if bug_class == "logic":
                edits = _logic_edits(line)
            elif bug_class == "syntax":
                edits = _syntax_edits(line)
            else:
                edits = _reference_edits(line, self.language, declared, code)
            for new_line, description in edits:
                changed = [*lines[:index], new_line, *lines[index + 1 :]]
                found.append(Mutation("\n".join(changed) + "\n", bug_class, (description,), (index + 1,)))
        rng.shuffle(found)
        return found

    def _verified(self, mutation: Mutation, tests: ProgramTests) -> VerifiedMutation | None:
        report = run_tests_sync(mutation.code, tests, self.language)
        return VerifiedMutation(mutation, report) if confirms(mutation, report, self.language) else None

    def mutants(
        self, code: str, tests: ProgramTests, bug_class: BugClass, *, seed: int, count: int = 1
    ) -> list[VerifiedMutation]:
        rng = random.Random(f"{seed}:{bug_class}")
        verified: list[VerifiedMutation] = []
        attempts = self.max_attempts * count
        if bug_class != "multiple":
            for mutation in self.candidates(code, bug_class, rng):
                if attempts <= 0 or len(verified) >= count:
                    break
                attempts -= 1
                found = self._verified(mutation, tests)
                if found is not None:
                    verified.append(found)
            return verified
        # two edits of different classes on different lines, each verified as a bug of its class on its own
        kinds: list[BugClass] = ["syntax", "reference", "logic"]
        for round_ in range(count * 2):
            if len(verified) >= count:
                break
            first_kind, second_kind = rng.sample(kinds, 2)
            first = self.mutants(code, tests, first_kind, seed=seed + round_)
            second = self.mutants(code, tests, second_kind, seed=seed + round_ + 1)
            if not first or not second or first[0].mutation.lines == second[0].mutation.lines:
                continue
            lines = code.splitlines()
            for part in (first[0].mutation, second[0].mutation):
                lines[part.lines[0] - 1] = part.code.splitlines()[part.lines[0] - 1]
            combined = Mutation("\n".join(lines) + "\n", "multiple", first[0].mutation.kinds + second[0].mutation.kinds,
                                tuple(sorted(first[0].mutation.lines + second[0].mutation.lines)))  # fmt: skip
            found = self._verified(combined, tests)
            if found is not None:
                verified.append(found)
        return verified


def mutator_for(language: LanguageName) -> Mutator:
    """The mutator used for a language."""
    return PythonMutator() if language == "python" else TokenMutator(language)
