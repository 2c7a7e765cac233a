"""The loopback server itself: the OpenAI wire format, fault plans, counters and capacity for many connections."""

from __future__ import annotations

import http.client
import json
import time
from concurrent.futures import ThreadPoolExecutor

import httpx

from debugtutor.llm.loopback_server import Fault, FaultPlan, LoopbackServer

REQUEST = {"model": "m", "messages": [{"role": "user", "content": "two words"}]}


def test_answers_in_the_openai_format(loopback: LoopbackServer) -> None:
    reply = httpx.post(f"{loopback.base_url}/chat/completions", json={**REQUEST, "n": 2}).json()
    assert [choice["message"]["content"] for choice in reply["choices"]] == ["echo 0: two words", "echo 1: two words"]
    assert reply["usage"] == {"prompt_tokens": 2, "completion_tokens": 8, "total_tokens": 10}
    assert httpx.get(f"{loopback.base_url}/models").json()["data"][0]["id"] == "loopback"
    assert httpx.post(f"{loopback.base_url}/embeddings", json=REQUEST).status_code == 404


def test_fault_plan_by_request_number_and_model(loopback_factory: object) -> None:
    plan = FaultPlan(
        by_request={1: Fault(kind="rate_limit", retry_after=2), 2: Fault(kind="malformed")},
        by_model={"bad": Fault(kind="server_error", status=503)},
    )
    server = loopback_factory(faults=plan)  # type: ignore[operator]
    url = f"{server.base_url}/chat/completions"
    limited = httpx.post(url, json=REQUEST)
    assert (limited.status_code, limited.headers["Retry-After"]) == (429, "2")
    malformed = httpx.post(url, json=REQUEST)
    assert malformed.status_code == 200
    try:
        json.loads(malformed.text)
        parsed = True
    except json.JSONDecodeError:
        parsed = False
    assert not parsed
    assert httpx.post(url, json={**REQUEST, "model": "bad"}).status_code == 503
    assert httpx.post(url, json=REQUEST).status_code == 200
    assert server.requests == 4 and server.requests_by_model == {"m": 3, "bad": 1}


def test_serves_64_slow_requests_at_once(loopback_factory: object) -> None:
    server = loopback_factory(latency_s=0.1)  # type: ignore[operator]
    body = json.dumps(REQUEST)

    def call(_: int) -> int:
        # http.client rather than httpx: a throw-away httpx client loads the CA bundle each time, which costs more
        # CPU than the server does.
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        try:
            connection.request("POST", "/v1/chat/completions", body, {"Content-Type": "application/json"})
            return connection.getresponse().status
        finally:
            connection.close()

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=64) as pool:
        statuses = list(pool.map(call, range(64)))
    elapsed = time.perf_counter() - started
    assert statuses == [200] * 64
    assert server.max_in_flight >= 32  # the requests overlapped inside the server
    assert elapsed < 2.0  # one after another they would take 6.4 s


def test_stop_releases_hung_connections(loopback_factory: object) -> None:
    server = loopback_factory(faults=FaultPlan(by_request={1: Fault(kind="hang", hang_s=30)}))  # type: ignore[operator]
    with ThreadPoolExecutor(max_workers=1) as pool:
        pending = pool.submit(httpx.post, f"{server.base_url}/chat/completions", json=REQUEST, timeout=10)
        time.sleep(0.2)
        started = time.perf_counter()
        server.stop()
        assert time.perf_counter() - started < 5
        error = pending.exception(timeout=10)
    assert isinstance(error, httpx.HTTPError)
