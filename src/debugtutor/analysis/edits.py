"""Single-edit program transformations shared by bug injection (mutation) and fix search (repair).

``candidate_edits(source, lines=..., direction="repair")`` yields fix-oriented edits, most plausible first: the
syntax fixes that :mod:`debugtutor.analysis.static` proposes for each syntax issue (add a colon, close a bracket or
string, re-indent a block, ``=`` -> ``==``, translate a foreign keyword), reference fixes (rename an undefined name
or method to the closest defined one, unwrap a call to an undefined foreign function) and logic edits on the AST
(comparison and arithmetic operator swaps, +-1 on range bounds, indices and constants, ``and``/``or``, negated
conditions, swapped variables, ``print`` -> ``return``, a missing ``return``, moving, dropping or swapping
statements). ``direction="mutate"`` yields the bug-injecting counterparts for the DebugBench taxonomy.

Every edit is a text substitution located by AST positions (or by the line scanner when the source does not
parse), so comments and layout outside the changed span survive byte for byte.
"""

from __future__ import annotations

import ast
import builtins
import difflib
import re
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from typing import Literal

from debugtutor.analysis.static import (
    LEETCODE_PREAMBLE,
    reference_diagnostics,
    scan_lines,
    syntax_issues,
    undefined_names,
)

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


# ---------------------------------------------------------------------------------------------------------------
# Logic operators (shared by both directions: most are their own inverse).


def _comparison_edits(ctx: _Context) -> Iterator[_Candidate]:
    for node in ast.walk(ctx.tree):
        if not isinstance(node, ast.Compare) or not ctx.wanted(node.lineno):
            continue
        operands = [node.left, *node.comparators]
        for i, op in enumerate(node.ops):
            found = _operator_span(ctx, operands[i], operands[i + 1])
            if found is None:
                continue
            start, end, old = found
            for rank, new in enumerate(_CMP_SWAPS.get(_CMP_SYMBOLS[type(op)], ())):
                priority = _P_HIGH if rank == 0 else _P_MID if rank < 3 else _P_LOW
                yield _edit(
                    ctx,
                    priority,
                    "swap_comparison",
                    "logic",
                    node.lineno,
                    f"'{old}' -> '{new}'",
                    ctx.text.replace(start, end, new),
                    "condition error",
                )


def _arithmetic_edits(ctx: _Context) -> Iterator[_Candidate]:
    for node in ast.walk(ctx.tree):
        if isinstance(node, ast.BinOp) and ctx.wanted(node.lineno):
            if isinstance(node.left, ast.Constant) and isinstance(node.left.value, str):
                continue  # string formatting / concatenation
            found = _operator_span(ctx, node.left, node.right)
            if found is None:
                continue
            start, end, old = found
            for rank, new in enumerate(_BINOP_SWAPS.get(old, ())):
                yield _edit(
                    ctx,
                    _P_MID if rank == 0 else _P_LOW,
                    "swap_arithmetic",
                    "logic",
                    node.lineno,
                    f"'{old}' -> '{new}'",
                    ctx.text.replace(start, end, new),
                    "operation error",
                )
        elif isinstance(node, ast.AugAssign) and ctx.wanted(node.lineno):
            found = _operator_span(ctx, node.target, node.value)
            if found is None:
                continue
            start, end, old = found
            symbol = old.rstrip("=")
            for new in (*_BINOP_SWAPS.get(symbol, ()), ""):
                replacement = f"{new}="
                yield _edit(
                    ctx,
                    _P_MID if new else _P_LOW,
                    "swap_augmented_assignment",
                    "logic",
                    node.lineno,
                    f"'{old}' -> '{replacement}'",
                    ctx.text.replace(start, end, replacement),
                    "operation error",
                )
        elif isinstance(node, ast.BoolOp) and ctx.wanted(node.lineno):
            for left, right in zip(node.values, node.values[1:]):
                found = _operator_span(ctx, left, right)
                if found is None:
                    continue
                start, end, old = found
                new = "or" if old == "and" else "and"
                yield _edit(
                    ctx,
                    _P_MID,
                    "swap_boolean_operator",
                    "logic",
                    node.lineno,
                    f"'{old}' -> '{new}'",
                    ctx.text.replace(start, end, new),
                    "condition error",
                )


def _condition_edits(ctx: _Context) -> Iterator[_Candidate]:
    for node in ast.walk(ctx.tree):
        test: ast.expr | None = None
        if isinstance(node, (ast.If, ast.While, ast.IfExp, ast.Assert)):
            test = node.test
        if test is None or not ctx.wanted(test.lineno):
            continue
        start, end = ctx.text.span(test)
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            inner = ctx.text.segment(test.operand)
            yield _edit(
                ctx,
                _P_MID,
                "negate_condition",
                "logic",
                test.lineno,
                "drop 'not'",
                ctx.text.replace(start, end, inner),
                "condition error",
            )
        else:
            segment = ctx.text.segment(test)
            wrapped = (
                segment if isinstance(test, (ast.Name, ast.Call, ast.Attribute, ast.Subscript)) else f"({segment})"
            )
            yield _edit(
                ctx,
                _P_LOW,
                "negate_condition",
                "logic",
                test.lineno,
                "add 'not'",
                ctx.text.replace(start, end, f"not {wrapped}"),
                "condition error",
            )
        if isinstance(test, ast.BoolOp) and ctx.direction == "repair":
            for i, value in enumerate(test.values):
                rest = [ctx.text.segment(v) for j, v in enumerate(test.values) if j != i]
                joiner = " and " if isinstance(test.op, ast.And) else " or "
                yield _edit(
                    ctx,
                    _P_LAST,
                    "drop_condition_clause",
                    "logic",
                    test.lineno,
                    f"drop '{ctx.text.segment(value)}'",
                    ctx.text.replace(start, end, joiner.join(rest)),
                    "condition error",
                )


