"""Studies with items and per-person answers, shared by the manual evaluation and the expert rating pages.

A study's items are fixed when it is created (shuffled once); each annotator's answer to an item is one row, written
in its own committed transaction and replaced when they change their mind. Answers of different people never touch
each other, so annotators can work at the same time.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from debugtutor.web.store import Database, now


def list_studies(db: Database, kinds: Sequence[str], annotator: str) -> list[dict[str, Any]]:
    marks = ",".join("?" for _ in kinds)
    rows = db.read(
        f"SELECT s.id, s.kind, s.name, s.created_at, "
        f"(SELECT COUNT(*) FROM study_items i WHERE i.study_id = s.id) AS items, "
        f"(SELECT COUNT(*) FROM study_answers a WHERE a.study_id = s.id AND a.annotator = ?) AS mine, "
        f"(SELECT COUNT(DISTINCT annotator) FROM study_answers a WHERE a.study_id = s.id) AS annotators "
        f"FROM studies s WHERE s.kind IN ({marks}) ORDER BY s.id DESC",
        (annotator, *kinds),
    )
    return [dict(row) for row in rows]


def get_study(db: Database, study_id: int, kinds: Sequence[str]) -> dict[str, Any]:
    row = db.read_one("SELECT id, kind, name, config, created_at FROM studies WHERE id = ?", (study_id,))
    if row is None or row["kind"] not in kinds:
        raise LookupError(study_id)
    study = dict(row)
    study["config"] = json.loads(study["config"])
    study["items"] = count_items(db, study_id)
    return study


def count_items(db: Database, study_id: int) -> int:
    row = db.read_one("SELECT COUNT(*) FROM study_items WHERE study_id = ?", (study_id,))
    return int(row[0]) if row else 0


def item_at(db: Database, study_id: int, position: int) -> tuple[str, dict[str, Any]] | None:
    row = db.read_one(
        "SELECT item_id, payload FROM study_items WHERE study_id = ? AND position = ?", (study_id, position)
    )
    return (row["item_id"], json.loads(row["payload"])) if row else None


def answer_of(db: Database, study_id: int, item_id: str, annotator: str) -> dict[str, Any] | None:
    row = db.read_one(
        "SELECT answer FROM study_answers WHERE study_id = ? AND item_id = ? AND annotator = ?",
        (study_id, item_id, annotator),
    )
    return json.loads(row["answer"]) if row else None


def save_answer(db: Database, study_id: int, item_id: str, annotator: str, answer: dict[str, Any]) -> None:
    with db.write() as conn:
        conn.execute(
            "INSERT INTO study_answers (study_id, item_id, annotator, answer, updated_at) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT(study_id, item_id, annotator) DO UPDATE SET answer = excluded.answer, "
            "updated_at = excluded.updated_at",
            (study_id, item_id, annotator, json.dumps(answer), now()),
        )


def progress(db: Database, study_id: int, annotator: str) -> tuple[int, int]:
    row = db.read_one("SELECT COUNT(*) FROM study_answers WHERE study_id = ? AND annotator = ?", (study_id, annotator))
    return (int(row[0]) if row else 0), count_items(db, study_id)


def next_open_position(db: Database, study_id: int, annotator: str, after: int = -1) -> int | None:
    """The first item after ``after`` (wrapping around) that ``annotator`` has not answered; None when all are."""
    rows = db.read(
        "SELECT i.position FROM study_items i LEFT JOIN study_answers a ON a.study_id = i.study_id "
        "AND a.item_id = i.item_id AND a.annotator = ? WHERE i.study_id = ? AND a.item_id IS NULL "
        "ORDER BY i.position",
        (annotator, study_id),
    )
    positions = [int(row["position"]) for row in rows]
    later = [p for p in positions if p > after]
    return later[0] if later else (positions[0] if positions else None)
