"""Static facts about C++ and Java programs: the compiler's errors and warnings as line-anchored diagnostics, mapped
onto DebugBench's bug classes, and suspicious shapes the compiler lets through.

The compilers run in the sandbox (``g++ -std=c++17 -Wall -Wextra`` front end, ``javac -Xlint:all``; see
:mod:`debugtutor.analysis.clike.harness`). Each message becomes a :class:`~debugtutor.analysis.static.Diagnostic`
whose ``category`` is ``syntax`` (the code does not parse, or an ``=`` sits where a comparison belongs), ``reference``
(a name, member, method or type that does not exist) or ``suspicious-logic`` (a warning), whose ``code`` is a stable
rule id and whose ``bug_type`` is the DebugBench minor type the finding usually comes from. An undeclared name is
told apart by what it is: a keyword of another language (``illegal keywords``), a name declared only inside a
comment (``illegal comment``), something called (``undefined methods``) or anything else (``undefined objects``).

The pattern checks (no compiler needed) flag what compiles but is usually wrong: an assignment used as a condition,
a comparison used as a statement, an empty loop or ``if`` body, a body whose indentation says it has more than one
statement, a ``for`` loop that updates a variable its condition does not test or steps away from its bound, an
index equal to the container's size, a variable assigned to itself, a for-each loop that asks the container it walks
whether it holds the element (always true), and a total accumulated but never read while the function returns
something else.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tree_sitter import Node

from debugtutor.analysis.clike.context import EditContext
from debugtutor.analysis.clike.harness import CompilerMessage, Variant, arun_variants
from debugtutor.analysis.clike.smells import (
    ELEMENT_READS,
    bounds_set_to_the_middle,
    cursors_past_end,
    index_past_end,
    loop_past_end,
    own_membership_tests,
    returns_ending_loops,
    size_expression,
)
from debugtutor.analysis.clike.syntax_tree import (
    CompiledLanguage,
    SyntaxTree,
    end_line_of,
    function_signature,
    indent_width,
    line_of,
    operator_token,
    parse,
    receding_self_calls,
    tokens,
    unchanged_self_calls,
)
from debugtutor.analysis.static import Diagnostic, DiagnosticCategory

# Words that are keywords, types or idioms of another language and mean nothing here: what an "illegal keywords"
# bug injects. Each maps to the usual spelling in the target language ("" when there is none).
FOREIGN_WORDS: dict[str, dict[str, str]] = {
    "cpp": {
        "def": "int",
        "var": "auto",
        "let": "auto",
        "val": "auto",
        "func": "int",
        "function": "auto",
        "fn": "auto",
        "elif": "else if",
        "elsif": "else if",
        "elseif": "else if",
        "None": "NULL",
        "null": "NULL",
        "nil": "NULL",
        "True": "true",
        "False": "false",
        "self": "this",
        "String": "string",
        "str": "string",
        "boolean": "bool",
        "Integer": "int",
        "Boolean": "bool",
        "Long": "long",
        "Double": "double",
        "ArrayList": "vector",
        "HashMap": "unordered_map",
        "HashSet": "unordered_set",
        "println": "",
        "print": "",
        "len": "",
        "final": "const",
        "until": "",
        "foreach": "for",
        "forEach": "for",
        "lambda": "",
        "echo": "",
        "puts": "",
        "elifs": "else if",
        "not": "!",
        "is": "==",
        "NaN": "NAN",
        "undefined": "NULL",
        "Math": "",
        "System": "",
        "console": "",
        "Arrays": "",
        "parseInt": "stoi",
        "parseLong": "stoll",
        "parseDouble": "stod",
    },
    "java": {
        "def": "int",
        "let": "var",
        "val": "var",
        "func": "int",
        "function": "var",
        "fn": "var",
        "auto": "var",
        "elif": "else if",
        "elsif": "else if",
        "elseif": "else if",
        "None": "null",
        "nil": "null",
        "NULL": "null",
        "nullptr": "null",
        "True": "true",
        "False": "false",
        "self": "this",
        "string": "String",
        "str": "String",
        "bool": "boolean",
        "vector": "List",
        "unordered_map": "HashMap",
        "unordered_set": "HashSet",
        "print": "",
        "println": "",
        "len": "",
        "cout": "",
        "cin": "",
        "endl": "",
        "printf": "",
        "echo": "",
        "puts": "",
        "until": "",
        "foreach": "for",
        "forEach": "for",
        "lambda": "",
        "pair": "int[]",
        "unsigned": "",
        "undefined": "null",
        "NaN": "Double.NaN",
        "console": "",
        "const": "final",
        "struct": "class",
        "sizeof": "",
        "delete": "",
        "stoi": "Integer.parseInt",
        "stoll": "Long.parseLong",
        "stod": "Double.parseDouble",
        "to_string": "String.valueOf",
    },
}
# Member names that belong to another language's containers or strings (``nums.length()`` in C++, ``v.size()`` on a
# Java array): an "illegal keywords" bug as DebugBench draws it.
FOREIGN_MEMBERS: dict[str, dict[str, str]] = {
    "cpp": {
        "length": "size",
        "push": "push_back",
        "append": "push_back",
        "add": "push_back",
        "put": "insert",
        "get": "at",
        "charAt": "at",
        "equals": "compare",
        "contains": "count",
        "containsKey": "count",
        "isEmpty": "empty",
        "remove": "erase",
        "toString": "",
        "len": "size",
        "pop": "pop_back",
        "substring": "substr",
        "indexOf": "find",
        "peek": "top",
        "poll": "pop",
        "offer": "push",
        "keySet": "",
    },
    "java": {
        "size": "length",
        "push_back": "add",
        "push": "add",
        "append": "add",
        "emplace_back": "add",
        "pop_back": "remove",
        "find": "indexOf",
        "count": "containsKey",
        "empty": "isEmpty",
        "erase": "remove",
        "substr": "substring",
        "at": "get",
        "insert": "add",
        "begin": "",
        "end": "",
        "front": "peek",
        "top": "peek",
        "len": "length",
        "lower": "toLowerCase",
        "upper": "toUpperCase",
        "strip": "trim",
    },
}


@dataclass(frozen=True)
class _Rule:
    pattern: re.Pattern[str]
    code: str
    category: DiagnosticCategory
    bug_type: str


def _rules(*items: tuple[str, str, DiagnosticCategory, str]) -> tuple[_Rule, ...]:
    return tuple(_Rule(re.compile(pattern), code, category, bug) for pattern, code, category, bug in items)


_CPP_RULES = _rules(
    (r"missing terminating [\"'] character", "unclosed-string", "syntax", "unclosed string"),
    (
        r"unterminated comment|stray '#'|invalid preprocessing directive|stray '\\'",
        "illegal-comment",
        "syntax",
        "illegal comment",
    ),
    (
        r"lvalue required as left operand of assignment|using temporary as lvalue",
        "assignment-to-value",
        "syntax",
        "misused == or =",
    ),
    (
        r"suggest parentheses around assignment used as truth value",
        "assignment-in-condition",
        "syntax",
        "misused == or =",
    ),
    (
        r"expected '[;:]'|expected ',' or ';'|expected ';' or|expected ':' or",
        "expected-separator",
        "syntax",
        "missing colons",
    ),
    (
        r"expected '[)\]}]'|expected '[(\[{]' before|expected primary-expression before '[)\]]'|expected '\)' before",
        "unbalanced-brackets",
        "syntax",
        "unclosed parentheses",
    ),
    (r"at end of input", "unbalanced-brackets", "syntax", "unclosed parentheses"),
    (
        r"break statement not within|continue statement not within|'else' without a previous 'if'|"
        r"a function-definition is not allowed here",
        "misplaced-statement",
        "syntax",
        "illegal separation",
    ),
    (
        r"'([A-Za-z_]\w*)' was not declared in this scope|'([A-Za-z_]\w*)' has not been declared|"
        r"use of undeclared identifier '([A-Za-z_]\w*)'",
        "undeclared-name",
        "reference",
        "undefined objects",
    ),
    (
        r"has no member named '([A-Za-z_]\w*)'|'([A-Za-z_]\w*)' is not a member of",
        "no-such-member",
        "reference",
        "undefined methods",
    ),
    (
        r"'([A-Za-z_]\w*)' does not name a type|'([A-Za-z_]\w*)' is not a type",
        "unknown-type",
        "reference",
        "undefined objects",
    ),
    (
        r"no matching function for call to|no matching member function|too (?:many|few) arguments",
        "no-matching-call",
        "reference",
        "undefined methods",
    ),
    (
        r"could not convert|cannot convert|invalid conversion|invalid operands|no match for 'operator",
        "type-mismatch",
        "syntax",
        "",
    ),
    (r"redeclaration of|conflicting declaration|redefinition of", "redeclared", "reference", "undefined objects"),
    (
        r"request for member .* which is of (?:non-class|pointer) type|base operand of '->'",
        "member-access",
        "reference",
        "undefined objects",
    ),
    (r"expected", "parse-error", "syntax", ""),
)
_CPP_WARNINGS = _rules(
    (
        r"suggest parentheses around assignment used as truth value",
        "assignment-in-condition",
        "syntax",
        "misused == or =",
    ),
    (r"missing terminating [\"'] character", "unclosed-string", "syntax", "unclosed string"),
    (
        r"value computed is not used|statement has no effect|for increment expression has no effect",
        "result-unused",
        "suspicious-logic",
        "misused == or =",
    ),
    (
        r"suggest braces around empty body|this '\w+' clause does not guard",
        "misleading-body",
        "suspicious-logic",
        "illegal separation",
    ),
    (
        r"no return statement in function returning non-void|control reaches end of non-void",
        "missing-return",
        "suspicious-logic",
        "other error",
    ),
    (r"unused variable|set but not used", "unused-variable", "suspicious-logic", "variable error"),
    (
        r"comparison with string literal|multi-character character constant",
        "string-comparison",
        "suspicious-logic",
        "unclosed string",
    ),
    (
        r"array subscript .* is (?:above|below) array bounds|array index .* is past the end",
        "index-past-end",
        "suspicious-logic",
        "faulty indexing",
    ),
    (r"self-assignment|assigned to itself", "self-assignment", "suspicious-logic", "variable error"),
    (r"overflow in conversion|integer overflow", "overflow", "suspicious-logic", "operation error"),
)
_JAVA_RULES = _rules(
    (
        r"unclosed (?:string|character) literal|empty character literal|unclosed text block",
        "unclosed-string",
        "syntax",
        "unclosed string",
    ),
    (r"unclosed comment|illegal character: '(?:#|\\\\)'", "illegal-comment", "syntax", "illegal comment"),
    (r"incompatible types: \w+ cannot be converted to boolean", "condition-not-boolean", "syntax", "misused == or ="),
    (r"^unexpected type", "assignment-to-value", "syntax", "misused == or ="),
    (r"^';' expected|^':' expected|^: expected|'[;:]' expected", "expected-separator", "syntax", "missing colons"),
    (
        r"'[)\]}(\[{]' expected|reached end of file while parsing|class, interface, enum, or record expected",
        "unbalanced-brackets",
        "syntax",
        "unclosed parentheses",
    ),
    (
        r"'else' without 'if'|break outside switch or loop|continue outside of loop|"
        r"variable declaration not allowed here|'(?:case|default)', or '}' expected",
        "misplaced-statement",
        "syntax",
        "illegal separation",
    ),
    (r"^not a statement", "not-a-statement", "syntax", "misused == or ="),
    (r"^cannot find symbol", "undeclared-name", "reference", "undefined objects"),
    (
        r"method .* in class .* cannot be applied|no suitable (?:method|constructor) found|"
        r"constructor .* cannot be applied",
        "no-matching-call",
        "reference",
        "undefined methods",
    ),
    (r"might not have been initialized", "uninitialized", "reference", "undefined objects"),
    (r"is already defined", "redeclared", "reference", "undefined objects"),
    (r"bad operand types? for (?:binary|unary) operator", "type-mismatch", "syntax", ""),
    (r"incompatible types|cannot be dereferenced|array required, but", "type-mismatch", "syntax", ""),
    (r"missing return statement", "missing-return", "syntax", "illegal separation"),
    (r"unreachable statement", "unreachable", "syntax", "illegal separation"),
    (r"illegal start of|<identifier> expected|expected|not allowed here|illegal", "parse-error", "syntax", ""),
)


def _normal_quotes(text: str) -> str:
    return text.replace("\u2018", "'").replace("\u2019", "'").replace("`", "'")


def _named_symbol(match: re.Match[str]) -> str:
    return next((group for group in match.groups() if group), "")


def _java_symbol(detail: str) -> tuple[str, str]:
    """(kind, name) of javac's ``symbol:`` line: kind is variable, method or class."""
    found = re.search(r"symbol:\s+(variable|method|class|interface)\s+([A-Za-z_]\w*)", detail)
    return (found.group(1), found.group(2)) if found else ("", "")


