"""Objects a C++/Java program never made: where a dereferenced null comes from, and the edit that makes the object.

A ``NullPointerException`` (or a C++ null dereference) is raised where the value is used, but the mistake is
usually where the variable was set to ``null`` instead of a new object (DebugBench's "undefined objects").
:func:`null_origins` points from the crash line back to those assignments; :func:`null_initialisation_edits`
replaces a Java ``= null`` initialiser by a new object of the declared type (the usual implementation of a
collection interface, or an array sized by the method's parameters); :func:`null_argument_edits` gives a null
argument what another call of the same function passes in its place (``f(root.left)`` beside ``f(null)`` suggests
``root.left`` and ``root.right``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tree_sitter import Node

from debugtutor.analysis.clike.context import P_HIGH, P_MID, Candidate, EditContext
from debugtutor.analysis.clike.edits_logic import NAME_SWAPS
from debugtutor.analysis.clike.syntax_tree import CompiledLanguage, enclosing, line_of

_NULL_WORDS = {"java": ("null",), "cpp": ("nullptr", "NULL")}
_NULL_LITERALS = frozenset({"null_literal", "null"})
_CALL_TYPES = frozenset({"method_invocation", "call_expression"})
# Failures of a call that say a null value was used.
NULL_FAILURES = frozenset({"NullPointerException", "NullPointer", "SegmentationFault"})

# The class a Java program most likely meant for a variable of each declared type.
JAVA_IMPLEMENTATIONS = {
    "List": "ArrayList",
    "ArrayList": "ArrayList",
    "LinkedList": "LinkedList",
    "Deque": "ArrayDeque",
    "ArrayDeque": "ArrayDeque",
    "Queue": "LinkedList",
    "Stack": "Stack",
    "PriorityQueue": "PriorityQueue",
    "Map": "HashMap",
    "HashMap": "HashMap",
    "TreeMap": "TreeMap",
    "LinkedHashMap": "LinkedHashMap",
    "Set": "HashSet",
    "HashSet": "HashSet",
    "TreeSet": "TreeSet",
    "LinkedHashSet": "LinkedHashSet",
    "StringBuilder": "StringBuilder",
}
MAX_SIZES = 6


def is_null_failure(error_type: str | None) -> bool:
    """Whether a call's failure says that a null value was used."""
    return error_type in NULL_FAILURES


def null_origins(source: str, line: int, language: CompiledLanguage) -> list[int]:
    """Lines at or before ``line`` that set a variable dereferenced on ``line`` to null (``x = null;``, ``T* x =
    nullptr;``), the nearest first."""
    lines = source.splitlines()
    if not 1 <= line <= len(lines):
        return []
    used = set(re.findall(r"\b([A-Za-z_]\w*)\s*(?:\.|->|\[)", lines[line - 1]))
    if not used:
        return []
    nulls = "|".join(_NULL_WORDS[language])
    setting = re.compile(rf"\b({'|'.join(sorted(used))})\s*=\s*(?:{nulls})\s*[;,)]")
    return [number for number in range(line, 0, -1) if setting.search(lines[number - 1])]


def null_initialisation_edits(ctx: EditContext) -> Iterator[Candidate]:
    """Java ``T x = null;`` -> ``T x = new Impl<>();`` (or ``new E[size]`` for an array), for repair only (the crash
    is reported where the value is used, so :func:`null_origins` is what brings these lines forward)."""
    if ctx.language != "java" or ctx.direction != "repair":
        return
    for declaration in ctx.tree.named("local_variable_declaration", "field_declaration"):
        kind = declaration.child_by_field_name("type")
        if kind is None:
            continue
        type_text = ctx.tree.text(kind)
        for declarator in declaration.named_children:
            value = declarator.child_by_field_name("value") if declarator.type == "variable_declarator" else None
            if value is None or value.type != "null_literal" or not ctx.wanted(line_of(value)):
                continue
            for priority, made in _new_objects(ctx, declaration, type_text):
                yield ctx.edit_at(priority, "initialise_null", "reference", value, made, f"null -> {made}",
                                  "undefined objects")  # fmt: skip


def _new_objects(ctx: EditContext, declaration: Node, type_text: str) -> Iterator[tuple[int, str]]:
    if type_text.endswith("]"):
        element = type_text[: type_text.index("[")].strip()
        dimensions = type_text.count("[")
        sizes = _sizes(ctx, declaration)
        for chosen in ([size] * dimensions for size in sizes):
            yield P_MID, f"new {element}" + "".join(f"[{size}]" for size in chosen)
        return
    base = type_text.split("<", 1)[0].strip()
    made = JAVA_IMPLEMENTATIONS.get(base)
    if made is not None:
        yield P_HIGH, f"new {made}{'<>' if '<' in type_text else ''}()"


def _sizes(ctx: EditContext, declaration: Node) -> list[str]:
    """Array sizes the method's parameters suggest: an int ``n`` gives ``n`` and ``n + 1``, an array ``a`` gives
    ``a.length`` and ``a.length + 1``, a string ``s`` gives ``s.length()``."""
    method = enclosing(declaration, frozenset({"method_declaration", "constructor_declaration"}))
    scopes = [method] if method is not None else list(ctx.tree.named("method_declaration"))
    sizes: list[str] = []
    for scope in scopes:
        parameters = scope.child_by_field_name("parameters")
        for parameter in parameters.named_children if parameters is not None else []:
            kind, name = parameter.child_by_field_name("type"), parameter.child_by_field_name("name")
            if kind is None or name is None:
                continue
            type_text, name_text = ctx.tree.text(kind), ctx.tree.text(name)
            if type_text == "int":
                sizes += [name_text, f"{name_text} + 1"]
            elif type_text.endswith("[]"):
                sizes += [f"{name_text}.length", f"{name_text}.length + 1"]
            elif type_text == "String":
                sizes.append(f"{name_text}.length()")
    return list(dict.fromkeys(sizes))[:MAX_SIZES]


def null_argument_edits(ctx: EditContext) -> Iterator[Candidate]:
    """A null argument -> the expression another call of the same function passes at that position, and that
    expression with a sibling member (``left``/``right`` ...)."""
    if ctx.direction != "repair":
        return
    passed: dict[tuple[str, int], list[str]] = {}
    nulls: list[tuple[str, int, Node]] = []
    for call in ctx.tree.named(*_CALL_TYPES):
        name = call.child_by_field_name("name") or call.child_by_field_name("function")
        arguments = call.child_by_field_name("arguments")
        if name is None or arguments is None:
            continue
        callee = ctx.tree.text(name)
        for position, argument in enumerate(arguments.named_children):
            if argument.type in _NULL_LITERALS:
                nulls.append((callee, position, argument))
            elif "\n" not in ctx.tree.text(argument):
                passed.setdefault((callee, position), []).append(ctx.tree.text(argument))
    for callee, position, argument in nulls:
        if not ctx.wanted(line_of(argument)):
            continue
        choices: list[str] = []
        for text in passed.get((callee, position), []):
            choices.append(text)
            member = re.search(r"(\w+)$", text)
            if member is not None:
                choices += [text[: member.start()] + other for other in NAME_SWAPS.get(member.group(1), ())]
        for choice in dict.fromkeys(choices):
            yield ctx.edit_at(P_MID, "replace_null_argument", "reference", argument, choice,
                              f"{ctx.tree.text(argument)} -> {choice}", "undefined objects")  # fmt: skip
