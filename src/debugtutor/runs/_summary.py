"""The summary of a run, computed from its records alone: counts, score means with bootstrap intervals, usage.

``summary.json`` is derived data: :func:`write_summary` rebuilds it at any time from ``manifest.json`` and
``samples.jsonl``, so a report can be regenerated long after the task code that produced the run has changed.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from debugtutor.runs._records import (
    SAMPLES_FILE,
    SUMMARY_FILE,
    RunManifest,
    SampleRecord,
    read_manifest,
    read_samples,
    write_json_atomic,
)
from debugtutor.runs._task import PublishedMetric

BOOTSTRAP_RESAMPLES = 1000
BOOTSTRAP_SEED = 0
CONFIDENCE = 0.95


def bootstrap_mean_ci(
    values: Sequence[float],
    *,
    resamples: int = BOOTSTRAP_RESAMPLES,
    confidence: float = CONFIDENCE,
    seed: int = BOOTSTRAP_SEED,
) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean; seeded, so the same scores always give the same interval."""
    from debugtutor.metrics.stats import bootstrap_mean  # numpy loads only when a summary is computed

    interval = bootstrap_mean(values, confidence=confidence, resamples=resamples, seed=seed)
    return (interval.low, interval.high)


def latest_records(records: Sequence[SampleRecord]) -> list[SampleRecord]:
    """One record per id, the last one written, in the order the ids first appeared."""
    by_id: dict[str, SampleRecord] = {}
    for record in records:
        by_id[record.id] = record
    return list(by_id.values())


def _numeric(value: Any) -> float | None:
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)) and not math.isnan(value):
        return float(value)
    return None


def _percentile(sorted_values: list[float], fraction: float) -> float:
    if not sorted_values:
        return math.nan
    position = min(len(sorted_values) - 1, max(0, math.ceil(fraction * len(sorted_values)) - 1))
    return sorted_values[position]


def _usage_totals(records: Sequence[SampleRecord]) -> dict[str, float]:
    totals: dict[str, float] = {}
    for record in records:
        for key, value in (record.usage or {}).items():
            number = _numeric(value)
            if number is not None and not isinstance(value, bool):
                totals[key] = totals.get(key, 0.0) + number
    solve_times = sorted(r.timings.solve_s for r in records if r.timings.solve_s is not None)
    score_times = [r.timings.score_s for r in records if r.timings.score_s is not None]
    totals["solve_s_total"] = sum(solve_times)
    totals["solve_s_mean"] = sum(solve_times) / len(solve_times) if solve_times else math.nan
    totals["solve_s_p50"] = _percentile(solve_times, 0.5)
    totals["solve_s_p95"] = _percentile(solve_times, 0.95)
    totals["score_s_total"] = sum(score_times)
    return {
        key: (int(value) if float(value).is_integer() and key.endswith("tokens") else value)
        for key, value in totals.items()
    }


def _lookup(summary: dict[str, Any], key: str) -> Any:
    """Our number for a published comparison: a score's mean, else a dotted path into the summary or task_metrics."""
    if key in summary["metrics"]:
        return summary["metrics"][key]["mean"]
    for root in (summary, summary.get("task_metrics", {})):
        node: Any = root
        for part in key.split("."):
            if not isinstance(node, dict) or part not in node:
                node = None
                break
            node = node[part]
        if node is not None:
            return node
    return None


def summarize_records(manifest: RunManifest, records: Sequence[SampleRecord]) -> dict[str, Any]:
    """The summary of a run (see module docstring); ``records`` may contain superseded lines for the same id."""
    records = latest_records(records)
    values: dict[str, list[float]] = {}
    labels: dict[str, Counter[str]] = {}
    for record in records:
        if record.error is not None:
            continue
        for name, value in record.scores.items():
            number = _numeric(value)
            if number is not None:
                values.setdefault(name, []).append(number)
            elif isinstance(value, str):
                labels.setdefault(name, Counter())[value] += 1
    metrics: dict[str, dict[str, Any]] = {}
    for name, numbers in values.items():
        low, high = bootstrap_mean_ci(numbers)
        metrics[name] = {
            "mean": sum(numbers) / len(numbers),
            "ci_low": low,
            "ci_high": high,
            "n": len(numbers),
            "confidence": CONFIDENCE,
        }
    errors = sum(1 for record in records if record.error is not None)
    summary: dict[str, Any] = {
        "run_id": manifest.run_id,
        "task": manifest.task,
        "task_version": manifest.task_version,
        "model": manifest.model,
        "status": manifest.status,
        "stop_reason": manifest.stop_reason,
        # Means are over the items without error; these counts say how many that is.
        "counts": {"items": max(manifest.counts.items, len(records)), "done": len(records), "errors": errors},
        "metrics": metrics,
        "labels": {name: dict(counter.most_common()) for name, counter in labels.items()},
        "usage": _usage_totals(records),
        "error_types": dict(Counter(r.error.type for r in records if r.error is not None).most_common()),
        "task_metrics": dict(manifest.task_summary),
    }
    summary["published"] = _published_rows(summary, manifest.published)
    return _finite(summary)


def _finite(value: Any) -> Any:
    """Replace NaN and infinities by None so that summary.json is strict JSON that every parser accepts."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_finite(item) for item in value]
    return value


def _published_rows(summary: dict[str, Any], published: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for label, raw in published.items():
        spec = PublishedMetric.model_validate(raw)
        ours = _lookup(summary, spec.ours)
        number = _numeric(ours)
        rows.append(
            {
                "label": label,
                "ours_key": spec.ours,
                "ours": number * spec.ours_scale if number is not None else None,
                "paper": dict(spec.paper),
                "source": spec.source,
                "higher_is_better": spec.higher_is_better,
            }
        )
    return rows


def write_summary(run_dir: Path) -> dict[str, Any]:
    """Rebuild ``summary.json`` from the run's manifest and samples and return it."""
    manifest = read_manifest(run_dir)
    records = read_samples(run_dir / SAMPLES_FILE).records
    summary = summarize_records(manifest, records)
    write_json_atomic(run_dir / SUMMARY_FILE, summary)
    return summary
