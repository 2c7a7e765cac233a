"""Single-edit program transformations shared by bug injection (mutation) and fix search (repair).

``candidate_edits(source, lines=..., direction="repair")`` yields fix-oriented edits, most plausible first: the
syntax fixes that :mod:`debugtutor.analysis.static` proposes for each syntax issue (add a colon, close a bracket or
string, re-indent a block, ``=`` -> ``==``, translate a foreign keyword), reference fixes (rename an undefined name
or method to the closest defined one, unwrap a call to an undefined foreign function) and logic edits on the AST
(comparison and arithmetic operator swaps, +-1 on range bounds, indices and constants, ``and``/``or``, negated
conditions, swapped variables, ``print`` -> ``return``, a missing ``return``, moving, dropping or swapping
statements), and, in repair direction only, the inverses of common novice mistakes that no single swap undoes: a
discarded value returned or assigned back (``s.strip()`` -> ``s = s.strip()``), slice shapes (``[-1:]`` ->
``[::-1]``), regrouped operator chains (``x + y / 2`` -> ``(x + y) / 2``), range steps and starts, recursive calls
that do not shrink their argument, a missing conversion (``set()``, ``round()``, ...), a clause borrowed from another
condition, a constant replaced by a value of the input, a missing term, and inserted statements (an accumulator's
initialisation, the step of a stuck while loop, the tail link of a spliced node). ``direction="mutate"`` yields the
bug-injecting counterparts for the DebugBench taxonomy.

Every edit is a text substitution located by AST positions (or by the line scanner when the source does not
parse), so comments and layout outside the changed span survive byte for byte.
"""

from __future__ import annotations

import ast
import builtins
import difflib
import re
import warnings
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from typing import Literal, TypeAlias

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
    undefined = list(undefined_names(ctx.tree, preamble=ctx.preamble))
    undefined_set = {name for name, _line, _col in undefined}
    for name, line, col in undefined:
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
        if name not in _FOREIGN_CALLS and not (isinstance(node.func, ast.Name) and name in undefined_set):
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
    yield from _loop_variable_repairs(ctx, undefined_set)


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
        code, message = issue.diagnostic.code, issue.diagnostic.message
        if code == "syntax-error" and _is_layout_issue(code, message):
            code = "unexpected-indent"  # e.g. `return` outside a function: a statement dedented out of its block
        operator, category, bug_type = _SYNTAX_OPERATOR_NAMES.get(code, ("", "syntax", ""))
        if not operator:
            continue
        fixes = list(zip(issue.fixes, issue.fix_descriptions))
        if "outside function" in message:
            # a `return` dedented out of its function ends the function body far more often than an inner block
            fixes.sort(key=_indent_target)
        for rank, (fixed, description) in enumerate(fixes):
            line = int(m.group(1)) if (m := re.match(r"line (\d+)", description)) else issue.diagnostic.line
            if lines is not None and line not in lines and issue.diagnostic.line not in lines:
                continue
            edit = Edit(operator, category, line, description, fixed, bug_type)  # type: ignore[arg-type]
            yield (_P_FIRST if rank == 0 else _P_HIGH), edit
    yield from _uncomment_repairs(source, lines)
    yield from _inline_def_repairs(source, lines)


def _indent_target(fix: tuple[str, str]) -> int:
    """The indentation a re-indent fix moves to (by its description), fixes of other kinds last."""
    match = re.search(r"indent to (\d+)", fix[1])
    return int(match.group(1)) if match else 1 << 30


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
        with warnings.catch_warnings():
            # candidates may well say `x is 1`; that is the student's business, not a warning for our user
            warnings.simplefilter("ignore", SyntaxWarning)
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
# Novice-bug inverses (repair only): mistakes beginners make often that no single swap above can undo.

# String methods that return a new value and leave the receiver alone: calling one as a statement does nothing.
_PURE_METHODS = frozenset(
    {
        "replace",
        "strip",
        "lstrip",
        "rstrip",
        "upper",
        "lower",
        "swapcase",
        "title",
        "capitalize",
        "casefold",
        "zfill",
        "removeprefix",
        "removesuffix",
    }
)
# Builtins that return a new value: ``sorted(xs)`` as a statement leaves ``xs`` as it was.
_PURE_FUNCTIONS = frozenset({"sorted", "reversed", "list", "set", "tuple", "abs", "round", "int", "float", "str"})
_MUTATING_METHODS = frozenset(
    {
        "append",
        "extend",
        "insert",
        "pop",
        "popleft",
        "remove",
        "sort",
        "reverse",
        "update",
        "add",
        "discard",
        "clear",
        "setdefault",
        "appendleft",
        "write",
    }
)
# Wrappers for a value of the wrong kind, numeric ones first for arithmetic values.
_NUMERIC_WRAPPERS = ("round", "int", "abs")
_COLLECTION_WRAPPERS = ("set", "list", "len", "sorted", "str")
# Calls whose argument is a collection that a wrapper may have to turn into another kind.
_COLLECTION_CONSUMERS = frozenset({"sorted", "len", "sum", "list", "set", "max", "min", "tuple", "enumerate"})
_MAX_WRAPPERS = 5
_MAX_REGROUP_OPERANDS = 5
_MAX_SCOPE_NAMES = 3


