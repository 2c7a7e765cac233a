"""Reading DebugBench shards: a record that lacks a field is reported, never dropped in silence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from debugtutor.debugeval.debugbench import load_debugbench
from debugtutor.errors import InputError

GOOD = {
    "slug": "add-one",
    "description": "Add one.",
    "examples": ["Input: x = 1\nOutput: 2"],
    "oracle_code": "class Solution:\n    def f(self, x):\n        return x + 1\n",
    "buggy_code": "x",
}


def test_a_record_without_a_required_field_is_an_error_or_counted(tmp_path: Path) -> None:
    shard = tmp_path / "python3_condition error.json"
    shard.write_text(json.dumps([GOOD, {**GOOD, "oracle_code": ""}, {"slug": "no-code"}]))
    with pytest.raises(InputError, match=r"record 2 \(add-one\) has no oracle_code") as raised:
        load_debugbench(tmp_path)
    assert raised.value.path == str(shard) and raised.value.field == "oracle_code"
    invalid: list[str] = []
    items = load_debugbench(tmp_path, skip_invalid=True, invalid=invalid)
    assert len(items) == 1 and len(invalid) == 2
    assert "record 3 (no-code): no buggy_code, oracle_code, description" in invalid[1]


def test_the_build_command_counts_what_it_left_out(tmp_path: Path) -> None:
    import subprocess
    import sys

    data = tmp_path / "bench"
    data.mkdir()
    (data / "python3_condition error.json").write_text(json.dumps([GOOD, {"slug": "broken"}]))
    command = [sys.executable, "-m", "debugtutor.cli.main", "debugeval", "build", "--source", "debugbench"]
    command += ["--data", str(data), "--out", str(tmp_path / "out")]
    refused = subprocess.run([*command, "--json"], capture_output=True, text=True, check=False)
    assert refused.returncode == 2 and "record 2 (broken) has no buggy_code" in refused.stderr
    done = subprocess.run([*command, "--skip-invalid", "--json"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["dropped"]["invalid source record (left out by --skip-invalid)"] == 1


@pytest.mark.shared_data
def test_a_stopped_build_resumes_from_its_tests_cache(
    shared_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from debugtutor.debugeval import problem_tests
    from debugtutor.debugeval.build import BuildSettings, build_from_debugbench

    shard = sorted((shared_data / "debugbench").glob("python3_*.json"))[0]
    rows = json.loads(shard.read_text())[:6]
    (tmp_path / shard.name).write_text(json.dumps(rows))
    items = load_debugbench(tmp_path)
    settings = BuildSettings(tests_cache=tmp_path / "cache", workers=1)
    _, first, _ = build_from_debugbench(items, settings)
    assert list((tmp_path / "cache").rglob("*.json"))  # what a killed build keeps

    def no_derivation(*args: object, **kwargs: object) -> object:
        raise AssertionError("derived again although the cache holds the problem")

    monkeypatch.setattr(problem_tests, "derive_problem_tests", no_derivation)
    _, again, _ = build_from_debugbench(items, settings)
    assert [record.model_dump() for record in again] == [record.model_dump() for record in first]
