"""Real benchmark folders through the annotation store: unchanged files come back byte for byte, and
``debugtutor socratic stats`` prints the same counts for the export as for the original folder."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from debugtutor.web.dialogues import DialogueStore, files_from_folder
from debugtutor.web.store import Database


def _stats(folder: Path) -> dict[str, object]:
    result = subprocess.run(
        [sys.executable, "-m", "debugtutor.cli.main", "socratic", "stats", "--data", str(folder), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    data = json.loads(result.stdout)
    del data["data"]  # the folder's own path
    return data


@pytest.mark.shared_data
@pytest.mark.slow
def test_benchmark_folders_round_trip_byte_for_byte(shared_data: Path, tmp_path: Path) -> None:
    folders = sorted({path.parent for path in (shared_data / "socratic").rglob("*.txt")})
    assert any(folder.name == "train" for folder in folders), "../shared/data/socratic lacks v2_sigcse/train"
    store = DialogueStore(Database(tmp_path / "web.sqlite3"))
    for number, folder in enumerate(folders):
        collection = store.create_collection(f"folder {number}")
        store.import_files(collection, files_from_folder(folder), "ann")
        out = tmp_path / f"export-{number}"
        written = store.export_folder(collection, out)
        originals = sorted(folder.glob("*.txt"))
        assert [p.name for p in written] == [p.name for p in originals], folder
        for path in originals:
            assert (out / path.name).read_bytes() == path.read_bytes(), path
        if folder.name == "train":
            # identical bytes imply identical counts; the CLI itself is run on the folder the issue names
            assert _stats(out) == _stats(folder), folder
