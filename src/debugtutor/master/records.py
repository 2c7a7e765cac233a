"""The records MASTER passes between its agents: source programs, tests, quiz problems and what running them showed.

A :class:`SourceProgram` is a correct program with its tests (from DebugEval-format records of the training split,
the Socratic benchmark's fixed programs, or our samples). The Quizzer turns one into a :class:`QuizProblem` of one of
DebugEval's four tasks with its gold answer and the :class:`ExecutionFacts` that prove the bug; the Learner answers
it; the Teacher explains it. Everything here is plain JSON, so it travels through the runner's records.
"""

from __future__ import annotations

import hashlib
from typing import Any, Literal

from pydantic import BaseModel, Field

from debugtutor.sandbox import LeetCodeCall

LanguageName = Literal["python", "cpp", "java"]
TaskName = Literal["bug-localization", "bug-identification", "code-review", "code-repair"]
BugClass = Literal["syntax", "reference", "logic", "multiple"]

TASKS: tuple[TaskName, ...] = ("bug-localization", "bug-identification", "code-review", "code-repair")
LANGUAGES: tuple[LanguageName, ...] = ("python", "cpp", "java")
BUG_CLASSES: tuple[BugClass, ...] = ("syntax", "reference", "logic", "multiple")
LETTERS = ("A", "B", "C", "D")
# DebugEval's Bug Identification options, in its order
CHOICE_BY_CLASS: dict[BugClass, str] = {"syntax": "(A)", "reference": "(B)", "logic": "(C)", "multiple": "(D)"}
CLASS_BY_CHOICE: dict[str, BugClass] = {choice: bug for bug, choice in CHOICE_BY_CLASS.items()}
LANGUAGE_NAMES = {"python": "Python", "cpp": "C++", "java": "Java"}


def short_hash(*parts: str, size: int = 12) -> str:
    return hashlib.sha256("\x00".join(parts).encode("utf-8")).hexdigest()[:size]


def normalized_code(code: str, *, keep_indent: bool = False) -> str:
    """Code with blank lines dropped and runs of whitespace collapsed: equal for layout-only differences.

    ``keep_indent`` keeps each line's indentation (it is syntax in Python)."""
    return "\n".join(
        (line[: len(line) - len(line.lstrip())].replace("\t", "    ") if keep_indent else "") + " ".join(line.split())
        for line in code.splitlines()
        if line.strip()
    )


def normalized_text(text: str) -> str:
    return " ".join(text.lower().split())


class ProgramTests(BaseModel):
    """How a program is tested: LeetCode method calls (any language), or Python assert lines with setup lines."""

    kind: Literal["leetcode", "asserts", "examples"]
    calls: list[LeetCodeCall] = Field(default_factory=list)
    method: str | None = None
    asserts: list[str] = Field(default_factory=list)
    setup: str = ""
    examples: list[str] = Field(default_factory=list)
    """``examples`` kind: LeetCode example blocks, turned into calls (expected values from the correct program)."""

    @property
    def count(self) -> int:
        return len(self.calls) if self.kind == "leetcode" else len(self.asserts)


class SourceProgram(BaseModel):
    """A correct program to make debugging problems from."""

    id: str
    origin: str
    """``debugbench``, ``socratic``, ``sample`` or another source name."""
    language: LanguageName
    slug: str
    """The problem's key: decontamination and near-duplicate checks work per problem."""
    question: str
    code: str
    tests: ProgramTests


class ExecutionFacts(BaseModel):
    """What running the buggy program against its tests showed: the evidence a teacher explains."""

    outcome: Literal["compile_error", "exception", "wrong_answer", "timeout", "static"]
    message: str = ""
    """The compiler's or the exception's message (shortened)."""
    exception: str | None = None
    failing_input: str | None = None
    expected: str | None = None
    actual: str | None = None
    failed_tests: int = 0
    total_tests: int = 0


class QuizProblem(BaseModel):
    """One debugging problem of one DebugEval task, with its verified gold answer."""

    id: str
    task: TaskName
    language: LanguageName
    question: str
    buggy_code: str
    correct_code: str
    bug_class: BugClass
    bug_kinds: list[str] = Field(default_factory=list)
    """What each injected bug is, in plain words (``condition error: '<' -> '<='``)."""
    bug_lines: list[int] = Field(default_factory=list)
    """1-based lines of the buggy code that differ from the correct code."""
    options: list[str] = Field(default_factory=list)
    """Bug Localization: the four snippets in letter order."""
    answer: str
    """``(A)``-``(D)`` (localization, identification), ``Code-A``/``Code-B`` (the buggy one, review) or the correct
    program (repair)."""
    slug: str
    source_id: str
    origin: str
    quizzer: str
    facts: ExecutionFacts | None = None
    tests: ProgramTests | None = None

    def content_key(self) -> str:
        """Same task, language and normalized codes and options: the same problem."""
        indent = self.language == "python"
        return short_hash(self.task, self.language, normalized_code(self.buggy_code, keep_indent=indent),
                          normalized_code(self.correct_code, keep_indent=indent), *self.options,
                          self.answer if self.task != "code-repair" else "")  # fmt: skip


class LearnerAttempt(BaseModel):
    response: str
    extracted: str | None
    correct: bool
    detail: str = ""


class TeacherSolution(BaseModel):
    """The explanation that becomes a CoT training target, ending in the verified answer."""

    teacher: str
    text: str
    final_answer: str
    agrees: bool
    detail: str = ""


class SynthOutcome(BaseModel):
    """What became of one quiz slot: rejected by a check, solved by the learner, or kept with a teacher solution."""

    status: Literal["rejected", "learner-correct", "teacher-disagreed", "kept"]
    task: TaskName
    language: LanguageName
    reason: str = ""
    problem: QuizProblem | None = None
    attempts: list[LearnerAttempt] = Field(default_factory=list)
    solution: TeacherSolution | None = None
    usage: dict[str, Any] = Field(default_factory=dict)
