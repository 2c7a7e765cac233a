"""Model solvers with a scripted model: DebugEval's settings, raw responses kept, facts only when grounded."""

from __future__ import annotations

import asyncio

from debugtutor.debugeval.llm_solver import ModelSolver
from debugtutor.debugeval.records import DebugEvalRecord, TaskName
from debugtutor.debugeval.scoring import score_item
from debugtutor.debugeval.tasks import build_items
from debugtutor.llm import ScriptedModel, ScriptRule
from debugtutor.runs import EvalItem

BUGGY = "def add(a, b):\n    return a - b\n"


def _item(task: TaskName) -> EvalItem:
    record = DebugEvalRecord(
        question_id="q", language="python", question_content="Add.", buggy_code=BUGGY,
        correct_code="def add(a, b):\n    return a + b\n", task2_choice="(C)", task4="True", tests_kind="asserts",
        unit_tests=["assert add(1, 2) == 3"],
    )  # fmt: skip
    (item,) = build_items([record], tasks=[task])
    return item


def test_identification_with_settings_and_raw_response() -> None:
    model = ScriptedModel(["(C)</Answer> the logic is wrong"])
    output = asyncio.run(ModelSolver(model)(_item("bug-identification")))
    settings = model.history[0].settings
    assert settings.temperature == 0.2 and settings.top_p == 0.95 and settings.max_tokens == 1024
    assert output.output["responses"] == ["(C)</Answer> the logic is wrong"]
    assert "What running and checking" not in model.history[0].messages[-1].content
    assert asyncio.run(score_item(_item("bug-identification"), output.output))["score"] == 1.0


def test_review_asks_both_orders() -> None:
    model = ScriptedModel(rules=[ScriptRule(match="Code-A:\ndef add\\(a, b\\):\n    return a - b", response="Code-A")],
                          responses=["Code-B"])  # fmt: skip
    output = asyncio.run(ModelSolver(model)(_item("code-review")))
    assert output.output == {"forward": {"responses": ["Code-A"]}, "reverse": {"responses": ["Code-B"]}}
    assert model.calls == 2


def test_repair_samples_n_and_grounded_prompt_carries_facts() -> None:
    fixed = "```code\ndef add(a, b):\n    return a + b\n```"
    model = ScriptedModel(rules=[ScriptRule(match="Incorrect_Solution", response=fixed)])
    output = asyncio.run(ModelSolver(model, samples=3, grounded=True)(_item("code-repair")))
    assert model.history[0].settings.n == 3 and len(output.output["responses"]) == 3
    assert "What running and checking the code showed" in model.history[0].messages[-1].content
    scored = asyncio.run(score_item(_item("code-repair"), output.output))
    assert scored["c"] == 3 and scored["score"] == 1.0
