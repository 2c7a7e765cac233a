"""The record of one edit and the machinery every operator shares: source text with positions, the context an
operator reads, and the candidate builder."""

from __future__ import annotations

import ast
import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal

EditCategory = Literal["syntax", "reference", "logic"]
Direction = Literal["mutate", "repair"]
ALL_CATEGORIES: tuple[EditCategory, ...] = ("syntax", "reference", "logic")


@dataclass(frozen=True)
class Edit:
    """One program transformation: what it did, where, and the whole resulting program."""

    operator: str
    category: EditCategory
    line: int
    description: str
    source: str
    bug_type: str = ""
    """The DebugBench minor bug type this edit injects or undoes (e.g. ``"condition error"``), when it has one."""


# Priorities: lower is more plausible; edits are yielded sorted by (priority, line).
_P_FIRST, _P_HIGH, _P_MID, _P_LOW, _P_LAST = 0, 1, 2, 3, 4

_BINOP_SYMBOLS: dict[type[ast.operator], str] = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Pow: "**",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.BitOr: "|",
    ast.BitXor: "^",
    ast.BitAnd: "&",
}
_BINOP_SWAPS: dict[str, tuple[str, ...]] = {
    "+": ("-", "*"),
    "-": ("+",),
    "*": ("+", "/", "//", "**"),
    "/": ("//", "*"),
    "//": ("/", "%", "*"),
    "%": ("//",),
    "**": ("*",),
    "<<": (">>",),
    ">>": ("<<",),
    "|": ("&", "^"),
    "&": ("|",),
    "^": ("|", "&"),
}
_CMP_SYMBOLS: dict[type[ast.cmpop], str] = {
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Is: "is",
    ast.IsNot: "is not",
    ast.In: "in",
    ast.NotIn: "not in",
}
# Ordered by how often the swap is the actual novice mistake: strictness first, then direction, then negation.
_CMP_SWAPS: dict[str, tuple[str, ...]] = {
    "<": ("<=", ">", "!=", "=="),
    "<=": ("<", ">=", "=="),
    ">": (">=", "<", "!=", "=="),
    ">=": (">", "<=", "=="),
    "==": ("!=", "<=", ">=", "<", ">", "is"),
    "!=": ("==", "<", ">"),
    "is": ("is not", "=="),
    "is not": ("is", "!="),
    "in": ("not in",),
    "not in": ("in",),
}
_METHOD_SWAPS: dict[str, tuple[str, ...]] = {
    "upper": ("lower",),
    "lower": ("upper",),
    "isupper": ("islower",),
    "islower": ("isupper",),
    "append": ("extend", "insert"),
    "extend": ("append",),
    "pop": ("popleft", "remove"),
    "popleft": ("pop",),
    "remove": ("pop", "discard"),
    "startswith": ("endswith",),
    "endswith": ("startswith",),
    "find": ("rfind", "index"),
    "rfind": ("find",),
    "index": ("find",),
    "split": ("strip",),
    "strip": ("split", "lstrip", "rstrip"),
    "keys": ("values", "items"),
    "values": ("keys", "items"),
    "items": ("keys", "values"),
    "isdigit": ("isalpha",),
    "isalpha": ("isdigit", "isalnum"),
    "sort": ("reverse",),
}
_FUNCTION_SWAPS: dict[str, tuple[str, ...]] = {
    "min": ("max",),
    "max": ("min",),
    "any": ("all",),
    "all": ("any",),
    "sorted": ("reversed",),
    "reversed": ("sorted",),
    "int": ("round", "float"),
    "float": ("int",),
    "round": ("int",),
}
# Foreign spellings that the mutation operators inject and the repairs translate back.
_FOREIGN_NAMES: dict[str, str] = {
    "true": "True",
    "false": "False",
    "null": "None",
    "nil": "None",
    "this": "self",
    "NULL": "None",
    "none": "None",
}
_FOREIGN_METHODS: dict[str, str] = {
    "push": "append",
    "add": "append",
    "length": "__len__",
    "size": "__len__",
    "contains": "__contains__",
    "toUpperCase": "upper",
    "toLowerCase": "lower",
    "charAt": "__getitem__",
    "substring": "__getitem__",
    "put": "update",
    "trim": "strip",
    "indexOf": "index",
    "equals": "__eq__",
}
_FOREIGN_CALLS = ("console.log", "System.out.println", "println", "printf", "puts", "echo", "print_r")
_INJECTED_METHODS: dict[str, str] = {
    "append": "push",
    "pop": "popFront",
    "extend": "addAll",
    "add": "insert",
    "get": "getOrDefault",
    "items": "entrySet",
    "keys": "keySet",
    "join": "concat",
    "split": "tokenize",
    "upper": "toUpperCase",
    "lower": "toLowerCase",
    "strip": "trim",
    "index": "indexOf",
    "sort": "sorted",
    "count": "countOf",
    "popleft": "shift",
    "update": "putAll",
    "remove": "delete",
    "insert": "add",
    "find": "search",
}


