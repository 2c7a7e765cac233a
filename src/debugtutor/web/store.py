"""The web app's SQLite database: one file under the data folder, in WAL mode, written durably.

Every write runs in its own ``BEGIN IMMEDIATE`` transaction and is committed before the request that made it is
answered, with ``synchronous=FULL``: a write the browser saw acknowledged survives ``kill -9`` of the server (and a
power cut). Each thread keeps its own connection; SQLite's busy timeout serialises concurrent writers.
"""

from __future__ import annotations

import datetime as _dt
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

DATABASE_FILE = "debugtutor-web.sqlite3"
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS users (
    name TEXT PRIMARY KEY, role TEXT NOT NULL, token_hash TEXT UNIQUE, created_at TEXT NOT NULL,
    revoked INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS login_sessions (
    id_hash TEXT PRIMARY KEY, user_name TEXT NOT NULL, role TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tutor_sessions (
    id TEXT PRIMARY KEY, owner TEXT NOT NULL, title TEXT NOT NULL, problem TEXT NOT NULL, unit_tests TEXT NOT NULL,
    original_code TEXT NOT NULL, code TEXT NOT NULL, seen_code TEXT, model TEXT, turns TEXT NOT NULL DEFAULT '[]',
    blocked TEXT NOT NULL DEFAULT '[]', solved INTEGER NOT NULL DEFAULT 0, passing INTEGER, total INTEGER,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS collections (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, source TEXT NOT NULL DEFAULT '', created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS dialogues (
    id INTEGER PRIMARY KEY, collection_id INTEGER NOT NULL REFERENCES collections(id), name TEXT NOT NULL,
    text TEXT NOT NULL, original BLOB, version INTEGER NOT NULL, updated_by TEXT NOT NULL, updated_at TEXT NOT NULL,
    UNIQUE (collection_id, name));
CREATE TABLE IF NOT EXISTS dialogue_versions (
    dialogue_id INTEGER NOT NULL REFERENCES dialogues(id), version INTEGER NOT NULL, text TEXT NOT NULL,
    parent INTEGER, author TEXT NOT NULL, created_at TEXT NOT NULL, note TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (dialogue_id, version));
CREATE TABLE IF NOT EXISTS studies (
    id INTEGER PRIMARY KEY, kind TEXT NOT NULL, name TEXT NOT NULL, config TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS study_items (
    study_id INTEGER NOT NULL REFERENCES studies(id), position INTEGER NOT NULL, item_id TEXT NOT NULL,
    payload TEXT NOT NULL, PRIMARY KEY (study_id, position), UNIQUE (study_id, item_id));
CREATE TABLE IF NOT EXISTS study_answers (
    study_id INTEGER NOT NULL REFERENCES studies(id), item_id TEXT NOT NULL, annotator TEXT NOT NULL,
    answer TEXT NOT NULL, updated_at TEXT NOT NULL, PRIMARY KEY (study_id, item_id, annotator));
"""


def now() -> str:
    """The current UTC time, ISO 8601 with seconds."""
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


class Database:
    """The app's database file; :meth:`write` for transactions, :meth:`read` for queries."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        # executescript commits on its own; every statement is idempotent, so a crash half-way is harmless
        self._connection().executescript(_SCHEMA)
        with self.write() as conn:
            conn.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))

    def _connection(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=30.0, isolation_level=None, check_same_thread=False)
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA busy_timeout=30000")
            self._local.conn = conn
        return conn

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """A write transaction, committed (durably) when the block ends, rolled back on an exception."""
        conn = self._connection()
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def read(self, sql: str, params: tuple[object, ...] = ()) -> list[sqlite3.Row]:
        return list(self._connection().execute(sql, params))

    def read_one(self, sql: str, params: tuple[object, ...] = ()) -> sqlite3.Row | None:
        rows = self.read(sql, params)
        return rows[0] if rows else None
