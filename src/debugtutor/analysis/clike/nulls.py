"""Objects a C++/Java program never made: where a dereferenced null comes from, and the edit that makes the object.

A ``NullPointerException`` (or a C++ null dereference) is raised where the value is used, but the mistake is usually
where the variable was set to ``null`` instead of a new object (DebugBench's "undefined objects"). :func:`null_origins`
points from the crash line back to those assignments; :func:`null_initialisation_edits` replaces a Java ``= null``
initialiser by a new object of the declared type (the usual implementation of a collection interface, or an array sized
by a bound or the method's parameters); :func:`null_argument_edits` gives a null argument what another call of the same
function passes in its place (``f(root.left)`` beside ``f(null)`` suggests ``root.left`` and ``root.right``);
:func:`unmade_object_repairs` removes a variable that nothing ever gives a value (``TreeNode* undefinedNode;``, ``String
dummy;``) together with its uses, or puts a variable of the same type (or a map's entry of that type) in its place;
or makes the object (a Java field's collection where it is declared, a LeetCode node before its first use);
:func:`unsized_vector_repairs` gives a C++ vector that is indexed but never grown the size its declaration lost (a
field's is made at the top of the methods where a call begins). Sizes
come first from the bound a counter that indexes the array is kept below (``i < 100001``), then from the function's
parameters. :func:`uninitialised_value_repairs` gives a variable read before anything set it (``int max;`` ahead of
``max = Math.max(m, max)``) the first value such code starts from.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from tree_sitter import Node

from debugtutor.analysis.clike.context import P_HIGH, P_MID, Candidate, EditContext
from debugtutor.analysis.clike.edits_logic import NAME_SWAPS
from debugtutor.analysis.clike.syntax_tree import (
    BLOCK_TYPES,
    CLASS_TYPES,
    FUNCTION_TYPES,
    CompiledLanguage,
    ancestor_ids,
    enclosing,
    function_signature,
    line_of,
    parameter_list,
    plain_type,
    typed_declarators,
)

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
    """Java ``T x = null;`` -> ``T x = new Impl<>();`` (``new E[size]`` for an array, ``""`` for a string), for repair
    only (the crash is reported where the value is used, so :func:`null_origins` is what brings these lines
    forward)."""
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
            name = declarator.child_by_field_name("name")
            named = ctx.tree.text(name) if name is not None else ""
            for priority, made in _new_objects(ctx, declaration, type_text, named):
                yield ctx.edit_at(priority, "initialise_null", "reference", value, made, f"null -> {made}",
                                  "undefined objects")  # fmt: skip


def _new_objects(ctx: EditContext, declaration: Node, type_text: str, name: str) -> Iterator[tuple[int, str]]:
    if type_text.endswith("]"):
        element = type_text[: type_text.index("[")].strip()
        dimensions = type_text.count("[")
        sizes = _sizes(ctx, declaration, name)
        shapes = [[size] * dimensions for size in sizes]
        if dimensions == 2:
            # a grid made from a grid parameter's shape, as it is or turned (``new int[m[0].length][m.length]``)
            shapes += [list(shape) for grid in _grid_parameters(ctx, declaration) for shape in
                       ((f"{grid}.length", f"{grid}[0].length"), (f"{grid}[0].length", f"{grid}.length"))]  # fmt: skip
        for chosen in shapes:
            yield P_MID, f"new {element}" + "".join(f"[{size}]" for size in chosen)
        return
    base = type_text.split("<", 1)[0].strip()
    if base == "String":
        yield P_HIGH, '""'  # (the empty string a text that is built up, or measured, starts from)
        return
    made = java_new_object(type_text)
    if made is not None:
        yield P_HIGH, made


def java_new_object(type_text: str) -> str | None:
    """``new Impl<>()`` for a Java collection or builder type (``Deque<Integer>`` -> ``new ArrayDeque<>()``), by
    :data:`JAVA_IMPLEMENTATIONS`; None for any other type."""
    made = JAVA_IMPLEMENTATIONS.get(type_text.split("<", 1)[0].strip())
    return None if made is None else f"new {made}{'<>' if '<' in type_text else ''}()"


def _sizes(ctx: EditContext, declaration: Node, name: str) -> list[str]:
    """Array sizes the method suggests: first the bound a counter that indexes the array is kept below (``i < 1001``
    gives ``1001``, ``i <= 1000`` gives ``1001``), then its parameters: an int ``n`` gives ``n`` and ``n + 1``, an
    array ``a`` gives ``a.length`` and ``a.length + 1``, a string ``s`` gives ``s.length()``."""
    method = enclosing(declaration, frozenset({"method_declaration", "constructor_declaration"}))
    scopes = [method] if method is not None else list(ctx.tree.named("method_declaration"))
    sizes: list[str] = []
    for scope in scopes:
        sizes += index_bounds(ctx.tree.text(scope), name)
    for scope in scopes:
        for type_text, name_text in _parameters(ctx, scope):
            if type_text == "int":
                sizes += [name_text, f"{name_text} + 1"]
            elif type_text.endswith("[]"):
                sizes += [f"{name_text}.length", f"{name_text}.length + 1"]
            elif type_text == "String":
                sizes.append(f"{name_text}.length()")
    return list(dict.fromkeys(sizes))[:MAX_SIZES]


def _parameters(ctx: EditContext, method: Node) -> Iterator[tuple[str, str]]:
    """(type, name) of each parameter of a Java method."""
    parameters = method.child_by_field_name("parameters")
    for parameter in parameters.named_children if parameters is not None else []:
        kind, named = parameter.child_by_field_name("type"), parameter.child_by_field_name("name")
        if kind is not None and named is not None:
            yield ctx.tree.text(kind), ctx.tree.text(named)


def _grid_parameters(ctx: EditContext, declaration: Node) -> list[str]:
    """The two-dimensional array parameters of the method around ``declaration``."""
    method = enclosing(declaration, frozenset({"method_declaration", "constructor_declaration"}))
    parameters = _parameters(ctx, method) if method is not None else iter(())
    return [name for kind, name in parameters if kind.replace(" ", "").endswith("[][]")]


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
        choices += _variables_of_parameter_type(ctx, callee, position, argument)
        for choice in dict.fromkeys(choices):
            yield ctx.edit_at(P_MID, "replace_null_argument", "reference", argument, choice,
                              f"{ctx.tree.text(argument)} -> {choice}", "undefined objects")  # fmt: skip


def _variables_of_parameter_type(ctx: EditContext, callee: str, position: int, argument: Node) -> list[str]:
    """The variables in scope at ``argument`` (parameters and locals declared above it, :func:`_declared_in_scope`)
    whose type is the one the program's own function ``callee`` declares at ``position``: ``getPrice(i, prices[i],
    null)`` inside ``finalPrices(int[] prices)``, where ``getPrice`` takes an ``int[]``."""
    wanted: set[str] = set()
    for function in ctx.tree.named(*FUNCTION_TYPES):
        signature = function_signature(ctx.tree, function)
        parameters = parameter_list(function)
        if signature is None or signature[0] != callee or parameters is None:
            continue
        declared = [found for node in parameters.named_children for found in typed_declarators(ctx.tree, node)]
        if position < len(declared):
            wanted.add(plain_type(declared[position][1]))
    return [name for _, name, kind in _declared_in_scope(ctx, argument, fields=False) if plain_type(kind) in wanted]


# -- variables nothing ever gives a value -------------------------------------------------------------------------

_DECLARATION_TYPES = ("declaration", "local_variable_declaration", "field_declaration")
_CPP_SCALARS = frozenset({"int", "bool", "long", "double", "char", "float", "short", "unsigned", "size_t"})
MAX_STAND_INS = 4


@dataclass(frozen=True)
class _Unmade:
    """A variable declared without a value (or with null) that no statement of its scope ever assigns."""

    declaration: Node
    name: str
    type_text: str
    uses: list[Node]


def unmade_object_repairs(ctx: EditContext) -> Iterator[Candidate]:
    """A variable nothing ever gives a value, used anyway (DebugBench's "undefined objects" planted as ``TreeNode*
    undefinedNode;``, ``String dummy; dummy.length();``, ``UndefinedObject obj; ... obj.celsius``): the declaration
    goes, and with it (a) the statements that only use the variable, or (b) the variable in front of members the
    program itself declares (``obj.celsius`` -> ``celsius``), or (c) the variable is replaced everywhere by another
    one of the same type in scope, or by a map's entry of that type (``count += y`` -> ``count += map.get(nums[i])``),
    the nearest first."""
    if ctx.direction != "repair":
        return
    everything = list(_unmade_variables(ctx))
    unmade_names = {unmade.name for unmade in everything}
    for unmade in everything:
        lines = [line_of(use) for use in unmade.uses]
        if not any(ctx.wanted(line) for line in [line_of(unmade.declaration), *lines]):
            continue
        removal = _whole_lines(ctx, unmade.declaration)
        statements = [enclosing(use, _STATEMENT_TYPES) for use in unmade.uses]
        if len(statements) <= 3 and all(s is not None and s.type == "expression_statement" for s in statements):
            spans = [removal, *(_whole_lines(ctx, s) for s in statements if s is not None)]
            yield ctx.make(P_HIGH, "drop_unmade_object", "reference", lines[0],
                           f"delete '{unmade.name}' and the statements that use it",
                           _replaced(ctx.source, spans), "undefined objects")  # fmt: skip
        members = [_member_of(ctx, use) for use in unmade.uses]
        if all(member is not None for member in members):
            spans = [removal]
            for use in unmade.uses:
                start, _ = ctx.tree.span(use)
                end = ctx.tree.span(use.next_sibling)[1] if use.next_sibling is not None else start
                spans.append((start, end, ""))
            yield ctx.make(P_HIGH, "unmade_object_member", "reference", lines[0],
                           f"'{unmade.name}.{members[0]}' -> '{members[0]}'", _replaced(ctx.source, spans),
                           "undefined objects")  # fmt: skip
        else:
            yield from _unmade_object_method(ctx, unmade, removal)
        for other in _stand_ins(ctx, unmade, unmade_names):
            spans = [removal, *((*ctx.tree.span(use), other) for use in unmade.uses)]
            yield ctx.make(P_MID, "unmade_object_stand_in", "reference", lines[0], f"'{unmade.name}' -> '{other}'",
                           _replaced(ctx.source, spans), "undefined objects")  # fmt: skip
        yield from _made_objects(ctx, unmade)


def _made_objects(ctx: EditContext, unmade: _Unmade) -> Iterator[Candidate]:
    """The object made where a Java field is declared (a collection, string or array: ``new ArrayList<>()``),
    or, for LeetCode's node types, made just before its first use from an int in scope there, the nearest first
    (``TreeNode* root;`` ... ``root = new TreeNode(ele);`` above ``root->left = ...``): the value it holds is
    usually computed after the declaration."""
    line = line_of(unmade.declaration)
    node_type = plain_type(unmade.type_text).rstrip("*")
    if node_type in LEETCODE_NODE_TYPES:
        first = unmade.uses[0]
        statement = enclosing(first, _STATEMENT_TYPES)
        if statement is None or (statement.parent is not None and statement.parent.type not in BLOCK_TYPES):
            return
        values = [(d.start_byte, name) for d, name, kind in _declared_in_scope(ctx, first, fields=False)
                  if plain_type(kind) in ("int", "int&") and d.start_byte < statement.start_byte]  # fmt: skip
        values.sort(key=lambda item: -item[0])
        start = ctx.tree.span(statement)[0]
        indent = ctx.source[ctx.source.rfind("\n", 0, start) + 1 : start]
        for _, value in list(dict.fromkeys(values))[:MAX_NODE_VALUES]:
            made = f"{unmade.name} = new {node_type}({value});\n{indent}"
            yield ctx.make(P_MID, "make_unmade_object", "reference", line_of(statement),
                           f"'{unmade.name} = new {node_type}({value})' before its first use",
                           _replaced(ctx.source, [(start, start, made)]), "undefined objects")  # fmt: skip
        return
    if ctx.language != "java" or unmade.declaration.type != "field_declaration":
        return  # (a Java local read before it has a value does not compile: uninitialised_value_repairs)
    declarator = next((n for n in unmade.declaration.named_children if n.type == "variable_declarator"), None)
    if declarator is None or declarator.child_by_field_name("value") is not None:
        return
    end = ctx.tree.span(declarator)[1]
    for priority, made in _new_objects(ctx, unmade.declaration, unmade.type_text, unmade.name):
        yield ctx.make(priority, "make_unmade_object", "reference", line, f"'{unmade.name}' = {made}",
                       _replaced(ctx.source, [(end, end, f" = {made}")]), "undefined objects")  # fmt: skip


LEETCODE_NODE_TYPES = frozenset({"TreeNode", "ListNode"})
MAX_NODE_VALUES = 3


_STATEMENT_TYPES = frozenset(
    {"expression_statement", "return_statement", "declaration", "local_variable_declaration", "if_statement",
     "for_statement", "while_statement", "enhanced_for_statement", "for_range_loop", "do_statement"}
)  # fmt: skip


def _unmade_variables(ctx: EditContext) -> Iterator[_Unmade]:
    for declaration in ctx.tree.named(*_DECLARATION_TYPES):
        declarators = [n for n in declaration.named_children if n.type not in ("modifiers",)]
        kind = declaration.child_by_field_name("type")
        if kind is None or len(declarators) != 2 or declarators[0] != kind:
            continue
        declarator = declarators[1]
        shape = _declared_shape(ctx, declaration, kind, declarator)
        if shape is None:
            continue
        name, type_text = shape
        scope = declaration.parent if declaration.type != "field_declaration" else enclosing(declaration, CLASS_TYPES)
        if scope is None:
            continue
        field = declaration.type == "field_declaration"
        uses = [
            node for node in ctx.tree.walk(scope)
            if node.type == "identifier" and (field or node.start_byte > declaration.end_byte)
            and not declaration.start_byte <= node.start_byte < declaration.end_byte
            and ctx.tree.text(node) == name and ctx.is_variable_use(node)
        ]  # fmt: skip
        if (
            uses
            and not any(_gives_value(ctx, use) for use in uses)
            and not _assigned_in(_without(ctx, scope, declaration), name)
        ):
            yield _Unmade(declaration, name, type_text, uses)


def _assigned_in(text: str, name: str) -> bool:
    """Whether ``text`` assigns ``name`` anywhere (``name = ...``, ``this.name += ...``, ``name++``, ``--name``)."""
    word = re.escape(name)
    return re.search(rf"\b{word}\s*(?:[-+*/%|&^]?=(?!=)|\+\+|--)|(?:\+\+|--)\s*{word}\b", text) is not None


def _without(ctx: EditContext, scope: Node, part: Node) -> str:
    start, end = ctx.tree.span(scope)
    part_start, part_end = ctx.tree.span(part)
    return ctx.source[start:part_start] + ctx.source[part_end:end]


def _declared_shape(ctx: EditContext, declaration: Node, kind: Node, declarator: Node) -> tuple[str, str] | None:
    """The name and the type of a declaration that gives its variable no value, or None."""
    type_text = " ".join(ctx.tree.text(kind).split())
    if ctx.language == "java":
        if declarator.type != "variable_declarator" or declarator.child_by_field_name("dimensions") is not None:
            return None
        name, value = declarator.child_by_field_name("name"), declarator.child_by_field_name("value")
        if name is None or (value is not None and value.type != "null_literal"):
            return None
        if declaration.type == "field_declaration" and value is None and kind.type in _JAVA_PRIMITIVE_KINDS:
            return None  # a field of a primitive type starts at zero
        return ctx.tree.text(name), type_text
    if declaration.type == "field_declaration" and declarator.type != "pointer_declarator":
        return None  # a field of a class type is constructed; a scalar one may be set by a constructor's list
    if declarator.type == "init_declarator":
        value = declarator.child_by_field_name("value")
        inner = declarator.child_by_field_name("declarator")
        if value is None or inner is None or ctx.tree.text(value) not in ("nullptr", "NULL"):
            return None
        declarator = inner
    if declarator.type in ("pointer_declarator", "reference_declarator"):
        inner = declarator.named_children[-1] if declarator.named_children else None
        if inner is None or inner.type not in ("identifier", "field_identifier"):
            return None
        return ctx.tree.text(inner), type_text + ("*" if declarator.type == "pointer_declarator" else "")
    if declarator.type != "identifier":
        return None
    # a scalar holds garbage; an object of a type nobody declared, or of the solution's own class, is no object
    unknown_type = kind.type == "type_identifier" and type_text not in ctx.declared_names
    if type_text in _CPP_SCALARS or unknown_type or type_text == "Solution":
        return ctx.tree.text(declarator), type_text
    return None


def _gives_value(ctx: EditContext, use: Node) -> bool:
    """Whether this use may set the variable: assigned, incremented, read into, its address taken, or (C++) passed
    to a function of the program, which may take it by reference."""
    parent = use.parent
    if parent is None:
        return True
    if parent.type == "assignment_expression" and parent.child_by_field_name("left") == use:
        return True
    if parent.type in ("update_expression", "pointer_expression") or (
        parent.type == "unary_expression" and ctx.tree.text(parent)[:2] in ("++", "--")
    ):
        return True
    if parent.type == "binary_expression" and ctx.tree.text(parent).lstrip().startswith(("cin", "std::cin")):
        return True
    if ctx.language == "cpp" and parent.type == "argument_list":
        call = parent.parent
        function = call.child_by_field_name("function") if call is not None else None
        return function is not None and function.type == "identifier"
    return False


def _member_of(ctx: EditContext, use: Node) -> str | None:
    """``x.member`` / ``x->member`` / ``x.member(...)``: the member when the program declares that name itself."""
    parent = use.parent
    if parent is None or use.next_sibling is None or ctx.tree.text(use.next_sibling) not in (".", "->"):
        return None
    member = parent.child_by_field_name("field") or parent.child_by_field_name("name")
    if parent.type not in ("field_expression", "field_access", "method_invocation") or member is None:
        return None
    name = ctx.tree.text(member)
    function = enclosing(use, FUNCTION_TYPES)
    signature = function_signature(ctx.tree, function) if function is not None else None
    if signature is not None and signature[0] == name:
        return None  # the function calling itself through the object would never end
    return name if name in ctx.declared_names or name in ctx.methods else None


def _unmade_object_method(ctx: EditContext, unmade: _Unmade, removal: tuple[int, int, str]) -> Iterator[Candidate]:
    """``obj.calculate(a, b)`` on a variable nothing made, where the program declares no ``calculate``: the call
    goes to the one other function of the program that takes as many arguments (``dp(a, b)``), the declaration
    goes."""
    calls = [_called_member(ctx, use) for use in unmade.uses]
    if not calls or any(call is None for call in calls):
        return
    found = [call for call in calls if call is not None]
    arities = {call.arity for call in found}
    if len(arities) != 1:
        return
    arity = arities.pop()
    callers = {function.id for use in unmade.uses if (function := enclosing(use, FUNCTION_TYPES)) is not None}
    fitting = set()
    for function in ctx.tree.named(*FUNCTION_TYPES):
        signature = function_signature(ctx.tree, function)
        if signature is not None and len(signature[1]) == arity and function.id not in callers:
            fitting.add(signature[0])
    if len(fitting) != 1:
        return
    method = fitting.pop()
    spans = [removal, *((call.start, call.end, method) for call in found)]
    yield ctx.make(P_HIGH, "unmade_object_method", "reference", line_of(unmade.uses[0]),
                   f"'{unmade.name}.{found[0].member}(...)' -> '{method}(...)'", _replaced(ctx.source, spans),
                   "undefined objects")  # fmt: skip


@dataclass(frozen=True)
class _MemberCall:
    """``x.m(args)`` / ``x->m(args)``: the span of ``x.m``, the member's name and the number of arguments."""

    start: int
    end: int
    member: str
    arity: int


