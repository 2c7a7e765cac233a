"""Repairs of names that lead nowhere, or twice: a variable declared a second time, a call of a function nobody
wrote, a helper nobody calls that does not compile, a method that calls itself with its own arguments unchanged.

These are shapes of DebugBench's reference errors that a similar-looking name cannot fix. A call of a helper that
was never written usually stands for a function the program does define under another name with the same number of
parameters, for one of its own arguments (the helper would have returned it), or for a library expression of its
arguments (``countDiff(a, b)`` for ``abs(a - b)``), the same at every place it is called; an unknown name passed
where a function goes stands for a function the program defines and never calls (a comparator). A helper nobody
calls whose body does not compile was added around the bug and goes away whole; a one-line helper that reads its
caller's locals is inlined where it is called. A second declaration of a name in the same scope was meant as an
assignment, or not at all. A call through a new object of the solution's own class with the method's own arguments
(``Solution obj; return obj.minimumTime(time, totalTrips);``) never returns; the method meant to return what it
computed, one of its local variables.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass

from tree_sitter import Node

from debugtutor.analysis.clike.context import P_FIRST, P_HIGH, P_LOW, P_MID, Candidate, EditContext, line_bounds
from debugtutor.analysis.clike.diagnostics import quoted_names
from debugtutor.analysis.clike.syntax_tree import (
    CLASS_TYPES,
    FUNCTION_TYPES,
    ancestor_ids,
    argumentless_self_calls,
    call_parts,
    enclosing,
    function_signature,
    line_of,
    unchanged_self_calls,
)
from debugtutor.analysis.edits._base import EditCategory

# Free functions (C++) and static calls (Java) a misspelt call may have meant.
LIBRARY_CALLS = {
    "cpp": ("max", "min", "abs", "swap", "sort", "reverse", "accumulate", "to_string", "stoi", "stol", "stoll", "pow",
            "sqrt", "floor", "ceil", "gcd", "lcm", "max_element", "min_element", "lower_bound", "upper_bound",
            "make_pair", "find", "count", "fill", "memset", "isdigit", "isalpha", "tolower", "toupper", "log2",
            "binary_search", "next_permutation", "unique", "iota", "push_heap", "pop_heap"),
    "java": ("Math.max", "Math.min", "Math.abs", "Math.pow", "Math.sqrt", "Math.floor", "Math.ceil",
             "Arrays.sort", "Arrays.fill", "Collections.sort", "Collections.reverse", "Integer.parseInt",
             "String.valueOf", "Character.isDigit", "Character.isLetter", "Integer.valueOf", "Arrays.asList",
             "Collections.max", "Collections.min", "Integer.toString", "Long.parseLong", "Character.toLowerCase",
             "Character.toUpperCase", "Long.valueOf", "Integer.bitCount", "Character.getNumericValue",
             "String.join", "Math.floorMod"),
}  # fmt: skip

# What a helper of one or two arguments that nobody wrote most often computed, as a template of its arguments.
_LIBRARY_EXPRESSIONS = {
    "cpp": {
        1: ("abs({0})", "{0} - 1", "{0} + 1"),
        2: ("abs({0} - {1})", "max({0}, {1})", "min({0}, {1})", "{0} + {1}", "{0} - {1}"),
    },
    "java": {
        1: ("Math.abs({0})", "{0} - 1", "{0} + 1"),
        2: ("Math.abs({0} - {1})", "Math.max({0}, {1})", "Math.min({0}, {1})", "{0} + {1}", "{0} - {1}"),
    },
}
# What a helper of one argument nobody wrote computed, told by a word of its name (``calculateRowSum(mat[i])``,
# ``getMaxValue(nums)``), for each kind of collection the argument may be: the compiler tells which fits.
_NAMED_EXPRESSIONS: dict[str, tuple[tuple[frozenset[str], tuple[str, ...]], ...]] = {
    "cpp": (
        (frozenset({"sum", "total"}),
         ("accumulate({0}.begin(), {0}.end(), 0)", "accumulate({0}.begin(), {0}.end(), 0LL)")),
        (frozenset({"max", "maximum", "largest", "biggest"}), ("*max_element({0}.begin(), {0}.end())",)),
        (frozenset({"min", "minimum", "smallest"}), ("*min_element({0}.begin(), {0}.end())",)),
        (frozenset({"size", "length", "len", "count"}), ("{0}.size()",)),
        (frozenset({"reverse", "reversed"}), ("string({0}.rbegin(), {0}.rend())",)),
    ),
    "java": (
        (frozenset({"sum", "total"}), ("Arrays.stream({0}).sum()", "{0}.stream().mapToInt(Integer::intValue).sum()")),
        (frozenset({"max", "maximum", "largest", "biggest"}),
         ("Arrays.stream({0}).max().getAsInt()", "Collections.max({0})")),
        (frozenset({"min", "minimum", "smallest"}), ("Arrays.stream({0}).min().getAsInt()", "Collections.min({0})")),
        (frozenset({"size", "length", "len", "count"}), ("{0}.length", "{0}.size()", "{0}.length()")),
        (frozenset({"reverse", "reversed"}), ("new StringBuilder({0}).reverse().toString()",)),
    ),
}  # fmt: skip


def _name_words(symbol: str) -> set[str]:
    """The lower-case words of a camelCase or snake_case name."""
    return {word.lower() for word in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+", symbol)}


def _named_expressions(language: str, symbol: str) -> list[str]:
    words = _name_words(symbol)
    return [template for told, templates in _NAMED_EXPRESSIONS[language] if words & told for template in templates]


# ... and what one made for its effect on its only argument did (``reverseString(v);``).
_LIBRARY_STATEMENTS = {
    "cpp": ("reverse({0}.begin(), {0}.end())", "sort({0}.begin(), {0}.end())"),
    "java": ("Collections.reverse({0})", "Arrays.sort({0})", "Collections.sort({0})"),
}
MAX_LOCALS = 8
_CALL_TYPES = ("call_expression", "method_invocation")
_DECLARATIONS = ("declaration", "local_variable_declaration")


def name_repairs(ctx: EditContext) -> Iterator[Candidate]:
    """Every repair of this module for the compiler's reference errors at the wanted lines."""
    if ctx.direction != "repair":
        return
    yield from redeclaration_repairs(ctx)
    errors = _blocking_lines(ctx)
    functions = _functions(ctx) if errors else []
    # (a helper nobody calls never runs: deleting it is the whole fix of the calls inside it)
    yield from uncalled_helper_removals(ctx, functions, errors)
    yield from helper_inlinings(ctx, functions, errors)
    yield from every_undefined_call_repairs(ctx, functions)
    yield from undefined_call_repairs(ctx, functions)
    yield from unknown_function_value_repairs(ctx, functions)
    yield from self_call_repairs(ctx)
    yield from container_type_repairs(ctx)
    yield from operation_name_repairs(ctx)