def _declared_in_comment(source: str, name: str) -> bool:
    """Whether ``name`` is declared (``type name =``/``;``/``,``) inside a comment of ``source``."""
    declaration = re.compile(rf"\b[\w<>\[\],:]+[\s*&]+{re.escape(name)}\s*(?:[=;,(\[{{]|$)")
    return any(token.kind == "comment" and declaration.search(token.text) for token in tokens(source))


def _called_at(source_line: str, name: str) -> bool:
    return re.search(rf"\b{re.escape(name)}\s*\(", source_line) is not None


def classify_message(message: CompilerMessage, source: str, language: CompiledLanguage) -> Diagnostic | None:
    """The diagnostic for one compiler message (None for harness-only messages and uninteresting warnings)."""
    if message.in_harness or message.line <= 0:
        return None
    text = _normal_quotes(message.message)
    rules = (_CPP_RULES if message.severity == "error" else _CPP_WARNINGS) if language == "cpp" else _JAVA_RULES
    if language == "java" and message.severity != "error":
        return None  # javac's lint warnings (raw types, unchecked) say nothing about bugs
    lines = source.splitlines()
    line_text = lines[message.line - 1] if message.line <= len(lines) else ""
    for rule in rules:
        found = rule.pattern.search(text)
        if found is None:
            continue
        code, category, bug_type = rule.code, rule.category, rule.bug_type
        symbol = _named_symbol(found) if found.groups() else ""
        if language == "java" and code == "undeclared-name":
            kind, symbol = _java_symbol(message.detail)
            if kind == "method":
                bug_type = "undefined methods"
        if code in ("undeclared-name", "unknown-type", "no-such-member") and symbol:
            bug_type = _reference_bug_type(code, symbol, source, line_text, language, bug_type)
        if code == "not-a-statement" and "==" not in line_text:
            bug_type = ""
        if code == "type-mismatch" and re.search(r"(?<![=!<>])=(?!=)", _condition_text(line_text)):
            # (still a type error that stops the compile, unlike C++'s warning about an assignment as a condition)
            bug_type = "misused == or ="
        if code == "result-unused" and "==" not in line_text:
            bug_type = "other error"
        if code == "parse-error":
            bug_type = _parse_error_bug_type(text, line_text)
        return Diagnostic(
            category=category,
            line=message.line,
            column=max(0, message.column - 1),
            message=text,
            code=code,
            symbol=symbol,
            bug_type=bug_type,
        )
    if message.severity == "error":
        return Diagnostic(category="syntax", line=message.line, column=max(0, message.column - 1), message=text,
                          code="compile-error")  # fmt: skip
    return None