def _called_member(ctx: EditContext, use: Node) -> _MemberCall | None:
    """``use`` as the object of a call to a member the program does not declare, or None."""
    parent = use.parent
    if parent is None or use.next_sibling is None or ctx.tree.text(use.next_sibling) not in (".", "->"):
        return None
    member = parent.child_by_field_name("field") or parent.child_by_field_name("name")
    if member is None or ctx.tree.text(member) in ctx.declared_names or ctx.tree.text(member) in ctx.methods:
        return None
    if parent.type == "method_invocation":
        arguments = parent.child_by_field_name("arguments")
    elif parent.type == "field_expression" and parent.parent is not None and parent.parent.type == "call_expression":
        arguments = parent.parent.child_by_field_name("arguments")
    else:
        return None
    if arguments is None:
        return None
    start, _ = ctx.tree.span(use)
    _, end = ctx.tree.span(member)
    return _MemberCall(start, end, ctx.tree.text(member), len(arguments.named_children))


def _stand_ins(ctx: EditContext, unmade: _Unmade, unmade_names: set[str]) -> list[str]:
    """Variables of the same type in scope at the first use (parameters, locals declared before it in a block that
    holds it, fields), and entries of a map of that value type at the keys the code around the use indexes with
    (:func:`_lookups`), the nearest first."""
    first = unmade.uses[0]
    found: list[tuple[int, str]] = []
    for declaration, name, type_text in _declared_in_scope(ctx, first, fields=True):
        if declaration == unmade.declaration or name in unmade_names:
            continue
        if _same_type(type_text, unmade.type_text):
            found.append((declaration.start_byte, name))
        elif _unboxed(_map_value_type(type_text)) == _unboxed(unmade.type_text):
            found += [(declaration.start_byte, lookup) for lookup in _lookups(ctx, name, first)]
    found.sort(key=lambda item: -item[0])
    return list(dict.fromkeys(name for _, name in found))[:MAX_STAND_INS]


