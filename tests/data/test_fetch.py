"""Fetching against a loopback mirror: download, verify, unpack, trust on first use, failures that leave nothing."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from debugtutor.data import REGISTRY, DatasetEntry, LayoutPart, dataset_path, fetch_dataset, fetched_path, store
from debugtutor.errors import DataError, InputError

DEBUGBENCH = REGISTRY["debugbench"]
SHARDS = {
    "benchmark/python3_faulty indexing.json": b'[{"slug": "two-sum"}]',
    "benchmark/cpp_double.json": b'[{"slug": "add-two"}]',
    "dataset_construction/notes.md": b"not part of the dataset",
    "README.md": b"# DebugBench",
}


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _files_under(folder: Path) -> dict[str, bytes]:
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in folder.rglob("*") if path.is_file()}


def _leftovers(folder: Path) -> list[str]:
    """Entries in a dataset's cache folder other than the fetch lock file and the two records."""
    keep = {f"{DEBUGBENCH.commit}{suffix}" for suffix in (".lock", ".sha256.json", ".fetched.json")}
    return sorted(path.name for path in folder.iterdir() if path.name not in keep) if folder.exists() else []


@pytest.fixture
def debugbench_archive(mirror: Any, github_archive: Callable[..., bytes]) -> bytes:
    archive = github_archive(DEBUGBENCH.repo, DEBUGBENCH.commit, SHARDS)
    mirror.serve_archive(DEBUGBENCH.repo, DEBUGBENCH.commit, archive)
    return archive


def test_fetch_unpacks_the_layout_and_records_the_first_digest(
    debugbench_archive: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    result = fetch_dataset("debugbench")

    assert result.downloaded and result.verification == "first-use"
    assert result.sha256 == _sha256(debugbench_archive)
    assert result.path == store.default_location(DEBUGBENCH)
    assert _files_under(result.path) == {
        "python3_faulty indexing.json": SHARDS["benchmark/python3_faulty indexing.json"],
        "cpp_double.json": SHARDS["benchmark/cpp_double.json"],
    }
    lock = json.loads(store.checksum_lock_path(DEBUGBENCH).read_text())
    assert lock["sha256"] == _sha256(debugbench_archive) and lock["source"] == "first-use"
    assert "NO PINNED CHECKSUM" in " ".join(capsys.readouterr().err.split())
    assert dataset_path("debugbench") == result.path == fetched_path("debugbench")
    assert _leftovers(store.entry_folder(DEBUGBENCH)) == [DEBUGBENCH.commit]


def test_second_fetch_reuses_the_first_without_downloading(debugbench_archive: bytes, mirror: Any) -> None:
    first = fetch_dataset("debugbench")
    second = fetch_dataset("debugbench")
    assert not second.downloaded and second.verification == "cached"
    assert second.path == first.path and second.sha256 == first.sha256
    assert sum(mirror.hits.values()) == 1


def test_recorded_digest_is_enforced_on_later_fetches(
    debugbench_archive: bytes, mirror: Any, github_archive: Callable[..., bytes]
) -> None:
    first = fetch_dataset("debugbench")
    again = fetch_dataset("debugbench", force=True)
    assert again.downloaded and again.verification == "lock"

    changed = github_archive(DEBUGBENCH.repo, DEBUGBENCH.commit, {**SHARDS, "benchmark/java_x.json": b"[]"})
    url = mirror.serve_archive(DEBUGBENCH.repo, DEBUGBENCH.commit, changed)
    with pytest.raises(DataError) as info:
        fetch_dataset("debugbench", force=True)
    message = str(info.value)
    assert url in message and first.sha256 in message and _sha256(changed) in message
    assert "sha256.json" in message  # points at the lock file to delete when the change is expected
    # The earlier complete fetch is untouched and no partial download is left behind.
    assert "java_x.json" not in _files_under(first.path)
    assert _leftovers(store.entry_folder(DEBUGBENCH)) == [DEBUGBENCH.commit]

    pinned = fetch_dataset("debugbench", force=True, sha256=_sha256(changed).upper())
    assert pinned.verification == "user" and "java_x.json" in _files_under(pinned.path)
    lock = json.loads(store.checksum_lock_path(DEBUGBENCH).read_text())
    assert lock["sha256"] == _sha256(changed) and lock["source"] == "user"


def test_pinned_checksum_mismatch_keeps_nothing(
    mirror: Any, github_archive: Callable[..., bytes], capsys: pytest.CaptureFixture[str]
) -> None:
    entry = DEBUGBENCH.model_copy(update={"sha256": "0" * 64})
    archive = github_archive(entry.repo, entry.commit, SHARDS)
    url = mirror.serve_archive(entry.repo, entry.commit, archive)
    with pytest.raises(DataError) as info:
        fetch_dataset("debugbench", registry={"debugbench": entry})
    message = str(info.value)
    assert url in message and "0" * 64 in message and _sha256(archive) in message
    assert _leftovers(store.entry_folder(entry)) == []
    assert not store.checksum_lock_path(entry).exists() and not store.fetch_record_path(entry).exists()
    assert "NO PINNED CHECKSUM" not in capsys.readouterr().err


def test_pinned_checksum_match_is_verified(mirror: Any, github_archive: Callable[..., bytes]) -> None:
    archive = github_archive(DEBUGBENCH.repo, DEBUGBENCH.commit, SHARDS)
    entry = DEBUGBENCH.model_copy(update={"sha256": _sha256(archive)})
    mirror.serve_archive(entry.repo, entry.commit, archive)
    result = fetch_dataset("debugbench", registry={"debugbench": entry})
    assert result.verification == "pinned"
    assert not store.checksum_lock_path(entry).exists()  # a pinned entry needs no trust-on-first-use record


def test_wrong_sha256_option_is_rejected_before_downloading(debugbench_archive: bytes, mirror: Any) -> None:
    with pytest.raises(InputError, match="--sha256"):
        fetch_dataset("debugbench", sha256="abc")
    assert mirror.hits == {}


def test_archive_with_parent_member_is_rejected(mirror: Any, github_archive: Callable[..., bytes]) -> None:
    import io
    import tarfile

    buffer = io.BytesIO(github_archive(DEBUGBENCH.repo, DEBUGBENCH.commit, SHARDS))
    evil = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="r:gz") as source, tarfile.open(fileobj=evil, mode="w:gz") as target:
        for member in source.getmembers():
            target.addfile(member, source.extractfile(member) if member.isfile() else None)
        info = tarfile.TarInfo("../evil")
        info.size = 4
        target.addfile(info, io.BytesIO(b"evil"))
    mirror.serve_archive(DEBUGBENCH.repo, DEBUGBENCH.commit, evil.getvalue())

    with pytest.raises(DataError, match=r"\.\./evil"):
        fetch_dataset("debugbench")
    folder = store.entry_folder(DEBUGBENCH)
    assert _leftovers(folder) == []
    assert not (folder / "evil").exists() and not (folder.parent / "evil").exists()
    assert not store.checksum_lock_path(DEBUGBENCH).exists()  # a rejected archive is not trusted


