"""The live Socratic tutor: a session that leads a student to find and fix their own bug, one question per turn.

A :class:`TutorSession` watches the student's program file. It runs the tests and diagnoses the bug with the
analysis engine (failing tests with their values, suspicious lines, a verified repair when one is found); with a
model, the model turns those facts into a short bug description. Each student message may come with an edited file
(the session re-reads it every turn, or on ``:edit``): the tests run again and the session ends when they pass.

The tutor never reveals the fix: every utterance, from the model or from the offline instructor, goes through a
:class:`~debugtutor.socratic.leak.LeakGuard` built from the buggy program and the analysis engine's repair (as
``fixed_code``); a leaking utterance is replaced by the next candidate. The conversation is kept as a
:class:`~debugtutor.socratic.dialogue.SocraticDialogue`, so the transcript is written in the benchmark's format.

The session knows nothing about terminals: :func:`run_interactive` drives it from line-oriented input and output.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from debugtutor.analysis.engine import AnalysisBudget, AnalysisReport, analyze
from debugtutor.analysis.execution import split_unit_tests
from debugtutor.errors import DebugtutorError, InputError
from debugtutor.llm import ModelBackend
from debugtutor.socratic.dataset import EvaluationExample, TurnRecord
from debugtutor.socratic.dialogue import DialogueTurn, SocraticDialogue
from debugtutor.socratic.instructors import ModelInstructor, facts_from_report
from debugtutor.socratic.leak import LeakGuard
from debugtutor.socratic.prompts import DETERMINISTIC_SETTINGS, GroundingFacts, diagnosis_messages
from debugtutor.socratic.questioner import AnalysisQuestioner, TutoringState

EDIT_COMMAND = ":edit"
QUIT_COMMANDS = (":quit", ":q", ":exit")
HELP_COMMAND = ":help"
EDIT_TEXT = "I changed my code."
FALLBACK_QUESTIONS = (
    "Which test fails first, and what did you expect it to give?",
    "Can you walk me through what your program does for that test, line by line?",
    "What would you check first to find out where the result goes wrong?",
)
CLOSING_UTTERANCE = (
    "All the tests pass now. Well done! Can you explain in your own words what was wrong and why your change fixed it?"
)


@dataclass
class Diagnosis:
    """What the session knows about the current program: test outcomes, the bug description, the repair."""

    passed: bool
    passing: int
    total: int
    description: str
    fixed_code: str | None
    facts: GroundingFacts
    report: AnalysisReport


@dataclass
class TutorSession:
    """One tutoring session over ``code_path``; see the module docstring.

    ``model`` is optional: without it the offline instructor asks the questions. ``repair_seconds`` bounds the
    analysis engine's repair search, whose fix feeds the leak guard.
    """

    problem: str
    code_path: Path
    unit_tests: str
    model: ModelBackend | None = None
    repair_seconds: float = 8.0
    candidates_per_turn: int = 6
    original_code: str = field(init=False, default="")
    code: str = field(init=False, default="")
    diagnosis: Diagnosis | None = field(init=False, default=None)
    turns: list[DialogueTurn] = field(init=False, default_factory=list)
    guards: list[LeakGuard] = field(init=False, default_factory=list)
    blocked: list[str] = field(init=False, default_factory=list)  # utterances the leak guard refused
    finished: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        if not split_unit_tests(self.unit_tests).tests:
            raise InputError("the tests have no assert statements", hint="one `assert ...` per line")
        self.original_code = self.code = self._read_code()
        self._offline = AnalysisQuestioner(max_utterances=self.candidates_per_turn)
        self._model_instructor = (
            ModelInstructor(self.model, mode="single", grounded=True, facts=self._current_facts)
            if self.model is not None
            else None
        )

    # -- program and diagnosis ---------------------------------------------------------------------------------

    def _read_code(self) -> str:
        try:
            text = self.code_path.read_text(encoding="utf-8-sig")
        except OSError as exc:
            raise InputError(f"cannot read the program: {exc.strerror}", path=str(self.code_path)) from exc
        except UnicodeDecodeError as exc:
            raise InputError("the program is not UTF-8 text", path=str(self.code_path)) from exc
        return text.rstrip("\n")

    def start(self) -> Diagnosis:
        """Run the tests and diagnose the program as it is now."""
        self.diagnosis = self._diagnose(self.code)
        self.finished = self.diagnosis.passed
        return self.diagnosis

    def _diagnose(self, code: str) -> Diagnosis:
        report = analyze(code, self.unit_tests, budget=AnalysisBudget(repair_seconds=self.repair_seconds))
        facts = facts_from_report(report, code)
        passed = facts.total > 0 and facts.passing == facts.total and facts.load_error is None
        fixed = report.repair.source if report.repair is not None else None
        description = _describe(facts, report)
        if self.model is not None and not passed:
            description = self._refine(code, facts, fallback=description)
        if not passed:
            self.guards.append(LeakGuard(code, [], fixed_code=fixed, context=self.problem + "\n" + self.unit_tests))
        return Diagnosis(passed, facts.passing, facts.total, description, fixed, facts, report)

    def _refine(self, code: str, facts: GroundingFacts, *, fallback: str) -> str:
        """The model's short bug description from the analysis facts; the engine's own on any model failure."""
        assert self.model is not None
        model = self.model

        async def ask() -> str:
            try:
                response = await model.generate(
                    diagnosis_messages(self.problem, code, self.unit_tests, facts), DETERMINISTIC_SETTINGS
                )
                return response.text
            finally:
                await model.aclose()

        try:
            text = asyncio.run(ask())
        except DebugtutorError:
            return fallback
        text = " ".join(text.split())
        return text if text else fallback

    async def _current_facts(self, code: str, unit_tests: str) -> GroundingFacts:
        assert self.diagnosis is not None
        return self.diagnosis.facts

    def check_for_edit(self) -> bool:
        """Re-read the program; when it changed, run the tests again. Returns whether it changed."""
        current = self._read_code()
        if current == self.code:
            return False
        self.code = current
        self.diagnosis = self._diagnose(current)
        self.finished = self.diagnosis.passed
        return True

    # -- turns -------------------------------------------------------------------------------------------------

    def leaks(self, utterance: str) -> bool:
        return any(guard.check(utterance).leaked for guard in self.guards)

    def _history(self) -> list[tuple[str, str]]:
        pairs: list[tuple[str, str]] = []
        pending = ""
        for turn in self.turns:
            if turn.speaker == "student":
                pending = turn.text
            else:
                pairs.append((pending, turn.text))
        return pairs

    def _offline_candidates(self, student_text: str, code_changed: bool) -> list[str]:
        state = TutoringState(
            problem=self.problem,
            code=self.code,
            unit_tests=self.unit_tests,
            student_text=student_text,
            turn_index=len(self._history()),
            bug_desc="",  # no description: the offline instructor localizes the bug with the analysis engine
            bug_fixes=[],
            original_code=self.original_code,
            code_changed=code_changed,
            history=self._history(),
            # the engine ranks a verified repair's lines first
            suspect_lines=[item.line for item in self.diagnosis.report.suspicious_lines[:3]] if self.diagnosis else [],
        )
        return self._offline.respond(state)

    def _example(self, student_text: str, student_code: str) -> EvaluationExample:
        assert self.diagnosis is not None
        records: list[TurnRecord] = []
        cumulative = ""
        pending: TurnRecord | None = None
        for turn in self.turns:
            if turn.speaker == "student":
                cumulative = turn.code or cumulative
                pending = TurnRecord(turn.text, "", turn.code or "", cumulative)
            elif pending is not None:
                pending.assistant_text = turn.text
                records.append(pending)
                pending = None
        return EvaluationExample(
            id=f"live#{len(records)}",
            dialogue="live",
            problem_id="",
            bug_id="",
            turn_index=len(records),
            problem=self.problem,
            bug_code=self.original_code,
            bug_desc=self.diagnosis.description,
            bug_fixes=[],
            unit_tests=self.unit_tests,
            history=records,
            student_text=student_text,
            student_code=student_code,
            current_code=self.code,
            references=[],
        )

    def _model_candidates(self, student_text: str, student_code: str) -> list[str]:
        instructor = self._model_instructor
        model = self.model
        if instructor is None or model is None:
            return []

        async def ask() -> list[str]:
            try:
                prediction = await instructor.predict(self._example(student_text, student_code))
                return prediction.utterances
            finally:
                await model.aclose()

        try:
            return asyncio.run(ask())
        except DebugtutorError:
            return []  # the offline instructor takes over this turn

    def reply(self, student_text: str) -> str:
        """Record a student message (re-reading the program first) and return the tutor's one utterance."""
        if self.diagnosis is None:
            self.start()
        changed = self.check_for_edit()
        text = " ".join(student_text.split()) or (EDIT_TEXT if changed else "...")
        self.turns.append(DialogueTurn(speaker="student", text=text, label="User", code=self.code if changed else None))
        if self.finished:
            utterance = CLOSING_UTTERANCE
        else:
            said = {turn.text.lower() for turn in self.turns if turn.speaker == "instructor"}
            candidates = self._model_candidates(text, self.code if changed else "")
            candidates += self._offline_candidates(text, changed) + list(FALLBACK_QUESTIONS)
            utterance = ""
            for candidate in (" ".join(c.split()) for c in candidates):
                if not candidate or candidate.lower() in said:
                    continue
                if self.leaks(candidate):
                    self.blocked.append(candidate)
                    continue
                utterance = candidate
                break
            utterance = utterance or FALLBACK_QUESTIONS[len(self.turns) % len(FALLBACK_QUESTIONS)]
        self.turns.append(DialogueTurn(speaker="instructor", text=utterance, label="Assistant"))
        return utterance

    def transcript(self) -> SocraticDialogue:
        """The session so far in the benchmark's record; the bug fixes name the repair's changed lines."""
        fixes: list[str] = []
        first = self.guards[0] if self.guards else None
        if first is not None and first.fixed_code:
            fixes = [f"A verified repair changes line(s) {_changed_lines(self.original_code, first.fixed_code)}."]
        return SocraticDialogue(
            problem=self.problem,
            bug_code=self.original_code,
            bug_desc=self.diagnosis.description if self.diagnosis is not None else "",
            bug_fixes=fixes,
            unit_tests=self.unit_tests.strip("\n"),
            stu_desc="",
            turns=list(self.turns),
            name="live_tutor_session",
        )


