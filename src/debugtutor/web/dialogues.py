"""Socratic benchmark dialogues in the web app's database: collections, versioned edits, undo, import and export.

A *collection* is a folder of benchmark files (imported, or written here). Each dialogue keeps the file's text and,
when imported, its original bytes: a dialogue nobody changed is exported byte for byte as it came in, so a folder
that went through the app unchanged gives the same ``debugtutor socratic stats`` (and the same files).

Writes are versioned: a save names the version it was made from and fails with :class:`VersionConflict` when someone
saved in between, so two annotators never overwrite each other silently. Every saved text is kept; *undo* restores
the text the current version was made from (as a new version, so it too can be undone and is never lost).
Only text our parser reads is stored: an import or a save that does not parse is refused with the file and line.
"""

from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from debugtutor.errors import InputError
from debugtutor.socratic.dataset import build_examples
from debugtutor.socratic.dialogue import FILE_NAME, SocraticDialogue, number_code, parse_dialogue_file
from debugtutor.web.store import Database, now

TUTORING_COLLECTION = "tutoring sessions"
MAX_DIALOGUE_BYTES = 1_000_000
MAX_ZIP_BYTES = 64_000_000
_COLLECTION_NAME = re.compile(r"^[\w .,:()+-]{1,80}$")

NEW_DIALOGUE_TEMPLATE = """<problem>
Describe the problem here.
</problem>
<bug_code>
1. def solution():
2.     pass
</bug_code>
<bug_desc>
What the bug is and which line it is on.
</bug_desc>
<bug_fixes>
How to fix it.
</bug_fixes>
<unit_tests>
assert solution() is None
</unit_tests>
<stu_desc>
</stu_desc>
<dialogue>
User: Hi! My code does not work.
Assistant: Hello! What did you expect it to do, and what happens instead?
</dialogue>
"""


class VersionConflict(Exception):
    """A save made from an older version than the one stored."""

    def __init__(self, name: str, yours: int, current: int, by: str, at: str) -> None:
        super().__init__(
            f"{name} was changed by {by} at {at} (now version {current}; you edited version {yours}). "
            "Nothing was overwritten and your text is still in your editor: copy it, reload to see their changes, "
            "then merge."
        )
        self.current = current
        self.by = by
        self.at = at


def check_file_name(name: str) -> str:
    """A benchmark file stem (``<problem>_<bug>_<name>_<kind>``), with or without ``.txt``."""
    stem = Path(name).name
    stem = stem[:-4] if stem.endswith(".txt") else stem
    if not FILE_NAME.match(stem):
        raise InputError(
            f"{stem!r} does not follow <problem>_<bug>_<name>_socratic_dialogue or _conversational_thread_<n>",
            field="name",
        )
    return stem


def parse_text(text: str, name: str) -> SocraticDialogue:
    """Parse a dialogue file's text with the arena's parser; errors name the file and line."""
    return parse_dialogue_file(text, path=f"{name}.txt", name=name)


def validate(text: str, name: str) -> dict[str, Any]:
    """What the parser makes of ``text``: an error with its line, or the turns, counts and examples it gives."""
    try:
        check_file_name(name)
        dialogue = parse_text(text, name)
    except InputError as exc:
        return {"ok": False, "error": str(exc), "line": exc.line}
    structure = [
        {
            "line": turn.line,
            "speaker": turn.speaker,
            "text": turn.text[:100],
            "alternatives": len(turn.alternatives),
            "code": turn.code is not None or any(alt.code is not None for alt in turn.alternatives),
        }
        for turn in dialogue.turns
    ]
    latest = dialogue.bug_code
    for turn in dialogue.turns:
        for code in [turn.code, *(alt.code for alt in turn.alternatives)]:
            if code is not None:
                latest = code
    return {
        "ok": True,
        "turns": len(dialogue.turns),
        "instructor_turns": len(dialogue.instructor_turns()),
        "student_turns": len(dialogue.student_turns()),
        "alternatives": sum(len(turn.alternatives) for turn in dialogue.turns),
        "code_blocks": sum(
            (turn.code is not None) + sum(alt.code is not None for alt in turn.alternatives) for turn in dialogue.turns
        ),
        "examples": len(build_examples([dialogue])),
        "structure": structure,
        "latest_code": number_code(latest) if latest else "",
    }


@dataclass(frozen=True)
class ImportedFile:
    name: str
    data: bytes


def _decode(item: ImportedFile) -> str:
    try:
        return item.data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = item.data[: exc.start].count(b"\n") + 1
        raise InputError(f"not UTF-8 text (byte {exc.start})", path=item.name, line=line) from exc


