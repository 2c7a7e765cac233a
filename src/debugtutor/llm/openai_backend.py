"""The ``openai:`` provider: OpenAI itself or any OpenAI-compatible server (vLLM, Ollama, llama.cpp, LM Studio).

``openai:MODEL`` talks to api.openai.com with the key in ``OPENAI_API_KEY``. ``openai:MODEL@URL`` talks to a server of
your own; ``openai:MODEL@URL1,URL2`` spreads requests over a pool of such servers, sending each request to the
server with the fewest requests in flight (ties go round robin).

Requests go out over httpx. Retries are ours, through tenacity: 429, 5xx, timeouts and connection failures are
retried with exponential backoff and jitter, and a ``Retry-After`` header from the server sets the wait instead.
A retry may land on another server of the pool, and each one is announced on stderr (what failed, which attempt,
how long the wait). When the retries run out, the :class:`ModelError` names the model, the URL and the last status.
The time limit per attempt and the number of retries come from the caller (``--timeout``, ``--max-retries``), else
from ``$DEBUGTUTOR_MODEL_TIMEOUT`` / ``$DEBUGTUTOR_MODEL_MAX_RETRIES``, else 60 s and 3.
"""

from __future__ import annotations

import email.utils
import itertools
import os
import ssl
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, Literal

import httpx
from pydantic import BaseModel, ValidationError
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception_type,
    stop_after_attempt,
    wait_exponential,
    wait_random,
)

from debugtutor.console import warn
from debugtutor.errors import InputError, ModelError
from debugtutor.llm.base import DEFAULT_CONCURRENCY, Completion, ModelBackend, PerLoop
from debugtutor.llm.cache import CachePolicy, ResponseCache
from debugtutor.llm.types import ChatMessage, GenerationSettings, Usage

OPENAI_BASE_URL = "https://api.openai.com/v1"
_RETRYABLE_STATUSES = frozenset({408, 409, 425, 429}) | frozenset(range(500, 600))
_BODY_EXCERPT_CHARS = 200
DEFAULT_TIMEOUT_S = 60.0
DEFAULT_MAX_RETRIES = 3
TIMEOUT_ENV = "DEBUGTUTOR_MODEL_TIMEOUT"
MAX_RETRIES_ENV = "DEBUGTUTOR_MODEL_MAX_RETRIES"
_RETRY_NOTICE_EVERY_S = 2.0  # at most one retry line per interval, with a count of those not shown

Balance = Literal["least-in-flight", "round-robin"]


class _Retryable(Exception):
    """A failure worth another try: the server was busy, broke, or did not answer in time."""

    def __init__(self, url: str, status: str, retry_after: float | None = None) -> None:
        super().__init__(status)
        self.url = url
        self.status = status
        self.retry_after = retry_after


class _ChoiceMessage(BaseModel):
    content: str | None = None


class _Choice(BaseModel):
    message: _ChoiceMessage


class _ChatCompletion(BaseModel):
    """The fields of a chat-completion response that we rely on."""

    choices: list[_Choice]
    usage: Usage | None = None


@dataclass
class _Server:
    url: str
    in_flight: int = 0


