"""C++ and Java source as a tree-sitter tree: lines, statements, expressions and declared names, on broken code too.

tree-sitter never fails: code that does not compile still parses, with ``ERROR`` nodes around what it could not fit
and zero-width ``MISSING`` nodes where it assumed a token (a ``)`` or ``;``). Positions come back as string offsets
(tree-sitter counts UTF-8 bytes), so edits made here are plain string substitutions that keep every other byte.

A light lexer (:func:`tokens`) complements the tree for what a parser hides: string and comment boundaries and
whether delimiters balance, which decides if a candidate program can safely share a translation unit with others.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Literal

import tree_sitter_cpp
import tree_sitter_java
from tree_sitter import Language, Node, Parser, Tree

CompiledLanguage = Literal["cpp", "java"]
COMPILED_LANGUAGES: tuple[CompiledLanguage, ...] = ("cpp", "java")

# Statement node types per language: what a coverage probe is put before and what an edit may move or drop.
STATEMENT_TYPES: dict[str, frozenset[str]] = {
    "cpp": frozenset(
        {
            "expression_statement",
            "declaration",
            "if_statement",
            "for_statement",
            "for_range_loop",
            "while_statement",
            "do_statement",
            "return_statement",
            "break_statement",
            "continue_statement",
            "switch_statement",
            "goto_statement",
            "labeled_statement",
            "try_statement",
            "throw_statement",
            "compound_statement",
        }
    ),
    "java": frozenset(
        {
            "expression_statement",
            "local_variable_declaration",
            "if_statement",
            "for_statement",
            "enhanced_for_statement",
            "while_statement",
            "do_statement",
            "return_statement",
            "break_statement",
            "continue_statement",
            "switch_expression",
            "labeled_statement",
            "try_statement",
            "try_with_resources_statement",
            "throw_statement",
            "yield_statement",
            "assert_statement",
            "synchronized_statement",
            "block",
            "explicit_constructor_invocation",
        }
    ),
}
LOOP_TYPES = frozenset({"for_statement", "for_range_loop", "while_statement", "do_statement", "enhanced_for_statement"})
BLOCK_TYPES = frozenset({"compound_statement", "block"})
FUNCTION_TYPES = frozenset(
    {"function_definition", "method_declaration", "constructor_declaration", "lambda_expression"}
)
CLASS_TYPES = frozenset({"class_specifier", "struct_specifier", "class_declaration", "interface_declaration"})
DECISION_TYPES = frozenset({"if_statement", "while_statement", "for_statement", "do_statement", "switch_statement"})
COMMENT_TYPES = frozenset({"comment", "line_comment", "block_comment"})  # (C++ has one kind, Java two)


@cache
def _parser(language: CompiledLanguage) -> Parser:
    grammar = tree_sitter_cpp.language() if language == "cpp" else tree_sitter_java.language()
    return Parser(Language(grammar))


@dataclass
class SyntaxTree:
    """One parsed program with string positions for its nodes."""

    source: str
    language: CompiledLanguage
    tree: Tree
    _byte_to_char: list[int] | None

    @property
    def root(self) -> Node:
        return self.tree.root_node

    def offset(self, byte: int) -> int:
        """The string offset of a UTF-8 byte offset."""
        if self._byte_to_char is None:
            return byte
        return self._byte_to_char[min(byte, len(self._byte_to_char) - 1)]

    def span(self, node: Node) -> tuple[int, int]:
        return self.offset(node.start_byte), self.offset(node.end_byte)

    def text(self, node: Node) -> str:
        start, end = self.span(node)
        return self.source[start:end]

    def replace(self, node: Node, text: str) -> str:
        start, end = self.span(node)
        return self.source[:start] + text + self.source[end:]

    def walk(self, node: Node | None = None) -> Iterator[Node]:
        """Every node under ``node`` (the root by default) in document order, anonymous tokens included."""
        stack = [node or self.root]
        while stack:
            current = stack.pop()
            yield current
            stack.extend(reversed(current.children))

    def named(self, *types: str) -> Iterator[Node]:
        """Named nodes of the given types (all named nodes when none is given), in document order."""
        wanted = set(types)
        for node in self.walk():
            if node.is_named and (not wanted or node.type in wanted):
                yield node

    def error_nodes(self) -> list[Node]:
        """``ERROR`` nodes and ``MISSING`` tokens: where tree-sitter could not fit the code to the grammar."""
        if not self.root.has_error:
            return []
        return [node for node in self.walk() if node.type == "ERROR" or node.is_missing]

    @property
    def has_error(self) -> bool:
        return self.root.has_error

    def statements(self) -> list[Node]:
        """Statement nodes inside function bodies (blocks included), in document order."""
        kinds = STATEMENT_TYPES[self.language]
        return [node for node in self.named(*kinds) if enclosing(node, FUNCTION_TYPES) is not None]

    def statement_lines(self) -> tuple[set[int], set[int]]:
        """(lines that start a statement, structural lines: function and class headers, ``else``, braces alone)."""
        statements: set[int] = set()
        structural: set[int] = set()
        for node in self.statements():
            if node.type in BLOCK_TYPES:
                continue
            statements.add(line_of(node))
        for node in self.named(*FUNCTION_TYPES, *CLASS_TYPES):
            if node.type != "lambda_expression":
                statements.add(line_of(node))
                structural.add(line_of(node))
        for number, text in enumerate(self.source.splitlines(), 1):
            stripped = text.strip()
            if stripped in ("}", "{", "};", "else", "} else {", "else {", "public:", "private:", "protected:"):
                structural.add(number)
        return statements, structural

    def line_text(self, line: int) -> str:
        lines = self.source.splitlines()
        return lines[line - 1] if 0 < line <= len(lines) else ""


def parse(source: str, language: CompiledLanguage) -> SyntaxTree:
    """Parse ``source`` (never raises; broken code gets ERROR/MISSING nodes)."""
    data = source.encode("utf-8")
    mapping: list[int] | None = None
    if len(data) != len(source):
        mapping = []
        for index, char in enumerate(source):
            mapping.extend([index] * len(char.encode("utf-8")))
        mapping.append(len(source))
    return SyntaxTree(source, language, _parser(language).parse(data), mapping)


def line_of(node: Node) -> int:
    """The 1-based line a node starts on."""
    return node.start_point[0] + 1


def end_line_of(node: Node) -> int:
    return node.end_point[0] + 1


def enclosing(node: Node, types: frozenset[str] | set[str]) -> Node | None:
    """The nearest ancestor of ``node`` of one of ``types``."""
    current = node.parent
    while current is not None:
        if current.type in types:
            return current
        current = current.parent
    return None


def ancestor_ids(node: Node) -> set[int]:
    """The ids of ``node`` and of every node above it: the scopes a declaration must sit in to be visible there."""
    found: set[int] = set()
    current: Node | None = node
    while current is not None:
        found.add(current.id)
        current = current.parent
    return found


def field_child(node: Node, name: str) -> Node | None:
    return node.child_by_field_name(name)


def operator_token(node: Node) -> Node | None:
    """The operator token of a binary, assignment, update or unary expression (its ``operator`` field)."""
    found = node.child_by_field_name("operator")
    if found is not None:
        return found
    for child in node.children:
        if not child.is_named and child.type not in ("(", ")", "[", "]", ",", ";"):
            return child
    return None


# ---------------------------------------------------------------------------------------------------------------
# The light lexer.


@dataclass(frozen=True)
class Token:
    """One lexical token: ``kind`` is ``string``, ``char``, ``comment``, ``word``, ``number`` or ``symbol``."""

    kind: str
    text: str
    start: int
    end: int
    line: int
    closed: bool = True
    """False for a string, char literal or block comment that runs to the end of its line (or of the file)."""


_WORD = re.compile(r"[A-Za-z_]\w*")
_NUMBER = re.compile(r"\d[\w.']*|\.\d[\w']*")
_SYMBOLS = (
    ">>>=", "<<=", ">>=", "->*", "...", "::", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
    "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", ">>>",
)  # fmt: skip


def tokens(source: str) -> list[Token]:
    """The tokens of C++ or Java ``source``, comments included; never raises on broken code."""
    found: list[Token] = []
    index, line = 0, 1
    length = len(source)
    while index < length:
        char = source[index]
        if char == "\n":
            line += 1
            index += 1
            continue
        if char.isspace():
            index += 1
            continue
        start, start_line = index, line
        if source.startswith("//", index):
            end = source.find("\n", index)
            end = length if end < 0 else end
            found.append(Token("comment", source[index:end], index, end, line))
            index = end
            continue
        if source.startswith("/*", index):
            end = source.find("*/", index + 2)
            closed = end >= 0
            end = length if end < 0 else end + 2
            found.append(Token("comment", source[index:end], index, end, line, closed))
            line += source.count("\n", index, end)
            index = end
            continue
        if char in "\"'":
            end = index + 1
            closed = False
            while end < length and source[end] != "\n":
                if source[end] == "\\":
                    end += 2
                    continue
                if source[end] == char:
                    closed = True
                    end += 1
                    break
                end += 1
            end = min(end, length)
            found.append(Token("string" if char == '"' else "char", source[index:end], index, end, line, closed))
            index = end
            continue
        word = _WORD.match(source, index)
        if word:
            found.append(Token("word", word.group(0), start, word.end(), start_line))
            index = word.end()
            continue
        number = _NUMBER.match(source, index)
        if number:
            found.append(Token("number", number.group(0), start, number.end(), start_line))
            index = number.end()
            continue
        symbol = next((s for s in _SYMBOLS if source.startswith(s, index)), char)
        found.append(Token("symbol", symbol, start, start + len(symbol), start_line))
        index += len(symbol)
    return found


BRACKET_PAIRS = {"(": ")", "[": "]", "{": "}"}


def indent_width(text: str) -> int:
    """How far a line is indented, tabs counted as four columns."""
    expanded = text.expandtabs(4)
    return len(expanded) - len(expanded.lstrip())


def imbalance(source: str) -> tuple[int, str] | None:
    """The first place where a string, character literal or block comment does not close or ``()[]{}`` do not
    nest, as (line, message); None when everything balances.

    A program without one cannot swallow code placed after it, so it may share a translation unit with others."""
    stack: list[tuple[str, int]] = []
    for token in tokens(source):
        if not token.closed:
            what = {"string": "string", "char": "character literal", "comment": "block comment"}[token.kind]
            return token.line, f"unclosed {what}"
        if token.kind != "symbol":
            continue
        if token.text in BRACKET_PAIRS:
            stack.append((BRACKET_PAIRS[token.text], token.line))
        elif token.text in (")", "]", "}"):
            if not stack:
                return token.line, f"unmatched '{token.text}'"
            wanted, line = stack.pop()
            if wanted != token.text:
                return token.line, f"'{token.text}' closes the bracket opened on line {line}"
    if stack:
        wanted, line = stack[-1]
        return line, f"the bracket opened on line {line} never closes"
    return None


def balanced(source: str) -> bool:
    """Whether :func:`imbalance` finds nothing."""
    return imbalance(source) is None


def code_tokens(source: str) -> list[Token]:
    """The tokens without comments."""
    return [token for token in tokens(source) if token.kind != "comment"]


# ---------------------------------------------------------------------------------------------------------------
# Statement structure for localization (the counterparts of the Python AST helpers in ``localization``).


def statement_priors(tree: SyntaxTree) -> dict[int, int]:
    """A tie-break prior by statement kind: decisions (conditions, loop headers) 3, statements that compute 2,
    plain declarations and jumps 1, definition headers 0."""
    priors: dict[int, int] = {}
    for node in tree.statements():
        if node.type in BLOCK_TYPES:
            continue
        if node.type in DECISION_TYPES or node.type in LOOP_TYPES:
            rank = 3
        elif node.type in ("expression_statement", "return_statement"):
            rank = 2
        elif node.type in ("declaration", "local_variable_declaration"):
            text = tree.text(node)
            rank = 2 if any(symbol in text for symbol in ("(", "[", "+", "-", "*", "/", "%", "?", "<", ">")) else 1
        else:
            rank = 1
        line = line_of(node)
        priors[line] = max(priors.get(line, 0), rank)
    for node in tree.named(*FUNCTION_TYPES, *CLASS_TYPES):
        priors.setdefault(line_of(node), 0)
    return priors


def nesting_depths(tree: SyntaxTree) -> dict[int, int]:
    """How many statements (blocks aside) enclose each statement line; ``else if`` counts as its ``if``."""
    depths: dict[int, int] = {}
    for node in tree.statements():
        if node.type in BLOCK_TYPES:
            continue
        depth = 0
        current = node.parent
        while current is not None and current.type not in FUNCTION_TYPES:
            if current.type in STATEMENT_TYPES[tree.language] and current.type not in BLOCK_TYPES:
                depth += 1
            current = current.parent
        depths.setdefault(line_of(node), depth)
    return depths


def plain_type(type_text: str) -> str:
    """A declared type without ``std::``, ``const``, references and spaces, for comparing two declarations' types."""
    return re.sub(r"\s|\bstd::|\bconst\b|&", "", type_text)


