"""The on-disk records of a run: ``manifest.json`` and ``samples.jsonl`` in ``runs/<run-id>/``.

Every evaluation leaves the same two files behind, and everything else (the summary, the HTML report, resuming)
is computed from them alone. ``samples.jsonl`` holds one JSON line per finished item and is only ever appended to,
one ``write`` system call per line, so a process killed at any moment leaves at most one incomplete last line, which
:func:`read_samples` detects and :func:`repair_samples` cuts off. ``manifest.json`` is replaced atomically
(write a temporary file, then rename), so it is always either the old or the new version.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import hashlib
import json
import os
import secrets
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from debugtutor.atomic_files import write_bytes_atomic, write_text_atomic
from debugtutor.errors import InputError
from debugtutor.userdirs import runs_dir

MANIFEST_FILE = "manifest.json"
SAMPLES_FILE = "samples.jsonl"
SUMMARY_FILE = "summary.json"
REPORT_FILE = "report.html"
LOCK_FILE = ".lock"


RunStatus = Literal["started", "success", "partial", "failed", "error", "interrupted"]
"""``success``: every item recorded without error. ``partial``: some items errored. ``failed``: every item errored,
or the run stopped early (``stop_reason``). ``error``: the runner itself failed. ``interrupted``: Ctrl-C or SIGTERM."""


# --------------------------------------------------------------------------------------------------------------------
# JSON helpers


def to_jsonable(value: Any) -> Any:
    """Turn pydantic models, dataclasses, enums, paths, sets and tuples into plain JSON values.

    Raises ``TypeError`` for anything else that JSON cannot hold, so a solver returning an arbitrary object is
    reported as an item error instead of being silently stringified.
    """
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, dict):
        return {str(key): to_jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(item) for item in value]
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return to_jsonable(dataclasses.asdict(value))
    if isinstance(value, enum.Enum):
        return to_jsonable(value.value)
    if isinstance(value, (set, frozenset)):
        return sorted(to_jsonable(item) for item in value)
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, (dt.datetime, dt.date)):
        return value.isoformat()
    # numpy scalars and arrays, without importing numpy here
    if hasattr(value, "tolist") and callable(value.tolist):
        return to_jsonable(value.tolist())
    raise TypeError(f"{type(value).__name__} is not JSON-serializable")


def canonical_json(value: Any) -> str:
    """The one canonical JSON text of a value: sorted keys, no spaces, UTF-8 kept, so equal data hashes equally."""
    return json.dumps(to_jsonable(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=True)


def input_hash(value: Any) -> str:
    """``sha256:<hex>`` of the canonical JSON of an item's input; it tells whether the data changed between runs."""
    return "sha256:" + hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


def new_run_id(now: dt.datetime | None = None) -> str:
    """A run id that sorts by start time (UTC, millisecond resolution) with a random suffix against collisions."""
    now = now or utc_now()
    return f"{now:%Y%m%dT%H%M%S}{now.microsecond // 1000:03d}Z-{secrets.token_hex(3)}"


# --------------------------------------------------------------------------------------------------------------------
# Records


class ErrorInfo(BaseModel):
    """Why an item failed: the exception type, its message and the last lines of its traceback."""

    type: str
    message: str
    traceback: str = ""


class Timings(BaseModel):
    """Wall-clock seconds spent in the solver and in the scorer for one item."""

    solve_s: float | None = None
    score_s: float | None = None


ScoreValue = float | int | bool | str


class SampleRecord(BaseModel):
    """One line of ``samples.jsonl``: the outcome of one item."""

    # A NaN score must survive the round trip as NaN (JSON's common extension), not turn into null.
    model_config = ConfigDict(ser_json_inf_nan="constants")

    id: str
    input_hash: str
    output: Any = None
    scores: dict[str, ScoreValue] = Field(default_factory=dict)
    error: ErrorInfo | None = None
    usage: dict[str, Any] | None = None
    timings: Timings = Field(default_factory=Timings)

    @property
    def ok(self) -> bool:
        return self.error is None


class RunCounts(BaseModel):
    """How many items the task has, how many are recorded and how many of those failed."""

    items: int = 0
    done: int = 0
    errors: int = 0


