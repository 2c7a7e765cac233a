"""Fetch a registered dataset into the cache (or ``--dest``) and find it again: the API arenas and the CLI call.

A fetch holds the dataset's lock file, downloads the archive into a scratch folder beside the destination, verifies
its sha256, unpacks the layout there and renames the result into place, so a dataset folder is either complete or
absent. The expected digest comes from ``--sha256``, else the registry entry, else the digest the first fetch on this
machine recorded (trust on first use, announced with a warning). The scratch folder, and with it any partial or
rejected download, is removed whatever happens.
"""

from __future__ import annotations

import shutil
import tempfile
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from pydantic import BaseModel
from rich.markup import escape

from debugtutor.console import log, warn
from debugtutor.data import store
from debugtutor.data.archive import unpack_layout
from debugtutor.data.download import download
from debugtutor.data.registry import DatasetEntry, get_entry, normalize_sha256
from debugtutor.errors import DataError, InputError

Verification = Literal["pinned", "user", "lock", "first-use", "cached"]
"""Where the expected digest came from: the registry, ``--sha256``, the checksum lock file, nowhere (so it was
recorded), or ``cached`` when an earlier complete fetch was reused and nothing was downloaded."""


class FetchResult(BaseModel):
    """What a fetch did: where the dataset is and how its archive was verified."""

    name: str
    repo: str
    commit: str
    url: str
    path: Path
    sha256: str
    verification: Verification
    downloaded: bool
    """False when a complete earlier fetch was found and nothing was downloaded."""


def _expected_digest(entry: DatasetEntry, explicit: str | None) -> tuple[str | None, Verification]:
    if explicit is not None:
        return explicit, "user"
    if entry.sha256 is not None:
        return entry.sha256, "pinned"
    lock = store.read_record(store.checksum_lock_path(entry), store.ChecksumLock)
    if lock is not None:
        return lock.sha256, "lock"
    return None, "first-use"


def _mismatch_hint(entry: DatasetEntry, verification: Verification) -> str:
    if verification == "lock":
        return (
            f"the archive differs from the first download recorded in {store.checksum_lock_path(entry)}; "
            "if the change is expected, delete that file or pass --sha256 HEX; nothing was kept"
        )
    if verification == "user":
        return "the archive does not match the --sha256 you gave; nothing was kept"
    return "the download is corrupt or the archive changed upstream; nothing was kept"


def _replace_folder(staged: Path, target: Path) -> None:
    """Put ``staged`` at ``target``; an existing ``target`` is moved aside first and removed only afterwards."""
    if target.is_dir() and not any(target.iterdir()):
        target.rmdir()
    if not target.exists():
        staged.rename(target)
        return
    retired = target.with_name(f".{target.name}.old-{uuid.uuid4().hex[:8]}")
    target.rename(retired)
    staged.rename(target)
    shutil.rmtree(retired, ignore_errors=True)


def _check_destination(entry: DatasetEntry, target: Path, force: bool) -> Path | None:
    """The already complete fetch at ``target`` to reuse, None to fetch; refuses to overwrite unrelated files."""
    if force:
        return None
    record = store.read_record(store.fetch_record_path(entry), store.FetchRecord)
    if target.is_dir() and (target == store.default_location(entry) or (record and Path(record.location) == target)):
        return target
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise InputError(
            "exists and does not hold this dataset's fetch",
            path=str(target),
            hint="choose another --dest or pass --force to replace it",
        )
    return None


