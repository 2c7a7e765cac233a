"""Shapes that are wrong in practically every program that compiles, each with its one mend.

An assignment whose value a condition tests (``if (s[i] = '1')``, ``a < b && (c = b)``), a comparison used as a
statement (``x == 0;``), an index one past the last element (``v[v.size()]``, ``s.charAt(s.length())``), a C++ character
literal of several characters (``s += '22'``, a string meant), a character of a string compared with a bare digit
(``s[i] == 1``, ``'1'`` meant), a loop up to and including a container's size that reads the container (or one made with
that size) at its counter, a cursor set to a container's size that reads it there before it moves (``int r = s.size();
... s[r]``, then ``r--``), a Java local declared ``null`` whose next use calls a method on it (``Deque<Integer> stack =
null; stack.push(-1);``), a number commented out right after an operand (``(100 - discount)/*100d*/``, a division whose
``/`` began the comment), a for-each loop that asks the container it walks whether it holds the element (``for
(Character c : ts) if (!ts.contains(c))``, always true; the function's one other variable of that type meant) and a
binary search's bound set to the middle in a loop that runs while ``lo <= hi`` (``hi = mid;``: once ``lo == hi`` nothing
moves) and a loop whose block ends in a return nothing skips (it never turns twice: the return belongs after it; 53
buggy programs of the non-held C++/Java items and no oracle have the shape) all compile, and the stated examples often
do not show them (a C++ read one past the end returns whatever lies there).
Programs with several planted bugs carry them beside the bug the examples do show, so the compiled repair search mends
them all at once before it searches (:func:`debugtutor.analysis.clike.repair.arepair_compiled`), keeping the mends only
when the examples do not get worse.
The pattern findings of :mod:`debugtutor.analysis.clike.diagnostics` report the same shapes.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from tree_sitter import Node

from debugtutor.analysis.clike.nulls import java_new_object
from debugtutor.analysis.clike.syntax_tree import (
    COMMENT_TYPES,
    ELEMENT_READS,
    FUNCTION_TYPES,
    LOOP_TYPES,
    TYPED_DECLARATIONS,
    CompiledLanguage,
    SyntaxTree,
    element_read,
    enclosing,
    line_of,
    operator_token,
    parse,
    plain_type,
    typed_declarators,
)
from debugtutor.analysis.edits._base import Edit, EditCategory

_CONDITIONS = ("if_statement", "while_statement", "do_statement", "for_statement")


def index_past_end(tree: SyntaxTree, node: Node) -> tuple[str, Node] | None:
    """(the container's name, the index) of an element read one past the last element (``v[v.size()]``,
    ``a[a.length]``, ``s.charAt(s.length())``, ``v[n]`` where ``n`` holds ``v.size()`` or ``v`` was made with ``n``
    elements, neither changed since), else None."""
    read = element_read(tree, node)
    if read is None:
        return None
    base, index = read
    sizes = (f"{base}.size()", f"{base}.length", f"{base}.length()")
    plain = tree.text(index).replace(" ", "")
    if plain in sizes or _named_sizes(tree.source).get(plain) in sizes:
        return read
    made = _allocated_sizes(tree.source).get(base)
    if made == plain and re.fullmatch(r"\w+", plain) and len(_writes(plain, tree.source)) <= 1:
        return read
    return None


def _tested_assignments(tree: SyntaxTree, condition: Node) -> list[Node]:
    """Assignments whose value is what a condition tests: the whole condition, or an operand of ``&&`` / ``||``
    (``(a < b) && (c = b)``), through parentheses and ``!``."""
    found: list[Node] = []
    stack = [condition]
    while stack:
        node = stack.pop()
        if node.type == "assignment_expression":
            found.append(node)
        elif node.type in ("condition_clause", "parenthesized_expression", "unary_expression"):
            stack.extend(node.named_children)
        elif node.type == "binary_expression":
            operator = operator_token(node)
            if operator is not None and operator.type in ("&&", "||"):
                stack.extend(node.named_children)
    return found


def smell_mends(source: str, language: CompiledLanguage) -> list[Edit]:
    """One edit per sure smell of ``source``, in document order."""
    tree = parse(source, language)
    mends: list[Edit] = []

    def mend(operator: str, category: EditCategory, node: Node, description: str, mended: str, bug: str) -> None:
        line = line_of(node)
        mends.append(Edit(operator, category, line, f"line {line}: {description}", mended, bug))

    for node in tree.named(*_CONDITIONS):
        condition = node.child_by_field_name("condition")
        if condition is None:
            continue
        for assignment in _tested_assignments(tree, condition):
            operator = operator_token(assignment)
            if operator is not None and operator.type == "=":
                mend("mend_assignment_condition", "syntax", node, "'=' -> '=='", tree.replace(operator, "=="),
                     "misused == or =")  # fmt: skip
    for node in tree.named("expression_statement"):
        expression = node.named_children[0] if node.named_children else None
        if expression is None or expression.type != "binary_expression":
            continue
        operator = operator_token(expression)
        if operator is not None and operator.type == "==":
            mend("mend_comparison_statement", "syntax", node, "'==' -> '='", tree.replace(operator, "="),
                 "misused == or =")  # fmt: skip
    for node in tree.named(*ELEMENT_READS):
        past_end = index_past_end(tree, node)
        if past_end is not None:
            index = past_end[1]
            mended = tree.text(node).replace(tree.text(index), f"{tree.text(index)} - 1")
            mend("mend_index_past_end", "logic", node, f"'{tree.text(node)}' -> '{mended}'",
                 tree.replace(index, f"{tree.text(index)} - 1"), "faulty indexing")  # fmt: skip
    for node in tree.named("char_literal", "character_literal"):
        text = tree.text(node)
        content = text[1:-1] if len(text) >= 2 and text[0] == text[-1] == "'" else ""
        if len(content) > 1 and not content.startswith("\\"):
            string = f'"{content}"'
            mend("mend_multichar_literal", "syntax", node, f"{text} -> {string}", tree.replace(node, string),
                 "unclosed string")  # fmt: skip
    for node in tree.named("for_statement"):
        inclusive = loop_past_end(tree, node)
        if inclusive is not None:
            # DebugBench files a loop that reads one past the end under faulty indexing far more often than under
            # condition error (24 to 5 of the development half's single bugs where this smell fires)
            mend("mend_loop_past_end", "logic", inclusive, "'<=' -> '<'", tree.replace(inclusive, "<"),
                 "faulty indexing")  # fmt: skip
        for update, mended in _idle_update(tree, node):
            mend("mend_idle_update", "logic", update, f"'{tree.text(update)}' -> '{mended}'",
                 tree.replace(update, mended), "operation error")  # fmt: skip
    for value, made in _null_then_used(tree) if language == "java" else []:
        mend("mend_null_then_used", "reference", value, f"null -> {made}", tree.replace(value, made),
             "undefined objects")  # fmt: skip
    for found in _literal_and_name_mends(tree):
        mend(*found)
    return sorted(mends, key=lambda edit: edit.line)


def _literal_and_name_mends(tree: SyntaxTree) -> Iterator[tuple[str, EditCategory, Node, str, str, str]]:
    """The mends of a digit compared with a character, a division commented out, a loop's own membership test, a
    cursor that starts one past the end and a return that ends a loop's every first turn."""
    for value, name in cursors_past_end(tree):
        mended = f"{tree.text(value)} - 1"
        yield ("mend_cursor_past_end", "logic", value, f"{name} = {tree.text(value)} -> {mended}",
               tree.replace(value, mended), "faulty indexing")  # fmt: skip
    for node in _digit_compared_characters(tree):
        text = tree.text(node)
        yield ("mend_digit_character", "syntax", node, f"{text} -> '{text}'", tree.replace(node, f"'{text}'"),
               "unclosed string")  # fmt: skip
    for node in _division_comments(tree):
        text = tree.text(node)
        yield ("mend_division_comment", "syntax", node, f"'{text}' -> '/{text[2:-2]}'",
               tree.replace(node, f"/{text[2:-2]}"), "illegal comment")  # fmt: skip
    for node, other in own_membership_tests(tree):
        yield ("mend_own_membership", "logic", node, f"'{tree.text(node)}' -> '{other}'", tree.replace(node, other),
               "variable error")  # fmt: skip
    for node, mended in bounds_set_to_the_middle(tree):
        yield ("mend_bound_to_middle", "logic", node, f"'{tree.text(node)}' -> '{mended}'", tree.replace(node, mended),
               "variable error")  # fmt: skip
    for node, moved in returns_ending_loops(tree):
        # (DebugBench's planted brace moves are filed under brackets: the loop's '}' belongs above the return)
        yield ("mend_return_in_loop", "syntax", node, f"'{tree.text(node)}' moved after the loop", moved,
               "unclosed parentheses")  # fmt: skip


