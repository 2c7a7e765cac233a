"""Model-backed instructors driven by scripted models (no network), the offline one, and the registry."""

from __future__ import annotations

import asyncio

import pytest

from debugtutor.errors import InputError
from debugtutor.llm import ScriptedModel, ScriptRule
from debugtutor.socratic.dataset import EvaluationExample, TurnRecord
from debugtutor.socratic.instructors import (
    INSTRUCTOR_NAMES,
    ModelInstructor,
    OfflineInstructor,
    get_instructor,
    grounding_facts,
    parse_list_response,
    tutoring_state,
)
from debugtutor.socratic.prompts import FACTS_HEADER, REASONS_HEADER

BUGGY = "def double(x):\n    return x + 2"


def make_example(turn: int = 0, dialogue: str = "0_0_double_socratic_dialogue") -> EvaluationExample:
    history = [TurnRecord(f"student {i}", f"instructor {i}") for i in range(turn)]
    return EvaluationExample(
        id=f"{dialogue}#{turn}",
        dialogue=dialogue,
        problem_id="0",
        bug_id="0",
        turn_index=turn,
        problem="Write double(x) that returns twice x.",
        bug_code=BUGGY,
        bug_desc="On line 2 the function adds 2 instead of doubling.",
        bug_fixes=["Replace `x + 2` with `x * 2` on line 2."],
        unit_tests="assert double(3) == 6\nassert double(0) == 0",
        history=history,
        student_text=f"student {turn}",
        student_code="",
        current_code=BUGGY,
        references=["What does line 2 compute?"],
    )


def test_list_parser_restores_the_first_marker_that_the_prompt_supplied() -> None:
    text = " What does line 2 compute?\n2. What should double(3) be?"
    assert parse_list_response(text) == ["What does line 2 compute?", "What should double(3) be?"]
    # with a preamble before a real list, the preamble is not an item
    assert parse_list_response("Sure:\n1. A?\n2. B?") == ["A?", "B?"]
    # the benchmark's own parser is used as it is when asked for
    assert parse_list_response("1. A?\n2. B?", "original") == ["A?", "B?"]


def test_zero_shot_parses_the_numbered_list_and_reports_usage() -> None:
    model = ScriptedModel(
        [" What does line 2 compute?\n2. What does `double(3)` return?\n3. What does line 2 compute?"]
    )
    prediction = asyncio.run(ModelInstructor(model, mode="zero-shot").predict(make_example()))
    assert prediction.utterances == ["What does line 2 compute?", "What does `double(3)` return?"]
    assert prediction.raw == [model.history[0].texts[0]]
    assert prediction.usage["model_calls"] == 1 and prediction.usage["prompt_tokens"] > 0
    sent = model.history[0]
    assert sent.settings.temperature == 0 and sent.settings.max_tokens == 1024
    assert sent.messages[1].content.endswith("1.")


def test_single_mode_keeps_one_utterance() -> None:
    model = ScriptedModel(["What value does line 2 return when x is 3?"])
    prediction = asyncio.run(ModelInstructor(model, mode="single").predict(make_example()))
    assert prediction.utterances == ["What value does line 2 return when x is 3?"]


def test_cot_as_described_introspects_at_every_turn() -> None:
    model = ScriptedModel(
        rules=[
            ScriptRule(match="reasons, not questions", response="Adds instead of multiplying."),
            ScriptRule(match="1\\.$", response=" What does line 2 do?"),
        ]
    )
    instructor = ModelInstructor(model, mode="cot")

    async def both() -> None:
        for turn in (0, 1):
            prediction = await instructor.predict(make_example(turn))
            assert prediction.utterances == ["What does line 2 do?"]
            assert prediction.usage["model_calls"] == 2

    asyncio.run(both())
    assert len(model.history) == 4
    assert f"{REASONS_HEADER}\nAdds instead of multiplying." in model.history[1].messages[1].content


def test_cot_as_coded_reuses_the_first_turns_introspection_across_concurrent_turns() -> None:
    model = ScriptedModel(
        rules=[
            ScriptRule(match="reasons, not questions", responses=["first-turn reasons", "should not be asked"]),
            ScriptRule(match="1\\.$", response=" Q?"),
        ]
    )
    instructor = ModelInstructor(model, mode="cot-as-coded")

    async def all_turns() -> list[float]:
        predictions = await asyncio.gather(*(instructor.predict(make_example(turn)) for turn in range(3)))
        return [p.usage["model_calls"] for p in predictions]

    calls = asyncio.run(all_turns())
    introspections = [c for c in model.history if "reasons, not questions" in c.messages[1].content]
    assert len(introspections) == 1
    # the introspection looks at the dialogue's first student line only
    assert "User: student 0" in introspections[0].messages[1].content
    assert "instructor 0" not in introspections[0].messages[1].content
    assert sorted(calls) == [1, 1, 2]
    answers = [c for c in model.history if REASONS_HEADER in c.messages[1].content]
    assert len(answers) == 3 and all("first-turn reasons" in c.messages[1].content for c in answers)


def test_grounding_facts_show_actual_and_expected_values() -> None:
    facts = asyncio.run(grounding_facts(BUGGY, "assert double(3) == 6\nassert double(0) == 0"))
    assert facts.total == 2 and facts.passing == 0
    assert any("got 5, expected 6" in line for line in facts.failing_tests)
    assert facts.suspicious_lines and facts.suspicious_lines[0].startswith("line 2")


def test_grounded_instructor_puts_the_facts_in_the_prompt() -> None:
    model = ScriptedModel([" What does line 2 return for 3?"])
    instructor = get_instructor("grounded", model)
    prediction = asyncio.run(instructor.predict(make_example()))
    assert instructor.name == "grounded"
    assert prediction.utterances == ["What does line 2 return for 3?"]
    prompt = model.history[0].messages[1].content
    assert FACTS_HEADER in prompt and "got 5, expected 6" in prompt


def test_offline_instructor_through_the_protocol() -> None:
    prediction = asyncio.run(OfflineInstructor().predict(make_example()))
    assert 1 <= len(prediction.utterances) <= 3
    assert prediction.raw == []
    assert all("x * 2" not in u for u in prediction.utterances)


def test_tutoring_state_marks_code_changes_and_hides_the_description_on_request() -> None:
    example = make_example(1)
    example.student_code = "def double(x):\n    return x * 3"
    state = tutoring_state(example, with_bug_desc=False)
    assert state.code_changed and state.bug_desc == "" and state.history == [("student 0", "instructor 0")]
    assert not tutoring_state(make_example(1)).code_changed


def test_registry_names_and_errors() -> None:
    assert set(INSTRUCTOR_NAMES) >= {"offline", "zero-shot", "single", "cot", "cot-as-coded", "grounded"}
    assert get_instructor("offline").name == "offline"
    assert get_instructor("cot-as-coded", ScriptedModel([])).name == "cot-as-coded"
    with pytest.raises(InputError, match="needs a model"):
        get_instructor("zero-shot")
    with pytest.raises(InputError, match="unknown instructor"):
        get_instructor("oracle")