def _functions(ctx: _Context) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(ctx.tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node


def _parameters(func: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    names = [a.arg for a in [*func.args.posonlyargs, *func.args.args, *func.args.kwonlyargs]]
    return [n for n in names if n not in ("self", "cls")]


def _returns_value(func: ast.AST) -> bool:
    return any(isinstance(n, ast.Return) and n.value is not None for n in ast.walk(func))


def _replace_spans(ctx: _Context, replacements: list[tuple[int, int, str]]) -> str:
    """``ctx``'s source with several non-overlapping spans replaced at once."""
    source = ctx.text.source
    for start, end, text in sorted(replacements, reverse=True):
        source = source[:start] + text + source[end:]
    return source


def _insert_line(ctx: _Context, before_line: int, indent: str, statement: str) -> str:
    """The source with ``statement`` inserted as a whole line before line ``before_line`` (after the last line when
    ``before_line`` is past the end)."""
    if before_line - 1 < len(ctx.text.lines):
        at = ctx.text.starts[before_line - 1]
        return ctx.text.replace(at, at, f"{indent}{statement}\n")
    source = ctx.text.source
    return source + ("" if source.endswith("\n") else "\n") + f"{indent}{statement}\n"


def _discarded_value_edits(ctx: _Context) -> Iterator[_Candidate]:
    """A value computed and thrown away: ``a * b`` -> ``return a * b``; ``s.strip()`` -> ``s = s.strip()``."""
    if ctx.direction != "repair":
        return
    for func in _functions(ctx):
        no_return = not _returns_value(func)
        assign_backs: list[tuple[int, int, str]] = []
        assign_back_lines: list[int] = []
        for node in ast.walk(func):
            if not isinstance(node, ast.Expr) or isinstance(node.value, (ast.Await, ast.Yield, ast.YieldFrom)):
                continue
            value = node.value
            if isinstance(value, ast.Constant) or _is_print(value) or _mutates(value):
                continue
            start = ctx.text.span(node)[0]
            receiver = _assign_back_target(value)
            if receiver is not None:
                target = ctx.text.segment(receiver)
                assign_backs.append((start, start, f"{target} = "))
                assign_back_lines.append(node.lineno)
                if ctx.wanted(node.lineno):
                    yield _edit(
                        ctx,
                        _P_MID,
                        "assign_back_result",
                        "logic",
                        node.lineno,
                        f"keep the result: '{target} = {ctx.text.segment(value)}'",
                        ctx.text.replace(start, start, f"{target} = "),
                        "other error",
                    )
            if ctx.wanted(node.lineno):
                last = node is func.body[-1]
                yield _edit(
                    ctx,
                    _P_HIGH if no_return and last else _P_MID if no_return else _P_LOW,
                    "return_discarded_value",
                    "logic",
                    node.lineno,
                    f"return the discarded value '{ctx.text.segment(value)}'",
                    ctx.text.replace(start, start, "return "),
                    "other error",
                )
        first_line = min(assign_back_lines, default=0)
        if len(assign_backs) > 1 and ctx.wanted(first_line):
            # one misunderstanding (strings are immutable) shows at every call: undo it everywhere at once
            yield _edit(
                ctx,
                _P_MID,
                "assign_back_result",
                "logic",
                first_line,
                f"keep the results of all {len(assign_backs)} discarded calls",
                _replace_spans(ctx, assign_backs),
                "other error",
            )


def _is_print(value: ast.expr) -> bool:
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "print"


def _mutates(value: ast.expr) -> bool:
    """A call that works by side effect (``xs.append(1)``): its discarded result is not a mistake."""
    return (
        isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _MUTATING_METHODS
    )


def _assign_back_target(value: ast.expr) -> ast.expr | None:
    """What a discarded pure call should have been assigned to: its receiver, or its single argument."""
    if not isinstance(value, ast.Call):
        return None
    func = value.func
    if isinstance(func, ast.Attribute) and func.attr in _PURE_METHODS:
        receiver = func.value
    elif isinstance(func, ast.Name) and func.id in _PURE_FUNCTIONS and len(value.args) == 1:
        receiver = value.args[0]
    else:
        return None
    return receiver if isinstance(receiver, (ast.Name, ast.Attribute, ast.Subscript)) else None


def _slice_edits(ctx: _Context) -> Iterator[_Candidate]:
    """Slice shapes confused with each other: ``[-1:]`` for ``[::-1]``, ``[k:]`` for ``[:k]``, a wrong step."""
    if ctx.direction != "repair":
        return
    for node in ast.walk(ctx.tree):
        if not (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice) and ctx.wanted(node.lineno)):
            continue
        piece = node.slice
        start, end = ctx.text.span(piece)
        lower = ctx.text.segment(piece.lower) if piece.lower else ""
        upper = ctx.text.segment(piece.upper) if piece.upper else ""
        variants: list[tuple[int, str, str]] = []
        if piece.step is None:
            variants.append((_P_MID, "::-1", "reverse the sequence"))
            if bool(lower) != bool(upper):
                variants.append((_P_MID, f"{upper}:{lower}", "swap the slice sides"))
            if lower and upper:
                variants.append((_P_LOW, f"{upper}:{lower}", "swap the slice bounds"))
        else:
            step = ctx.text.segment(piece.step)
            negated = step[1:] if step.startswith("-") else f"-{step}"
            variants.append((_P_MID, f"{lower}:{upper}", "drop the step"))
            variants.append((_P_MID, f"{lower}:{upper}:{negated}", f"step {step} -> {negated}"))
            if lower or upper:
                variants.append((_P_LOW, f"::{step}", "drop the bounds"))
        if lower and upper:
            variants.append((_P_LOW, f":{upper}", f"drop the start {lower}"))
            variants.append((_P_LOW, f"{lower}:", f"drop the end {upper}"))
        for priority, new, description in variants:
            yield _edit(
                ctx,
                priority,
                "change_slice",
                "logic",
                node.lineno,
                f"[{ctx.text.segment(piece)}] -> [{new}]: {description}",
                ctx.text.replace(start, end, new),
                "faulty indexing",
            )


def _flatten_binop(node: ast.expr, leaves: list[ast.expr], operators: list[ast.operator]) -> None:
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOP_SYMBOLS:
        _flatten_binop(node.left, leaves, operators)
        operators.append(node.op)
        _flatten_binop(node.right, leaves, operators)
    else:
        leaves.append(node)


_Grouping: TypeAlias = "int | tuple[_Grouping, int, _Grouping]"
"""A bracketing of a chain's operands: an operand index, or (left grouping, operator index, right grouping)."""


def _groupings(first: int, last: int) -> Iterator[_Grouping]:
    """Every binary bracketing of the operands ``first..last``: a leaf index or ``(left, split, right)`` trees."""
    if first == last:
        yield first
        return
    for split in range(first, last):
        for left in _groupings(first, split):
            for right in _groupings(split + 1, last):
                yield (left, split, right)


def _regroup_edits(ctx: _Context) -> Iterator[_Candidate]:
    """Parentheses that change the evaluation order of a chain of arithmetic: ``x + y / 2`` -> ``(x + y) / 2``."""
    if ctx.direction != "repair":
        return
    for node in ast.walk(ctx.tree):
        if not isinstance(node, ast.BinOp) or isinstance(ctx.parents.get(node), ast.BinOp):
            continue
        if not ctx.wanted(node.lineno):
            continue
        leaves: list[ast.expr] = []
        operators: list[ast.operator] = []
        _flatten_binop(node, leaves, operators)
        if not 3 <= len(leaves) <= _MAX_REGROUP_OPERANDS:
            continue
        symbols = {_BINOP_SYMBOLS[type(op)] for op in operators}
        if symbols <= {"+"} or symbols <= {"*"}:
            continue  # an associative chain: every grouping means the same
        placeholders = [ast.Name(id=f"_leaf{i}_", ctx=ast.Load()) for i in range(len(leaves))]
        texts = [_operand_text(ctx, leaf) for leaf in leaves]
        start, end = ctx.text.span(node)
        for grouping in _groupings(0, len(leaves) - 1):
            tree = _build_grouping(grouping, placeholders, operators)
            if _same_shape(tree, node, leaves):
                continue
            rendered = ast.unparse(tree)
            for i in reversed(range(len(leaves))):
                rendered = rendered.replace(f"_leaf{i}_", texts[i])
            yield _edit(
                ctx,
                _P_MID,
                "regroup_operations",
                "logic",
                node.lineno,
                f"'{ctx.text.segment(node)}' -> '{rendered}'",
                ctx.text.replace(start, end, rendered),
                "operation error",
            )


def _operand_text(ctx: _Context, leaf: ast.expr) -> str:
    text = ctx.text.segment(leaf)
    atoms = (ast.Name, ast.Constant, ast.Call, ast.Attribute, ast.Subscript, ast.List, ast.Dict, ast.Set, ast.Tuple)
    if isinstance(leaf, ast.Constant) and isinstance(leaf.value, (int, float)) and text.startswith("-"):
        return f"({text})"
    return text if isinstance(leaf, atoms) else f"({text})"


def _build_grouping(grouping: _Grouping, leaves: list[ast.Name], operators: list[ast.operator]) -> ast.expr:
    if isinstance(grouping, int):
        return leaves[grouping]
    left, split, right = grouping
    return ast.BinOp(
        left=_build_grouping(left, leaves, operators),
        op=operators[split],
        right=_build_grouping(right, leaves, operators),
    )


def _same_shape(candidate: ast.expr, original: ast.expr, leaves: list[ast.expr]) -> bool:
    """Whether ``candidate`` (with placeholder leaves) groups the operands as ``original`` does."""
    if isinstance(candidate, ast.Name) and candidate.id.startswith("_leaf"):
        return original is leaves[int(candidate.id[5:-1])]
    return (
        isinstance(candidate, ast.BinOp)
        and isinstance(original, ast.BinOp)
        and _same_shape(candidate.left, original.left, leaves)
        and _same_shape(candidate.right, original.right, leaves)
    )


def _range_repair_edits(ctx: _Context) -> Iterator[_Candidate]:
    """Range shapes: a missing or wrong step (a countdown without ``-1``), a start that should not be there."""
    if ctx.direction != "repair":
        return
    for node in ast.walk(ctx.tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range"):
            continue
        if not ctx.wanted(node.lineno) or not 2 <= len(node.args) <= 3 or node.keywords:
            continue
        first, second = node.args[0], node.args[1]
        first_text, second_text = ctx.text.segment(first), ctx.text.segment(second)
        variants: list[tuple[int, str, str]] = []
        if len(node.args) == 2:
            variants.append((_P_MID, f"{first_text}, {second_text}, -1", "count down (step -1)"))
            variants.append((_P_LOW, f"{second_text}, {first_text}, -1", "swap the bounds and count down"))
            variants.append((_P_LOW, f"{first_text}, {second_text}, 2", "step 2"))
            if first_text.strip() not in ("0", "1"):
                variants.append((_P_LOW, second_text, "drop the start"))
        else:
            step = ctx.text.segment(node.args[2])
            negated = step[1:] if step.startswith("-") else f"-{step}"
            variants.append((_P_MID, f"{first_text}, {second_text}", "drop the step"))
            variants.append((_P_MID, f"{first_text}, {second_text}, {negated}", f"step {step} -> {negated}"))
            variants.append((_P_LOW, f"{second_text}, {first_text}", "swap the bounds and count up"))
        args_start = ctx.text.span(first)[0]
        args_end = ctx.text.span(node.args[-1])[1]
        for priority, new, description in variants:
            yield _edit(
                ctx,
                priority,
                "change_range",
                "logic",
                node.lineno,
                f"range({new}): {description}",
                ctx.text.replace(args_start, args_end, new),
                "condition error",
            )


def _recursive_calls(func: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.Call]:
    calls = []
    for node in ast.walk(func):
        if not isinstance(node, ast.Call):
            continue
        callee = node.func
        if (isinstance(callee, ast.Name) and callee.id == func.name) or (
            isinstance(callee, ast.Attribute)
            and callee.attr == func.name
            and isinstance(callee.value, ast.Name)
            and callee.value.id == "self"
        ):
            calls.append(node)
    return calls


def _is_countable(arg: ast.expr) -> bool:
    """An argument that a recursion counts down: a name, an integer, or either plus or minus an integer."""
    if isinstance(arg, ast.Name) or (isinstance(arg, ast.Constant) and type(arg.value) is int):
        return True
    return (
        isinstance(arg, ast.BinOp)
        and isinstance(arg.op, (ast.Add, ast.Sub))
        and isinstance(arg.left, ast.Name)
        and isinstance(arg.right, ast.Constant)
        and type(arg.right.value) is int
    )


def _recursion_edits(ctx: _Context) -> Iterator[_Candidate]:
    """A recursive call that does not shrink its argument: ``f(n)`` -> ``f(n - 1)``, or every call shifted."""
    if ctx.direction != "repair":
        return
    for func in _functions(ctx):
        calls = [c for c in _recursive_calls(func) if c.args and ctx.wanted(c.lineno)]
        for call in calls:
            for arg in call.args:
                if not _is_countable(arg):
                    continue
                start, end = ctx.text.span(arg)
                text = ctx.text.segment(arg)
                for rank, delta in enumerate((-1, -2, 1)):
                    new = _plus(text, delta)
                    yield _edit(
                        ctx,
                        _P_HIGH if rank == 0 else _P_MID,
                        "shrink_recursive_argument",
                        "logic",
                        call.lineno,
                        f"recursive call argument {text} -> {new}",
                        ctx.text.replace(start, end, new),
                        "condition error",
                    )
        # two recursive calls off by the same step (``f(n) + f(n - 1)`` for ``f(n - 1) + f(n - 2)``): one mistake
        by_line: dict[int, list[ast.Call]] = {}
        for call in calls:
            if _is_countable(call.args[0]):
                by_line.setdefault(call.lineno, []).append(call)
        for line, group in by_line.items():
            if len(group) < 2:
                continue
            for delta in (-1, 1):
                spans = [(*ctx.text.span(c.args[0]), _plus(ctx.text.segment(c.args[0]), delta)) for c in group]
                yield _edit(
                    ctx,
                    _P_HIGH,
                    "shift_recursive_arguments",
                    "logic",
                    line,
                    f"shift every recursive call's first argument by {delta:+d}",
                    _replace_spans(ctx, spans),
                    "condition error",
                )


def _looks_numeric(node: ast.expr) -> bool:
    return any(
        (isinstance(sub, ast.BinOp) and isinstance(sub.op, (ast.Div, ast.Mult)))
        or (isinstance(sub, ast.Constant) and isinstance(sub.value, float))
        for sub in ast.walk(node)
    )


def _wrap_sites(ctx: _Context) -> Iterator[ast.expr]:
    """Values a conversion may be missing around: returned and assigned values, arguments of collection calls."""
    for node in ast.walk(ctx.tree):
        if isinstance(node, ast.Return) and node.value is not None and not isinstance(node.value, ast.Tuple):
            yield node.value
        elif isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple):
            yield from node.value.elts
        elif isinstance(node, (ast.Assign, ast.AugAssign)) and node.value is not None:
            yield node.value
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in _COLLECTION_CONSUMERS
            and len(node.args) == 1
        ):
            yield node.args[0]