class _ClientShards:
    """Several small httpx clients used as one connection pool of ``concurrency`` connections.

    httpcore's pool rescans every connection for every queued request, which costs O(connections²) per request:
    at 64 connections that CPU work, not the server, set the pace (7 s instead of 1.6 s for 1,000 requests of
    100 ms). Shards of a few connections each, picked by fewest requests in flight, keep that scan small; since the
    back-end never has more than ``concurrency`` requests in flight, the least-loaded shard always has a free
    connection.
    """

    CONNECTIONS_PER_SHARD = 8

    def __init__(self, concurrency: int, *, headers: dict[str, str], timeout_s: float) -> None:
        per_shard = min(self.CONNECTIONS_PER_SHARD, concurrency)
        count = -(-concurrency // per_shard)
        limits = httpx.Limits(max_connections=per_shard, max_keepalive_connections=per_shard)
        # Loading the CA bundle takes ~20 ms; do it once for all shards rather than once per client.
        tls = ssl.create_default_context()
        self._clients = [
            httpx.AsyncClient(headers=headers, limits=limits, timeout=httpx.Timeout(timeout_s), verify=tls)
            for _ in range(count)
        ]
        self._in_flight = [0] * count

    @asynccontextmanager
    async def client(self) -> AsyncIterator[httpx.AsyncClient]:
        index = min(range(len(self._clients)), key=self._in_flight.__getitem__)
        self._in_flight[index] += 1
        try:
            yield self._clients[index]
        finally:
            self._in_flight[index] -= 1

    async def aclose(self) -> None:
        for client in self._clients:
            if not client.is_closed:
                await client.aclose()


def parse_retry_after(value: str | None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header: a number of seconds or an HTTP date."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def parse_base_urls(text: str) -> list[str]:
    """The comma-separated server pool of a spec, without trailing slashes."""
    urls = [url.strip().rstrip("/") for url in text.split(",") if url.strip()]
    for url in urls:
        if not url.startswith(("http://", "https://")):
            raise InputError(f"base URL {url!r} must start with http:// or https://", field="spec")
    if not urls:
        raise InputError("no base URL after '@' in the model spec", field="spec")
    return urls


class OpenAIBackend(ModelBackend):
    """Chat completions over HTTP against one OpenAI-compatible server or a pool of them."""

    def __init__(
        self,
        spec: str,
        *,
        model: str,
        base_urls: list[str],
        api_key: str | None,
        cache: CachePolicy | str | bool = CachePolicy.NORMAL,
        concurrency: int = DEFAULT_CONCURRENCY,
        cache_store: ResponseCache | None = None,
        timeout_s: float | None = None,
        max_retries: int | None = None,
        retry_initial_s: float = 1.0,
        retry_max_s: float = 60.0,
        max_retry_after_s: float = 300.0,
        balance: Balance = "least-in-flight",
    ) -> None:
        super().__init__(spec, cache=cache, concurrency=concurrency, cache_store=cache_store)
        timeout_s = timeout_s if timeout_s is not None else _env_number(TIMEOUT_ENV, DEFAULT_TIMEOUT_S, float)
        max_retries = max_retries if max_retries is not None else _env_number(MAX_RETRIES_ENV, DEFAULT_MAX_RETRIES, int)
        if max_retries < 0:
            raise InputError(f"max_retries must be 0 or more, got {max_retries}", field="max_retries")
        if timeout_s <= 0:
            raise InputError(f"the timeout must be more than 0 seconds, got {timeout_s:g}", field="timeout")
        if balance not in ("least-in-flight", "round-robin"):
            raise InputError(f"unknown balance {balance!r}; use least-in-flight or round-robin", field="balance")
        self.model = model
        self.servers = [_Server(url) for url in base_urls]
        self.api_key = api_key
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.retry_initial_s = retry_initial_s
        self.retry_max_s = retry_max_s
        self.max_retry_after_s = max_retry_after_s
        self.balance: Balance = balance
        self._turn = itertools.count()
        # Exponential backoff plus up to one initial wait of random jitter, so a burst of 429s spreads out.
        self._backoff = wait_exponential(multiplier=retry_initial_s, max=retry_max_s) + wait_random(0, retry_initial_s)
        self._clients: PerLoop[_ClientShards] = PerLoop(self._new_clients)
        self._last_notice = 0.0
        self._unshown_notices = 0

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "timeout_s": self.timeout_s, "max_retries": self.max_retries}

    def _announce_retry(self, state: RetryCallState) -> None:
        """Say on stderr that a call failed and when it is tried again (rate-limited: many may fail at once)."""
        failure = state.outcome.exception() if state.outcome is not None else None
        now = time.monotonic()
        if now - self._last_notice < _RETRY_NOTICE_EVERY_S:
            self._unshown_notices += 1
            return
        wait = state.next_action.sleep if state.next_action is not None else 0.0
        more = f" (and {self._unshown_notices} more retries since the last notice)" if self._unshown_notices else ""
        self._last_notice, self._unshown_notices = now, 0
        url = failure.url if isinstance(failure, _Retryable) else "?"
        status = failure.status if isinstance(failure, _Retryable) else str(failure)
        warn(
            f"{self.spec}: attempt {state.attempt_number} of {self.max_retries + 1} at {url} failed: {status}; "
            f"retrying in {wait:.1f} s{more}"
        )

    def _new_clients(self) -> _ClientShards:
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        return _ClientShards(self.concurrency, headers=headers, timeout_s=self.timeout_s)

    async def aclose(self) -> None:
        for shards in self._clients.values():
            await shards.aclose()

    def _pick_server(self) -> _Server:
        turn = next(self._turn)
        if self.balance == "round-robin" or len(self.servers) == 1:
            return self.servers[turn % len(self.servers)]
        fewest = min(server.in_flight for server in self.servers)
        candidates = [server for server in self.servers if server.in_flight == fewest]
        return candidates[turn % len(candidates)]

    def _wait(self, state: RetryCallState) -> float:
        failure = state.outcome.exception() if state.outcome is not None else None
        if isinstance(failure, _Retryable) and failure.retry_after is not None:
            return min(failure.retry_after, self.max_retry_after_s)
        return float(self._backoff(state))

    async def _complete(self, messages: list[ChatMessage], settings: GenerationSettings) -> Completion:
        texts: list[str] = []
        usage = Usage()
        # Some servers (llama.cpp, Ollama) ignore n and answer one choice; ask again for the rest.
        while len(texts) < settings.n:
            wanted = settings.n - len(texts)
            request = settings if wanted == settings.n else settings.model_copy(update={"n": wanted})
            chunk = await self._complete_with_retries(messages, request)
            texts.extend(chunk.texts[:wanted])
            usage = Usage(
                prompt_tokens=chunk.usage.prompt_tokens,
                completion_tokens=usage.completion_tokens + chunk.usage.completion_tokens,
            )
        return Completion(texts=texts, usage=usage)

    async def _complete_with_retries(self, messages: list[ChatMessage], settings: GenerationSettings) -> Completion:
        payload = self._payload(messages, settings)
        retrying = AsyncRetrying(
            stop=stop_after_attempt(self.max_retries + 1),
            wait=self._wait,
            retry=retry_if_exception_type(_Retryable),
            before_sleep=self._announce_retry,
            reraise=True,
        )
        try:
            async for attempt in retrying:
                with attempt:
                    return await self._post(payload)
        except _Retryable as exc:
            attempts = retrying.statistics.get("attempt_number", self.max_retries + 1)
            raise ModelError(
                f"{self.spec}: model {self.model!r} at {exc.url} failed after {attempts} attempt(s): {exc.status}"
            ) from exc
        raise AssertionError("tenacity neither returned nor raised")  # pragma: no cover - reraise=True guarantees it

    def _payload(self, messages: list[ChatMessage], settings: GenerationSettings) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "model": self.model,
            "messages": [message.model_dump() for message in messages],
            "n": settings.n,
            "temperature": settings.temperature,
            "top_p": settings.top_p,
            "max_tokens": settings.max_tokens,
        }
        if settings.stop:
            payload["stop"] = list(settings.stop)
        if settings.seed is not None:
            payload["seed"] = settings.seed
        return payload

    async def _post(self, payload: dict[str, Any]) -> Completion:
        server = self._pick_server()
        url = f"{server.url}/chat/completions"
        server.in_flight += 1
        try:
            async with self._clients.get().client() as client:
                response = await client.post(url, json=payload)
        except httpx.TimeoutException as exc:
            raise _Retryable(url, f"timed out after {self.timeout_s:g} s ({type(exc).__name__})") from exc
        except httpx.TransportError as exc:
            raise _Retryable(url, f"connection failed ({type(exc).__name__}: {exc})") from exc
        finally:
            server.in_flight -= 1
        if response.status_code in _RETRYABLE_STATUSES:
            raise _Retryable(
                url,
                f"HTTP {response.status_code}: {_excerpt(response.text)}",
                parse_retry_after(response.headers.get("Retry-After")),
            )
        if response.status_code >= 400:
            raise ModelError(
                f"{self.spec}: model {self.model!r} at {url} refused the request: "
                f"HTTP {response.status_code}: {_excerpt(response.text)}"
            )
        try:
            parsed = _ChatCompletion.model_validate_json(response.content)
        except ValidationError as exc:
            raise ModelError(
                f"{self.spec}: model {self.model!r} at {url} sent a malformed chat-completion body "
                f"(HTTP {response.status_code}, {exc.error_count()} problem(s), e.g. {exc.errors()[0]['msg']}): "
                f"{_excerpt(response.text)}"
            ) from exc
        texts = [choice.message.content or "" for choice in parsed.choices]
        if not texts:
            raise ModelError(f"{self.spec}: model {self.model!r} at {url} answered with no choices")
        return Completion(texts=texts, usage=parsed.usage or Usage())