_MAP_TYPE = re.compile(r"(?:std::)?(?:(?:Hash|Tree|LinkedHash)?Map|(?:unordered_)?map)<(.+)>")


_JAVA_PRIMITIVE_KINDS = frozenset({"integral_type", "floating_point_type", "boolean_type"})
_BOXES = {"Integer": "int", "Long": "long", "Double": "double", "Boolean": "boolean", "Character": "char"}


def _declared_in_scope(ctx: EditContext, at: Node, *, fields: bool) -> Iterator[tuple[Node, str, str]]:
    """(declaration, name, type) of each variable in scope at ``at``, in document order: the parameters of the
    functions that hold it, the locals declared before it in a block that holds it and, with ``fields``, the fields."""
    holders = ancestor_ids(at)
    kinds = [*_DECLARATION_TYPES, "parameter_declaration", "formal_parameter"]
    if not fields:
        kinds.remove("field_declaration")
    for declaration in ctx.tree.named(*kinds):
        if declaration.start_byte > at.start_byte:
            continue
        if declaration.parent is None or declaration.parent.id not in holders:
            if declaration.type not in ("parameter_declaration", "formal_parameter", "field_declaration"):
                continue
            function = enclosing(declaration, FUNCTION_TYPES)
            if function is not None and function.id not in holders:
                continue
        for name, type_text in typed_declarators(ctx.tree, declaration):
            yield declaration, name, type_text


