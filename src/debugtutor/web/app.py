"""The web app (``debugtutor serve``): tutor, dialogue annotation, manual evaluation, expert studies, runs.

:func:`create_app` builds one FastAPI application over a data folder; every page module adds its routes to it.
Pages are rendered on the server (Jinja2) and enhanced by a little plain JavaScript; the code editor is CodeMirror 5,
shipped inside the package under ``static/vendor`` (no CDN).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from fastapi import Depends, HTTPException, Request

from debugtutor.errors import DebugtutorError, InputError, require
from debugtutor.web.auth import (
    CSRF_COOKIE,
    CSRF_FIELD,
    CSRF_HEADER,
    SAFE_METHODS,
    SESSION_COOKIE,
    BodyLimit,
    User,
    check_name,
    csrf_matches,
    end_session,
    new_csrf_token,
    session_user,
    start_session,
    user_for_token,
)
from debugtutor.web.context import AppContext, WebConfig, current_user, form_text, open_database

_PUBLIC_PREFIXES = ("/static/", "/login", "/healthz")
_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "frame-src 'self'; frame-ancestors 'self'; form-action 'self'; base-uri 'none'; object-src 'none'"
)
LOCAL_USER = User("local", "admin")


def _static_dir() -> Path:
    return Path(str(resources.files("debugtutor.web").joinpath("static")))


def _wants_json(request: Any) -> bool:
    accept = request.headers.get("accept", "")
    return "application/json" in accept or request.headers.get(CSRF_HEADER) is not None


def create_app(config: WebConfig) -> Any:  # noqa: C901 (one small closure per route and check)
    """The FastAPI application for ``config`` (needs the ``web`` extra)."""
    fastapi = require("fastapi", feature="the web app", extra="web")
    responses = require("fastapi.responses", feature="the web app", extra="web")
    staticfiles = require("fastapi.staticfiles", feature="the web app", extra="web")
    try:  # python-multipart names its module python_multipart since 0.0.13, multipart before
        require("python_multipart", feature="the web app's forms", extra="web", package="python-multipart")
    except DebugtutorError:
        require("multipart", feature="the web app's forms", extra="web", package="python-multipart")

    ctx = AppContext(config, open_database(config))

    async def csrf_protect(request: Request) -> None:
        if request.method in SAFE_METHODS:
            return
        origin = request.headers.get("origin")
        if origin and origin != "null":
            host = request.headers.get("host", "")
            if urlsplit(origin).netloc != host:
                raise HTTPException(status_code=403, detail=f"cross-site request refused (origin {origin})")
        submitted = request.headers.get(CSRF_HEADER)
        content_type = request.headers.get("content-type", "")
        if submitted is None and (
            content_type.startswith("application/x-www-form-urlencoded") or content_type.startswith("multipart/")
        ):
            form = await request.form()
            value = form.get(CSRF_FIELD)
            submitted = value if isinstance(value, str) else None
        if not csrf_matches(request.cookies.get(CSRF_COOKIE), submitted):
            raise HTTPException(
                status_code=403, detail="the form's security token is missing or stale: reload the page and retry"
            )

    app = fastapi.FastAPI(
        title="debugtutor", docs_url=None, redoc_url=None, openapi_url=None, dependencies=[Depends(csrf_protect)]
    )
    app.state.ctx = ctx

    @app.middleware("http")
    async def identify(request: Request, call_next: Callable[[Request], Awaitable[Any]]) -> Any:
        csrf = request.cookies.get(CSRF_COOKIE)
        fresh_csrf = csrf is None
        request.state.csrf = csrf or new_csrf_token()
        user = session_user(ctx.db, request.cookies.get(SESSION_COOKIE))
        if user is None and not config.tokens_required:
            user = LOCAL_USER
        request.state.user = user
        path = request.url.path
        if user is None and not path.startswith(_PUBLIC_PREFIXES):
            if request.method == "GET" and not _wants_json(request):
                response = responses.RedirectResponse(f"/login?next={quote(path)}", status_code=303)
            else:
                response = responses.JSONResponse({"detail": "log in first (a token is required)"}, status_code=401)
        else:
            response = await call_next(request)
        if fresh_csrf:
            response.set_cookie(CSRF_COOKIE, request.state.csrf, httponly=True, samesite="strict", path="/")
        response.headers.setdefault("content-security-policy", _CSP)
        response.headers.setdefault("x-content-type-options", "nosniff")
        response.headers.setdefault("referrer-policy", "same-origin")
        response.headers.setdefault("x-frame-options", "SAMEORIGIN")
        response.headers.setdefault("cache-control", "no-store")
        return response

    @app.exception_handler(DebugtutorError)
    async def input_error(request: Request, exc: DebugtutorError) -> Any:
        status = 400 if isinstance(exc, InputError) else 500
        if _wants_json(request):
            return responses.JSONResponse({"detail": str(exc)}, status_code=status)
        return ctx.render(request, "error.html", status_code=status, message=str(exc))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Any:
        if _wants_json(request) or request.url.path.startswith("/static/"):
            return responses.JSONResponse({"detail": exc.detail}, status_code=exc.status_code)
        if getattr(request.state, "user", None) is None:
            request.state.user = User("", "annotator")
        return ctx.render(request, "error.html", status_code=exc.status_code, message=str(exc.detail))

    app.mount("/static", staticfiles.StaticFiles(directory=_static_dir()), name="static")

    @app.get("/healthz")
    def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/", response_class=responses.HTMLResponse)
    def home(request: Request) -> Any:
        from debugtutor.web.home import home_summary

        return ctx.render(request, "home.html", summary=home_summary(ctx, current_user(request)))

    @app.get("/login", response_class=responses.HTMLResponse)
    def login_page(request: Request, next: str = "/") -> Any:
        if request.state.user is None:
            request.state.user = User("", "annotator")
        return ctx.render(request, "login.html", next=_safe_next(next), error=None)

    @app.post("/login")
    async def login(request: Request) -> Any:
        form = await request.form()
        target = _safe_next(form_text(form, "next") or "/")
        token = form_text(form, "token").strip()
        name = form_text(form, "name").strip()
        user: User | None = None
        error = None
        if token:
            user = user_for_token(ctx.db, token)
            error = None if user else "unknown or revoked token"
        elif not config.tokens_required and name:
            try:
                user = User(check_name(name), "admin")
            except InputError as exc:
                error = str(exc)
        else:
            error = "enter your token" if config.tokens_required else "enter a name or a token"
        if user is None:
            request.state.user = User("", "annotator")
            return ctx.render(request, "login.html", status_code=401, next=target, error=error)
        session_id = start_session(ctx.db, user)
        response = responses.RedirectResponse(target, status_code=303)
        response.set_cookie(SESSION_COOKIE, session_id, httponly=True, samesite="strict", path="/")
        return response

    @app.post("/logout")
    def logout(request: Request) -> Any:
        session_id = request.cookies.get(SESSION_COOKIE)
        if session_id:
            end_session(ctx.db, session_id)
        response = responses.RedirectResponse("/login", status_code=303)
        response.delete_cookie(SESSION_COOKIE, path="/")
        return response

    from debugtutor.web import annotate, evaluate, rate, runs_pages, tutor

    for module in (tutor, annotate, evaluate, rate, runs_pages):
        app.include_router(module.build_router(ctx))
    app.add_middleware(BodyLimit, max_bytes=config.max_upload_bytes)
    return app


def _safe_next(target: str) -> str:
    """Only local paths are followed after login (no open redirect)."""
    return target if target.startswith("/") and not target.startswith("//") else "/"