def _wrap_edits(ctx: _Context) -> Iterator[_Candidate]:
    """A missing conversion: ``sorted(words)`` -> ``sorted(set(words))``, ``score = ...`` -> ``round(...)``."""
    if ctx.direction != "repair":
        return
    for value in _wrap_sites(ctx):
        if not ctx.wanted(value.lineno) or isinstance(value, (ast.Constant, ast.Lambda)):
            continue
        current = value.func.id if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) else ""
        parent = ctx.parents.get(value)
        outer = parent.func.id if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) else ""
        wrappers = (
            (*_NUMERIC_WRAPPERS, *_COLLECTION_WRAPPERS)
            if _looks_numeric(value)
            else (*_COLLECTION_WRAPPERS, *_NUMERIC_WRAPPERS)
        )
        start, end = ctx.text.span(value)
        text = ctx.text.segment(value)
        choices = [w for w in wrappers if w not in (current, outer)][:_MAX_WRAPPERS]
        for rank, wrapper in enumerate(choices):
            yield _edit(
                ctx,
                _P_MID if rank < 2 else _P_LOW,
                "wrap_in_conversion",
                "logic",
                value.lineno,
                f"{text} -> {wrapper}({text})",
                ctx.text.replace(start, end, f"{wrapper}({text})"),
                "operation error",
            )


