"""The ``/annotate`` pages: collections of benchmark dialogues, a validating editor with versioned saves, export."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, Field

from debugtutor.errors import InputError
from debugtutor.socratic.dataset import compute_stats, load_dialogues
from debugtutor.web.context import AppContext, current_user, form_text, require_admin
from debugtutor.web.dialogues import (
    MAX_DIALOGUE_BYTES,
    NEW_DIALOGUE_TEMPLATE,
    DialogueStore,
    ImportedFile,
    VersionConflict,
    files_from_folder,
    files_from_zip,
    validate,
)

_SLUG = re.compile(r"[^a-z0-9]+")


class ValidateBody(BaseModel):
    text: str = Field(max_length=MAX_DIALOGUE_BYTES)
    name: str = Field(max_length=200)


class SaveBody(BaseModel):
    text: str = Field(max_length=MAX_DIALOGUE_BYTES)
    version: int


class VersionBody(BaseModel):
    version: int


class ThreadBody(BaseModel):
    line: int = Field(ge=1)


async def _uploaded_files(form: Any) -> list[ImportedFile]:
    files: list[ImportedFile] = []
    for upload in form.getlist("files"):
        if isinstance(upload, str) or not getattr(upload, "filename", ""):
            continue
        data = await upload.read()
        name = str(upload.filename)
        files.extend(files_from_zip(data, name) if name.endswith(".zip") else [ImportedFile(Path(name).name, data)])
    return files


def build_router(ctx: AppContext) -> Any:  # noqa: C901 (one small closure per route)

    router = APIRouter()
    store = DialogueStore(ctx.db)

    def collection_or_404(collection_id: int) -> dict[str, Any]:
        try:
            return store.collection(collection_id)
        except LookupError as exc:
            raise HTTPException(status_code=404, detail=f"no collection {collection_id}") from exc

    def dialogue_or_404(dialogue_id: int) -> dict[str, Any]:
        try:
            return store.get(dialogue_id)
        except LookupError as exc:
            raise HTTPException(status_code=404, detail=f"no dialogue {dialogue_id}") from exc

    async def import_into(collection_id: int, form: Any, request: Request) -> int:
        files = await _uploaded_files(form)
        folder = form_text(form, "folder").strip()
        if folder:
            require_admin(request)  # reading the server's disk is for admins only
            files.extend(files_from_folder(Path(folder).expanduser()))
        return store.import_files(collection_id, files, current_user(request).name)

    @router.get("/annotate", response_class=HTMLResponse)
    def annotate_index(request: Request) -> Any:
        return ctx.render(request, "annotate_index.html", collections=store.collections())

    @router.post("/annotate/collections")
    async def annotate_new_collection(request: Request) -> Any:
        form = await request.form()
        name = form_text(form, "name", required=True)
        folder = form_text(form, "folder").strip()
        has_files = any(not isinstance(f, str) and getattr(f, "filename", "") for f in form.getlist("files"))
        source = folder or ("uploaded files" if has_files else "")
        collection_id = store.create_collection(name, source=source)
        if has_files or folder:
            try:
                await import_into(collection_id, form, request)
            except BaseException:
                # the import is all or nothing, so the new collection is still empty: leave nothing behind
                store.delete_collection_if_empty(collection_id)
                raise
        return RedirectResponse(f"/annotate/c/{collection_id}", status_code=303)

    @router.get("/annotate/c/{collection_id}", response_class=HTMLResponse)
    def annotate_collection(collection_id: int, request: Request) -> Any:
        collection = collection_or_404(collection_id)
        return ctx.render(
            request,
            "annotate_collection.html",
            collection=collection,
            tree=store.tree(collection_id),
            exported=None,
        )

    @router.post("/annotate/c/{collection_id}/import")
    async def annotate_import(collection_id: int, request: Request) -> Any:
        collection_or_404(collection_id)
        form = await request.form()
        await import_into(collection_id, form, request)
        return RedirectResponse(f"/annotate/c/{collection_id}", status_code=303)

    @router.post("/annotate/c/{collection_id}/new")
    async def annotate_new_dialogue(collection_id: int, request: Request) -> Any:
        collection_or_404(collection_id)
        form = await request.form()
        problem_id = form_text(form, "problem_id", required=True).strip()
        bug_id = form_text(form, "bug_id", required=True).strip()
        slug = _SLUG.sub("_", form_text(form, "slug", required=True).lower()).strip("_") or "problem"
        if not (problem_id.isdigit() and bug_id.isdigit()):
            raise InputError("problem and bug ids are numbers", field="problem_id")
        text = form_text(form, "text") or NEW_DIALOGUE_TEMPLATE
        name = f"{problem_id}_{bug_id}_{slug}_socratic_dialogue"
        dialogue_id = store.create(collection_id, name, text.replace("\r\n", "\n"), current_user(request).name)
        return RedirectResponse(f"/annotate/d/{dialogue_id}", status_code=303)

    @router.get("/annotate/c/{collection_id}/export.zip")
    def annotate_export_zip(collection_id: int) -> Any:
        collection = collection_or_404(collection_id)
        filename = _SLUG.sub("_", collection["name"].lower()).strip("_") or "dialogues"
        return Response(
            store.export_zip(collection_id),
            media_type="application/zip",
            headers={"content-disposition": f'attachment; filename="{filename}.zip"'},
        )

    @router.post("/annotate/c/{collection_id}/export", response_class=HTMLResponse)
    def annotate_export_folder(collection_id: int, request: Request) -> Any:
        collection = collection_or_404(collection_id)
        slug = _SLUG.sub("_", collection["name"].lower()).strip("_") or "dialogues"
        folder = ctx.config.exports_dir / f"{slug}-{time.strftime('%Y%m%dT%H%M%S')}-{time.time_ns() % 1_000_000:06d}"
        written = store.export_folder(collection_id, folder)
        stats = {m: compute_stats(load_dialogues(folder), method=m) for m in ("original", "robust")} if written else {}
        return ctx.render(
            request,
            "annotate_collection.html",
            collection=collection,
            tree=store.tree(collection_id),
            exported={"folder": str(folder), "files": len(written), "stats": stats},
        )

    @router.get("/annotate/d/{dialogue_id}", response_class=HTMLResponse)
    def annotate_editor(dialogue_id: int, request: Request) -> Any:
        dialogue = dialogue_or_404(dialogue_id)
        return ctx.render(
            request,
            "annotate_edit.html",
            dialogue=dialogue,
            collection=collection_or_404(dialogue["collection_id"]),
            history=store.history(dialogue_id),
            check=validate(dialogue["text"], dialogue["name"]),
        )

    @router.post("/annotate/validate")
    def annotate_validate(body: ValidateBody) -> dict[str, Any]:
        return validate(body.text, body.name)

    def conflict(exc: VersionConflict) -> Any:
        return JSONResponse(
            {"detail": str(exc), "conflict": True, "current_version": exc.current, "by": exc.by, "at": exc.at},
            status_code=409,
        )

    @router.post("/annotate/d/{dialogue_id}/save")
    def annotate_save(dialogue_id: int, body: SaveBody, request: Request) -> Any:
        dialogue_or_404(dialogue_id)
        try:
            return store.save(dialogue_id, body.text, body.version, current_user(request).name)
        except VersionConflict as exc:
            return conflict(exc)

    @router.post("/annotate/d/{dialogue_id}/undo")
    def annotate_undo(dialogue_id: int, body: VersionBody, request: Request) -> Any:
        dialogue_or_404(dialogue_id)
        try:
            return store.undo(dialogue_id, body.version, current_user(request).name)
        except VersionConflict as exc:
            return conflict(exc)

    @router.post("/annotate/d/{dialogue_id}/thread")
    def annotate_thread(dialogue_id: int, body: ThreadBody, request: Request) -> dict[str, Any]:
        dialogue_or_404(dialogue_id)
        new_id = store.new_thread(dialogue_id, body.line, current_user(request).name)
        return {"id": new_id, "url": f"/annotate/d/{new_id}"}

    return router
