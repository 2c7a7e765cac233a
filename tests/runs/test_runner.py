"""Tests for the runner: golden numbers, records, concurrency, executors, resume, retry, data-change detection."""

from __future__ import annotations

import asyncio
import json
import operator
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from debugtutor.errors import InputError
from debugtutor.runs import EvalItem, EvalTask, SolverOutput, read_manifest, read_samples, run_task


def _ids(run_dir: Path) -> list[str]:
    return [record.id for record in read_samples(run_dir / "samples.jsonl").records]


def test_golden_task_summary_is_exact(tmp_path: Path, golden_task: Callable[..., EvalTask]) -> None:
    result = run_task(golden_task(), runs_dir=tmp_path, argv=["debugtutor", "eval", "golden"])
    summary = result.summary
    assert result.status == "success"
    assert summary["counts"] == {"items": 4, "done": 4, "errors": 0}
    assert summary["metrics"]["correct"]["mean"] == 0.75
    assert summary["metrics"]["correct"]["n"] == 4
    assert summary["metrics"]["length"]["mean"] == 1.0  # answers "2", "4", "6", "8"
    assert summary["task_metrics"] == {"answered": 4}
    assert summary["published"][0]["ours"] == 75.0
    assert json.loads((result.run_dir / "summary.json").read_text()) == summary


def test_manifest_and_samples_record_provenance(tmp_path: Path, golden_task: Callable[..., EvalTask]) -> None:
    result = run_task(golden_task(), runs_dir=tmp_path, argv=["debugtutor", "x"])
    manifest = read_manifest(result.run_dir)
    assert manifest.status == "success"
    assert manifest.task == "golden-arith" and manifest.task_version == "2"
    assert manifest.model == "scripted:golden"
    assert manifest.argv == ["debugtutor", "x"]
    assert manifest.config == {"prompt": "none"}
    assert manifest.dataset_checksums == {"arith.jsonl": "sha256:abc"}
    assert manifest.package_version
    assert manifest.finished_at is not None and manifest.finished_at >= manifest.started_at
    assert manifest.counts.done == 4
    lines = (result.run_dir / "samples.jsonl").read_text().splitlines()
    first = json.loads(lines[0])
    assert set(first) == {"id", "input_hash", "output", "scores", "error", "usage", "timings"}
    assert first["input_hash"].startswith("sha256:")
    assert first["timings"]["solve_s"] >= 0 and first["timings"]["score_s"] >= 0
    assert sorted(json.loads(line)["id"] for line in lines) == ["a", "b", "c", "d"]


def test_runs_dir_defaults_to_the_environment(golden_task: Callable[..., EvalTask], tmp_path: Path) -> None:
    result = run_task(golden_task())
    import os

    assert result.run_dir.parent == Path(os.environ["DEBUGTUTOR_RUNS_DIR"])


def test_item_failures_are_recorded_and_the_run_goes_on(tmp_path: Path) -> None:
    def solve(item: EvalItem) -> object:
        if item.id == "bad":
            raise ValueError("cannot solve this one")
        if item.id == "odd":
            return object()  # not JSON: an item error, not a crash
        return SolverOutput(output=item.input, usage={"prompt_tokens": 7})

    task = EvalTask(
        name="failing",
        items=[EvalItem(id=name, input=name) for name in ("ok", "bad", "odd", "bare")],
        solver=solve,
        scorer=lambda item, output: 0.5 if item.id == "ok" else {"score": 1},
    )
    result = run_task(task, runs_dir=tmp_path)
    records = {record.id: record for record in read_samples(result.run_dir / "samples.jsonl").records}
    assert result.status == "partial"  # every item ran, but not every one succeeded
    assert records["bad"].error is not None
    assert records["bad"].error.type == "ValueError"
    assert records["bad"].error.message == "cannot solve this one"
    assert "raise ValueError" in records["bad"].error.traceback
    assert records["odd"].error is not None and records["odd"].error.type == "TypeError"
    assert records["ok"].scores == {"score": 0.5}
    assert records["ok"].usage == {"prompt_tokens": 7}
    assert result.summary["counts"]["errors"] == 2
    assert result.summary["usage"]["prompt_tokens"] == 14


