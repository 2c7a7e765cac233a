"""What a C++/Java edit operator reads (the tree, the wanted lines, the compiler's diagnostics, the declared names)
and the helpers that turn a replacement at a node into an :class:`~debugtutor.analysis.edits.Edit`."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from tree_sitter import Node

from debugtutor.analysis.clike.syntax_tree import (
    CLASS_TYPES,
    FUNCTION_TYPES,
    TYPED_DECLARATIONS,
    CompiledLanguage,
    SyntaxTree,
    Token,
    ancestor_ids,
    enclosing,
    line_of,
    operator_token,
    tokens,
    typed_declarators,
)
from debugtutor.analysis.edits._base import Direction, Edit, EditCategory
from debugtutor.analysis.static import Diagnostic

# Priorities: lower is more plausible; edits are yielded sorted by (priority, line).
P_FIRST, P_HIGH, P_MID, P_LOW, P_LAST = 0, 1, 2, 3, 4
Candidate = tuple[int, Edit]

_DECLARATOR_TYPES = frozenset(
    {
        "init_declarator",
        "variable_declarator",
        "parameter_declaration",
        "optional_parameter_declaration",
        "formal_parameter",
        "spread_parameter",
        "catch_formal_parameter",
        "for_range_loop",
        "enhanced_for_statement",
        "reference_declarator",
        "pointer_declarator",
        "array_declarator",
        "structured_binding_declarator",
        "declaration",
        "local_variable_declaration",
        "field_declaration",
        "lambda_expression",
        "inferred_parameters",
    }
)


@dataclass
class EditContext:
    """One program as the operators see it."""

    tree: SyntaxTree
    language: CompiledLanguage
    lines: Collection[int] | None
    direction: Direction
    diagnostics: Sequence[Diagnostic] = field(default_factory=tuple)

    @property
    def source(self) -> str:
        return self.tree.source

    def wanted(self, line: int) -> bool:
        return self.lines is None or line in self.lines

    # -- building edits -------------------------------------------------------------------------------------------

    def make(
        self, priority: int, operator: str, category: EditCategory, line: int, description: str, source: str,
        bug_type: str = "",
    ) -> Candidate:  # fmt: skip
        return priority, Edit(operator, category, line, f"line {line}: {description}", source, bug_type)

    def edit_at(
        self, priority: int, operator: str, category: EditCategory, node: Node, new: str, description: str,
        bug_type: str = "",
    ) -> Candidate:  # fmt: skip
        """Replace the text of ``node`` (often an operator token) by ``new``."""
        return self.make(priority, operator, category, line_of(node), description, self.tree.replace(node, new),
                         bug_type)  # fmt: skip

    edit_node = edit_at

    def replace_span(
        self, priority: int, operator: str, category: EditCategory, line: int, start: int, end: int, new: str,
        description: str, bug_type: str = "",
    ) -> Candidate:  # fmt: skip
        source = self.source[:start] + new + self.source[end:]
        return self.make(priority, operator, category, line, description, source, bug_type)

    def delete_node(
        self, priority: int, operator: str, category: EditCategory, node: Node, description: str, bug_type: str = ""
    ) -> Candidate:
        """Remove a node's text; the line stays (blank if nothing else was on it), so later lines keep numbers."""
        start, end = self.deletion_span(node)
        return self.replace_span(priority, operator, category, line_of(node), start, end, "", description, bug_type)

    def deletion_span(self, node: Node) -> tuple[int, int]:
        """What deleting ``node`` removes: its text, widened to its whole line (the newline kept) when nothing else
        is on that line."""
        start, end = self.tree.span(node)
        line_start = self.source.rfind("\n", 0, start) + 1
        line_end = self.source.find("\n", end)
        line_end = len(self.source) if line_end < 0 else line_end
        if not self.source[line_start:start].strip() and not self.source[end:line_end].strip():
            return line_start, line_end
        return start, end

    def swap_nodes(
        self, priority: int, operator: str, category: EditCategory, first: Node, second: Node, description: str,
        bug_type: str = "",
    ) -> Candidate:  # fmt: skip
        a_start, a_end = self.tree.span(first)
        b_start, b_end = self.tree.span(second)
        a_text, b_text = self.source[a_start:a_end], self.source[b_start:b_end]
        source = self.source[:a_start] + b_text + self.source[a_end:b_start] + a_text + self.source[b_end:]
        return self.make(priority, operator, category, line_of(first), description, source, bug_type)

    # -- names ----------------------------------------------------------------------------------------------------

    @cached_property
    def words(self) -> set[str]:
        return {self.tree.text(node) for node in self.tree.walk() if node.type in ("identifier", "field_identifier")}

    def declared_in(self, scope: Node) -> list[str]:
        """Names declared under ``scope`` (variables and parameters), in order of appearance."""
        names: list[str] = []
        for node in self.tree.walk(scope):
            if node.type == "identifier" and self.is_declarator(node):
                names.append(self.tree.text(node))
        return list(dict.fromkeys(names))

    @cached_property
    def value_kinds(self) -> dict[str, str]:
        """What each declared name holds: ``number`` (integers, reals, characters), ``flag`` (booleans) or, for
        strings, containers, objects and pointers, the type itself without spaces (``vector<int>``), for the names
        whose every declaration agrees; names declared ``auto``/``var`` or as arrays are left out."""
        kinds: dict[str, set[str]] = {}
        for declaration in self.tree.named(*TYPED_DECLARATIONS):
            for name, type_text in typed_declarators(self.tree, declaration):
                kinds.setdefault(name, set()).add(_value_kind(type_text))
        return {name: next(iter(found)) for name, found in kinds.items() if len(found) == 1 and "" not in found}

    @cached_property
    def fields(self) -> list[str]:
        """Field names of the classes in the program."""
        names: list[str] = []
        for node in self.tree.walk():
            if node.type in ("field_identifier", "identifier") and node.parent is not None:
                declaration: Node | None = node.parent
                while declaration is not None and declaration.type in ("init_declarator", "variable_declarator",
                                                                       "pointer_declarator", "array_declarator",
                                                                       "reference_declarator"):  # fmt: skip
                    declaration = declaration.parent
                if (
                    declaration is not None
                    and declaration.type == "field_declaration"
                    and enclosing(node, CLASS_TYPES) is not None
                    and not _is_function_declarator(node)
                ):
                    names.append(self.tree.text(node))
        return list(dict.fromkeys(names))

    @cached_property
    def declared_names(self) -> set[str]:
        """Every name the program declares: variables, parameters, fields, functions, methods and types."""
        names = set(self.declared_in(self.tree.root)) | set(self.fields)
        for node in self.tree.walk():
            if node.type in ("function_declarator",):
                inner = node.child_by_field_name("declarator")
                if inner is not None:
                    names.add(self.tree.text(inner).split("::")[-1])
            elif node.type in ("method_declaration", "class_declaration", "interface_declaration",
                               "constructor_declaration", "enum_declaration", "record_declaration"):  # fmt: skip
                name = node.child_by_field_name("name")
                if name is not None:
                    names.add(self.tree.text(name))
            elif node.type in ("class_specifier", "struct_specifier", "enum_specifier", "type_definition",
                               "alias_declaration"):  # fmt: skip
                name = node.child_by_field_name("name") or node.child_by_field_name("declarator")
                if name is not None:
                    names.add(self.tree.text(name))
        return names

    @cached_property
    def methods(self) -> set[str]:
        names: set[str] = set()
        for node in self.tree.walk():
            if node.type == "function_declarator":
                inner = node.child_by_field_name("declarator")
                if inner is not None:
                    names.add(self.tree.text(inner).split("::")[-1])
            elif node.type == "method_declaration":
                name = node.child_by_field_name("name")
                if name is not None:
                    names.add(self.tree.text(name))
        return names

    def visible_names(self, node: Node) -> list[str]:
        """Variables visible at ``node``: those its function declares above it in a block that holds it (the nearest
        first), then the function's parameters, then the class's fields."""
        function = enclosing(node, FUNCTION_TYPES)
        if function is None:
            return list(self.fields)
        holders = ancestor_ids(node)
        local: list[str] = []
        for found in self.tree.walk(function):
            if found.start_byte >= node.start_byte:
                break
            if found.type == "identifier" and self.is_declarator(found):
                statement = found.parent
                while statement is not None and statement.type in _DECLARATOR_TYPES and statement.type not in (
                    "declaration", "local_variable_declaration", "for_range_loop", "enhanced_for_statement",
                    "parameter_declaration", "formal_parameter", "optional_parameter_declaration",
                ):  # fmt: skip
                    statement = statement.parent
                if statement is None:
                    continue
                in_scope = statement.parent is None or statement.parent.id in holders or statement.id in holders
                if in_scope or "parameter" in statement.type:
                    local.append(self.tree.text(found))
        return list(dict.fromkeys([*reversed(local), *self.fields]))

    def is_declarator(self, node: Node) -> bool:
        """Whether ``node`` is the name a declaration declares (a variable's, a parameter's)."""
        parent = node.parent
        if parent is None or parent.type not in _DECLARATOR_TYPES:
            return False
        if parent.type in ("init_declarator", "variable_declarator"):
            return parent.child_by_field_name("declarator") == node or parent.child_by_field_name("name") == node
        if parent.type in ("for_range_loop", "enhanced_for_statement"):
            return parent.child_by_field_name("declarator") == node or parent.child_by_field_name("name") == node
        if parent.type in ("declaration", "local_variable_declaration", "field_declaration"):
            return parent.child_by_field_name("declarator") == node
        if parent.type in ("parameter_declaration", "optional_parameter_declaration", "formal_parameter",
                           "spread_parameter", "catch_formal_parameter"):  # fmt: skip
            return parent.child_by_field_name("declarator") == node or parent.child_by_field_name("name") == node
        if parent.type in ("lambda_expression", "inferred_parameters"):
            return True
        return parent.type in ("reference_declarator", "pointer_declarator", "array_declarator",
                               "structured_binding_declarator")  # fmt: skip

    def is_variable_use(self, node: Node) -> bool:
        """An identifier that reads or writes a variable (not its declaration, a called name or a type)."""
        if node.type != "identifier" or self.is_declarator(node):
            return False
        parent = node.parent
        if parent is None:
            return False
        if parent.type == "call_expression" and parent.child_by_field_name("function") == node:
            return False
        if parent.type == "method_invocation" and parent.child_by_field_name("name") == node:
            return False
        if parent.type in ("field_access",) and parent.child_by_field_name("field") == node:
            return False
        if parent.type in ("function_declarator", "qualified_identifier", "method_declaration", "class_declaration"):
            return False
        return self.tree.text(node) in self.declared_names

    def unread_parameters(self, function: Node) -> set[str]:
        """The parameters of ``function`` its body never reads (``follow(int followerId, int followeeId)`` that only
        writes ``friends[followerId][followerId]``): a value the caller hands over for a reason."""
        parameters = {
            self.tree.text(node) for node in self.tree.walk(function)
            if node.type == "identifier" and self.is_declarator(node) and node.parent is not None
            and "parameter" in node.parent.type and enclosing(node, FUNCTION_TYPES) == function
        }  # fmt: skip
        body = function.child_by_field_name("body")
        if not parameters or body is None:
            return set()
        used = {self.tree.text(node) for node in self.tree.walk(body) if node.type == "identifier"}
        return parameters - used

    def unread_totals(self) -> Iterator[tuple[Node, list[str]]]:
        """For each value a function returns: the number locals the function accumulates (``+=``, ``++``) and never
        reads (``count += m - n;`` ... ``return left + right;``), a total its author meant to use."""
        for function in self.tree.named(*FUNCTION_TYPES):
            returned = [
                node.named_children[0] for node in self.tree.walk(function)
                if node.type == "return_statement" and node.named_children
                and enclosing(node, FUNCTION_TYPES) == function
            ]  # fmt: skip
            if not returned:
                continue
            accumulated, read = set[str](), set[str]()
            for node in self.tree.walk(function):
                if not self.is_variable_use(node) or node.parent is None:
                    continue
                name, parent = self.tree.text(node), node.parent
                operator = operator_token(parent) if parent.type == "assignment_expression" else None
                if operator is not None and parent.child_by_field_name("left") == node:
                    if operator.type != "=":
                        accumulated.add(name)  # (a plain '=' neither reads nor accumulates)
                elif parent.type == "update_expression":
                    accumulated.add(name)
                else:
                    read.add(name)
                # (an update whose value is used, 'cache[k++]', reads it too)
                statement = parent.parent
                if (
                    parent.type in ("update_expression", "assignment_expression")
                    and statement is not None
                    and (statement.type not in ("expression_statement", "for_statement"))
                ):
                    read.add(name)
            numbers = {name for name in self.declared_in(function) if self.value_kinds.get(name) == "number"}
            totals = sorted((accumulated - read) & numbers)
            if totals:
                for value in returned:
                    yield value, totals