def _range_edits(ctx: _Context) -> Iterator[_Candidate]:
    for node in ast.walk(ctx.tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range"):
            continue
        if not ctx.wanted(node.lineno) or not node.args or len(node.args) > 3:
            continue
        for index, arg in enumerate(node.args[:2]):
            start, end = ctx.text.span(arg)
            text = ctx.text.segment(arg)
            for delta in (1, -1) if index == 0 else (-1, 1):
                new = _plus(text, delta)
                yield _edit(
                    ctx,
                    _P_HIGH,
                    "range_bound_off_by_one",
                    "logic",
                    node.lineno,
                    f"range bound {text} -> {new}",
                    ctx.text.replace(start, end, new),
                    "condition error",
                )
        if len(node.args) == 1:
            start, _ = ctx.text.span(node.args[0])
            for first in ("1", "2"):
                yield _edit(
                    ctx,
                    _P_MID,
                    "range_add_start",
                    "logic",
                    node.lineno,
                    f"range start {first}",
                    ctx.text.replace(start, start, f"{first}, "),
                    "condition error",
                )
        elif len(node.args) >= 2 and ctx.direction == "repair":
            start, _ = ctx.text.span(node.args[0])
            first_text = ctx.text.segment(node.args[0]).strip()
            if first_text in ("0", "1"):
                yield _edit(
                    ctx,
                    _P_MID,
                    "range_drop_start",
                    "logic",
                    node.lineno,
                    "drop the range start",
                    ctx.text.replace(start, ctx.text.span(node.args[1])[0], ""),
                    "condition error",
                )


def _index_edits(ctx: _Context) -> Iterator[_Candidate]:
    for node in ast.walk(ctx.tree):
        if not isinstance(node, ast.Subscript) or not ctx.wanted(node.lineno):
            continue
        parts: list[ast.expr] = []
        if isinstance(node.slice, ast.Slice):
            parts = [p for p in (node.slice.lower, node.slice.upper) if p is not None]
        elif not isinstance(node.slice, ast.Tuple) and not (
            isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)
        ):
            parts = [node.slice]
        for part in parts:
            start, end = ctx.text.span(part)
            text = ctx.text.segment(part)
            for delta in (-1, 1):
                new = _plus(text, delta)
                yield _edit(
                    ctx,
                    _P_MID,
                    "index_off_by_one",
                    "logic",
                    node.lineno,
                    f"index {text} -> {new}",
                    ctx.text.replace(start, end, new),
                    "faulty indexing",
                )
    for node in ast.walk(ctx.tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len":
            parent = ctx.parents.get(node)
            if ctx.wanted(node.lineno) and not (
                isinstance(parent, ast.Call) and getattr(parent.func, "id", "") == "range"
            ):
                start, end = ctx.text.span(node)
                text = ctx.text.segment(node)
                for delta in (-1, 1):
                    yield _edit(
                        ctx,
                        _P_LOW,
                        "length_off_by_one",
                        "logic",
                        node.lineno,
                        f"{text} -> {_plus(text, delta)}",
                        ctx.text.replace(start, end, _plus(text, delta)),
                        "faulty indexing",
                    )


def _constant_edits(ctx: _Context) -> Iterator[_Candidate]:
    for node in ast.walk(ctx.tree):
        if not isinstance(node, ast.Constant) or not ctx.wanted(node.lineno):
            continue
        parent = ctx.parents.get(node)
        if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id == "range":
            continue  # handled as range bounds
        if isinstance(parent, ast.Subscript) and parent.slice is node:
            continue  # handled as indices
        start, end = ctx.text.span(node)
        value = node.value
        replacements: list[str] = []
        if isinstance(value, bool):
            replacements = [str(not value)]
        elif isinstance(value, int):
            replacements = [str(value + 1), str(value - 1)] + [
                str(v) for v in (0, 1, -value) if v not in (value, value + 1, value - 1)
            ]
        elif isinstance(value, float):
            replacements = [repr(value + 1), repr(value - 1)]
        for rank, new in enumerate(replacements):
            yield _edit(
                ctx,
                _P_MID if rank < 2 else _P_LOW,
                "change_constant",
                "logic",
                node.lineno,
                f"{ctx.text.segment(node)} -> {new}",
                ctx.text.replace(start, end, new),
                "variable error",
            )


def _function_scopes(tree: ast.Module) -> Iterator[tuple[ast.AST, list[str]]]:
    """Each function (and the module) with the local variable names it binds, in first-binding order."""
    scopes: list[ast.AST] = [
        tree,
        *(n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))),
    ]
    for scope in scopes:
        names: list[str] = []
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.extend(a.arg for a in [*scope.args.posonlyargs, *scope.args.args, *scope.args.kwonlyargs])
        body = scope.body if isinstance(scope, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)) else []
        body_nodes = (n for s in body for n in ast.walk(s))
        for sub in body_nodes:
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store) and sub.id not in names:
                names.append(sub.id)
        yield scope, [n for n in names if n not in ("self", "cls", "_")]


