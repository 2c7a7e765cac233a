"""Model back-ends behind one protocol, with a persistent response cache, bounded concurrency and retries.

Typical use::

    from debugtutor.llm import GenerationSettings, get_model

    model = get_model("openai:Qwen2.5-Coder-7B@http://127.0.0.1:8000/v1", concurrency=64)
    response = model.generate_sync("Why does range(1, n) skip n?", GenerationSettings(max_tokens=200))
    results = await model.generate_batch([(prompt, GenerationSettings(n=5, temperature=0.8)) for prompt in prompts])

Spec strings: ``openai:MODEL[@URL[,URL...]]``, ``hf:PATH[#FILE.gguf]``, ``local:smollm2``, ``scripted:FILE.json``.
"""

from __future__ import annotations

from debugtutor.llm.base import DEFAULT_CONCURRENCY, Completion, ModelBackend
from debugtutor.llm.cache import CacheInfo, CachePolicy, ResponseCache, cache_key, default_cache_dir
from debugtutor.llm.registry import Provider, get_model, providers, register_provider
from debugtutor.llm.scripted import ScriptedCall, ScriptedModel, ScriptRule
from debugtutor.llm.types import ChatMessage, GenerationSettings, ModelResponse, Prompt, Usage, as_messages


def complete(
    model: ModelBackend | str,
    prompt: Prompt,
    settings: GenerationSettings | None = None,
    *,
    system: str | None = None,
) -> ModelResponse:
    """One blocking call: ``complete("local:smollm2", "Say hello").text``."""
    backend = get_model(model) if isinstance(model, str) else model
    return backend.generate_sync(prompt, settings, system=system)


__all__ = [
    "DEFAULT_CONCURRENCY",
    "CacheInfo",
    "CachePolicy",
    "ChatMessage",
    "Completion",
    "GenerationSettings",
    "ModelBackend",
    "ModelResponse",
    "Prompt",
    "Provider",
    "ResponseCache",
    "ScriptRule",
    "ScriptedCall",
    "ScriptedModel",
    "Usage",
    "as_messages",
    "cache_key",
    "complete",
    "default_cache_dir",
    "get_model",
    "providers",
    "register_provider",
]
