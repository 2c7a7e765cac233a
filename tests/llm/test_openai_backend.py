"""The openai provider end to end against a real HTTP server on loopback: retries, cache, bounds, pools, faults."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from debugtutor.errors import CacheMissError, InputError, ModelError
from debugtutor.llm import CachePolicy, GenerationSettings, ModelResponse, get_model
from debugtutor.llm.loopback_server import Fault, FaultPlan, LoopbackServer
from debugtutor.llm.openai_backend import OpenAIBackend, parse_retry_after


def backend_for(*servers: LoopbackServer, **options: Any) -> OpenAIBackend:
    urls = ",".join(server.base_url for server in servers)
    backend = get_model(f"openai:tiny@{urls}", **options)
    assert isinstance(backend, OpenAIBackend)
    return backend


def test_plain_call_returns_text_usage_and_latency(loopback: LoopbackServer) -> None:
    response = backend_for(loopback).generate_sync("hello there")
    assert response.texts == ["echo: hello there"]
    assert response.usage.prompt_tokens == 2
    assert response.usage.completion_tokens == 3
    assert response.latency_s > 0
    assert response.cached is False
    assert response.model == f"openai:tiny@{loopback.base_url}"
    body = loopback.bodies[0]
    assert body["model"] == "tiny"
    assert body["messages"] == [{"role": "user", "content": "hello there"}]
    assert "seed" not in body and "stop" not in body


def test_settings_travel_in_the_request(loopback: LoopbackServer) -> None:
    settings = GenerationSettings(n=3, temperature=0.7, top_p=0.9, max_tokens=17, stop=("\n",), seed=5)
    response = backend_for(loopback).generate_sync("q", settings, system="be brief")
    assert response.texts == ["echo 0: q", "echo 1: q", "echo 2: q"]
    body = loopback.bodies[0]
    assert body["messages"][0] == {"role": "system", "content": "be brief"}
    assert (body["n"], body["temperature"], body["top_p"], body["max_tokens"]) == (3, 0.7, 0.9, 17)
    assert (body["stop"], body["seed"]) == (["\n"], 5)


def test_second_identical_call_is_served_from_cache(loopback: LoopbackServer) -> None:
    first = backend_for(loopback).generate_sync("cache me")
    second = backend_for(loopback).generate_sync("cache me")  # a new back-end: the cache is on disk
    assert loopback.requests == 1
    assert first.cached is False and second.cached is True
    assert second.texts == first.texts
    assert second.usage == first.usage


def test_sampled_request_is_cached_per_sample(loopback: LoopbackServer) -> None:
    backend = backend_for(loopback)
    three = backend.generate_sync("s", GenerationSettings(n=3, temperature=1.0))
    five = backend.generate_sync("s", GenerationSettings(n=5, temperature=1.0))
    assert five.texts[:3] == three.texts
    assert loopback.requests == 2
    assert loopback.bodies[1]["n"] == 2  # only the two missing samples were asked for
    assert five.cached is False
    again = backend.generate_sync("s", GenerationSettings(n=5, temperature=1.0))
    assert again.cached is True and again.texts == five.texts and loopback.requests == 2


def test_no_cache_policy_neither_reads_nor_writes(loopback: LoopbackServer) -> None:
    backend_for(loopback, cache="no-cache").generate_sync("x")
    backend_for(loopback, cache=CachePolicy.NO_CACHE).generate_sync("x")
    assert loopback.requests == 2
    with pytest.raises(CacheMissError):
        backend_for(loopback, cache="cache-only").generate_sync("x")


def test_cache_only_serves_hits_and_refuses_misses(loopback: LoopbackServer) -> None:
    backend_for(loopback).generate_sync("known")
    assert backend_for(loopback, cache="cache-only").generate_sync("known").cached is True
    with pytest.raises(CacheMissError, match="cache-only"):
        backend_for(loopback, cache="cache-only").generate_sync("unknown")
    assert loopback.requests == 1


@pytest.mark.parametrize(
    "fault", [Fault(kind="rate_limit"), Fault(kind="server_error"), Fault(kind="server_error", status=503)]
)
def test_transient_failures_are_retried(loopback_factory: Any, fast_retries: dict[str, Any], fault: Fault) -> None:
    server = loopback_factory(faults=FaultPlan(by_request={1: fault, 2: fault}))
    response = backend_for(server, **fast_retries).generate_sync("retry me")
    assert response.texts == ["echo: retry me"]
    assert server.requests == 3


def test_retry_after_header_sets_the_wait(loopback_factory: Any, fast_retries: dict[str, Any]) -> None:
    server = loopback_factory(faults=FaultPlan(by_request={1: Fault(kind="rate_limit", retry_after=0.6)}))
    started = time.perf_counter()
    backend_for(server, **fast_retries).generate_sync("patience")
    elapsed = time.perf_counter() - started
    assert server.requests == 2
    assert elapsed >= 0.6  # the backoff alone would have waited about 0.01-0.02 s


def test_final_failure_names_model_url_and_status(loopback_factory: Any, fast_retries: dict[str, Any]) -> None:
    server = loopback_factory(faults=FaultPlan(by_model={"tiny": Fault(kind="server_error", status=502)}))
    with pytest.raises(ModelError) as info:
        backend_for(server, **fast_retries).generate_sync("doomed")
    message = str(info.value)
    assert "'tiny'" in message
    assert f"{server.base_url}/chat/completions" in message
    assert "HTTP 502" in message
    assert "4 attempt(s)" in message
    assert server.requests == 4  # one try and max_retries=3 retries


def test_client_errors_are_not_retried(loopback_factory: Any, fast_retries: dict[str, Any]) -> None:
    server = loopback_factory(faults=FaultPlan(by_request={1: Fault(kind="bad_request")}))
    with pytest.raises(ModelError, match="HTTP 400"):
        backend_for(server, **fast_retries).generate_sync("bad")
    assert server.requests == 1


def test_malformed_body_is_a_clear_error(loopback_factory: Any, fast_retries: dict[str, Any]) -> None:
    server = loopback_factory(faults=FaultPlan(by_request={1: Fault(kind="malformed")}))
    with pytest.raises(ModelError, match="malformed chat-completion body") as info:
        backend_for(server, **fast_retries).generate_sync("garbled")
    assert server.base_url in str(info.value)


def test_hung_request_times_out_and_is_retried(loopback_factory: Any, fast_retries: dict[str, Any]) -> None:
    server = loopback_factory(faults=FaultPlan(by_request={1: Fault(kind="hang", hang_s=5)}))
    started = time.perf_counter()
    response = backend_for(server, timeout_s=0.3, **fast_retries).generate_sync("slow")
    assert response.texts == ["echo: slow"]
    assert time.perf_counter() - started < 3


def test_timeouts_to_the_end_name_the_timeout(loopback_factory: Any) -> None:
    server = loopback_factory(faults=FaultPlan(by_model={"tiny": Fault(kind="hang", hang_s=5)}))
    with pytest.raises(ModelError, match=r"timed out after 0\.2 s"):
        backend_for(server, timeout_s=0.2, max_retries=1, retry_initial_s=0.01).generate_sync("never")
    assert server.requests == 2


def test_connection_refused_is_retried_then_reported(fast_retries: dict[str, Any]) -> None:
    server = LoopbackServer().start()
    url = server.base_url
    server.stop()  # nothing listens on that port any more
    backend = get_model(f"openai:tiny@{url}", **fast_retries)
    with pytest.raises(ModelError, match="connection failed"):
        backend.generate_sync("anyone?")


def test_batch_respects_the_concurrency_bound(loopback_factory: Any) -> None:
    server = loopback_factory(latency_s=0.05)
    backend = backend_for(server, cache="no-cache", concurrency=5)
    results = backend.generate_batch_sync([(f"q{index}", None) for index in range(40)])
    assert [result.texts[0] for result in results if isinstance(result, ModelResponse)] == [
        f"echo: q{index}" for index in range(40)
    ]
    assert server.requests == 40
    assert 2 <= server.max_in_flight <= 5


def test_batch_concurrency_argument_lowers_the_bound(loopback_factory: Any) -> None:
    server = loopback_factory(latency_s=0.02)
    backend = backend_for(server, cache="no-cache", concurrency=32)
    backend.generate_batch_sync([(f"q{index}", None) for index in range(20)], concurrency=3)
    assert server.max_in_flight <= 3


def test_batch_runs_requests_in_parallel(loopback_factory: Any) -> None:
    server = loopback_factory(latency_s=0.1)
    backend = backend_for(server, cache="no-cache", concurrency=32)
    started = time.perf_counter()
    backend.generate_batch_sync([(f"q{index}", None) for index in range(64)])
    assert time.perf_counter() - started < 2.0  # sequentially it would take 6.4 s
    assert server.max_in_flight > 8


def test_batch_keeps_failures_in_place(loopback_factory: Any, fast_retries: dict[str, Any]) -> None:
    server = loopback_factory(faults=FaultPlan(by_model={"broken": Fault(kind="bad_request")}))
    good = backend_for(server, cache="no-cache", **fast_retries)
    results = good.generate_batch_sync([("a", None), ("b", None)])
    assert all(isinstance(result, ModelResponse) for result in results)
    broken = get_model(f"openai:broken@{server.base_url}", cache="no-cache", **fast_retries)
    failed = broken.generate_batch_sync([("a", None)])
    assert isinstance(failed[0], ModelError)


def test_pool_spreads_requests_over_servers(loopback_factory: Any) -> None:
    first, second = loopback_factory(latency_s=0.02), loopback_factory(latency_s=0.02)
    backend = backend_for(first, second, cache="no-cache", concurrency=8)
    backend.generate_batch_sync([(f"q{index}", None) for index in range(40)])
    assert first.requests + second.requests == 40
    assert first.requests >= 10 and second.requests >= 10


def test_round_robin_alternates(loopback_factory: Any) -> None:
    first, second = loopback_factory(), loopback_factory()
    backend = backend_for(first, second, cache="no-cache", balance="round-robin")
    for index in range(6):
        backend.generate_sync(f"q{index}")
    assert (first.requests, second.requests) == (3, 3)


def test_a_retry_can_move_to_another_server(loopback_factory: Any, fast_retries: dict[str, Any]) -> None:
    broken = loopback_factory(faults=FaultPlan(by_model={"tiny": Fault(kind="server_error")}))
    healthy = loopback_factory()
    backend = backend_for(broken, healthy, cache="no-cache", balance="round-robin", **fast_retries)
    assert backend.generate_sync("x").texts == ["echo: x"]


def test_async_generate_and_gather(loopback: LoopbackServer) -> None:
    async def run() -> list[ModelResponse]:
        backend = backend_for(loopback, cache="no-cache")
        try:
            return await asyncio.gather(*(backend.generate(f"p{index}") for index in range(5)))
        finally:
            await backend.aclose()

    responses = asyncio.run(run())
    assert [response.text for response in responses] == [f"echo: p{index}" for index in range(5)]


def test_missing_api_key_is_a_clear_error() -> None:
    with pytest.raises(InputError, match="OPENAI_API_KEY"):
        get_model("openai:gpt-4o-mini")


def test_api_key_is_sent_as_bearer_token(loopback: LoopbackServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_BASE_URL", loopback.base_url)
    response = get_model("openai:gpt-4o-mini", cache="no-cache").generate_sync("hi")
    assert response.model == f"openai:gpt-4o-mini@{loopback.base_url}"  # the server $OPENAI_BASE_URL named
    assert loopback.requests == 1


@pytest.mark.parametrize("spec", ["openai:m@ftp://x/v1", "openai:@http://x/v1", "openai:m@"])
def test_bad_specs_are_input_errors(spec: str) -> None:
    with pytest.raises(InputError):
        get_model(spec)


@pytest.mark.parametrize(("header", "expected"), [("2", 2.0), ("0.5", 0.5), (None, None), ("soon", None)])
def test_parse_retry_after(header: str | None, expected: float | None) -> None:
    assert parse_retry_after(header) == expected


def test_parse_retry_after_http_date() -> None:
    import email.utils

    in_ten = email.utils.formatdate(time.time() + 10, usegmt=True)
    waited = parse_retry_after(in_ten)
    assert waited is not None and 8 <= waited <= 10