def bounds_set_to_the_middle(tree: SyntaxTree) -> list[tuple[Node, str]]:
    """Bounds of a binary search that may stop moving: in ``while (lo <= hi)`` whose body sets ``mid`` to the middle
    (``(lo + hi) / 2``, ``lo + (hi - lo) / 2``, ``>> 1``), a branch ``hi = mid;`` (``lo = mid;``) that neither returns
    nor breaks leaves both bounds as they were once ``lo == hi``, and the loop never ends: (the assignment, ``hi = mid
    - 1`` / ``lo = mid + 1``)."""
    found: list[tuple[Node, str]] = []
    for loop in tree.named("while_statement"):
        condition, body = loop.child_by_field_name("condition"), loop.child_by_field_name("body")
        while condition is not None and condition.type in ("condition_clause", "parenthesized_expression"):
            condition = condition.named_children[0] if condition.named_children else None
        if condition is None or body is None or condition.type != "binary_expression":
            continue
        operator = operator_token(condition)
        left, right = condition.child_by_field_name("left"), condition.child_by_field_name("right")
        if operator is None or operator.type != "<=" or left is None or right is None:
            continue
        if left.type != "identifier" or right.type != "identifier":
            continue
        lo, hi = re.escape(tree.text(left)), re.escape(tree.text(right))
        sum_ = rf"(?:{lo}\s*\+\s*{hi}|{hi}\s*\+\s*{lo}|{lo}\s*\+\s*\(\s*{hi}\s*-\s*{lo}\s*\))"
        middle = re.search(rf"\b(\w+)\s*=\s*\(?\s*{sum_}\s*\)?\s*(?:/\s*2|>>\s*1)\b", tree.text(body))
        if middle is None:
            continue
        mid = middle.group(1)
        moved = {tree.text(left): f"{mid} + 1", tree.text(right): f"{mid} - 1"}
        for assignment in tree.walk(body):
            if assignment.type != "assignment_expression":
                continue
            target, value = assignment.child_by_field_name("left"), assignment.child_by_field_name("right")
            sign = operator_token(assignment)
            if target is None or value is None or sign is None or sign.type != "=" or tree.text(value) != mid:
                continue
            if tree.text(target) not in moved or enclosing(assignment, LOOP_TYPES) != loop:
                continue
            # (the branch is the block the statement stands in, or the statement alone under a braceless if / else)
            statement = assignment.parent
            branch = statement.parent if statement is not None else None
            if (
                branch is not None
                and branch.type in ("compound_statement", "block")
                and re.search(r"\b(?:return|break)\b", tree.text(branch))
            ):
                continue
            found.append((value, moved[tree.text(target)]))
    return found