def enclosing_loop(tree: SyntaxTree, line: int) -> int | None:
    """The header line of the innermost loop that contains ``line``, or None."""
    best: tuple[int, int] | None = None
    for node in tree.named(*LOOP_TYPES):
        start, end = line_of(node), end_line_of(node)
        if start <= line <= end and (best is None or start > best[0]):
            best = (start, end)
    return best[0] if best else None


def return_types(tree: SyntaxTree) -> dict[str, str]:
    """Method name -> declared return type text, for the methods of ``class Solution`` (last declaration wins)."""
    found: dict[str, str] = {}
    for cls in tree.named(*CLASS_TYPES):
        name = cls.child_by_field_name("name")
        if name is None or tree.text(name) != "Solution":
            continue
        for node in tree.walk(cls):
            if node.type == "function_definition":
                declarator = node.child_by_field_name("declarator")
                while declarator is not None and declarator.type != "function_declarator":
                    declarator = declarator.child_by_field_name("declarator")
                inner = declarator.child_by_field_name("declarator") if declarator is not None else None
                kind = node.child_by_field_name("type")
                if inner is not None and kind is not None:
                    pointer = "*" if tree.text(node.child_by_field_name("declarator") or kind).startswith("*") else ""
                    found[tree.text(inner)] = tree.text(kind) + pointer
            elif node.type == "method_declaration":
                method, kind = node.child_by_field_name("name"), node.child_by_field_name("type")
                if method is not None and kind is not None:
                    found[tree.text(method)] = tree.text(kind)
    return found


