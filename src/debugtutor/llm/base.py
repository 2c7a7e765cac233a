"""The one protocol every model back-end implements, with caching and bounded concurrency built in.

A back-end only says how to produce completions (:meth:`ModelBackend._complete`); this base class adds the rest,
the same way for every provider: prompt normalisation, the response cache and its policies, a bound on requests in
flight, latency measurement, the batch form and the synchronous wrappers.
"""

from __future__ import annotations

import asyncio
import threading
import time
import weakref
from abc import ABC, abstractmethod
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from debugtutor.console import warn
from debugtutor.errors import CacheMissError, InputError, ModelError, ModelUnavailableError
from debugtutor.llm.cache import CachedCompletion, CachePolicy, ResponseCache, sample_keys
from debugtutor.llm.types import ChatMessage, GenerationSettings, ModelResponse, Prompt, Usage, as_messages

DEFAULT_CONCURRENCY = 32
DEFAULT_STOP_AFTER_FAILURES = 5
"""Calls in a row that may fail (each after its retries) before a back-end stops calling its model."""

T = TypeVar("T")


@dataclass
class Completion:
    """What a provider returns for one request: the texts and the tokens they cost."""

    texts: list[str]
    usage: Usage


class PerLoop(Generic[T]):
    """One object per running event loop (semaphores and HTTP clients must not cross loops)."""

    def __init__(self, factory: Callable[[], T]) -> None:
        self._factory = factory
        self._by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, T] = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()

    def get(self) -> T:
        loop = asyncio.get_running_loop()
        with self._lock:
            value = self._by_loop.get(loop)
            if value is None:
                value = self._factory()
                self._by_loop[loop] = value
            return value

    def values(self) -> list[T]:
        with self._lock:
            return list(self._by_loop.values())


class CircuitBreaker:
    """Counts calls that failed in a row; once ``threshold`` have, every later call fails at once.

    A dead or hung server otherwise costs every remaining item its full timeouts and retries. One success closes
    the count again; a threshold of 0 never opens.
    """

    def __init__(self, threshold: int) -> None:
        if threshold < 0:
            raise InputError(f"the failure threshold must be 0 or more, got {threshold}", field="stop_after_failures")
        self.threshold = threshold
        self.failures_in_a_row = 0
        self.last_failure = ""
        self._lock = threading.Lock()

    @property
    def is_open(self) -> bool:
        return self.threshold > 0 and self.failures_in_a_row >= self.threshold

    def succeeded(self) -> None:
        with self._lock:
            self.failures_in_a_row = 0

    def failed(self, message: str) -> None:
        with self._lock:
            self.failures_in_a_row += 1
            self.last_failure = message


def run_sync(coroutine_factory: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine to completion from synchronous code, even when the caller already runs an event loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine_factory())
    # Inside a running loop (a notebook, an async web handler) asyncio.run is refused; use a private loop in a thread.
    result: list[T] = []
    failure: list[BaseException] = []

    def target() -> None:
        try:
            result.append(asyncio.run(coroutine_factory()))
        except BaseException as exc:
            failure.append(exc)

    thread = threading.Thread(target=target, name="debugtutor-run-sync")
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return result[0]