def _changed_lines(before: str, after: str) -> str:
    from debugtutor.analysis.repair import changed_original_lines

    lines = changed_original_lines(before, after)
    return ", ".join(str(n) for n in lines) if lines else "?"


def _describe(facts: GroundingFacts, report: AnalysisReport) -> str:
    """The engine's bug description: which tests fail with what values, and the most suspicious line."""
    if facts.load_error:
        return f"The program does not load: {facts.load_error}."
    parts = [f"{facts.total - facts.passing} of {facts.total} tests fail."]
    if facts.failing_tests:
        parts.append(f"First failure: {facts.failing_tests[0]}.")
    if facts.suspicious_lines:
        parts.append(f"The most suspicious line is {facts.suspicious_lines[0]}.")
    if report.repair is not None:
        parts.append(f"A verified repair changes line(s) {', '.join(map(str, report.repair.changed_lines))}.")
    return " ".join(parts)


@dataclass
class SessionOutcome:
    """How a session ended."""

    solved: bool
    turns: int
    blocked_utterances: int
    transcript_path: str | None


_COMMAND = re.compile(r"^:\w+$")


def run_interactive(
    session: TutorSession,
    read_line: Callable[[], str | None],
    write: Callable[[str], None],
    *,
    transcript_path: Path | None = None,
    max_turns: int = 100,
) -> SessionOutcome:
    """Drive a session: ``read_line`` returns the student's next line (None at end of input), ``write`` shows text.

    Lines ``:edit`` (re-read the program), ``:help`` and ``:quit`` are commands; anything else is said to the tutor.
    """
    diagnosis = session.start()
    if diagnosis.passed:
        write(f"All {diagnosis.total} tests pass already; there is nothing to debug.\n")
        return SessionOutcome(True, 0, 0, None)
    write(
        f"{diagnosis.total - diagnosis.passing} of {diagnosis.total} tests fail. Tell me what you see, "
        f"edit {session.code_path.name} whenever you like (or type {EDIT_COMMAND} after saving), {QUIT_COMMANDS[0]} "
        "to stop.\n"
    )
    student_turns = 0
    while not session.finished and student_turns < max_turns:
        write("you> ")
        line = read_line()
        if line is None:
            break
        line = line.strip()
        if line in QUIT_COMMANDS:
            break
        if line == HELP_COMMAND:
            write(f"Commands: {EDIT_COMMAND} (I saved my file), {HELP_COMMAND}, {QUIT_COMMANDS[0]}.\n")
            continue
        if _COMMAND.match(line) and line != EDIT_COMMAND:
            write(f"Unknown command {line}; type {HELP_COMMAND}.\n")
            continue
        text = "" if line == EDIT_COMMAND else line
        utterance = session.reply(text)
        student_turns += 1
        if session.finished and session.diagnosis is not None:
            write(f"[tests: all {session.diagnosis.total} pass]\n")
        elif session.turns[-2].code is not None and session.diagnosis is not None:
            write(f"[tests: {session.diagnosis.passing} of {session.diagnosis.total} pass]\n")
        write(f"tutor> {utterance}\n")
    saved = None
    if transcript_path is not None and session.turns:
        from debugtutor.socratic.dialogue import format_dialogue_file

        transcript_path.write_text(format_dialogue_file(session.transcript()), encoding="utf-8")
        saved = str(transcript_path)
    return SessionOutcome(session.finished, student_turns, len(session.blocked), saved)
