"""The persistent response cache: every model call is stored in SQLite, so a rerun costs nothing and a crash resumes.

Entries are keyed by a hash of the model spec, the messages and the generation settings. A sampled request (n > 1
or temperature > 0) stores each completion under its own sample index, so asking again for n completions returns
the same n texts, and asking for more only generates the missing ones.

The database lives in ``platformdirs.user_cache_dir("debugtutor")`` unless ``DEBUGTUTOR_CACHE_DIR`` says otherwise.
It runs in WAL mode with a generous busy timeout so several processes (a process pool, two terminals) can write at
once; each operation opens its own short-lived connection, which keeps the cache safe across threads and forks.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from pydantic import BaseModel

from debugtutor.errors import InputError
from debugtutor.llm.types import ChatMessage, GenerationSettings
from debugtutor.userdirs import cache_dir

CACHE_FILE_NAME = "responses.sqlite3"
_BUSY_TIMEOUT_S = 60.0
_SCHEMA_VERSION = 1


class CachePolicy(str, Enum):
    """Whether a back-end reads and writes the response cache."""

    NORMAL = "normal"  # read what is there, store what is new
    NO_CACHE = "no-cache"  # neither read nor write
    CACHE_ONLY = "cache-only"  # read only; a miss raises CacheMissError instead of calling the model

    @classmethod
    def coerce(cls, value: CachePolicy | str | bool) -> CachePolicy:
        """Accept the enum, its value (``"no-cache"``) or a bool (``False`` means no cache)."""
        if isinstance(value, CachePolicy):
            return value
        if isinstance(value, bool):
            return cls.NORMAL if value else cls.NO_CACHE
        try:
            return cls(value.replace("_", "-").lower())
        except ValueError as exc:
            choices = ", ".join(policy.value for policy in cls)
            raise InputError(f"unknown cache policy {value!r}; choose one of {choices}", field="cache") from exc


def default_cache_dir() -> Path:
    """The debugtutor cache folder (see :mod:`debugtutor.userdirs`)."""
    return cache_dir()


def cache_key(model: str, messages: Sequence[ChatMessage], settings: GenerationSettings, sample: int | None) -> str:
    """The hash that names one cached completion. ``n`` is left out: each sample has its own entry."""
    payload = {
        "model": model,
        "messages": [message.model_dump(mode="json") for message in messages],
        "settings": settings.model_dump(mode="json", exclude={"n"}),
        "sample": sample,
    }
    encoded = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(encoded.encode("utf-8")).hexdigest()


def sample_keys(model: str, messages: Sequence[ChatMessage], settings: GenerationSettings) -> list[str]:
    """One key per requested completion; a deterministic single request has no sample index."""
    if not settings.sampled:
        return [cache_key(model, messages, settings, None)]
    return [cache_key(model, messages, settings, index) for index in range(settings.n)]


@dataclass(frozen=True)
class CachedCompletion:
    """One stored completion and the tokens it cost when it was generated."""

    text: str
    prompt_tokens: int
    completion_tokens: int


class CacheInfo(BaseModel):
    """Where the cache is and how much it holds."""

    path: str
    entries: int
    size_bytes: int


class ResponseCache:
    """A SQLite table of completions keyed by :func:`cache_key`."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else default_cache_dir() / CACHE_FILE_NAME
        self._ready = False

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(self.path, timeout=_BUSY_TIMEOUT_S, isolation_level=None)
        try:
            connection.execute(f"PRAGMA busy_timeout = {int(_BUSY_TIMEOUT_S * 1000)}")
            # In WAL mode NORMAL still never corrupts the file; a power cut may only lose the last few answers.
            connection.execute("PRAGMA synchronous = NORMAL")
            if not self._ready:
                self._create_schema(connection)
                self._ready = True
            yield connection
        finally:
            connection.close()

    @staticmethod
    def _create_schema(connection: sqlite3.Connection) -> None:
        # Switching a new file to WAL needs an exclusive lock, and SQLite does not wait on its busy handler for
        # that: several processes opening a fresh cache at once must retry, briefly and a bounded number of times.
        for attempt in range(40):
            try:
                # WAL lets readers and one writer work at once; the mode is stored in the file, so this sticks.
                if str(connection.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
                    connection.execute("PRAGMA journal_mode = WAL")
                connection.execute(
                    "CREATE TABLE IF NOT EXISTS responses ("
                    " key TEXT PRIMARY KEY,"
                    " model TEXT NOT NULL,"
                    " text TEXT NOT NULL,"
                    " prompt_tokens INTEGER NOT NULL,"
                    " completion_tokens INTEGER NOT NULL,"
                    " created REAL NOT NULL)"
                )
                connection.execute(f"PRAGMA user_version = {_SCHEMA_VERSION}")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or attempt == 39:
                    raise
                time.sleep(0.02 * (attempt + 1))

    def get_many(self, keys: Sequence[str]) -> dict[str, CachedCompletion]:
        """The stored completions among ``keys`` (missing keys are absent from the result)."""
        if not keys:
            return {}
        placeholders = ",".join("?" for _ in keys)
        with self._connect() as connection:
            rows = connection.execute(
                f"SELECT key, text, prompt_tokens, completion_tokens FROM responses WHERE key IN ({placeholders})",
                list(keys),
            ).fetchall()
        return {key: CachedCompletion(text, prompt, completion) for key, text, prompt, completion in rows}

    def put_many(self, model: str, entries: Sequence[tuple[str, CachedCompletion]]) -> None:
        """Store completions; an existing key is overwritten (both writers generated a valid answer)."""
        if not entries:
            return
        now = time.time()
        rows = [(key, model, entry.text, entry.prompt_tokens, entry.completion_tokens, now) for key, entry in entries]
        with self._connect() as connection:
            # BEGIN IMMEDIATE takes the write lock up front, so a busy database waits instead of failing mid-way.
            connection.execute("BEGIN IMMEDIATE")
            try:
                connection.executemany("INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?, ?, ?)", rows)
                connection.execute("COMMIT")
            except BaseException:
                connection.execute("ROLLBACK")
                raise

    def info(self) -> CacheInfo:
        """Path, number of stored completions and bytes on disk (database plus its WAL files)."""
        entries = 0
        if self.path.exists():
            with self._connect() as connection:
                entries = connection.execute("SELECT COUNT(*) FROM responses").fetchone()[0]
        size = sum(
            candidate.stat().st_size
            for candidate in (self.path, Path(f"{self.path}-wal"), Path(f"{self.path}-shm"))
            if candidate.exists()
        )
        return CacheInfo(path=str(self.path), entries=entries, size_bytes=size)

    def clear(self) -> int:
        """Delete every stored completion and give the space back; returns how many were removed."""
        if not self.path.exists():
            return 0
        with self._connect() as connection:
            removed: int = connection.execute("DELETE FROM responses").rowcount
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            connection.execute("VACUUM")
        return removed
