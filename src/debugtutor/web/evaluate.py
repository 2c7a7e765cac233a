"""The ``/evaluate`` pages: manual evaluation studies of Socratic instructors' predictions (see manual_eval)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from debugtutor.errors import InputError
from debugtutor.web import context, manual_eval, studies
from debugtutor.web.context import AppContext, current_user, form_text, require_admin, upload_text

_MATCH_FIELD = re.compile(r"^m-(\d+)-(\d+)$")
KINDS = (manual_eval.KIND,)


def build_router(ctx: AppContext) -> Any:

    router = APIRouter()
    db = ctx.db

    def study_or_404(study_id: int) -> dict[str, Any]:
        return context.study_or_404(db, study_id, KINDS, "evaluation study")

    @router.get("/evaluate", response_class=HTMLResponse)
    def evaluate_index(request: Request) -> Any:
        user = current_user(request)
        runs = manual_eval.socratic_runs(ctx.config.resolved_runs_dir()) if user.is_admin else []
        return ctx.render(
            request,
            "evaluate_index.html",
            studies=studies.list_studies(db, KINDS, user.name),
            runs=runs,
            runs_dir=str(ctx.config.resolved_runs_dir()),
        )

    @router.post("/evaluate/new")
    async def evaluate_new(request: Request) -> Any:
        require_admin(request)
        form = await request.form()
        known = {run["id"]: Path(run["path"]) for run in manual_eval.socratic_runs(ctx.config.resolved_runs_dir())}
        chosen = [str(value) for value in form.getlist("runs")]
        unknown = [run for run in chosen if run not in known]
        if unknown:
            raise InputError(f"unknown run {unknown[0]!r}", field="runs")
        upload = await upload_text(form, "predictions")
        limit_text = form_text(form, "limit").strip()
        if limit_text and not limit_text.isdigit():
            raise InputError("the number of examples is a whole number", field="limit")
        seed_text = form_text(form, "seed").strip() or "0"
        if not seed_text.isdigit():
            raise InputError("the seed is a whole number", field="seed")
        study_id = manual_eval.create_study(
            db,
            form_text(form, "name", required=True),
            run_dirs=[known[run] for run in chosen],
            uploads=[upload] if upload else [],
            limit=int(limit_text) if limit_text else None,
            seed=int(seed_text),
        )
        return RedirectResponse(f"/evaluate/{study_id}", status_code=303)

    @router.get("/evaluate/{study_id}", response_class=HTMLResponse)
    def evaluate_study(study_id: int, request: Request) -> Any:
        study = study_or_404(study_id)
        user = current_user(request)
        done, total = studies.progress(db, study_id, user.name)
        return ctx.render(
            request,
            "evaluate_study.html",
            study=study,
            done=done,
            total=total,
            next_position=studies.next_open_position(db, study_id, user.name),
        )

    @router.get("/evaluate/{study_id}/item/{position}", response_class=HTMLResponse)
    def evaluate_item(study_id: int, position: int, request: Request) -> Any:
        study = study_or_404(study_id)
        item_id, item = context.study_item_or_404(db, study_id, position)
        user = current_user(request)
        answer = studies.answer_of(db, study_id, item_id, user.name)
        done, total = studies.progress(db, study_id, user.name)
        return ctx.render(
            request,
            "evaluate_item.html",
            study=study,
            position=position,
            item_id=item_id,
            item={k: v for k, v in item.items() if k != "system"},  # blind: the page never sees the system
            matches=answer["matches"] if answer else [[] for _ in item["predictions"]],
            answered=answer is not None,
            done=done,
            total=total,
        )

    @router.post("/evaluate/{study_id}/item/{position}")
    async def evaluate_answer(study_id: int, position: int, request: Request) -> Any:
        study_or_404(study_id)
        item_id, item = context.study_item_or_404(db, study_id, position)
        form = await request.form()
        if form_text(form, "item_id") != item_id:
            raise InputError("this form belongs to another item: reload the page", field="item_id")
        matches: list[list[int]] = [[] for _ in item["predictions"]]
        for key in form:
            field = _MATCH_FIELD.match(key)
            if field:
                p, r = int(field.group(1)), int(field.group(2))
                if p >= len(matches):
                    raise InputError("a prediction index is out of range", field=key)
                matches[p].append(r)
        matches = manual_eval.check_matches(matches, len(item["predictions"]), len(item["references"]))
        user = current_user(request)
        studies.save_answer(db, study_id, item_id, user.name, {"matches": matches})
        following = studies.next_open_position(db, study_id, user.name, after=position)
        target = f"/evaluate/{study_id}/item/{following}" if following is not None else f"/evaluate/{study_id}"
        return RedirectResponse(target, status_code=303)

    @router.get("/evaluate/{study_id}/results", response_class=HTMLResponse)
    def evaluate_results(study_id: int, request: Request) -> Any:
        require_admin(request)
        study = study_or_404(study_id)
        return ctx.render(
            request, "evaluate_results.html", study=study, results=manual_eval.study_results(db, study_id)
        )

    @router.get("/evaluate/{study_id}/export.json")
    def evaluate_export_json(study_id: int, request: Request) -> Any:
        require_admin(request)
        study = study_or_404(study_id)
        body = {"study": {k: study[k] for k in ("id", "name", "created_at", "config")},
                "results": manual_eval.study_results(db, study_id)}  # fmt: skip
        return JSONResponse(
            json.loads(json.dumps(body)),
            headers={"content-disposition": f'attachment; filename="manual-eval-{study_id}.json"'},
        )

    @router.get("/evaluate/{study_id}/export.csv")
    def evaluate_export_csv(study_id: int, request: Request) -> Any:
        require_admin(request)
        study_or_404(study_id)
        return Response(
            manual_eval.answers_csv(db, study_id),
            media_type="text/csv; charset=utf-8",
            headers={"content-disposition": f'attachment; filename="manual-eval-{study_id}.csv"'},
        )

    return router