def _unboxed(type_text: str) -> str:
    plain = plain_type(type_text)
    return _BOXES.get(plain, plain)


def _map_value_type(type_text: str) -> str:
    """The value type of a map type (``HashMap<Integer, Integer>`` -> ``Integer``), or "" for any other type."""
    found = _MAP_TYPE.fullmatch(type_text.replace(" ", ""))
    if found is None:
        return ""
    depth, parts, start = 0, [], 0
    inner = found.group(1)
    for at, char in enumerate(inner):
        depth += (char == "<") - (char == ">")
        if char == "," and depth == 0:
            parts.append(inner[start:at])
            start = at + 1
    parts.append(inner[start:])
    return parts[1] if len(parts) == 2 else ""


def _lookups(ctx: EditContext, name: str, use: Node) -> list[str]:
    """A map's entries at the keys the code around a use indexes with (``map.get(nums[i])`` / ``map[nums[i]]`` for
    the ``nums[i]`` of the loop and conditions that hold the use), the innermost first: the value an unmade variable of
    the map's value type most likely stood for."""
    keys: list[str] = []
    holder = use.parent
    while holder is not None and holder.type not in FUNCTION_TYPES:
        if holder.type in _STATEMENT_TYPES:
            header = holder.child_by_field_name("condition") or holder
            text = ctx.tree.text(header).split("{", 1)[0]
            keys += re.findall(r"\b[A-Za-z_]\w*\s*\[\s*[A-Za-z_]\w*\s*\]", text)
        holder = holder.parent
    made = "{}.get({})" if ctx.language == "java" else "{}[{}]"
    return [made.format(name, " ".join(key.split())) for key in dict.fromkeys(keys)][:2]


