"""Writing files and folders so that a crash or kill -9 leaves the old version or nothing, never half of one.

A file is written to a temporary name in the same folder, flushed to disk and renamed over the target. A folder is
built under a temporary name beside the target and renamed into place once complete; an earlier folder of that name
is moved aside first and removed only after the new one is in place.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` in one rename (flushed to disk first)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temp_name, path)
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise


def write_text_atomic(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` (UTF-8) in one rename."""
    write_bytes_atomic(path, text.encode("utf-8"))


def write_json_atomic(path: Path, value: Any) -> None:
    """Replace ``path`` with ``value`` as indented JSON in one rename."""
    write_text_atomic(path, json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True) + "\n")


@contextmanager
def building_folder(target: Path) -> Iterator[Path]:
    """Yield an empty temporary folder beside ``target``; on a clean exit it becomes ``target`` (replacing any)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = Path(tempfile.mkdtemp(prefix=f".{target.name}.building-", dir=target.parent))
    try:
        yield temporary
    except BaseException:
        shutil.rmtree(temporary, ignore_errors=True)
        raise
    old: Path | None = None
    if target.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
        os.replace(target, old / target.name)
    os.replace(temporary, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def remove_stale_builds(parent: Path, name: str) -> None:
    """Delete leftovers of :func:`building_folder` for ``name`` that a killed process left in ``parent``."""
    if not parent.is_dir():
        return
    for leftover in parent.glob(f".{name}.building-*"):
        shutil.rmtree(leftover, ignore_errors=True)
    for leftover in parent.glob(f".{name}.old-*"):
        shutil.rmtree(leftover, ignore_errors=True)
