"""Logic operators, shared by both directions (most are their own inverse): comparison, arithmetic, condition,
range, index, constant and variable swaps, call arguments, ``=``/``==``, ``print``/``return`` and statement moves."""

from __future__ import annotations

import ast
import difflib
from collections.abc import Iterator

from debugtutor.analysis.edits._base import (
    _BINOP_SWAPS,
    _CMP_SWAPS,
    _CMP_SYMBOLS,
    _FUNCTION_SWAPS,
    _METHOD_SWAPS,
    _P_FIRST,
    _P_HIGH,
    _P_LAST,
    _P_LOW,
    _P_MID,
    _Candidate,
    _Context,
    _edit,
    _operator_span,
    _plus,
)

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
