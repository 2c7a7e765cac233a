"""Tests for summaries: exact means, seeded bootstrap intervals, usage totals, published-number lookup."""

from __future__ import annotations

import pytest

from debugtutor.runs import ErrorInfo, RunManifest, SampleRecord, Timings, bootstrap_mean_ci, summarize_records


def _manifest(**fields: object) -> RunManifest:
    values: dict[str, object] = {
        "run_id": "r",
        "task": "t",
        "package_version": "0",
        "started_at": "2025-01-01T00:00:00+00:00",
    }
    values.update(fields)
    return RunManifest.model_validate(values)


def _record(item_id: str, correct: float, **fields: object) -> SampleRecord:
    return SampleRecord.model_validate(
        {"id": item_id, "input_hash": "h", "scores": {"correct": correct}, "timings": {"solve_s": 0.5}, **fields}
    )


def test_bootstrap_interval_is_seeded_and_brackets_the_mean() -> None:
    values = [1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0]
    low, high = bootstrap_mean_ci(values)
    assert (low, high) == bootstrap_mean_ci(values)
    assert 0.0 <= low < 0.75 < high <= 1.0
    assert bootstrap_mean_ci([0.3, 0.3, 0.3]) == pytest.approx((0.3, 0.3))
    assert bootstrap_mean_ci([2.0]) == (2.0, 2.0)


def test_bootstrap_interval_narrows_with_more_data() -> None:
    small = bootstrap_mean_ci([1.0, 0.0] * 5)
    large = bootstrap_mean_ci([1.0, 0.0] * 500)
    assert large[1] - large[0] < small[1] - small[0]


def test_summary_counts_means_and_excludes_failed_items() -> None:
    records = [
        _record("a", 1.0),
        _record("b", 0.0),
        _record("c", 1.0),
        _record("d", 1.0),
        SampleRecord(id="e", input_hash="h", error=ErrorInfo(type="ValueError", message="x"), timings=Timings()),
    ]
    summary = summarize_records(_manifest(counts={"items": 6}), records)
    assert summary["counts"] == {"items": 6, "done": 5, "errors": 1}
    assert summary["metrics"]["correct"]["mean"] == 0.75
    assert summary["metrics"]["correct"]["n"] == 4
    assert summary["error_types"] == {"ValueError": 1}


def test_summary_keeps_the_last_record_of_an_id() -> None:
    summary = summarize_records(_manifest(), [_record("a", 0.0), _record("a", 1.0)])
    assert summary["counts"]["done"] == 1
    assert summary["metrics"]["correct"]["mean"] == 1.0


def test_usage_totals_and_string_labels() -> None:
    records = [
        _record("a", 1.0, usage={"prompt_tokens": 10, "cached": True}, scores={"verdict": "fixed"}),
        _record("b", 1.0, usage={"prompt_tokens": 5, "completion_tokens": 2}, scores={"verdict": "fixed"}),
        _record("c", 1.0, scores={"verdict": "wrong"}),
    ]
    summary = summarize_records(_manifest(), records)
    assert summary["usage"]["prompt_tokens"] == 15
    assert summary["usage"]["completion_tokens"] == 2
    assert "cached" not in summary["usage"]
    assert summary["usage"]["solve_s_total"] == pytest.approx(1.5)
    assert summary["labels"] == {"verdict": {"fixed": 2, "wrong": 1}}


def test_published_numbers_resolve_scores_and_task_metrics() -> None:
    manifest = _manifest(
        task_summary={"f1": 0.5, "nested": {"recall": 0.25}},
        published={
            "Accuracy": {"ours": "correct", "paper": {"GPT-4": 17.6}, "ours_scale": 100},
            "F1": {"ours": "f1", "paper": {"GPT-4": 0.4}, "source": "Table 2"},
            "Recall": {"ours": "task_metrics.nested.recall", "paper": {"GPT-4": 0.3}},
            "Missing": {"ours": "nope", "paper": {"GPT-4": 1.0}},
        },
    )
    rows = {
        row["label"]: row for row in summarize_records(manifest, [_record("a", 1.0), _record("b", 0.0)])["published"]
    }
    assert rows["Accuracy"]["ours"] == 50.0
    assert rows["F1"]["ours"] == 0.5 and rows["F1"]["source"] == "Table 2"
    assert rows["Recall"]["ours"] == 0.25
    assert rows["Missing"]["ours"] is None


def test_summary_is_strict_json_without_nan() -> None:
    summary = summarize_records(_manifest(), [_record("a", float("nan"))])
    assert summary["metrics"] == {}
    assert summary["usage"]["solve_s_p50"] == 0.5
    empty = summarize_records(_manifest(), [])
    assert empty["usage"]["solve_s_mean"] is None