@dataclass(frozen=True)
class MethodExtent:
    """Where a function or method of a program is, for telling the entry point from its helpers."""

    lines: int
    body: str
    private: bool


def method_extents(source: str, language: CompiledLanguage) -> dict[str, MethodExtent] | None:
    """Each named function or method of ``source`` (of overloads, the longest); None when the program does not
    parse cleanly (a lost brace nests one method in another, and then nothing here can be trusted)."""
    tree = parse(source, language)
    if tree.has_error:
        return None
    extents: dict[str, MethodExtent] = {}
    for function in tree.named(*FUNCTION_TYPES):
        signature = function_signature(tree, function)
        body = function.child_by_field_name("body")
        if signature is None or body is None:
            continue
        size = function.end_point[0] - function.start_point[0] + 1
        if signature[0] not in extents or size >= extents[signature[0]].lines:
            extents[signature[0]] = MethodExtent(size, tree.text(body), _is_private(tree, function))
    return extents


def _is_private(tree: SyntaxTree, function: Node) -> bool:
    """Java: declared ``private``; C++: under a ``private:`` label (or in a ``class`` before any label)."""
    if function.type == "method_declaration":
        return any(child.type == "modifiers" and "private" in tree.text(child).split() for child in function.children)
    access = None
    sibling = function.prev_named_sibling
    while sibling is not None and access is None:
        if sibling.type == "access_specifier":
            access = tree.text(sibling).strip()
        sibling = sibling.prev_named_sibling
    if access is None:
        owner = function.parent.parent if function.parent is not None else None
        return owner is not None and owner.type == "class_specifier"
    return access == "private" or access == "protected"