def _condition_text(line: str) -> str:
    found = re.search(r"\b(?:if|while)\s*\((.*)\)", line)
    return found.group(1) if found else ""


def _parse_error_bug_type(message: str, line_text: str) -> str:
    if re.search(r"before '[)\]}]'|'[)\]}]' token", message):
        return "unclosed parentheses"
    if line_text.count("(") != line_text.count(")"):
        return "unclosed parentheses"
    if re.search(r"//|/\*|\*/|#", line_text):
        return "illegal comment"
    return ""


def _reference_bug_type(
    code: str, symbol: str, source: str, line_text: str, language: CompiledLanguage, default: str
) -> str:
    if code == "no-such-member":
        if symbol in FOREIGN_MEMBERS[language]:
            return "illegal keywords"
        return "undefined methods" if _called_at(line_text, symbol) else "undefined objects"
    if symbol in FOREIGN_WORDS[language]:
        return "illegal keywords"
    if _declared_in_comment(source, symbol):
        return "illegal comment"
    if _called_at(line_text, symbol):
        return "undefined methods"
    return default


def compiler_diagnostics(
    messages: Iterable[CompilerMessage], source: str, language: CompiledLanguage
) -> list[Diagnostic]:
    """The diagnostics of a variant's compiler messages, one per (line, rule), in line order."""
    found: dict[tuple[int, str, str], Diagnostic] = {}
    for message in messages:
        diagnostic = classify_message(message, source, language)
        if diagnostic is not None:
            found.setdefault((diagnostic.line, diagnostic.code, diagnostic.symbol), diagnostic)
    return sorted(found.values(), key=lambda d: (d.line, d.column, d.code))


