"""A read-only web viewer of recorded runs: a table of runs, each run's report, and the records as JSON.

``debugtutor runs serve`` serves it alone; the web app (``debugtutor serve``) shows the same runs under ``/runs``
through :func:`run_rows` and :func:`run_summary`.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from debugtutor.errors import InputError, require
from debugtutor.runs import REPORT_FILE, SUMMARY_FILE, list_run_dirs, read_manifest, resolve_run_dir

_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>debugtutor runs</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2rem; color: #1d2733; }}
table {{ border-collapse: collapse; width: 100%; }}
th, td {{ border-bottom: 1px solid #d8dee6; padding: .4rem .6rem; text-align: left; font-size: .92rem; }}
th {{ background: #f2f5f8; }}
.success {{ color: #1a7f37; }} .error, .interrupted {{ color: #b42318; }} .started {{ color: #9a6700; }}
</style></head>
<body><h1>debugtutor runs</h1><p>{folder}</p>
<table><thead><tr><th>run</th><th>task</th><th>model</th><th>status</th><th>items</th><th>errors</th>
<th>started</th></tr></thead><tbody>{rows}</tbody></table></body></html>
"""


def run_rows(runs_dir: Path | None) -> list[dict[str, Any]]:
    """One row per run folder (oldest first): id, task, model, status, counts, start, whether it has a report."""
    rows = []
    for run_dir in list_run_dirs(runs_dir):
        try:
            manifest = read_manifest(run_dir)
        except InputError:
            continue  # a damaged folder must not hide the others
        rows.append(
            {
                "id": manifest.run_id,
                "task": manifest.task,
                "model": manifest.model,
                "status": manifest.status,
                "items": manifest.counts.items,
                "errors": manifest.counts.errors,
                "started": manifest.started_at,
                "has_report": (run_dir / REPORT_FILE).is_file(),
            }
        )
    return rows


def run_summary(run_dir: Path) -> dict[str, Any] | None:
    """The run's ``summary.json``, or None when it has none yet."""
    path = run_dir / SUMMARY_FILE
    if not path.is_file():
        return None
    try:
        summary = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return summary if isinstance(summary, dict) else None


def create_viewer_app(runs_dir: Path | None = None) -> Any:
    """A FastAPI app serving the runs under ``runs_dir`` (default ``$DEBUGTUTOR_RUNS_DIR`` or ``./runs``)."""
    fastapi = require("fastapi", feature="the run viewer", extra="web")
    responses = require("fastapi.responses", feature="the run viewer", extra="web")
    app = fastapi.FastAPI(title="debugtutor runs", docs_url=None, redoc_url=None)

    def run_dir_or_404(run_id: str) -> Path:
        try:
            return resolve_run_dir(run_id, runs_dir)
        except InputError as exc:
            raise fastapi.HTTPException(status_code=404, detail=str(exc)) from exc

    @app.get("/", response_class=responses.HTMLResponse)
    def index() -> str:
        rows = []
        for row in reversed(run_rows(runs_dir)):
            run = html.escape(str(row["id"]))
            link = f'<a href="/runs/{run}">{run}</a>' if row["has_report"] else run
            cells = [link] + [
                html.escape(str(row[key] if row[key] is not None else "")) for key in ("task", "model", "status")
            ]
            cells[3] = f'<span class="{html.escape(str(row["status"]))}">{cells[3]}</span>'
            cells += [str(row["items"]), str(row["errors"]), html.escape(str(row["started"]))]
            rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
        folder = html.escape(str(runs_dir or "runs"))
        return _PAGE.format(folder=folder, rows="".join(rows) or '<tr><td colspan="7">no runs yet</td></tr>')

    @app.get("/runs/{run_id}", response_class=responses.HTMLResponse)
    def report(run_id: str) -> str:
        path = run_dir_or_404(run_id) / REPORT_FILE
        if not path.is_file():
            raise fastapi.HTTPException(status_code=404, detail=f"{path} does not exist (debugtutor runs report)")
        return path.read_text(encoding="utf-8")

    @app.get("/api/runs")
    def api_runs() -> list[dict[str, Any]]:
        return run_rows(runs_dir)

    @app.get("/api/runs/{run_id}")
    def api_run(run_id: str) -> dict[str, Any]:
        run_dir = run_dir_or_404(run_id)
        return {"manifest": read_manifest(run_dir).model_dump(mode="json"), "summary": run_summary(run_dir)}

    return app