def _variable_edits(ctx: _Context) -> Iterator[_Candidate]:
    for scope, names in _function_scopes(ctx.tree):
        if isinstance(scope, ast.Module) or len(names) < 2:
            continue
        for node in ast.walk(scope):
            if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in names):
                continue
            if not ctx.wanted(node.lineno):
                continue
            start, end = ctx.text.span(node)
            others = sorted(
                (n for n in names if n != node.id), key=lambda n: -difflib.SequenceMatcher(None, n, node.id).ratio()
            )[:4]
            for other in others:
                yield _edit(
                    ctx,
                    _P_LAST,
                    "swap_variable",
                    "logic",
                    node.lineno,
                    f"'{node.id}' -> '{other}'",
                    ctx.text.replace(start, end, other),
                    "variable error",
                )


def _call_swap_edits(ctx: _Context) -> Iterator[_Candidate]:
    for node in ast.walk(ctx.tree):
        if not isinstance(node, ast.Call) or not ctx.wanted(node.lineno):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id in _FUNCTION_SWAPS:
            start, end = ctx.text.span(func)
            for new in _FUNCTION_SWAPS[func.id]:
                yield _edit(
                    ctx,
                    _P_MID,
                    "swap_function",
                    "logic",
                    node.lineno,
                    f"{func.id}() -> {new}()",
                    ctx.text.replace(start, end, new),
                    "operation error",
                )
        elif isinstance(func, ast.Attribute) and func.attr in _METHOD_SWAPS:
            _, end = ctx.text.span(func)
            start = end - len(func.attr)
            for new in _METHOD_SWAPS[func.attr]:
                yield _edit(
                    ctx,
                    _P_LOW,
                    "swap_method",
                    "logic",
                    node.lineno,
                    f".{func.attr}() -> .{new}()",
                    ctx.text.replace(start, end, new),
                    "operation error",
                )


def _assignment_comparison_edits(ctx: _Context) -> Iterator[_Candidate]:
    """``x == y`` as a statement -> ``x = y`` (repair), and ``x = y`` -> ``x == y`` (mutate, still parses)."""
    for node in ast.walk(ctx.tree):
        if not ctx.wanted(getattr(node, "lineno", -1)):
            continue
        if (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Compare)
            and len(node.value.ops) == 1
            and isinstance(node.value.ops[0], ast.Eq)
        ):
            found = _operator_span(ctx, node.value.left, node.value.comparators[0])
            if found:
                yield _edit(
                    ctx,
                    _P_FIRST,
                    "comparison_to_assignment",
                    "logic",
                    node.lineno,
                    "'==' -> '='",
                    ctx.text.replace(found[0], found[1], "="),
                    "misused == or =",
                )
        elif ctx.direction == "mutate" and isinstance(node, ast.Assign) and len(node.targets) == 1:
            found = _operator_span(ctx, node.targets[0], node.value)
            if found and found[2] == "=":
                yield _edit(
                    ctx,
                    _P_LOW,
                    "assignment_to_comparison",
                    "logic",
                    node.lineno,
                    "'=' -> '=='",
                    ctx.text.replace(found[0], found[1], "=="),
                    "misused == or =",
                )


def _print_return_edits(ctx: _Context) -> Iterator[_Candidate]:
    for func in ast.walk(ctx.tree):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        returns_value = any(isinstance(n, ast.Return) and n.value is not None for n in ast.walk(func))
        for node in ast.walk(func):
            if ctx.direction == "repair" and isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
                call = node.value
                if isinstance(call.func, ast.Name) and call.func.id == "print" and ctx.wanted(node.lineno):
                    args = ", ".join(ctx.text.segment(a) for a in call.args)
                    start, end = ctx.text.span(node)
                    yield _edit(
                        ctx,
                        _P_HIGH if not returns_value else _P_MID,
                        "print_to_return",
                        "logic",
                        node.lineno,
                        "print(...) -> return ...",
                        ctx.text.replace(start, end, f"return {args}".rstrip()),
                        "other error",
                    )
            elif (
                ctx.direction == "mutate"
                and isinstance(node, ast.Return)
                and node.value is not None
                and ctx.wanted(node.lineno)
            ):
                start, end = ctx.text.span(node)
                yield _edit(
                    ctx,
                    _P_LOW,
                    "return_to_print",
                    "logic",
                    node.lineno,
                    "return ... -> print(...)",
                    ctx.text.replace(start, end, f"print({ctx.text.segment(node.value)})"),
                    "other error",
                )
        if ctx.direction == "repair" and not returns_value and func.body:
            last = func.body[-1]
            if not ctx.wanted(last.end_lineno or last.lineno) and not ctx.wanted(func.lineno):
                continue
            _, names = next(
                (s for s in _function_scopes(ast.Module(body=[func], type_ignores=[])) if s[0] is func), (func, [])
            )
            assigned = [n for n in names if n not in {a.arg for a in func.args.args}]
            indent = ctx.text.indent_of(last.lineno)
            insert_at = ctx.text.starts[last.end_lineno or last.lineno]
            for name in list(reversed(assigned))[:3]:
                new = ctx.text.replace(insert_at, insert_at, f"{indent}return {name}\n")
                if not ctx.text.source[:insert_at].endswith("\n"):
                    new = ctx.text.replace(insert_at, insert_at, f"\n{indent}return {name}")
                yield _edit(
                    ctx,
                    _P_MID,
                    "insert_return",
                    "logic",
                    last.end_lineno or last.lineno,
                    f"add 'return {name}'",
                    new,
                    "other error",
                )


