"""How each assert-style test line is judged without trusting the program: which parts it evaluates, which parts not.

A test such as ``assert power(2, 3) == 8`` is split on the host into *probes*, the smallest sub-expressions that call
into the program (``power(2, 3)``), and a *judge expression* over their values (``__dt_probe__(0) == 8``). The
program's process evaluates only the probes and sends their values back as plain data (``_value_codec``); the
verdict is computed outside it, by the host when the judge expression is one comparison with a literal (almost every
test) or else by a separate sandboxed judge process that never ran the program's code. The expected side of a test
therefore never enters the program's process, and whatever the program writes on any channel it can only claim values
of its own: it cannot learn what would pass.

A name belongs to the program when the program's code, the setup or an earlier test statement binds it, other than by
importing a standard-library module; the judge knows the builtins and those imports. Everything is decided from the
syntax alone: nothing here runs the code.
"""

from __future__ import annotations

import ast
import builtins
import functools
import sys
from dataclasses import dataclass, field
from typing import Any, Literal

from debugtutor import python_ast

PROBE_FUNCTION = "__dt_probe__"
"""The name the judge expression calls to read probe ``j``'s value (raising what the probe raised)."""

_BUILTIN_NAMES = frozenset(dir(builtins))
_STDLIB = frozenset(getattr(sys, "stdlib_module_names", ())) | frozenset(sys.builtin_module_names)
# Sub-expressions that only combine values: the judge evaluates them over the probes' values.
_COMBINATORS = (
    ast.Compare,
    ast.BoolOp,
    ast.UnaryOp,
    ast.BinOp,
    ast.IfExp,
    ast.List,
    ast.Tuple,
    ast.Set,
    ast.Dict,
    ast.Starred,
)


@dataclass(frozen=True)
class Bindings:
    """Which names a program (with its setup and test statements) binds, and the imports the judge may repeat."""

    program: frozenset[str] = frozenset()
    imports: tuple[str, ...] = ()
    """Standard-library import statements whose names the judge binds the same way."""
    imported: frozenset[str] = frozenset()


@dataclass(frozen=True)
class FastJudge:
    """A judge expression the host evaluates itself: ``probe <op> literal`` (or reversed), ``probe``, ``not probe``."""

    op: str
    """An ``ast.cmpop`` class name, or ``truth`` / ``falsity``."""
    probe_on_left: bool = True
    literal: Any = None


@dataclass(frozen=True)
class TestPlan:
    """One test line: what the program evaluates and how the verdict is reached."""

    __test__ = False

    kind: Literal["assert", "statement", "invalid"]
    source: str
    probes: tuple[str, ...] = ()
    """Expressions the program's process evaluates, in evaluation order."""
    judge: str = ""
    """The assertion over ``__dt_probe__(j)``, for the judge process."""
    op: str = ""
    """For one top-level comparison: its operator, with ``left`` and ``right`` as judge expressions."""
    left: str | None = None
    right: str | None = None
    fast: FastJudge | None = None
    error: str = ""
    """Why an invalid line cannot run (its SyntaxError)."""
    binds: frozenset[str] = field(default_factory=frozenset)

    def program_payload(self) -> dict[str, Any]:
        """What the program's process gets for this test: no expected values, no judge expression."""
        if self.kind == "assert":
            return {"kind": "probes", "probes": list(self.probes)}
        if self.kind == "statement":
            return {"kind": "statement", "source": self.source}
        return {"kind": "skip"}

    def judge_payload(self) -> dict[str, Any]:
        return {"expr": self.judge, "op": self.op, "left": self.left, "right": self.right}


def bindings(code: str, setup: str = "", statements: tuple[str, ...] = ()) -> Bindings:
    """The names bound by the program's code, the setup and the test statement lines (see the module docstring)."""
    return _bindings(code, setup, tuple(statements))


@functools.lru_cache(maxsize=256)
def _bindings(code: str, setup: str, statements: tuple[str, ...]) -> Bindings:
    program: set[str] = set()
    imported: dict[str, str] = {}
    for source in (code, setup, *statements):
        try:
            tree = python_ast.parse(source)
        except (SyntaxError, ValueError):
            continue
        _collect(tree.body, program, imported)
    names = {name for name in imported if name not in program}
    statements_kept = tuple(dict.fromkeys(imported[name] for name in sorted(names)))
    return Bindings(program=frozenset(program), imports=statements_kept, imported=frozenset(names))


