"""``debugtutor runs``: list recorded runs, show one, and rebuild a run's summary and HTML report from its records."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import typer
from rich.markup import escape
from rich.table import Table

from debugtutor.console import emit_json, log, state, stdout
from debugtutor.errors import InputError
from debugtutor.runs import (
    SAMPLES_FILE,
    SUMMARY_FILE,
    list_run_dirs,
    read_manifest,
    resolve_run_dir,
    write_summary,
)

app = typer.Typer(help="Recorded evaluation runs: list, show, rebuild reports.", no_args_is_help=True)

JsonOption = typer.Option(False, "--json", help="Print one JSON object on stdout.")
RunsDirOption = typer.Option(
    None, "--runs-dir", help="Folder of run records \\[default: $DEBUGTUTOR_RUNS_DIR or ./runs].", show_default=False
)
RunArgument = typer.Argument(..., metavar="RUN", help="A run id, a unique id prefix, 'latest', or a run folder.")


def _json_mode(as_json: bool) -> bool:
    state.json_mode = state.json_mode or as_json
    return state.json_mode


@app.command("list")
def list_runs(
    runs_dir: Optional[Path] = RunsDirOption,  # noqa: UP045 (Typer evaluates this annotation on Python 3.10)
    as_json: bool = JsonOption,
) -> None:
    """List the runs under the runs folder, oldest first."""
    rows: list[dict[str, Any]] = []
    for run_dir in list_run_dirs(runs_dir):
        try:
            manifest = read_manifest(run_dir)
        except InputError as exc:  # one damaged folder must not hide the others
            log(f"skipping {run_dir}: {exc}")
            continue
        rows.append(
            {
                "id": manifest.run_id,
                "task": manifest.task,
                "model": manifest.model,
                "status": manifest.status,
                "items": manifest.counts.items,
                "done": manifest.counts.done,
                "errors": manifest.counts.errors,
                "started": manifest.started_at,
                "path": str(run_dir),
            }
        )
    if _json_mode(as_json):
        emit_json({"runs": rows})
        return
    if not rows:
        log("no runs recorded yet")
        return
    # Compact enough for an 80-column pipe: no borders, one space of padding, errors folded into the items column.
    table = Table(box=None, header_style="bold underline", pad_edge=False, padding=(0, 1))
    for column in ("id", "task", "model", "status", "items", "started"):
        table.add_column(column, min_width=len(column), no_wrap=column in ("id", "status", "items"), overflow="fold")
    for row in rows:
        errors = f" ({row['errors']} err)" if row["errors"] else ""
        table.add_row(
            row["id"],
            row["task"],
            row["model"] or "—",
            row["status"],
            f"{row['done']}/{row['items']}{errors}",
            row["started"][:16].replace("T", " "),
        )
    stdout.print(table)


@app.command("show")
def show_run(
    run: str = RunArgument,
    runs_dir: Optional[Path] = RunsDirOption,  # noqa: UP045
    as_json: bool = JsonOption,
) -> None:
    """Show a run's manifest and summary (the summary is rebuilt from the records if it is missing)."""
    import json

    run_dir = resolve_run_dir(run, runs_dir)
    manifest = read_manifest(run_dir)
    summary_path = run_dir / SUMMARY_FILE
    summary = json.loads(summary_path.read_text(encoding="utf-8")) if summary_path.is_file() else write_summary(run_dir)
    if _json_mode(as_json):
        emit_json({"run_dir": str(run_dir), "manifest": manifest.model_dump(mode="json"), "summary": summary})
        return
    header = Table.grid(padding=(0, 2))
    for label, value in [
        ("run", manifest.run_id),
        ("task", f"{manifest.task} v{manifest.task_version}"),
        ("model", manifest.model or "—"),
        ("status", manifest.status),
        ("started", manifest.started_at),
        ("finished", manifest.finished_at or "—"),
        ("items", f"{manifest.counts.done}/{manifest.counts.items} done, {manifest.counts.errors} error(s)"),
        ("debugtutor", f"{manifest.package_version} (commit {manifest.git_commit or '—'})"),
        ("folder", str(run_dir)),
    ]:
        header.add_row(f"[bold]{label}[/bold]", value)
    stdout.print(header)
    metrics = Table("score", "mean", "95% CI", "n", header_style="bold")
    shown: list[float] = []
    for name, metric in summary.get("metrics", {}).items():
        interval = f"[{_fmt(metric.get('ci_low'))}, {_fmt(metric.get('ci_high'))}]"
        metrics.add_row(name, _fmt(metric.get("mean")), interval, str(metric.get("n")))
        if isinstance(metric.get("mean"), (int, float)):
            shown.append(float(metric["mean"]))
    notes: list[tuple[str, str]] = []
    for key, figure, low, high, n in _flatten(summary.get("task_metrics", {})):
        if isinstance(figure, str):
            notes.append((key, figure))
            continue
        if any(abs(figure - other) <= 1e-9 for other in shown):
            continue  # the same figure as a score above: each figure once
        shown.append(figure)
        interval = f"[{_fmt(low)}, {_fmt(high)}]" if low is not None and high is not None else ""
        metrics.add_row(key, _fmt(figure), interval, "" if n is None else str(n))
    if metrics.row_count:
        stdout.print(metrics)
    for name, text in notes:
        stdout.print(f"[bold]{escape(name)}[/bold]: {escape(text)}", highlight=False, soft_wrap=True)