# calls that ask a container whether it holds a value, and calls that change what it holds
_MEMBERSHIP_CALLS = frozenset({"contains", "containsKey", "count", "find"})
_CHANGING_CALLS = re.compile(r"\.\s*(?:remove\w*|erase|clear|poll\w*|pop\w*|retainAll)\s*\(|^\s*=[^=]")


def own_membership_tests(tree: SyntaxTree) -> list[tuple[Node, str]]:
    """Membership tests of a for-each loop's element in the container the loop walks (``for (Character c : ts)
    ... ts.contains(c)``, ``for (int x : a) ... a.count(x)``), true on every turn while the loop leaves the container
    as it is: (the container named in the test, the one other variable of the function declared with its type, the
    container that was meant). A test with no such variable, or several, has no sure mend and is left alone."""
    found: list[tuple[Node, str]] = []
    for loop in tree.named("enhanced_for_statement", "for_range_loop"):
        walked = loop.child_by_field_name("value") or loop.child_by_field_name("right")
        element = loop.child_by_field_name("name") or loop.child_by_field_name("declarator")
        body = loop.child_by_field_name("body")
        function = enclosing(loop, FUNCTION_TYPES)
        if walked is None or element is None or body is None or function is None or walked.type != "identifier":
            continue
        container, item = tree.text(walked), tree.text(element).lstrip("&* ")
        if any(_CHANGING_CALLS.match(tree.source[end : end + 40]) for end in _ends_of_name(tree, body, container)):
            continue
        types = {
            name: kind
            for declaration in tree.walk(function)
            if declaration.type in TYPED_DECLARATIONS
            for name, kind in typed_declarators(tree, declaration)
        }
        kind = types.get(container)
        others = [name for name, other in types.items() if name != container and kind is not None and
                  plain_type(other) == plain_type(kind)]  # fmt: skip
        if len(others) != 1:
            continue
        for call in tree.walk(body):
            target = _membership_target(tree, call)
            if target is not None and tree.text(target[0]) == container and target[1] == item and _truth_of(tree, call):
                found.append((target[0], others[0]))
    return found


