"""Who is using the web app, and the checks every request passes: per-user tokens, login sessions, CSRF, body size.

- **Tokens.** An admin creates a user with ``debugtutor web-users add NAME``; the token is shown once and only its
  SHA-256 is stored. Logging in with it starts a login session (a random cookie, also stored hashed).
- **Open mode.** Bound to a loopback address without ``--require-tokens``, the app trusts the machine's user: anyone
  may sign in under a name of their choosing (so several annotators can share one laptop), and is an admin.
  Any other bind requires tokens for every page but the login page.
- **CSRF.** A random ``dt_csrf`` cookie (SameSite=Strict) must be echoed by every state-changing request, in the
  ``X-CSRF-Token`` header or a ``csrf_token`` form field; a present ``Origin`` header must be this server.
- **Body size.** Requests whose body exceeds the upload limit are refused with 413 before the app reads them.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import re
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

from debugtutor.errors import InputError
from debugtutor.web.store import Database, now

SESSION_COOKIE = "dt_session"
CSRF_COOKIE = "dt_csrf"
CSRF_FIELD = "csrf_token"
CSRF_HEADER = "x-csrf-token"
ROLES = ("admin", "annotator")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$")
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


@dataclass(frozen=True)
class User:
    """The person behind a request; ``admin`` may create studies, import server folders and see results."""

    name: str
    role: str

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"


def is_loopback(host: str) -> bool:
    """Whether ``host`` is a loopback address or ``localhost`` (only then may the app run without tokens)."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def check_name(name: str) -> str:
    """A user name: letters, digits and ``_ . @ -``, at most 64 characters."""
    name = name.strip()
    if not _NAME.match(name):
        raise InputError(
            f"invalid user name {name!r}", field="name", hint="letters, digits and _ . @ -, at most 64 characters"
        )
    return name


def create_user(db: Database, name: str, role: str = "annotator") -> str:
    """Create (or re-issue) a user's token; returns the token, which is stored only as a hash."""
    name = check_name(name)
    if role not in ROLES:
        raise InputError(f"unknown role {role!r}", field="role", hint=" or ".join(ROLES))
    token = f"dt_{secrets.token_urlsafe(24)}"
    with db.write() as conn:
        conn.execute(
            "INSERT INTO users (name, role, token_hash, created_at, revoked) VALUES (?, ?, ?, ?, 0) "
            "ON CONFLICT(name) DO UPDATE SET role = excluded.role, token_hash = excluded.token_hash, revoked = 0",
            (name, role, _digest(token), now()),
        )
        conn.execute("DELETE FROM login_sessions WHERE user_name = ?", (name,))
    return token


def revoke_user(db: Database, name: str) -> bool:
    """Revoke a user's token and end their login sessions; False when there is no such user."""
    with db.write() as conn:
        changed = conn.execute("UPDATE users SET revoked = 1, token_hash = NULL WHERE name = ?", (name,)).rowcount
        conn.execute("DELETE FROM login_sessions WHERE user_name = ?", (name,))
    return bool(changed)


def list_users(db: Database) -> list[dict[str, Any]]:
    rows = db.read("SELECT name, role, created_at, revoked FROM users ORDER BY name")
    return [
        {"name": r["name"], "role": r["role"], "created": r["created_at"], "revoked": bool(r["revoked"])} for r in rows
    ]


def user_for_token(db: Database, token: str) -> User | None:
    row = db.read_one("SELECT name, role FROM users WHERE token_hash = ? AND revoked = 0", (_digest(token.strip()),))
    return User(row["name"], row["role"]) if row else None


def start_session(db: Database, user: User) -> str:
    """A new login session for ``user``; returns the cookie value."""
    session_id = secrets.token_urlsafe(32)
    with db.write() as conn:
        conn.execute(
            "INSERT INTO login_sessions (id_hash, user_name, role, created_at) VALUES (?, ?, ?, ?)",
            (_digest(session_id), user.name, user.role, now()),
        )
    return session_id


def end_session(db: Database, session_id: str) -> None:
    with db.write() as conn:
        conn.execute("DELETE FROM login_sessions WHERE id_hash = ?", (_digest(session_id),))


def session_user(db: Database, session_id: str | None) -> User | None:
    if not session_id:
        return None
    row = db.read_one("SELECT user_name, role FROM login_sessions WHERE id_hash = ?", (_digest(session_id),))
    return User(row["user_name"], row["role"]) if row else None


def csrf_matches(cookie: str | None, submitted: str | None) -> bool:
    return bool(cookie) and bool(submitted) and hmac.compare_digest(str(cookie), str(submitted))


def new_csrf_token() -> str:
    return secrets.token_urlsafe(32)


Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BodyLimit:
    """ASGI middleware: refuse request bodies over ``max_bytes`` with 413, before the app reads any of it."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def _refuse(self, send: Send) -> None:
        body = json.dumps(
            {"detail": f"the upload is larger than this server's limit of {self.max_bytes // 1024} KiB"}
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None:
            try:
                too_big = int(length) > self.max_bytes
            except ValueError:
                too_big = True
            if too_big:
                await self._refuse(send)
                return
            await self.app(scope, receive, send)
            return
        # No declared length (chunked): read it all here, bounded, and hand it on.
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._refuse(send)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)