def _function_declarator(function: Node) -> Node | None:
    """A C++ function definition's ``function_declarator`` (under any pointer or reference declarators)."""
    declarator = function.child_by_field_name("declarator")
    while declarator is not None and declarator.type != "function_declarator":
        declarator = declarator.child_by_field_name("declarator")
    return declarator


def parameter_list(function: Node) -> Node | None:
    """The bracketed parameter list node of a C++ function definition or Java method, or None."""
    if function.type == "method_declaration":
        return function.child_by_field_name("parameters")
    declarator = _function_declarator(function)
    return declarator.child_by_field_name("parameters") if declarator is not None else None


def function_signature(tree: SyntaxTree, function: Node) -> tuple[str, list[str]] | None:
    """(name, parameter names) of a C++ function definition or Java method; None when the parse lacks either."""
    if function.type == "method_declaration":
        name = function.child_by_field_name("name")
    else:
        declarator = _function_declarator(function)
        name = declarator.child_by_field_name("declarator") if declarator is not None else None
    parameters = parameter_list(function)
    if name is None or parameters is None:
        return None
    names = []
    for parameter in parameters.named_children:
        identifiers = [n for n in tree.walk(parameter) if n.type == "identifier"]
        if not identifiers:
            return None
        names.append(tree.text(identifiers[-1]))
    return tree.text(name).split("::")[-1], names