_HEADER_NAME = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


def operation_name_repairs(ctx: EditContext) -> Iterator[Candidate]:
    """A design class's method renamed to the operation the examples call that the class lacks (``void add(int x)``
    where they call ``push``): the header the finding is on gets the called name."""
    for diagnostic in ctx.diagnostics:
        if diagnostic.code != "unmatched-operation" or not diagnostic.symbol or not ctx.wanted(diagnostic.line):
            continue
        start, end = line_bounds(ctx.source, diagnostic.line)
        header = _HEADER_NAME.search(ctx.source, start, end)
        if header is None or header.group(1) == diagnostic.symbol:
            continue
        yield ctx.replace_span(P_FIRST, "rename_method", "reference", diagnostic.line, header.start(1), header.end(1),
                               diagnostic.symbol, f"'{header.group(1)}' -> '{diagnostic.symbol}', the operation the "
                               "examples call", "undefined methods")  # fmt: skip


# The standard sequence and set containers, the one LeetCode's signatures use first.
_CONTAINERS = ("vector", "list", "deque", "set", "unordered_set", "multiset")
_NAME_TYPES = ("identifier", "field_identifier")


def container_type_repairs(ctx: EditContext) -> Iterator[Candidate]:
    """C++: a container declared as one kind where the code needs another (``list<int> a, b;`` then
    ``return {a, b};`` for a ``vector<vector<int>>``): where a compile error quotes a name, its declaration's
    container becomes each other standard one."""
    if ctx.language != "cpp":
        return
    messages = [d.message for d in ctx.diagnostics if d.category in ("syntax", "reference")]
    quoted = {name for message in messages for name in quoted_names(message)}
    for node in ctx.tree.named("template_type"):
        declaration, kind = node.parent, node.child_by_field_name("name")
        if declaration is None or declaration.type not in (*_DECLARATIONS, "field_declaration") or kind is None:
            continue
        current = ctx.tree.text(kind)
        if current not in _CONTAINERS or declaration.child_by_field_name("type") != node:
            continue
        names = {ctx.tree.text(part) for part in ctx.tree.walk(declaration) if part.type in _NAME_TYPES}
        if not names & quoted or not ctx.wanted(line_of(node)):
            continue
        for other in _CONTAINERS:
            if other != current:
                yield ctx.edit_node(P_MID, "retype_container", "reference", kind, other,
                                    f"'{current}' -> '{other}' in the declaration", "undefined objects")  # fmt: skip


