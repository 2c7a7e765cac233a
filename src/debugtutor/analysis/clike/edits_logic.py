"""Logic edit operators for C++ and Java over the tree-sitter tree, shared by repair and mutation (most are their
own inverse): comparison, arithmetic, compound-assignment, increment and boolean operator swaps, negation, +-1 on
constants, indices and bounds, swapped library calls (``min``/``max``, ``begin``/``end`` ...), swapped variables
and members, statement deletion, swap and ``break``/``continue``, a call dropped from the middle of a chain, a
name exchanged between two statements that differ in it alone, the targets of two assignments in a row exchanged,
and a computed start value put back to zero. A repair
never swaps a ``for`` loop's condition against the loop's step (``j >= 0`` of ``j--`` into ``j <= 0``)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from difflib import SequenceMatcher

from tree_sitter import Node

from debugtutor.analysis.clike.context import (
    P_HIGH,
    P_LAST,
    P_LOW,
    P_MID,
    Candidate,
    EditContext,
    line_bounds,
    source_lines,
)
from debugtutor.analysis.clike.syntax_tree import (
    BLOCK_TYPES,
    FUNCTION_TYPES,
    LOOP_TYPES,
    STATEMENT_TYPES,
    ancestor_ids,
    call_parts,
    element_read,
    enclosing,
    end_line_of,
    function_signature,
    indent_width,
    line_of,
    operator_token,
    parameter_list,
    plain_type,
    subscript_index,
    typed_declarators,
)
from debugtutor.analysis.edits._base import EditCategory

# Ordered by how often the swap is the real mistake: strictness first, then direction, then negation.
COMPARISON_SWAPS: dict[str, tuple[str, ...]] = {
    "<": ("<=", ">", "!=", ">=", "=="),
    "<=": ("<", ">=", ">", "=="),
    ">": (">=", "<", "!=", "<=", "=="),
    ">=": (">", "<=", "<", "=="),
    "==": ("!=", "<=", ">=", "<", ">"),
    "!=": ("==", "<", ">"),
}
ARITHMETIC_SWAPS: dict[str, tuple[str, ...]] = {
    "+": ("-", "*"),
    "-": ("+",),
    "*": ("/", "+"),
    "/": ("*", "%"),
    "%": ("/",),
    "<<": (">>",),
    ">>": ("<<", ">>>"),
    ">>>": (">>",),
    "&": ("|", "^", "&&"),
    "|": ("&", "^", "||"),
    "^": ("|", "&", "+"),
}
ASSIGNMENT_SWAPS: dict[str, tuple[str, ...]] = {
    "+=": ("-=", "=", "*=", "^="),
    "-=": ("+=", "="),
    "*=": ("/=", "+="),
    "/=": ("*=", "%="),
    "%=": ("/=",),
    "=": ("+=", "-="),
    "|=": ("&=", "^="),
    "&=": ("|=",),
    "^=": ("|=", "+="),
    "<<=": (">>=",),
    ">>=": ("<<=",),
}
# Library names that a bug swaps for a sibling (both languages; a name that is not there is never proposed).
NAME_SWAPS: dict[str, tuple[str, ...]] = {
    "min": ("max",),
    "max": ("min",),
    "min_element": ("max_element",),
    "max_element": ("min_element",),
    "begin": ("end", "rbegin"),
    "end": ("begin", "rend"),
    "rbegin": ("begin",),
    "rend": ("end",),
    "front": ("back",),
    "back": ("front",),
    "push_back": ("pop_back", "push_front"),
    "pop_back": ("push_back", "pop_front"),
    "push_front": ("push_back",),
    "pop_front": ("pop_back",),
    "lower_bound": ("upper_bound",),
    "upper_bound": ("lower_bound",),
    "first": ("second",),
    "second": ("first",),
    "left": ("right",),
    "right": ("left",),
    "floor": ("ceil",),
    "ceil": ("floor",),
    "toLowerCase": ("toUpperCase",),
    "toUpperCase": ("toLowerCase",),
    "tolower": ("toupper",),
    "toupper": ("tolower",),
    "isupper": ("islower",),
    "islower": ("isupper",),
    "isUpperCase": ("isLowerCase",),
    "isLowerCase": ("isUpperCase",),
    "isdigit": ("isalpha",),
    "isalpha": ("isdigit", "isalnum"),
    "isDigit": ("isLetter",),
    "isLetter": ("isDigit", "isLetterOrDigit"),
    "addFirst": ("addLast",),
    "addLast": ("addFirst",),
    "pollFirst": ("pollLast",),
    "pollLast": ("pollFirst",),
    "peekFirst": ("peekLast",),
    "peekLast": ("peekFirst",),
    "pop": ("peek",),
    "poll": ("peek",),
    "peek": ("pop", "poll"),
    "removeFirst": ("removeLast",),
    "removeLast": ("removeFirst",),
    "offerFirst": ("offerLast",),
    "offerLast": ("offerFirst",),
    "firstKey": ("lastKey",),
    "lastKey": ("firstKey",),
    "floorKey": ("ceilingKey",),
    "ceilingKey": ("floorKey",),
    "floorEntry": ("ceilingEntry",),
    "ceilingEntry": ("floorEntry",),
    "pollFirstEntry": ("pollLastEntry",),
    "startsWith": ("endsWith",),
    "endsWith": ("startsWith",),
    "indexOf": ("lastIndexOf",),
    "lastIndexOf": ("indexOf",),
    "abs": ("",),
    "greater": ("less",),
    "less": ("greater",),
    "INT_MAX": ("INT_MIN",),
    "INT_MIN": ("INT_MAX",),
    "MAX_VALUE": ("MIN_VALUE",),
    "MIN_VALUE": ("MAX_VALUE",),
    "true": ("false",),
    "false": ("true",),
    "break": ("continue",),
    "continue": ("break",),
}
_NUMBER_TYPES = frozenset({"number_literal", "decimal_integer_literal"})
_IDENTIFIER_TYPES = frozenset({"identifier", "field_identifier"})


_AWAY_FROM_BOUND = {1: frozenset({">", ">=", "=="}), -1: frozenset({"<", "<=", "=="})}
"""Comparisons of a loop variable with its bound that a loop stepping up (1) or down (-1) cannot mean: the loop
either never runs or runs past the bound."""
_FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def _loop_step(ctx: EditContext, comparison: Node) -> tuple[str, int] | None:
    """The variable and direction (1 up, -1 down) of the ``for`` loop whose condition ``comparison`` is (alone or
    as an operand of ``&&``), from its update (``i++``, ``--i``, ``i += k``, ``i -= k``); None for anything else."""
    node = comparison
    while node.parent is not None and node.parent.type in ("binary_expression", "parenthesized_expression"):
        if node.parent.type == "binary_expression":
            joiner = operator_token(node.parent)
            if joiner is None or joiner.type not in ("&&", "and"):
                return None
        node = node.parent
    loop = node.parent
    if loop is None or loop.type != "for_statement" or loop.child_by_field_name("condition") != node:
        return None
    return _counter_step(ctx, loop)


def _counter_step(ctx: EditContext, loop: Node) -> tuple[str, int] | None:
    """The counter and direction (1 up, -1 down) of a ``for`` loop, from its update (``i++``, ``--i``, ``i += k``,
    ``i -= k``); None for anything else."""
    update = loop.child_by_field_name("update")
    text = "".join(ctx.tree.text(update).split()) if update is not None else ""
    found = re.fullmatch(r"(?:(\+\+|--)(\w+)|(\w+)(\+\+|--|\+=|-=).*)", text)
    if found is None:
        return None
    name = found.group(2) or found.group(3)
    sign = found.group(1) or found.group(4)
    return name, 1 if sign[0] == "+" else -1


def _turns_loop_away(ctx: EditContext, comparison: Node, old: str, new: str) -> bool:
    """Whether swapping ``old`` for ``new`` makes a ``for`` loop compare its variable the way its step cannot mean,
    when ``old`` did not: ``j >= 0`` of ``j--`` made ``j <= 0`` runs at most once, if at all, which passes examples
    the loop was not needed for while no programmer writes it."""
    step = _loop_step(ctx, comparison)
    if step is None:
        return False
    name, direction = step
    left, right = comparison.child_by_field_name("left"), comparison.child_by_field_name("right")
    if left is not None and ctx.tree.text(left) == name:
        oriented_old, oriented_new = old, new
    elif right is not None and ctx.tree.text(right) == name:
        oriented_old, oriented_new = _FLIPPED[old], _FLIPPED[new]
    else:
        return False
    away = _AWAY_FROM_BOUND[direction]
    return oriented_new in away and oriented_old not in away


def comparison_edits(ctx: EditContext) -> Iterator[Candidate]:
    for node in ctx.tree.named("binary_expression"):
        operator = operator_token(node)
        if operator is None or operator.type not in COMPARISON_SWAPS or not ctx.wanted(line_of(operator)):
            continue
        for rank, new in enumerate(COMPARISON_SWAPS[operator.type]):
            if ctx.direction == "repair" and _turns_loop_away(ctx, node, operator.type, new):
                continue
            priority = P_HIGH if rank < 2 else P_MID if rank < 4 else P_LOW
            # (a loop bound one turn off that reads past the end is filed as faulty indexing by DebugBench; the
            # identification reads that from the examples' crash, not from the edit: without a crash the
            # development half gives no majority for it)
            yield ctx.edit_at(priority, "swap_comparison", "logic", operator, new,
                              f"'{operator.type}' -> '{new}'", "condition error")  # fmt: skip


def parallel_comparison_edits(ctx: EditContext) -> Iterator[Candidate]:
    """One strictness mistake made on every comparison of a kind in a statement (``x <= n and y <= m`` for a grid's
    bounds): each of them swapped alike, as one edit, where a single swap fixes only half of the mistake."""
    by_statement: dict[tuple[int, str], list[Node]] = {}
    for node in ctx.tree.named("binary_expression"):
        operator = operator_token(node)
        if operator is None or operator.type not in COMPARISON_SWAPS or not ctx.wanted(line_of(operator)):
            continue
        statement = enclosing(node, STATEMENT_TYPES[ctx.language]) or node
        by_statement.setdefault((statement.start_byte, operator.type), []).append(operator)
    for (_, old), operators in by_statement.items():
        if len(operators) < 2:
            continue
        for new in COMPARISON_SWAPS[old][:2]:
            comparisons = [operator.parent for operator in operators if operator.parent is not None]
            if ctx.direction == "repair" and any(_turns_loop_away(ctx, node, old, new) for node in comparisons):
                continue
            source = ctx.source
            for operator in sorted(operators, key=lambda token: -token.start_byte):
                start, end = ctx.tree.span(operator)
                source = source[:start] + new + source[end:]
            line = line_of(operators[0])
            description = f"every '{old}' of the statement -> '{new}' ({len(operators)})"
            yield ctx.make(P_MID, "swap_comparisons_alike", "logic", line, description, source, "condition error")


def arithmetic_edits(ctx: EditContext) -> Iterator[Candidate]:
    for node in ctx.tree.named("binary_expression"):
        operator = operator_token(node)
        if operator is None or not ctx.wanted(line_of(operator)):
            continue
        if operator.type in ARITHMETIC_SWAPS:
            if operator.type == "+" and any(c.type in ("string_literal", "character_literal") for c in node.children):
                continue  # string concatenation
            for rank, new in enumerate(ARITHMETIC_SWAPS[operator.type]):
                if new == ">>>" and ctx.language != "java":
                    continue
                yield ctx.edit_at(P_MID if rank == 0 else P_LOW, "swap_arithmetic", "logic", operator, new,
                                  f"'{operator.type}' -> '{new}'", "operation error")  # fmt: skip
        elif operator.type in ("&&", "||", "and", "or"):
            new = {"&&": "||", "||": "&&", "and": "or", "or": "and"}[operator.type]
            yield ctx.edit_at(P_MID, "swap_boolean_operator", "logic", operator, new,
                              f"'{operator.type}' -> '{new}'", "condition error")  # fmt: skip
    for node in ctx.tree.named("assignment_expression"):
        operator = operator_token(node)
        if operator is None or operator.type not in ASSIGNMENT_SWAPS or not ctx.wanted(line_of(operator)):
            continue
        if operator.type == "=" and node.parent is not None and node.parent.type != "expression_statement":
            continue
        for rank, new in enumerate(ASSIGNMENT_SWAPS[operator.type]):
            yield ctx.edit_at(P_MID if rank == 0 else P_LOW, "swap_assignment_operator", "logic", operator, new,
                              f"'{operator.type}' -> '{new}'", "operation error")  # fmt: skip
    for node in ctx.tree.named("update_expression"):
        operator = operator_token(node)
        if operator is None or operator.type not in ("++", "--") or not ctx.wanted(line_of(node)):
            continue
        new = "--" if operator.type == "++" else "++"
        yield ctx.edit_at(P_MID, "swap_increment", "logic", operator, new, f"'{operator.type}' -> '{new}'",
                          "operation error")  # fmt: skip


def _condition_of(node: Node) -> Node | None:
    condition = node.child_by_field_name("condition")
    if condition is None:
        return None
    if condition.type in ("condition_clause", "parenthesized_expression") and condition.named_children:
        inner = condition.child_by_field_name("value") or condition.named_children[0]
        return inner
    return condition


def condition_edits(ctx: EditContext) -> Iterator[Candidate]:
    """Negate a whole condition, or drop a ``!``."""
    for node in ctx.tree.named("if_statement", "while_statement", "for_statement", "do_statement",
                               "conditional_expression", "ternary_expression"):  # fmt: skip
        condition = _condition_of(node)
        if condition is None or not ctx.wanted(line_of(condition)):
            continue
        text = ctx.tree.text(condition)
        if condition.type == "unary_expression" and text.startswith("!"):
            operand = condition.child_by_field_name("argument") or condition.child_by_field_name("operand")
            if operand is not None:
                yield ctx.edit_node(P_MID, "negate_condition", "logic", condition, ctx.tree.text(operand),
                                    "drop '!'", "condition error")  # fmt: skip
            continue
        yield ctx.edit_node(P_LOW, "negate_condition", "logic", condition, f"!({text})", "negate the condition",
                            "condition error")  # fmt: skip
    for node in ctx.tree.named("unary_expression"):
        operator = operator_token(node)
        operand = node.child_by_field_name("argument") or node.child_by_field_name("operand")
        if operator is None or operator.type != "!" or operand is None or not ctx.wanted(line_of(node)):
            continue
        if node.parent is not None and node.parent.type in ("condition_clause", "parenthesized_expression"):
            grand = node.parent.parent
            if grand is not None and grand.type in ("if_statement", "while_statement"):
                continue  # handled above
        yield ctx.edit_node(P_MID, "drop_negation", "logic", node, ctx.tree.text(operand), "drop '!'",
                            "condition error")  # fmt: skip


_BOOLEAN_CHAINS = frozenset({"&&", "||", "and", "or"})
# a name, an element or a field: an operand that stands for a value without computing it
_VALUE_OPERANDS = frozenset({"identifier", "subscript_expression", "array_access", "field_expression", "field_access"})
_NEGATABLE_OPERANDS = _VALUE_OPERANDS | {"call_expression", "method_invocation"}


def _chain_operands(node: Node, operator: str) -> list[Node]:
    """The operands of a chain of one boolean operator (``a && b && c``), left to right."""
    if node.type == "binary_expression":
        token = operator_token(node)
        if token is not None and token.type == operator:
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is not None and right is not None:
                return _chain_operands(left, operator) + _chain_operands(right, operator)
    return [node]


def _callee(ctx: EditContext, node: Node) -> str:
    """What a boolean operand asks (the called name, or the operand's text), to recognise its mirror image."""
    if node.type in ("call_expression", "method_invocation"):
        name = node.child_by_field_name("name") or node.child_by_field_name("function")
        if name is not None:
            return ctx.tree.text(name).split("(")[0]
    return ctx.tree.text(node)


def operand_negation_edits(ctx: EditContext) -> Iterator[Candidate]:
    """A ``!`` lost from one operand of a ``&&``/``||`` chain (``!seen(i-1) && seen(i+1)``): more plausible when
    another operand of the chain asks the same thing negated."""
    for node in ctx.tree.named("binary_expression"):
        token = operator_token(node)
        if token is None or token.type not in _BOOLEAN_CHAINS:
            continue
        parent = node.parent
        while parent is not None and parent.type == "parenthesized_expression":
            parent = parent.parent
        top_token = operator_token(parent) if parent is not None and parent.type == "binary_expression" else None
        if top_token is not None and top_token.type == token.type:
            continue  # the chain is taken from its top
        operands = _chain_operands(node, token.type)
        negated = {
            _callee(ctx, inner)
            for operand in operands
            if operand.type == "unary_expression" and ctx.tree.text(operand).startswith("!")
            for inner in [operand.child_by_field_name("argument") or operand.child_by_field_name("operand")]
            if inner is not None
        }
        for operand in operands:
            if operand.type not in _NEGATABLE_OPERANDS or not ctx.wanted(line_of(operand)):
                continue
            priority = P_MID if _callee(ctx, operand) in negated else P_LOW
            text = ctx.tree.text(operand)
            yield ctx.edit_node(priority, "negate_operand", "logic", operand, f"!{text}", f"'{text}' -> '!{text}'",
                                "condition error")  # fmt: skip
        yield from _negated_together(ctx, operands, negated)


def _negated_together(ctx: EditContext, operands: list[Node], negated: set[str]) -> Iterator[Candidate]:
    """Every operand of one chain that asks the same thing (``has(i - 1) && has(i + 1)`` -> ``!has(i - 1) &&
    !has(i + 1)``), none of them negated yet: a condition turned around in all its like parts at once, which no
    single negation undoes (each alone may fail as many examples)."""
    by_callee: dict[str, list[Node]] = {}
    for operand in operands:
        if operand.type in ("call_expression", "method_invocation") and ctx.wanted(line_of(operand)):
            by_callee.setdefault(_callee(ctx, operand), []).append(operand)
    for callee, alike in by_callee.items():
        if len(alike) < 2 or callee in negated:
            continue
        pieces = sorted((ctx.tree.span(operand) for operand in alike), reverse=True)
        source = ctx.source
        for start, end in pieces:
            source = source[:start] + "!" + source[start:end] + source[end:]
        description = f"'{callee}(...)' -> '!{callee}(...)' in all {len(alike)} operands"
        yield ctx.make(P_LOW, "negate_operands", "logic", line_of(alike[0]), description, source, "condition error")


def _plus(text: str, delta: int) -> str:
    stripped = text.strip()
    if re.fullmatch(r"-?\d+", stripped):
        return str(int(stripped) + delta)
    found = re.fullmatch(r"(.*?)\s*([+-])\s*(\d+)", stripped, flags=re.S)
    if found and found.group(1) and found.group(1)[-1:] not in "(*/%":
        value = (int(found.group(3)) if found.group(2) == "+" else -int(found.group(3))) + delta
        base = found.group(1)
        if value == 0:
            return base
        return f"{base} + {value}" if value > 0 else f"{base} - {-value}"
    if re.search(r"[^\w.\[\]()>-]", stripped) or "?" in stripped:
        stripped = f"({stripped})"
    return f"{stripped} + {delta}" if delta > 0 else f"{stripped} - {-delta}"


def _is_plain_integer(ctx: EditContext, node: Node) -> bool:
    return node.type in _NUMBER_TYPES and re.fullmatch(r"\d+", ctx.tree.text(node)) is not None


def constant_edits(ctx: EditContext) -> Iterator[Candidate]:
    """+-1 on integer literals, a power of ten times or divided by ten; ``true``/``false`` swaps are in
    :func:`name_swap_edits`."""
    literals_by_function: dict[int, set[str]] = {}
    for node in ctx.tree.named(*_NUMBER_TYPES):
        function = enclosing(node, FUNCTION_TYPES)
        if function is not None:
            literals_by_function.setdefault(function.start_byte, set()).add(ctx.tree.text(node))
    for node in ctx.tree.named(*_NUMBER_TYPES):
        if not ctx.wanted(line_of(node)) or not _is_plain_integer(ctx, node):
            continue
        function = enclosing(node, FUNCTION_TYPES)
        if function is None and ctx.direction == "repair":
            continue
        value = int(ctx.tree.text(node))
        # a near miss of a literal the same function already writes elsewhere (``num / 100`` beside ``num / 10``)
        # is likelier a slip than a new number
        near_miss = literals_by_function.get(function.start_byte, set()) if function is not None else set()
        for delta in (1, -1):
            if value + delta < 0:
                continue
            yield ctx.edit_node(P_MID if str(value + delta) in near_miss else P_LOW, "change_constant", "logic",
                                node, str(value + delta), f"{value} -> {value + delta}", "variable error")  # fmt: skip
        if value >= 10 and str(value).rstrip("0") == "1":
            # a zero typed once too often or too few (``num / 10000`` for the thousands digit)
            for other in (value // 10, value * 10):
                yield ctx.edit_node(P_MID if str(other) in near_miss else P_LOW, "change_constant", "logic", node,
                                    str(other), f"{value} -> {other}", "variable error")  # fmt: skip
        if value not in (0, 1):
            for other in (0, 1):
                yield ctx.edit_node(P_LAST, "change_constant", "logic", node, str(other), f"{value} -> {other}",
                                    "variable error")  # fmt: skip
        counter = _assigned_in_counted_loop(ctx, node)
        if counter is not None:
            # a value a loop records per pass (``last[c] = 0;`` for ``last[c] = i + 1;``) written as a constant
            for priority, counted in ((P_LOW, counter), (P_LAST, f"{counter} + 1")):
                yield ctx.edit_node(priority, "constant_to_counter", "logic", node, counted, f"{value} -> {counted}",
                                    "variable error")  # fmt: skip


NUMERAL_TYPES = _NUMBER_TYPES | {"decimal_floating_point_literal"}
"""Every numeric literal's node type, floating point included."""


def digit_transposition_edits(ctx: EditContext) -> Iterator[Candidate]:
    """Two neighbouring digits of a decimal literal typed in the wrong order (``237.15`` for ``273.15``): a typing
    slip that no +-1 or power of ten reaches. Repair only; hexadecimal and other radixed literals are left alone."""
    if ctx.direction != "repair":
        return
    for node in ctx.tree.named(*NUMERAL_TYPES):
        text = ctx.tree.text(node)
        if not ctx.wanted(line_of(node)) or not re.fullmatch(r"\d+(\.\d+)?([eE][+-]?\d+)?[fFdDlL]*", text):
            continue
        mantissa = re.match(r"[\d.]+", text)
        assert mantissa is not None  # the full match above begins with a digit
        for at in range(mantissa.end() - 1):
            first, second = text[at], text[at + 1]
            if not (first.isdigit() and second.isdigit()) or first == second or (at == 0 and second == "0"):
                continue
            swapped = text[:at] + second + first + text[at + 2 :]
            yield ctx.edit_node(P_LOW, "transpose_digits", "logic", node, swapped, f"{text} -> {swapped}",
                                "variable error")  # fmt: skip


def loop_stride_edits(ctx: EditContext) -> Iterator[Candidate]:
    """A ``for`` loop that should visit every other index written with a step of one (``i++`` for ``i += 2``), in
    a function that already steps another loop by two, as a writer who walks the even and odd places in separate
    loops does. Nowhere else: a step of two fits small examples by chance (``i <= k`` -> ``i < k; i += 2`` passed
    the examples of a bug whose bound alone was off). Repair only (a step of two back to one is a constant edit)."""
    if ctx.direction != "repair":
        return
    loops: list[tuple[Node, int, Node, str]] = []
    for loop in ctx.tree.named("for_statement"):
        function, update = enclosing(loop, FUNCTION_TYPES), loop.child_by_field_name("update")
        if function is not None and update is not None:
            loops.append((loop, function.start_byte, update, "".join(ctx.tree.text(update).split())))
    striding = {start for _, start, _, text in loops if re.fullmatch(r"\w+[+-]=2", text)}
    for loop, start, update, text in loops:
        if start not in striding or not ctx.wanted(line_of(loop)):
            continue
        step = _counter_step(ctx, loop)
        if step is None or not re.fullmatch(r"(\+\+|--)\w+|\w+(\+\+|--|[+-]=1)", text):
            continue  # (a step of one only: ``i++``, ``--i``, ``i += 1``)
        counter, direction = step
        new = f"{counter} {'+=' if direction == 1 else '-='} 2"
        yield ctx.edit_node(P_MID, "double_step", "logic", update, new, f"'{ctx.tree.text(update)}' -> '{new}'",
                            "other error")  # fmt: skip


def letter_offset_edits(ctx: EditContext) -> Iterator[Candidate]:
    """A letter's offset taken from the other case (``links[ch - 'A']`` for lower-case words): a letter literal an
    addition or subtraction uses, in the other case."""
    for node in ctx.tree.named("char_literal", "character_literal"):
        text = ctx.tree.text(node)
        if not ctx.wanted(line_of(node)) or re.fullmatch(r"'[A-Za-z]'", text) is None:
            continue
        parent = node.parent
        token = operator_token(parent) if parent is not None and parent.type == "binary_expression" else None
        if token is None or token.type not in ("+", "-"):
            continue
        other = text.swapcase()
        yield ctx.edit_node(P_LOW, "letter_case", "logic", node, other, f"{text} -> {other}", "variable error")


def _assigned_in_counted_loop(ctx: EditContext, literal: Node) -> str | None:
    """The counter of the upward ``for`` loop (``i`` of ``i++``, ``++i``, ``i += k``) around a plain assignment of
    ``literal`` to an array or container element; None otherwise."""
    assignment = literal.parent
    if assignment is None or assignment.type != "assignment_expression":
        return None
    operator, left = operator_token(assignment), assignment.child_by_field_name("left")
    if operator is None or operator.type != "=" or assignment.child_by_field_name("right") != literal:
        return None
    if left is None or left.type not in ("subscript_expression", "array_access"):
        return None
    loop = enclosing(assignment, frozenset({"for_statement"}))
    step = _counter_step(ctx, loop) if loop is not None else None
    return step[0] if step is not None and step[1] == 1 else None


def _indices(ctx: EditContext) -> Iterator[Node]:
    """The index of each subscript, and of each call that reads one element (``s.charAt(i)``, ``v.at(i)``: Java
    reads a string's letters so)."""
    for node in ctx.tree.named("subscript_expression", "array_access"):
        index = subscript_index(node)
        if index is not None:
            yield index
    for node in ctx.tree.named("call_expression", "method_invocation"):
        read = element_read(ctx.tree, node)
        if read is not None:
            yield read[1]


def _bound_nodes(ctx: EditContext) -> Iterator[tuple[Node, str]]:
    """Expressions where an off-by-one hides: indices, loop bounds and starts, returned and assigned values, call
    arguments."""
    for index in _indices(ctx):
        yield index, "index"
    for node in ctx.tree.named("binary_expression"):
        operator = operator_token(node)
        if operator is not None and operator.type in COMPARISON_SWAPS:
            right = node.child_by_field_name("right")
            if right is not None:
                yield right, "bound"
    for node in ctx.tree.named("init_declarator", "variable_declarator"):
        value = node.child_by_field_name("value")
        if value is not None and enclosing(node, FUNCTION_TYPES) is not None:
            yield value, "start" if enclosing(node, frozenset({"for_statement"})) is not None else "initial value"
    for node in ctx.tree.named("assignment_expression"):
        value = node.child_by_field_name("right")
        if value is not None and value.type in ("identifier", "binary_expression", *_NUMBER_TYPES):
            yield value, "assigned value"
        elif value is not None and _calls_its_own_function(ctx, value):
            yield value, "recursive result"
    for node in ctx.tree.named("return_statement"):
        if node.named_children:
            yield node.named_children[0], "returned value"
    for node in ctx.tree.named("argument_list"):
        for argument in node.named_children:
            if argument.type in ("identifier", "binary_expression", *_NUMBER_TYPES):
                yield argument, "argument"
            elif _calls_its_own_function(ctx, argument):
                # what a step of a recursion adds to the rest is one (``1 + solve(i + 1)``), and easily left out
                yield argument, "recursive result"


def _calls_its_own_function(ctx: EditContext, node: Node) -> bool:
    """Whether ``node`` is a call of the function it stands in, by name (directly or through ``this``)."""
    if node.type not in ("call_expression", "method_invocation"):
        return False
    receiver, callee, _ = call_parts(node)
    function = enclosing(node, FUNCTION_TYPES)
    signature = function_signature(ctx.tree, function) if function is not None else None
    if callee is None or signature is None or (receiver is not None and ctx.tree.text(receiver) != "this"):
        return False
    return ctx.tree.text(callee) == signature[0]


def off_by_one_edits(ctx: EditContext) -> Iterator[Candidate]:
    seen: set[tuple[int, int]] = set()
    for node, role in _bound_nodes(ctx):
        if not ctx.wanted(line_of(node)) or (node.start_byte, node.end_byte) in seen:
            continue
        seen.add((node.start_byte, node.end_byte))
        text = ctx.tree.text(node)
        if "\n" in text or len(text) > 80 or node.type in ("string_literal", "true", "false", "null_literal"):
            continue
        if node.type == "identifier" and ctx.value_kinds.get(text, "number") != "number":
            continue  # (a string, a container or a flag plus one does not compile, or means nothing)
        bug = "faulty indexing" if role == "index" else "condition error" if role == "bound" else "variable error"
        category: EditCategory = "reference" if role == "index" else "logic"
        priority = P_MID if role in ("index", "bound", "start") else P_LOW
        for delta in (-1, 1):
            new = f"{text} {'+' if delta > 0 else '-'} 1" if role == "recursive result" else _plus(text, delta)
            if new != text:
                yield ctx.edit_node(priority, "off_by_one", category, node, new, f"{role} {text} -> {new}", bug)


def _allocation_sizes(ctx: EditContext) -> Iterator[Node]:
    """The size expressions of array and container allocations: ``new int[n]`` (both languages), C++
    ``vector<int> dp(n)`` and ``vector<int> dp(n, 0)``."""
    for node in ctx.tree.named("dimensions_expr", "new_declarator"):
        if node.named_children:
            yield node.named_children[0]
    for node in ctx.tree.named("declaration"):
        kind = node.child_by_field_name("type")
        if kind is None or not ctx.tree.text(kind).startswith(("vector", "string", "std::vector")):
            continue
        for declarator in node.named_children:
            if declarator.type == "init_declarator":
                arguments = next((c for c in declarator.named_children if c.type == "argument_list"), None)
                if arguments is not None and arguments.named_children:
                    yield arguments.named_children[0]
            elif declarator.type == "function_declarator":
                parameters = declarator.child_by_field_name("parameters")
                if parameters is not None and parameters.named_children:
                    yield parameters.named_children[0]


def allocation_size_edits(ctx: EditContext) -> Iterator[Candidate]:
    """One more (or one fewer) element in an allocation. An index past the end crashes where the array is read,
    not where it was made too small, so a repair tries every allocation whatever lines are suspected."""
    for node in _allocation_sizes(ctx):
        text = ctx.tree.text(node)
        if "\n" in text or len(text) > 60:
            continue
        if ctx.direction == "mutate":
            if ctx.wanted(line_of(node)) and _plus(text, -1) != text:
                yield ctx.edit_node(P_MID, "allocation_size", "reference", node, _plus(text, -1),
                                    f"size {text} -> {_plus(text, -1)}", "faulty indexing")  # fmt: skip
            continue
        for delta, priority in ((1, P_MID), (-1, P_LOW)):
            new = _plus(text, delta)
            if new != text:
                yield ctx.edit_node(priority, "allocation_size", "reference", node, new, f"size {text} -> {new}",
                                    "faulty indexing")  # fmt: skip


def name_swap_edits(ctx: EditContext) -> Iterator[Candidate]:
    """Library names and keywords a bug swaps for a sibling (``min``/``max``, ``first``/``second``, ``true``/``false``,
    ``break``/``continue`` ...)."""
    for node in ctx.tree.walk():
        if (not node.children and node.type in (*_IDENTIFIER_TYPES, "true", "false", "break", "continue",
                                                "type_identifier", "namespace_identifier")) or node.type in (
                                                "break_statement", "continue_statement"):  # fmt: skip
            if node.type in ("break_statement", "continue_statement"):
                node = node.children[0]
            if not ctx.wanted(line_of(node)):
                continue
            text = ctx.tree.text(node)
            for new in NAME_SWAPS.get(text, ()):
                if not new:
                    continue
                bug = "condition error" if text in ("true", "false", "break", "continue") else "operation error"
                yield ctx.edit_at(P_MID, "swap_name", "logic", node, new, f"'{text}' -> '{new}'", bug)


def _scope_names(ctx: EditContext, node: Node) -> list[str]:
    """Variable names declared in the function around ``node`` (parameters included) and the class's fields."""
    function = enclosing(node, frozenset({"function_definition", "method_declaration", "constructor_declaration"}))
    names: list[str] = []
    if function is not None:
        names.extend(ctx.declared_in(function))
    names.extend(ctx.fields)
    return list(dict.fromkeys(names))


def variable_edits(ctx: EditContext) -> Iterator[Candidate]:
    """Replace a variable use by another variable of the same function, similar names first."""
    unread_by_function: dict[int, set[str]] = {}
    for node in ctx.tree.named("identifier"):
        if not ctx.wanted(line_of(node)) or not ctx.is_variable_use(node):
            continue
        name = ctx.tree.text(node)
        kind = ctx.value_kinds.get(name)
        # a variable stands in for one that holds the same kind of value (a number for a number, not a list)
        others = [
            other for other in _scope_names(ctx, node)
            if other != name and (kind is None or ctx.value_kinds.get(other, kind) == kind)
        ]  # fmt: skip
        if not others:
            continue
        function = enclosing(node, FUNCTION_TYPES)
        if function is not None and function.id not in unread_by_function:
            unread_by_function[function.id] = ctx.unread_parameters(function)
        unread = unread_by_function[function.id] if function is not None else set()
        # a parameter the function never reads is the likeliest stand-in: the bug wrote another name in its place
        others.sort(key=lambda other: (other not in unread, -_similarity(name, other)))
        for rank, other in enumerate(others[:4]):
            priority = P_HIGH if other in unread else P_LOW if rank < 2 else P_LAST
            yield ctx.edit_at(priority, "swap_variable", "logic", node, other, f"'{name}' -> '{other}'",
                              "variable error")  # fmt: skip
    for node in ctx.tree.named("field_identifier"):
        if not ctx.wanted(line_of(node)):
            continue
        name = ctx.tree.text(node)
        for other in ("left", "right", "next", "val", "first", "second"):
            if other != name and name in ("left", "right", "next", "val", "first", "second") and other in ctx.words:
                yield ctx.edit_at(P_LAST, "swap_member", "logic", node, other, f"'.{name}' -> '.{other}'",
                                  "variable error")  # fmt: skip


_ARITHMETIC_OPERATORS = frozenset({"+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^"})


def widened_operand_edits(ctx: EditContext) -> Iterator[Candidate]:
    """Replace a variable by an expression the same line computes from it (``max(dp[(i+a)%3], a)`` ->
    ``max(dp[(i+a)%3], i+a)``): the line's own formula, with a term left out at one of its uses."""
    by_line: dict[int, list[Node]] = {}
    for node in ctx.tree.named("binary_expression"):
        operator = node.child_by_field_name("operator")
        # (a comparison or a logical test is not a formula of the value: `a[i<n]` indexes with a boolean)
        arithmetic = operator is not None and ctx.tree.text(operator) in _ARITHMETIC_OPERATORS
        if arithmetic and ctx.wanted(line_of(node)) and line_of(node) == end_line_of(node):
            by_line.setdefault(line_of(node), []).append(node)
    for node in ctx.tree.named("identifier"):
        expressions = by_line.get(line_of(node), [])
        # a term of a formula is a piece of it, not a formula left short
        if not expressions or node.parent is None or not ctx.is_variable_use(node):
            continue
        if node.parent.type in ("binary_expression", "parenthesized_expression"):
            continue
        name = ctx.tree.text(node)
        inside = ancestor_ids(node)
        wider = {
            ctx.tree.text(expression) for expression in expressions
            if expression.id not in inside and name in map(ctx.tree.text, expression.named_children)
        }  # fmt: skip
        for text in sorted(wider):
            new = text if node.parent.type in _WHOLE_VALUE_PLACES else f"({text})"
            yield ctx.edit_at(P_LAST, "widen_operand", "logic", node, new, f"'{name}' -> '{shortened(new)}'",
                              "other error")  # fmt: skip


# Where an expression stands whole, so a formula put there needs no parentheses.
_WHOLE_VALUE_PLACES = frozenset(
    {"argument_list", "assignment_expression", "init_declarator", "variable_declarator", "return_statement",
     "subscript_argument_list", "array_access", "expression_statement"}
)  # fmt: skip


def index_for_element_edits(ctx: EditContext) -> Iterator[Candidate]:
    """An element read where its index was meant (``nums[i] % 10 == nums[i]`` for ``i % 10 == nums[i]``): more
    plausible where the statement reads the same element twice."""
    for node in ctx.tree.named("subscript_expression", "array_access"):
        if not ctx.wanted(line_of(node)):
            continue
        index = _subscript_index(node)
        if index is None or index.type != "identifier":
            continue
        statement = enclosing(node, STATEMENT_TYPES[ctx.language]) or node
        text = ctx.tree.text(node)
        twice = ctx.tree.text(statement).count(text) > 1
        yield ctx.edit_node(P_MID if twice else P_LAST, "index_for_element", "logic", node, ctx.tree.text(index),
                            f"'{text}' -> '{ctx.tree.text(index)}'", "variable error")  # fmt: skip


def _subscript_index(node: Node) -> Node | None:
    """The index of ``a[i]`` (a C++ ``subscript_expression`` or a Java ``array_access``); None for any other node."""
    index = node.child_by_field_name("index")
    if index is None and node.type == "subscript_expression":
        # (tree-sitter-cpp keeps the index in a subscript_argument_list)
        arguments = node.child_by_field_name("indices") or node.named_children[-1]
        index = arguments.named_children[0] if arguments.named_children else None
    return index


def compared_value_edits(ctx: EditContext) -> Iterator[Candidate]:
    """A value assigned where the one it was compared with in the enclosing condition was meant (``if (h[i] <
    top) left[i] = h[i];`` -> ``left[i] = top;``): the other side of that comparison put in its place."""
    for node in ctx.tree.named("assignment_expression"):
        value, target = node.child_by_field_name("right"), node.child_by_field_name("left")
        if value is None or target is None or value.type not in _VALUE_OPERANDS or not ctx.wanted(line_of(node)):
            continue
        test = enclosing(node, frozenset({"if_statement", "while_statement"}))
        condition = test.child_by_field_name("condition") if test is not None else None
        if condition is None:
            continue
        text, offered = ctx.tree.text(value), {ctx.tree.text(target)}
        for comparison in ctx.tree.walk(condition):
            token = operator_token(comparison) if comparison.type == "binary_expression" else None
            if token is None or token.type not in COMPARISON_SWAPS:
                continue
            sides = [comparison.child_by_field_name("left"), comparison.child_by_field_name("right")]
            for side, other in (sides, sides[::-1]):
                if side is None or other is None or ctx.tree.text(side) != text or other.type not in _VALUE_OPERANDS:
                    continue
                new = ctx.tree.text(other)
                if new not in offered:
                    offered.add(new)
                    yield ctx.edit_node(P_LOW, "compared_value", "logic", value, new,
                                        f"'{shortened(text)}' -> '{shortened(new)}' (compared on line "
                                        f"{line_of(comparison)})", "variable error")  # fmt: skip


def _kept_from_zero(ctx: EditContext, condition: Node) -> list[Node]:
    """The values a condition keeps from zero: ``y`` of ``y > 0``, ``y != 0``, ``y >= 1``, ``0 < y``, ``0 != y``."""
    kept = []
    for comparison in ctx.tree.walk(condition):
        token = operator_token(comparison) if comparison.type == "binary_expression" else None
        left, right = comparison.child_by_field_name("left"), comparison.child_by_field_name("right")
        if token is None or left is None or right is None:
            continue
        before, after = ctx.tree.text(left).strip(), ctx.tree.text(right).strip()
        if (token.type in (">", "!=") and after == "0") or (token.type == ">=" and after == "1"):
            kept.append(left)
        elif (token.type in ("<", "!=") and before == "0") or (token.type == "<=" and before == "1"):
            kept.append(right)
    return [node for node in kept if node.type in _VALUE_OPERANDS]


def guarded_divisor_edits(ctx: EditContext) -> Iterator[Candidate]:
    """A value an ``if`` keeps from zero (``if (cnt2[i] > 0)``) that its block never divides by: a value the block
    reads divided by it (``min(ans, cnt1[i])`` -> ``min(ans, cnt1[i] / cnt2[i])``), an element at the same index
    where the guarded value is an element, else a name. A test that a value is not zero mostly guards a division,
    and a division dropped leaves the test behind."""
    for test in ctx.tree.named("if_statement"):
        condition, body = test.child_by_field_name("condition"), test.child_by_field_name("consequence")
        if condition is None or body is None:
            continue
        for divisor in _kept_from_zero(ctx, condition):
            text = ctx.tree.text(divisor)
            if re.search(rf"[/%]=?\s*\(?\s*{re.escape(text)}", ctx.tree.text(body)):
                continue
            index = _subscript_index(divisor)
            offered = {text}
            for node in ctx.tree.walk(body):
                if node.type not in _VALUE_OPERANDS or not ctx.wanted(line_of(node)):
                    continue
                value = ctx.tree.text(node)
                parent = node.parent
                if value in offered or parent is None or parent.type in (*_VALUE_OPERANDS, "subscript_argument_list"):
                    continue  # (the array or the index of an element, the object of a member)
                if parent.type in ("assignment_expression", "update_expression") and node == parent.named_children[0]:
                    continue  # written, not read
                if index is not None:
                    mine = _subscript_index(node)
                    if mine is None or ctx.tree.text(mine) != ctx.tree.text(index):
                        continue
                elif not ctx.is_variable_use(node):
                    continue
                offered.add(value)
                # (inside a formula the quotient is one operand: ``a * b`` -> ``a * (b / n)``)
                quotient = f"({value} / {text})" if parent.type == "binary_expression" else f"{value} / {text}"
                yield ctx.edit_node(P_LOW, "guarded_divisor", "logic", node, quotient,
                                    f"'{shortened(value)}' -> '{shortened(value)} / {shortened(text)}' (line "
                                    f"{line_of(condition)} keeps it from zero)", "operation error")  # fmt: skip


def _similarity(a: str, b: str) -> float:
    score = SequenceMatcher(a=a.lower(), b=b.lower()).ratio()
    if a[:1] == b[:1]:
        score += 0.2
    if len(a) == len(b):
        score += 0.1
    return score


def statement_edits(ctx: EditContext) -> Iterator[Candidate]:
    """Delete a statement, or swap it with the one after it (both inside the same block)."""
    for node in ctx.tree.statements():
        if node.type in BLOCK_TYPES or node.parent is None or node.parent.type not in ("compound_statement", "block"):
            continue
        line = line_of(node)
        if not ctx.wanted(line):
            continue
        text = ctx.tree.text(node)
        declares = node.type in ("declaration", "local_variable_declaration")
        if not declares and node.type != "return_statement":
            simple = node.type in ("expression_statement", "break_statement", "continue_statement")
            yield ctx.delete_node(
                P_LOW if simple else P_LAST,
                "delete_statement",
                "logic",
                node,
                f"delete '{shortened(text)}'",
                "other error",
            )
        following = node.next_named_sibling
        if following is not None and following.type not in ("comment",) and line_of(following) != line:
            if following.type in BLOCK_TYPES or declares:
                continue
            yield ctx.swap_nodes(P_LAST, "swap_statements", "logic", node, following,
                                 f"swap '{shortened(text)}' with the next statement", "other error")  # fmt: skip


# the statements a block boundary moves across: a line each, with nothing of a block of their own
_MOVABLE = frozenset({"expression_statement", "return_statement", "break_statement", "continue_statement"})
_HEADED = (LOOP_TYPES - {"do_statement"}) | {"if_statement"}


def block_boundary_edits(ctx: EditContext) -> Iterator[Candidate]:
    """A statement on the wrong side of a closing brace: the one right after an ``if`` or loop moved into the end
    of its block, the last of a block's statements moved out to right after it. The ``}`` stands alone on its line
    and trades lines with the statement, so the line count stays."""
    lines = source_lines(ctx.source)
    for node in ctx.tree.statements():
        if node.type not in _MOVABLE or node.parent is None or node.parent.type not in BLOCK_TYPES:
            continue
        line = line_of(node)
        text = ctx.tree.text(node)
        if end_line_of(node) != line or not ctx.wanted(line) or lines[line - 1].strip() != text:
            continue
        before, block = node.prev_named_sibling, node.parent
        if before is not None and before.type in _HEADED and end_line_of(before) == line - 1:
            closing, last = lines[line - 2], _last_statement(before)
            if closing.strip() == "}" and last is not None and line_of(last) < line - 1:
                inside = " " * indent_width(lines[line_of(last) - 1]) + text
                start, end = line_bounds(ctx.source, line - 1)[0], line_bounds(ctx.source, line)[1]
                yield ctx.replace_span(P_LOW, "move_statement_in", "logic", line, start, end, f"{inside}\n{closing}",
                                       f"move '{shortened(text)}' into the block on line {line_of(before)}",
                                       "other error")  # fmt: skip
        header = block.parent
        if (
            node.next_named_sibling is None
            and node.prev_named_sibling is not None
            and header is not None
            and header.type in _HEADED | {"else_clause"}
            and end_line_of(block) == line + 1
            and line < len(lines)
            and lines[line].strip() == "}"
        ):
            outside = " " * indent_width(lines[line]) + text
            start, end = line_bounds(ctx.source, line)[0], line_bounds(ctx.source, line + 1)[1]
            yield ctx.replace_span(P_LOW, "move_statement_out", "logic", line, start, end, f"{lines[line]}\n{outside}",
                                   f"move '{shortened(text)}' after the block's closing brace",
                                   "other error")  # fmt: skip


def _last_statement(headed: Node) -> Node | None:
    """The last statement of the braced block an ``if`` (its last branch) or loop ends with, else None."""
    body = headed.child_by_field_name("alternative") or headed.child_by_field_name("body")
    body = body or headed.child_by_field_name("consequence")
    if body is not None and body.type == "else_clause":
        body = body.named_children[-1] if body.named_children else None
    if body is None or body.type not in BLOCK_TYPES or body.end_byte != headed.end_byte:
        return None
    statements = [child for child in body.named_children if child.type != "comment"]
    return statements[-1] if statements else None


def returned_element_edits(ctx: EditContext) -> Iterator[Candidate]:
    """Drop one element of a list the function returns (``return {a, b, extra};``, ``new int[]{...}``,
    ``List.of(...)``, ``Arrays.asList(...)``): an answer one element too long."""
    for node in ctx.tree.named("initializer_list", "array_initializer", "argument_list"):
        elements = node.named_children
        line = line_of(node)
        if len(elements) < 2 or not ctx.wanted(line) or enclosing(node, {"return_statement"}) is None:
            continue
        if node.type == "argument_list":
            callee = ctx.source[ctx.tree.span(node.parent)[0] : ctx.tree.span(node)[0]] if node.parent else ""
            if not _LIST_MAKER.search(callee):
                continue
        spans = [ctx.tree.span(element) for element in elements]
        for position, element in enumerate(elements):
            # the element goes with the comma before it (with the one after it, for the first)
            start = spans[position - 1][1] if position else spans[0][0]
            end = spans[position][1] if position else spans[1][0]
            yield ctx.replace_span(P_LOW, "drop_returned_element", "logic", line, start, end, "",
                                   f"drop '{shortened(ctx.tree.text(element))}' from the returned list",
                                   "other error")  # fmt: skip


_LIST_MAKER = re.compile(r"(?:\bList\.of|\basList)\s*$")


def shortened(text: str) -> str:
    """``text`` on one line, cut to 40 characters: for edit descriptions."""
    text = " ".join(text.split())
    return text if len(text) <= 40 else text[:37] + "..."


def argument_edits(ctx: EditContext) -> Iterator[Candidate]:
    """Swap two arguments of a call."""
    for node in ctx.tree.named("argument_list"):
        arguments = node.named_children
        if len(arguments) < 2 or not ctx.wanted(line_of(node)):
            continue
        for first, second in itertools.pairwise(arguments):
            if ctx.tree.text(first) == ctx.tree.text(second):
                continue
            yield ctx.swap_nodes(P_LAST, "swap_arguments", "logic", first, second,
                                 f"swap arguments '{shortened(ctx.tree.text(first))}' and "
                                 f"'{shortened(ctx.tree.text(second))}'", "variable error")  # fmt: skip


def sibling_argument_edits(ctx: EditContext) -> Iterator[Candidate]:
    """An argument another call of the same method on the same receiver writes differently, where the two calls
    differ in that argument only (``mp.put(id, now);`` beside ``mp.put(id, now + ttl);``): copied from the other call,
    when the names it reads are visible at this one."""
    groups: dict[tuple[str, int], list[Node]] = {}
    for node in ctx.tree.named("call_expression", "method_invocation"):
        arguments = node.child_by_field_name("arguments")
        if arguments is None or len(arguments.named_children) < 2:
            continue
        callee = "".join(ctx.source[node.start_byte : arguments.start_byte].split())
        groups.setdefault((callee, len(arguments.named_children)), []).append(node)
    for group in groups.values():
        for call, other in itertools.permutations(group, 2):
            if not ctx.wanted(line_of(call)):
                continue
            mine = call.child_by_field_name("arguments").named_children  # type: ignore[union-attr]
            theirs = other.child_by_field_name("arguments").named_children  # type: ignore[union-attr]
            differing = [i for i, (a, b) in enumerate(zip(mine, theirs)) if ctx.tree.text(a) != ctx.tree.text(b)]
            if len(differing) != 1:
                continue
            target, copied = mine[differing[0]], ctx.tree.text(theirs[differing[0]])
            visible = set(ctx.visible_names(target))
            read = {ctx.tree.text(n) for n in ctx.tree.walk(theirs[differing[0]]) if ctx.is_variable_use(n)}
            if read - visible:
                continue
            yield ctx.edit_node(P_LOW, "sibling_argument", "logic", target, copied,
                                f"argument '{shortened(ctx.tree.text(target))}' -> '{shortened(copied)}', as line "
                                f"{line_of(other)} passes it", "other error")  # fmt: skip


def _receiver_of_bare_call(node: Node) -> Node | None:
    """``x`` of a call ``x.m()`` with no arguments (C++ ``x->m()`` too), else None."""
    arguments = node.child_by_field_name("arguments")
    if arguments is None or arguments.named_child_count:
        return None
    if node.type == "method_invocation":
        return node.child_by_field_name("object")
    function = node.child_by_field_name("function")
    if node.type == "call_expression" and function is not None and function.type == "field_expression":
        return function.child_by_field_name("argument")
    return None


def chained_call_edits(ctx: EditContext) -> Iterator[Candidate]:
    """Drop a call with no arguments from the middle of a chain (``sb.reverse().toString()`` -> ``sb.toString()``):
    a step the value should not have gone through."""
    for node in ctx.tree.named("method_invocation", "call_expression"):
        parent = node.parent
        if parent is None or not ctx.wanted(line_of(node)):
            continue
        chained = (parent.type == "method_invocation" and parent.child_by_field_name("object") == node) or (
            parent.type == "field_expression" and parent.child_by_field_name("argument") == node
        )
        receiver = _receiver_of_bare_call(node)
        if not chained or receiver is None:
            continue
        dropped = ctx.tree.text(node)[len(ctx.tree.text(receiver)) :]
        yield ctx.edit_node(P_LOW, "drop_chained_call", "logic", node, ctx.tree.text(receiver),
                            f"drop '{shortened(dropped)}' from the chain", "other error")  # fmt: skip


def pointer_hop_edits(ctx: EditContext) -> Iterator[Candidate]:
    """A pointer that walks a linked structure one hop where it should take two (``fast = fast->next`` for
    ``fast->next->next``), or two where it should take one: most plausible in a loop whose condition already
    guards the second hop (``while (p && p->next)``)."""
    for node in ctx.tree.named("assignment_expression"):
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None or left.type != "identifier" or not ctx.wanted(line_of(node)):
            continue
        if right.type not in ("field_expression", "field_access"):
            continue
        target = right.child_by_field_name("argument") or right.child_by_field_name("object")
        field = right.child_by_field_name("field")
        if target is None or field is None:
            continue
        name, member = ctx.tree.text(left), ctx.tree.text(field)
        hop = "->" if right.type == "field_expression" else "."
        loop = enclosing(node, LOOP_TYPES)
        condition = loop.child_by_field_name("condition") if loop is not None else None
        guarded = condition is not None and f"{name}{hop}{member}" in re.sub(r"\s+", "", ctx.tree.text(condition))
        priority = P_MID if guarded else P_LOW
        if target.type == "identifier" and ctx.tree.text(target) == name:
            yield ctx.edit_node(priority, "pointer_hops", "logic", right, f"{name}{hop}{member}{hop}{member}",
                                f"'{name}' takes two '{member}' hops", "operation error")  # fmt: skip
        elif target.type == right.type and re.fullmatch(
            rf"{re.escape(name)}\s*{re.escape(hop)}\s*{re.escape(member)}", ctx.tree.text(target)
        ):
            yield ctx.edit_node(P_LOW, "pointer_hops", "logic", right, f"{name}{hop}{member}",
                                f"'{name}' takes one '{member}' hop", "operation error")  # fmt: skip


_ENDING_STATEMENTS = frozenset({"return_statement", "throw_statement"})
_MEMO_READ = re.compile(r"if\s*\(\s*([\w\[\]. ]+?)\s*!=\s*-1\s*\)\s*return\s+\1\s*;")


# What an empty function of a type most often stood in for: the values a caller that needs no helper would use.
_STUB_VALUES = {
    "bool": ("false", "true"), "boolean": ("false", "true"), "int": ("0", "-1", "1"), "long": ("0", "-1", "1"),
    "long long": ("0", "-1", "1"), "double": ("0", "-1"), "string": ('""',), "String": ('""',),
}  # fmt: skip


def _stub_returns(ctx: EditContext, body: Node, returns: str) -> Iterator[Candidate]:
    """A value-returning function with an empty body (a helper the code calls but nobody wrote): it returns the
    simple values of its type, each a candidate (the call then stands for what the code meant there)."""
    closing = body.children[-1]
    if closing.type != "}" or not ctx.wanted(line_of(closing)):
        return
    start, _ = ctx.tree.span(closing)
    for value in _STUB_VALUES.get(returns.removeprefix("static ").strip(), ()):
        source = ctx.source[:start] + f"return {value}; " + ctx.source[start:]
        yield ctx.make(P_MID, "stub_return", "reference", line_of(closing), f"the empty function returns {value}",
                       source, "undefined methods")  # fmt: skip


def missing_return_edits(ctx: EditContext) -> Iterator[Candidate]:
    """A function that computes a value and falls off its end without returning it: ``return v;`` for each local of
    the function's own type, the last assigned first, put before its closing brace (the line count stays); in a
    memoised function (``if (dp[i] != -1) return dp[i];``) the value is stored as it is returned."""
    for function in ctx.tree.named("function_definition", "method_declaration"):
        kind, body = function.child_by_field_name("type"), function.child_by_field_name("body")
        if kind is None or body is None or body.type not in ("compound_statement", "block"):
            continue
        returns = " ".join(ctx.tree.text(kind).split())
        statements = [node for node in body.named_children if node.type != "comment"]
        if returns != "void" and not statements:
            yield from _stub_returns(ctx, body, returns)
            continue
        if returns == "void" or statements[-1].type in _ENDING_STATEMENTS:
            continue
        closing = body.children[-1]
        if closing.type != "}" or not ctx.wanted(line_of(closing)):
            continue
        assigned: dict[str, int] = {}
        for declaration in body.children:
            if declaration.type in ("declaration", "local_variable_declaration"):
                for name, declared in typed_declarators(ctx.tree, declaration):
                    if declared == returns:
                        assigned[name] = declaration.start_byte
        if not assigned:
            continue
        body_text = ctx.tree.text(body)
        for node in ctx.tree.named("assignment_expression"):
            left = node.child_by_field_name("left")
            name = ctx.tree.text(left) if left is not None else ""
            if name in assigned and body.start_byte <= node.start_byte < body.end_byte:
                assigned[name] = max(assigned[name], node.start_byte)
        memo = _MEMO_READ.search(body_text)
        start, _ = ctx.tree.span(closing)
        for name in sorted(assigned, key=lambda name: -assigned[name])[:3]:
            values = [f"{memo.group(1).strip()} = {name}", name] if memo is not None else [name]
            for value in values:
                source = ctx.source[:start] + f"return {value}; " + ctx.source[start:]
                yield ctx.make(P_MID, "add_missing_return", "logic", line_of(closing),
                               f"return {value} at the end of the function", source, "other error")  # fmt: skip


MIRROR_WINDOW = 12


_RESET_BLOCKERS = frozenset({
    "call_expression", "method_invocation", "new_expression", "object_creation_expression", "array_creation_expression",
    "lambda_expression", "string_literal", "character_literal", "initializer_list", "array_initializer",
    "field_access", "field_expression",
})  # fmt: skip


def _resettable(ctx: EditContext, value: Node) -> bool:
    """A short number-valued expression made of names and operators (``n``, ``INT_MAX - 1``, ``a[i] + b``): what a
    value that should start from zero was written as. A literal is :func:`constant_edits`' to change."""
    if value.type in _NUMBER_TYPES or len(ctx.tree.text(value)) > 40:
        return False
    for node in ctx.tree.walk(value):
        if node.type in _RESET_BLOCKERS:
            return False
        if node.type == "identifier" and ctx.value_kinds.get(ctx.tree.text(node), "number") != "number":
            return False
    return True


def _reset_target(ctx: EditContext, node: Node) -> tuple[Node | None, Node | None]:
    """(the number-valued name or element, its value) of a declaration or of a plain ``=`` statement."""
    if node.type != "assignment_expression":
        name = node.child_by_field_name("declarator") or node.child_by_field_name("name")
        return name, node.child_by_field_name("value")
    operator = operator_token(node)
    if operator is None or operator.type != "=" or node.parent is None or node.parent.type != "expression_statement":
        return None, None
    return node.child_by_field_name("left"), node.child_by_field_name("right")


def reset_value_edits(ctx: EditContext) -> Iterator[Candidate]:
    """A number given a computed start where it should start from zero (``int cnt = n;`` for a counter,
    ``dp[i][j] = INT_MAX - 1;`` for a cell the problem fixes at 0): the declared or assigned value becomes ``0``.
    Repair only, and tried last at its line; an update that reads what it sets (``s = s + x``) is left alone."""
    if ctx.direction != "repair":
        return
    for node in ctx.tree.named("init_declarator", "variable_declarator", "assignment_expression"):
        target, value = _reset_target(ctx, node)
        if target is None or value is None or not ctx.wanted(line_of(value)):
            continue
        if target.type == "identifier":
            if ctx.value_kinds.get(ctx.tree.text(target)) != "number":
                continue
        elif target.type not in ("subscript_expression", "array_access"):
            continue
        reads = {ctx.tree.text(part) for part in ctx.tree.walk(value) if part.type == target.type}
        if ctx.tree.text(target) in reads or enclosing(node, FUNCTION_TYPES) is None:
            continue
        if _resettable(ctx, value):
            description = f"'{shortened(ctx.tree.text(value))}' -> '0'"
            yield ctx.edit_node(P_LAST, "reset_value", "logic", value, "0", description, "variable error")


_DECLARATION_TYPES = frozenset({"declaration", "local_variable_declaration"})
# (``vector<int> seen(n);`` in a body parses as a function's declarator: there it is an object built with arguments)
_DECLARATOR_TYPES = frozenset({"init_declarator", "variable_declarator", "identifier", "function_declarator"})


def _declared_name(ctx: EditContext, node: Node) -> str | None:
    """The one name a declaration statement declares (``vector<int> seen(n);``, ``int[] seen = new int[n];``)."""
    declarators = [child for child in node.named_children if child.type in _DECLARATOR_TYPES]
    if len(declarators) != 1 or node.child_by_field_name("type") is None:
        return None
    declarator = declarators[0]
    name = declarator if declarator.type == "identifier" else declarator.child_by_field_name("declarator")
    name = name or declarator.child_by_field_name("name")
    return ctx.tree.text(name) if name is not None and name.type == "identifier" else None


def _uses(ctx: EditContext, node: Node, name: str) -> bool:
    return any(part.type == "identifier" and ctx.tree.text(part) == name for part in ctx.tree.walk(node))


def fresh_per_pass_edits(ctx: EditContext) -> Iterator[Candidate]:
    """State declared before a loop that each pass should start afresh (``vector<int> visited(n);`` then a loop
    that searches from every node): the declaration moves to the start of the loop's body. Only where the loop's
    body is the one place that uses the name; the declaration's line is left blank, so no line moves."""
    if ctx.direction != "repair":
        return
    for node in ctx.tree.named(*_DECLARATION_TYPES):
        block = node.parent
        if block is None or block.type not in BLOCK_TYPES or "\n" in ctx.tree.text(node):
            continue
        name = _declared_name(ctx, node)
        if name is None:
            continue
        later = block.named_children[block.named_children.index(node) + 1 :]
        loop = next((child for child in later if child.type in LOOP_TYPES or _uses(ctx, child, name)), None)
        if loop is None or loop.type not in LOOP_TYPES or not (ctx.wanted(line_of(node)) or ctx.wanted(line_of(loop))):
            continue
        body = loop.child_by_field_name("body")
        rest = later[later.index(loop) + 1 :]
        header = [child for child in loop.named_children if child is not body and child.type not in BLOCK_TYPES]
        if body is None or body.type not in BLOCK_TYPES or not _uses(ctx, body, name):
            continue
        if any(_uses(ctx, part, name) for part in (*header, *rest)):
            continue
        start, end = ctx.tree.span(node)
        opening = ctx.tree.span(body)[0] + 1
        text = ctx.source[start:end]
        source = ctx.source[:start] + ctx.source[end:opening] + " " + text + ctx.source[opening:]
        description = f"'{shortened(text)}' made afresh in each pass of the loop at line {line_of(loop)}"
        yield ctx.make(P_LOW, "fresh_per_pass", "logic", line_of(node), description, source, "variable error")


def _leaves(node: Node) -> list[Node]:
    if node.child_count == 0:
        return [node]
    return [leaf for child in node.children for leaf in _leaves(child)]


def mirrored_name_edits(ctx: EditContext) -> Iterator[Candidate]:
    """Two statements of one function that differ in one name only (``merge[i] = b[j];`` ... ``merge[i] = a[j];``)
    get each other's name: a swap of two names made in two places, which no single rename undoes."""
    statements = [node for node in ctx.tree.named("expression_statement") if "\n" not in ctx.tree.text(node)]
    leaves = {node.id: _leaves(node) for node in statements}
    for first, second in itertools.combinations(statements, 2):
        line, other_line = line_of(first), line_of(second)
        if not 0 < other_line - line <= MIRROR_WINDOW or not (ctx.wanted(line) or ctx.wanted(other_line)):
            continue
        mine, theirs = leaves[first.id], leaves[second.id]
        if len(mine) != len(theirs) or enclosing(first, FUNCTION_TYPES) != enclosing(second, FUNCTION_TYPES):
            continue
        differing = [(a, b) for a, b in zip(mine, theirs) if ctx.tree.text(a) != ctx.tree.text(b)]
        if len(differing) != 1 or {differing[0][0].type, differing[0][1].type} - _IDENTIFIER_TYPES:
            continue
        a, b = differing[0]
        (a_start, a_end), (b_start, b_end) = ctx.tree.span(a), ctx.tree.span(b)
        a_text, b_text = ctx.source[a_start:a_end], ctx.source[b_start:b_end]
        source = ctx.source[:a_start] + b_text + ctx.source[a_end:b_start] + a_text + ctx.source[b_end:]
        description = f"'{a_text}' and '{b_text}' exchanged with line {other_line}"
        yield ctx.make(P_LOW, "exchange_names", "logic", line, description, source, "variable error")


_CHILD_LINKS = {"left": "right", "right": "left"}
_NULLS = frozenset({"null", "NULL", "nullptr"})
_WHOLE_NUMBER_TYPES = frozenset({"int", "long", "long long", "short", "size_t", "unsigned", "unsigned int"})


def _whole_number_parameters(ctx: EditContext, function: Node) -> list[str]:
    """The names of ``function``'s parameters in order, "" for one that is no whole number (an index, a bound)."""
    signature, parameters = function_signature(ctx.tree, function), parameter_list(function)
    if signature is None or parameters is None:
        return []

    def whole(parameter: Node) -> bool:
        kind = parameter.child_by_field_name("type")
        return (
            kind is not None
            and " ".join(ctx.tree.text(kind).split()) in _WHOLE_NUMBER_TYPES
            and not re.search(r"[\[*]", ctx.tree.text(parameter))  # (``int postorder[]``, ``int* nums``)
        )

    return [name if whole(parameter) else "" for name, parameter in zip(signature[1], parameters.named_children)]


def _mirrored_arguments(ctx: EditContext, arguments: list[Node], parameters: list[str]) -> Iterator[list[str]]:
    """The arguments of a call that builds one child, as the call that builds the other would pass them: a range
    split at a point (``l, mid - 1``) taken from the other side of the point (``mid + 1, r``); ``left`` and
    ``right`` exchanged (``node.left`` -> ``node.right``)."""
    texts = [ctx.tree.text(node) for node in arguments]
    own = [i for i, text in enumerate(texts) if i < len(parameters) and parameters[i] and text == parameters[i]]
    signs = [operator_token(node) if node.type == "binary_expression" else None for node in arguments]
    split = [
        i for i, sign in enumerate(signs)
        if sign is not None and sign.type in ("+", "-") and i < len(parameters) and parameters[i]
    ]  # fmt: skip
    # (the range's other end is the parameter passed on beside the split, in its own place)
    bounds = [i for i in own if len(split) == 1 and abs(i - split[0]) == 1]
    if len(bounds) == 1:
        node, token = arguments[split[0]], signs[split[0]]
        assert token is not None
        start, cut, end = ctx.tree.span(node)[0], ctx.tree.span(token)[0], ctx.tree.span(node)[1]
        flipped = ctx.source[start:cut] + ("+" if token.type == "-" else "-") + ctx.source[cut + 1 : end]
        mirrored = list(texts)
        mirrored[bounds[0]], mirrored[split[0]] = flipped, parameters[split[0]]
        yield mirrored
    swapped = [re.sub(r"\b(left|right)\b", lambda m: _CHILD_LINKS[m.group(1)], text) for text in texts]
    if swapped != texts:
        yield swapped


def mirrored_child_edits(ctx: EditContext) -> Iterator[Candidate]:
    """A child link set to null beside its sibling link set by a call (``root.right = null;`` beside ``root.left =
    build(l, in - 1, ...)``): the other child is built by the mirrored call (``build(in + 1, r, ...)``), else by the
    same call. A tree built by recursion builds both children alike; a null left in place of one is a call lost."""
    links: dict[tuple[int, str], tuple[Node, dict[str, Node]]] = {}  # (function, holder) -> (function, link values)
    for node in ctx.tree.named("assignment_expression"):
        target, value = node.child_by_field_name("left"), node.child_by_field_name("right")
        if target is None or value is None or target.type not in ("field_access", "field_expression"):
            continue
        field = target.child_by_field_name("field")
        holder_node = target.child_by_field_name("object") or target.child_by_field_name("argument")
        function = enclosing(node, FUNCTION_TYPES)
        if field is None or holder_node is None or function is None or ctx.tree.text(field) not in _CHILD_LINKS:
            continue
        links.setdefault((function.id, ctx.tree.text(holder_node)), (function, {}))[1][ctx.tree.text(field)] = value
    for (_, holder), (function, values) in links.items():
        for link, value in values.items():
            other = values.get(_CHILD_LINKS[link])
            if ctx.tree.text(value) not in _NULLS or other is None or not ctx.wanted(line_of(value)):
                continue
            arguments_node = other.child_by_field_name("arguments")
            if other.type not in ("call_expression", "method_invocation") or arguments_node is None:
                continue
            callee = ctx.source[ctx.tree.span(other)[0] : ctx.tree.span(arguments_node)[0]]
            arguments = list(arguments_node.named_children)
            offered = []
            for mirrored in _mirrored_arguments(ctx, arguments, _whole_number_parameters(ctx, function)):
                offered.append(f"{callee}({', '.join(mirrored)})")
            offered.append(ctx.tree.text(other))
            for call in dict.fromkeys(offered):
                yield ctx.edit_node(P_LOW, "mirrored_child", "logic", value, call,
                                    f"{holder}'s {link} child null -> '{shortened(call)}', as its sibling is built",
                                    "variable error")  # fmt: skip


def unread_total_edits(ctx: EditContext) -> Iterator[Candidate]:
    """A total a function accumulates and never reads (``count += m - n;`` ... ``return left + right;``), left out
    of what it returns: added to a returned sum, or returned in place of a single name."""
    for value, totals in ctx.unread_totals():
        if not ctx.wanted(line_of(value)):
            continue
        text = ctx.tree.text(value)
        token = operator_token(value) if value.type == "binary_expression" else None
        for name in totals:
            if token is not None and token.type == "+":
                yield ctx.edit_node(P_MID, "add_unread_total", "logic", value, f"{text} + {name}",
                                    f"'{name}', accumulated but never read, added to the returned value",
                                    "other error")  # fmt: skip
            elif value.type == "identifier":
                yield ctx.edit_node(P_MID, "return_unread_total", "logic", value, name,
                                    f"returned '{text}' -> '{name}', accumulated but never read",
                                    "variable error")  # fmt: skip


_LITERAL_TYPES = frozenset({"string_literal", "number_literal", "decimal_integer_literal", "character_literal",
                            "true", "false", "null_literal", "nullptr"})  # fmt: skip


def built_value_edits(ctx: EditContext) -> Iterator[Candidate]:
    """A constant returned where the function builds a value of its return type and never returns it (``return
    "done";`` after a loop that builds ``string s``, ``return 0;`` after one that fills ``int best``): the built value
    returned instead, the one declared nearest the return first."""
    for function in ctx.tree.named(*FUNCTION_TYPES):
        kind = function.child_by_field_name("type")
        body = function.child_by_field_name("body")
        if kind is None or body is None:
            continue
        wanted = plain_type(ctx.tree.text(kind))
        returns = [node for node in ctx.tree.walk(body) if node.type == "return_statement" and node.named_children
                   and enclosing(node, FUNCTION_TYPES) == function]  # fmt: skip
        returned = {ctx.tree.text(node.named_children[0]) for node in returns}
        end = ctx.tree.span(body)[1]
        built = [
            (declaration.start_byte, name) for declaration in ctx.tree.walk(body)
            if declaration.type in ("declaration", "local_variable_declaration")
            and enclosing(declaration, FUNCTION_TYPES) == function
            for name, declared in typed_declarators(ctx.tree, declaration)
            if plain_type(declared) == wanted and name not in returned
            and _given_value(ctx.source[ctx.tree.span(declaration)[1] : end], name)
        ]  # fmt: skip
        for statement in returns:
            value = statement.named_children[0]
            if value.type not in _LITERAL_TYPES or not ctx.wanted(line_of(value)):
                continue
            before = sorted((item for item in built if item[0] < value.start_byte), reverse=True)
            for _, name in before[:MAX_BUILT_VALUES]:
                yield ctx.edit_node(P_MID, "return_built_value", "logic", value, name,
                                    f"returned {shortened(ctx.tree.text(value))} -> '{name}', built but never "
                                    "returned", "variable error")  # fmt: skip


MAX_BUILT_VALUES = 2


_GIVEN_VALUE = r"\s*(?:[-+*/%|&^]?=(?!=)|\+\+|--|\.\s*(?:push_back|emplace_back|push|add|append|insert|put)\s*\()"


def _given_value(text: str, name: str) -> bool:
    """Whether ``text`` gives ``name`` a value: assigns or updates it, or grows it (a container, a builder)."""
    return re.search(rf"(?<![\w.]){re.escape(name)}{_GIVEN_VALUE}", text) is not None


def _plain_assignment(statement: Node) -> Node | None:
    """The ``target = value`` inside an expression statement (a plain ``=``, not ``+=``), or None."""
    inner = statement.named_children[0] if statement.named_children else None
    if inner is None or inner.type != "assignment_expression":
        return None
    operator = operator_token(inner)
    return inner if operator is not None and operator.type == "=" else None


def exchanged_target_edits(ctx: EditContext) -> Iterator[Candidate]:
    """Two assignments in a row whose targets a bug exchanged (``res = f(res); cur = prev;`` written for
    ``cur = f(res); res = prev;``): each value goes back to the other's variable, which no single rename does."""
    for statement in ctx.tree.named("expression_statement"):
        following = statement.next_named_sibling
        if following is None or following.type != "expression_statement":
            continue
        line, other_line = line_of(statement), line_of(following)
        if other_line == line or not (ctx.wanted(line) or ctx.wanted(other_line)):
            continue
        first, second = _plain_assignment(statement), _plain_assignment(following)
        if first is None or second is None:
            continue
        a, b = first.child_by_field_name("left"), second.child_by_field_name("left")
        if a is None or b is None or ctx.tree.text(a) == ctx.tree.text(b):
            continue
        description = f"'{shortened(ctx.tree.text(a))}' and '{shortened(ctx.tree.text(b))}' take each other's values"
        yield ctx.swap_nodes(P_LOW, "exchange_targets", "logic", a, b, description, "variable error")


LOGIC_OPERATORS = (
    comparison_edits,
    parallel_comparison_edits,
    arithmetic_edits,
    condition_edits,
    operand_negation_edits,
    off_by_one_edits,
    allocation_size_edits,
    name_swap_edits,
    constant_edits,
    digit_transposition_edits,
    loop_stride_edits,
    letter_offset_edits,
    variable_edits,
    widened_operand_edits,
    index_for_element_edits,
    compared_value_edits,
    guarded_divisor_edits,
    statement_edits,
    block_boundary_edits,
    argument_edits,
    sibling_argument_edits,
    returned_element_edits,
    chained_call_edits,
    pointer_hop_edits,
    missing_return_edits,
    unread_total_edits,
    built_value_edits,
    mirrored_name_edits,
    mirrored_child_edits,
    exchanged_target_edits,
    reset_value_edits,
    fresh_per_pass_edits,
)