def call_parts(call: Node) -> tuple[Node | None, Node | None, Node | None]:
    """(receiver, called name, arguments) of a C++ ``call_expression`` or Java ``method_invocation``; the
    receiver is None for a plain call (``f(x)``) and the object for ``obj.f(x)`` / ``obj->f(x)``."""
    arguments = call.child_by_field_name("arguments")
    if call.type == "method_invocation":
        return call.child_by_field_name("object"), call.child_by_field_name("name"), arguments
    function = call.child_by_field_name("function")
    if function is not None and function.type == "field_expression":
        return function.child_by_field_name("argument"), function.child_by_field_name("field"), arguments
    return None, function, arguments


def subscript_index(node: Node) -> Node | None:
    """The index of a subscript (``v[i]``, ``a[i]``): Java's ``index`` field, C++'s first of ``indices``."""
    index = node.child_by_field_name("index")
    if index is None:
        indices = node.child_by_field_name("indices")
        index = indices.named_children[0] if indices is not None and indices.named_children else None
    return index


ELEMENT_READS = ("subscript_expression", "array_access", "call_expression", "method_invocation")
"""The node types that may read one element of a container at an index (:func:`element_read`)."""
_ELEMENT_METHODS = frozenset({"charAt", "at", "get"})


def element_read(tree: SyntaxTree, node: Node) -> tuple[str, Node] | None:
    """(the container's name, the index) of a read of one element: ``v[i]``, ``a[i]``, and the calls that are
    the same read (Java ``s.charAt(i)`` and ``list.get(i)``, C++ ``v.at(i)``); None for anything else."""
    if node.type in ("call_expression", "method_invocation"):
        receiver, callee, arguments = call_parts(node)
        if receiver is None or callee is None or arguments is None or tree.text(callee) not in _ELEMENT_METHODS:
            return None
        index = arguments.named_children[0] if len(arguments.named_children) == 1 else None
    elif node.type in ("subscript_expression", "array_access"):
        receiver = node.child_by_field_name("argument") or node.child_by_field_name("array")
        index = subscript_index(node)
    else:
        return None
    if receiver is None or index is None or receiver.type != "identifier":
        return None
    return tree.text(receiver), index


def unchanged_self_calls(tree: SyntaxTree) -> Iterator[tuple[Node, Node]]:
    """(function, call) for each call of a function by itself with its own parameters, unchanged, directly, through
    ``this`` or through a new object of its own class (``Solution obj; obj.f(a, b)`` inside ``f(a, b)``): such a
    call never gets nearer to an end."""
    for function, name, parameters in _functions_with_parameters(tree):
        owner = enclosing(function, CLASS_TYPES)
        owner_name = owner.child_by_field_name("name") if owner is not None else None
        objects = {"this"}
        if owner_name is not None:
            kinds = {tree.text(owner_name), f"{tree.text(owner_name)}*"}
            for declaration in tree.named("declaration", "local_variable_declaration"):
                kind = declaration.child_by_field_name("type")
                if kind is not None and tree.text(kind) in kinds and enclosing(declaration, FUNCTION_TYPES) == function:
                    objects |= {tree.text(n) for n in tree.walk(declaration) if n.type == "identifier"}
        for call, receiver, arguments in _calls_of(tree, function, name):
            if receiver is not None and tree.text(receiver) not in objects:
                continue
            if [tree.text(a).replace(" ", "") for a in arguments.named_children] == parameters:
                yield function, call