class _Text:
    """A source with conversions from AST positions (1-based line, UTF-8 byte column) to string offsets."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.lines = source.splitlines(keepends=True)
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line))

    def offset(self, lineno: int, col: int) -> int:
        line = self.lines[lineno - 1] if lineno - 1 < len(self.lines) else ""
        return self.starts[lineno - 1] + len(line.encode("utf-8")[:col].decode("utf-8", errors="ignore"))

    def span(self, node: ast.AST) -> tuple[int, int]:
        start = self.offset(node.lineno, node.col_offset)  # type: ignore[attr-defined]
        end = self.offset(node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]
        return start, end

    def segment(self, node: ast.AST) -> str:
        start, end = self.span(node)
        return self.source[start:end]

    def replace(self, start: int, end: int, text: str) -> str:
        return self.source[:start] + text + self.source[end:]

    def line_text(self, lineno: int) -> str:
        return self.lines[lineno - 1].rstrip("\r\n") if 0 < lineno <= len(self.lines) else ""

    def indent_of(self, lineno: int) -> str:
        text = self.line_text(lineno)
        return text[: len(text) - len(text.lstrip())]


@dataclass
class _Context:
    text: _Text
    tree: ast.Module
    lines: Collection[int] | None
    direction: Direction
    preamble: Collection[str]
    parents: dict[ast.AST, ast.AST]

    def wanted(self, lineno: int) -> bool:
        return self.lines is None or lineno in self.lines


_Candidate = tuple[int, Edit]  # (priority, edit)


def _edit(
    ctx: _Context,
    priority: int,
    operator: str,
    category: EditCategory,
    line: int,
    description: str,
    source: str,
    bug_type: str = "",
) -> _Candidate:
    return priority, Edit(operator, category, line, f"line {line}: {description}", source, bug_type)


def _operator_span(ctx: _Context, left: ast.AST, right: ast.AST) -> tuple[int, int, str] | None:
    """The offsets and text of the operator between two operand nodes (parentheses and spaces skipped)."""
    start = ctx.text.offset(left.end_lineno, left.end_col_offset)  # type: ignore[attr-defined]
    end = ctx.text.offset(right.lineno, right.col_offset)  # type: ignore[attr-defined]
    region = ctx.text.source[start:end]
    match = re.search(r"[^\s()\\]+(?:\s+[^\s()\\]+)?", region)
    if match is None:
        return None
    return start + match.start(), start + match.end(), re.sub(r"\s+", " ", match.group(0))


def _plus(text: str, delta: int) -> str:
    """``text`` (an expression) plus ``delta``, folding into a trailing integer when there is one."""
    stripped = text.strip()
    if re.fullmatch(r"-?\d+", stripped):
        return str(int(stripped) + delta)
    match = re.fullmatch(r"(.*?)\s*([+-])\s*(\d+)", stripped, flags=re.S)
    if match and "(" not in match.group(1)[-1:]:
        base, sign, number = match.group(1), match.group(2), int(match.group(3))
        value = (number if sign == "+" else -number) + delta
        if value == 0:
            return base
        return f"{base} + {value}" if value > 0 else f"{base} - {-value}"
    if re.search(r"\s(if|else|or|and|lambda)\s", f" {stripped} "):
        stripped = f"({stripped})"
    return f"{stripped} + {delta}" if delta > 0 else f"{stripped} - {-delta}"