def redeclaration_repairs(ctx: EditContext) -> Iterator[Candidate]:
    """A declaration the compiler says repeats a name: ``T x = v;`` -> ``x = v;``, and the declaration deleted."""
    lines = {d.line for d in ctx.diagnostics if d.code == "redeclared" and ctx.wanted(d.line)}
    for declaration in ctx.tree.named(*_DECLARATIONS):
        if line_of(declaration) not in lines or enclosing(declaration, FUNCTION_TYPES) is None:
            continue
        declarators = [n for n in declaration.named_children if n.type in ("init_declarator", "variable_declarator")]
        if len(declarators) == 1:
            name = declarators[0].child_by_field_name("declarator") or declarators[0].child_by_field_name("name")
            value = declarators[0].child_by_field_name("value")
            if name is not None and value is not None and name.type == "identifier":
                assignment = f"{ctx.tree.text(name)} = {ctx.tree.text(value)};"
                yield ctx.edit_at(P_HIGH, "redeclaration_to_assignment", "reference", declaration, assignment,
                                  f"assign '{ctx.tree.text(name)}' instead of declaring it again",
                                  "undefined objects")  # fmt: skip
        yield ctx.delete_node(P_HIGH, "delete_redeclaration", "reference", declaration,
                              "delete the second declaration", "undefined objects")  # fmt: skip


@dataclass(frozen=True)
class _Function:
    node: Node
    name: str
    parameters: list[str]
    void: bool
    called: bool
    """Called somewhere else in the program."""
    named: bool
    """Called or passed by name somewhere else in the program: a helper rather than the entry point."""
    in_solution: bool
    """A method of ``class Solution`` (a design problem's class is called method by method by the judge)."""

    def error_lines(self, lines: set[int]) -> list[int]:
        return sorted(line for line in lines if line_of(self.node) <= line <= self.node.end_point[0] + 1)


def _functions(ctx: EditContext) -> list[_Function]:
    found: list[_Function] = []
    for function in ctx.tree.named("function_definition", "method_declaration"):
        signature = function_signature(ctx.tree, function)
        if signature is None:
            continue
        kind = function.child_by_field_name("type")
        owner = enclosing(function, CLASS_TYPES)
        owner_name = owner.child_by_field_name("name") if owner is not None else None
        start, end = ctx.tree.span(function)
        outside = ctx.source[:start] + ctx.source[end:]
        found.append(
            _Function(
                function, signature[0], signature[1],
                void=kind is not None and ctx.tree.text(kind) == "void",
                called=re.search(rf"\b{re.escape(signature[0])}\s*\(", outside) is not None,
                named=re.search(rf"\b{re.escape(signature[0])}\b", outside) is not None,
                in_solution=owner_name is not None and ctx.tree.text(owner_name) == "Solution",
            )
        )  # fmt: skip
    return found


def _blocking_lines(ctx: EditContext) -> set[int]:
    return {d.line for d in ctx.diagnostics if d.category in ("syntax", "reference") and ctx.wanted(d.line)}


def _unknown_names(ctx: EditContext) -> set[tuple[int, str]]:
    """(line, name) of each name the compiler could not find, at the wanted lines."""
    return {
        (d.line, d.symbol) for d in ctx.diagnostics if d.category == "reference" and d.symbol and ctx.wanted(d.line)
    }


def _undefined_calls(ctx: EditContext) -> Iterator[tuple[Node, Node, list[Node]]]:
    """(call, called name, arguments) of each call of a name the compiler could not find, at the wanted lines."""
    wanted = _unknown_names(ctx)
    if not wanted:
        return
    for call in ctx.tree.named(*_CALL_TYPES):
        _, callee, arguments = call_parts(call)
        if callee is None or arguments is None or (line_of(call), ctx.tree.text(callee)) not in wanted:
            continue
        yield call, callee, list(arguments.named_children)


