"""``debugtutor debugeval judge``: one JSON object with a verdict and reason per prediction, exit 2 on bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from debugtutor.cli.main import main

ORACLE = "class Solution:\n    def addOne(self, nums: List[int]) -> List[int]:\n        return [x + 1 for x in nums]\n"


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(args)
        raise SystemExit(0)
    captured = capsys.readouterr()
    code = exit_info.value.code
    return (code if isinstance(code, int) else 0), captured.out, captured.err


def write_shard(folder: Path) -> Path:
    folder.mkdir(parents=True)
    row = {"slug": "add-one", "description": "Add one to each.", "examples": ["Input: nums = [1,2]\nOutput: [2,3]"],
           "constraints": "", "oracle_code": ORACLE, "buggy_code": ORACLE.replace("+ 1", "+ 2")}  # fmt: skip
    (folder / "python3_operation error.json").write_text(json.dumps([row]))
    return folder


def test_judge_prints_verdicts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = write_shard(tmp_path / "bench")
    predictions = tmp_path / "predictions.jsonl"
    rows = [
        {"id": "a", "slug": "add-one", "language": "python", "code": ORACLE},
        {"id": "b", "slug": "add-one", "language": "python", "code": ORACLE.replace("+ 1", "+ 3")},
    ]
    predictions.write_text("".join(json.dumps(row) + "\n" for row in rows))
    code, stdout, _ = run_cli(
        ["debugeval", "judge", "--data", str(data), "--predictions", str(predictions), "--json"], capsys
    )
    payload = json.loads(stdout)
    assert code == 0
    assert [(r["id"], r["verdict"]) for r in payload["results"]] == [("a", "pass"), ("b", "fail")]
    assert all(r["reason"] for r in payload["results"]) and payload["counts"]["pass"] == 1


def test_judge_rejects_a_bad_predictions_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = write_shard(tmp_path / "bench")
    predictions = tmp_path / "predictions.jsonl"
    predictions.write_text('{"id": "a", "slug": "add-one", "language": "python"}\n')
    code, _, stderr = run_cli(
        ["debugeval", "judge", "--data", str(data), "--predictions", str(predictions), "--json"], capsys
    )
    assert code == 2 and "predictions.jsonl:1" in stderr and "code" in stderr