def _statement_blocks(tree: ast.Module) -> Iterator[tuple[ast.AST, list[ast.stmt]]]:
    for node in ast.walk(tree):
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                yield node, block


def _lines_of(ctx: _Context, stmt: ast.stmt) -> tuple[int, int]:
    """String offsets covering the whole physical lines of ``stmt``."""
    return ctx.text.starts[stmt.lineno - 1], ctx.text.starts[stmt.end_lineno or stmt.lineno]


def _reindented(ctx: _Context, stmt: ast.stmt, new_indent: str) -> str:
    start, end = _lines_of(ctx, stmt)
    block = ctx.text.source[start:end]
    old_indent = ctx.text.indent_of(stmt.lineno)
    out = []
    for line in block.splitlines(keepends=True):
        out.append(new_indent + line[len(old_indent) :] if line.startswith(old_indent) else line)
    text = "".join(out)
    return text if text.endswith("\n") else text + "\n"


def _statement_edits(ctx: _Context) -> Iterator[_Candidate]:
    for parent, block in _statement_blocks(ctx.tree):
        for i, stmt in enumerate(block):
            if not ctx.wanted(stmt.lineno) or isinstance(stmt, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
                continue
            start, end = _lines_of(ctx, stmt)
            compound = isinstance(stmt, (ast.For, ast.While, ast.If, ast.With, ast.Try))
            if len(block) > 1 and not compound:
                yield _edit(
                    ctx,
                    _P_LAST if ctx.direction == "repair" else _P_MID,
                    "drop_statement",
                    "logic",
                    stmt.lineno,
                    f"drop '{ctx.text.line_text(stmt.lineno).strip()}'",
                    ctx.text.replace(start, end, ""),
                    "other error",
                )
            if isinstance(parent, (ast.For, ast.While, ast.If)) and block is parent.body and not compound:
                # move the statement out of the loop / if, to just after it
                parent_indent = ctx.text.indent_of(parent.lineno)
                after = ctx.text.starts[parent.end_lineno or parent.lineno]
                moved = _reindented(ctx, stmt, parent_indent)
                source = ctx.text.source
                if len(block) > 1:
                    new = source[:start] + source[end:after] + moved + source[after:]
                    yield _edit(
                        ctx,
                        _P_LOW,
                        "move_statement_out",
                        "logic",
                        stmt.lineno,
                        f"move '{ctx.text.line_text(stmt.lineno).strip()}' after line {parent.end_lineno}",
                        new,
                        "other error",
                    )
            if i > 0 and not compound and not isinstance(block[i - 1], (ast.FunctionDef, ast.ClassDef)):
                prev = block[i - 1]
                if isinstance(prev, (ast.For, ast.While, ast.If)) and ctx.direction == "repair":
                    # move the statement into the end of the previous loop / if body
                    inner_indent = ctx.text.indent_of(prev.body[-1].lineno)
                    source = ctx.text.source
                    new = source[:start] + _reindented(ctx, stmt, inner_indent) + source[end:]
                    yield _edit(
                        ctx,
                        _P_LOW,
                        "move_statement_in",
                        "logic",
                        stmt.lineno,
                        f"move '{ctx.text.line_text(stmt.lineno).strip()}' into the block on line {prev.lineno}",
                        new,
                        "other error",
                    )
                elif not isinstance(prev, (ast.For, ast.While, ast.If, ast.With, ast.Try)):
                    p_start, _ = _lines_of(ctx, prev)
                    source = ctx.text.source
                    new = source[:p_start] + source[start:end] + source[p_start:start] + source[end:]
                    yield _edit(
                        ctx,
                        _P_LAST,
                        "swap_statements",
                        "logic",
                        stmt.lineno,
                        f"swap with line {prev.lineno}",
                        new,
                        "other error",
                    )


# ---------------------------------------------------------------------------------------------------------------
# Reference operators.


def _defined_names(tree: ast.Module) -> list[str]:
    names: list[str] = []
    for node in ast.walk(tree):
        found: list[str] = []
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            found = [node.id]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found = [node.name]
        elif isinstance(node, ast.arg):
            found = [node.arg]
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            found = [(a.asname or a.name).split(".")[0] for a in node.names]
        names.extend(n for n in found if n not in names)
    return names


def _reference_repairs(ctx: _Context) -> Iterator[_Candidate]:
    defined = _defined_names(ctx.tree)
    pool = defined + [n for n in dir(builtins) if not n.startswith("_")] + sorted(ctx.preamble)
    for name, line, col in undefined_names(ctx.tree, preamble=ctx.preamble):
        if not ctx.wanted(line):
            continue
        start = ctx.text.offset(line, col)
        end = start + len(name)
        if ctx.text.source[start:end] != name:
            continue
        if name in _FOREIGN_NAMES:
            new = _FOREIGN_NAMES[name]
            yield _edit(
                ctx,
                _P_FIRST,
                "translate_foreign_name",
                "reference",
                line,
                f"'{name}' -> '{new}'",
                ctx.text.replace(start, end, new),
                "illegal keywords",
            )
            continue
        for rank, other in enumerate(
            difflib.get_close_matches(name, [n for n in defined if n != name], n=3, cutoff=0.5)
            + difflib.get_close_matches(name, pool, n=2, cutoff=0.6)
        ):
            yield _edit(
                ctx,
                _P_FIRST if rank == 0 else _P_HIGH,
                "rename_undefined_name",
                "reference",
                line,
                f"'{name}' -> '{other}'",
                ctx.text.replace(start, end, other),
                "undefined objects",
            )
    # calls to foreign print-like functions: unwrap or drop them
    for node in ast.walk(ctx.tree):
        if not isinstance(node, ast.Call) or not ctx.wanted(node.lineno):
            continue
        name = ctx.text.segment(node.func)
        if name not in _FOREIGN_CALLS and not (
            isinstance(node.func, ast.Name)
            and name in {n for n, *_ in undefined_names(ctx.tree, preamble=ctx.preamble)}
        ):
            continue
        start, end = ctx.text.span(node)
        if len(node.args) == 1:
            yield _edit(
                ctx,
                _P_FIRST,
                "unwrap_foreign_call",
                "reference",
                node.lineno,
                f"{name}(x) -> x",
                ctx.text.replace(start, end, ctx.text.segment(node.args[0])),
                "illegal keywords",
            )
        parent = ctx.parents.get(node)
        if isinstance(parent, ast.Call) and node in parent.args and len(parent.args) > 1:
            index = parent.args.index(node)
            cut_start = ctx.text.span(parent.args[index - 1])[1] if index > 0 else start
            cut_end = end if index > 0 else ctx.text.span(parent.args[1])[0]
            yield _edit(
                ctx,
                _P_FIRST,
                "drop_foreign_argument",
                "reference",
                node.lineno,
                f"drop {name}(...)",
                ctx.text.replace(cut_start, cut_end, ""),
                "illegal keywords",
            )
        elif isinstance(parent, ast.Expr):
            s, e = _lines_of(ctx, parent)
            yield _edit(
                ctx,
                _P_HIGH,
                "drop_foreign_call",
                "reference",
                node.lineno,
                f"drop {name}(...)",
                ctx.text.replace(s, e, ""),
                "illegal keywords",
            )
    for diagnostic in reference_diagnostics(ctx.tree, preamble=ctx.preamble):
        if diagnostic.code != "undefined-method" or not ctx.wanted(diagnostic.line):
            continue
        yield from _method_repairs(ctx, diagnostic.line, diagnostic.column, defined)


def _method_repairs(ctx: _Context, line: int, column: int, defined: list[str]) -> Iterator[_Candidate]:
    for node in ast.walk(ctx.tree):
        if not (isinstance(node, ast.Attribute) and node.lineno == line and node.col_offset == column):
            continue
        _, end = ctx.text.span(node)
        start = end - len(node.attr)
        owner = ctx.text.segment(node.value)
        candidates: list[str] = []
        if node.attr in _FOREIGN_METHODS and not _FOREIGN_METHODS[node.attr].startswith("__"):
            candidates.append(_FOREIGN_METHODS[node.attr])
        pool = {m for t in (list, dict, set, str) for m in dir(t) if not m.startswith("_")} | set(defined)
        candidates += difflib.get_close_matches(node.attr, sorted(pool), n=3, cutoff=0.5)
        for rank, new in enumerate(dict.fromkeys(candidates)):
            yield _edit(
                ctx,
                _P_FIRST if rank == 0 else _P_HIGH,
                "rename_undefined_method",
                "reference",
                line,
                f".{node.attr} -> .{new}",
                ctx.text.replace(start, end, new),
                "undefined methods",
            )
        if owner == "self" and node.attr in defined:
            obj_start, _ = ctx.text.span(node.value)
            yield _edit(
                ctx,
                _P_FIRST,
                "drop_self_prefix",
                "reference",
                line,
                f"self.{node.attr} -> {node.attr}",
                ctx.text.replace(obj_start, start, ""),
                "undefined methods",
            )


def _reference_mutations(ctx: _Context) -> Iterator[_Candidate]:
    defined = set(_defined_names(ctx.tree)) | set(dir(builtins)) | set(ctx.preamble)
    for node in ast.walk(ctx.tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and ctx.wanted(node.lineno):
            if node.id in ("True", "False", "None") or node.id in dir(builtins):
                continue
            start, end = ctx.text.span(node)
            variants = [node.id[:-1], node.id + "s", node.id + "_", node.id.capitalize()]
            for new in variants:
                if new and new.isidentifier() and new not in defined:
                    yield _edit(
                        ctx,
                        _P_MID,
                        "undefined_variable",
                        "reference",
                        node.lineno,
                        f"'{node.id}' -> '{new}'",
                        ctx.text.replace(start, end, new),
                        "undefined objects",
                    )
                    break
        elif isinstance(node, ast.Constant) and isinstance(node.value, (bool, type(None))) and ctx.wanted(node.lineno):
            start, end = ctx.text.span(node)
            new = {True: "true", False: "false", None: "null"}[node.value]
            yield _edit(
                ctx,
                _P_MID,
                "foreign_literal",
                "reference",
                node.lineno,
                f"{node.value} -> {new}",
                ctx.text.replace(start, end, new),
                "illegal keywords",
            )
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and ctx.wanted(node.lineno):
            attr = node.func.attr
            _, end = ctx.text.span(node.func)
            start = end - len(attr)
            owner = node.func.value
            if isinstance(owner, ast.Name) and owner.id == "self":
                new = attr + "_helper"
            else:
                new = _INJECTED_METHODS.get(attr, "")
            if new:
                yield _edit(
                    ctx,
                    _P_MID,
                    "undefined_method",
                    "reference",
                    node.lineno,
                    f".{attr}() -> .{new}()",
                    ctx.text.replace(start, end, new),
                    "undefined methods",
                )
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and ctx.wanted(node.lineno):
            # wrap the call's first argument in a JavaScript-style logger, a name Python does not define
            call = node.value
            if call.args:
                start, end = ctx.text.span(call.args[0])
                wrapped = f"console.log({ctx.text.segment(call.args[0])})"
                yield _edit(
                    ctx,
                    _P_LOW,
                    "foreign_call",
                    "reference",
                    node.lineno,
                    "wrap an argument in console.log()",
                    ctx.text.replace(start, end, wrapped),
                    "illegal keywords",
                )
    for node in ast.walk(ctx.tree):
        if isinstance(node, ast.Subscript) and ctx.wanted(node.lineno) and not isinstance(node.slice, ast.Slice):
            if isinstance(node.slice, (ast.Tuple,)) or (
                isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)
            ):
                continue
            start, end = ctx.text.span(node.slice)
            text = ctx.text.segment(node.slice)
            yield _edit(
                ctx,
                _P_MID,
                "index_out_of_range",
                "logic",
                node.lineno,
                f"index {text} -> {_plus(text, 1)}",
                ctx.text.replace(start, end, _plus(text, 1)),
                "faulty indexing",
            )


# ---------------------------------------------------------------------------------------------------------------
# Syntax operators.

_SYNTAX_OPERATOR_NAMES = {
    "missing-colon": ("insert_missing_colon", "syntax", "missing colons"),
    "unclosed-bracket": ("close_parenthesis", "syntax", "unclosed parentheses"),
    "unmatched-bracket": ("drop_unmatched_bracket", "syntax", "unclosed parentheses"),
    "unclosed-string": ("close_string", "syntax", "unclosed string"),
    "illegal-comment": ("fix_comment_mark", "syntax", "illegal comment"),
    "assignment-in-condition": ("assignment_to_comparison", "syntax", "misused == or ="),
    "foreign-keyword": ("translate_foreign_keyword", "reference", "illegal keywords"),
    "unexpected-indent": ("fix_indentation", "syntax", "illegal indentation"),
    "missing-indented-block": ("fix_indentation", "syntax", "illegal indentation"),
    "inconsistent-dedent": ("fix_indentation", "syntax", "illegal indentation"),
}


_INDENTATION_CODES = ("unexpected-indent", "missing-indented-block", "inconsistent-dedent")


def _is_layout_issue(code: str, message: str) -> bool:
    return code in _INDENTATION_CODES or (code == "syntax-error" and bool(re.search(r"indent|outside", message)))


def _normalised_layout(source: str, *, max_rounds: int = 12) -> str | None:
    """``source`` with every indentation problem fixed in turn (first fix each), or ``None`` if nothing changed.

    Students' indentation noise (one space off on a run of lines) is one mistake spread over many lines; fixing
    it as a single edit leaves the search budget for the real bug.
    """
    current = source
    for _ in range(max_rounds):
        issues, _compiled = syntax_issues(current)
        layout = [i for i in issues if _is_layout_issue(i.diagnostic.code, i.diagnostic.message) and i.fixes]
        if not layout:
            break
        current = layout[0].fixes[0]
    return current if current != source else None


def _syntax_repairs(source: str, lines: Collection[int] | None) -> Iterator[_Candidate]:
    issues, _ = syntax_issues(source)
    if sum(_is_layout_issue(i.diagnostic.code, i.diagnostic.message) for i in issues) > 1:
        normalised = _normalised_layout(source)
        if normalised is not None:
            first = min(i.diagnostic.line for i in issues if _is_layout_issue(i.diagnostic.code, i.diagnostic.message))
            yield (
                _P_FIRST,
                Edit(
                    "fix_indentation",
                    "syntax",
                    first,
                    f"line {first}: re-indent the program",
                    normalised,
                    "illegal indentation",
                ),
            )
    for issue in issues:
        operator, category, bug_type = _SYNTAX_OPERATOR_NAMES.get(issue.diagnostic.code, ("", "syntax", ""))
        if not operator:
            continue
        for rank, (fixed, description) in enumerate(zip(issue.fixes, issue.fix_descriptions)):
            line = int(m.group(1)) if (m := re.match(r"line (\d+)", description)) else issue.diagnostic.line
            if lines is not None and line not in lines and issue.diagnostic.line not in lines:
                continue
            edit = Edit(operator, category, line, description, fixed, bug_type)  # type: ignore[arg-type]
            yield (_P_FIRST if rank == 0 else _P_HIGH), edit
    yield from _uncomment_repairs(source, lines)


def _uncomment_repairs(source: str, lines: Collection[int] | None) -> Iterator[_Candidate]:
    """Commented-out code (``# x = []`` or a statement turned into a string) brought back."""
    text = _Text(source)
    for number in range(1, len(text.lines) + 1):
        if lines is not None and number not in lines:
            continue
        raw = text.line_text(number)
        match = re.match(r"(\s*)#\s?(.*\S)\s*$", raw)
        if match and _parses(match.group(2)) and re.search(r"[=(\[]|^(return|for|if|while)\b", match.group(2)):
            new = text.replace(
                text.starts[number - 1], text.starts[number - 1] + len(raw), match.group(1) + match.group(2)
            )
            yield (
                _P_MID,
                Edit(
                    "uncomment_line",
                    "syntax",
                    number,
                    f"line {number}: uncomment '{match.group(2)}'",
                    new,
                    "illegal comment",
                ),
            )
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            inner = node.value.value
            if ((lines is None or node.lineno in lines) and "\n" in inner.strip()) or _looks_like_code(inner):
                start, end = text.span(node)
                segment = text.segment(node)
                quote = segment[:3] if segment[:3] in ('"""', "'''") else segment[:1]
                if segment.endswith(quote) and _parses_dedented(inner):
                    new = text.replace(start, end, segment[len(quote) : -len(quote)])
                    if _parses(new):
                        yield (
                            _P_MID,
                            Edit(
                                "unwrap_string_code",
                                "syntax",
                                node.lineno,
                                f"line {node.lineno}: turn the string back into code",
                                new,
                                "illegal comment",
                            ),
                        )


def _compiles(code: str) -> bool:
    try:
        compile(code, "<edit>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return True


def _parses(code: str) -> bool:
    try:
        ast.parse(code)
    except (SyntaxError, ValueError):
        return False
    return True


def _parses_dedented(code: str) -> bool:
    import textwrap

    return _parses(textwrap.dedent(code.strip("\n")))


def _looks_like_code(text: str) -> bool:
    return bool(re.search(r"^\s*(return|for|if|while)\b|=", text)) and _parses_dedented(text)


def _syntax_mutations(source: str, lines: Collection[int] | None) -> Iterator[_Candidate]:
    """Edits that make ``source`` fail to compile, one per DebugBench syntax bug type and site."""
    text = _Text(source)
    for line in scan_lines(source):
        number = line.number
        if (lines is not None and number not in lines) or line.starts_in_string or not line.stripped_code:
            continue
        code = line.code.rstrip()
        base = text.starts[number - 1]
        if code.endswith(":") and not line.starts_in_brackets:
            new = text.replace(base + len(code) - 1, base + len(code), "")
            yield _P_MID, Edit("remove_colon", "syntax", number, f"line {number}: drop ':'", new, "missing colons")
        closers = [i for i, ch in enumerate(line.code) if ch in ")]}"]
        if closers:
            i = closers[-1]
            new = text.replace(base + i, base + i + 1, "")
            yield (
                _P_MID,
                Edit(
                    "unclose_parenthesis",
                    "syntax",
                    number,
                    f"line {number}: drop '{line.code[i]}'",
                    new,
                    "unclosed parentheses",
                ),
            )
        quotes = [i for i, ch in enumerate(line.code) if ch in "\"'"]
        if len(quotes) >= 2 and line.text[quotes[-1]] == line.text[quotes[-2]] and quotes[-1] - quotes[-2] > 1:
            i = quotes[-1]
            new = text.replace(base + i, base + i + 1, "")
            yield (
                _P_MID,
                Edit(
                    "unclose_string", "syntax", number, f"line {number}: drop the closing quote", new, "unclosed string"
                ),
            )
        if line.comment_start is not None:
            i = line.comment_start
            new = text.replace(base + i, base + i + 1, "//")
            yield (
                _P_MID,
                Edit("illegal_comment", "syntax", number, f"line {number}: '#' -> '//'", new, "illegal comment"),
            )
        elif not code.endswith(":"):
            new = text.replace(base + len(line.text), base + len(line.text), "  // note")
            yield (
                _P_LOW,
                Edit("illegal_comment", "syntax", number, f"line {number}: add a '//' comment", new, "illegal comment"),
            )
        if line.indent > 0 and not line.starts_in_brackets:
            for shift in (1, -1):
                new_indent = line.indent + shift * 2
                new = text.replace(base, base + len(line.text) - len(line.text.lstrip()), " " * max(0, new_indent))
                yield (
                    _P_MID,
                    Edit(
                        "illegal_indentation",
                        "syntax",
                        number,
                        f"line {number}: indent {line.indent} -> {new_indent}",
                        new,
                        "illegal indentation",
                    ),
                )
        first = re.match(r"\s*(if|elif|while)\b", code)
        if first:
            for match in re.finditer(r"(?<![=!<>])==(?!=)", code):
                new = text.replace(base + match.start(), base + match.end(), "=")
                yield (
                    _P_MID,
                    Edit(
                        "comparison_to_assignment",
                        "syntax",
                        number,
                        f"line {number}: '==' -> '='",
                        new,
                        "misused == or =",
                    ),
                )
        for match in re.finditer(r"\b(and|or|not)\b", code):
            new_token = {"and": "&&", "or": "||", "not": "!"}[match.group(1)]
            new = text.replace(base + match.start(), base + match.end(), new_token)
            yield (
                _P_LOW,
                Edit(
                    "foreign_operator",
                    "syntax",
                    number,
                    f"line {number}: '{match.group(1)}' -> '{new_token}'",
                    new,
                    "illegal keywords",
                ),
            )
        elif_match = re.match(r"(\s*)elif\b", line.text)
        if elif_match:
            new = text.replace(base + len(elif_match.group(1)), base + len(elif_match.group(0)), "else if")
            yield (
                _P_LOW,
                Edit(
                    "foreign_keyword", "syntax", number, f"line {number}: 'elif' -> 'else if'", new, "illegal keywords"
                ),
            )


# ---------------------------------------------------------------------------------------------------------------
# Entry point.

_LOGIC_OPERATORS: tuple[Callable[[_Context], Iterator[_Candidate]], ...] = (
    _assignment_comparison_edits,
    _print_return_edits,
    _comparison_edits,
    _range_edits,
    _arithmetic_edits,
    _condition_edits,
    _constant_edits,
    _index_edits,
    _call_swap_edits,
    _statement_edits,
    _variable_edits,
)


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def candidate_edits(
    source: str,
    *,
    lines: Collection[int] | None = None,
    categories: Collection[str] = ALL_CATEGORIES,
    direction: Direction = "repair",
    preamble: Collection[str] | None = None,
) -> Iterator[Edit]:
    """All single edits of ``source`` at ``lines`` (every line when ``None``), most plausible first.

    ``direction="repair"`` yields fix-oriented edits, ``"mutate"`` bug-injecting ones (see the module docstring).
    ``preamble`` lists names the run environment provides; by default LeetCode's names when the source defines
    ``class Solution``, else none. Works on source that does not parse: only syntax repairs are possible there.
    Each yielded program differs from ``source`` and from every earlier one.
    """
    if preamble is None:
        preamble = LEETCODE_PREAMBLE if re.search(r"^\s*class\s+Solution\b", source, flags=re.M) else ()
    wanted_lines = None if lines is None else set(lines)
    candidates: list[_Candidate] = []
    try:
        tree: ast.Module | None = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        tree = None
    if direction == "repair" and tree is None:
        candidates.extend(c for c in _syntax_repairs(source, wanted_lines) if c[1].category in categories)
    if direction == "repair" and tree is not None and "syntax" in categories:
        candidates.extend(_uncomment_repairs(source, wanted_lines))
    if direction == "mutate" and "syntax" in categories:
        # a syntax mutant must really break compilation (an over-indented sole statement, `x // note`, still parse)
        candidates.extend(c for c in _syntax_mutations(source, wanted_lines) if not _compiles(c[1].source))
    if tree is not None:
        ctx = _Context(_Text(source), tree, wanted_lines, direction, preamble, _parents(tree))
        if "reference" in categories:
            if direction == "repair":
                candidates.extend(_reference_repairs(ctx))
            else:
                candidates.extend(c for c in _reference_mutations(ctx) if c[1].category == "reference")
        if "logic" in categories:
            for operator in _LOGIC_OPERATORS:
                candidates.extend(operator(ctx))
            if direction == "mutate":
                candidates.extend(c for c in _reference_mutations(ctx) if c[1].category == "logic")
    candidates.sort(key=lambda c: (c[0], c[1].line))
    seen = {source}
    for _, edit in candidates:
        if edit.source not in seen:
            seen.add(edit.source)
            yield edit