def _condition_atoms(test: ast.expr) -> list[ast.expr]:
    if isinstance(test, ast.BoolOp):
        return [atom for value in test.values for atom in _condition_atoms(value)]
    return [test]


def _conjunct_edits(ctx: _Context) -> Iterator[_Candidate]:
    """A condition missing a clause that another condition of the same function states: ``a`` -> ``k and a``."""
    if ctx.direction != "repair":
        return
    for func in _functions(ctx):
        tests = [n.test for n in ast.walk(func) if isinstance(n, (ast.If, ast.While))]
        atoms: dict[str, ast.expr] = {}
        for test in tests:
            for atom in _condition_atoms(test):
                if isinstance(atom, ast.Compare):
                    atoms.setdefault(ctx.text.segment(atom), atom)
        for test in tests:
            if not ctx.wanted(test.lineno):
                continue
            own = {ctx.text.segment(atom) for atom in _condition_atoms(test)}
            test_names = {n.id for n in ast.walk(test) if isinstance(n, ast.Name)}
            start, end = ctx.text.span(test)
            segment = ctx.text.segment(test)
            body = f"({segment})" if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or) else segment
            related = [
                text
                for text, atom in atoms.items()
                if text not in own and test_names & {n.id for n in ast.walk(atom) if isinstance(n, ast.Name)}
            ]
            for text in related[:4]:
                for joiner, priority in (("and", _P_LOW), ("or", _P_LAST)):
                    new = f"{text} {joiner} {body}" if joiner == "and" else f"{segment} or {text}"
                    yield _edit(
                        ctx,
                        priority,
                        "add_condition_clause",
                        "logic",
                        test.lineno,
                        f"add '{text} {joiner}'",
                        ctx.text.replace(start, end, new),
                        "condition error",
                    )