def fetch_dataset(
    name: str,
    *,
    dest: Path | None = None,
    force: bool = False,
    sha256: str | None = None,
    mirror: str | None = None,
    registry: Mapping[str, DatasetEntry] | None = None,
) -> FetchResult:
    """Download, verify and unpack dataset ``name`` into the cache, or into ``dest`` when given.

    ``force`` downloads again and replaces what is there; ``sha256`` pins the archive digest; ``mirror`` overrides the
    archive base URL (as ``$DEBUGTUTOR_DATA_MIRROR`` does); ``registry`` replaces the built-in entries.
    """
    entry = get_entry(name, registry)
    explicit = normalize_sha256(sha256, field="--sha256") if sha256 is not None else None
    target = (dest.expanduser().resolve() if dest is not None else store.default_location(entry)).absolute()
    url = entry.archive_url(mirror)

    with store.exclusive_lock(store.fetch_lock_path(entry), what=entry.name):
        # Checked under the lock: a concurrent fetch may have finished while this one waited.
        existing = _check_destination(entry, target, force)
        record = store.read_record(store.fetch_record_path(entry), store.FetchRecord)
        digest = record.sha256 if record else ""
        # A --sha256 that differs from what the earlier fetch verified means: download again and check that pin.
        if existing is not None and (explicit is None or explicit == digest):
            log(f"{entry.name} is already fetched at {escape(str(existing))} (use --force to fetch again)")
            return FetchResult(
                name=entry.name,
                repo=entry.repo,
                commit=entry.commit,
                url=url,
                path=existing,
                sha256=digest,
                verification="cached",
                downloaded=False,
            )
        expected, verification = _expected_digest(entry, explicit)
        target.parent.mkdir(parents=True, exist_ok=True)
        workdir = Path(tempfile.mkdtemp(prefix=f".{target.name}.fetch-", dir=target.parent))
        try:
            log(f"downloading {entry.name} ({entry.repo}@{entry.short_commit})")
            archive = download(url, workdir / "archive", description=f"{entry.name}")
            if expected is not None and archive.sha256 != expected:
                raise DataError(
                    f"sha256 mismatch for {url}: expected {expected}, got {archive.sha256}",
                    hint=_mismatch_hint(entry, verification),
                )
            staged = workdir / "dataset"
            unpack_layout(archive.path, entry.layout, staged, workdir=workdir)
            _replace_folder(staged, target)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)

        if verification in ("first-use", "user"):
            store.write_record(
                store.checksum_lock_path(entry),
                store.ChecksumLock(
                    name=entry.name,
                    repo=entry.repo,
                    commit=entry.commit,
                    url=url,
                    sha256=archive.sha256,
                    source="first-use" if verification == "first-use" else "user",
                    recorded_at=store.utc_now(),
                ),
            )
        if verification == "first-use":
            lock_file = escape(str(store.checksum_lock_path(entry)))
            warn(
                f"NO PINNED CHECKSUM for {entry.name} ({entry.repo}@{entry.short_commit}): trusting this first "
                f"download, sha256 {archive.sha256}, now recorded in {lock_file}; later fetches must match it. "
                "Compare it with a trusted source and pin it with --sha256 HEX."
            )
        store.write_record(
            store.fetch_record_path(entry),
            store.FetchRecord(
                name=entry.name,
                repo=entry.repo,
                commit=entry.commit,
                url=url,
                sha256=archive.sha256,
                location=str(target),
                fetched_at=store.utc_now(),
            ),
        )
        log(f"{entry.name} is ready at {escape(str(target))}")
        return FetchResult(
            name=entry.name,
            repo=entry.repo,
            commit=entry.commit,
            url=url,
            path=target,
            sha256=archive.sha256,
            verification=verification,
            downloaded=True,
        )


def fetched_path(name: str, *, registry: Mapping[str, DatasetEntry] | None = None) -> Path | None:
    """Where dataset ``name`` was fetched to, or None when it has not been fetched."""
    return store.fetched_location(get_entry(name, registry))


def dataset_path(name: str, data: Path | None = None, *, registry: Mapping[str, DatasetEntry] | None = None) -> Path:
    """The folder to read dataset ``name`` from: ``data`` when given (it must exist), else the fetched copy.

    Raises :class:`InputError` when ``data`` does not exist and :class:`DataError` when nothing was given and the
    dataset has not been fetched.
    """
    entry = get_entry(name, registry)
    if data is not None:
        path = data.expanduser()
        if not path.exists():
            raise InputError("does not exist", path=str(data), hint=f"pass --data PATH to a local copy of {name}")
        return path
    location = store.fetched_location(entry)
    if location is None:
        raise DataError(
            f"dataset {name!r} is not fetched",
            hint=f"run `debugtutor data fetch {name}` or pass --data PATH pointing to a local copy",
        )
    return location