# ---------------------------------------------------------------------------------------------------------------
# Pattern checks.


def _diagnostic(line: int, code: str, message: str, bug_type: str, category: DiagnosticCategory) -> Diagnostic:
    return Diagnostic(category=category, line=line, column=0, message=message, code=code, bug_type=bug_type)


def pattern_diagnostics(source: str, language: CompiledLanguage, tree: SyntaxTree | None = None) -> list[Diagnostic]:
    """Suspicious shapes that compile: see the module docstring."""
    tree = tree or parse(source, language)
    found: list[Diagnostic] = []
    lines = source.splitlines()
    for node in tree.named("if_statement", "while_statement", "for_statement", "do_statement"):
        condition = node.child_by_field_name("condition")
        if condition is not None:
            inner = condition.named_children[0] if condition.type in ("condition_clause", "parenthesized_expression")\
                and condition.named_children else condition  # fmt: skip
            if inner.type == "assignment_expression" and tree.text(inner).count("=") == 1:
                found.append(
                    _diagnostic(line_of(node), "assignment-in-condition", "an assignment is used as the condition",
                                "misused == or =", "syntax")
                )  # fmt: skip
        body = node.child_by_field_name("body") or node.child_by_field_name("consequence")
        if body is None:
            continue
        if body.type == "expression_statement" and tree.text(body).strip() == ";":
            found.append(
                _diagnostic(line_of(body), "empty-body", f"the {node.type.split('_')[0]} has an empty body (';')",
                            "illegal separation", "suspicious-logic")
            )  # fmt: skip
        elif body.type not in ("compound_statement", "block") and node.type != "do_statement":
            # an unbraced body followed by a line indented like it: the author meant both to be inside
            last = end_line_of(body)
            header_indent = indent_width(lines[line_of(node) - 1]) if line_of(node) <= len(lines) else 0
            body_indent = indent_width(lines[line_of(body) - 1]) if line_of(body) <= len(lines) else 0
            following = next((n for n in range(last + 1, len(lines) + 1) if lines[n - 1].strip()), None)
            if (
                following is not None
                and line_of(body) > line_of(node)
                and body_indent > header_indent
                and indent_width(lines[following - 1]) == body_indent
                and not lines[following - 1].strip().startswith(("}", "else", "//", "/*"))
            ):
                found.append(
                    _diagnostic(following, "misleading-indentation",
                                f"indented as if inside the {node.type.split('_')[0]} on line {line_of(node)}, "
                                "which has no braces", "illegal separation", "suspicious-logic")
                )  # fmt: skip
    for node in tree.named("expression_statement"):
        expression = node.named_children[0] if node.named_children else None
        if expression is not None and expression.type == "binary_expression":
            operator = operator_token(expression)
            if operator is not None and operator.type in ("==", "!="):
                found.append(
                    _diagnostic(line_of(node), "comparison-statement", "a comparison used as a statement",
                                "misused == or =", "syntax")
                )  # fmt: skip
        if expression is not None and expression.type == "assignment_expression":
            left, right = expression.child_by_field_name("left"), expression.child_by_field_name("right")
            operator = operator_token(expression)
            if left is not None and right is not None and operator is not None and operator.type == "=" and \
                    tree.text(left).replace(" ", "") == tree.text(right).replace(" ", ""):  # fmt: skip
                found.append(
                    _diagnostic(line_of(node), "self-assignment", "a variable assigned to itself", "variable error",
                                "suspicious-logic")
                )  # fmt: skip
    found.extend(_unread_total_diagnostics(tree, language))
    found.extend(_loop_diagnostics(tree))
    found.extend(_index_diagnostics(tree))
    found.extend(
        _diagnostic(line_of(node), "own-membership", f"'{tree.text(node)}' is asked whether it holds an element of "
                    f"itself (always true; '{other}' meant?)", "variable error", "suspicious-logic")
        for node, other in own_membership_tests(tree)
    )  # fmt: skip
    found.extend(
        _diagnostic(line_of(node), "bound-to-middle", f"a search bound set to '{tree.text(node)}' while the loop runs "
                    f"as long as its bounds may meet: once they do, nothing moves ('{mended}' meant?)",
                    "variable error", "suspicious-logic")
        for node, mended in bounds_set_to_the_middle(tree)
    )  # fmt: skip
    found.extend(
        _diagnostic(line_of(node), "return-ends-loop", "the loop's block ends in a return nothing skips: it never "
                    "turns twice (the return meant after the loop?)", "unclosed parentheses", "suspicious-logic")
        for node, _ in returns_ending_loops(tree)
    )  # fmt: skip
    found.extend(_range_diagnostics(tree))
    found.extend(_recursion_diagnostics(tree))
    return found


