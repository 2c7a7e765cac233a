"""Learner and Teacher: answers judged exactly (repairs by running them), explanations that end in the verified
answer, and a model teacher whose final answer disagrees is discarded."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from debugtutor.llm import ScriptedModel
from debugtutor.master.learner import Learner, judge_answer
from debugtutor.master.prompts import answer_text, extract_choice, extract_code, extract_review, problem_prompt
from debugtutor.master.quizzer import OfflineQuizzer
from debugtutor.master.records import QuizProblem, TaskName
from debugtutor.master.sources import load_sources
from debugtutor.master.teacher import LLMTeacher, OfflineTeacher, offline_explanation


def _problem(folder: Path, task: TaskName, slot: int = 2) -> QuizProblem:
    programs = load_sources([str(folder)], exclude=[]).programs
    for attempt in range(slot, slot + 12):
        found = asyncio.run(OfflineQuizzer().quiz(programs[attempt % len(programs)], task, attempt))
        if isinstance(found, QuizProblem):
            return found
    raise AssertionError("no problem")


def test_answer_extraction_follows_the_formats_asked_for() -> None:
    assert extract_choice("thinking... <Answer>(B)</Answer>") == "(B)"
    assert extract_choice("<Answer>C</Answer>") == "(C)"
    assert extract_choice("(A) or maybe (B)") is None and extract_choice("the bug is in (D)") == "(D)"
    assert extract_choice("<Answer>(A)</Answer> no wait <Answer>(C)</Answer>") == "(C)"
    assert extract_review("Code-B is wrong\nmore") == "Code-B" and extract_review("<Answer>Code-A</Answer>") == "Code-A"
    assert extract_review("Code-A and Code-B") is None
    assert extract_code("fix:\n```code\nx = 1\n```\n") == "x = 1\n" and extract_code("no code") is None


def test_repairs_are_judged_by_the_tests(split_folder: Path) -> None:
    problem = _problem(split_folder, "code-repair")
    right = asyncio.run(judge_answer(problem, answer_text(problem)))
    wrong = asyncio.run(judge_answer(problem, f"```code\n{problem.buggy_code}```"))
    assert right.correct and not wrong.correct and "tests pass" in wrong.detail


def test_learner_attempts_are_recorded_and_judged(split_folder: Path) -> None:
    problem = _problem(split_folder, "bug-identification")
    wrong = "(A)" if problem.answer != "(A)" else "(B)"
    model = ScriptedModel([f"<Answer>{problem.answer}</Answer>", f"<Answer>{wrong}</Answer>", "no idea"])
    attempts, usage = asyncio.run(Learner(model, attempts=3).attempt(problem))
    assert [a.correct for a in attempts] == [True, False, False] and attempts[2].extracted is None
    assert model.history[0].messages[-1].content == problem_prompt(problem)
    assert model.history[0].settings.n == 3 and model.history[0].settings.temperature > 0
    assert usage["completion_tokens"] > 0


@pytest.mark.parametrize("task", ["bug-localization", "bug-identification", "code-review", "code-repair"])
def test_offline_teacher_explains_from_facts_and_ends_in_the_answer(split_folder: Path, task: TaskName) -> None:
    problem = _problem(split_folder, task)
    text = offline_explanation(problem)
    assert text.rstrip().endswith(answer_text(problem).rstrip())
    assert problem.facts is not None
    if problem.facts.failing_input:
        assert problem.facts.failing_input in text
    assert f"ine {problem.bug_lines[0]}" in text or "line" in text.lower()
    solution, _ = asyncio.run(OfflineTeacher().solve(problem))
    assert solution.agrees and solution.final_answer


def test_a_model_teacher_that_disagrees_is_discarded(split_folder: Path) -> None:
    problem = _problem(split_folder, "code-review")
    other = "Code-B" if problem.answer == "Code-A" else "Code-A"
    model = ScriptedModel([f"Let me compare.\n<Answer>{other}</Answer>", f"Step by step.\n<Answer>{problem.answer}"
                                                                         "</Answer>"])  # fmt: skip
    teacher = LLMTeacher(model)
    first, _ = asyncio.run(teacher.solve(problem))
    second, _ = asyncio.run(teacher.solve(problem))
    assert not first.agrees and second.agrees and second.teacher == model.spec
    prompt = model.history[0].messages[-1].content
    assert answer_text(problem) in prompt and "What running the code showed" in prompt