def _scope_constant_edits(ctx: _Context) -> Iterator[_Candidate]:
    """A constant where a value from the input was meant: ``smallest = 0`` -> ``smallest = array[0]``."""
    if ctx.direction != "repair":
        return
    for func in _functions(ctx):
        parameters = _parameters(func)[:_MAX_SCOPE_NAMES]
        if not parameters:
            continue
        for node in ast.walk(func):
            if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and ctx.wanted(node.lineno)):
                continue
            if not isinstance(node.value.value, (int, float)) or isinstance(node.value.value, bool):
                continue
            start, end = ctx.text.span(node.value)
            for parameter in parameters:
                for new in (f"{parameter}[0]", parameter, f"len({parameter})"):
                    yield _edit(
                        ctx,
                        _P_LOW,
                        "constant_from_scope",
                        "logic",
                        node.lineno,
                        f"{ctx.text.segment(node.value)} -> {new}",
                        ctx.text.replace(start, end, new),
                        "variable error",
                    )


def _missing_term_edits(ctx: _Context) -> Iterator[_Candidate]:
    """An arithmetic value missing a term: ``c - c % p`` -> ``c - c % p + p`` for a parameter ``p``."""
    if ctx.direction != "repair":
        return
    for func in _functions(ctx):
        parameters = _parameters(func)[:_MAX_SCOPE_NAMES]
        for node in ast.walk(func):
            if not (isinstance(node, (ast.Assign, ast.Return)) and isinstance(node.value, ast.BinOp)):
                continue
            if not ctx.wanted(node.lineno) or not isinstance(node.value.op, (ast.Add, ast.Sub, ast.Mod, ast.FloorDiv)):
                continue
            _, end = ctx.text.span(node.value)
            for parameter in parameters:
                for sign in ("+", "-"):
                    yield _edit(
                        ctx,
                        _P_LAST,
                        "add_missing_term",
                        "logic",
                        node.lineno,
                        f"add '{sign} {parameter}'",
                        ctx.text.replace(end, end, f" {sign} {parameter}"),
                        "operation error",
                    )