def _unread_total_diagnostics(tree: SyntaxTree, language: CompiledLanguage) -> Iterable[Diagnostic]:
    """A returned sum or name in a function that accumulates a total it never reads (``count += m - n;`` and
    ``return left + right;``): the total was most likely meant to be part of the answer."""
    context = EditContext(tree, language, None, "repair")
    for value, totals in context.unread_totals():
        token = operator_token(value) if value.type == "binary_expression" else None
        if value.type == "identifier" or (token is not None and token.type == "+"):
            names = ", ".join(f"'{name}'" for name in totals)
            yield _diagnostic(line_of(value), "unread-total", f"{names} accumulated but never read nor returned",
                              "other error", "suspicious-logic")  # fmt: skip


_ASSIGNED = re.compile(r"\b([A-Za-z_]\w*)\s*=(?!=)\s*([^;,{}]+)")
_JOINS = {"&&": "and", "and": "and", "||": "or", "or": "or"}
_END_OF_OPERAND = r"(?=\s*(?:$|\)|&&|\|\||and\b|or\b))"
# per join: the floor of an index, then its ceiling when the ceiling admits the size itself
_RANGE_SHAPES = {
    "and": (r"\b([A-Za-z_]\w*)\s*>=\s*0\b|\b0\s*<=\s*([A-Za-z_]\w*)\b", r"\b([A-Za-z_]\w*)\s*<=\s*([\w.\[\]()]+)"),
    "or": (r"\b([A-Za-z_]\w*)\s*<\s*0\b|\b0\s*>\s*([A-Za-z_]\w*)\b", r"\b([A-Za-z_]\w*)\s*>\s*([\w.\[\]()]+)"),
}


