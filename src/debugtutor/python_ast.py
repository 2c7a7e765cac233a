"""``ast.parse`` that is safe to call from several threads at once.

CPython before 3.12 keeps the AST constructor's recursion depth in per-interpreter state; two threads building trees
at the same time (the engine parses in ``asyncio.to_thread`` workers) can corrupt it, and ``ast.parse`` then raises
``SystemError: AST constructor recursion depth mismatch`` on perfectly good code (python/cpython#106905). Every
parse on the host goes through :func:`parse`, which holds one lock while the tree is built. Code that runs inside the
sandbox (a single thread, standard library only) keeps calling ``ast.parse``.
"""

from __future__ import annotations

import ast
import threading
from typing import Any

_BUILDING = threading.RLock()  # (re-entrant: a finaliser run during a parse may parse again on the same thread)


def parse(source: str | bytes, filename: str = "<unknown>") -> ast.Module:
    """``ast.parse(source, filename)`` (a module), one thread at a time; raises what ``ast.parse`` raises."""
    with _BUILDING:
        return ast.parse(source, filename)


def literal_eval(text: str) -> Any:
    """``ast.literal_eval(text)`` for a string (which parses it: the same lock applies)."""
    with _BUILDING:
        return ast.literal_eval(text)