def _same_type(first: str, second: str) -> bool:
    return plain_type(first) == plain_type(second)


def _whole_lines(ctx: EditContext, node: Node) -> tuple[int, int, str]:
    return (*ctx.deletion_span(node), "")


def _replaced(source: str, spans: list[tuple[int, int, str]]) -> str:
    """``source`` with each ``(start, end, new)`` span replaced; overlapping spans keep the outer one."""
    kept: list[tuple[int, int, str]] = []
    for start, end, new in sorted(spans, key=lambda span: (span[0], -span[1])):
        if kept and start < kept[-1][1]:
            continue
        kept.append((start, end, new))
    for start, end, new in reversed(kept):
        source = source[:start] + new + source[end:]
    return source


# -- C++ vectors indexed but never given a size -------------------------------------------------------------------

_GROWING = r"\.\s*(?:push_back|emplace_back|resize|assign|insert|push|emplace)\b|=(?!=)"


def unsized_vector_repairs(ctx: EditContext) -> Iterator[Candidate]:
    """A C++ ``vector<T> v;`` that the function indexes (``v[i]``) but never grows, fills or assigns: the size its
    declaration lost, from the function's parameters (``n``, ``n + 1``, ``nums.size()`` ...)."""
    if ctx.language != "cpp" or ctx.direction != "repair":
        return
    for declaration in ctx.tree.named("declaration"):
        kind = declaration.child_by_field_name("type")
        function = enclosing(declaration, FUNCTION_TYPES)
        type_text = ctx.tree.text(kind).replace(" ", "").removeprefix("std::") if kind is not None else ""
        if function is None or not type_text.startswith("vector<") or type_text.count("vector<") != 1:
            continue
        declarators = [child for child in declaration.named_children if child != kind]
        if len(declarators) != 1 or declarators[0].type != "identifier":
            continue
        name = re.escape(ctx.tree.text(declarators[0]))
        after = ctx.source[ctx.tree.span(declaration)[1] : ctx.tree.span(function)[1]]
        indexed = re.search(rf"\b{name}\s*\[", after)
        if indexed is None or re.search(rf"\b{name}\s*(?:{_GROWING})|[(,]\s*{name}\s*[,)]", after):
            continue
        if not ctx.wanted(line_of(declaration)) and not ctx.wanted(ctx.source.count("\n", 0, indexed.start()) + 1):
            continue
        for size in _cpp_sizes(ctx, function, ctx.tree.text(declarators[0])):
            sized = f"{ctx.tree.text(declarators[0])}({size})"
            yield ctx.edit_at(P_MID, "size_vector", "reference", declarators[0], sized, f"size the vector: {sized}",
                              "undefined objects")  # fmt: skip
    yield from _unsized_member_vectors(ctx)


