"""Fixtures for the dataset tests: GitHub-style archives built in memory and a loopback server that serves them."""

from __future__ import annotations

import io
import socket
import tarfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from debugtutor.data import MIRROR_ENV_VAR

ArchiveBuilder = Callable[[str, str, dict[str, bytes]], bytes]


def _add_file(tar: tarfile.TarFile, name: str, content: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(content)
    info.mtime = 1_700_000_000
    tar.addfile(info, io.BytesIO(content))


def _add_folder(tar: tarfile.TarFile, name: str) -> None:
    info = tarfile.TarInfo(name)
    info.type = tarfile.DIRTYPE
    info.mode = 0o755
    tar.addfile(info)


def build_archive(repo: str, commit: str, files: dict[str, bytes]) -> bytes:
    """A tar.gz laid out like GitHub's: everything under ``REPO-COMMIT/``, with folder members first."""
    top = f"{repo.split('/')[1]}-{commit}"
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        _add_folder(tar, top)
        folders = sorted(
            {"/".join(path.split("/")[:depth]) for path in files for depth in range(1, path.count("/") + 1)}
        )
        for folder in folders:
            _add_folder(tar, f"{top}/{folder}")
        for path, content in sorted(files.items()):
            _add_file(tar, f"{top}/{path}", content)
    return buffer.getvalue()


@pytest.fixture
def github_archive() -> ArchiveBuilder:
    """Build a GitHub-style tar.gz: ``github_archive(repo, commit, {path: bytes})``."""
    return build_archive


@dataclass
class ArchiveServer:
    """A loopback HTTP server: ``routes`` maps a URL path to bytes (or an int status); ``hits`` counts requests."""

    base_url: str
    routes: dict[str, bytes | int] = field(default_factory=dict)
    hits: dict[str, int] = field(default_factory=dict)
    delay_s: float = 0.0

    def serve_archive(self, repo: str, commit: str, body: bytes | int) -> str:
        path = f"/{repo}/tar.gz/{commit}"
        self.routes[path] = body
        return self.base_url + path


@pytest.fixture
def archive_server() -> Iterator[ArchiveServer]:
    state = ArchiveServer(base_url="")

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            state.hits[self.path] = state.hits.get(self.path, 0) + 1
            if state.delay_s:
                time.sleep(state.delay_s)
            body = state.routes.get(self.path, 404)
            if isinstance(body, int):
                self.send_error(body)
                return
            self.send_response(200)
            self.send_header("Content-Type", "application/x-gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:  # keep test output clean
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.base_url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture
def mirror(archive_server: ArchiveServer, monkeypatch: pytest.MonkeyPatch) -> ArchiveServer:
    """The loopback server, set as the dataset mirror for every fetch in the test."""
    monkeypatch.setenv(MIRROR_ENV_VAR, archive_server.base_url)
    return archive_server


@pytest.fixture
def closed_port_url() -> str:
    """A loopback URL on a port nobody listens on (bound, then released), so connecting is refused at once."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"