def test_concurrency_is_bounded_and_reached(tmp_path: Path) -> None:
    in_flight = 0
    peak = 0

    async def solve(item: EvalItem) -> int:
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        await asyncio.sleep(0.01)
        in_flight -= 1
        return 1

    task = EvalTask(
        name="c", items=[EvalItem(id=str(n), input=n) for n in range(20)], solver=solve, scorer=lambda i, o: o
    )
    run_task(task, runs_dir=tmp_path, concurrency=3)
    assert peak == 3


def test_blocking_sync_solvers_run_in_threads(tmp_path: Path) -> None:
    def slow_solve(item: EvalItem) -> int:
        time.sleep(0.3)  # blocking: would serialize the run if called on the event loop
        return 1

    task = EvalTask(
        name="t", items=[EvalItem(id=str(n), input=n) for n in range(4)], solver=slow_solve, scorer=lambda i, o: o
    )
    started = time.perf_counter()
    result = run_task(task, runs_dir=tmp_path, concurrency=4)
    assert time.perf_counter() - started < 1.0
    assert result.summary["counts"]["done"] == 4


def test_async_scorer_and_inline_executor(tmp_path: Path) -> None:
    async def score(item: EvalItem, output: int) -> dict[str, float]:
        await asyncio.sleep(0)
        return {"double": float(output == 2 * item.input)}

    task = EvalTask(
        name="inline",
        items=[EvalItem(id=str(n), input=n) for n in range(5)],
        solver=lambda item: item.input * 2,
        scorer=score,
        executor="inline",
    )
    assert run_task(task, runs_dir=tmp_path).summary["metrics"]["double"]["mean"] == 1.0


@pytest.mark.slow
def test_process_executor(tmp_path: Path) -> None:
    # attrgetter and the module-level scorer pickle by reference, as a process pool requires.
    task = EvalTask(
        name="processes",
        items=[EvalItem(id=str(n), input=n) for n in range(6)],
        solver=operator.attrgetter("input"),
        scorer=operator.ne,
        executor="process",
    )
    result = run_task(task, runs_dir=tmp_path, concurrency=2)
    assert result.summary["counts"] == {"items": 6, "done": 6, "errors": 0}
    assert result.summary["metrics"]["score"]["mean"] == 1.0


def _counting_task(calls: list[str], fail: set[str], count: int = 6) -> EvalTask:
    def solve(item: EvalItem) -> int:
        calls.append(item.id)
        if item.id in fail:
            raise RuntimeError("flaky")
        return int(item.input)

    return EvalTask(
        name="counting",
        items=[EvalItem(id=f"i{n}", input=n) for n in range(count)],
        solver=solve,
        scorer=lambda item, output: {"value": output},
        executor="inline",
    )


def test_resume_skips_finished_items_and_reruns_failed_ones(tmp_path: Path) -> None:
    calls: list[str] = []
    first = run_task(_counting_task(calls, fail={"i1", "i4"}), runs_dir=tmp_path, limit=5)
    assert first.summary["counts"] == {"items": 5, "done": 5, "errors": 2}
    calls.clear()
    second = run_task(_counting_task(calls, fail=set()), runs_dir=tmp_path, resume=first.run_id)
    assert sorted(calls) == ["i1", "i4", "i5"]  # the two failures and the item beyond the old limit
    assert second.run_dir == first.run_dir
    assert sorted(_ids(first.run_dir)) == [f"i{n}" for n in range(6)]
    assert second.summary["counts"] == {"items": 6, "done": 6, "errors": 0}
    manifest = read_manifest(first.run_dir)
    assert [attempt.items_run for attempt in manifest.attempts] == [5, 3]


def test_retry_errors_reruns_only_failed_items(tmp_path: Path) -> None:
    calls: list[str] = []
    first = run_task(_counting_task(calls, fail={"i2"}), runs_dir=tmp_path, limit=4)
    calls.clear()
    result = run_task(_counting_task(calls, fail=set()), runs_dir=tmp_path, resume=first.run_id, retry_errors=True)
    assert calls == ["i2"]  # not i4 and i5, which were never attempted
    assert sorted(_ids(first.run_dir)) == ["i0", "i1", "i2", "i3"]
    assert result.summary["counts"]["errors"] == 0