def argumentless_self_calls(tree: SyntaxTree) -> Iterator[tuple[Node, Node]]:
    """(function, call) for each call of a function by itself, directly or through ``this``, with no arguments where
    it takes some and no function of that name takes none: a call no compiler can match (the method it names, with
    that arity, does not exist)."""
    functions = list(tree.named("function_definition", "method_declaration"))
    without_parameters = {
        signature[0] for function in functions
        for signature in [function_signature(tree, function)] if signature is not None and not signature[1]
    }  # fmt: skip
    for function, name, _parameters in _functions_with_parameters(tree):
        if name in without_parameters:
            continue
        for call, receiver, arguments in _calls_of(tree, function, name):
            if (receiver is None or tree.text(receiver) == "this") and not arguments.named_children:
                yield function, call


def _functions_with_parameters(tree: SyntaxTree) -> Iterator[tuple[Node, str, list[str]]]:
    """(function, name, parameter names) of each function or method that takes parameters."""
    for function in tree.named("function_definition", "method_declaration"):
        signature = function_signature(tree, function)
        if signature is not None and signature[1]:
            yield function, signature[0], signature[1]


def _calls_of(tree: SyntaxTree, function: Node, name: str) -> Iterator[tuple[Node, Node | None, Node]]:
    """(call, receiver, arguments) of each call of ``name`` inside ``function``."""
    for call in tree.walk(function):
        if call.type in ("call_expression", "method_invocation"):
            receiver, callee, arguments = call_parts(call)
            if callee is not None and arguments is not None and tree.text(callee) == name:
                yield call, receiver, arguments


def receding_self_calls(tree: SyntaxTree) -> Iterator[tuple[Node, Node]]:
    """(call, argument) for each argument ``p + k`` of a call of a function by itself, where ``p`` is the parameter
    in that position and the function's base case stops ``p`` from above only (``if (n <= 0) return``): the
    argument moves away from the base case; or ``p`` itself while the call's other arguments change (it comes no
    nearer; a call with every argument unchanged is :func:`unchanged_self_calls`' to report)."""
    for function, name, parameters in _functions_with_parameters(tree):
        lower_bounded, upper_bounded = set(), set()
        for statement in tree.walk(function):
            if statement.type != "if_statement":
                continue
            condition = tree.text(statement.child_by_field_name("condition") or statement).replace(" ", "")
            for parameter in parameters:
                word = rf"(?<![\w.]){re.escape(parameter)}(?![\w(])"
                if re.search(rf"{word}(<=?|==)-?\d+\b", condition):
                    lower_bounded.add(parameter)
                if re.search(rf"{word}>|<=?{word}", condition):
                    upper_bounded.add(parameter)
        lower_bounded -= upper_bounded
        if not lower_bounded:
            continue
        for call, receiver, arguments in _calls_of(tree, function, name):
            if receiver is not None:
                continue
            texts = [tree.text(argument).replace(" ", "") for argument in arguments.named_children]
            moving = any(text != parameter for parameter, text in zip(parameters, texts, strict=False))
            for parameter, argument, text in zip(parameters, arguments.named_children, texts, strict=False):
                if parameter not in lower_bounded:
                    continue
                # p + k moves away from the base case; p itself, while other arguments move, comes no nearer
                if re.fullmatch(rf"{re.escape(parameter)}\+\d+", text) or (text == parameter and moving):
                    yield call, argument


# The nodes that declare names with a type (parameters, locals, fields): what :func:`typed_declarators` reads.
TYPED_DECLARATIONS = ("parameter_declaration", "declaration", "formal_parameter", "local_variable_declaration",
                      "field_declaration")  # fmt: skip


def typed_declarators(tree: SyntaxTree, declaration: Node) -> Iterator[tuple[str, str]]:
    """(name, type) of each variable a C++/Java declaration, field or parameter declares: the declared type with its
    layout normalised and one ``*`` per pointer level (``int *a, b`` -> ``("a", "int*"), ("b", "int")``)."""
    kind = declaration.child_by_field_name("type")
    if kind is None:
        return
    base = " ".join(tree.text(kind).split())
    for child in declaration.named_children:
        if child == kind:
            continue
        node, suffix = child, ""
        while node.type in ("init_declarator", "variable_declarator", "pointer_declarator", "reference_declarator"):
            if node.type == "pointer_declarator":
                suffix += "*"
            inner = node.child_by_field_name("declarator") or node.child_by_field_name("name")
            if inner is None and node.named_children:
                inner = node.named_children[-1]
            if inner is None:
                break
            node = inner
        if node.type in ("identifier", "field_identifier"):
            yield tree.text(node), base + suffix
