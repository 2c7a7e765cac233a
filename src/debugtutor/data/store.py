"""Where fetched datasets live and the small records kept about them.

Layout under ``<cache>/datasets/<name>/`` (``<cache>`` is ``$DEBUGTUTOR_CACHE_DIR`` or the platform's user cache
folder for debugtutor):

- ``<commit>/``              the dataset, laid out like ``../shared/data/<name>`` (absent when fetched to ``--dest``)
- ``<commit>.lock``          held with ``flock`` while a fetch runs, so concurrent fetches don't collide
- ``<commit>.sha256.json``   the archive digest trusted so far (the checksum lock file, see :class:`ChecksumLock`)
- ``<commit>.fetched.json``  where the last complete fetch put the dataset (see :class:`FetchRecord`)

Records are kept outside the dataset folder so that the folder holds exactly the dataset's files.
"""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Literal, TypeVar

from pydantic import BaseModel, ValidationError
from rich.markup import escape

from debugtutor.atomic_files import write_text_atomic
from debugtutor.console import log
from debugtutor.data.registry import DatasetEntry
from debugtutor.errors import DataError
from debugtutor.userdirs import cache_dir


def datasets_root() -> Path:
    return cache_dir("datasets")


def entry_folder(entry: DatasetEntry) -> Path:
    return datasets_root() / entry.name


def default_location(entry: DatasetEntry) -> Path:
    """Where a fetch without ``--dest`` puts the dataset."""
    return entry_folder(entry) / entry.commit


def fetch_lock_path(entry: DatasetEntry) -> Path:
    return entry_folder(entry) / f"{entry.commit}.lock"


def checksum_lock_path(entry: DatasetEntry) -> Path:
    return entry_folder(entry) / f"{entry.commit}.sha256.json"


def fetch_record_path(entry: DatasetEntry) -> Path:
    return entry_folder(entry) / f"{entry.commit}.fetched.json"


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class ChecksumLock(BaseModel):
    """The archive digest trusted for one dataset commit, recorded by the first fetch or pinned by a user."""

    name: str
    repo: str
    commit: str
    url: str
    sha256: str
    source: Literal["first-use", "user"]
    recorded_at: str


class FetchRecord(BaseModel):
    """Where the last complete fetch of one dataset commit put it, and the archive digest it verified."""

    name: str
    repo: str
    commit: str
    url: str
    sha256: str
    location: str
    fetched_at: str


_Record = TypeVar("_Record", ChecksumLock, FetchRecord)


def read_record(path: Path, model: type[_Record]) -> _Record | None:
    """The record stored at ``path``, None when there is none; a corrupt record is an error naming the file."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    try:
        return model.model_validate_json(text)
    except ValidationError as exc:
        raise DataError(
            f"{path}: unreadable {model.__name__} record ({exc.error_count()} errors)",
            hint="delete the file and fetch again",
        ) from exc


def write_record(path: Path, record: BaseModel) -> None:
    """Write a record atomically, so a crash never leaves half a file that later fetches would trust."""
    write_text_atomic(path, record.model_dump_json(indent=2) + "\n")


def fetched_location(entry: DatasetEntry) -> Path | None:
    """The folder holding a complete fetch of ``entry``, or None when it has not been fetched (or was deleted)."""
    record = read_record(fetch_record_path(entry), FetchRecord)
    if record is not None and Path(record.location).is_dir():
        return Path(record.location)
    # The default folder only ever appears by an atomic rename of a complete unpack, so its presence is enough.
    location = default_location(entry)
    return location if location.is_dir() else None


@contextmanager
def exclusive_lock(path: Path, *, what: str) -> Iterator[None]:
    """Hold an exclusive ``flock`` on ``path`` (created if needed); says so on stderr when it has to wait."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+b") as handle:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            log(f"waiting for another process that is fetching {what} (lock {escape(str(path))})")
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