def test_unreachable_server_fails_fast_with_the_data_hint(closed_port_url: str) -> None:
    started = time.monotonic()
    with pytest.raises(DataError) as info:
        fetch_dataset("debugbench", mirror=closed_port_url)
    assert time.monotonic() - started < 5
    message = str(info.value)
    assert "\n" not in message and closed_port_url in message and "--data PATH" in message
    assert _leftovers(store.entry_folder(DEBUGBENCH)) == []


@pytest.mark.parametrize(("status", "expected_tries"), [(404, 1), (503, 2)])
def test_http_errors_name_the_status_and_retry_only_server_errors(
    mirror: Any, status: int, expected_tries: int
) -> None:
    url = mirror.serve_archive(DEBUGBENCH.repo, DEBUGBENCH.commit, status)
    with pytest.raises(DataError, match=str(status)):
        fetch_dataset("debugbench")
    assert mirror.hits[url.removeprefix(mirror.base_url)] == expected_tries


def test_dest_puts_the_dataset_there_and_path_finds_it(debugbench_archive: bytes, tmp_path: Path) -> None:
    dest = tmp_path / "mine" / "debugbench"
    result = fetch_dataset("debugbench", dest=dest)
    assert result.path == dest.resolve()
    assert sorted(_files_under(dest)) == ["cpp_double.json", "python3_faulty indexing.json"]
    assert not store.default_location(DEBUGBENCH).exists()
    assert dataset_path("debugbench") == dest.resolve()
    assert sorted(path.name for path in dest.parent.iterdir()) == ["debugbench"]  # no scratch folders left


def test_dest_refuses_to_overwrite_unrelated_files_unless_forced(debugbench_archive: bytes, tmp_path: Path) -> None:
    dest = tmp_path / "occupied"
    dest.mkdir()
    (dest / "keep.txt").write_text("mine")
    with pytest.raises(InputError, match="--force"):
        fetch_dataset("debugbench", dest=dest)
    assert (dest / "keep.txt").read_text() == "mine"
    fetch_dataset("debugbench", dest=dest, force=True)
    assert sorted(_files_under(dest)) == ["cpp_double.json", "python3_faulty indexing.json"]


