"""Novice-bug inverses (repair only): mistakes beginners make often that no single swap can undo (a discarded value,
slice shapes, regrouped operators, range steps, recursion that does not shrink, missing conversions, borrowed clauses,
missing terms and inserted statements)."""

from __future__ import annotations

import ast
import re
from collections.abc import Collection, Iterator
from typing import TypeAlias

from debugtutor.analysis.edits._base import (
    _BINOP_SYMBOLS,
    _P_FIRST,
    _P_HIGH,
    _P_LAST,
    _P_LOW,
    _P_MID,
    Edit,
    _Candidate,
    _Context,
    _edit,
    _plus,
    _Text,
)
from debugtutor.analysis.edits._logic import _statement_blocks

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