def _unsized_member_vectors(ctx: EditContext) -> Iterator[Candidate]:
    """A vector field that the class's methods index but never grow, fill or assign: made at the top of each method
    that reads it and that no other method calls (where a call begins), of a size that method's parameters suggest
    (``color = vector<int>(graph.size());``). It is made anew there rather than resized, so that a second call on the
    same object starts from a clean one."""
    for declaration in ctx.tree.named("field_declaration"):
        kind = declaration.child_by_field_name("type")
        holder = enclosing(declaration, CLASS_TYPES)
        type_text = ctx.tree.text(kind).replace(" ", "").removeprefix("std::") if kind is not None else ""
        declarators = [child for child in declaration.named_children if child != kind]
        if holder is None or not type_text.startswith("vector<") or len(declarators) != 1:
            continue
        if declarators[0].type != "field_identifier":
            continue
        name = re.escape(ctx.tree.text(declarators[0]))
        methods = [node for node in ctx.tree.walk(holder) if node.type == "function_definition"]
        texts = [ctx.tree.text(method) for method in methods]
        whole = "\n".join(texts)
        if not re.search(rf"\b{name}\s*\[", whole) or re.search(rf"\b{name}\s*(?:{_GROWING})", whole):
            continue
        for index, method in enumerate(methods):
            others = "\n".join(texts[:index] + texts[index + 1 :])
            signature, body = function_signature(ctx.tree, method), method.child_by_field_name("body")
            called = signature[0] if signature is not None else None
            if body is None or not body.named_children or not re.search(rf"\b{name}\b", texts[index]):
                continue
            if called is None or re.search(rf"\b{re.escape(called)}\s*\(", others):
                continue
            at = ctx.tree.span(body.named_children[0])[0]
            indent = ctx.source[ctx.source.rfind("\n", 0, at) + 1 : at]
            for size in _cpp_sizes(ctx, method, ctx.tree.text(declarators[0])):
                made = f"{ctx.tree.text(declarators[0])} = {type_text}({size});"
                source = ctx.source[:at] + made + "\n" + indent + ctx.source[at:]
                yield ctx.make(P_MID, "size_vector", "reference", line_of(body), f"make the vector: {made}", source,
                               "undefined objects")  # fmt: skip