def _size_names(source: str) -> set[str]:
    """Variables given nothing but a container's size (``n = grid.size();``, ``int m = s.length();``)."""
    values: dict[str, list[str]] = {}
    for found in _ASSIGNED.finditer(source):
        values.setdefault(found.group(1), []).append(found.group(2).strip())
    return {name for name, given in values.items() if all(_is_size(value) for value in given)}


def _is_size(text: str) -> bool:
    """A container's size, perhaps cast to int: ``(int) grid[0].size()``."""
    return size_expression(text) is not None


def _join(node: Node | None) -> str | None:
    """``and`` / ``or`` for a binary ``&&`` / ``||`` expression, else None."""
    if node is None or node.type != "binary_expression":
        return None
    operator = operator_token(node)
    return _JOINS.get(operator.type) if operator is not None else None


def _range_diagnostics(tree: SyntaxTree) -> Iterable[Diagnostic]:
    """A range check that lets an index reach a container's size (``x >= 0 && x <= n`` with ``n = grid.size()``,
    or its negation ``x < 0 || x > n``): the index one past the last element passes it."""
    sizes: set[str] | None = None
    for node in tree.named("binary_expression"):
        join = _join(node)
        if join is None or _join(node.parent) == join:
            continue  # the outermost chain of one join speaks for the whole check
        text = tree.text(node)
        floor_shape, ceiling_shape = _RANGE_SHAPES[join]
        floored = {left or right for left, right in re.findall(floor_shape, text)}
        if not floored:
            continue
        if sizes is None:
            sizes = _size_names(tree.source)
        for name, bound in re.findall(ceiling_shape + _END_OF_OPERAND, text):
            if name in floored and (bound in sizes or _is_size(bound)):
                message = f"the range check lets {name} reach {bound}, one past the last index"
                yield _diagnostic(line_of(node), "range-admits-size", message, "condition error", "suspicious-logic")
                break