def files_from_zip(data: bytes, archive: str) -> list[ImportedFile]:
    """The ``.txt`` files of a zip archive (any folder depth), bounded in size."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as bundle:
            entries = [e for e in bundle.infolist() if not e.is_dir() and e.filename.endswith(".txt")]
            if sum(e.file_size for e in entries) > MAX_ZIP_BYTES:
                raise InputError(f"unpacks to more than {MAX_ZIP_BYTES // 1_000_000} MB", path=archive)
            return [ImportedFile(Path(e.filename).name, bundle.read(e)) for e in entries]
    except zipfile.BadZipFile as exc:
        raise InputError(f"not a zip archive: {exc}", path=archive) from exc


def files_from_folder(folder: Path) -> list[ImportedFile]:
    if not folder.is_dir():
        raise InputError("not a folder on this server", path=str(folder))
    files = sorted(folder.glob("*.txt"))
    if not files:
        raise InputError("no .txt benchmark files in this folder", path=str(folder))
    return [ImportedFile(path.name, path.read_bytes()) for path in files]


class DialogueStore:
    """Collections and dialogues in the database (see the module docstring)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # -- collections -----------------------------------------------------------------------------------------------

    def collections(self) -> list[dict[str, Any]]:
        rows = self.db.read(
            "SELECT c.id, c.name, c.source, c.created_at, COUNT(d.id) AS dialogues FROM collections c "
            "LEFT JOIN dialogues d ON d.collection_id = c.id GROUP BY c.id ORDER BY c.name"
        )
        return [dict(row) for row in rows]

    def collection(self, collection_id: int) -> dict[str, Any]:
        row = self.db.read_one("SELECT * FROM collections WHERE id = ?", (collection_id,))
        if row is None:
            raise LookupError(collection_id)
        return dict(row)

    def create_collection(self, name: str, source: str = "") -> int:
        name = " ".join(name.split())
        if not _COLLECTION_NAME.match(name):
            raise InputError("a collection name is 1-80 letters, digits, spaces or . , : ( ) + -", field="name")
        with self.db.write() as conn:
            if conn.execute("SELECT 1 FROM collections WHERE name = ?", (name,)).fetchone():
                raise InputError(f"a collection named {name!r} exists already", field="name")
            cursor = conn.execute(
                "INSERT INTO collections (name, source, created_at) VALUES (?, ?, ?)", (name, source, now())
            )
            return int(cursor.lastrowid or 0)

    def delete_collection_if_empty(self, collection_id: int) -> None:
        with self.db.write() as conn:
            if not conn.execute("SELECT 1 FROM dialogues WHERE collection_id = ?", (collection_id,)).fetchone():
                conn.execute("DELETE FROM collections WHERE id = ?", (collection_id,))

    def ensure_collection(self, name: str, source: str = "") -> int:
        row = self.db.read_one("SELECT id FROM collections WHERE name = ?", (name,))
        return int(row["id"]) if row else self.create_collection(name, source)

    def import_files(self, collection_id: int, files: list[ImportedFile], author: str) -> int:
        """Add files to a collection, all or none: the first malformed file stops the import, naming its line."""
        self.collection(collection_id)
        if not files:
            raise InputError("no .txt files to import")
        parsed: list[tuple[str, str, bytes]] = []
        seen: set[str] = set()
        for item in files:
            if len(item.data) > MAX_DIALOGUE_BYTES:
                raise InputError(f"larger than {MAX_DIALOGUE_BYTES // 1000} kB", path=item.name)
            try:
                name = check_file_name(item.name)
            except InputError as exc:
                raise InputError(exc.message, path=item.name) from exc
            if name in seen:
                raise InputError("given twice", path=item.name)
            seen.add(name)
            text = _decode(item)
            parse_dialogue_file(text, path=item.name, name=name)  # raises with the file and line
            parsed.append((name, text, item.data))
        stamp = now()
        with self.db.write() as conn:
            for name, text, data in parsed:
                if conn.execute(
                    "SELECT 1 FROM dialogues WHERE collection_id = ? AND name = ?", (collection_id, name)
                ).fetchone():
                    raise InputError("a dialogue of this name is in the collection already", path=f"{name}.txt")
                cursor = conn.execute(
                    "INSERT INTO dialogues (collection_id, name, text, original, version, updated_by, updated_at) "
                    "VALUES (?, ?, ?, ?, 1, ?, ?)",
                    (collection_id, name, text, data, author, stamp),
                )
                conn.execute(
                    "INSERT INTO dialogue_versions (dialogue_id, version, text, parent, author, created_at, note) "
                    "VALUES (?, 1, ?, NULL, ?, ?, 'imported')",
                    (cursor.lastrowid, text, author, stamp),
                )
        return len(parsed)

    # -- dialogues -------------------------------------------------------------------------------------------------

    def create(self, collection_id: int, name: str, text: str, author: str) -> int:
        name = check_file_name(name)
        parse_text(text, name)
        stamp = now()
        with self.db.write() as conn:
            if conn.execute(
                "SELECT 1 FROM dialogues WHERE collection_id = ? AND name = ?", (collection_id, name)
            ).fetchone():
                raise InputError(f"{name} exists in this collection already", field="name")
            cursor = conn.execute(
                "INSERT INTO dialogues (collection_id, name, text, original, version, updated_by, updated_at) "
                "VALUES (?, ?, ?, NULL, 1, ?, ?)",
                (collection_id, name, text, author, stamp),
            )
            dialogue_id = int(cursor.lastrowid or 0)
            conn.execute(
                "INSERT INTO dialogue_versions (dialogue_id, version, text, parent, author, created_at, note) "
                "VALUES (?, 1, ?, NULL, ?, ?, 'created')",
                (dialogue_id, text, author, stamp),
            )
        return dialogue_id

    def free_name(self, collection_id: int, slug: str, kind: str = "socratic_dialogue") -> str:
        """``<n>_0_<slug>_<kind>`` with the first problem number not used in the collection."""
        used = {row["name"].split("_", 1)[0] for row in self.db.read(
            "SELECT name FROM dialogues WHERE collection_id = ?", (collection_id,))}  # fmt: skip
        number = 0
        while str(number) in used:
            number += 1
        return f"{number}_0_{slug}_{kind}"

    def get(self, dialogue_id: int) -> dict[str, Any]:
        row = self.db.read_one(
            "SELECT id, collection_id, name, text, version, updated_by, updated_at FROM dialogues WHERE id = ?",
            (dialogue_id,),
        )
        if row is None:
            raise LookupError(dialogue_id)
        return dict(row)

    def history(self, dialogue_id: int) -> list[dict[str, Any]]:
        rows = self.db.read(
            "SELECT version, parent, author, created_at, note FROM dialogue_versions WHERE dialogue_id = ? "
            "ORDER BY version DESC",
            (dialogue_id,),
        )
        return [dict(row) for row in rows]

    def _write_version(
        self, dialogue_id: int, text: str, base: int, author: str, *, parent: int | None, note: str
    ) -> int:
        stamp = now()
        with self.db.write() as conn:
            row = conn.execute(
                "SELECT name, version, updated_by, updated_at FROM dialogues WHERE id = ?", (dialogue_id,)
            ).fetchone()
            if row is None:
                raise LookupError(dialogue_id)
            if row["version"] != base:
                raise VersionConflict(row["name"], base, row["version"], row["updated_by"], row["updated_at"])
            version = base + 1
            conn.execute(
                "UPDATE dialogues SET text = ?, version = ?, updated_by = ?, updated_at = ? "
                "WHERE id = ? AND version = ?",
                (text, version, author, stamp, dialogue_id, base),
            )
            conn.execute(
                "INSERT INTO dialogue_versions (dialogue_id, version, text, parent, author, created_at, note) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (dialogue_id, version, text, parent, author, stamp, note),
            )
        return version

    def save(self, dialogue_id: int, text: str, base_version: int, author: str) -> dict[str, Any]:
        """Save ``text`` made from ``base_version``; unchanged text (line endings aside) creates no version."""
        current = self.get(dialogue_id)
        if len(text.encode("utf-8")) > MAX_DIALOGUE_BYTES:
            raise InputError(f"longer than {MAX_DIALOGUE_BYTES // 1000} kB", path=f"{current['name']}.txt")
        parse_text(text, current["name"])
        if current["version"] == base_version and text.replace("\r\n", "\n") == current["text"].replace("\r\n", "\n"):
            return {"version": base_version, "changed": False}
        version = self._write_version(dialogue_id, text, base_version, author, parent=base_version, note="edited")
        return {"version": version, "changed": True}

    def undo(self, dialogue_id: int, base_version: int, author: str) -> dict[str, Any]:
        """Restore the text the current version was made from (a new version whose parent is that one's parent)."""
        current = self.get(dialogue_id)
        if current["version"] != base_version:
            raise VersionConflict(
                current["name"], base_version, current["version"], current["updated_by"], current["updated_at"]
            )
        row = self.db.read_one(
            "SELECT parent FROM dialogue_versions WHERE dialogue_id = ? AND version = ?", (dialogue_id, base_version)
        )
        parent = row["parent"] if row else None
        if parent is None:
            raise InputError("nothing to undo: this is the dialogue's first version")
        before = self.db.read_one(
            "SELECT text, parent FROM dialogue_versions WHERE dialogue_id = ? AND version = ?", (dialogue_id, parent)
        )
        assert before is not None
        version = self._write_version(
            dialogue_id, before["text"], base_version, author, parent=before["parent"], note=f"undo to version {parent}"
        )
        return {"version": version, "text": before["text"]}

    def tree(self, collection_id: int) -> list[dict[str, Any]]:
        """Problems, their bugs and each bug's dialogues (main dialogue first), with the problem's first line."""
        rows = self.db.read(
            "SELECT id, name, text, version, updated_by, updated_at FROM dialogues WHERE collection_id = ?",
            (collection_id,),
        )
        problems: dict[str, dict[str, Any]] = {}
        for row in rows:
            match = FILE_NAME.match(row["name"])
            if match is None:
                continue
            problem = problems.setdefault(match["problem_id"], {"id": match["problem_id"], "title": "", "bugs": {}})
            bug = problem["bugs"].setdefault(match["bug_id"], {"id": match["bug_id"], "dialogues": []})
            main = match["kind"] == "socratic_dialogue"
            if main or not problem["title"]:
                problem["title"] = _first_problem_line(row["text"]) or problem["title"]
            bug["dialogues"].append(
                {"id": row["id"], "name": row["name"], "main": main, "kind": match["kind"], "version": row["version"],
                 "updated_by": row["updated_by"], "updated_at": row["updated_at"]}
            )  # fmt: skip
        out = []
        for problem in sorted(problems.values(), key=lambda p: _number_key(p["id"])):
            bugs = sorted(problem["bugs"].values(), key=lambda b: _number_key(b["id"]))
            for bug in bugs:
                bug["dialogues"].sort(key=lambda d: (not d["main"], d["name"]))
            out.append({"id": problem["id"], "title": problem["title"], "bugs": bugs})
        return out

    def new_thread(self, dialogue_id: int, upto_line: int, author: str) -> int:
        """A conversational thread of the same bug: the file up to ``upto_line`` (a dialogue line), closed."""
        source = self.get(dialogue_id)
        match = FILE_NAME.match(source["name"])
        assert match is not None
        lines = source["text"].split("\n")
        opens = [i for i, line in enumerate(lines) if line.strip() == "<dialogue>"]
        if not opens:
            raise InputError("the dialogue has no <dialogue> section")
        cut = max(opens[0] + 2, min(upto_line, len(lines)))
        body = [line for line in lines[:cut] if line.strip() != "</dialogue>"]
        text = "\n".join(body).rstrip("\n") + "\n</dialogue>\n"
        prefix = f"{match['problem_id']}_{match['bug_id']}_{match['name']}_conversational_thread_"
        taken = {row["name"] for row in self.db.read(
            "SELECT name FROM dialogues WHERE collection_id = ?", (source["collection_id"],))}  # fmt: skip
        number = 1
        while f"{prefix}{number}" in taken:
            number += 1
        return self.create(source["collection_id"], f"{prefix}{number}", text, author)

    # -- export ----------------------------------------------------------------------------------------------------

    def export_files(self, collection_id: int) -> list[tuple[str, bytes]]:
        """(file name, bytes) of every dialogue: the imported bytes when the text is unchanged, else UTF-8 text."""
        rows = self.db.read(
            "SELECT name, text, original FROM dialogues WHERE collection_id = ? ORDER BY name", (collection_id,)
        )
        out = []
        for row in rows:
            original: bytes | None = row["original"]
            if original is not None and original.decode("utf-8-sig") == row["text"]:
                out.append((f"{row['name']}.txt", original))
            else:
                out.append((f"{row['name']}.txt", row["text"].encode("utf-8")))
        return out

    def export_folder(self, collection_id: int, folder: Path) -> list[Path]:
        folder.mkdir(parents=True, exist_ok=False)
        written = []
        for name, data in self.export_files(collection_id):
            path = folder / name
            path.write_bytes(data)
            written.append(path)
        return written

    def export_zip(self, collection_id: int) -> bytes:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
            for name, data in self.export_files(collection_id):
                bundle.writestr(name, data)
        return buffer.getvalue()


def _first_problem_line(text: str) -> str:
    lines = text.lstrip("\ufeff").split("\n")
    for i, line in enumerate(lines):
        if line.strip() == "<problem>":
            for candidate in lines[i + 1 :]:
                if candidate.strip():
                    return candidate.strip()[:120]
    return ""


def _number_key(value: str) -> tuple[int, int | str]:
    return (0, int(value)) if value.isdigit() else (1, value)