def undefined_call_repairs(ctx: EditContext, defined: list[_Function]) -> Iterator[Candidate]:
    """A call of a function nobody defined -> a defined function with as many parameters, one of the call's own
    arguments, or a library expression of them; a library class's unknown static method -> that class's known
    ones."""
    library = LIBRARY_CALLS[ctx.language]
    for call, callee, arguments in _undefined_calls(ctx):
        symbol = ctx.tree.text(callee)
        receiver = call_parts(call)[0]
        receiver_text = ctx.tree.text(receiver) if receiver is not None else ""
        if receiver_text and receiver_text[:1].isupper() and receiver_text != "Solution":
            for known in library:
                owner, _, method = known.rpartition(".")
                if owner == receiver_text and method != symbol:
                    yield ctx.edit_at(P_HIGH, "rename_reference", "reference", callee, method,
                                      f"'{symbol}' -> '{method}'", "undefined methods")  # fmt: skip
            continue
        if receiver_text not in ("", "this"):
            continue
        # a call made for its effect most likely meant a void function, one whose value is used a function that
        # returns one; helpers the program calls elsewhere before the entry point
        as_statement = call.parent is not None and call.parent.type == "expression_statement"
        texts = [ctx.tree.text(argument) for argument in arguments]
        fitting = [
            f for f in defined
            if f.name != symbol and len(f.parameters) == len(arguments) and not _recurses_unchanged(f, call, texts)
        ]  # fmt: skip
        fitting.sort(key=lambda f: (f.void != as_statement, not f.named))
        holder = enclosing(call, FUNCTION_TYPES)
        endless = holder is not None and not any(
            node.type == "return_statement" and node.end_byte <= call.start_byte for node in ctx.tree.walk(holder)
        )
        for name in dict.fromkeys(f.name for f in fitting):
            # (the function the call stands in, with no return before the call to end the recursion, comes after the
            # other edits: a recursion that never ends)
            itself = endless and any(f.name == name and f.node == holder for f in fitting)
            yield ctx.edit_at(P_LOW if itself else P_HIGH, "rename_reference", "reference", callee, name,
                              f"'{symbol}' -> '{name}' (a defined function with {len(arguments)} parameters)",
                              "undefined methods")  # fmt: skip
        if len(texts) > 1:
            for text in dict.fromkeys(texts):
                yield ctx.edit_at(P_MID, "unwrap_call", "reference", call, text,
                                  f"'{ctx.tree.text(call)}' -> '{text}'", "undefined methods")  # fmt: skip
        templates = _LIBRARY_EXPRESSIONS[ctx.language].get(len(texts), ())
        if len(texts) == 1:
            templates = (*_named_expressions(ctx.language, symbol), *templates)
        if as_statement:
            templates = _LIBRARY_STATEMENTS[ctx.language] if len(texts) == 1 else ()
        for template in templates:
            expression = template.format(*texts)
            yield ctx.edit_at(P_MID, "library_expression", "reference", call, expression,
                              f"'{ctx.tree.text(call)}' -> '{expression}'", "undefined methods")  # fmt: skip


def _recurses_unchanged(function: _Function, call: Node, arguments: list[str]) -> bool:
    """Whether renaming ``call`` to ``function`` makes a function call itself with its own parameters, unchanged:
    a recursion that makes no progress, which never ends wherever it is reached."""
    return enclosing(call, FUNCTION_TYPES) == function.node and arguments == function.parameters


