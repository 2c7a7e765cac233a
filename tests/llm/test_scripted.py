"""Scripted models: regex rules, ordered answers, history, running out, and script files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from debugtutor.errors import InputError, ModelError
from debugtutor.llm import GenerationSettings, ScriptedModel, ScriptRule, get_model


def test_rules_win_over_ordered_responses() -> None:
    model = ScriptedModel(
        ["ordered 1", "ordered 2"],
        rules=[
            ScriptRule(match=r"(?i)\bhello\b", response="Hi!"),
            ScriptRule(match="loop", responses=["Which index?", "And the last one?"]),
        ],
    )
    assert model.generate_sync("Hello tutor").text == "Hi!"
    assert model.generate_sync("my loop").text == "Which index?"
    assert model.generate_sync("the loop again").text == "And the last one?"
    assert model.generate_sync("loop, third time").text == "ordered 1"  # that rule is used up
    assert model.generate_sync("hello").text == "Hi!"  # a single response answers every time
    assert model.generate_sync("something else").text == "ordered 2"


def test_rules_look_at_the_last_message_only() -> None:
    model = ScriptedModel(["fallback"], rules=[ScriptRule(match="secret", response="found")])
    messages = [
        {"role": "user", "content": "secret"},
        {"role": "assistant", "content": "ok"},
        {"role": "user", "content": "go"},
    ]
    assert model.generate_sync(messages).text == "fallback"


def test_history_records_each_call() -> None:
    model = ScriptedModel(["a", "b", "c"])
    model.generate_sync("one")
    model.generate_sync("two", GenerationSettings(n=2, temperature=1.0), system="sys")
    assert model.calls == 2
    assert model.history[1].texts == ["b", "c"]
    assert [message.role for message in model.history[1].messages] == ["system", "user"]
    assert model.history[1].settings.n == 2


def test_running_out_is_a_clear_error() -> None:
    model = ScriptedModel(["only"])
    model.generate_sync("first")
    with pytest.raises(ModelError, match="ran out of answers after 1 call"):
        model.generate_sync("second")


def test_batch_errors_stay_in_place() -> None:
    model = ScriptedModel(["x"])
    results = model.generate_batch_sync([("a", None), ("b", None)], concurrency=1)
    assert results[0].texts == ["x"]  # type: ignore[union-attr]
    assert isinstance(results[1], ModelError)


def test_script_file_through_get_model(tmp_path: Path) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"rules": [{"match": "hi", "response": "canned"}], "responses": ["next"]}))
    model = get_model(f"scripted:{script}")
    assert isinstance(model, ScriptedModel)
    assert model.generate_sync("hi").text == "canned"
    assert model.generate_sync("hi").cached is False  # scripted models skip the cache by default
    assert model.generate_sync("other").text == "next"


def test_a_list_file_is_ordered_responses(tmp_path: Path) -> None:
    script = tmp_path / "list.json"
    script.write_text('["one", "two"]')
    model = get_model(f"scripted:{script}")
    assert [model.generate_sync("q").text for _ in range(2)] == ["one", "two"]


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{not json", "not valid JSON"),
        ('{"rules": [{"match": "x"}]}', "exactly one of"),
        ('{"rules": [{"match": "(", "response": "y"}]}', "regular expression"),
    ],
)
def test_bad_script_files_name_the_file(tmp_path: Path, content: str, expected: str) -> None:
    script = tmp_path / "bad.json"
    script.write_text(content)
    with pytest.raises(InputError, match=expected) as info:
        get_model(f"scripted:{script}")
    assert str(script) in str(info.value)


def test_missing_script_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        get_model(f"scripted:{tmp_path / 'absent.json'}")


def test_generate_sync_works_inside_a_running_event_loop() -> None:
    import asyncio

    model = ScriptedModel(["from a thread"])

    async def caller() -> str:
        return model.generate_sync("q").text  # e.g. a notebook cell, where a loop is already running

    assert asyncio.run(caller()) == "from a thread"
