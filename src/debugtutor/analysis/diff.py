"""Line- and token-level diff of two versions of a program, naming each changed line and the kind of change.

Lines are compared as token sequences, so spacing inside a line, blank lines and comment-only lines never count
as changes; the remaining lines are aligned with :mod:`difflib`. Each replaced pair of lines is classified by the
tokens that differ: ``indentation`` (same tokens, other indent), ``range_bound`` (a change inside ``range(...)``),
``constant`` (only literals changed), ``operator`` (only operators changed), ``condition`` (a change in the test of
``if``/``elif``/``while``), else ``other``. Lines only in ``before`` are ``extra_statement`` and lines only in
``after`` are ``missing_statement`` — named from the buggy program's point of view when ``before`` is the buggy
version and ``after`` the fix.
"""

from __future__ import annotations

import difflib
import re
from typing import Literal

from pydantic import BaseModel

ChangeKind = Literal[
    "operator", "constant", "range_bound", "condition", "missing_statement", "extra_statement", "indentation", "other"
]

_TOKEN = re.compile(
    r"""[rbfuRBFU]{0,2}(?:'''[\s\S]*?'''|\"\"\"[\s\S]*?\"\"\"|'(?:\\.|[^'\\])*'?|"(?:\\.|[^"\\])*"?)"""
    r"""|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?j?|\.\d+|[A-Za-z_]\w*|\*\*=?|//=?|>>=?|<<=?|[-+*/%&|^@<>=!:]=|->|:=|\S"""
)
_OPERATORS = frozenset(
    ["+", "-", "*", "/", "//", "%", "**", "==", "!=", "<", "<=", ">", ">=", "=", "+=", "-=", "*=", "/=", "//=", "%=",
     "**=", "&", "|", "^", "~", "<<", ">>", "and", "or", "not", "in", "is", ":="]
)  # fmt: skip
_COMPARISON_OPERATORS = frozenset(["==", "!=", "<", "<=", ">", ">=", "and", "or", "not", "in", "is"])


class Change(BaseModel):
    """One changed line (or pair of aligned lines)."""

    kind: ChangeKind
    line_before: int | None
    line_after: int | None
    before_text: str
    after_text: str
    description: str


class ProgramDiff(BaseModel):
    """The changes between two versions of a program, with the changed 1-based line numbers on each side."""

    changed_lines_before: list[int]
    changed_lines_after: list[int]
    changes: list[Change]

    @property
    def identical(self) -> bool:
        """True when the programs differ only in layout inside lines, blank lines or comments."""
        return not self.changes


def tokens(line: str) -> list[str]:
    """Python-ish tokens of one line, without its comment."""
    found = []
    for match in _TOKEN.finditer(line):
        token = match.group(0)
        if token == "#":
            break
        found.append(token)
    return found


def _is_literal(token: str) -> bool:
    return bool(re.match(r"[rbfuRBFU]{0,2}['\"]|\d|\.\d", token)) or token in ("True", "False", "None")


def _indent(line: str) -> int:
    expanded = line.expandtabs(8)
    return len(expanded) - len(expanded.lstrip())


def _classify(before: str, after: str) -> tuple[ChangeKind, str]:
    old, new = tokens(before), tokens(after)
    if old == new:
        return "indentation", f"indentation {_indent(before)} -> {_indent(after)}"
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    removed: list[str] = []
    added: list[str] = []
    first_change = len(old)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            removed += old[i1:i2]
            added += new[j1:j2]
            first_change = min(first_change, i1)
    summary = f"{' '.join(removed) or '(nothing)'} -> {' '.join(added) or '(nothing)'}"
    changed = removed + added
    if "range" in old[:first_change] and _inside_call(old, first_change, "range"):
        return "range_bound", f"range bound: {summary}"
    header = bool(old) and old[0] in ("if", "elif", "while") and bool(new) and new[0] == old[0]
    if header and any(t in _COMPARISON_OPERATORS for t in changed):
        return "condition", f"condition: {summary}"
    if changed and all(t in _OPERATORS for t in changed):
        return "operator", f"operator: {summary}"
    if changed and all(_is_literal(t) or t in _OPERATORS for t in changed) and any(_is_literal(t) for t in changed):
        return "constant", f"constant: {summary}"
    if header:
        return "condition", f"condition: {summary}"
    return "other", summary