def _ends_of_name(tree: SyntaxTree, scope: Node, name: str) -> list[int]:
    """Where each mention of ``name`` as an identifier inside ``scope`` ends (byte offsets)."""
    return [node.end_byte for node in tree.walk(scope) if node.type == "identifier" and tree.text(node) == name]


def _membership_target(tree: SyntaxTree, call: Node) -> tuple[Node, str] | None:
    """(the container, the argument's text) of a call ``c.contains(x)`` / ``c.count(x)`` and its kin, else None."""
    if call.type == "method_invocation":
        target, method = call.child_by_field_name("object"), call.child_by_field_name("name")
    elif call.type == "call_expression" and (function := call.child_by_field_name("function")) is not None:
        if function.type != "field_expression":
            return None
        target, method = function.child_by_field_name("argument"), function.child_by_field_name("field")
    else:
        return None
    arguments = call.child_by_field_name("arguments")
    if target is None or method is None or arguments is None or target.type != "identifier":
        return None
    if tree.text(method) not in _MEMBERSHIP_CALLS or len(arguments.named_children) != 1:
        return None
    return target, tree.text(arguments.named_children[0])


def _truth_of(tree: SyntaxTree, call: Node) -> bool:
    """Whether only the truth of a call's value is used: a condition, an operand of ``!``, ``&&`` or ``||``, or a
    comparison with 0 or an ``end()`` (a C++ multiset's ``count`` used as a number is not a membership test)."""
    node = call
    while node.parent is not None and node.parent.type == "parenthesized_expression":
        node = node.parent
    parent = node.parent
    if parent is None:
        return False
    if parent.type in ("if_statement", "while_statement", "condition_clause", "ternary_expression",
                       "conditional_expression"):  # fmt: skip
        return parent.child_by_field_name("condition") in (node, call) or parent.type == "condition_clause"
    operator = operator_token(parent) if parent.type in ("unary_expression", "binary_expression") else None
    if operator is None:
        return False
    if operator.type in ("!", "&&", "||"):
        return True
    other = [child for child in parent.named_children if child != node]
    return (
        operator.type in ("==", "!=")
        and bool(other)
        and re.fullmatch(r"0|\w+\.end\(\)", tree.text(other[0])) is not None
    )


def _division_comments(tree: SyntaxTree) -> list[Node]:
    """Block comments holding only a number, glued to the operand before them."""
    found = []
    for node in tree.named("comment", "block_comment"):
        start = tree.span(node)[0]
        before = tree.source[start - 1] if start > 0 else ""
        if (before.isalnum() or before in ")]") and _NUMBER_COMMENT.fullmatch(tree.text(node)):
            found.append(node)
    return found


# a block comment holding only a number, glued to the operand before it (``(100 - discount)/*100d*/``): the '/' of a
# division whose divisor the comment swallowed
_NUMBER_COMMENT = re.compile(r"/\*\d+(\.\d+)?[dDfFlL]?\*/")


def _null_then_used(tree: SyntaxTree) -> list[tuple[Node, str]]:
    """Java locals declared ``null`` whose next mention, in a statement of the same block, calls a method on them
    (``Deque<Integer> stack = null; stack.push(-1);``): (the null, the object its declared type most likely meant)."""
    found: list[tuple[Node, str]] = []
    for declaration in tree.named("local_variable_declaration"):
        kind = declaration.child_by_field_name("type")
        made = java_new_object(tree.text(kind)) if kind is not None else None
        if made is None:
            continue
        for declarator in declaration.named_children:
            value = declarator.child_by_field_name("value") if declarator.type == "variable_declarator" else None
            name = declarator.child_by_field_name("name") if declarator.type == "variable_declarator" else None
            if value is None or name is None or value.type != "null_literal":
                continue
            mention = re.compile(rf"\b{re.escape(tree.text(name))}\b(\s*\.)?")
            sibling = declaration.next_named_sibling
            while sibling is not None and (first := mention.search(tree.text(sibling))) is None:
                sibling = sibling.next_named_sibling
            if sibling is not None and first is not None and first.group(1) and sibling.type in _PLAIN_STATEMENTS:
                found.append((value, made))
    return found


