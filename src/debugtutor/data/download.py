"""Stream one archive over HTTP to a file while hashing it, failing fast when the network is not there.

A dataset fetch is a one-off, so an unreachable host should cost seconds, not minutes: the connection gets a short
timeout and the whole download at most two tries. Every failure becomes one :class:`DataError` line that names the
URL and points to ``--data PATH`` (a local copy) as the way to work offline.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import httpx
from tenacity import Retrying, retry_if_exception, stop_after_attempt, wait_fixed

from debugtutor.console import progress
from debugtutor.errors import DataError

CONNECT_TIMEOUT_S = 10.0
READ_TIMEOUT_S = 60.0
MAX_TRIES = 2
RETRY_WAIT_S = 0.5
CHUNK_BYTES = 1 << 16

OFFLINE_HINT = "offline or blocked? pass --data PATH pointing to a local copy of the dataset instead"


@dataclass(frozen=True)
class Download:
    """A finished download: where it is, how big, and the sha256 of its bytes."""

    path: Path
    size: int
    sha256: str


def _is_transient(error: BaseException) -> bool:
    if isinstance(error, httpx.HTTPStatusError):
        return error.response.status_code >= 500 or error.response.status_code == 429
    return isinstance(error, httpx.TransportError)


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return text or type(error).__name__


def _stream_once(client: httpx.Client, url: str, target: Path, description: str) -> Download:
    digest = hashlib.sha256()
    size = 0
    with client.stream("GET", url) as response:
        response.raise_for_status()
        length = response.headers.get("content-length")
        total = int(length) if length and length.isdigit() else None
        # Each try starts the file afresh, so a retried download never appends to a broken one.
        with target.open("wb") as sink, progress(description, total) as bar:
            for chunk in response.iter_bytes(CHUNK_BYTES):
                sink.write(chunk)
                digest.update(chunk)
                size += len(chunk)
                bar.advance(len(chunk))
    return Download(path=target, size=size, sha256=digest.hexdigest())


def download(url: str, target: Path, *, description: str, client: httpx.Client | None = None) -> Download:
    """Download ``url`` to ``target`` (overwritten), hashing on the way; :class:`DataError` when it fails."""
    timeout = httpx.Timeout(READ_TIMEOUT_S, connect=CONNECT_TIMEOUT_S)
    own_client = client is None
    http = client if client is not None else httpx.Client(timeout=timeout, follow_redirects=True)
    retrying = Retrying(
        stop=stop_after_attempt(MAX_TRIES),
        wait=wait_fixed(RETRY_WAIT_S),
        retry=retry_if_exception(_is_transient),
        reraise=True,
    )
    try:
        return retrying(_stream_once, http, url, target, description)
    except httpx.HTTPStatusError as exc:
        status = exc.response.status_code
        raise DataError(f"download of {url} failed with HTTP status {status}", hint=OFFLINE_HINT) from exc
    except httpx.HTTPError as exc:
        raise DataError(
            f"could not download {url} after {MAX_TRIES} tries: {_one_line(exc)}", hint=OFFLINE_HINT
        ) from exc
    finally:
        if own_client:
            http.close()
