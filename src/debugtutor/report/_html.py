"""The self-contained HTML report of a run, rendered from its records (manifest + samples) with Jinja2.

The page has no external assets: CSS is inline and figures are PNG data URIs, so it can be mailed, attached to an
issue or opened from a CI artifact as one file.

A score named ``X@B`` is reference baseline ``B``'s value of score ``X`` on the same item (the Socratic task records
``rougeL_f1@constant`` beside ``rougeL_f1``). The report puts every such baseline next to the run's own score, with
the run's margin over it as a paired bootstrap interval of the per-item differences.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from debugtutor import __version__
from debugtutor.runs import (
    REPORT_FILE,
    SAMPLES_FILE,
    RunManifest,
    SampleRecord,
    bootstrap_mean_ci,
    read_manifest,
    read_samples,
    summarize_records,
)
from debugtutor.runs._summary import latest_records

DEFAULT_MAX_SAMPLES = 50
CELL_CHARS = 240


def format_number(value: Any, digits: int = 4) -> str:
    """Numbers as a person reads them in a table: ints as they are, floats to ``digits`` significant figures."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if math.isnan(value):
            return "—"
        return f"{value:.{digits}g}"
    return str(value)


def _clip(text: str, limit: int = CELL_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _duration(started: str | None, finished: str | None) -> str:
    if not started or not finished:
        return "—"
    seconds = (dt.datetime.fromisoformat(finished) - dt.datetime.fromisoformat(started)).total_seconds()
    if seconds < 120:
        return f"{seconds:.1f} s"
    return f"{seconds / 60:.1f} min"


def _sample_rows(records: Sequence[SampleRecord], limit: int) -> list[dict[str, Any]]:
    rows = []
    for record in records[:limit]:
        output = record.output if isinstance(record.output, str) else json.dumps(record.output, ensure_ascii=False)
        rows.append(
            {
                "id": record.id,
                "output": _clip(output),
                "scores": [(name, format_number(value)) for name, value in record.scores.items()],
                "error": f"{record.error.type}: {record.error.message}" if record.error else None,
                "traceback": record.error.traceback if record.error else "",
                "solve_s": format_number(record.timings.solve_s, 3),
            }
        )
    return rows


def _published_table(rows: list[dict[str, Any]]) -> dict[str, Any]:
    systems: list[str] = []
    for row in rows:
        systems.extend(name for name in row["paper"] if name not in systems)
    return {"systems": systems, "rows": rows, "sources": sorted({row["source"] for row in rows if row.get("source")})}


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        return None
    return float(value)


def _baseline_table(records: Sequence[SampleRecord], summary: dict[str, Any]) -> dict[str, Any]:
    """Rows of scores that have baseline twins (``X`` and ``X@B``): the run's mean, each baseline's, and the margin."""
    metrics: dict[str, Any] = summary.get("metrics", {})
    baselines = sorted({name.split("@", 1)[1] for name in metrics if "@" in name})
    rows = []
    for name, metric in metrics.items():
        if "@" in name or not any(f"{name}@{b}" in metrics for b in baselines):
            continue
        margins: dict[str, dict[str, Any]] = {}
        for baseline in baselines:
            twin = f"{name}@{baseline}"
            differences = []
            for record in records:
                ours, theirs = _number(record.scores.get(name)), _number(record.scores.get(twin))
                if record.error is None and ours is not None and theirs is not None:
                    differences.append(ours - theirs)
            if differences:
                low, high = bootstrap_mean_ci(differences)
                margins[baseline] = {"mean": sum(differences) / len(differences), "ci_low": low, "ci_high": high}
        rows.append(
            {
                "name": name,
                "ours": metric,
                "baselines": {b: metrics.get(f"{name}@{b}") for b in baselines},
                "margins": margins,
            }
        )
    return {"baselines": baselines, "rows": rows}


def render_report(
    manifest: RunManifest,
    records: Sequence[SampleRecord],
    summary: dict[str, Any] | None = None,
    *,
    max_samples: int = DEFAULT_MAX_SAMPLES,
) -> str:
    """The report page as a string; ``summary`` is computed from the records when not given."""
    import jinja2

    from debugtutor.report._figures import report_figures

    records = latest_records(records)
    summary = summary if summary is not None else summarize_records(manifest, records)
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("debugtutor.report", "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    environment.filters["num"] = format_number
    environment.filters["pretty_json"] = lambda value: json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True)
    template = environment.get_template("report.html.j2")
    return template.render(
        manifest=manifest,
        summary=summary,
        duration=_duration(manifest.started_at, manifest.finished_at),
        figures=report_figures(records, summary),
        samples=_sample_rows(records, max_samples),
        sample_limit=max_samples,
        published=_published_table(summary.get("published", [])),
        baselines=_baseline_table(records, summary),
        generated_at=dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        generator_version=__version__,
    )


def write_report(
    run_dir: Path,
    *,
    out: Path | None = None,
    summary: dict[str, Any] | None = None,
    max_samples: int = DEFAULT_MAX_SAMPLES,
) -> Path:
    """Write ``report.html`` for the run in ``run_dir`` (or to ``out``) from its records and return its path."""
    manifest = read_manifest(run_dir)
    records = read_samples(run_dir / SAMPLES_FILE).records
    html = render_report(manifest, records, summary, max_samples=max_samples)
    target = out or run_dir / REPORT_FILE
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.tmp")
    tmp.write_text(html, encoding="utf-8")
    tmp.replace(target)
    return target