def _recursion_diagnostics(tree: SyntaxTree) -> Iterable[Diagnostic]:
    """A function that calls itself with its own parameters unchanged, or with one moved away from its base case,
    never gets nearer to an end."""
    for function, call in unchanged_self_calls(tree):
        signature = function_signature(tree, function)
        name = signature[0] if signature is not None else "the function"
        message = f"'{name}' calls itself with its own arguments unchanged"
        yield _diagnostic(line_of(call), "unchanged-recursion", message, "condition error", "suspicious-logic")
    for call, argument in receding_self_calls(tree):
        where = "no nearer to" if re.fullmatch(r"\w+", tree.text(argument)) else "away from"
        message = f"the recursive call passes {tree.text(argument)}, {where} the base case"
        yield _diagnostic(line_of(call), "receding-recursion", message, "operation error", "suspicious-logic")


def _identifiers(tree: SyntaxTree, node: object) -> set[str]:
    return {tree.text(n) for n in tree.walk(node) if n.type == "identifier"}  # type: ignore[arg-type]


def _loop_diagnostics(tree: SyntaxTree) -> Iterable[Diagnostic]:
    for node in tree.named("for_statement"):
        condition = node.child_by_field_name("condition")
        update = node.child_by_field_name("update")
        if condition is None or update is None:
            continue
        tested = _identifiers(tree, condition)
        updated = _updated_names(tree, update)
        if updated and tested and not updated & tested:
            yield _diagnostic(line_of(node), "loop-update-mismatch",
                              f"the loop updates {', '.join(sorted(updated))} but tests {', '.join(sorted(tested))}",
                              "condition error", "suspicious-logic")  # fmt: skip
            continue
        text = tree.text(condition).replace(" ", "")
        step = tree.text(update).replace(" ", "")
        rising = re.search(r"\+\+|\+=", step) is not None
        falling = re.search(r"--|-=", step) is not None
        if (rising and re.match(r"\w+>=?", text)) or (falling and re.match(r"\w+<=?", text)):
            yield _diagnostic(line_of(node), "loop-steps-away",
                              "the loop steps away from the bound its condition tests", "condition error",
                              "suspicious-logic")  # fmt: skip