def test_concurrent_fetches_download_once(debugbench_archive: bytes, mirror: Any) -> None:
    mirror.delay_s = 0.3  # keep the first download in flight while the second fetch arrives
    results: list[Any] = []
    errors: list[BaseException] = []

    def fetch() -> None:
        try:
            results.append(fetch_dataset("debugbench"))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=fetch) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert errors == []
    assert sum(mirror.hits.values()) == 1
    assert sorted(result.downloaded for result in results) == [False, True]
    assert results[0].path == results[1].path


def test_studentsyn_layout_maps_three_archive_folders(mirror: Any, github_archive: Callable[..., bytes]) -> None:
    entry = REGISTRY["studentsyn"]
    files = {
        "data/benchmark/hoc4/task/hoc4_task.txt": b"grid",
        "data/benchmark/hoc18/info.tsv": b"a\tb",
        "data/symSS/hoc18/distractor_paths/hoc18_code_distractors.json": b"[]",
        "data/tutorSS/hoc4/codes_hoc4a.tsv": b"x",
        "code/emulator.py": b"pass",
    }
    mirror.serve_archive(entry.repo, entry.commit, github_archive(entry.repo, entry.commit, files))
    result = fetch_dataset("studentsyn")
    assert sorted(_files_under(result.path)) == [
        "hoc18/info.tsv",
        "hoc4/task/hoc4_task.txt",
        "symss_hoc18_distractor_paths/hoc18_code_distractors.json",
        "tutorSS/hoc4/codes_hoc4a.tsv",
    ]


def test_missing_layout_folder_is_an_error(mirror: Any, github_archive: Callable[..., bytes]) -> None:
    mirror.serve_archive(
        DEBUGBENCH.repo, DEBUGBENCH.commit, github_archive(DEBUGBENCH.repo, DEBUGBENCH.commit, {"README.md": b"x"})
    )
    with pytest.raises(DataError, match="no folder 'benchmark'"):
        fetch_dataset("debugbench")
    assert _leftovers(store.entry_folder(DEBUGBENCH)) == []


def test_dataset_path_prefers_data_and_validates_it(tmp_path: Path) -> None:
    assert dataset_path("socratic", tmp_path) == tmp_path
    with pytest.raises(InputError, match="does not exist"):
        dataset_path("socratic", tmp_path / "absent")
    with pytest.raises(DataError) as info:
        dataset_path("socratic")
    assert "debugtutor data fetch socratic" in str(info.value) and "--data PATH" in str(info.value)
    with pytest.raises(InputError, match="unknown dataset"):
        dataset_path("no-such-dataset", tmp_path)


def test_custom_registry_entry(mirror: Any, github_archive: Callable[..., bytes]) -> None:
    entry = DatasetEntry(
        name="toy",
        title="a toy dataset",
        repo="someone/toy-data",
        commit="1" * 40,
        layout=(LayoutPart(source="data/items"),),
        license="CC0",
    )
    mirror.serve_archive(entry.repo, entry.commit, github_archive(entry.repo, entry.commit, {"data/items/a": b"1"}))
    result = fetch_dataset("toy", registry={"toy": entry})
    assert _files_under(result.path) == {"a": b"1"}
    assert dataset_path("toy", registry={"toy": entry}) == result.path


def _archive_path_for(entry: DatasetEntry, relative: str) -> str:
    """Where a file of the local layout sits in the upstream archive: the inverse of the entry's layout."""
    parts = sorted(entry.layout, key=lambda part: len(part.target), reverse=True)
    for part in parts:
        if not part.target or relative == part.target or relative.startswith(part.target + "/"):
            inner = relative[len(part.target) :].lstrip("/") if part.target else relative
            return f"{part.source}/{inner}" if part.source else inner
    raise AssertionError(f"no layout part holds {relative}")


@pytest.mark.shared_data
@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_fetched_layout_reads_like_the_shared_copy(
    name: str, shared_data: Path, mirror: Any, github_archive: Callable[..., bytes]
) -> None:
    from debugtutor.data import dataset_checksum

    entry = REGISTRY[name]
    local = shared_data / name
    files = {_archive_path_for(entry, rel): data for rel, data in _files_under(local).items()}
    files["README.md"] = b"upstream files outside the layout are not unpacked"
    mirror.serve_archive(entry.repo, entry.commit, github_archive(entry.repo, entry.commit, files))
    result = fetch_dataset(name)
    assert dataset_checksum(result.path) == dataset_checksum(local)
