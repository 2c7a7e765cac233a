"""The Quizzer: offline problems are exact by construction and pass every check; a model's problems are kept only
when execution confirms them, and each planted defect is rejected for its own reason."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from debugtutor.llm import ScriptedModel
from debugtutor.master.checks import changed_lines
from debugtutor.master.quizzer import LLMQuizzer, OfflineQuizzer, Rejection, check_localization
from debugtutor.master.records import CHOICE_BY_CLASS, QuizProblem, TaskName
from debugtutor.master.sources import load_sources

CASES = json.loads((Path(__file__).parent / "data" / "llm_quizzer_cases.json").read_text())


@pytest.mark.parametrize("task", ["bug-localization", "bug-identification", "code-review", "code-repair"])
def test_offline_problems_follow_the_slot_plan_and_hold_up(split_folder: Path, task: TaskName) -> None:
    programs = load_sources([str(split_folder)], exclude=[]).programs
    quizzer = OfflineQuizzer(seed=1)

    async def quiz_all() -> list[QuizProblem | Rejection]:
        return [await quizzer.quiz(programs[slot % len(programs)], task, slot) for slot in range(8)]

    problems = [p for p in asyncio.run(quiz_all()) if isinstance(p, QuizProblem)]
    assert len(problems) >= 6  # the sample programs are small; nearly every slot yields a verified problem
    for problem in problems:
        assert problem.facts is not None and problem.tests is not None and problem.buggy_code != problem.correct_code
        changed, _ = changed_lines(problem.buggy_code, problem.correct_code, "python")
        assert changed and problem.bug_lines and set(problem.bug_lines) <= set(range(1, len(problem.buggy_code) + 1))
        if task == "bug-identification":
            assert problem.answer == CHOICE_BY_CLASS[problem.bug_class]
        elif task == "bug-localization":
            assert check_localization(problem) is None and problem.bug_class != "multiple"
        elif task == "code-review":
            assert problem.answer in ("Code-A", "Code-B")
        else:
            assert problem.answer == problem.correct_code
    if task == "bug-identification":  # classes are dealt in turn, so all four appear
        assert {p.bug_class for p in problems} == {"syntax", "reference", "logic", "multiple"}
    if task == "bug-localization":
        assert len({p.answer for p in problems}) >= 3


def test_offline_rejects_a_program_that_fails_its_own_tests(split_folder: Path) -> None:
    program = load_sources([str(split_folder)], exclude=[]).programs[0]
    broken = program.model_copy(update={"code": program.code.replace("return", "return None and", 1),
                                        "id": "broken"})  # fmt: skip
    verdict = asyncio.run(OfflineQuizzer().quiz(broken, "code-repair", 0))
    assert isinstance(verdict, Rejection) and verdict.reason == "correct code fails its tests"


def test_llm_quizzer_keeps_only_what_execution_confirms(split_folder: Path) -> None:
    program = load_sources([str(split_folder)], exclude=[]).programs[0]
    model = ScriptedModel([case["response"] for case in CASES])
    quizzer = LLMQuizzer(model)

    async def quiz_all() -> list[QuizProblem | Rejection]:
        return [await quizzer.quiz(program, case["task"], slot) for slot, case in enumerate(CASES)]

    verdicts = asyncio.run(quiz_all())
    got = ["accepted" if isinstance(v, QuizProblem) else v.reason for v in verdicts]
    assert got == [case["expected"] for case in CASES]
    accepted = [v for v in verdicts if isinstance(v, QuizProblem)]
    assert {p.task: p.bug_class for p in accepted if p.task != "bug-identification"} == {
        "bug-localization": "logic", "code-review": "logic", "code-repair": "logic"}  # fmt: skip
    assert [p.answer for p in accepted if p.task == "bug-identification"] == ["(C)", "(B)"]
    # the model was shown the source program to build on, and one demonstration of the layout
    first_prompt = model.history[0].messages[-1].content
    assert program.code in first_prompt and "<options>" in first_prompt and "Example of the layout" in first_prompt
