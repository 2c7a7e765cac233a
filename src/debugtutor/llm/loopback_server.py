"""A real OpenAI-compatible chat-completions server on loopback, with set latency and injected faults.

It exists so the ``openai`` provider can be tested and benchmarked end to end without a network or a GPU: the
client speaks real HTTP to it, and the server can answer slowly, rate-limit (429 with ``Retry-After``), fail (5xx),
hang until the client times out, or send a body that is not JSON, according to a :class:`FaultPlan` keyed by request
number or by model name. It counts requests and the most it had in flight at once, which tests use to check the
client's concurrency bound and pool spreading.

Each connection gets its own thread (``ThreadingHTTPServer`` with HTTP/1.1 keep-alive), so a hundred connections
waiting out a 100 ms latency cost nothing but sleeping threads.

Run it on its own with ``python -m debugtutor.llm.loopback_server --latency 0.1``; it prints its base URL.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from collections import Counter
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

from pydantic import BaseModel, Field

FaultKind = Literal["rate_limit", "server_error", "hang", "malformed", "bad_request"]

# Builds the text of choice ``index`` from the parsed request body.
ReplyFunction = Callable[[dict[str, Any], int], str]


class Fault(BaseModel):
    """One way to misbehave on a request."""

    kind: FaultKind
    status: int | None = Field(default=None, description="HTTP status; defaults to 429, 500 or 400 by kind.")
    retry_after: float | None = Field(default=None, description="Seconds sent in the Retry-After header (rate_limit).")
    hang_s: float = Field(default=30.0, description="Seconds a hang holds the connection before dropping it.")


class FaultPlan(BaseModel):
    """Which requests misbehave: by 1-based request number (over the server's life) or by model name."""

    by_request: dict[int, Fault] = Field(default_factory=dict)
    by_model: dict[str, Fault] = Field(default_factory=dict)

    def fault_for(self, number: int, model: str) -> Fault | None:
        return self.by_request.get(number) or self.by_model.get(model)


def echo_reply(body: dict[str, Any], index: int) -> str:
    """The default answer: the last message echoed back, numbered when several choices are asked for."""
    messages = body.get("messages") or [{}]
    last = str(messages[-1].get("content", ""))
    return f"echo: {last}" if int(body.get("n") or 1) == 1 else f"echo {index}: {last}"


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as real servers and connection-pooling clients expect
    disable_nagle_algorithm = True  # headers and body go out as separate writes; Nagle would delay the second
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        return  # quiet: tests and benchmarks make thousands of requests

    def do_GET(self) -> None:
        if self.path.rstrip("/").endswith("/models"):
            self._send_json(200, {"object": "list", "data": [{"id": "loopback", "object": "model"}]})
        else:
            self._send_json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._send_json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
            return
        try:
            body = json.loads(raw)
        except json.JSONDecodeError:
            self._send_json(400, {"error": {"message": "request body is not JSON", "type": "invalid_request"}})
            return
        owner = self.server.owner
        number = owner._enter(str(body.get("model", "")), body)
        try:
            self._answer(owner, number, body)
        finally:
            owner._leave()

    def _answer(self, owner: LoopbackServer, number: int, body: dict[str, Any]) -> None:
        if owner.latency_s > 0 and owner._stopping.wait(owner.latency_s):
            return
        fault = owner.faults.fault_for(number, str(body.get("model", "")))
        if fault is None:
            self._send_json(200, owner._completion(body, number))
        elif fault.kind == "rate_limit":
            headers = {"Retry-After": _format_seconds(fault.retry_after)} if fault.retry_after is not None else {}
            error = {"error": {"message": "rate limit reached", "type": "rate_limit_exceeded"}}
            self._send_json(fault.status or 429, error, headers)
        elif fault.kind == "server_error":
            self._send_json(fault.status or 500, {"error": {"message": "injected server error", "type": "server"}})
        elif fault.kind == "bad_request":
            self._send_json(fault.status or 400, {"error": {"message": "injected bad request", "type": "invalid"}})
        elif fault.kind == "malformed":
            self._send_raw(200, b'{"id": "broken", "choices": [', "application/json")
        else:  # hang: hold the connection, then drop it without an answer
            owner._stopping.wait(fault.hang_s)
            self.close_connection = True

    def _send_json(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        self._send_raw(status, json.dumps(payload).encode("utf-8"), "application/json", headers)

    def _send_raw(self, status: int, data: bytes, content_type: str, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)


def _format_seconds(seconds: float) -> str:
    return str(int(seconds)) if float(seconds).is_integer() else f"{seconds:g}"


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False  # hung handler threads must not hold up shutdown
    request_queue_size = 512  # a burst of new connections from a wide client pool must not be refused
    owner: LoopbackServer


class LoopbackServer:
    """An OpenAI-compatible server on 127.0.0.1 (a free port by default); use it as a context manager."""

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        latency_s: float = 0.0,
        faults: FaultPlan | None = None,
        reply: ReplyFunction = echo_reply,
    ) -> None:
        self.host = host
        self.port = port
        self.latency_s = latency_s
        self.faults = faults if faults is not None else FaultPlan()
        self.reply = reply
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None
        self._numbered = 0
        self.reset_stats()

    def reset_stats(self) -> None:
        """Forget counts (the request numbering of the fault plan keeps counting from where it was)."""
        with self._lock:
            self.requests = 0
            self.in_flight = 0
            self.max_in_flight = 0
            self.requests_by_model: Counter[str] = Counter()
            self.bodies: list[dict[str, Any]] = []

    @property
    def base_url(self) -> str:
        """The URL a client puts in ``openai:MODEL@BASE_URL``."""
        return f"http://{self.host}:{self.port}/v1"

    def start(self) -> LoopbackServer:
        self._httpd = _Server((self.host, self.port), _Handler)
        self._httpd.owner = self
        self.port = self._httpd.server_address[1]
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, name="loopback-llm", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> LoopbackServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _enter(self, model: str, body: dict[str, Any]) -> int:
        with self._lock:
            self._numbered += 1
            self.requests += 1
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            self.requests_by_model[model] += 1
            self.bodies.append(body)
            return self._numbered

    def _leave(self) -> None:
        with self._lock:
            self.in_flight -= 1

    def _completion(self, body: dict[str, Any], number: int) -> dict[str, Any]:
        n = int(body.get("n") or 1)
        texts = [self.reply(body, index) for index in range(n)]
        prompt_tokens = sum(len(str(message.get("content", "")).split()) for message in body.get("messages", []))
        return {
            "id": f"chatcmpl-loopback-{number}",
            "object": "chat.completion",
            "model": body.get("model", ""),
            "choices": [
                {"index": index, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
                for index, text in enumerate(texts)
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": sum(len(text.split()) for text in texts),
                "total_tokens": prompt_tokens + sum(len(text.split()) for text in texts),
            },
        }


def main(argv: list[str] | None = None) -> None:
    """Serve until interrupted; the first line on stdout is the base URL."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds before each answer")
    parser.add_argument(
        "--faults", default=None, help='a FaultPlan as JSON, e.g. \'{"by_request": {"1": {"kind": "hang"}}}\''
    )
    args = parser.parse_args(argv)
    faults = FaultPlan.model_validate_json(args.faults) if args.faults else None
    server = LoopbackServer(host=args.host, port=args.port, latency_s=args.latency, faults=faults).start()
    sys.stdout.write(server.base_url + "\n")
    sys.stdout.flush()
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()


if __name__ == "__main__":
    main()