_PLAIN_STATEMENTS = ("expression_statement", "local_variable_declaration", "return_statement")


SIZE_EXPRESSION = re.compile(r"(\w+)((?:\[[^\[\]]*\])*)\.(?:size\(\)|length\(\)|length)")
"""A container's size, spaces removed: ``v.size()``, ``s.length()``, ``a.length``, a row's ``grid[0].size()``
(groups: the container, its subscripts)."""


def _idle_update(tree: SyntaxTree, loop: Node) -> list[tuple[Node, str]]:
    """[(the update, its mend)] of ``for (...; i < n; i)`` or ``for (...; i < n; i + 1)``: an update that computes
    without storing, of the variable the condition compares, which then never moves (``i++`` where the condition
    keeps it below a bound, ``i--`` above one); [] for any other loop."""
    update = loop.child_by_field_name("update")
    condition = loop.child_by_field_name("condition")
    if update is None or condition is None or condition.type != "binary_expression":
        return []
    left, operator = condition.child_by_field_name("left"), operator_token(condition)
    if left is None or left.type != "identifier" or operator is None:
        return []
    name = tree.text(left)
    step = None
    if update.type == "identifier" and tree.text(update) == name:
        step = "++" if operator.type in ("<", "<=", "!=") else "--" if operator.type in (">", ">=") else None
    elif update.type == "binary_expression":
        first, sign = update.child_by_field_name("left"), operator_token(update)
        second = update.child_by_field_name("right")
        if first is not None and tree.text(first) == name and sign is not None and sign.type in ("+", "-"):
            amount = tree.text(second) if second is not None else ""
            step = (sign.type * 2) if amount == "1" else f" {sign.type}= {amount}" if amount else None
    return [] if step is None else [(update, name + step)]


def loop_past_end(tree: SyntaxTree, loop: Node) -> Node | None:
    """The ``<=`` of ``for (...; i <= v.size(); ...)`` whose body reads ``v[i]`` (``v.charAt(i)``, ``v.get(i)``),
    or of ``for (...; i <= n; ...)`` over an array made with ``n`` elements: the last turn reads one past the end."""
    condition = loop.child_by_field_name("condition")
    body = loop.child_by_field_name("body")
    if condition is None or body is None or condition.type != "binary_expression":
        return None
    operator = operator_token(condition)
    left, right = condition.child_by_field_name("left"), condition.child_by_field_name("right")
    if operator is None or operator.type != "<=" or left is None or right is None or left.type != "identifier":
        return None
    written = tree.text(right).replace(" ", "")
    # a name that holds a size and is never changed stands for it (``int n = nums.size();``)
    named = _named_sizes(tree.source)
    bound = named.get(written, written)
    # a row's length (``grid[0].size()``) bounds the index after as many subscripts as it took
    size = SIZE_EXPRESSION.fullmatch(bound)
    depth = size.group(2).count("[") if size else 0
    # or an array made with exactly that many elements (``new boolean[n]``, ``vector<int> dp(n)``, ``vector<int>
    # seen(nums.size())``), the size written as the loop writes it or by a name that holds it
    bases = [size.group(1)] if size else []
    if depth == 0:
        bases += [name for name, made in _allocated_sizes(tree.source).items() if named.get(made, made) == bound]
    index = re.escape(tree.text(left))
    guards = "|".join(re.escape(text) for text in {written, bound})
    if re.search(rf"\b{index}\s*(?:<|!=)\s*(?:{guards})", tree.text(body).replace(" ", "")):
        return None  # the body guards its reads against the last turn
    before = r"\s*\[[^\[\]]*\]" * depth
    for base in bases:
        reads = rf"\b{re.escape(base)}{before}\s*(?:\[\s*{index}\s*\]|\.(?:charAt|get)\(\s*{index}\s*\))"
        if re.search(reads, tree.text(body)):
            return operator
    return None


