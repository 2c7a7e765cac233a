"""Reading DebugBench: the GitHub shards (``{language}_{bug type}.json``) or the Hugging Face ``eval`` file.

In the GitHub layout the language and the minor bug type come only from the file name; the Hugging Face layout
carries ``language``, ``category`` and ``subtype`` on each record. Both become :class:`DebugBenchItem` s with the
major category of DebugBench's taxonomy (syntax, reference, logic, multiple).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from debugtutor.debugeval.records import LanguageName, normalize_language
from debugtutor.errors import InputError, read_text
from debugtutor.formats.jsonl import read_jsonl

# DebugBench's taxonomy: minor bug type (shard name) -> major category.
MAJOR_BY_MINOR: dict[str, str] = {
    "misused == or =": "syntax error",
    "missing colons": "syntax error",
    "unclosed parentheses": "syntax error",
    "unclosed string": "syntax error",
    "illegal comment": "syntax error",
    "illegal separation": "syntax error",
    "illegal indentation": "syntax error",
    "faulty indexing": "reference error",
    "undefined objects": "reference error",
    "undefined methods": "reference error",
    "illegal keywords": "reference error",
    "condition error": "logic error",
    "operation error": "logic error",
    "variable error": "logic error",
    "other error": "logic error",
    "double": "multiple error",
    "triple": "multiple error",
    "quadruple": "multiple error",
}
_MAJOR_ALIASES = {
    "syntax": "syntax error",
    "reference": "reference error",
    "logic": "logic error",
    "logical": "logic error",
    "multiple": "multiple error",
    "multiple errors": "multiple error",
}


class DebugBenchItem(BaseModel):
    """One DebugBench bug: the problem, its correct (oracle) solution and the buggy variant."""

    language: LanguageName
    minor_type: str
    major_type: str
    slug: str
    description: str
    examples: list[str] = Field(default_factory=list)
    constraints: str = ""
    oracle_code: str
    buggy_code: str
    level: str = ""

    @property
    def uid(self) -> str:
        """A stable id from the content (not from file positions, so subsets and supersets agree)."""
        digest = hashlib.sha1(
            "\x00".join((self.language, self.minor_type, self.slug, self.buggy_code)).encode("utf-8")
        ).hexdigest()
        return f"debugbench-{self.language}-{digest[:12]}"

    @property
    def question_content(self) -> str:
        """Problem statement, examples and constraints, the way DebugEval's ``question_content`` combines them."""
        parts = [self.description.strip()]
        parts.extend(f"Example {index}:\n{example.strip()}" for index, example in enumerate(self.examples, 1))
        if self.constraints.strip():
            parts.append("Constraints:\n" + self.constraints.strip())
        return "\n\n".join(parts)


def major_of(minor: str, category: str | None = None) -> str:
    """The major category of a minor type (or the given category, normalised)."""
    if category:
        text = category.strip().lower()
        return _MAJOR_ALIASES.get(text, text)
    major = MAJOR_BY_MINOR.get(minor.strip().lower())
    if major is None:
        raise ValueError(f"unknown DebugBench bug type {minor!r}")
    return major


def _item(raw: dict[str, Any], language: str, minor: str, category: str | None, where: str) -> DebugBenchItem:
    try:
        description = raw.get("description") or raw.get("question") or ""
        oracle = raw.get("oracle_code") or raw.get("solution") or raw.get("correct_code") or ""
        examples = raw.get("examples") or []
        if isinstance(examples, str):
            examples = [examples]
        return DebugBenchItem(
            language=normalize_language(language),
            minor_type=minor.strip().lower(),
            major_type=major_of(minor, category),
            slug=str(raw.get("slug", "")),
            description=str(description),
            examples=[str(example) for example in examples],
            constraints=str(raw.get("constraints") or ""),
            oracle_code=str(oracle),
            buggy_code=str(raw["buggy_code"]),
            level=str(raw.get("level") or ""),
        )
    except (KeyError, ValueError) as exc:
        raise InputError(f"not a DebugBench record: {exc}", path=where) from exc


def _load_json_or_jsonl(path: Path) -> list[dict[str, Any]]:
    text = read_text(path)
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return [row for _, row in read_jsonl(path)]
    if isinstance(value, dict):
        value = value.get("data") or value.get("rows") or [value]
    if not isinstance(value, list):
        raise InputError("expected a JSON array of records", path=str(path))
    return [row.get("row", row) if isinstance(row, dict) else row for row in value]


# A record must have these (any one of each group's spellings) to make instances of any task.
_REQUIRED: dict[str, tuple[str, ...]] = {
    "slug": ("slug",),
    "buggy_code": ("buggy_code",),
    "oracle_code": ("oracle_code", "solution", "correct_code"),
    "description": ("description", "question"),
}


def missing_fields(raw: Any) -> list[str]:
    """The required fields a DebugBench record lacks (all of them when it is not an object)."""
    if not isinstance(raw, dict):
        return list(_REQUIRED)
    return [name for name, spellings in _REQUIRED.items() if not any(raw.get(key) for key in spellings)]


def load_debugbench(
    path: Path, *, skip_invalid: bool = False, invalid: list[str] | None = None
) -> list[DebugBenchItem]:
    """All DebugBench items under ``path`` (the shards folder, a ``benchmark/`` folder under it, or an HF file).

    A record without a required field is an InputError naming the file, the record and the field; with
    ``skip_invalid`` it is left out instead and described in ``invalid`` (one entry per record), never silently."""
    if not path.exists():
        raise InputError("does not exist", path=str(path), hint="pass --data to a copy of DebugBench")
    files = [path] if path.is_file() else sorted(path.glob("*.json")) + sorted(path.glob("*.jsonl"))
    if path.is_dir() and not files and (path / "benchmark").is_dir():
        files = sorted((path / "benchmark").glob("*.json"))
    items: list[DebugBenchItem] = []
    for file in files:
        language, underscore, minor = file.stem.partition("_")
        shard = bool(underscore) and minor.lower() in MAJOR_BY_MINOR
        for number, raw in enumerate(_load_json_or_jsonl(file), start=1):
            lacking = missing_fields(raw)
            if lacking:
                where = f"record {number}" + (
                    f" ({raw.get('slug')})" if isinstance(raw, dict) and raw.get("slug") else ""
                )
                if not skip_invalid:
                    raise InputError(
                        f"{where} has no {', '.join(lacking)}",
                        path=str(file),
                        field=lacking[0],
                        hint="--skip-invalid leaves such records out and counts them",
                    )
                if invalid is not None:
                    invalid.append(f"{file.name} {where}: no {', '.join(lacking)}")
                continue
            if shard:
                items.append(_item(raw, language, minor, None, str(file)))
            elif "language" in raw and ("subtype" in raw or "category" in raw):
                items.append(
                    _item(raw, str(raw["language"]), str(raw.get("subtype", "")), raw.get("category"), str(file))
                )
    if not items:
        raise InputError("no DebugBench records found", path=str(path), hint="expected files like python3_double.json")
    return items
