"""Reference operators: renaming undefined names and methods to defined ones (repair) and the reverse (mutate)."""

from __future__ import annotations

import ast
import builtins
import difflib
from collections.abc import Iterator

from debugtutor.analysis.edits._base import (
    _FOREIGN_CALLS,
    _FOREIGN_METHODS,
    _FOREIGN_NAMES,
    _INJECTED_METHODS,
    _P_FIRST,
    _P_HIGH,
    _P_LOW,
    _P_MID,
    _Candidate,
    _Context,
    _edit,
    _plus,
)
from debugtutor.analysis.edits._logic import _lines_of
from debugtutor.analysis.edits._novice import _loop_variable_repairs
from debugtutor.analysis.static import reference_diagnostics, undefined_names

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