def _flatten(value: Any, prefix: str = "") -> list[tuple[str, float | str, float | None, float | None, int | None]]:
    """A task's own summary as rows: (dotted name, value or text, interval low, high, n); a dict with a ``mean``
    (or ``value``) is one row, other dicts are walked, lists and empty values are left out."""
    if isinstance(value, dict):
        centre = value.get("mean", value.get("value"))
        if isinstance(centre, (int, float)) and not isinstance(centre, bool):
            low, high = value.get("low", value.get("ci_low")), value.get("high", value.get("ci_high"))
            n = value.get("n")
            return [(prefix, float(centre), low, high, n if isinstance(n, int) else None)]
        rows = []
        for key, item in value.items():
            rows.extend(_flatten(item, f"{prefix}.{key}" if prefix else str(key)))
        return rows
    if isinstance(value, bool) or value is None or isinstance(value, list):
        return []
    if isinstance(value, (int, float)):
        return [(prefix, float(value), None, None, None)]
    return [(prefix, str(value), None, None, None)]


def _fmt(value: Any) -> str:
    from debugtutor.report import format_number

    return format_number(value)


@app.command("report")
def report_run(
    run: str = RunArgument,
    runs_dir: Optional[Path] = RunsDirOption,  # noqa: UP045
    out: Optional[Path] = typer.Option(  # noqa: UP045
        None, "--out", help="Where to write the HTML \\[default: report.html in the run folder]."
    ),
    max_samples: int = typer.Option(50, "--max-samples", min=0, help="How many samples the report's table shows."),
    as_json: bool = JsonOption,
) -> None:
    """Rebuild a run's summary.json and report.html from its manifest and samples.jsonl."""
    from debugtutor.report import write_report

    run_dir = resolve_run_dir(run, runs_dir)
    if not (run_dir / SAMPLES_FILE).is_file():
        log(f"{run_dir} has no samples yet; the report will be empty")
    summary = write_summary(run_dir)
    report_path = write_report(run_dir, out=out, summary=summary, max_samples=max_samples)
    if _json_mode(as_json):
        emit_json(
            {
                "run_dir": str(run_dir),
                "summary_path": str(run_dir / SUMMARY_FILE),
                "report_path": str(report_path),
                "summary": summary,
            }
        )
        return
    stdout.print(f"summary: {run_dir / SUMMARY_FILE}\nreport:  {report_path}")


@app.command("serve")
def serve(
    runs_dir: Optional[Path] = RunsDirOption,  # noqa: UP045 (Typer evaluates this annotation on Python 3.10)
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
    port: int = typer.Option(8765, "--port", help="Port to listen on."),
) -> None:
    """Serve a read-only web viewer of the runs and their reports (needs the 'web' extra)."""
    from debugtutor.errors import require
    from debugtutor.web import create_viewer_app

    uvicorn: Any = require("uvicorn", feature="the run viewer", extra="web")
    log(f"serving the runs of {runs_dir or 'runs'} on http://{host}:{port}/")
    uvicorn.run(create_viewer_app(runs_dir), host=host, port=port, log_level="warning")