def _names_in(node: ast.AST, store: bool) -> set[str]:
    kind = ast.Store if store else ast.Load
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, kind)}


def _accumulator_edits(ctx: _Context) -> Iterator[_Candidate]:
    """An accumulator updated in a loop but never initialised: insert ``total = 0`` (or ``[]``, ``""``) before it."""
    if ctx.direction != "repair":
        return
    for func in _functions(ctx):
        bound = set(_parameters(func)) | {
            n.id
            for n in ast.walk(func)
            if isinstance(n, ast.Name)
            and isinstance(n.ctx, ast.Store)
            and not isinstance(ctx.parents.get(n), ast.AugAssign)
        }
        for loop in (n for n in func.body if isinstance(n, (ast.For, ast.While))):
            for node in ast.walk(loop):
                if not (isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name)):
                    continue
                name = node.target.id
                if name in bound or not (ctx.wanted(node.lineno) or ctx.wanted(loop.lineno)):
                    continue
                bound.add(name)
                indent = ctx.text.indent_of(loop.lineno)
                for initial in ("0", "[]", '""'):
                    yield _edit(
                        ctx,
                        _P_HIGH,
                        "initialise_accumulator",
                        "logic",
                        loop.lineno,
                        f"insert '{name} = {initial}' before the loop",
                        _insert_line(ctx, loop.lineno, indent, f"{name} = {initial}"),
                        "variable error",
                    )


def _loop_advance_edits(ctx: _Context) -> Iterator[_Candidate]:
    """A while loop whose state never moves on: a name its updates read but it never writes gets advanced."""
    if ctx.direction != "repair":
        return
    local_names = _names_in(ctx.tree, store=True)
    for loop in ast.walk(ctx.tree):
        if not isinstance(loop, ast.While) or not (ctx.wanted(loop.lineno) or ctx.wanted(loop.end_lineno or 0)):
            continue
        written = set().union(*(_names_in(stmt, store=True) for stmt in loop.body))
        condition = _names_in(loop.test, store=False)
        updates = [
            stmt for stmt in loop.body if isinstance(stmt, ast.Assign) and _names_in(stmt, store=True) & condition
        ]
        stuck = _stuck_names(loop, condition, written, updates, local_names)
        if not stuck:
            continue
        exits = any(isinstance(n, (ast.Break, ast.Return, ast.Raise)) for stmt in loop.body for n in ast.walk(stmt))
        indent = ctx.text.indent_of(loop.body[0].lineno)
        positions = [u.lineno for u in updates[-1:]] + [(loop.body[-1].end_lineno or loop.body[-1].lineno) + 1]
        for name in dict.fromkeys(stuck):
            steps = [f"{name} += 1"]
            for update in updates:
                moved = sorted(_names_in(update, store=True) & condition)
                partners = _call_partners(update.value, name)
                steps += [f"{name} = {m} + 1" for m in moved]
                steps += [f"{name} = {m} + len({p})" for m in moved for p in partners]
            for position in dict.fromkeys(positions):
                for step in dict.fromkeys(steps):
                    yield _edit(
                        ctx,
                        _P_MID if exits else _P_HIGH,
                        "advance_loop_state",
                        "logic",
                        loop.lineno,
                        f"insert '{step}' in the loop",
                        _insert_line(ctx, position, indent, step),
                        "other error",
                    )


