"""Helpers for the web app's tests: a real ``debugtutor serve`` on a free loopback port, a headless Chromium."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS_ENV = "DEBUGTUTOR_WEB_SCREENSHOTS"  # a folder: the browser tests save the README's screenshots there


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """``debugtutor serve`` as a child process (so it can be killed like a real one)."""

    def __init__(self, data_dir: Path, runs_dir: Path, *extra: str) -> None:
        self.data_dir = data_dir
        self.runs_dir = runs_dir
        self.extra = list(extra)
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.log = data_dir.parent / f"server-{self.port}.log"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        command = [sys.executable, "-m", "debugtutor.cli.main", "serve", "--data-dir", str(self.data_dir),
                   "--runs-dir", str(self.runs_dir), "--port", str(self.port), *self.extra]  # fmt: skip
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited ({self.process.returncode}): {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(self.base + "/healthz", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError(f"the server did not answer within 60 s: {self.log.read_text()[-2000:]}")

    def stop(self, *, kill: bool = False) -> None:
        if self.process is None:
            return
        if kill:
            self.process.send_signal(signal.SIGKILL)
        else:
            self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None

    def restart(self) -> Server:
        self.stop()
        return self.start()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium (Debian's package, never a downloaded browser) for the whole module."""
    try:
        from playwright import sync_api
    except ImportError:
        pytest.fail("browser tests need the playwright package (the dev extra)")
    executable = shutil.which("chromium")
    if executable is None:
        pytest.fail("browser tests need Debian's chromium package (.ci/install-system-deps installs it)")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


def screenshot(page: Any, name: str) -> None:
    """Save a full-page screenshot for the README when $DEBUGTUTOR_WEB_SCREENSHOTS names a folder."""
    folder = os.environ.get(SCREENSHOTS_ENV)
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def open_as(browser: Any, base: str, name: str) -> Any:
    """A fresh browser context signed in under ``name`` (the server runs in open mode on loopback)."""
    context = browser.new_context(viewport={"width": 1360, "height": 900}, accept_downloads=True)
    context.set_default_timeout(30_000)
    page = context.new_page()
    page.goto(base + "/login")
    page.fill("input[name=name]", name)
    page.click("form button[type=submit]")
    page.wait_for_url(base + "/")
    return page


def csrf_client(base: str) -> httpx.Client:
    """An HTTP client with the server's CSRF cookie, sending it back as the header every write needs."""
    client = httpx.Client(base_url=base, timeout=60, follow_redirects=False)
    client.get("/")
    client.headers["X-CSRF-Token"] = client.cookies["dt_csrf"]
    return client
