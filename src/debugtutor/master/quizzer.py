"""The Code Quizzer: turns a correct program into a debugging problem of one DebugEval task, or says why it cannot.

Two back-ends, one contract (``await quizzer.quiz(program, task, slot)`` gives a :class:`QuizProblem` or a
:class:`Rejection` with a reason from :data:`REJECTION_REASONS`):

* :class:`OfflineQuizzer`: verified mutation (:mod:`debugtutor.master.mutators`). The slot number picks the bug class
  and, for localization and review, the gold letter, so classes and letters come out balanced; every label is exact by
  construction and the sandbox confirms it.
* :class:`LLMQuizzer`: a strong model writes the problem from one demonstration (and, when given, the correct program
  to build on); :func:`verify_problem` rejects what does not hold up: the correct code must pass and the buggy code
  fail the tests, a localization's marked option must be the line that differs (and no distractor may be one), an
  identification label must match the class execution shows where it can tell.

Both go through :func:`verify_problem`, so an offline problem passes the same checks an LLM-written one must.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any, Protocol

from debugtutor.errors import ModelError
from debugtutor.llm import GenerationSettings, ModelBackend
from debugtutor.master.checks import changed_lines, derive_tests, failure_facts, observed_class, run_tests
from debugtutor.master.mutators import Mutator, mutator_for
from debugtutor.master.prompts import QUIZZER_SYSTEM, extract_choice, quizzer_prompt, tagged
from debugtutor.master.records import (
    BUG_CLASSES,
    CHOICE_BY_CLASS,
    CLASS_BY_CHOICE,
    LETTERS,
    BugClass,
    LanguageName,
    ProgramTests,
    QuizProblem,
    SourceProgram,
    TaskName,
    normalized_code,
    short_hash,
)
from debugtutor.sandbox import LeetCodeCall, Status, solution_signatures

REJECTION_REASONS = (
    "no tests for the program",
    "correct code fails its tests",
    "no verified mutant",
    "too few distractor lines",
    "unparseable problem",
    "buggy code equals correct code",
    "buggy code passes the tests",
    "marked option is not the changed line",
    "a distractor is not an unchanged line",
    "label disagrees with execution",
    "model call failed",
)


@dataclass(frozen=True)
class Rejection:
    reason: str
    detail: str = ""


class Quizzer(Protocol):
    name: str

    async def quiz(
        self, program: SourceProgram, task: TaskName, slot: int, usage: Counter[str] | None = None
    ) -> QuizProblem | Rejection:
        """A problem for ``slot``, or why there is none; a model's token counts are added to ``usage``."""
        ...


class TestsCache:
    """Executable tests per source program, derived once even when several slots ask at the same time."""

    __test__ = False

    def __init__(self) -> None:
        self._found: dict[str, ProgramTests | None] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    async def get(self, program: SourceProgram) -> ProgramTests | None:
        lock = self._locks.setdefault(program.id, asyncio.Lock())
        async with lock:
            if program.id not in self._found:
                tests = await asyncio.to_thread(derive_tests, program)
                if tests is not None and not tests.count:
                    tests = None
                self._found[program.id] = tests
            return self._found[program.id]


# ---------------------------------------------------------------------------------------------------------------
# Checks shared by both quizzers.


def _failure_line(report: Any) -> str:
    facts = failure_facts(report)
    if facts.outcome == "wrong_answer":
        return f"{facts.failing_input}: expected {facts.expected}, got {facts.actual}"[:200]
    return f"{facts.outcome} {facts.exception or ''} {facts.message}".strip()[:200]


_BRACE_ONLY = frozenset("{}()[];, \t")


