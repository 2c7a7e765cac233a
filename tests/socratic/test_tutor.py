"""The live tutor session, driven in-process: diagnosis, one question per turn, edits, leak blocking, transcript."""

from __future__ import annotations

from pathlib import Path

import pytest

from debugtutor.errors import InputError
from debugtutor.llm import ScriptedModel, ScriptRule
from debugtutor.socratic.dialogue import format_dialogue_file, parse_dialogue_file
from debugtutor.socratic.tutor import CLOSING_UTTERANCE, TutorSession, run_interactive

BUGGY = "def total(xs):\n    s = 0\n    for i in range(1, len(xs)):\n        s += xs[i]\n    return s\n"
FIXED = BUGGY.replace("range(1, len(xs))", "range(0, len(xs))")
TESTS = "assert total([1, 2, 3]) == 6\nassert total([5]) == 5\nassert total([]) == 0\n"
PROBLEM = "Write `total(xs)` that returns the sum of the numbers in the list `xs`."


@pytest.fixture
def program(tmp_path: Path) -> Path:
    path = tmp_path / "total.py"
    path.write_text(BUGGY)
    return path


def test_session_diagnoses_asks_and_ends_when_the_edit_makes_the_tests_pass(program: Path) -> None:
    session = TutorSession(PROBLEM, program, TESTS, repair_seconds=5)
    diagnosis = session.start()
    assert not diagnosis.passed and diagnosis.total == 3 and diagnosis.passing == 1
    assert diagnosis.fixed_code is not None and diagnosis.fixed_code != BUGGY.rstrip("\n")
    assert "got 5, expected 6" in diagnosis.description
    first = session.reply("My total is too small.")
    second = session.reply("I don't know.")
    assert first and second and first != second
    assert not session.finished
    program.write_text(FIXED)
    closing = session.reply("I changed where the loop starts.")
    assert session.finished and closing == CLOSING_UTTERANCE
    assert session.turns[-2].code == FIXED.rstrip("\n")  # the edit is recorded on the student's turn
    for turn in session.turns:
        if turn.speaker == "instructor":
            assert not session.leaks(turn.text)


def test_a_leaking_model_answer_is_replaced(program: Path) -> None:
    leaking = "You should change it to `for i in range(0, len(xs)):` and it works."
    model = ScriptedModel(
        rules=[
            ScriptRule(match="two or three sentences", response="The loop on line 3 skips the first element."),
            ScriptRule(match="exactly one Socratic", response=leaking),
        ]
    )
    session = TutorSession(PROBLEM, program, TESTS, model=model, repair_seconds=5)
    session.start()
    assert (
        session.diagnosis is not None and session.diagnosis.description == "The loop on line 3 skips the first element."
    )
    utterance = session.reply("Why is it wrong?")
    assert utterance != leaking and leaking in session.blocked
    assert not session.leaks(utterance)
    # the model saw the analysis facts and the refined description
    prompt = model.history[-1].messages[1].content
    assert "The loop on line 3 skips the first element." in prompt and "got 5, expected 6" in prompt


def test_run_interactive_commands_and_transcript(program: Path, tmp_path: Path) -> None:
    lines = iter(["hello", ":help", ":bogus", ":edit", "done?"])
    shown: list[str] = []

    def read_line() -> str | None:
        line = next(lines, None)
        if line == ":edit":
            program.write_text(FIXED)
        return line

    transcript = tmp_path / "session.txt"
    session = TutorSession(PROBLEM, program, TESTS, repair_seconds=5)
    outcome = run_interactive(session, read_line, shown.append, transcript_path=transcript)
    output = "".join(shown)
    assert outcome.solved and outcome.turns == 2
    assert "Commands:" in output and "Unknown command :bogus" in output and "[tests: all 3 pass]" in output
    dialogue = parse_dialogue_file(transcript.read_text(), path=str(transcript))
    assert [t.speaker for t in dialogue.turns] == ["student", "instructor", "student", "instructor"]
    assert dialogue.turns[2].text == "I changed my code." and dialogue.turns[2].code == FIXED.rstrip("\n")
    assert dialogue.bug_code == BUGGY.rstrip("\n")
    assert format_dialogue_file(dialogue) == transcript.read_text()


def test_passing_program_has_nothing_to_tutor(tmp_path: Path) -> None:
    path = tmp_path / "ok.py"
    path.write_text(FIXED)
    shown: list[str] = []
    outcome = run_interactive(TutorSession(PROBLEM, path, TESTS, repair_seconds=0), lambda: None, shown.append)
    assert outcome.solved and outcome.turns == 0 and "pass already" in "".join(shown)


def test_tests_without_asserts_are_refused(program: Path) -> None:
    with pytest.raises(InputError, match="no assert"):
        TutorSession(PROBLEM, program, "print(1)\n")
