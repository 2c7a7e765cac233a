"""A run says how it ended: success only when every item succeeded; partial, failed, or stopped with a reason."""

from __future__ import annotations

import json
from pathlib import Path

from debugtutor.errors import ModelUnavailableError
from debugtutor.report import write_report
from debugtutor.runs import EvalItem, EvalTask, run_task
from debugtutor.runs._records import read_manifest


def task_failing(failing: set[int], count: int = 6, stop_at: int | None = None) -> EvalTask:
    async def solve(item: EvalItem) -> int:
        n = item.input["n"]
        if stop_at is not None and n >= stop_at:
            raise ModelUnavailableError("m: stopped calling the model after 3 calls in a row failed")
        if n in failing:
            raise RuntimeError(f"item {n} broke")
        return n

    return EvalTask(
        name="toy",
        items=[EvalItem(id=f"i{n}", input={"n": n}) for n in range(count)],
        solver=solve,
        scorer=lambda item, output: {"ok": True},
    )


def test_all_items_fine_is_success(tmp_path: Path) -> None:
    result = run_task(task_failing(set()), runs_dir=tmp_path, concurrency=2)
    assert result.status == "success"


def test_some_items_failing_is_partial_and_the_report_says_so(tmp_path: Path) -> None:
    result = run_task(task_failing({1, 4}), runs_dir=tmp_path, concurrency=2, report=write_report)
    assert result.status == "partial"
    assert result.summary["counts"] == {"items": 6, "done": 6, "errors": 2}
    assert read_manifest(result.run_dir).status == "partial"
    report = (result.run_dir / "report.html").read_text()
    assert "Incomplete run" in report and f"--resume {result.run_id} --retry-errors" in report
    # finishing the failed items turns it into a success
    fixed = run_task(task_failing(set()), runs_dir=tmp_path, resume=result.run_id, retry_errors=True)
    assert fixed.status == "success" and fixed.summary["counts"]["errors"] == 0


def test_every_item_failing_is_failed(tmp_path: Path) -> None:
    result = run_task(task_failing(set(range(6))), runs_dir=tmp_path, concurrency=3)
    assert result.status == "failed"
    assert result.summary["metrics"] == {}
    summary = json.loads((result.run_dir / "summary.json").read_text())
    assert summary["status"] == "failed" and summary["counts"]["errors"] == 6


def test_a_model_that_stopped_answering_stops_the_run(tmp_path: Path) -> None:
    result = run_task(task_failing(set(), count=40, stop_at=3), runs_dir=tmp_path, concurrency=1)
    assert result.status == "failed"
    manifest = read_manifest(result.run_dir)
    assert manifest.stop_reason is not None and "stopped calling the model" in manifest.stop_reason
    assert manifest.counts.done == 4  # three good items, the one that stopped it; nothing after
    resumed = run_task(task_failing(set(), count=40), runs_dir=tmp_path, resume=result.run_id)
    assert resumed.status == "success" and resumed.summary["counts"]["done"] == 40
