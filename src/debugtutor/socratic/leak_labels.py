"""Labelled instructor sentences, and a leak check's precision and recall on them.

A labelled set is a text file of cases. Each case is one buggy program with its fixed program, a benchmark-style
fix description and a problem statement, followed by instructor sentences labelled ``LEAK`` (the sentence gives the
fix away) or ``OK``::

    === sum-to-n
    problem: Write `sum_to(n)` ...
    fix: Replace `range(1, n)` with `range(1, n + 1)` on line 3.
    --- buggy
    def sum_to(n):
        ...
    --- fixed
    ...
    --- sentences
    LEAK Add one to the end of the range.
    OK Which values does `range(1, n)` produce when `n` is 4?

Lines starting with ``#`` outside the code blocks are comments. :func:`score_check` runs a leak check over every
sentence and counts true and false positives; ``fixes`` chooses what the check is told about the fix: the fixed
program and the prose (``both``), the fixed program only (what ``socratic leak-check`` gets) or the prose only (what
the benchmark's files give).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from debugtutor.errors import InputError, read_text
from debugtutor.socratic.dialogue import SocraticDialogue
from debugtutor.socratic.leak import LeakGuard

FixKnowledge = Literal["both", "program", "prose"]
FIX_KNOWLEDGE: tuple[FixKnowledge, ...] = ("both", "program", "prose")


@dataclass(frozen=True)
class LabelledSentence:
    """One instructor sentence and whether it gives the fix away; ``line`` is its line in the file."""

    text: str
    leak: bool
    line: int


@dataclass
class LabelledCase:
    """One buggy program, its fix (as a program and in prose), the problem and the labelled sentences about it."""

    name: str
    problem: str = ""
    fix: str = ""
    buggy: str = ""
    fixed: str = ""
    sentences: list[LabelledSentence] = field(default_factory=list)

    def guard(self, fixes: FixKnowledge = "both") -> LeakGuard:
        """The leak guard for this case, told about the fix as ``fixes`` says."""
        return LeakGuard(
            self.buggy,
            [self.fix] if fixes in ("both", "prose") and self.fix else [],
            fixed_code=self.fixed if fixes in ("both", "program") else None,
            context=self.problem,
        )


_BLOCKS = ("buggy", "fixed", "sentences")


def read_labelled_set(path: str | Path) -> list[LabelledCase]:
    """The cases of a labelled set file (format in the module docstring); a malformed line is an InputError."""
    name = str(path)
    cases: list[LabelledCase] = []
    block: str | None = None
    code: list[str] = []

    def close_block() -> None:
        if block in ("buggy", "fixed") and cases:
            setattr(cases[-1], block, "\n".join(code).strip("\n"))

    for number, line in enumerate(read_text(path).split("\n"), start=1):
        if line.startswith("=== "):
            close_block()
            block, code = None, []
            cases.append(LabelledCase(name=line[4:].strip()))
            continue
        if line.startswith("--- "):
            close_block()
            block, code = line[4:].strip(), []
            if block not in _BLOCKS:
                raise InputError(f"unknown block {block!r}", path=name, line=number, hint=", ".join(_BLOCKS))
            if not cases:
                raise InputError("a block before the first '=== name' line", path=name, line=number)
            continue
        if block in ("buggy", "fixed"):
            code.append(line)
            continue
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if not cases:
            raise InputError("text before the first '=== name' line", path=name, line=number)
        case = cases[-1]
        if block == "sentences":
            label, _, text = stripped.partition(" ")
            if label not in ("LEAK", "OK") or not text.strip():
                raise InputError("a sentence line is 'LEAK <text>' or 'OK <text>'", path=name, line=number)
            case.sentences.append(LabelledSentence(text.strip(), label == "LEAK", number))
        elif stripped.startswith("problem:"):
            case.problem = stripped[len("problem:") :].strip()
        elif stripped.startswith("fix:"):
            case.fix = stripped[len("fix:") :].strip()
        else:
            raise InputError("expected 'problem:', 'fix:' or a '--- block' line", path=name, line=number)
    close_block()
    for case in cases:
        if not case.buggy or not case.sentences:
            raise InputError(f"case {case.name!r} needs a '--- buggy' block and sentences", path=name)
    return cases


@dataclass
class CheckScore:
    """How a leak check did on labelled sentences; ``missed`` and ``false_alarms`` list the sentences it got wrong."""

    true_positives: int = 0
    false_positives: int = 0
    false_negatives: int = 0
    true_negatives: int = 0
    missed: list[str] = field(default_factory=list)
    false_alarms: list[str] = field(default_factory=list)

    @property
    def sentences(self) -> int:
        return self.true_positives + self.false_positives + self.false_negatives + self.true_negatives

    @property
    def precision(self) -> float:
        flagged = self.true_positives + self.false_positives
        return self.true_positives / flagged if flagged else 0.0

    @property
    def recall(self) -> float:
        leaks = self.true_positives + self.false_negatives
        return self.true_positives / leaks if leaks else 0.0

    @property
    def false_positive_rate(self) -> float:
        clean = self.false_positives + self.true_negatives
        return self.false_positives / clean if clean else 0.0

    def add(self, text: str, leak: bool, flagged: bool) -> None:
        if leak and flagged:
            self.true_positives += 1
        elif leak:
            self.false_negatives += 1
            self.missed.append(text)
        elif flagged:
            self.false_positives += 1
            self.false_alarms.append(text)
        else:
            self.true_negatives += 1

    def as_dict(self) -> dict[str, float | int]:
        return {
            "sentences": self.sentences,
            "leaks": self.true_positives + self.false_negatives,
            "true_positives": self.true_positives,
            "false_positives": self.false_positives,
            "false_negatives": self.false_negatives,
            "true_negatives": self.true_negatives,
            "precision": self.precision,
            "recall": self.recall,
            "false_positive_rate": self.false_positive_rate,
        }


LeakCheck = Callable[[str], bool]


def score_check(
    cases: Iterable[LabelledCase],
    fixes: FixKnowledge = "both",
    *,
    make_check: Callable[[LabelledCase, FixKnowledge], LeakCheck] | None = None,
) -> CheckScore:
    """Run a leak check over every labelled sentence; the default check is :class:`LeakGuard`."""
    score = CheckScore()
    for case in cases:
        check = make_check(case, fixes) if make_check is not None else _guard_check(case.guard(fixes))
        for sentence in case.sentences:
            score.add(sentence.text, sentence.leak, check(sentence.text))
    return score


def _guard_check(guard: LeakGuard) -> LeakCheck:
    return lambda text: guard.check(text).leaked


def score_clean_utterances(groups: Sequence[tuple[LeakGuard, Sequence[str]]]) -> CheckScore:
    """Utterances known not to leak (each group with the guard of its bug): every flag is a false positive."""
    score = CheckScore()
    for guard, utterances in groups:
        for utterance in utterances:
            score.add(utterance, False, guard.check(utterance).leaked)
    return score


def problem_part(problem_id: str) -> Literal["dev", "heldout"]:
    """Which half of the benchmark's problems a problem falls in: a fixed hash split, so the development half used
    while tuning a check and the held-apart half never change with the folder's contents."""
    return "dev" if hashlib.sha256(problem_id.encode()).digest()[0] % 2 == 0 else "heldout"


def benchmark_utterances(
    dialogues: Iterable[SocraticDialogue], part: Literal["dev", "heldout", "all"] = "all"
) -> list[tuple[LeakGuard, list[str]]]:
    """The benchmark's own instructor utterances (main and alternatives), each bug's once, with the guard of its bug.

    They are Socratic by the benchmark's design, so they serve as sentences that do not leak.
    """
    guards: dict[str, LeakGuard] = {}
    utterances: dict[str, list[str]] = {}
    for d in dialogues:
        if part != "all" and problem_part(d.problem_id) != part:
            continue
        if d.bug_id not in guards:
            guards[d.bug_id] = LeakGuard(d.bug_code, list(d.bug_fixes), context=d.problem + "\n" + d.unit_tests)
            utterances[d.bug_id] = []
        seen = utterances[d.bug_id]
        for turn in d.instructor_turns():
            seen.extend(u for u in turn.utterances if u not in seen)
    return [(guards[bug], utterances[bug]) for bug in guards]