def _eligible_line(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not set(stripped) <= _BRACE_ONLY and not stripped.startswith(("#", "//", "/*", "*"))


def check_localization(problem: QuizProblem) -> Rejection | None:
    """The marked option must be (part of) a changed line and appear nowhere unchanged; every other option must be
    an unchanged line of the buggy code."""
    if len(problem.options) != 4 or problem.answer not in ("(A)", "(B)", "(C)", "(D)"):
        return Rejection("unparseable problem", "localization needs four options and a letter")
    changed, _ = changed_lines(problem.buggy_code, problem.correct_code, problem.language)
    buggy_lines = problem.buggy_code.splitlines()
    changed_text = {" ".join(buggy_lines[line - 1].split()) for line in changed if line <= len(buggy_lines)}
    unchanged = {" ".join(text.split()) for index, text in enumerate(buggy_lines, 1) if index not in changed}
    for letter, option in zip(LETTERS, problem.options):
        key = " ".join(option.split())
        if f"({letter})" == problem.answer:
            if not key or not any(key in text for text in changed_text):
                return Rejection("marked option is not the changed line", option[:80])
            if key in unchanged:
                return Rejection("marked option is not the changed line", f"{option[:80]} also appears unchanged")
        elif key not in unchanged or any(key in text for text in changed_text):
            return Rejection("a distractor is not an unchanged line", option[:80])
    return None


async def verify_problem(problem: QuizProblem, tests: ProgramTests) -> tuple[QuizProblem | Rejection, Any]:
    """Run the checks every problem must pass; returns the problem with its evidence attached, or a rejection."""
    indent = problem.language == "python"
    if normalized_code(problem.buggy_code, keep_indent=indent) == normalized_code(
        problem.correct_code, keep_indent=indent
    ):
        return Rejection("buggy code equals correct code"), None
    correct = await run_tests(problem.correct_code, tests, problem.language)
    if correct.status != Status.passed:
        return Rejection("correct code fails its tests", _failure_line(correct)), None
    buggy = await run_tests(problem.buggy_code, tests, problem.language)
    if buggy.status == Status.passed:
        return Rejection("buggy code passes the tests"), None
    if problem.task == "bug-localization":
        rejection = check_localization(problem)
        if rejection is not None:
            return rejection, None
    seen = observed_class(problem.buggy_code, problem.language, buggy)
    _, hunks = changed_lines(problem.buggy_code, problem.correct_code, problem.language)
    if problem.task == "bug-identification":
        claimed = CLASS_BY_CHOICE.get(problem.answer)
        if claimed is None:
            return Rejection("unparseable problem", f"identification answer {problem.answer!r}"), None
        if claimed == "multiple" and hunks < 2:
            return Rejection("label disagrees with execution", "(D) multiple errors, but one change"), None
        if claimed != "multiple" and seen is not None and seen != claimed:
            return Rejection("label disagrees with execution", f"labelled {claimed}, execution shows {seen}"), None
    lines, _ = changed_lines(problem.buggy_code, problem.correct_code, problem.language)
    return problem.model_copy(update={"facts": failure_facts(buggy), "tests": tests, "bug_lines": lines}), buggy


# ---------------------------------------------------------------------------------------------------------------
# Offline: verified mutation.


def _problem_id(program: SourceProgram, task: TaskName, slot: int, quizzer: str) -> str:
    return f"{task}-{program.language}-{short_hash(program.id, task, str(slot), quizzer)}"


def localization_options(
    buggy: str, correct: str, bug_line: int, language: LanguageName, letter: str, rng: random.Random
) -> list[str] | None:
    """The buggy line at ``letter`` and three unchanged lines of the buggy program at least two lines away."""
    lines = buggy.splitlines()
    changed, _ = changed_lines(buggy, correct, language)
    gold = lines[bug_line - 1].strip()
    pool: list[str] = []
    seen = {" ".join(gold.split())}
    for number, line in enumerate(lines, start=1):
        key = " ".join(line.split())
        if number in changed or abs(number - bug_line) < 2 or not _eligible_line(line) or key in seen:
            continue
        seen.add(key)
        pool.append(line.strip())
    if len(pool) < 3:
        return None
    distractors = rng.sample(pool, 3)
    position = LETTERS.index(letter)
    return [*distractors[:position], gold, *distractors[position:]]


class OfflineQuizzer:
    """Problems from verified mutants of the source programs."""

    name = "offline"

    def __init__(self, *, seed: int = 0, tests: TestsCache | None = None) -> None:
        self.seed = seed
        self.tests = tests or TestsCache()
        self._mutators: dict[str, Mutator] = {}

    def _mutator(self, language: LanguageName) -> Mutator:
        if language not in self._mutators:
            self._mutators[language] = mutator_for(language)
        return self._mutators[language]

    @staticmethod
    def bug_class_for(task: TaskName, slot: int) -> BugClass:
        """Classes in turn by slot: all four for identification, review and repair; single bugs for localization."""
        if task == "bug-localization":
            return ("syntax", "reference", "logic")[slot % 3]
        return BUG_CLASSES[slot % 4 if task != "code-review" else (slot // 2) % 4]

    async def quiz(
        self, program: SourceProgram, task: TaskName, slot: int, usage: Counter[str] | None = None
    ) -> QuizProblem | Rejection:
        tests = await self.tests.get(program)
        if tests is None:
            return Rejection("no tests for the program")
        reference = await run_tests(program.code, tests, program.language)
        if reference.status != Status.passed:
            return Rejection("correct code fails its tests", _failure_line(reference))
        bug_class = self.bug_class_for(task, slot)
        seed = int(short_hash(str(self.seed), program.id, task, str(slot), size=8), 16)
        mutants = await asyncio.to_thread(self._mutator(program.language).mutants, program.code, tests, bug_class,
                                          seed=seed)  # fmt: skip
        if not mutants:
            return Rejection("no verified mutant", bug_class)
        mutation = mutants[0].mutation
        common: dict[str, Any] = dict(
            id=_problem_id(program, task, slot, self.name), task=task, language=program.language,
            question=program.question, buggy_code=mutation.code, correct_code=program.code, bug_class=bug_class,
            bug_kinds=list(mutation.kinds), bug_lines=list(mutation.lines), slug=program.slug,
            source_id=program.id, origin=program.origin, quizzer=self.name,
        )  # fmt: skip
        if task == "bug-localization":
            letter = LETTERS[slot % 4]
            if len(mutation.lines) != 1 or len(mutation.code.splitlines()) != len(program.code.splitlines()):
                return Rejection("too few distractor lines", "the mutant changed more than one line")
            options = localization_options(mutation.code, program.code, mutation.lines[0], program.language, letter,
                                           random.Random(seed))  # fmt: skip
            if options is None:
                return Rejection("too few distractor lines")
            problem = QuizProblem(**common, options=options, answer=f"({letter})")
        elif task == "bug-identification":
            problem = QuizProblem(**common, answer=CHOICE_BY_CLASS[bug_class])
        elif task == "code-review":
            problem = QuizProblem(**common, answer="Code-A" if slot % 2 == 0 else "Code-B")
        else:
            problem = QuizProblem(**common, answer=program.code)
        verified, _ = await verify_problem(problem, tests)
        if isinstance(verified, QuizProblem):
            verified = verified.model_copy(update={"bug_lines": list(mutation.lines)})
        return verified


# ---------------------------------------------------------------------------------------------------------------
# A model as the Quizzer.


def parse_calls(text: str, code: str, language: LanguageName) -> ProgramTests | None:
    """JSON call lines (``{"args": {...}, "expected": ...}``) for a C++/Java ``class Solution``."""
    calls: list[LeetCodeCall] = []
    for line in text.splitlines():
        line = line.strip().rstrip(",")
        if not line.startswith("{"):
            continue
        try:
            value = json.loads(line)
            calls.append(LeetCodeCall.model_validate(value))
        except (json.JSONDecodeError, ValueError):
            return None
    if not calls:
        return None
    names = set(calls[0].args)
    methods = [name for name, params in solution_signatures(code, language) if set(params) == names]
    return ProgramTests(kind="leetcode", calls=calls, method=methods[0] if methods else None) if methods else None


def parse_quiz(
    text: str, task: TaskName, language: LanguageName, *, slot: int
) -> tuple[dict[str, Any], ProgramTests] | Rejection:
    """The fields of a problem the Quizzer wrote (task, codes, tests, options, answer), or why they cannot be read."""
    question, correct, buggy, tests_text = (tagged(text, tag) for tag in ("task", "correct_code", "buggy_code",
                                                                           "tests"))  # fmt: skip
    if not question or not correct or not buggy or not tests_text:
        missing = [tag for tag, value in (("task", question), ("correct_code", correct), ("buggy_code", buggy),
                                          ("tests", tests_text)) if not value]  # fmt: skip
        return Rejection("unparseable problem", f"missing <{'>, <'.join(missing)}>")
    if language == "python":
        asserts = [line.strip() for line in tests_text.splitlines() if line.strip().startswith("assert")]
        setup = "\n".join(line for line in tests_text.splitlines() if line.strip() and not line.strip().startswith(
            ("assert", "#")))  # fmt: skip
        tests: ProgramTests | None = ProgramTests(kind="asserts", asserts=asserts, setup=setup) if asserts else None
    else:
        tests = parse_calls(tests_text, correct, language)
    if tests is None:
        return Rejection("unparseable problem", "no tests that can be run")
    fields: dict[str, Any] = {"question": question.strip(), "correct_code": correct.rstrip() + "\n",
                              "buggy_code": buggy.rstrip() + "\n"}  # fmt: skip
    if task == "bug-localization":
        options_text = tagged(text, "options") or ""
        options = [line.split(")", 1)[1].strip() for line in options_text.splitlines()
                   if line.strip()[:3] in ("(A)", "(B)", "(C)", "(D)")]  # fmt: skip
        answer = extract_choice(f"<Answer>{tagged(text, 'answer') or ''}</Answer>")
        if len(options) != 4 or answer is None:
            return Rejection("unparseable problem", "localization needs four options and one letter")
        fields.update(options=options, answer=answer)
    elif task == "bug-identification":
        answer = extract_choice(f"<Answer>{tagged(text, 'answer') or ''}</Answer>")
        if answer is None:
            return Rejection("unparseable problem", "identification needs one letter")
        fields["answer"] = answer
    elif task == "code-review":
        fields["answer"] = "Code-A" if slot % 2 == 0 else "Code-B"
    else:
        fields["answer"] = fields["correct_code"]
    return fields, tests


class LLMQuizzer:
    """A model writes each problem; :func:`verify_problem` keeps only the ones that hold up."""

    def __init__(self, model: ModelBackend, *, settings: GenerationSettings | None = None) -> None:
        self.model = model
        self.name = model.spec
        self.settings = settings or GenerationSettings(temperature=0.7, top_p=0.95, max_tokens=2048, seed=0)

    async def quiz(
        self, program: SourceProgram, task: TaskName, slot: int, usage: Counter[str] | None = None
    ) -> QuizProblem | Rejection:
        prompt = quizzer_prompt(task, program.language, seed_question=program.question, seed_code=program.code)
        try:
            response = await self.model.generate(
                prompt, self.settings.model_copy(update={"seed": slot}), system=QUIZZER_SYSTEM
            )
        except ModelError as exc:
            return Rejection("model call failed", str(exc)[:200])
        if usage is not None:
            usage.update({"quizzer_prompt_tokens": response.usage.prompt_tokens,
                          "quizzer_completion_tokens": response.usage.completion_tokens,
                          "quizzer_cached": int(response.cached)})  # fmt: skip
        parsed = parse_quiz(response.text, task, program.language, slot=slot)
        if isinstance(parsed, Rejection):
            return parsed
        fields, tests = parsed
        answer = fields.pop("answer")
        claimed = CLASS_BY_CHOICE.get(answer) if task == "bug-identification" else None
        problem = QuizProblem(
            id=_problem_id(program, task, slot, self.name), task=task, language=program.language,
            bug_class=claimed or "logic", answer=answer, slug=program.slug, source_id=program.id,
            origin=program.origin, quizzer=self.name, **fields,
        )  # fmt: skip
        verified, report = await verify_problem(problem, tests)
        if isinstance(verified, Rejection) or claimed is not None:
            return verified
        # the class of a problem the model wrote is what execution shows (several separate changes: multiple)
        _, hunks = changed_lines(verified.buggy_code, verified.correct_code, verified.language)
        seen = observed_class(verified.buggy_code, verified.language, report)
        return verified.model_copy(update={"bug_class": "multiple" if hunks >= 2 else seen or "logic"})