def _is_function_declarator(node: Node) -> bool:
    parent = node.parent
    return parent is not None and parent.type == "function_declarator"


# -- text helpers -------------------------------------------------------------------------------------------------


def source_lines(source: str) -> list[str]:
    return source.split("\n")


def line_bounds(source: str, line: int) -> tuple[int, int]:
    """(start, end) string offsets of line ``line`` (1-based, end before its newline)."""
    start = 0
    for _ in range(line - 1):
        found = source.find("\n", start)
        if found < 0:
            return len(source), len(source)
        start = found + 1
    end = source.find("\n", start)
    return start, len(source) if end < 0 else end


class LineTokens:
    """A program's lexer tokens, all of them and by line."""

    def __init__(self, source: str) -> None:
        self.all = tokens(source)
        self.by_line: dict[int, list[Token]] = {}
        for token in self.all:
            self.by_line.setdefault(token.line, []).append(token)

    def on(self, line: int) -> list[Token]:
        return self.by_line.get(line, [])

    def code_on(self, line: int) -> list[Token]:
        return [token for token in self.on(line) if token.kind != "comment"]


def code_end(source: str, line: int, line_tokens: Sequence[Token]) -> int:
    """Offset just after the last non-comment token of ``line`` (the line end when there is none)."""
    code = [token for token in line_tokens if token.kind != "comment"]
    if code:
        return code[-1].end
    return line_bounds(source, line)[1]


_NUMBER_WORDS = frozenset({
    "int", "long", "short", "unsigned", "signed", "double", "float", "char", "size_t", "int64_t", "uint64_t",
    "int32_t", "uint32_t", "Integer", "Long", "Short", "Double", "Float", "byte", "Byte", "Character", "ll",
})  # fmt: skip


def _value_kind(type_text: str) -> str:
    """``number``, ``flag`` or the type's own text for a declared type; empty when the declaration does not say."""
    plain = re.sub(r"\b(?:const|static|final|volatile|mutable)\b|&", " ", type_text).replace("std::", "")
    words = plain.split()
    if not words or words[-1] in ("auto", "var") or "[" in plain:
        return ""
    if all(word in _NUMBER_WORDS for word in words) and "*" not in plain and "<" not in plain:
        return "number"
    if words == ["bool"] or words == ["boolean"] or words == ["Boolean"]:
        return "flag"
    return "".join(words)