def _stuck_names(
    loop: ast.While, condition: set[str], written: set[str], updates: list[ast.Assign], local_names: set[str]
) -> list[str]:
    """The local names that keep a while loop from ending, empty when the loop visibly moves on.

    Either no name of the condition changes in the loop, or the condition's names are recomputed only from names
    the loop never changes (``pos = s.find(t, start)`` with ``start`` fixed): the same value every time. Only local
    state can be stuck: parameters and globals are inputs the loop is not meant to move."""
    moving = condition & written
    if not moving:
        return sorted(condition & local_names)
    stepped = any(
        isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id in condition
        for stmt in loop.body
        for n in ast.walk(stmt)
    )
    if stepped or not updates or any(_names_in(u.value, store=False) & written for u in updates):
        return []
    read = set().union(*(_names_in(u.value, store=False) for u in updates))
    return sorted((read & local_names) - written - condition)


def _call_partners(value: ast.expr, name: str) -> list[str]:
    """Names passed together with ``name`` to one call (``s.find(t, start)``: ``t`` for ``start``)."""
    partners: list[str] = []
    for call in ast.walk(value):
        if isinstance(call, ast.Call) and any(isinstance(a, ast.Name) and a.id == name for a in call.args):
            partners += [a.id for a in call.args if isinstance(a, ast.Name) and a.id != name]
    return partners[:2]


def _list_display_edits(ctx: _Context) -> Iterator[_Candidate]:
    """A list written in the wrong shape or order: ``[a, b, c, d]`` -> ``[[a, b], [c, d]]``, ``[a], [b]`` (a bare
    tuple) -> ``[[a], [b]]``, ``[a, b, c]`` -> ``[c, b, a]`` or ``[b, a, c]`` (parallel lists out of step)."""
    if ctx.direction != "repair":
        return
    for node in ast.walk(ctx.tree):
        if not (isinstance(node, ast.Assign) and ctx.wanted(node.lineno)):
            continue
        value = node.value
        start, end = ctx.text.span(value)
        if isinstance(value, ast.List) and not any(
            isinstance(e, (ast.List, ast.Tuple, ast.Starred)) for e in value.elts
        ):
            items = [ctx.text.segment(e) for e in value.elts]
            for description, order, priority in _reorderings(items):
                yield _edit(
                    ctx,
                    priority,
                    "reorder_list",
                    "logic",
                    node.lineno,
                    description,
                    ctx.text.replace(start, end, f"[{', '.join(order)}]"),
                    "other error",
                )
            for width in range(2, len(items)) if 4 <= len(items) <= 9 else ():
                if len(items) % width:
                    continue
                rows = ", ".join(f"[{', '.join(items[i : i + width])}]" for i in range(0, len(items), width))
                yield _edit(
                    ctx,
                    _P_LOW,
                    "reshape_list",
                    "logic",
                    node.lineno,
                    f"rows of {width}",
                    ctx.text.replace(start, end, f"[{rows}]"),
                    "other error",
                )
        elif (
            isinstance(value, ast.Tuple)
            and all(isinstance(e, ast.List) for e in value.elts)
            and not ctx.text.segment(value).startswith("(")
        ):
            yield _edit(
                ctx,
                _P_LOW,
                "reshape_list",
                "logic",
                node.lineno,
                "a list, not a bare tuple",
                ctx.text.replace(start, end, f"[{ctx.text.segment(value)}]"),
                "other error",
            )


def _reorderings(items: list[str]) -> Iterator[tuple[str, list[str], int]]:
    """The list reversed, then each pair of neighbours swapped (short lists only: the count grows with length)."""
    if not 2 < len(items) <= 8 or len(set(items)) < len(items):
        return
    yield "reverse the elements", items[::-1], _P_MID
    for i in range(len(items) - 1):
        swapped = [*items[:i], items[i + 1], items[i], *items[i + 2 :]]
        yield f"swap elements {i} and {i + 1}", swapped, _P_LOW