def index_bounds(text: str, name: str) -> list[str]:
    """The sizes an array ``name`` needs for the bounds its counters are kept below in ``text``: ``a[i]`` with ``i <
    1001`` gives ``1001``, with ``i <= 1000`` also ``1001``."""
    counters = set(re.findall(rf"\b{re.escape(name)}\s*\[\s*([A-Za-z_]\w*)\s*\]", text)) if name else set()
    sizes: list[str] = []
    for counter in sorted(counters):
        for operator, bound in re.findall(rf"\b{re.escape(counter)}\s*(<=?)\s*(\d+)\b", text):
            sizes.append(str(int(bound) + (operator == "<=")))
    return sizes


def _cpp_sizes(ctx: EditContext, function: Node, name: str) -> list[str]:
    """Sizes a C++ function suggests for a vector ``name``: the bounds its counters are kept below, then the
    parameters: an integer ``n`` gives ``n`` and ``n + 1``, a container ``v`` gives ``v.size()`` and ``v.size() +
    1``."""
    sizes: list[str] = index_bounds(ctx.tree.text(function), name)
    for parameter in ctx.tree.walk(function):
        if parameter.type != "parameter_declaration":
            continue
        kind = parameter.child_by_field_name("type")
        names = [n for n in ctx.tree.walk(parameter) if n.type == "identifier"]
        if kind is None or not names:
            continue
        type_text, name = ctx.tree.text(kind).replace(" ", ""), ctx.tree.text(names[-1])
        if type_text in ("int", "long", "longlong", "size_t"):
            sizes += [name, f"{name} + 1"]
        elif type_text.startswith(("vector<", "string")):
            sizes += [f"{name}.size()", f"{name}.size() + 1"]
    return list(dict.fromkeys(sizes))[:MAX_SIZES]


UNINITIALISED = re.compile(r"variable (\w+) might not have been initiali[sz]ed|'(\w+)' (?:is|may be) used uninitiali")
SELF_SPELLED = re.compile(r'\b(\w+)\s*=\s*"\1"', re.IGNORECASE)
"""A string variable set to its own name (``String type = "type";``)."""
_LOWEST = {"int": "Integer.MIN_VALUE", "long": "Long.MIN_VALUE", "double": "-Double.MAX_VALUE"}
_HIGHEST = {"int": "Integer.MAX_VALUE", "long": "Long.MAX_VALUE", "double": "Double.MAX_VALUE"}
_CPP_LOWEST = {"int": "INT_MIN", "long": "LONG_MIN", "long long": "LLONG_MIN", "double": "-DBL_MAX"}
_CPP_HIGHEST = {"int": "INT_MAX", "long": "LONG_MAX", "long long": "LLONG_MAX", "double": "DBL_MAX"}


