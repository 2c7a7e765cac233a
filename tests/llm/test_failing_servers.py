"""Hung and dead model servers: bounded time per call, visible retries, and a breaker that stops calling them."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from debugtutor.errors import ModelError, ModelUnavailableError
from debugtutor.llm import get_model
from debugtutor.llm.loopback_server import Fault, FaultPlan, LoopbackServer
from debugtutor.llm.openai_backend import OpenAIBackend

ServerFactory = Callable[..., LoopbackServer]

HANG = FaultPlan(by_model={"stuck": Fault(kind="hang", hang_s=30.0)})


def test_a_hung_server_fails_within_timeout_times_attempts(
    loopback_factory: ServerFactory, capfd: pytest.CaptureFixture[str]
) -> None:
    server = loopback_factory(faults=HANG)
    backend = get_model(f"openai:stuck@{server.base_url}", timeout_s=0.3, max_retries=1, retry_initial_s=0.01)
    started = time.monotonic()
    with pytest.raises(ModelError, match="failed after 2 attempt"):
        backend.generate_sync("hello")
    assert time.monotonic() - started < 2.0  # two 0.3 s attempts, not 7 x 120 s
    assert server.requests == 2
    notice = capfd.readouterr().err
    assert "attempt 1 of 2" in notice and "timed out after 0.3 s" in notice and "retrying in" in notice


def test_timeout_and_retries_come_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, loopback: LoopbackServer
) -> None:
    monkeypatch.setenv("DEBUGTUTOR_MODEL_TIMEOUT", "2.5")
    monkeypatch.setenv("DEBUGTUTOR_MODEL_MAX_RETRIES", "0")
    backend = get_model(f"openai:m@{loopback.base_url}")
    assert isinstance(backend, OpenAIBackend)
    assert (backend.timeout_s, backend.max_retries) == (2.5, 0)
    assert get_model(f"openai:m@{loopback.base_url}", timeout_s=9.0).timeout_s == 9.0  # type: ignore[attr-defined]
    monkeypatch.setenv("DEBUGTUTOR_MODEL_TIMEOUT", "soon")
    with pytest.raises(Exception, match="DEBUGTUTOR_MODEL_TIMEOUT"):
        get_model(f"openai:m@{loopback.base_url}")


def test_the_breaker_stops_calling_a_dead_server(capfd: pytest.CaptureFixture[str]) -> None:
    dead = "http://127.0.0.1:9/v1"  # the discard port: nothing listens, every connection is refused
    backend = get_model(f"openai:m@{dead}", max_retries=0, stop_after_failures=3)
    for _ in range(3):
        with pytest.raises(ModelError, match="connection failed"):
            backend.generate_sync("hi")
    started = time.monotonic()
    with pytest.raises(ModelUnavailableError, match="after 3 calls in a row failed"):
        backend.generate_sync("hi")
    assert time.monotonic() - started < 0.5
    assert "no further calls will be made" in capfd.readouterr().err


def test_one_success_closes_the_count(loopback_factory: ServerFactory) -> None:
    server = loopback_factory(
        faults=FaultPlan(by_request={1: Fault(kind="server_error"), 2: Fault(kind="server_error")})
    )
    backend = get_model(f"openai:m@{server.base_url}", max_retries=0, stop_after_failures=3, cache=False)
    for _ in range(2):
        with pytest.raises(ModelError):
            backend.generate_sync("x")
    assert backend.generate_sync("x").texts == ["echo: x"]
    assert backend.breaker.failures_in_a_row == 0


def test_user_generation_settings_win_and_travel(loopback: LoopbackServer) -> None:
    backend = get_model(f"openai:m@{loopback.base_url}", max_tokens=7, temperature=0.4, cache=False)
    backend.generate_sync("q")
    body = loopback.bodies[-1]
    assert (body["max_tokens"], body["temperature"]) == (7, 0.4)
    assert backend.describe()["overrides"] == {"max_tokens": 7, "temperature": 0.4}


def test_the_base_url_from_the_environment_is_part_of_the_spec(
    monkeypatch: pytest.MonkeyPatch, loopback: LoopbackServer
) -> None:
    # Two servers named only by $OPENAI_BASE_URL must not share cached answers: the spec (the cache key) names them.
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_BASE_URL", loopback.base_url + "/")
    backend = get_model("openai:m")
    assert backend.spec == f"openai:m@{loopback.base_url}"
    monkeypatch.delenv("OPENAI_BASE_URL")
    assert get_model("openai:m").spec == "openai:m"


def test_calls_still_waiting_are_stopped_when_the_breaker_opens(loopback_factory: ServerFactory) -> None:
    # Two calls fail at once; three more hang. Once the breaker opens the hanging three stop too, instead of each
    # waiting out its own timeout (10 s here).
    broken, hang = Fault(kind="server_error"), Fault(kind="hang", hang_s=30.0)
    server = loopback_factory(faults=FaultPlan(by_request={1: broken, 2: broken, 3: hang, 4: hang, 5: hang}))
    backend = get_model(
        f"openai:m@{server.base_url}", max_retries=0, timeout_s=10.0, stop_after_failures=2, cache=False
    )
    started = time.monotonic()
    results = backend.generate_batch_sync([(f"q{i}", None) for i in range(5)], concurrency=5)
    assert time.monotonic() - started < 5.0
    assert all(isinstance(result, ModelError) for result in results)
    assert sum(isinstance(result, ModelUnavailableError) for result in results) == 3