def size_expression(text: str) -> re.Match[str] | None:
    """:data:`SIZE_EXPRESSION` matched on a size as written, perhaps cast to int: ``(int) grid[0].size()``."""
    return SIZE_EXPRESSION.fullmatch(re.sub(r"^\(\s*int\s*\)|\s", "", text))


_ONCE_LOOPS = ("for_statement", "for_range_loop", "while_statement", "enhanced_for_statement")


def returns_ending_loops(tree: SyntaxTree) -> list[tuple[Node, str]]:
    """Loops whose block ends in a ``return`` that nothing skips (no ``continue`` in the body): the loop never turns
    twice, and the return was meant after it (a brace put a line too late). (the return, the program with the return
    moved there: in place of a ``return`` that follows the loop, or after the loop where it ends its block)."""
    found: list[tuple[Node, str]] = []
    for loop in tree.named(*_ONCE_LOOPS):
        body = loop.child_by_field_name("body")
        if body is None or body.type not in ("block", "compound_statement"):
            continue
        statements = [child for child in body.named_children if child.type not in COMMENT_TYPES]
        if not statements or statements[-1].type != "return_statement":
            continue
        if any(node.type == "continue_statement" for node in tree.walk(body)):
            continue
        returned = statements[-1]
        after = loop.next_named_sibling
        while after is not None and after.type in COMMENT_TYPES:
            after = after.next_named_sibling
        start, end = tree.span(returned)
        if after is not None and after.type == "return_statement":
            after_start, after_end = tree.span(after)
            moved = tree.source[:start] + tree.source[end:after_start] + tree.text(returned) + tree.source[after_end:]
        elif after is None and loop.parent is not None and loop.parent.type in ("block", "compound_statement"):
            loop_end = tree.span(loop)[1]
            moved = tree.source[:start] + tree.source[end:loop_end] + " " + tree.text(returned) + tree.source[loop_end:]
        else:
            continue
        found.append((returned, moved))
    return found


def cursors_past_end(tree: SyntaxTree) -> list[tuple[Node, str]]:
    """(the value, the name) of each variable declared as a container's size that the code later moves (``int r =
    word.size();`` ... ``r--``) and that reads the container at it before anything moves it or compares it with the
    size: its first read is one past the last element, and the cursor was meant to start on the last one. (A name
    that is never moved is a bound, and its reads are :func:`index_past_end`'s.)"""
    found: list[tuple[Node, str]] = []
    for declarator in tree.named("init_declarator", "variable_declarator"):
        name_node = declarator.child_by_field_name("declarator") or declarator.child_by_field_name("name")
        value = declarator.child_by_field_name("value")
        if name_node is None or value is None or name_node.type != "identifier":
            continue
        size = size_expression(tree.text(value))
        if size is None or size.group(2):
            continue
        name, base = tree.text(name_node), re.escape(size.group(1))
        if len(_writes(name, tree.source)) < 2:
            continue
        after = tree.source[declarator.end_byte :]
        read = re.search(rf"\b{base}\s*(?:\[\s*{name}\s*\]|\.(?:charAt|get)\(\s*{name}\s*\))", after)
        if read is None:
            continue
        before = after[: read.start()]
        moved = _writes(name, before)
        guarded = re.search(
            rf"\b{name}\s*(?:<|!=|>=)\s*{base}\b|\b{base}\s*\.\s*\w+\s*\(?\s*\)?\s*(?:>|!=|<=)\s*{name}\b", before
        )
        if not moved and guarded is None:
            found.append((value, name))
    return found


@functools.lru_cache(maxsize=32)  # asked once per subscript and loop of the same program
def _named_sizes(source: str) -> dict[str, str]:
    """Names set once to a container's size (``int n = grid.size()``, ``m = grid[0].length``) and never changed:
    name -> that size's text (spaces dropped)."""
    found: dict[str, set[str]] = {}
    for match in re.finditer(r"\b(\w+)\s*=\s*(?:\(int\)\s*)?([\w.\[\]() ]+?)\s*[;,]", source):
        size = match.group(2).replace(" ", "")
        if SIZE_EXPRESSION.fullmatch(size):
            found.setdefault(match.group(1), set()).add(size)
    return {
        name: next(iter(sizes)) for name, sizes in found.items() if len(sizes) == 1 and len(_writes(name, source)) == 1
    }