def test_retry_errors_needs_resume(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="--retry-errors needs --resume"):
        run_task(_counting_task([], set()), runs_dir=tmp_path, retry_errors=True)


def test_resume_truncates_a_torn_last_line(tmp_path: Path) -> None:
    calls: list[str] = []
    first = run_task(_counting_task(calls, fail=set()), runs_dir=tmp_path, limit=3)
    samples = first.run_dir / "samples.jsonl"
    with open(samples, "ab") as handle:
        handle.write(b'{"id": "i3", "input_ha')  # what a kill in the middle of a write would leave
    calls.clear()
    run_task(_counting_task(calls, fail=set()), runs_dir=tmp_path, resume=first.run_id)
    assert sorted(calls) == ["i3", "i4", "i5"]
    text = samples.read_text()
    assert text.endswith("\n")
    assert sorted(json.loads(line)["id"] for line in text.splitlines()) == [f"i{n}" for n in range(6)]


def test_resume_detects_changed_inputs_unless_forced(tmp_path: Path) -> None:
    calls: list[str] = []
    first = run_task(_counting_task(calls, fail=set(), count=3), runs_dir=tmp_path)
    changed = _counting_task(calls, fail=set(), count=3)
    changed.items = [EvalItem(id=item.id, input=item.input + (10 if item.id == "i1" else 0)) for item in changed.items]
    with pytest.raises(InputError, match="the data changed") as caught:
        run_task(changed, runs_dir=tmp_path, resume=first.run_id)
    assert "'i1'" in str(caught.value) and caught.value.exit_code == 2
    calls.clear()
    result = run_task(changed, runs_dir=tmp_path, resume=first.run_id, force=True)
    assert calls == ["i1"]
    assert sorted(_ids(first.run_dir)) == ["i0", "i1", "i2"]
    assert result.summary["metrics"]["value"]["mean"] == pytest.approx((0 + 11 + 2) / 3)


def test_resume_refuses_another_task_and_unknown_runs(tmp_path: Path, golden_task: Callable[..., EvalTask]) -> None:
    first = run_task(golden_task(), runs_dir=tmp_path)
    with pytest.raises(InputError, match="is of task 'golden-arith'"):
        run_task(_counting_task([], set()), runs_dir=tmp_path, resume=first.run_id)
    with pytest.raises(InputError, match="no run"):
        run_task(golden_task(), runs_dir=tmp_path, resume="does-not-exist")
    with pytest.raises(InputError, match="exists already"):
        run_task(golden_task(), runs_dir=tmp_path, run_id=first.run_id)


def test_duplicate_item_ids_are_rejected() -> None:
    with pytest.raises(InputError, match="two items with id 'x'"):
        EvalTask(
            name="d",
            items=[EvalItem(id="x", input=1), EvalItem(id="x", input=2)],
            solver=str,
            scorer=lambda item, output: 0,
        )


def test_summarize_failure_keeps_the_records(tmp_path: Path, golden_task: Callable[..., EvalTask]) -> None:
    def broken(records: object) -> dict[str, float]:
        raise KeyError("oops")

    result = run_task(golden_task(summarize=broken), runs_dir=tmp_path)
    assert result.status == "success"
    assert "KeyError" in result.summary["task_metrics"]["summarize_error"]
    assert result.summary["metrics"]["correct"]["mean"] == 0.75


def test_a_new_run_that_cannot_start_leaves_no_folder(tmp_path: Path) -> None:
    task = EvalTask(
        name="bad-config",
        items=[EvalItem(id="a", input=1)],
        solver=str,
        scorer=lambda item, output: 0,
        config={"x": object()},
    )
    with pytest.raises(TypeError, match="not JSON-serializable"):
        run_task(task, runs_dir=tmp_path, run_id="never")
    assert not (tmp_path / "never").exists()
