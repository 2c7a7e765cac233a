"""Prompt layout of the model-backed instructors: sections, history order, instructions per mode, grounding facts."""

from __future__ import annotations

import pytest

from debugtutor.socratic.dataset import EvaluationExample, TurnRecord
from debugtutor.socratic.prompts import (
    DETERMINISTIC_SETTINGS,
    DIALOGUE_HEADER,
    FACTS_HEADER,
    PAPER_INSTRUCTION_MULTIPLE,
    PAPER_INSTRUCTION_SINGLE,
    PAPER_REASONS_HEADER,
    REASONS_HEADER,
    GroundingFacts,
    build_messages,
    context_block,
    diagnosis_messages,
    number_lines,
)


def make_example(history: list[TurnRecord] | None = None, student_code: str = "") -> EvaluationExample:
    return EvaluationExample(
        id="0_0_x_socratic_dialogue#1",
        dialogue="0_0_x_socratic_dialogue",
        problem_id="0",
        bug_id="0",
        turn_index=len(history or []),
        problem="Write double(x).",
        bug_code="def double(x):\n    return x + 2",
        bug_desc="On line 2 the function adds 2 instead of doubling.",
        bug_fixes=["Replace `x + 2` with `x * 2` on line 2."],
        unit_tests="assert double(3) == 6",
        history=history or [],
        student_text="It returns 5 for 3.",
        student_code=student_code,
        current_code="def double(x):\n    return x + 2",
        references=["What does line 2 compute?"],
    )


def test_context_block_has_sections_in_order_and_ends_with_two_blank_lines() -> None:
    block = context_block(make_example())
    tags = ["problem", "bug_code", "bug_desc", "bug_fixes", "unit_tests"]
    positions = [block.index(f"<{tag}>\n") for tag in tags]
    assert positions == sorted(positions)
    assert "<stu_desc>" not in block
    assert "<bug_fixes>\nReplace `x + 2` with `x * 2` on line 2.\n</bug_fixes>\n" in block
    assert block.endswith("</unit_tests>\n\n\n")


def test_history_prints_earlier_code_after_the_instructor_line() -> None:
    history = [TurnRecord("Help", "What does line 2 do?", code_text="def double(x):\n    return x - 2")]
    user = build_messages(make_example(history), "multiple")[1].content
    help_at, assistant_at, code_at = user.index("User: Help"), user.index("Assistant: What"), user.index("<code>")
    assert help_at < assistant_at < code_at
    assert user.index("User: It returns 5 for 3.") > code_at


def test_current_turn_code_follows_the_student_line() -> None:
    user = build_messages(make_example(student_code="def double(x):\n    return x"), "single")[1].content
    assert "User: It returns 5 for 3.\n<code>\ndef double(x):\n    return x\n</code>\n" in user


def test_multiple_mode_ends_with_list_start_and_single_does_not() -> None:
    multiple = build_messages(make_example(), "multiple")
    single = build_messages(make_example(), "single")
    assert multiple[0].role == "system" and multiple[1].role == "user"
    assert multiple[1].content.endswith("\n1.")
    assert not single[1].content.rstrip().endswith("1.")
    assert multiple[0].content != single[0].content  # the list mode asks for every utterance in its system message
    # the instruction comes after an empty line
    assert "\n\nReply as the instructor" in multiple[1].content


def test_cot_needs_and_shows_the_introspection() -> None:
    with pytest.raises(ValueError):
        build_messages(make_example(), "cot")
    user = build_messages(make_example(), "cot", introspection="The student adds instead of multiplying.")[1].content
    assert f"{REASONS_HEADER}\nThe student adds instead of multiplying.\n" in user
    assert user.endswith("1.")


def test_dialogue_header_only_when_there_is_history() -> None:
    without = build_messages(make_example(), "introspect")[1].content
    with_history = build_messages(make_example([TurnRecord("Hi", "Hello?")]), "introspect")[1].content
    assert DIALOGUE_HEADER not in without
    assert f"{DIALOGUE_HEADER}\nUser: Hi\n" in with_history


def test_grounding_facts_are_rendered_before_the_instruction() -> None:
    facts = GroundingFacts(
        failing_tests=["assert double(3) == 6: got 5, expected 6"],
        trace=["line 2 in double: x=3 -> returns 5"],
        suspicious_lines=["line 2: return x + 2"],
        passing=0,
        total=1,
    )
    user = build_messages(make_example(), "multiple", facts=facts)[1].content
    assert user.index(FACTS_HEADER) < user.index("Reply as the instructor")
    assert "got 5, expected 6" in user and "0 of 1 unit tests pass" in user and "line 2: return x + 2" in user


def test_settings_are_deterministic_with_room_for_a_long_list() -> None:
    assert DETERMINISTIC_SETTINGS.temperature == 0 and DETERMINISTIC_SETTINGS.max_tokens == 1024


def test_diagnosis_prompt_numbers_the_code() -> None:
    messages = diagnosis_messages("p", "a = 1\nb = 2", "assert b == 3", GroundingFacts(total=1))
    assert "1. a = 1\n2. b = 2" in messages[1].content


def test_paper_layout_numbers_every_program_as_the_benchmark_files_do() -> None:
    history = [TurnRecord("Help", "What does line 2 do?", code_text="def double(x):\n    return x - 2")]
    example = make_example(history, student_code="def double(x):\n    return x")
    user = build_messages(example, "multiple", style="paper")[1].content
    assert "<bug_code>\n1. def double(x):\n2.    return x + 2\n</bug_code>" in user
    assert "<code>\n1. def double(x):\n2.    return x - 2\n</code>" in user  # history code
    assert "<code>\n1. def double(x):\n2.    return x\n</code>" in user  # current code
    ours = build_messages(example, "multiple")[1].content
    assert "<bug_code>\ndef double(x):\n    return x + 2\n</bug_code>" in ours
    assert number_lines("1. a\n2. b") == "1. a\n2. b"  # already numbered: unchanged
    assert number_lines("a = 1\nb = 2") == "1. a = 1\n2. b = 2"


def test_paper_layout_keeps_the_original_instruction_order() -> None:
    for mode, instruction in (("single", PAPER_INSTRUCTION_SINGLE), ("multiple", PAPER_INSTRUCTION_MULTIPLE)):
        system, user = build_messages(make_example(), mode, style="paper")  # type: ignore[arg-type]
        assert user.content.endswith(instruction)
        task, code_tags, tests_run = (instruction.index(t) for t in ("<bug_desc>", "<code>", "test cases"))
        assert task < code_tags < tests_run
        assert "Socratic" in system.content
    multiple = PAPER_INSTRUCTION_MULTIPLE
    assert multiple.index("<bug_desc>") < multiple.index("duplicates") < multiple.index("<code>")
    assert multiple.endswith("\n1.") and "numbered list" not in multiple
    cot = build_messages(make_example(), "cot", introspection="r1", style="paper")[1].content
    assert f"\n{PAPER_REASONS_HEADER}\nr1\n" in cot and REASONS_HEADER not in cot
    assert cot.endswith(PAPER_INSTRUCTION_MULTIPLE)