def _updated_names(tree: SyntaxTree, update: object) -> set[str]:
    names: set[str] = set()
    for node in tree.walk(update):  # type: ignore[arg-type]
        if node.type in ("update_expression", "assignment_expression"):
            target = node.child_by_field_name("argument") or node.child_by_field_name("left")
            if target is None:
                target = next((c for c in node.named_children if c.type == "identifier"), None)
            if target is not None and target.type == "identifier":
                names.add(tree.text(target))
    return names


def _index_diagnostics(tree: SyntaxTree) -> Iterable[Diagnostic]:
    """``v[v.size()]`` / ``a[a.length]`` / ``s.charAt(s.length())``: an index one past the last element; a loop whose
    last turn reads there (:func:`~debugtutor.analysis.clike.smells.loop_past_end`), a cursor that starts there
    (:func:`~debugtutor.analysis.clike.smells.cursors_past_end`)."""
    for node in tree.named(*ELEMENT_READS):
        if index_past_end(tree, node) is not None:
            text = tree.text(node).replace(" ", "")
            yield _diagnostic(line_of(node), "index-past-end", f"{text} is one past the last element",
                              "faulty indexing", "suspicious-logic")  # fmt: skip
    for loop in tree.named("for_statement"):
        inclusive = loop_past_end(tree, loop)
        if inclusive is not None:
            yield _diagnostic(line_of(inclusive), "loop-past-end", "the loop runs up to and including the size of "
                              "what it reads at its counter", "faulty indexing", "suspicious-logic")  # fmt: skip
    for value, name in cursors_past_end(tree):
        yield _diagnostic(line_of(value), "cursor-past-end", f"{name} starts at {tree.text(value)} and is read there "
                          "before it moves", "faulty indexing", "suspicious-logic")  # fmt: skip


# ---------------------------------------------------------------------------------------------------------------
# Entry points.


_TYPE_WORDS = frozenset({"int", "long", "char", "bool", "boolean", "double", "float", "void", "string", "std",
                         "vector", "String", "const", "auto", "operator", "unsigned", "size_t"})  # fmt: skip


def quoted_names(message: str) -> list[str]:
    """The names inside the quoted parts of a compiler message (``'{a, b}'`` -> ``a``, ``b``), in order, once each."""
    quoted = " ".join(re.findall(r"'([^']*)'", message))
    return list(dict.fromkeys(re.findall(r"[A-Za-z_]\w*", quoted)))


def quoted_declarations(code: str, diagnostic: Diagnostic) -> list[int]:
    """Where the names a compiler error quotes first appear, when that is above the error (``could not convert
    '{a, b}'`` is about how ``a`` and ``b`` were declared)."""
    lines = code.splitlines()
    found: list[int] = []
    for name in quoted_names(diagnostic.message):
        if name in _TYPE_WORDS:
            continue
        first = next((n for n, text in enumerate(lines, 1) if re.search(rf"\b{name}\b", text)), None)
        if first is not None and first < diagnostic.line:
            found.append(first)
    return list(dict.fromkeys(found))


def merge(found: Sequence[Diagnostic]) -> list[Diagnostic]:
    unique = {(d.line, d.code, d.symbol): d for d in found}
    return sorted(unique.values(), key=lambda d: (d.line, d.column, d.code))


async def acheck(source: str, language: CompiledLanguage) -> list[Diagnostic]:
    """Compiler diagnostics (one sandboxed compile) plus the pattern checks, sorted by line."""
    batch = await arun_variants(language, [Variant(source)], warnings=True, run=False, deadline_s=60.0)
    messages = batch.variants[0].messages if batch.variants else []
    return merge([*compiler_diagnostics(messages, source, language), *pattern_diagnostics(source, language)])


def check(source: str, language: CompiledLanguage) -> list[Diagnostic]:
    """Synchronous :func:`acheck`."""
    return asyncio.run(acheck(source, language))
