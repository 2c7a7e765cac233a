"""The home page's counts: what each part of the app holds for the current user."""

from __future__ import annotations

from debugtutor.runs import list_run_dirs
from debugtutor.web.auth import User
from debugtutor.web.context import AppContext


def home_summary(ctx: AppContext, user: User) -> dict[str, int]:
    db = ctx.db

    def count(sql: str, params: tuple[object, ...] = ()) -> int:
        row = db.read_one(sql, params)
        return int(row[0]) if row else 0

    return {
        "tutor": count("SELECT COUNT(*) FROM tutor_sessions WHERE owner = ? OR ?", (user.name, int(user.is_admin))),
        "collections": count("SELECT COUNT(*) FROM collections"),
        "dialogues": count("SELECT COUNT(*) FROM dialogues"),
        "evaluations": count("SELECT COUNT(*) FROM studies WHERE kind = 'manual-eval'"),
        "ratings": count("SELECT COUNT(*) FROM studies WHERE kind IN ('generative', 'discriminative')"),
        "runs": len(list_run_dirs(ctx.config.resolved_runs_dir())),
    }