class RunAttempt(BaseModel):
    """One process that worked on the run (the first one, then one per resume)."""

    started_at: str
    finished_at: str | None = None
    status: RunStatus = "started"
    argv: list[str] = Field(default_factory=list)
    items_run: int = 0


class RunManifest(BaseModel):
    """``manifest.json``: what was run, with which code, data and model, when, and how it ended."""

    run_id: str
    task: str
    task_version: str = "0"
    model: str | None = None
    status: RunStatus = "started"
    argv: list[str] = Field(default_factory=list)
    config: dict[str, Any] = Field(default_factory=dict)
    package_version: str
    python_version: str = Field(default_factory=lambda: sys.version.split()[0])
    git_commit: str | None = None
    dataset_checksums: dict[str, str] = Field(default_factory=dict)
    published: dict[str, Any] = Field(default_factory=dict)
    started_at: str
    finished_at: str | None = None
    counts: RunCounts = Field(default_factory=RunCounts)
    stop_reason: str | None = None
    """Why the run stopped before its last item (e.g. the model kept failing), when it did."""
    model_settings: dict[str, Any] = Field(default_factory=dict)
    """The resolved model back-end: its spec (with the server URLs), timeouts, retries, generation overrides."""
    attempts: list[RunAttempt] = Field(default_factory=list)
    # The task's own summarize() output, kept here so that a report rebuilt later from the records needs no task code.
    task_summary: dict[str, Any] = Field(default_factory=dict)


# --------------------------------------------------------------------------------------------------------------------
# Where runs live


def default_runs_dir() -> Path:
    """``$DEBUGTUTOR_RUNS_DIR`` if set, else ``./runs`` (see :mod:`debugtutor.userdirs`)."""
    return runs_dir()


def resolve_run_dir(run: str | Path, runs_dir: Path | None = None) -> Path:
    """Find a run by path, by id under ``runs_dir``, by a unique id prefix, or ``latest``; else :class:`InputError`."""
    runs_dir = runs_dir or default_runs_dir()
    as_path = Path(run)
    if (as_path / MANIFEST_FILE).is_file():
        return as_path
    candidate = runs_dir / str(run)
    if (candidate / MANIFEST_FILE).is_file():
        return candidate
    known = list_run_dirs(runs_dir)
    if str(run) == "latest" and known:
        return known[-1]
    matches = [path for path in known if path.name.startswith(str(run))]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        raise InputError(
            f"run '{run}' is ambiguous ({len(matches)} runs start with it)",
            hint="give more of the run id",
        )
    raise InputError(
        f"no run '{run}' (neither a run folder nor an id under {runs_dir})",
        hint="see `debugtutor runs list`",
    )


def list_run_dirs(runs_dir: Path | None = None) -> list[Path]:
    """Run folders (those with a manifest) under ``runs_dir``, oldest first (run ids sort by start time)."""
    runs_dir = runs_dir or default_runs_dir()
    if not runs_dir.is_dir():
        return []
    return sorted(path for path in runs_dir.iterdir() if (path / MANIFEST_FILE).is_file())


# --------------------------------------------------------------------------------------------------------------------
# Manifest


def write_json_atomic(path: Path, value: Any) -> None:
    """Replace ``path`` with ``value`` as indented JSON so that readers never see a half-written file."""
    write_text_atomic(path, json.dumps(to_jsonable(value), indent=2, ensure_ascii=False) + "\n")


def write_manifest(run_dir: Path, manifest: RunManifest) -> None:
    write_json_atomic(run_dir / MANIFEST_FILE, manifest.model_dump(mode="json"))


def read_manifest(run_dir: Path) -> RunManifest:
    path = run_dir / MANIFEST_FILE
    try:
        return RunManifest.model_validate_json(path.read_bytes())
    except FileNotFoundError as exc:
        raise InputError("no manifest.json: not a run folder", path=str(path)) from exc
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first["loc"])
        raise InputError(f"invalid manifest: {first['msg']}", path=str(path), field=field) from exc


# --------------------------------------------------------------------------------------------------------------------
# samples.jsonl


