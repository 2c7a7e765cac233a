"""Tutoring sessions of the web app: the Socratic arena's live tutor, kept in the database so sessions resume.

A session's state (problem, tests, the student's first and current code, the code the tutor last saw, the turns so
far) is written to SQLite after every change; the live :class:`~debugtutor.socratic.tutor.TutorSession` is rebuilt
from it when the server restarts, so an edit made before the restart still counts as an edit at the next turn.
The tutor reads the student's program from a file, so each session has one under ``DATA/tutor/<id>/``; the editor's
code is written there before every turn, which is how the instructor sees the code after each edit. Tests run only
in the sandbox (the tutor's analysis engine and the "Run tests" button both go through it).
"""

from __future__ import annotations

import json
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from debugtutor.analysis.execution import split_unit_tests
from debugtutor.errors import InputError
from debugtutor.samples import sample_dir
from debugtutor.sandbox import PythonTestsRequest, run
from debugtutor.socratic.dialogue import DialogueTurn, format_dialogue_file, parse_dialogue_file, read_dialogue_file
from debugtutor.socratic.tutor import TutorSession
from debugtutor.web.auth import User
from debugtutor.web.context import AppContext
from debugtutor.web.store import now

OFFLINE = "offline"
MAX_CODE_CHARS = 100_000
MAX_MESSAGE_CHARS = 4_000
_LIVE_SESSIONS = 64  # rebuilt from the database when evicted


@dataclass(frozen=True)
class BuiltinProblem:
    """A problem of the built-in sample set: its statement, the buggy program and the tests."""

    key: str
    title: str
    problem: str
    code: str
    unit_tests: str


def builtin_problems() -> list[BuiltinProblem]:
    """The main dialogues of the built-in Socratic sample, as problems to start a session from."""
    problems = []
    for path in sorted(sample_dir("socratic").glob("*_socratic_dialogue.txt")):
        dialogue = read_dialogue_file(path)
        first_line = dialogue.problem.splitlines()[0] if dialogue.problem else path.stem
        problems.append(
            BuiltinProblem(path.stem, first_line[:120], dialogue.problem, dialogue.bug_code, dialogue.unit_tests)
        )
    return problems


def problem_from_benchmark_file(name: str, text: str) -> tuple[str, str, str]:
    """(problem, buggy code, tests) of an uploaded benchmark ``.txt`` file."""
    dialogue = parse_dialogue_file(text, path=name)
    return dialogue.problem, dialogue.bug_code, dialogue.unit_tests


def _turn_json(turn: DialogueTurn) -> dict[str, Any]:
    return {"speaker": turn.speaker, "text": turn.text, "code": turn.code, "label": turn.label}


def _turn_from_json(data: dict[str, Any]) -> DialogueTurn:
    return DialogueTurn(speaker=data["speaker"], text=data["text"], code=data.get("code"), label=data["label"])


@dataclass
class _Live:
    session: TutorSession
    lock: threading.Lock