def _writes(name: str, source: str) -> list[str]:
    """Every assignment to, increment or decrement of ``name`` in ``source`` (its declaration's value included)."""
    assigned = rf"\b{name}\s*(?:[-+*/%&|^]|<<|>>)?=(?!=)"
    stepped = rf"\b{name}\s*(?:\+\+|--)|(?:\+\+|--)\s*{name}\b"
    return re.findall(f"{assigned}|{stepped}", source)


# (a size may call a method without arguments: ``nums.size()``, ``s.length()``)
_SIZE_TEXT = r"((?:[^,()]|\(\s*\))+)"
_ALLOCATIONS = (
    re.compile(r"\b(\w+)\s*=\s*new\s+[\w.]+\s*\[([^\[\]]+)\]"),  # Java: a = new int[n]
    re.compile(rf"\b(\w+)\s*=\s*vector\s*<[^;()]*>\s*\({_SIZE_TEXT}[,)]"),  # C++: a = vector<int>(n)
)
# C++: ``vector<int> a(n), b(n, 0);``, every declarator of the declaration
_VECTOR_DECLARATION = re.compile(r"\bvector\s*<[^;()]*>\s*(\w+\s*\([^;]*);")
_VECTOR_DECLARATOR = re.compile(rf"(?:^|\)\s*,)\s*(\w+)\s*\({_SIZE_TEXT}[,)]")


@functools.lru_cache(maxsize=32)
def _allocated_sizes(source: str) -> dict[str, str]:
    """Arrays and vectors made with a stated number of elements: name -> that number's text (spaces dropped);
    a name made with two different sizes is left out."""
    sizes: dict[str, set[str]] = {}
    for pattern in _ALLOCATIONS:
        for found in pattern.finditer(source):
            sizes.setdefault(found.group(1), set()).add(found.group(2).replace(" ", ""))
    for declaration in _VECTOR_DECLARATION.finditer(source):
        for found in _VECTOR_DECLARATOR.finditer(declaration.group(1)):
            sizes.setdefault(found.group(1), set()).add(found.group(2).replace(" ", ""))
    return {name: next(iter(made)) for name, made in sizes.items() if len(made) == 1}


_STRING_TYPES = frozenset({"string", "std::string", "String"})
_DIGIT_TYPES = frozenset({"number_literal", "decimal_integer_literal"})


def _character_names(tree: SyntaxTree) -> tuple[set[str], set[str]]:
    """(names declared as strings, names declared as single characters)."""
    strings: set[str] = set()
    characters: set[str] = set()
    for declaration in tree.named(*TYPED_DECLARATIONS):
        for name, type_text in typed_declarators(tree, declaration):
            plain = plain_type(type_text)
            if plain in _STRING_TYPES:
                strings.add(name)
            elif plain == "char":
                characters.add(name)
    return strings, characters


def _is_character(tree: SyntaxTree, node: Node, strings: set[str], characters: set[str]) -> bool:
    """``s[i]`` / ``s.charAt(i)`` of a string ``s``, or a ``char`` variable."""
    if node.type == "identifier":
        return tree.text(node) in characters
    if node.type == "subscript_expression":
        base = node.child_by_field_name("argument")
        return base is not None and base.type == "identifier" and tree.text(base) in strings
    if node.type == "method_invocation":
        base, name = node.child_by_field_name("object"), node.child_by_field_name("name")
        return (base is not None and name is not None and tree.text(name) == "charAt"
                and base.type == "identifier" and tree.text(base) in strings)  # fmt: skip
    return False


def _digit_compared_characters(tree: SyntaxTree) -> list[Node]:
    """The bare digits (``1``) a character of a string is compared with (``s[i] == 1``, ``s.charAt(i) != 0``):
    the digit character was meant, its quotes lost."""
    strings, characters = _character_names(tree)
    if not strings and not characters:
        return []
    found: list[Node] = []
    for node in tree.named("binary_expression"):
        operator = operator_token(node)
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if operator is None or operator.type not in ("==", "!=") or left is None or right is None:
            continue
        for digit, other in ((right, left), (left, right)):
            if (
                digit.type in _DIGIT_TYPES
                and re.fullmatch(r"\d", tree.text(digit))
                and _is_character(tree, other, strings, characters)
            ):
                found.append(digit)
    return found