def uninitialised_value_repairs(ctx: EditContext) -> Iterator[Candidate]:
    """A variable read before anything gave it a value (``int max; for (int m : nums) max = Math.max(m, max);``: Java
    rejects it, C++ reads garbage): the declaration gets a first value. The candidates are those such code starts
    from: zero, the type's extremes, -1 and 1, and the first element of each array or vector of that type in scope,
    the extreme a running maximum or minimum starts from first when the name says which it is; a string empty or
    spelling its own name (first where another string of the function spells its own)."""
    if ctx.direction != "repair":
        return
    names = {
        found.group(1) or found.group(2)
        for diagnostic in ctx.diagnostics
        if ctx.wanted(diagnostic.line)
        for found in [UNINITIALISED.search(diagnostic.message)]
        if found is not None
    }
    for declaration in ctx.tree.named("local_variable_declaration", "declaration"):
        if enclosing(declaration, FUNCTION_TYPES) is None:
            continue
        if ctx.language == "cpp":
            # (C++ compiles the read and says nothing: the first statement after the declaration that names the
            # variable reads it)
            names |= {name for name in _read_before_set(ctx, declaration) if ctx.wanted(line_of(declaration))}
        for declarator in declaration.named_children:
            name = declarator.child_by_field_name("name") if declarator.type == "variable_declarator" else declarator
            if name is None or name.type != "identifier" or ctx.tree.text(name) not in names:
                continue
            if declarator.type == "variable_declarator" and declarator.child_by_field_name("value") is not None:
                continue
            variable = ctx.tree.text(name)
            type_text = dict(typed_declarators(ctx.tree, declaration)).get(variable, "")
            _, end = ctx.tree.span(name)
            line = line_of(declaration)
            for value in _first_values(ctx, declaration, variable, type_text):
                yield ctx.replace_span(P_HIGH, "initialise_variable", "reference", line, end, end, f" = {value}",
                                       f"'{variable}' starts at {value}", "undefined objects")  # fmt: skip


def _first_values(ctx: EditContext, declaration: Node, name: str, type_text: str) -> list[str]:
    java = ctx.language == "java"
    if type_text == "boolean" or type_text == "bool":
        return ["false", "true"]
    if type_text in ("String", "string"):
        # (a constant that spells its own name, as others beside it do: String type = "type"; String color;)
        function = enclosing(declaration, FUNCTION_TYPES)
        spelled = function is not None and SELF_SPELLED.search(ctx.tree.text(function)) is not None
        return [f'"{name}"', '""'] if spelled else ['""', f'"{name}"']
    if type_text not in ("int", "long", "long long", "double", "float", "short"):
        made = java_new_object(type_text) if java else None
        return [made] if made is not None else []
    lowest = (_LOWEST if java else _CPP_LOWEST).get(type_text, "0")
    highest = (_HIGHEST if java else _CPP_HIGHEST).get(type_text, "0")
    function = enclosing(declaration, FUNCTION_TYPES)
    arrays = []
    if function is not None:
        for node in ctx.tree.walk(function):
            if node.type in ("formal_parameter", "parameter_declaration", "local_variable_declaration", "declaration"):
                for other, other_type in typed_declarators(ctx.tree, node):
                    element = other_type.removesuffix("[]").removesuffix("&").strip()
                    element = re.sub(r"^(?:const\s+)?vector<(.+)>$", r"\1", element).strip()
                    if other != name and element == type_text and other_type != type_text:
                        arrays.append(f"{other}[0]")
    word = name.lower()
    if "max" in word or "large" in word or "high" in word or "best" in word:
        order = [lowest, *arrays, "0"]
    elif "min" in word or "small" in word or "low" in word:
        order = [highest, *arrays, "0"]
    else:
        order = ["0", *arrays, lowest, highest]
    return list(dict.fromkeys([*order, "-1", "1"]))


def _read_before_set(ctx: EditContext, declaration: Node) -> Iterator[str]:
    """The C++ scalars ``declaration`` declares without a value whose first mention after it reads them (``sum +=
    x``, ``best = max(best, x)``, ``n++``) rather than sets them (``n = 0``) or hands them to a call (which may)."""
    scope = declaration.parent
    if scope is None:
        return
    for child in declaration.named_children:
        if child.type != "identifier" or child == declaration.child_by_field_name("type"):
            continue
        type_text = " ".join(ctx.tree.text(declaration.child_by_field_name("type") or child).split())
        if type_text not in _CPP_SCALARS:
            continue
        name = ctx.tree.text(child)
        first = next((node for node in ctx.tree.walk(scope) if node.type == "identifier"
                      and node.start_byte > declaration.end_byte and ctx.tree.text(node) == name), None)  # fmt: skip
        statement = enclosing(first, _STATEMENT_TYPES) if first is not None else None
        if first is None or statement is None or first.parent is None:
            continue
        parent = first.parent
        if parent.type == "argument_list":
            continue  # a call may set it through a reference
        if parent.type == "assignment_expression" and parent.child_by_field_name("left") == first:
            operator = parent.child_by_field_name("operator")
            right = parent.child_by_field_name("right")
            plain = operator is not None and ctx.tree.text(operator) == "="
            if plain and right is not None and not re.search(rf"\b{re.escape(name)}\b", ctx.tree.text(right)):
                continue
        yield name
