"""What every page of the web app shares: the server's settings, the database, the templates, the current user."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2

from debugtutor.errors import InputError
from debugtutor.web.auth import CSRF_FIELD, User, is_loopback
from debugtutor.web.store import DATABASE_FILE, Database

if TYPE_CHECKING:
    from debugtutor.llm import ModelBackend

DEFAULT_MAX_UPLOAD_BYTES = 4 * 1024 * 1024


def _plain_model(spec: str) -> ModelBackend:
    from debugtutor.llm import get_model

    return get_model(spec)


@dataclass
class WebConfig:
    """The settings of one ``debugtutor serve``."""

    data_dir: Path
    host: str = "127.0.0.1"
    port: int = 8000
    runs_dir: Path | None = None
    require_tokens: bool = False
    models: tuple[str, ...] = ()
    resolve_model: Callable[[str], ModelBackend] = _plain_model
    """Turns one of ``models`` into a back-end; ``debugtutor serve`` passes its model options' resolver, so the
    user's timeouts, retries and generation settings apply."""
    max_upload_bytes: int = DEFAULT_MAX_UPLOAD_BYTES
    repair_seconds: float = 3.0

    @property
    def tokens_required(self) -> bool:
        """Tokens are needed unless the server listens on loopback only (and was not told to want them anyway)."""
        return self.require_tokens or not is_loopback(self.host)

    @property
    def database_path(self) -> Path:
        return self.data_dir / DATABASE_FILE

    @property
    def exports_dir(self) -> Path:
        return self.data_dir / "exports"

    def resolved_runs_dir(self) -> Path:
        from debugtutor.runs import default_runs_dir

        return self.runs_dir if self.runs_dir is not None else default_runs_dir()


@dataclass
class AppContext:
    """Handed to every page module when the app is built."""

    config: WebConfig
    db: Database
    templates: jinja2.Environment = field(init=False)

    def __post_init__(self) -> None:
        self.templates = jinja2.Environment(
            loader=jinja2.PackageLoader("debugtutor.web", "templates"),
            autoescape=jinja2.select_autoescape(["html"]),
            undefined=jinja2.StrictUndefined,
        )
        self.templates.filters["tojson_attr"] = lambda value: json.dumps(value)

    def render(self, request: Any, template: str, *, status_code: int = 200, **values: Any) -> Any:
        from fastapi.responses import HTMLResponse

        page = self.templates.get_template(template).render(
            user=current_user(request),
            csrf_token=request.state.csrf,
            csrf_field=CSRF_FIELD,
            tokens_required=self.config.tokens_required,
            path=request.url.path,
            **values,
        )
        return HTMLResponse(page, status_code=status_code)


def current_user(request: Any) -> User:
    user = getattr(request.state, "user", None)
    if user is None:  # the auth middleware lets no request through without one; this is a programming error
        raise RuntimeError("no user on the request")
    assert isinstance(user, User)
    return user


def require_admin(request: Any) -> User:
    """The current user, who must be an admin (else 403)."""
    from fastapi import HTTPException

    user = current_user(request)
    if not user.is_admin:
        raise HTTPException(status_code=403, detail="only an admin may do this (ask for an admin token)")
    return user


def study_or_404(db: Database, study_id: int, kinds: Sequence[str], what: str) -> dict[str, Any]:
    """The study of one of ``kinds`` with this id, or a 404 naming ``what`` kind of study was looked for."""
    from fastapi import HTTPException

    from debugtutor.web import studies

    try:
        return studies.get_study(db, study_id, kinds)
    except LookupError as exc:
        raise HTTPException(status_code=404, detail=f"no {what} {study_id}") from exc


def study_item_or_404(db: Database, study_id: int, position: int) -> tuple[str, dict[str, Any]]:
    """(item id, payload) of the study's item at ``position``, or a 404."""
    from fastapi import HTTPException

    from debugtutor.web import studies

    found = studies.item_at(db, study_id, position)
    if found is None:
        raise HTTPException(status_code=404, detail=f"no item {position} in this study")
    return found


def form_text(form: Any, name: str, *, required: bool = False, limit: int = 1_000_000) -> str:
    """A text field of a submitted form (an uploaded file's content counts as text, UTF-8)."""
    value = form.get(name)
    if value is None or value == "":
        if required:
            raise InputError("this field is required", field=name)
        return ""
    if not isinstance(value, str):
        raise InputError("expected text, got a file", field=name)
    if len(value) > limit:
        raise InputError(f"longer than {limit} characters", field=name)
    return value


async def upload_text(form: Any, name: str) -> tuple[str, str] | None:
    """(file name, UTF-8 text) of an uploaded file field, or None when no file was chosen."""
    upload = form.get(name)
    if upload is None or isinstance(upload, str) or not getattr(upload, "filename", ""):
        return None
    data = await upload.read()
    filename = str(upload.filename)
    try:
        return filename, data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(f"not UTF-8 text (byte {exc.start})", path=filename, line=line) from exc


def open_database(config: WebConfig) -> Database:
    config.data_dir.mkdir(parents=True, exist_ok=True)
    return Database(config.database_path)
