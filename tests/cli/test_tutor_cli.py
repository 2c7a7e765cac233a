"""``debugtutor tutor`` as a subprocess driven through its stdin and stdout, the way a student would use it."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

from debugtutor.socratic.dialogue import read_dialogue_file
from debugtutor.socratic.leak import LeakGuard

BUGGY = "def total(xs):\n    s = 0\n    for i in range(1, len(xs)):\n        s += xs[i]\n    return s\n"
FIXED = BUGGY.replace("range(1, len(xs))", "range(len(xs))")
TESTS = "assert total([1, 2, 3]) == 6\nassert total([5]) == 5\nassert total([]) == 0\n"
PROBLEM = "Write `total(xs)` that returns the sum of the numbers in the list `xs`.\n"
PROMPT = "you> "

# The ``debugtutor`` entry point, run with this interpreter so the test uses the checkout's package.
COMMAND = [sys.executable, "-m", "debugtutor.cli.main"]


class Driver:
    """Reads the tutor's stdout on a thread so the test can wait for each prompt with a timeout."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
        self.process = subprocess.Popen(
            [*COMMAND, *args],
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        self.chunks: queue.Queue[str | None] = queue.Queue()
        self.seen = ""
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        while True:
            char = self.process.stdout.read(1)
            if not char:
                self.chunks.put(None)
                return
            self.chunks.put(char)

    def wait_for(self, text: str, timeout_s: float = 60.0) -> str:
        """Everything printed up to and including the next ``text``."""
        start = len(self.seen)
        deadline = time.monotonic() + timeout_s
        while text not in self.seen[start:]:
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"timed out waiting for {text!r}; output so far: {self.seen[start:]!r}"
            try:
                char = self.chunks.get(timeout=remaining)
            except queue.Empty:
                continue
            assert char is not None, f"the tutor exited before {text!r}: {self.seen[start:]!r}"
            self.seen += char
        return self.seen[start:]

    def say(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()


def test_a_scripted_student_fixes_the_bug(tmp_path: Path) -> None:
    (tmp_path / "problem.txt").write_text(PROBLEM)
    program = tmp_path / "total.py"
    program.write_text(BUGGY)
    (tmp_path / "tests.py").write_text(TESTS)
    transcript = tmp_path / "session.txt"
    args = ["tutor", "--problem", "problem.txt", "--code", "total.py", "--tests", "tests.py"]
    driver = Driver([*args, "--transcript", str(transcript), "--repair-seconds", "5"], tmp_path)
    try:
        opening = driver.wait_for(PROMPT)
        assert "2 of 3 tests fail" in opening
        driver.say("My function gives the wrong sum.")
        first = driver.wait_for(PROMPT)
        assert "tutor> " in first
        driver.say("I'm not sure what you mean.")
        second = driver.wait_for(PROMPT)
        assert "tutor> " in second
        program.write_text(FIXED)  # the student edits the file in their editor, then tells the tutor
        driver.say(":edit")
        closing = driver.wait_for("Session solved")
        assert "[tests: all 3 pass]" in closing
        assert driver.process.wait(timeout=30) == 0
    finally:
        if driver.process.poll() is None:
            driver.process.kill()
    dialogue = read_dialogue_file(transcript)
    speakers = [turn.speaker for turn in dialogue.turns]
    assert speakers == ["student", "instructor"] * 3
    assert dialogue.turns[0].text == "My function gives the wrong sum."
    assert dialogue.turns[4].code == FIXED.rstrip("\n")
    guard = LeakGuard(BUGGY, [], fixed_code=FIXED, context=PROBLEM + TESTS)
    for turn in dialogue.instructor_turns():
        assert not guard.check(turn.text).leaked, turn.text


def test_json_outcome_when_the_student_quits(tmp_path: Path) -> None:
    (tmp_path / "problem.txt").write_text(PROBLEM)
    (tmp_path / "total.py").write_text(BUGGY)
    (tmp_path / "tests.py").write_text(TESTS)
    args = ["tutor", "--problem", "problem.txt", "--code", "total.py", "--tests", "tests.py", "--json"]
    done = subprocess.run(
        [*COMMAND, *args, "--repair-seconds", "0"],
        cwd=tmp_path,
        input="why?\n:quit\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    outcome = json.loads(done.stdout)
    assert outcome == {
        "solved": False,
        "student_turns": 1,
        "blocked_utterances": outcome["blocked_utterances"],
        "transcript": None,
        "diagnosis": outcome["diagnosis"],
    }
    assert "tutor> " in done.stderr and "got 5, expected 6" in outcome["diagnosis"]


def test_missing_program_is_an_input_error(tmp_path: Path) -> None:
    (tmp_path / "problem.txt").write_text(PROBLEM)
    (tmp_path / "tests.py").write_text(TESTS)
    args = ["tutor", "--problem", "problem.txt", "--code", "absent.py", "--tests", "tests.py"]
    done = subprocess.run([*COMMAND, *args], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "absent.py" in done.stderr