def _inside_call(toks: list[str], index: int, name: str) -> bool:
    """True when token ``index`` lies inside the parentheses of the last ``name(`` call opened before it."""
    depth = 0
    for i in range(index - 1, -1, -1):
        if toks[i] == ")":
            depth += 1
        elif toks[i] == "(":
            if depth == 0:
                return i > 0 and toks[i - 1] == name
            depth -= 1
    return False


def _code_lines(source: str) -> list[tuple[int, str]]:
    """(1-based number, text) of the lines that carry code (not blank, not comment-only)."""
    return [(n, line) for n, line in enumerate(source.splitlines(), start=1) if tokens(line)]


def diff_programs(before: str, after: str) -> ProgramDiff:
    """The changes that turn ``before`` into ``after`` (see the module docstring for the kinds)."""
    old_lines, new_lines = _code_lines(before), _code_lines(after)
    # indentation is part of the key so that re-indented lines show up as changes
    old_keys = [(_indent(t), tuple(tokens(t))) for _, t in old_lines]
    new_keys = [(_indent(t), tuple(tokens(t))) for _, t in new_lines]
    matcher = difflib.SequenceMatcher(a=old_keys, b=new_keys, autojunk=False)
    changes: list[Change] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        olds, news = old_lines[i1:i2], new_lines[j1:j2]
        paired = _pair(olds, news) if tag == "replace" else []
        paired_old = {id(o) for o, _ in paired}
        paired_new = {id(n) for _, n in paired}
        for (bn, bt), (an, at) in paired:
            kind, description = _classify(bt, at)
            changes.append(
                Change(
                    kind=kind,
                    line_before=bn,
                    line_after=an,
                    before_text=bt,
                    after_text=at,
                    description=f"line {bn}: {description}",
                )
            )
        for item in olds:
            if id(item) not in paired_old:
                bn, bt = item
                changes.append(
                    Change(
                        kind="extra_statement",
                        line_before=bn,
                        line_after=None,
                        before_text=bt,
                        after_text="",
                        description=f"line {bn}: '{bt.strip()}' is not in the other version",
                    )
                )
        for item in news:
            if id(item) not in paired_new:
                an, at = item
                changes.append(
                    Change(
                        kind="missing_statement",
                        line_before=None,
                        line_after=an,
                        before_text="",
                        after_text=at,
                        description=f"line {an} of the other version: '{at.strip()}' is missing",
                    )
                )
    changes.sort(key=lambda c: (c.line_before or 0, c.line_after or 0))
    return ProgramDiff(
        changed_lines_before=sorted({c.line_before for c in changes if c.line_before is not None}),
        changed_lines_after=sorted({c.line_after for c in changes if c.line_after is not None}),
        changes=changes,
    )


def _pair(olds: list[tuple[int, str]], news: list[tuple[int, str]]) -> list[tuple[tuple[int, str], tuple[int, str]]]:
    """Pair replaced lines by token similarity, in order; unpaired lines are extra or missing statements."""
    if len(olds) == len(news) and all(_similarity(o[1], n[1]) >= 0.3 for o, n in zip(olds, news)):
        return list(zip(olds, news))  # a block rewritten line for line
    pairs: list[tuple[tuple[int, str], tuple[int, str]]] = []
    start = 0
    for old in olds:
        best, best_score = None, 0.5  # below this the lines are unrelated: a removal plus an insertion
        for k in range(start, len(news)):
            score = _similarity(old[1], news[k][1])
            if score > best_score:
                best, best_score = k, score
        if best is not None:
            pairs.append((old, news[best]))
            start = best + 1
    return pairs


def _similarity(before: str, after: str) -> float:
    return difflib.SequenceMatcher(a=tokens(before), b=tokens(after), autojunk=False).ratio()
