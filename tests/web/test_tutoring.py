"""Tutoring sessions: the live tutor over the database, resumed by a fresh service as after a restart."""

from __future__ import annotations

from pathlib import Path

import pytest

from debugtutor.errors import InputError
from debugtutor.sandbox import isolation_level
from debugtutor.socratic.dialogue import parse_dialogue_file
from debugtutor.socratic.tutor import CLOSING_UTTERANCE
from debugtutor.web.auth import User
from debugtutor.web.context import AppContext, WebConfig, open_database
from debugtutor.web.tutoring import TutorService, builtin_problems


def _service(data_dir: Path) -> TutorService:
    config = WebConfig(data_dir=data_dir, repair_seconds=2.0)
    return TutorService(AppContext(config, open_database(config)))


def test_session_resumes_after_restart_and_ends_with_tests_passing(tmp_path: Path) -> None:
    ann = User("ann", "annotator")
    problem = next(p for p in builtin_problems() if "sum_evens" in p.problem)
    service = _service(tmp_path)
    session = service.create(ann, title="evens", problem=problem.problem, code=problem.code,
                             unit_tests=problem.unit_tests, model="offline")  # fmt: skip
    report = service.run_tests(session, ann, problem.code)
    failing = [t for t in report["tests"] if t["status"] != "passed"]
    assert failing and not report["all_passed"]
    assert failing[0]["actual"] == "4" and failing[0]["expected"] == "6"
    assert report["isolation"] == isolation_level()
    first = service.say(session, ann, "It returns 4 instead of 6.", problem.code)
    assert not first["solved"] and first["tutor"]

    restarted = _service(tmp_path)  # a new process: nothing in memory
    record = restarted.record(session, ann)
    assert [t["speaker"] for t in record["turns"]] == ["student", "instructor"]
    fixed = problem.code.replace("n % 2 == 1", "n % 2 == 0")
    second = restarted.say(session, ann, "I changed the condition.", fixed)
    assert second["solved"] and second["student_code_changed"]
    assert second["tutor"] == CLOSING_UTTERANCE
    assert second["passing"] == second["total"] == 4

    name, text = restarted.transcript(session, ann)
    dialogue = parse_dialogue_file(text, name=name[:-4])
    assert [t.speaker for t in dialogue.turns] == ["student", "instructor"] * 2
    assert dialogue.turns[2].code == fixed and dialogue.bug_code == problem.code
    with pytest.raises(LookupError):
        restarted.record(session, User("bob", "annotator"))  # another annotator's session is not theirs


def test_bad_sessions_are_refused(tmp_path: Path) -> None:
    service = _service(tmp_path)
    ann = User("ann", "annotator")
    with pytest.raises(InputError, match="no assert"):
        service.create(ann, title="", problem="p", code="x = 1", unit_tests="print(1)", model="offline")
    with pytest.raises(InputError, match="not offered"):
        service.create(ann, title="", problem="p", code="x = 1", unit_tests="assert x == 1", model="openai:gpt-4o")