def every_undefined_call_repairs(ctx: EditContext, defined: list[_Function]) -> Iterator[Candidate]:
    """A function nobody defined called at several places stands for the same thing at each: every call of it
    renamed to a defined function with as many parameters, or replaced by one library expression of its own
    arguments (or by its only argument), all at once (one edit per place would leave a search of that many
    edits)."""
    symbols = {symbol for _, symbol in _unknown_names(ctx)}
    by_symbol: dict[str, list[tuple[Node, Node, list[Node]]]] = {}
    for call in ctx.tree.named(*_CALL_TYPES):
        receiver, callee, arguments = call_parts(call)
        if callee is None or arguments is None or ctx.tree.text(callee) not in symbols:
            continue
        if receiver is not None and ctx.tree.text(receiver) != "this":
            continue
        by_symbol.setdefault(ctx.tree.text(callee), []).append((call, callee, list(arguments.named_children)))
    for symbol, calls in by_symbol.items():
        arity = len(calls[0][2])
        if len(calls) < 2 or any(len(arguments) != arity for _, _, arguments in calls):
            continue
        statements = all(call.parent is not None and call.parent.type == "expression_statement" for call, _, _ in calls)
        # (what the description shows, a defined function's name or a template of the arguments, is it a name)
        fitting = dict.fromkeys(
            f.name for f in defined
            if f.name != symbol and len(f.parameters) == arity
            and not any(_recurses_unchanged(f, call, [ctx.tree.text(a) for a in args]) for call, _, args in calls)
        )  # fmt: skip
        replacements = [(f"'{symbol}' -> '{name}'", name, True) for name in fitting]
        templates = _LIBRARY_EXPRESSIONS[ctx.language].get(arity, ())
        if statements:
            templates = _LIBRARY_STATEMENTS[ctx.language] if arity == 1 else ()
        elif arity == 1:
            templates = (*_named_expressions(ctx.language, symbol), "{0}", *templates)
        for template in templates:
            shown = template.format(*(f"<{n + 1}>" for n in range(arity)))
            replacements.append((f"'{symbol}(...)' -> '{shown}'", template, False))
        ordered = sorted(calls, key=lambda found: -found[0].start_byte)
        for description, replacement, is_name in replacements:
            source = ctx.source
            for whole, name_node, argument_nodes in ordered:
                texts = [ctx.tree.text(argument) for argument in argument_nodes]
                start, end = ctx.tree.span(name_node if is_name else whole)
                source = source[:start] + (replacement if is_name else replacement.format(*texts)) + source[end:]
            yield ctx.make(P_HIGH, "replace_every_call", "reference", line_of(calls[0][0]),
                           f"{description} at all {len(calls)} calls", source, "undefined methods")  # fmt: skip


def unknown_function_value_repairs(ctx: EditContext, defined: list[_Function]) -> Iterator[Candidate]:
    """A name nobody defined passed where a function goes (``sort(v.begin(), v.end(), byEnd)``) -> each function
    the program defines, returns a value from and never calls (a comparator), the ones it passes by name elsewhere
    first."""
    wanted = _unknown_names(ctx)
    if not wanted:
        return
    values = [f for f in defined if f.parameters and not f.void and not f.called]
    unnamed = [f.name for f in sorted(values, key=lambda f: not f.named)]
    if not unnamed:
        return
    for node in ctx.tree.named("identifier"):
        symbol = ctx.tree.text(node)
        parent = node.parent
        if (line_of(node), symbol) not in wanted or parent is None or parent.type != "argument_list":
            continue
        for name in dict.fromkeys(unnamed):
            if name != symbol:
                yield ctx.edit_at(P_HIGH, "rename_reference", "reference", node, name,
                                  f"'{symbol}' -> '{name}' (a defined function never called)",
                                  "undefined methods")  # fmt: skip


def uncalled_helper_removals(ctx: EditContext, functions: list[_Function], errors: set[int]) -> Iterator[Candidate]:
    """Delete a method of ``class Solution`` that nobody calls and whose body holds a compiler error, when another
    of its methods is uncalled too (the entry point, which the judge calls, is never called by the program itself;
    a design problem's class is called method by method, so its methods are never deleted)."""
    uncalled = [f for f in functions if f.in_solution and not f.named]
    if len(uncalled) < 2:
        return
    for function in uncalled:
        inside = function.error_lines(errors)
        if inside:
            _, deleted = ctx.delete_node(P_HIGH, "delete_helper", "reference", function.node, "", "")
            # anchored at its error line, where the compile-fix rounds look for edits
            yield ctx.make(P_HIGH, "delete_helper", "reference", inside[0],
                           f"delete '{function.name}', which nobody calls", deleted.source,
                           "undefined methods")  # fmt: skip


