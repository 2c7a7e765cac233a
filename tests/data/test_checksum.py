"""dataset_checksum: stable for the same files, different when any file, name or membership changes."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from debugtutor.data import dataset_checksum
from debugtutor.errors import InputError


def _make(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return folder


FILES = {"a.json": "[1]", "sub/b.txt": "hello", "sub/deeper/c.txt": "x"}


def test_checksum_is_stable_and_independent_of_location_and_creation_order(tmp_path: Path) -> None:
    first = _make(tmp_path / "one", FILES)
    second = _make(tmp_path / "two", dict(reversed(list(FILES.items()))))
    os.utime(second / "a.json", (1, 1))
    assert dataset_checksum(first) == dataset_checksum(first) == dataset_checksum(second)
    assert len(dataset_checksum(first)) == 64


@pytest.mark.parametrize(
    "change",
    ["edit", "rename", "add", "remove", "move"],
)
def test_checksum_changes_with_the_files(tmp_path: Path, change: str) -> None:
    folder = _make(tmp_path / "data", FILES)
    before = dataset_checksum(folder)
    if change == "edit":
        (folder / "sub/b.txt").write_text("hellO")
    elif change == "rename":
        (folder / "a.json").rename(folder / "a2.json")
    elif change == "add":
        (folder / "new.txt").write_text("")
    elif change == "remove":
        (folder / "sub/deeper/c.txt").unlink()
    else:
        shutil.move(folder / "sub/deeper/c.txt", folder / "sub/c.txt")
    assert dataset_checksum(folder) != before


def test_checksum_of_a_file_and_of_a_missing_path(tmp_path: Path) -> None:
    folder = _make(tmp_path / "data", FILES)
    assert dataset_checksum(folder / "a.json") != dataset_checksum(folder / "sub/b.txt")
    with pytest.raises(InputError, match="does not exist"):
        dataset_checksum(tmp_path / "absent")


def test_checksum_of_thousands_of_small_files_is_fast(tmp_path: Path) -> None:
    files = {f"shard{i % 7}/item{i}.json": f'{{"id": {i}}}' for i in range(3000)}
    folder = _make(tmp_path / "many", files)
    started = time.monotonic()
    digest = dataset_checksum(folder)
    assert time.monotonic() - started < 10
    assert dataset_checksum(folder) == digest
    (folder / "shard0/item0.json").write_text('{"id": -1}')
    assert dataset_checksum(folder) != digest


@pytest.mark.shared_data
def test_checksum_of_the_shared_copy_is_stable(shared_data: Path) -> None:
    folder = shared_data / "studentsyn"
    assert dataset_checksum(folder) == dataset_checksum(folder)
