"""The ``/tutor`` pages: start a tutoring session, edit and test the code, talk with the instructor, export."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse
from pydantic import BaseModel, Field

from debugtutor.errors import InputError
from debugtutor.web.context import AppContext, current_user, form_text, upload_text
from debugtutor.web.dialogues import TUTORING_COLLECTION, DialogueStore
from debugtutor.web.tutoring import (
    MAX_CODE_CHARS,
    MAX_MESSAGE_CHARS,
    TutorService,
    builtin_problems,
    problem_from_benchmark_file,
)


class CodeBody(BaseModel):
    code: str = Field(max_length=MAX_CODE_CHARS)


class SayBody(BaseModel):
    text: str = Field(default="", max_length=MAX_MESSAGE_CHARS)
    code: str | None = Field(default=None, max_length=MAX_CODE_CHARS)


def build_router(ctx: AppContext) -> Any:

    router = APIRouter()
    service = TutorService(ctx)
    dialogues = DialogueStore(ctx.db)

    def session_or_404(session_id: str, request: Request) -> dict[str, Any]:
        try:
            return service.record(session_id, current_user(request))
        except LookupError as exc:
            raise HTTPException(status_code=404, detail=f"no tutoring session {session_id!r} of yours") from exc

    @router.get("/tutor", response_class=HTMLResponse)
    def tutor_index(request: Request) -> Any:
        user = current_user(request)
        return ctx.render(
            request,
            "tutor_index.html",
            builtins=builtin_problems(),
            models=service.models(),
            sessions=service.sessions_of(user),
        )

    @router.post("/tutor/new")
    async def tutor_new(request: Request) -> Any:
        form = await request.form()
        title = form_text(form, "title")
        problem, code, tests = form_text(form, "problem"), form_text(form, "code"), form_text(form, "tests")
        builtin = form_text(form, "builtin")
        benchmark = await upload_text(form, "benchmark_file")
        if builtin:
            chosen = {p.key: p for p in builtin_problems()}.get(builtin)
            if chosen is None:
                raise InputError(f"no built-in problem {builtin!r}", field="builtin")
            problem, code, tests = chosen.problem, chosen.code, chosen.unit_tests
            title = title or chosen.title
        elif benchmark is not None:
            problem, code, tests = problem_from_benchmark_file(*benchmark)
            title = title or benchmark[0]
        else:
            for field in ("problem", "code", "tests"):
                uploaded = await upload_text(form, f"{field}_file")
                if uploaded is not None:
                    if field == "problem":
                        problem = uploaded[1]
                    elif field == "code":
                        code = uploaded[1]
                    else:
                        tests = uploaded[1]
        title = title or (problem.strip().splitlines()[0][:120] if problem.strip() else "")
        session_id = service.create(
            current_user(request),
            title=title,
            problem=problem,
            code=code,
            unit_tests=tests,
            model=form_text(form, "model") or "offline",
        )
        return RedirectResponse(f"/tutor/{session_id}", status_code=303)

    @router.get("/tutor/{session_id}", response_class=HTMLResponse)
    def tutor_session(session_id: str, request: Request) -> Any:
        return ctx.render(request, "tutor_session.html", session=session_or_404(session_id, request))

    @router.post("/tutor/{session_id}/code")
    def tutor_code(session_id: str, body: CodeBody, request: Request) -> dict[str, Any]:
        session_or_404(session_id, request)
        service.save_code(session_id, current_user(request), body.code)
        return {"saved": True}

    @router.post("/tutor/{session_id}/run")
    def tutor_run(session_id: str, body: CodeBody, request: Request) -> dict[str, Any]:
        session_or_404(session_id, request)
        return service.run_tests(session_id, current_user(request), body.code)

    @router.post("/tutor/{session_id}/say")
    def tutor_say(session_id: str, body: SayBody, request: Request) -> dict[str, Any]:
        session_or_404(session_id, request)
        return service.say(session_id, current_user(request), body.text, body.code)

    @router.get("/tutor/{session_id}/export")
    def tutor_export(session_id: str, request: Request) -> Any:
        session_or_404(session_id, request)
        name, text = service.transcript(session_id, current_user(request))
        return PlainTextResponse(
            text,
            media_type="text/plain; charset=utf-8",
            headers={"content-disposition": f'attachment; filename="{name}"'},
        )

    @router.post("/tutor/{session_id}/to-annotate")
    def tutor_to_annotate(session_id: str, request: Request) -> Any:
        record = session_or_404(session_id, request)
        user = current_user(request)
        _, text = service.transcript(session_id, user)
        collection = dialogues.ensure_collection(TUTORING_COLLECTION, source="tutoring sessions of this server")
        name = dialogues.free_name(collection, f"tutoring_{record['id']}")
        dialogue_id = dialogues.create(collection, name, text, user.name)
        return RedirectResponse(f"/annotate/d/{dialogue_id}", status_code=303)

    return router