def helper_inlinings(ctx: EditContext, functions: list[_Function], errors: set[int]) -> Iterator[Candidate]:
    """A small helper of ``class Solution`` whose body holds a compiler error (it reads a local of its caller) is
    inlined and goes: every call ``f(x)`` of a one-line helper (``return product * num;``) becomes the returned
    expression, every call statement ``f(x);`` of a ``void`` helper without a ``return`` becomes its body's
    statements, the parameters replaced by the arguments (also inside comments, which may hide a call)."""
    for helper in functions:
        body = helper.node.child_by_field_name("body")
        inside = helper.error_lines(errors)
        if body is None or not helper.in_solution or not inside:
            continue
        statements = [node for node in body.named_children if node.type != "comment"]
        name = re.escape(helper.name)
        if len(statements) == 1 and statements[0].type == "return_statement":
            returned = statements[0].named_children
            if len(returned) != 1:
                continue
            expression = ctx.tree.text(returned[0])
            call = re.compile(rf"(?<![\w.]){name}\s*\(([^()]*)\)")
        elif helper.void and statements and "return" not in ctx.tree.text(body):
            expression = " ".join(" ".join(ctx.tree.text(node).split()) for node in statements)
            call = re.compile(rf"(?<![\w.])(?:this\s*\.\s*)?{name}\s*\(([^()]*)\)\s*;")
        else:
            continue
        _, without = ctx.delete_node(P_HIGH, "inline_helper", "reference", helper.node, "", "")
        # the helper's own text is gone from ``without``; only its callers are rewritten
        rewritten = call.sub(functools.partial(_inlined, expression=expression, parameters=helper.parameters),
                             without.source)  # fmt: skip
        if rewritten != without.source:
            description = f"inline '{helper.name}' where it is called ({expression})"
            yield ctx.make(P_HIGH, "inline_helper", "reference", inside[0], description, rewritten,
                           "undefined methods")  # fmt: skip


def _inlined(call: re.Match[str], expression: str, parameters: list[str]) -> str:
    """``expression`` with each parameter replaced by the call's argument (the call unchanged when the numbers of
    arguments and parameters differ)."""
    arguments = [a.strip() for a in call.group(1).split(",")] if call.group(1).strip() else []
    if len(arguments) != len(parameters):
        return call.group(0)
    given = {
        parameter: argument if re.fullmatch(r"[\w.\[\]]+", argument) else f"({argument})"
        for parameter, argument in zip(parameters, arguments)
    }
    # one pass, so an argument that names another parameter is not replaced again
    named = "|".join(re.escape(parameter) for parameter in given)
    return re.sub(rf"\b(?:{named})\b", lambda found: given[found.group(0)], expression) if given else expression


def self_call_repairs(ctx: EditContext) -> Iterator[Candidate]:
    """A call of the method itself with its own arguments unchanged, or with none where it takes some (no compiler
    matches that) -> each local variable declared before it (the value the method computed); an unchanged call as a
    statement of its own, deleted."""
    for function, call in unchanged_self_calls(ctx.tree):
        if not ctx.wanted(line_of(call)):
            continue
        receiver = call_parts(call)[0]
        through_object = receiver is not None and ctx.tree.text(receiver) != "this"
        category: EditCategory = "reference" if through_object else "logic"
        bug = "undefined objects" if through_object else "condition error"
        statement = call.parent
        if statement is not None and statement.type == "expression_statement":
            yield ctx.delete_node(P_MID, "delete_self_call", category, statement, "delete the call that never ends",
                                  bug)  # fmt: skip
            continue
        for name in _locals_before(ctx, function, call, exclude=receiver):
            yield ctx.edit_at(P_MID, "self_call_to_local", category, call, name,
                              f"'{ctx.tree.text(call)}' -> '{name}'", bug)  # fmt: skip
    for function, call in argumentless_self_calls(ctx.tree):
        # (``return this->f();`` inside ``f(a, b)`` cannot compile: most likely a value the method computed was meant)
        if not ctx.wanted(line_of(call)):
            continue
        for name in _locals_before(ctx, function, call, exclude=None):
            yield ctx.edit_at(P_MID, "self_call_to_local", "reference", call, name,
                              f"'{ctx.tree.text(call)}' -> '{name}'", "undefined methods")  # fmt: skip


def _locals_before(ctx: EditContext, function: Node, call: Node, exclude: Node | None) -> list[str]:
    """Variables declared in ``function`` above ``call`` in a scope that holds it, the nearest first (at most
    :data:`MAX_LOCALS`)."""
    skip = ctx.tree.text(exclude) if exclude is not None else None
    scopes = ancestor_ids(call)
    names: list[str] = []
    for declaration in ctx.tree.walk(function):
        if declaration.type not in _DECLARATIONS or declaration.start_byte >= call.start_byte:
            continue
        if declaration.parent is None or declaration.parent.id not in scopes:
            continue
        for declarator in declaration.named_children:
            if declarator.type not in ("init_declarator", "variable_declarator", "identifier"):
                continue
            name = declarator if declarator.type == "identifier" else (
                declarator.child_by_field_name("declarator") or declarator.child_by_field_name("name"))  # fmt: skip
            if name is not None and name.type == "identifier" and ctx.tree.text(name) != skip:
                names.append(ctx.tree.text(name))
    return list(dict.fromkeys(reversed(names)))[:MAX_LOCALS]