def _env_number(name: str, default: Any, kind: type) -> Any:
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        return kind(text)
    except ValueError:
        raise InputError(f"${name}={text!r} is not a {kind.__name__}", field=name) from None


def _excerpt(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _BODY_EXCERPT_CHARS else text[:_BODY_EXCERPT_CHARS] + "…"


def create_openai_backend(
    target: str,
    *,
    cache: CachePolicy | str | bool = CachePolicy.NORMAL,
    concurrency: int = DEFAULT_CONCURRENCY,
    cache_store: ResponseCache | None = None,
    api_key: str | None = None,
    **options: Any,
) -> OpenAIBackend:
    """Factory for ``openai:MODEL`` and ``openai:MODEL@URL[,URL...]``."""
    model, at, urls = target.partition("@")
    model = model.strip()
    if not model:
        raise InputError("the spec names no model; write openai:MODEL or openai:MODEL@BASE_URL", field="spec")
    key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY")
    if at:
        base_urls = parse_base_urls(urls)
    else:
        base_urls = parse_base_urls(os.environ.get("OPENAI_BASE_URL", "") or OPENAI_BASE_URL)
        if not key:
            raise InputError(
                f"openai:{model} needs an API key, and OPENAI_API_KEY is not set",
                field="OPENAI_API_KEY",
                hint="export OPENAI_API_KEY=..., or use openai:MODEL@BASE_URL for a local OpenAI-compatible server",
            )
    # The spec names the server unless it is OpenAI's own: it keys the response cache and is recorded in manifests,
    # so two servers (one named by $OPENAI_BASE_URL) never share cached answers.
    named = base_urls != [OPENAI_BASE_URL]
    return OpenAIBackend(
        f"openai:{model}" + (f"@{','.join(base_urls)}" if named else ""),
        model=model,
        base_urls=base_urls,
        api_key=key,
        cache=cache,
        concurrency=concurrency,
        cache_store=cache_store,
        **options,
    )