@dataclasses.dataclass
class SamplesFile:
    """What :func:`read_samples` found: the records in file order and whether the last line was cut off."""

    records: list[SampleRecord]
    torn_tail_bytes: int = 0
    valid_size: int = 0


def read_samples(path: Path) -> SamplesFile:
    """Read ``samples.jsonl``, tolerating an incomplete final line (a crash mid-write) but no other damage.

    A final line without its newline is what a process killed during ``write`` leaves behind; it is reported in
    ``torn_tail_bytes`` and not returned. A malformed complete line cannot come from a crash and raises InputError.
    """
    if not path.is_file():
        return SamplesFile(records=[])
    data = path.read_bytes()
    end = data.rfind(b"\n") + 1
    records: list[SampleRecord] = []
    for line_number, raw in enumerate(data[:end].splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            records.append(SampleRecord.model_validate_json(raw))
        except ValidationError as exc:
            raise InputError(
                f"malformed sample record: {exc.errors()[0]['msg']}",
                path=str(path),
                line=line_number,
                hint="the records were edited or damaged; remove that line to resume",
            ) from exc
    return SamplesFile(records=records, torn_tail_bytes=len(data) - end, valid_size=end)


def rewrite_samples(path: Path, records: list[SampleRecord]) -> None:
    """Atomically replace ``samples.jsonl`` with ``records`` (used to drop failed records before retrying them)."""
    write_bytes_atomic(path, b"".join(encode_record(record) for record in records))


def truncate_torn_tail(path: Path, valid_size: int) -> None:
    """Cut an incomplete last line off ``samples.jsonl`` so the next append starts on a fresh line."""
    with open(path, "r+b") as handle:
        handle.truncate(valid_size)
        handle.flush()
        os.fsync(handle.fileno())


def encode_record(record: SampleRecord) -> bytes:
    return (record.model_dump_json() + "\n").encode("utf-8")


class SamplesWriter:
    """Appends records to ``samples.jsonl``, one unbuffered ``write`` per line.

    An unbuffered write hands the whole line to the operating system before the next item starts, which is all that
    survival of SIGKILL needs (the page cache outlives the process). Calling ``fsync`` per line as well would make a
    run wait on the disk for every item (milliseconds each, more than the runner's own cost), so it is optional
    (``fsync_each``) and done once when the writer closes.
    """

    def __init__(self, path: Path, *, fsync_each: bool = False) -> None:
        self.path = path
        self.fsync_each = fsync_each
        self._handle = open(path, "ab", buffering=0)  # noqa: SIM115 (closed by close())

    def append(self, record: SampleRecord) -> None:
        payload = encode_record(record)
        written = self._handle.write(payload)
        # A short write is possible in principle on a regular file (disk full); finish the line or fail loudly.
        while written is not None and written < len(payload):
            payload = payload[written:]
            written = self._handle.write(payload)
        if self.fsync_each:
            os.fsync(self._handle.fileno())

    def close(self) -> None:
        if self._handle.closed:
            return
        try:
            os.fsync(self._handle.fileno())
        finally:
            self._handle.close()


# --------------------------------------------------------------------------------------------------------------------
# Provenance and locking


def git_commit(start: Path | None = None) -> str | None:
    """The commit of the checkout that holds the package (``+dirty`` if it has changes), or None outside git."""
    where = start or Path(__file__).resolve().parent
    try:
        head = subprocess.run(
            ["git", "-C", str(where), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5, check=False
        )
        if head.returncode != 0:
            return None
        commit = head.stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(where), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
        return commit + ("+dirty" if dirty.returncode == 0 and dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return None


@contextmanager
def run_lock(run_dir: Path) -> Iterator[None]:
    """Hold an exclusive lock on a run folder so two processes never append to the same records.

    The kernel drops the lock when its holder dies, even by SIGKILL, so a crashed run can be resumed at once.
    """
    try:
        import fcntl
    except ImportError:  # Windows: no advisory locks; one writer per run is then the user's responsibility
        yield
        return
    with open(run_dir / LOCK_FILE, "a+b") as handle:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            raise InputError(
                "another process is writing this run", path=str(run_dir), hint="wait for it or stop it first"
            ) from exc
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
