"""Small DebugEval-format folders built from debugtutor's own samples, with a train and a test split."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from debugtutor.master.sources import TASK3_FILE, TASK124_FILE, sample_folder

TRAIN_SLUGS = ("count-evens-below", "reverse-words", "running-maximum")


@pytest.fixture
def split_folder(tmp_path: Path) -> Path:
    """The built-in sample with three problems marked train and two left as test."""
    out = tmp_path / "debugeval"
    out.mkdir()
    for name in (TASK124_FILE, TASK3_FILE):
        lines = []
        for line in (sample_folder() / name).read_text().splitlines():
            record = json.loads(line)
            record["split"] = "train" if record["slug"] in TRAIN_SLUGS else "test"
            lines.append(json.dumps(record))
        (out / name).write_text("\n".join(lines) + "\n")
    return out
