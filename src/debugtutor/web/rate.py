"""The ``/rate`` pages: StudentSyn expert studies, generative (4-point ratings) and discriminative (pick 1 of 10)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response

from debugtutor.errors import InputError
from debugtutor.web import context, expert_studies, studentsyn_files, studies
from debugtutor.web.context import AppContext, current_user, form_text, require_admin

KINDS = expert_studies.KINDS


def _int_field(form: Any, name: str, default: int) -> int:
    text = form_text(form, name).strip()
    if not text:
        return default
    if not text.isdigit():
        raise InputError("a whole number is expected", field=name)
    return int(text)


def build_router(ctx: AppContext) -> Any:  # noqa: C901 (one small closure per route)

    router = APIRouter()
    db = ctx.db
    pictures_dir = ctx.config.data_dir / "pictures"

    def study_or_404(study_id: int) -> dict[str, Any]:
        return context.study_or_404(db, study_id, KINDS, "expert study")

    def item_or_404(study_id: int, position: int) -> tuple[str, dict[str, Any]]:
        return context.study_item_or_404(db, study_id, position)

    def benchmark_field(form: Any) -> Path:
        text = form_text(form, "benchmark").strip()
        return Path(text).expanduser() if text else studentsyn_files.default_benchmark()

    @router.get("/rate", response_class=HTMLResponse)
    def rate_index(request: Request) -> Any:
        user = current_user(request)
        return ctx.render(
            request,
            "rate_index.html",
            studies=studies.list_studies(db, KINDS, user.name),
            default_benchmark=str(studentsyn_files.default_benchmark()),
        )

    @router.post("/rate/new-generative")
    async def rate_new_generative(request: Request) -> Any:
        require_admin(request)
        form = await request.form()
        galleries = [
            Path(line.strip()).expanduser() for line in form_text(form, "galleries").splitlines() if line.strip()
        ]
        study_id = expert_studies.create_generative(
            db,
            form_text(form, "name", required=True),
            benchmark=benchmark_field(form),
            galleries=galleries,
            top_k=_int_field(form, "top_k", 1),
            include_truth=form.get("include_truth") is not None,
            include_solution=form.get("include_solution") is not None,
            seed=_int_field(form, "seed", 0),
        )
        return RedirectResponse(f"/rate/{study_id}", status_code=303)

    @router.post("/rate/new-discriminative")
    async def rate_new_discriminative(request: Request) -> Any:
        require_admin(request)
        form = await request.form()
        study_id = expert_studies.create_discriminative(
            db,
            form_text(form, "name", required=True),
            benchmark=benchmark_field(form),
            samples=_int_field(form, "samples", 1),
            seed=_int_field(form, "seed", 0),
        )
        return RedirectResponse(f"/rate/{study_id}", status_code=303)

    @router.get("/rate/{study_id}", response_class=HTMLResponse)
    def rate_study(study_id: int, request: Request) -> Any:
        study = study_or_404(study_id)
        user = current_user(request)
        done, total = studies.progress(db, study_id, user.name)
        return ctx.render(
            request,
            "rate_study.html",
            study=study,
            done=done,
            total=total,
            next_position=studies.next_open_position(db, study_id, user.name),
        )

    @router.get("/rate/{study_id}/item/{position}", response_class=HTMLResponse)
    def rate_item(study_id: int, position: int, request: Request) -> Any:
        study = study_or_404(study_id)
        item_id, item = item_or_404(study_id, position)
        user = current_user(request)
        done, total = studies.progress(db, study_id, user.name)
        # blind: the page gets the candidates' labels and codes, never their techniques or ranks
        candidates = [{"key": c["key"]} for c in item.get("candidates", [])]
        return ctx.render(
            request,
            "rate_item.html",
            study=study,
            position=position,
            item_id=item_id,
            item={k: item[k] for k in ("reference", "target") if k in item},
            candidates=candidates,
            options=len(item.get("options", [])),
            answer=studies.answer_of(db, study_id, item_id, user.name) or {},
            scale=expert_studies.RATING_SCALE,
            done=done,
            total=total,
        )

    @router.get("/rate/{study_id}/item/{position}/picture/{which}.png")
    def rate_picture(study_id: int, position: int, which: str) -> Any:
        study = study_or_404(study_id)
        _, item = item_or_404(study_id, position)
        benchmark = Path(study["config"]["benchmark"])
        reference, target = item["reference"], item["target"]
        if which == "reference":
            task, code = reference, item["code_a"]
        elif which == "target":
            task, code = target, None
        elif which.startswith("candidate-") and study["kind"] == expert_studies.GENERATIVE:
            chosen = [c for c in item["candidates"] if c["key"] == which.removeprefix("candidate-")]
            if not chosen:
                raise HTTPException(status_code=404, detail="no such candidate")
            task, code = target, chosen[0]["code"]
        elif which.startswith("option-") and which.removeprefix("option-").isdigit():
            index = int(which.removeprefix("option-"))
            if not 0 <= index < len(item.get("options", [])):
                raise HTTPException(status_code=404, detail="no such option")
            task, code = target, item["options"][index]
        else:
            raise HTTPException(status_code=404, detail="no such picture")
        path = studentsyn_files.picture(benchmark, reference, task, code, pictures_dir)
        return FileResponse(path, media_type="image/png", headers={"cache-control": "private, max-age=3600"})

    @router.post("/rate/{study_id}/item/{position}")
    async def rate_answer(study_id: int, position: int, request: Request) -> Any:
        study = study_or_404(study_id)
        item_id, item = item_or_404(study_id, position)
        form = await request.form()
        if form_text(form, "item_id") != item_id:
            raise InputError("this form belongs to another item: reload the page", field="item_id")
        if study["kind"] == expert_studies.GENERATIVE:
            values = {key: value for key, value in form.items() if isinstance(value, str)}
            answer: dict[str, Any] = {"scores": expert_studies.check_ratings(item, values)}
        else:
            pick = form_text(form, "pick")
            if not pick.isdigit() or not 0 <= int(pick) < len(item["options"]):
                raise InputError("pick one of the options", field="pick")
            answer = {"pick": int(pick)}
        user = current_user(request)
        studies.save_answer(db, study_id, item_id, user.name, answer)
        following = studies.next_open_position(db, study_id, user.name, after=position)
        target = f"/rate/{study_id}/item/{following}" if following is not None else f"/rate/{study_id}"
        return RedirectResponse(target, status_code=303)

    def results_of(study: dict[str, Any]) -> dict[str, Any]:
        if study["kind"] == expert_studies.GENERATIVE:
            return expert_studies.generative_results(db, study["id"], study["config"]["techniques"])
        return expert_studies.discriminative_results(db, study["id"])

    @router.get("/rate/{study_id}/results", response_class=HTMLResponse)
    def rate_results(study_id: int, request: Request) -> Any:
        require_admin(request)
        study = study_or_404(study_id)
        return ctx.render(
            request, "rate_results.html", study=study, results=results_of(study), scale=expert_studies.RATING_SCALE
        )

    @router.get("/rate/{study_id}/export.json")
    def rate_export_json(study_id: int, request: Request) -> Any:
        require_admin(request)
        study = study_or_404(study_id)
        body = {"study": {k: study[k] for k in ("id", "kind", "name", "created_at", "config")},
                "results": results_of(study)}  # fmt: skip
        return JSONResponse(
            json.loads(json.dumps(body)),
            headers={"content-disposition": f'attachment; filename="{study["kind"]}-{study_id}.json"'},
        )

    @router.get("/rate/{study_id}/export.csv")
    def rate_export_csv(study_id: int, request: Request) -> Any:
        require_admin(request)
        study = study_or_404(study_id)
        return Response(
            expert_studies.answers_csv(db, study_id, study["kind"]),
            media_type="text/csv; charset=utf-8",
            headers={"content-disposition": f'attachment; filename="{study["kind"]}-{study_id}.csv"'},
        )

    return router
