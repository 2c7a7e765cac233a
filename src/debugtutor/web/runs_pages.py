"""The ``/runs`` pages: the run viewer inside the web app: the list, one run's report, two runs side by side."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse

from debugtutor.errors import InputError
from debugtutor.runs import REPORT_FILE, read_manifest, resolve_run_dir
from debugtutor.web.context import AppContext
from debugtutor.web.viewer import run_rows, run_summary

# A report is our own HTML but holds model output: it runs in a sandbox with an origin of its own.
_REPORT_CSP = (
    "sandbox allow-scripts; default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'"
)


def _metrics(summary: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
    if not summary:
        return {}
    metrics = dict(summary.get("metrics") or {})
    for key, value in (summary.get("task_metrics") or {}).items():
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            metrics.setdefault(key, {"mean": value})
    return metrics


def build_router(ctx: AppContext) -> Any:

    router = APIRouter()

    def runs_dir() -> Path:
        return ctx.config.resolved_runs_dir()

    def run_or_404(run_id: str) -> tuple[Path, Any]:
        try:
            run_dir = resolve_run_dir(run_id, runs_dir())
            return run_dir, read_manifest(run_dir)
        except InputError as exc:
            raise HTTPException(status_code=404, detail=str(exc)) from exc

    @router.get("/runs", response_class=HTMLResponse)
    def runs_index(request: Request) -> Any:
        return ctx.render(request, "runs_index.html", runs=list(reversed(run_rows(runs_dir()))), folder=str(runs_dir()))

    @router.get("/runs/compare", response_class=HTMLResponse)
    def runs_compare(request: Request, a: str = "", b: str = "") -> Any:
        if not a or not b:
            raise InputError("choose two runs to compare", field="a")
        left, right = run_or_404(a), run_or_404(b)
        sides = []
        for run_dir, manifest in (left, right):
            sides.append({"manifest": manifest, "metrics": _metrics(run_summary(run_dir)),
                          "has_report": (run_dir / REPORT_FILE).is_file()})  # fmt: skip
        names = list(dict.fromkeys([*sides[0]["metrics"], *sides[1]["metrics"]]))
        return ctx.render(request, "runs_compare.html", sides=sides, names=names)

    @router.get("/runs/{run_id}", response_class=HTMLResponse)
    def runs_show(run_id: str, request: Request) -> Any:
        run_dir, manifest = run_or_404(run_id)
        return ctx.render(
            request,
            "runs_show.html",
            manifest=manifest,
            metrics=_metrics(run_summary(run_dir)),
            has_report=(run_dir / REPORT_FILE).is_file(),
            folder=str(run_dir),
        )

    @router.get("/runs/{run_id}/report.html", response_class=HTMLResponse)
    def runs_report(run_id: str) -> Any:
        run_dir, _ = run_or_404(run_id)
        path = run_dir / REPORT_FILE
        if not path.is_file():
            raise HTTPException(status_code=404, detail=f"{path} does not exist (debugtutor runs report {run_id})")
        return HTMLResponse(path.read_text(encoding="utf-8"), headers={"content-security-policy": _REPORT_CSP})

    return router