def _link_tail_edits(ctx: _Context) -> Iterator[_Candidate]:
    """A new node spliced in without keeping what followed: before ``cur.next = node`` insert
    ``node.next = cur.next`` (``node`` made by a constructor call earlier in the same block)."""
    if ctx.direction != "repair":
        return
    for _parent, block in _statement_blocks(ctx.tree):
        constructed: set[str] = set()
        for stmt in block:
            if (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and isinstance(stmt.value, ast.Call)
            ):
                constructed.add(stmt.targets[0].id)
                continue
            if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and ctx.wanted(stmt.lineno)):
                continue
            target, value = stmt.targets[0], stmt.value
            if isinstance(target, ast.Attribute) and isinstance(value, ast.Name) and value.id in constructed:
                owner = ctx.text.segment(target)
                link = f"{value.id}.{target.attr} = {owner}"
                yield _edit(
                    ctx,
                    _P_MID,
                    "link_tail",
                    "logic",
                    stmt.lineno,
                    f"insert '{link}' first",
                    _insert_line(ctx, stmt.lineno, ctx.text.indent_of(stmt.lineno), link),
                    "other error",
                )


def _loop_variable_repairs(ctx: _Context, undefined: set[str]) -> Iterator[_Candidate]:
    """An undefined index inside a for-each loop: ``for e in xs: ... xs[i]`` -> ``e``, ``i`` -> ``e``."""
    if not undefined:
        return
    for loop in ast.walk(ctx.tree):
        if not (isinstance(loop, ast.For) and isinstance(loop.target, ast.Name)):
            continue
        element = loop.target.id
        iterable = ctx.text.segment(loop.iter)
        subscripts: list[tuple[int, int, str]] = []
        names: dict[str, list[tuple[int, int, str]]] = {}
        for stmt in loop.body:
            for node in ast.walk(stmt):
                if (
                    isinstance(node, ast.Subscript)
                    and isinstance(node.slice, ast.Name)
                    and node.slice.id in undefined
                    and ctx.text.segment(node.value) == iterable
                ):
                    subscripts.append((*ctx.text.span(node), element))
                elif isinstance(node, ast.Name) and node.id in undefined and isinstance(node.ctx, ast.Load):
                    names.setdefault(node.id, []).append((*ctx.text.span(node), element))
        line = loop.body[0].lineno
        if not any(ctx.wanted(number) for number in range(loop.lineno, (loop.end_lineno or loop.lineno) + 1)):
            continue
        if subscripts:
            yield _edit(
                ctx,
                _P_FIRST,
                "use_loop_variable",
                "reference",
                line,
                f"{iterable}[...] -> {element}",
                _replace_spans(ctx, subscripts),
                "undefined objects",
            )
        for name, spans in names.items():
            yield _edit(
                ctx,
                _P_HIGH,
                "use_loop_variable",
                "reference",
                line,
                f"'{name}' -> '{element}'",
                _replace_spans(ctx, spans),
                "undefined objects",
            )


_INLINE_DEF = re.compile(r"\bdef\s+[A-Za-z_]\w*\s*\(([^()]*)\)\s*:")


def _inline_def_repairs(source: str, lines: Collection[int] | None) -> Iterator[_Candidate]:
    """``def name(x): expr`` written inside an expression, where only ``lambda x: expr`` is allowed."""
    text = _Text(source)
    for number in range(1, len(text.lines) + 1):
        if lines is not None and number not in lines:
            continue
        raw = text.line_text(number)
        for match in _INLINE_DEF.finditer(raw):
            if not raw[: match.start()].strip():
                continue  # a real definition at the start of its line
            base = text.starts[number - 1]
            new = text.replace(base + match.start(), base + match.end(), f"lambda {match.group(1).strip()}:")
            yield (
                _P_FIRST,
                Edit("def_to_lambda", "syntax", number, f"line {number}: inline 'def' -> 'lambda'", new, "other error"),
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
    _discarded_value_edits,
    _slice_edits,
    _regroup_edits,
    _range_repair_edits,
    _recursion_edits,
    _wrap_edits,
    _conjunct_edits,
    _scope_constant_edits,
    _missing_term_edits,
    _accumulator_edits,
    _loop_advance_edits,
    _list_display_edits,
    _link_tail_edits,
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
    # some errors only the compiler reports (`return` outside a function after a bad dedent): they parse
    compiles = tree is not None and _compiles(source)
    if direction == "repair" and not compiles:
        candidates.extend(c for c in _syntax_repairs(source, wanted_lines) if c[1].category in categories)
    if direction == "repair" and compiles and "syntax" in categories:
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