def _collect(body: list[ast.stmt], program: set[str], imported: dict[str, str]) -> None:
    """Names bound at module level in ``body`` (through compound statements, not into functions or classes)."""
    for stmt in body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            _collect_import(stmt, program, imported)
            continue
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            program.add(stmt.name)
            for node in ast.walk(stmt):
                if isinstance(node, ast.Global):
                    program.update(node.names)
            continue
        for node in _walk_module_scope(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                program.add(node.id)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                _collect_import(node, program, imported)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                program.add(node.name)
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Global):
                        program.update(inner.names)
            elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
                program.add(node.name)
            elif isinstance(node, ast.MatchMapping) and node.rest:
                program.add(node.rest)


def _walk_module_scope(node: ast.AST) -> list[ast.AST]:
    """Every node at module scope under ``node``: function and class bodies are not entered (their defs are kept)."""
    found: list[ast.AST] = []
    stack = [node]
    while stack:
        current = stack.pop()
        found.append(current)
        if current is not node and isinstance(current, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(current, ast.Lambda):
            continue
        stack.extend(ast.iter_child_nodes(current))
    return found


def _collect_import(stmt: ast.Import | ast.ImportFrom, program: set[str], imported: dict[str, str]) -> None:
    if isinstance(stmt, ast.Import):
        for alias in stmt.names:
            name = alias.asname or alias.name.split(".")[0]
            if alias.name.split(".")[0] in _STDLIB:
                imported.setdefault(name, ast.unparse(ast.Import(names=[alias])))
            else:
                program.add(name)
        return
    module = stmt.module or ""
    stdlib = stmt.level == 0 and module.split(".")[0] in _STDLIB
    for alias in stmt.names:
        if alias.name == "*":
            continue  # the names a star import binds are unknown here: they stay with the program
        name = alias.asname or alias.name
        if stdlib:
            imported.setdefault(name, ast.unparse(ast.ImportFrom(module=module, names=[alias], level=0)))
        else:
            program.add(name)


def plan_test(line: str, binds: Bindings) -> TestPlan:
    """How to judge one test line given what the program binds (cached: test lines repeat across programs)."""
    return _plan(line, binds)


@functools.lru_cache(maxsize=8192)
def _plan(line: str, binds: Bindings) -> TestPlan:
    try:
        body = python_ast.parse(line).body
    except (SyntaxError, ValueError) as exc:  # ValueError: null bytes
        return TestPlan(kind="invalid", source=line, error=f"{type(exc).__name__}: {exc}")
    stmt = body[0] if len(body) == 1 else None
    if not isinstance(stmt, ast.Assert):
        return TestPlan(kind="statement", source=line)
    program_side = _program_side(binds, _locally_bound(stmt.test))
    probes: list[str] = []
    judge_tree = _split(stmt.test, program_side, probes)
    if judge_tree is None:  # the whole assertion is one value that is not data (a generator, a lambda)
        judge_tree = _probe_call(0, stmt.test)
        probes[:] = [ast.unparse(stmt.test)]
    judge = ast.unparse(judge_tree)
    op = left = right = None
    if isinstance(judge_tree, ast.Compare) and len(judge_tree.ops) == 1:
        op = type(judge_tree.ops[0]).__name__
        left, right = ast.unparse(judge_tree.left), ast.unparse(judge_tree.comparators[0])
    return TestPlan(
        kind="assert",
        source=line,
        probes=tuple(probes),
        judge=judge,
        op=op or "",
        left=left,
        right=right,
        fast=_fast_judge(stmt.test, judge_tree),
    )


def _program_side(binds: Bindings, local: frozenset[str]) -> Any:
    def is_program_name(name: str) -> bool:
        if name in local:
            return False
        if name in binds.program:
            return True
        return name not in binds.imported and name not in _BUILTIN_NAMES

    return is_program_name


def _locally_bound(expression: ast.expr) -> frozenset[str]:
    """Names the assertion binds for itself: lambda parameters and comprehension variables."""
    names: set[str] = set()
    for node in ast.walk(expression):
        if isinstance(node, ast.Lambda):
            arguments = node.args
            every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
            names.update(arg.arg for arg in every if arg is not None)
        elif isinstance(node, ast.comprehension):
            names.update(sub.id for sub in ast.walk(node.target) if isinstance(sub, ast.Name))
    return frozenset(names)


def _probe_call(index: int, node: ast.expr) -> ast.expr:
    call = ast.Call(func=ast.Name(id=PROBE_FUNCTION, ctx=ast.Load()), args=[ast.Constant(value=index)], keywords=[])
    return ast.copy_location(call, node)


def _uses_program(node: ast.AST, is_program_name: Any) -> bool:
    return any(isinstance(sub, ast.Name) and is_program_name(sub.id) for sub in ast.walk(node))


def _split(node: ast.expr, is_program_name: Any, probes: list[str]) -> ast.expr | None:
    """``node`` with every maximal program-dependent, non-combining sub-expression replaced by a probe call; None
    when ``node`` itself would be a probe whose value is not data (a generator or a lambda), so that the caller
    takes the enclosing expression as the probe instead."""
    if not _uses_program(node, is_program_name):
        return node
    if isinstance(node, _COMBINATORS) or (isinstance(node, ast.Call) and not _uses_program(node.func, is_program_name)):
        mark = len(probes)
        try:
            return _rebuild(node, is_program_name, probes)
        except _NotData:
            del probes[mark:]
    if isinstance(node, (ast.GeneratorExp, ast.Lambda)):
        return None
    index = len(probes)
    probes.append(ast.unparse(node))
    return _probe_call(index, node)


class _NotData(Exception):
    """A child would be a probe whose value is not data: the enclosing expression must be the probe."""


def _rebuild(node: ast.expr, is_program_name: Any, probes: list[str]) -> ast.expr:
    """A copy of a combining node whose children are split in evaluation order."""

    def split(child: ast.expr) -> ast.expr:
        result = _split(child, is_program_name, probes)
        if result is None:
            raise _NotData
        return result

    new: ast.expr
    if isinstance(node, ast.Compare):
        new = ast.Compare(left=split(node.left), ops=node.ops, comparators=[split(c) for c in node.comparators])
    elif isinstance(node, ast.BoolOp):
        new = ast.BoolOp(op=node.op, values=[split(v) for v in node.values])
    elif isinstance(node, ast.UnaryOp):
        new = ast.UnaryOp(op=node.op, operand=split(node.operand))
    elif isinstance(node, ast.BinOp):
        left = split(node.left)
        new = ast.BinOp(left=left, op=node.op, right=split(node.right))
    elif isinstance(node, ast.IfExp):
        test = split(node.test)
        body = split(node.body)
        new = ast.IfExp(test=test, body=body, orelse=split(node.orelse))
    elif isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        elements = [split(e) for e in node.elts]
        new = type(node)(elts=elements, ctx=ast.Load()) if not isinstance(node, ast.Set) else ast.Set(elts=elements)
    elif isinstance(node, ast.Dict):
        keys: list[ast.expr | None] = []
        values: list[ast.expr] = []
        for key, value in zip(node.keys, node.values):
            keys.append(split(key) if key is not None else None)
            values.append(split(value))
        new = ast.Dict(keys=keys, values=values)
    elif isinstance(node, ast.Starred):
        new = ast.Starred(value=split(node.value), ctx=ast.Load())
    else:
        assert isinstance(node, ast.Call)
        args = [split(a) for a in node.args]
        keywords = [ast.keyword(arg=k.arg, value=split(k.value)) for k in node.keywords]
        new = ast.Call(func=node.func, args=args, keywords=keywords)
    return ast.copy_location(new, node)


def _fast_judge(original: ast.expr, judge: ast.expr) -> FastJudge | None:
    """The host can judge ``P``, ``not P`` and ``P <op> L`` / ``L <op> P`` (P a probe, L a literal) by itself."""
    if _probe_index(judge) == 0:
        return FastJudge(op="truth")
    if isinstance(judge, ast.UnaryOp) and isinstance(judge.op, ast.Not) and _probe_index(judge.operand) == 0:
        return FastJudge(op="falsity")
    if not (isinstance(judge, ast.Compare) and len(judge.ops) == 1 and isinstance(original, ast.Compare)):
        return None
    op = type(judge.ops[0]).__name__
    if _probe_index(judge.left) == 0:
        literal = _literal(original.comparators[0])
        return None if literal is _NOT_LITERAL else FastJudge(op=op, probe_on_left=True, literal=literal)
    if _probe_index(judge.comparators[0]) == 0:
        literal = _literal(original.left)
        return None if literal is _NOT_LITERAL else FastJudge(op=op, probe_on_left=False, literal=literal)
    return None


_NOT_LITERAL = object()


def _literal(node: ast.expr) -> Any:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _NOT_LITERAL


def _probe_index(node: ast.expr) -> int | None:
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == PROBE_FUNCTION
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, int)
    ):
        return node.args[0].value
    return None