class TutorService:
    """Creates, resumes and drives tutoring sessions for the web pages."""

    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx
        self._live: OrderedDict[str, _Live] = OrderedDict()
        self._guard = threading.Lock()

    # -- records ---------------------------------------------------------------------------------------------------

    def models(self) -> list[str]:
        return [OFFLINE, *self.ctx.config.models]

    def create(self, owner: User, *, title: str, problem: str, code: str, unit_tests: str, model: str) -> str:
        problem, unit_tests = problem.strip(), unit_tests.strip("\n")
        if not problem:
            raise InputError("the problem statement is empty", field="problem")
        if not code.strip():
            raise InputError("the student's code is empty", field="code")
        if len(code) > MAX_CODE_CHARS:
            raise InputError(f"the code is longer than {MAX_CODE_CHARS} characters", field="code")
        if not split_unit_tests(unit_tests).tests:
            raise InputError("the tests have no assert statements", field="tests", hint="one `assert ...` per line")
        if model not in self.models():
            raise InputError(
                f"model {model!r} is not offered by this server", field="model", hint=", ".join(self.models())
            )
        session_id = secrets.token_hex(8)
        stamp = now()
        code = code.rstrip("\n")
        with self.ctx.db.write() as conn:
            conn.execute(
                "INSERT INTO tutor_sessions (id, owner, title, problem, unit_tests, original_code, code, model, "
                "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (session_id, owner.name, title.strip()[:200] or "untitled", problem, unit_tests, code, code,
                 model, stamp, stamp),
            )  # fmt: skip
        return session_id

    def record(self, session_id: str, user: User) -> dict[str, Any]:
        row = self.ctx.db.read_one("SELECT * FROM tutor_sessions WHERE id = ?", (session_id,))
        if row is None or (row["owner"] != user.name and not user.is_admin):
            raise LookupError(session_id)
        data = dict(row)
        data["turns"] = json.loads(data["turns"])
        data["blocked"] = json.loads(data["blocked"])
        return data

    def sessions_of(self, user: User) -> list[dict[str, Any]]:
        rows = self.ctx.db.read(
            "SELECT id, owner, title, solved, passing, total, updated_at, turns FROM tutor_sessions "
            "WHERE owner = ? OR ? ORDER BY updated_at DESC",
            (user.name, int(user.is_admin)),
        )
        return [
            {**{k: row[k] for k in ("id", "owner", "title", "solved", "passing", "total", "updated_at")},
             "messages": len(json.loads(row["turns"]))}
            for row in rows
        ]  # fmt: skip

    # -- the live tutor --------------------------------------------------------------------------------------------

    def _code_path(self, session_id: str) -> Path:
        folder = self.ctx.config.data_dir / "tutor" / session_id
        folder.mkdir(parents=True, exist_ok=True)
        return folder / "student.py"

    def _restore(self, record: dict[str, Any]) -> TutorSession:
        """Rebuild the live tutor: diagnose the first program (its leak guard), then the current one, then the turns."""
        path = self._code_path(record["id"])
        path.write_text(record["original_code"], encoding="utf-8")
        model_spec = record["model"] if record["model"] in self.ctx.config.models else None
        backend = None
        if model_spec is not None:
            backend = self.ctx.config.resolve_model(model_spec)
        session = TutorSession(
            problem=record["problem"],
            code_path=path,
            unit_tests=record["unit_tests"],
            model=backend,
            repair_seconds=self.ctx.config.repair_seconds,
        )
        session.start()
        seen = record["seen_code"]
        if seen is not None and seen != record["original_code"]:
            path.write_text(seen, encoding="utf-8")
            session.check_for_edit()
        session.turns = [_turn_from_json(turn) for turn in record["turns"]]
        session.blocked = list(record["blocked"])
        return session

    def _live_session(self, record: dict[str, Any]) -> _Live:
        with self._guard:
            live = self._live.get(record["id"])
            if live is not None:
                self._live.move_to_end(record["id"])
                return live
            live = _Live(self._restore(record), threading.Lock())
            self._live[record["id"]] = live
            while len(self._live) > _LIVE_SESSIONS:
                self._live.popitem(last=False)
            return live

    def save_code(self, session_id: str, user: User, code: str) -> None:
        """Store the editor's code (the next turn's tutor will read it)."""
        if len(code) > MAX_CODE_CHARS:
            raise InputError(f"the code is longer than {MAX_CODE_CHARS} characters", field="code")
        self.record(session_id, user)
        with self.ctx.db.write() as conn:
            conn.execute(
                "UPDATE tutor_sessions SET code = ?, updated_at = ? WHERE id = ?",
                (code.rstrip("\n"), now(), session_id),
            )

    def run_tests(self, session_id: str, user: User, code: str) -> dict[str, Any]:
        """Run the session's tests on ``code`` in the sandbox; each test with its actual and expected value."""
        record = self.record(session_id, user)
        self.save_code(session_id, user, code)
        split = split_unit_tests(record["unit_tests"])
        report = run(PythonTestsRequest(code=code, tests=split.tests, setup=split.setup))
        tests = [
            {
                "index": test.index,
                "source": test.source,
                "status": str(test.status.value),
                "actual": test.actual,
                "expected": test.expected,
                "error": f"{test.exception.type}: {test.exception.message}" if test.exception else None,
            }
            for test in report.tests
        ]
        setup_error = None
        if report.setup_error is not None:
            line = f" (line {report.setup_error.line})" if report.setup_error.line else ""
            setup_error = f"{report.setup_error.type}: {report.setup_error.message}{line}"
        return {
            "passed": report.passed,
            "total": len(report.tests),
            "all_passed": report.passed == len(report.tests) and setup_error is None and bool(report.tests),
            "setup_error": setup_error,
            "tests": tests,
            "isolation": str(report.isolation),
        }

    def say(self, session_id: str, user: User, text: str, code: str | None) -> dict[str, Any]:
        """The student's message (with the editor's code): the tutor's one reply, recorded durably."""
        if len(text) > MAX_MESSAGE_CHARS:
            raise InputError(f"the message is longer than {MAX_MESSAGE_CHARS} characters", field="text")
        if code is not None and len(code) > MAX_CODE_CHARS:
            raise InputError(f"the code is longer than {MAX_CODE_CHARS} characters", field="code")
        record = self.record(session_id, user)
        live = self._live_session(record)  # rebuilt as the tutor last saw it
        current = code.rstrip("\n") if code is not None else record["code"]
        with live.lock:
            session = live.session
            session.code_path.write_text(current, encoding="utf-8")
            utterance = session.reply(text)
            diagnosis = session.diagnosis
            turns = [_turn_json(turn) for turn in session.turns]
            with self.ctx.db.write() as conn:
                conn.execute(
                    "UPDATE tutor_sessions SET code = ?, seen_code = ?, turns = ?, blocked = ?, solved = ?, "
                    "passing = ?, total = ?, updated_at = ? WHERE id = ?",
                    (current, session.code, json.dumps(turns), json.dumps(session.blocked), int(session.finished),
                     diagnosis.passing if diagnosis else None, diagnosis.total if diagnosis else None, now(),
                     session_id),
                )  # fmt: skip
        return {
            "student": turns[-2]["text"],
            "student_code_changed": turns[-2]["code"] is not None,
            "tutor": utterance,
            "solved": session.finished,
            "passing": diagnosis.passing if diagnosis else None,
            "total": diagnosis.total if diagnosis else None,
        }

    def transcript(self, session_id: str, user: User) -> tuple[str, str]:
        """(file name, text) of the session in the Socratic benchmark's file format."""
        record = self.record(session_id, user)
        if not record["turns"]:
            raise InputError("the session has no turns yet: say something to the tutor first")
        live = self._live_session(record)
        with live.lock:
            text = format_dialogue_file(live.session.transcript())
        return f"0_0_tutoring_{session_id}_socratic_dialogue.txt", text
