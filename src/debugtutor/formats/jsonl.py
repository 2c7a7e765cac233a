"""JSON Lines: the one reader of the JSONL files users hand to debugtutor (records, predictions, ratings, datasets).

Bad bytes, a line that is not JSON, or a line that is not an object each give the one-line
:class:`~debugtutor.errors.InputError` naming the file and line; blank lines are skipped; a byte-order mark is dropped.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from debugtutor.errors import InputError, read_text


def read_jsonl(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each non-blank line of ``path``."""
    name = str(path)
    for number, line in enumerate(read_text(path).split("\n"), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"not valid JSON: {exc.msg}", path=name, line=number) from None
        except RecursionError:
            raise InputError("not valid JSON: nested too deeply", path=name, line=number) from None
        if not isinstance(value, dict):
            raise InputError("a line must hold one JSON object", path=name, line=number)
        yield number, value
