"""The benchmark's JSON AST form of Maze programs, read and written exactly.

A node is ``{"type": <string>, "children": [...]}``; leaves (the actions) carry no ``children``. The root is
``run``; ``while`` is RepeatUntil(goal) with its body as direct children; ``ifelse bool_path_<dir>`` has exactly two
children, ``do`` and ``else``, each holding a statement list. The benchmark never uses counted loops or plain ifs,
but the original parser knows them, so ``repeat <n>`` (body as direct children, like ``while``) and
``if bool_path_<dir>`` (one ``do`` child) are read and written too. Key order and whitespace vary between the
published files, which is why programs are compared as structures, never as text. The TutorSS TSV files store the
same trees as Python dict literals, so :func:`read_program` accepts those as well.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from debugtutor import python_ast
from debugtutor.errors import InputError, read_text
from debugtutor.maze.ast import (
    Condition,
    If,
    IfElse,
    Move,
    Program,
    Repeat,
    RepeatUntilGoal,
    Stmt,
    TurnLeft,
    TurnRight,
)

_CONDITION_NAMES = {
    Condition.PATH_AHEAD: "bool_path_ahead",
    Condition.PATH_LEFT: "bool_path_left",
    Condition.PATH_RIGHT: "bool_path_right",
}
_CONDITIONS_BY_NAME = {name: cond for cond, name in _CONDITION_NAMES.items()}
_ACTION_TYPES: dict[str, Stmt] = {"move": Move(), "turn_left": TurnLeft(), "turn_right": TurnRight()}
_ACTION_NAMES = {Move: "move", TurnLeft: "turn_left", TurnRight: "turn_right"}

JsonNode = dict[str, Any]


def program_from_json(tree: JsonNode, *, source: str | None = None) -> Program:
    """Turn a benchmark JSON AST (a ``run`` node) into a :class:`Program`; errors name ``source`` and the node."""
    if not isinstance(tree, dict) or tree.get("type") != "run":
        found = tree.get("type") if isinstance(tree, dict) else type(tree).__name__
        raise InputError(f"the root node must be 'run', found {found!r}", path=source, field="type")
    return Program(_statements(tree, "run", source))


def _children(node: JsonNode, where: str, source: str | None) -> list[JsonNode]:
    children = node.get("children", [])
    if not isinstance(children, list) or not all(isinstance(child, dict) for child in children):
        raise InputError(f"'children' of {where} must be a list of nodes", path=source, field="children")
    return children


def _statements(node: JsonNode, where: str, source: str | None) -> tuple[Stmt, ...]:
    return tuple(
        _statement(child, f"{where}/{index}", source) for index, child in enumerate(_children(node, where, source))
    )


def _slot(node: JsonNode, expected: str, where: str, source: str | None) -> tuple[Stmt, ...]:
    if node.get("type") != expected:
        raise InputError(f"{where} must be a '{expected}' slot, found {node.get('type')!r}", path=source, field="type")
    return _statements(node, f"{where}/{expected}", source)


def _condition(name: str, where: str, source: str | None) -> Condition:
    try:
        return _CONDITIONS_BY_NAME[name]
    except KeyError:
        raise InputError(f"unknown condition {name!r} at {where}", path=source, field="type") from None


def _statement(node: JsonNode, where: str, source: str | None) -> Stmt:
    node_type = node.get("type")
    if not isinstance(node_type, str):
        raise InputError(f"node at {where} has no string 'type'", path=source, field="type")
    if node_type in _ACTION_TYPES:
        if node.get("children"):
            raise InputError(f"action '{node_type}' at {where} cannot have children", path=source, field="children")
        return _ACTION_TYPES[node_type]
    head, _, argument = node_type.partition(" ")
    where = f"{where}({head})"
    if head == "while" and not argument:
        return RepeatUntilGoal(_statements(node, where, source))
    if head == "repeat":
        if not argument.isdigit():
            raise InputError(f"'repeat' at {where} needs a count, found {node_type!r}", path=source, field="type")
        return Repeat(int(argument), _statements(node, where, source))
    if head == "ifelse":
        cond = _condition(argument, where, source)
        children = _children(node, where, source)
        if len(children) != 2:
            raise InputError(
                f"'ifelse' at {where} needs 'do' and 'else' children, found {len(children)}",
                path=source,
                field="children",
            )
        return IfElse(cond, _slot(children[0], "do", where, source), _slot(children[1], "else", where, source))
    if head == "if":
        cond = _condition(argument, where, source)
        children = _children(node, where, source)
        if len(children) != 1:
            raise InputError(
                f"'if' at {where} needs one 'do' child, found {len(children)}", path=source, field="children"
            )
        return If(cond, _slot(children[0], "do", where, source))
    raise InputError(f"unknown node type {node_type!r} at {where}", path=source, field="type")


def program_to_json(program: Program) -> JsonNode:
    """The benchmark JSON form of a program (containers always carry ``children``, actions never do)."""
    return {"type": "run", "children": _statements_to_json(program.body)}


def _statements_to_json(body: tuple[Stmt, ...]) -> list[JsonNode]:
    return [_statement_to_json(stmt) for stmt in body]


def _statement_to_json(stmt: Stmt) -> JsonNode:
    if isinstance(stmt, (Move, TurnLeft, TurnRight)):
        return {"type": _ACTION_NAMES[type(stmt)]}
    if isinstance(stmt, RepeatUntilGoal):
        return {"type": "while", "children": _statements_to_json(stmt.body)}
    if isinstance(stmt, Repeat):
        return {"type": f"repeat {stmt.times}", "children": _statements_to_json(stmt.body)}
    if isinstance(stmt, IfElse):
        return {
            "type": f"ifelse {_CONDITION_NAMES[stmt.cond]}",
            "children": [
                {"type": "do", "children": _statements_to_json(stmt.then_body)},
                {"type": "else", "children": _statements_to_json(stmt.else_body)},
            ],
        }
    return {
        "type": f"if {_CONDITION_NAMES[stmt.cond]}",
        "children": [{"type": "do", "children": _statements_to_json(stmt.body)}],
    }


def parse_program_json(text: str, *, source: str | None = None) -> Program:
    """Parse JSON text, or a Python dict literal as in the TutorSS TSVs, into a program.

    A list holding exactly one tree (the SymSS distractor files) is accepted too.
    """
    try:
        tree: Any = json.loads(text)
    except json.JSONDecodeError as json_error:
        try:
            tree = python_ast.literal_eval(text.strip())
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            raise InputError(
                f"not a JSON AST: {json_error.msg} (column {json_error.colno})", path=source, line=json_error.lineno
            ) from None
    if isinstance(tree, list) and len(tree) == 1:
        tree = tree[0]
    if not isinstance(tree, dict):
        raise InputError(f"expected a JSON object with a 'run' root, found {type(tree).__name__}", path=source)
    return program_from_json(tree, source=source)


def read_program(path: str | Path) -> Program:
    """Read a program from a benchmark ``.json`` file (or a file holding a Python dict literal)."""
    path = Path(path)
    text = read_text(path)
    return parse_program_json(text, source=str(path))


def write_program(program: Program, path: str | Path) -> Path:
    """Write a program as an indented benchmark JSON file."""
    path = Path(path)
    path.write_text(json.dumps(program_to_json(program), indent=2) + "\n", encoding="utf-8")
    return path