class ModelBackend(ABC):
    """A model behind the common protocol. Build one with :func:`debugtutor.llm.get_model`."""

    def __init__(
        self,
        spec: str,
        *,
        cache: CachePolicy | str | bool = CachePolicy.NORMAL,
        concurrency: int = DEFAULT_CONCURRENCY,
        cache_store: ResponseCache | None = None,
    ) -> None:
        if concurrency < 1:
            raise InputError(f"concurrency must be at least 1, got {concurrency}", field="concurrency")
        self.spec = spec
        self.cache_policy = CachePolicy.coerce(cache)
        self.concurrency = concurrency
        self.cache_store = cache_store if cache_store is not None else ResponseCache()
        self._slots: PerLoop[asyncio.Semaphore] = PerLoop(lambda: asyncio.Semaphore(self.concurrency))
        self.overrides: dict[str, Any] = {}
        self.breaker = CircuitBreaker(DEFAULT_STOP_AFTER_FAILURES)
        self._calls: PerLoop[set[asyncio.Future[Completion]]] = PerLoop(set)
        self._stopped_calls: set[asyncio.Future[Completion]] = set()

    def configure(
        self,
        *,
        max_tokens: int | None = None,
        temperature: float | None = None,
        stop_after_failures: int | None = None,
    ) -> ModelBackend:
        """Settings the user chose for every request of this back-end (they win over what a caller asks for), and
        how many failed calls in a row stop it; returns the back-end itself."""
        if max_tokens is not None:
            if max_tokens < 1:
                raise InputError(f"max_tokens must be at least 1, got {max_tokens}", field="max_tokens")
            self.overrides["max_tokens"] = max_tokens
        if temperature is not None:
            if not 0.0 <= temperature <= 2.0:
                raise InputError(f"temperature must be between 0 and 2, got {temperature:g}", field="temperature")
            self.overrides["temperature"] = temperature
        if stop_after_failures is not None:
            self.breaker = CircuitBreaker(stop_after_failures)
        return self

    def describe(self) -> dict[str, Any]:
        """What a run's manifest records about this back-end: the resolved spec and the settings in force."""
        return {"spec": self.spec, "overrides": dict(self.overrides), "stop_after_failures": self.breaker.threshold}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.spec!r}, cache={self.cache_policy.value}, concurrency={self.concurrency})"

    @abstractmethod
    async def _complete(self, messages: list[ChatMessage], settings: GenerationSettings) -> Completion:
        """Produce ``settings.n`` completions for ``messages`` without looking at the cache."""

    async def aclose(self) -> None:  # noqa: B027 - a hook with a sensible no-op default, not an abstract method
        """Release connections or other resources held by the back-end."""

    async def generate(
        self, prompt: Prompt, settings: GenerationSettings | None = None, *, system: str | None = None
    ) -> ModelResponse:
        """``settings.n`` completions for a prompt (a string or chat messages), through the cache."""
        messages = as_messages(prompt, system=system)
        settings = settings if settings is not None else GenerationSettings()
        if self.overrides:
            settings = settings.model_copy(update=self.overrides)
        started = time.perf_counter()
        if self.cache_policy is CachePolicy.NO_CACHE:
            completion = await self._complete_bounded(messages, settings)
            return self._response(completion.texts, completion.usage, started, cached=False)

        keys = sample_keys(self.spec, messages, settings)
        found = await asyncio.to_thread(self.cache_store.get_many, keys)
        missing = [index for index, key in enumerate(keys) if key not in found]
        if missing and self.cache_policy is CachePolicy.CACHE_ONLY:
            raise CacheMissError(
                f"{self.spec}: {len(missing)} of {len(keys)} completion(s) not in the response cache "
                f"{self.cache_store.path}, and the cache-only policy forbids calling the model",
                hint="run once without --cache-only to fill the cache",
            )
        fresh: dict[int, CachedCompletion] = {}
        if missing:
            request = settings if len(missing) == settings.n else settings.model_copy(update={"n": len(missing)})
            completion = await self._complete_bounded(messages, request)
            per_text = completion.usage.completion_tokens // max(len(completion.texts), 1)
            for index, text in zip(missing, completion.texts):
                fresh[index] = CachedCompletion(text, completion.usage.prompt_tokens, per_text)
            await asyncio.to_thread(
                self.cache_store.put_many, self.spec, [(keys[index], fresh[index]) for index in missing]
            )
        ordered = [fresh[index] if index in fresh else found[keys[index]] for index in range(len(keys))]
        texts = [entry.text for entry in ordered]
        usage = Usage(
            prompt_tokens=ordered[0].prompt_tokens,
            completion_tokens=sum(entry.completion_tokens for entry in ordered),
        )
        return self._response(texts, usage, started, cached=not missing)

    async def _complete_bounded(self, messages: list[ChatMessage], settings: GenerationSettings) -> Completion:
        async with self._slots.get():
            if self.breaker.is_open:
                raise self._unavailable()
            # The call runs as a task of its own, so that when the breaker opens the calls still waiting on the same
            # dead server can be stopped at once instead of each running out its timeouts and retries.
            call = asyncio.ensure_future(self._complete(messages, settings))
            calls = self._calls.get()
            calls.add(call)
            try:
                completion = await call
                if len(completion.texts) != settings.n:
                    raise ModelError(f"{self.spec}: asked for {settings.n} completion(s), got {len(completion.texts)}")
            except asyncio.CancelledError:
                if call in self._stopped_calls:
                    self._stopped_calls.discard(call)
                    raise self._unavailable() from None
                call.cancel()
                raise
            except ModelError as exc:
                self._failed(str(exc), calls)
                raise
            except Exception as exc:
                self._failed(f"{type(exc).__name__}: {exc}", calls)
                raise
            finally:
                calls.discard(call)
        self.breaker.succeeded()
        return completion

    def _failed(self, message: str, calls: set[asyncio.Future[Completion]]) -> None:
        was_open = self.breaker.is_open
        self.breaker.failed(message)
        if self.breaker.is_open and not was_open:
            warn(
                f"{self.spec}: {self.breaker.threshold} calls in a row failed; no further calls will be made and the "
                f"{len(calls)} still waiting are stopped (the run stops; resume it once the model answers)"
            )
            for other in list(calls):
                if not other.done():
                    self._stopped_calls.add(other)
                    other.cancel()

    def _unavailable(self) -> ModelUnavailableError:
        return ModelUnavailableError(
            f"{self.spec}: stopped calling the model after {self.breaker.failures_in_a_row} calls in a row failed "
            f"(last: {self.breaker.last_failure})",
            hint="check the server, then resume the run with --resume RUN",
        )

    def _response(self, texts: list[str], usage: Usage, started: float, *, cached: bool) -> ModelResponse:
        return ModelResponse(
            texts=texts, usage=usage, latency_s=time.perf_counter() - started, cached=cached, model=self.spec
        )

    async def generate_batch(
        self,
        requests: Sequence[tuple[Prompt, GenerationSettings | None]],
        *,
        concurrency: int | None = None,
        on_done: Callable[[int, ModelResponse | ModelError], None] | None = None,
    ) -> list[ModelResponse | ModelError]:
        """Run many requests with at most ``concurrency`` in flight; results keep the order of ``requests``.

        A request that fails after its retries yields its :class:`ModelError` in place of a response, so one bad
        item does not lose the rest of a batch. ``on_done(index, result)`` is called as each request finishes
        (for progress bars). The back-end's own bound (``get_model(concurrency=...)``) applies as well.
        """
        limit = concurrency if concurrency is not None else self.concurrency
        if limit < 1:
            raise InputError(f"concurrency must be at least 1, got {limit}", field="concurrency")
        results: list[ModelResponse | ModelError | None] = [None] * len(requests)
        next_index = iter(range(len(requests)))

        async def worker() -> None:
            # A fixed pool of workers pulling indices keeps memory flat for very large batches.
            for index in next_index:
                prompt, settings = requests[index]
                outcome: ModelResponse | ModelError
                try:
                    outcome = await self.generate(prompt, settings)
                except ModelError as exc:
                    outcome = exc
                results[index] = outcome
                if on_done is not None:
                    on_done(index, outcome)

        await asyncio.gather(*(worker() for _ in range(min(limit, len(requests)))))
        return [result for result in results if result is not None]

    def generate_sync(
        self, prompt: Prompt, settings: GenerationSettings | None = None, *, system: str | None = None
    ) -> ModelResponse:
        """The blocking form of :meth:`generate`, for scripts and synchronous callers."""

        async def once() -> ModelResponse:
            try:
                return await self.generate(prompt, settings, system=system)
            finally:
                await self.aclose()

        return run_sync(once)

    def generate_batch_sync(
        self,
        requests: Sequence[tuple[Prompt, GenerationSettings | None]],
        *,
        concurrency: int | None = None,
    ) -> list[ModelResponse | ModelError]:
        """The blocking form of :meth:`generate_batch`."""

        async def batch() -> list[ModelResponse | ModelError]:
            try:
                return await self.generate_batch(requests, concurrency=concurrency)
            finally:
                await self.aclose()

        return run_sync(batch)
