"""Tests for the record formats: hashing, run ids, torn-line tolerance, run lookup, provenance."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from pydantic import BaseModel

from debugtutor.errors import InputError
from debugtutor.runs import (
    SampleRecord,
    canonical_json,
    input_hash,
    new_run_id,
    read_samples,
    resolve_run_dir,
)
from debugtutor.runs._records import git_commit, run_lock, to_jsonable


def test_input_hash_ignores_key_order_but_not_values() -> None:
    assert input_hash({"a": 1, "b": [1, 2]}) == input_hash({"b": [1, 2], "a": 1})
    assert input_hash({"a": 1}) != input_hash({"a": 2})
    assert input_hash({"a": 1}).startswith("sha256:")
    assert canonical_json({"b": "é", "a": 1}) == '{"a":1,"b":"é"}'


def test_to_jsonable_converts_models_and_dataclasses_and_rejects_objects() -> None:
    class Point(BaseModel):
        x: int

    @dataclasses.dataclass
    class Pair:
        left: int
        right: tuple[int, int]

    assert to_jsonable({"p": Point(x=1), "q": Pair(1, (2, 3)), "s": {3, 1}}) == {
        "p": {"x": 1},
        "q": {"left": 1, "right": [2, 3]},
        "s": [1, 3],
    }
    with pytest.raises(TypeError, match="object is not JSON-serializable"):
        to_jsonable(object())


def test_run_ids_sort_by_time_and_do_not_collide() -> None:
    import datetime as dt

    early = new_run_id(dt.datetime(2025, 1, 2, 3, 4, 5, 6000, tzinfo=dt.timezone.utc))
    late = new_run_id(dt.datetime(2025, 1, 2, 3, 4, 5, 7000, tzinfo=dt.timezone.utc))
    assert early.startswith("20250102T030405006Z-")
    assert early < late
    assert len({new_run_id() for _ in range(200)}) == 200


def _record_line(item_id: str) -> str:
    return SampleRecord(id=item_id, input_hash="sha256:x", output=1, scores={"s": 1.0}).model_dump_json() + "\n"


def test_read_samples_ignores_a_torn_last_line(tmp_path: Path) -> None:
    path = tmp_path / "samples.jsonl"
    complete = _record_line("a") + _record_line("b")
    path.write_text(complete + _record_line("c")[:17], encoding="utf-8")
    found = read_samples(path)
    assert [record.id for record in found.records] == ["a", "b"]
    assert found.torn_tail_bytes == 17
    assert found.valid_size == len(complete.encode())


def test_read_samples_rejects_a_damaged_complete_line(tmp_path: Path) -> None:
    path = tmp_path / "samples.jsonl"
    path.write_text(_record_line("a") + "{not json}\n" + _record_line("b"), encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_samples(path)
    assert caught.value.line == 2


def test_nan_scores_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "samples.jsonl"
    record = SampleRecord(id="a", input_hash="h", scores={"bleu": float("nan")})
    path.write_text(record.model_dump_json() + "\n", encoding="utf-8")
    value = read_samples(path).records[0].scores["bleu"]
    assert isinstance(value, float) and value != value


def _make_run(runs_dir: Path, run_id: str) -> Path:
    run_dir = runs_dir / run_id
    run_dir.mkdir(parents=True)
    (run_dir / "manifest.json").write_text(json.dumps({"run_id": run_id}), encoding="utf-8")
    return run_dir


def test_resolve_run_dir_by_id_path_prefix_and_latest(tmp_path: Path) -> None:
    first = _make_run(tmp_path, "20250101T000000000Z-aaaaaa")
    second = _make_run(tmp_path, "20250202T000000000Z-bbbbbb")
    assert resolve_run_dir("20250101T000000000Z-aaaaaa", tmp_path) == first
    assert resolve_run_dir(str(second), tmp_path / "elsewhere") == second
    assert resolve_run_dir("202502", tmp_path) == second
    assert resolve_run_dir("latest", tmp_path) == second
    with pytest.raises(InputError, match="ambiguous"):
        resolve_run_dir("2025", tmp_path)
    with pytest.raises(InputError, match="no run 'missing'") as caught:
        resolve_run_dir("missing", tmp_path)
    assert caught.value.exit_code == 2


def test_default_runs_dir_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from debugtutor.runs import default_runs_dir

    monkeypatch.setenv("DEBUGTUTOR_RUNS_DIR", str(tmp_path / "elsewhere"))
    assert default_runs_dir() == tmp_path / "elsewhere"
    monkeypatch.delenv("DEBUGTUTOR_RUNS_DIR")
    assert default_runs_dir() == Path("runs")


def test_git_commit_is_none_outside_a_repository(tmp_path: Path) -> None:
    assert git_commit(tmp_path) is None


def test_run_lock_refuses_a_second_writer(tmp_path: Path) -> None:
    with run_lock(tmp_path), pytest.raises(InputError, match="another process"), run_lock(tmp_path):
        pass
    with run_lock(tmp_path):  # released again after the first holder left
        assert (tmp_path / ".lock").exists()
