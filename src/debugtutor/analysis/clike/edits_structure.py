"""Repairs that read the whole program rather than the error line: C++ and Java.

A compiler reports a missing ``}`` where the file ends or where a function definition turns up inside another, and
a hidden block of code where the braces stop matching, far from the mistake. These operators look for the mistake
where it is:

* **braces the indentation implies**: a block whose lines fall back to (or below) the indentation of its opening
  line without a ``}`` there is closed at that point (all such points at once, and each alone); a loop or ``if``
  header with an indented body and a ``}`` at its own indentation gets the ``{`` it lacks;
* **brackets closed where the code shows they end**: ``par[u)`` and ``size[v;`` (all such lines at once), and a
  ``}`` after code on its line dropped when the program has more ``}`` than ``{``, and a closer of the wrong kind
  (a block's ``}`` typed as ``)``) given the kind its opener wants;
* **code hidden in a block comment** (``/* for (...) { ... }*/``) is uncommented, and a ``/*`` that never closes
  dropped, when a brace error says the structure is broken;
* **text after the last class** that is not code (prose, markup) is blanked when the compiler complains there;
* **literals of the wrong kind**: a quoted name or number where the compiler wanted a number is unquoted, a
  multi-character C++ character literal (``'22'``) becomes a string;
* **on a line the compiler rejects**: ``new X<>`` gets its call parentheses, another language's phrases
  (``is not None``, ``and``, ``or``, ``not``) are spelt in this one;
* **member shapes of the other language**: ``.length``, ``.length()``, ``.size()`` traded for one another where the
  compiler says the member does not exist, and an object qualifier dropped from a name the class itself declares
  (``ob.v`` -> ``v``);
* **a counter never declared** (``one++`` with no ``one``) is declared as an ``int`` at the top of its function;
* **a parameter moved into the body** (``vector<int>& arr;``, a reference nothing binds) goes back into the header,
  and every call of the function passes it; a call with one argument too many or too few for the program's own
  function loses the argument, passes the parameter's namesake, or the function loses the parameter;
* **methods outside any class** go back into ``class Solution``, and a C++ method defined after the class
  (``T Solution::f(...) {``) that the class does not declare gets its declaration there.

Every edit keeps the line count: inserted braces go at the end of a line, blanked text leaves its newlines.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tree_sitter import Node

from debugtutor.analysis.clike.context import (
    P_FIRST,
    P_HIGH,
    P_MID,
    Candidate,
    EditContext,
    LineTokens,
    code_end,
    line_bounds,
    source_lines,
)
from debugtutor.analysis.clike.edits_logic import shortened
from debugtutor.analysis.clike.syntax_tree import (
    BRACKET_PAIRS,
    FUNCTION_TYPES,
    call_parts,
    enclosing,
    function_signature,
    indent_width,
    line_of,
    parameter_list,
)
from debugtutor.analysis.static import Diagnostic

# Compiler findings that say the program's block structure is broken somewhere, not necessarily on their line.
STRUCTURE_CODES = frozenset({"unbalanced-brackets", "misplaced-statement", "parse-error", "compile-error"})
# Members that one language spells as another's: an array's ``length`` field, a string's ``length()``, a
# container's ``size()``.
MEMBER_SHAPES = {"cpp": (".size()", ".length()"), "java": (".length", ".length()", ".size()")}
SHAPED_MEMBERS = frozenset({"length", "size", "len", "count"})
_CODE_WORDS = re.compile(r"\b(?:for|while|if|return|else)\b|[A-Za-z_]\w*\s*\(")
# Lines written at their block's indentation or left of it by custom: access and case labels.
_LABEL = re.compile(r"\s*(?:public|private|protected|default|case\b[^:]*)\s*:(?!:)")


def _blocking(ctx: EditContext) -> list[Diagnostic]:
    return [d for d in ctx.diagnostics if d.category in ("syntax", "reference")]


def _structure_broken(ctx: EditContext) -> bool:
    return any(d.code in STRUCTURE_CODES for d in _blocking(ctx))


def indentation_brace_repairs(ctx: EditContext, lexed: LineTokens) -> Iterator[Candidate]:
    """Close, at the end of its last line, each block the indentation ends without a ``}`` (only when the program
    has more ``{`` than ``}``)."""
    braces = [t for t in lexed.all if t.kind == "symbol" and t.text in "{}"]
    missing = sum(1 for t in braces if t.text == "{") - sum(1 for t in braces if t.text == "}")
    if missing <= 0:
        return
    lines = source_lines(ctx.source)
    spots: list[tuple[int, int]] = []
    for token in braces:
        code = lexed.code_on(token.line)
        if token.text != "{" or code[-1] is not token:
            continue
        opening = indent_width(lines[token.line - 1])
        last_inside = token.line
        for number in range(token.line + 1, len(lines) + 1):
            text = lines[number - 1]
            if not text.strip() or not lexed.code_on(number) or _LABEL.match(text):
                continue
            if indent_width(text) <= opening:
                if not (text.lstrip().startswith("}") and indent_width(text) == opening):
                    spots.append((last_inside, code_end(ctx.source, last_inside, lexed.on(last_inside))))
                break
            last_inside = number
    spots = sorted(set(spots))
    if not spots:
        return
    if len(spots) <= missing + 1 and len(spots) > 1:
        fixed = ctx.source
        for _, offset in reversed(spots):
            fixed = fixed[:offset] + " }" + fixed[offset:]
        where = ", ".join(str(line) for line, _ in spots)
        yield ctx.make(P_FIRST, "close_blocks", "syntax", spots[0][0], f"close the blocks ending on lines {where}",
                       fixed, "unclosed parentheses")  # fmt: skip
    for line, offset in spots:
        yield ctx.replace_span(P_HIGH, "close_block", "syntax", line, offset, offset, " }",
                               "close the block its indentation ends here", "unclosed parentheses")  # fmt: skip


def mismatched_bracket_repairs(ctx: EditContext, lexed: LineTokens) -> Iterator[Candidate]:
    """Close each ``[`` or ``(`` that its line leaves open where the code shows it must end: before a closer of the
    other kind (``par[u)`` -> ``par[u])``) or, for ``[``, before the ``;`` (``size[v;``). All such places at once
    (two unclosed brackets make neither single fix balance the program), and each alone."""
    closers = {"(": ")", "[": "]"}
    inserts: list[tuple[int, int, str]] = []
    for line in range(1, len(source_lines(ctx.source)) + 1):
        stack: list[str] = []
        for token in lexed.code_on(line):
            if token.kind != "symbol":
                continue
            if token.text in closers:
                stack.append(token.text)
            elif token.text in (")", "]") and stack:
                while stack and closers[stack[-1]] != token.text:
                    inserts.append((line, token.start, closers[stack.pop()]))
                if stack:
                    stack.pop()
            elif token.text == ";" and "[" in stack:
                while "[" in stack:
                    inserts.append((line, token.start, closers[stack.pop()]))
    if not inserts:
        return
    if len(inserts) > 1:
        fixed = ctx.source
        for _, offset, closer in sorted(inserts, key=lambda item: -item[1]):
            fixed = fixed[:offset] + closer + fixed[offset:]
        where = ", ".join(str(line) for line in dict.fromkeys(line for line, _, _ in inserts))
        yield ctx.make(P_FIRST, "close_brackets", "syntax", inserts[0][0], f"close the brackets left open on lines "
                       f"{where}", fixed, "unclosed parentheses")  # fmt: skip
    for line, offset, closer in inserts:
        yield ctx.replace_span(P_FIRST, "close_bracket", "syntax", line, offset, offset, closer, f"add '{closer}'",
                               "unclosed parentheses")  # fmt: skip


def wrong_closer_repairs(ctx: EditContext, lexed: LineTokens) -> Iterator[Candidate]:
    """Give a closing bracket of the wrong kind the kind its opener wants (a loop's ``}`` typed as ``)``,
    ``f(x]``): the first few places where the program's brackets, read in order, stop matching."""
    stack: list[str] = []
    found = 0
    for token in lexed.all:
        if token.kind != "symbol":
            continue
        if token.text in BRACKET_PAIRS:
            stack.append(token.text)
        elif token.text in BRACKET_PAIRS.values() and stack:
            wanted = BRACKET_PAIRS[stack.pop()]
            alone = token.text == "}" and len(lexed.code_on(token.line)) == 1
            if wanted != token.text and not alone:
                # (a '}' alone on its line closes a block: the bracket left open is the mistake, mended elsewhere)
                # read on as if it matched: a second mismatch further down is then a mistake of its own
                yield ctx.replace_span(P_HIGH, "closer_kind", "syntax", token.line, token.start, token.end, wanted,
                                       f"'{token.text}' -> '{wanted}'", "unclosed parentheses")  # fmt: skip
                found += 1
                if found >= 3:
                    return


def stray_brace_repairs(ctx: EditContext, lexed: LineTokens) -> Iterator[Candidate]:
    """With more ``}`` than ``{``, drop a ``}`` written after code on its line (``x = f(i);}`` closing a loop
    early), the last such first."""
    braces = [t for t in lexed.all if t.kind == "symbol" and t.text in "{}"]
    extra = sum(1 for t in braces if t.text == "}") - sum(1 for t in braces if t.text == "{")
    if extra <= 0:
        return
    for token in reversed(braces):
        code = lexed.code_on(token.line)
        if token.text == "}" and code[0] is not token and code[-1] is token and code[-2].text == ";":
            yield ctx.replace_span(P_HIGH, "drop_brace", "syntax", token.line, token.start, token.end, "",
                                   "drop the '}' that closes the block early", "illegal separation")  # fmt: skip


BRACELESS_HEADER = re.compile(r"\s*(?:}\s*)?(?:for|while|if|else\s+if|else)\b.*[^;{\s]\s*$")
"""A loop or ``if`` header line that opens no block (its body, one statement or a forgotten ``{``, follows)."""


FUNCTION_HEADER = re.compile(
    r"\s*(?:[A-Za-z_][\w:<>,\*&\[\]]*\s+)+[\*&]*(?!(?:if|for|while|switch|return|new|else)\b)[A-Za-z_]\w*\s*"
    r"\([^;{}]*\)\s*(?:const\s*)?(?:throws\s+[\w.,\s]+)?$"
)
"""A function or method header line, a type before its name, that opens no block."""


def opening_brace_repairs(ctx: EditContext, lexed: LineTokens) -> Iterator[Candidate]:
    """Open, at the end of a loop, ``if`` or function header, the block its indented body and a ``}`` at the
    header's indentation imply (only when the program has more ``}`` than ``{``)."""
    braces = [t for t in lexed.all if t.kind == "symbol" and t.text in "{}"]
    if sum(1 for t in braces if t.text == "}") <= sum(1 for t in braces if t.text == "{"):
        return
    lines = source_lines(ctx.source)
    code_lines = [n for n in range(1, len(lines) + 1) if lexed.code_on(n)]
    for position, number in enumerate(code_lines):
        header = lines[number - 1]
        if not (BRACELESS_HEADER.match(header) or FUNCTION_HEADER.match(header)) or position + 1 >= len(code_lines):
            continue
        indent = indent_width(header)
        if indent_width(lines[code_lines[position + 1] - 1]) <= indent:
            continue
        for later in code_lines[position + 1 :]:
            text = lines[later - 1]
            if indent_width(text) < indent or (indent_width(text) == indent and not text.lstrip().startswith("}")):
                break
            if indent_width(text) == indent:
                offset = code_end(ctx.source, number, lexed.on(number))
                yield ctx.replace_span(P_HIGH, "open_block", "syntax", number, offset, offset, " {",
                                       "open the block its body and its '}' imply", "unclosed parentheses")  # fmt: skip
                break


_NEW_WITHOUT_CALL = re.compile(r"\bnew\s+[A-Za-z_][\w.]*\s*(?:<[^;()]*>)?(?=\s*[;,)])")
# Another language's spelling of a test or an operator, and ours (``x is not None`` in Java).
_FOREIGN_PHRASES = {
    "java": ((r"\bis\s+not\s+None\b", "!= null"), (r"\bis\s+None\b", "== null"), (r"\band\b", "&&"),
             (r"\bor\b", "||"), (r"\bnot\s+", "!")),
    "cpp": ((r"\bis\s+not\s+None\b", "!= nullptr"), (r"\bis\s+None\b", "== nullptr")),
}  # fmt: skip


def error_line_phrase_repairs(ctx: EditContext) -> Iterator[Candidate]:
    """On a line the compiler rejects: call parentheses for ``new X<>``, and another language's phrases
    (``is not None``, ``and``) in this language's spelling."""
    for line in sorted({d.line for d in _blocking(ctx)}):
        start, end = line_bounds(ctx.source, line)
        text = ctx.source[start:end]
        for found in _NEW_WITHOUT_CALL.finditer(text):
            yield ctx.replace_span(P_HIGH, "call_constructor", "syntax", line, start + found.end(),
                                   start + found.end(), "()", "call the constructor", "missing colons")  # fmt: skip
        translated = text
        for pattern, spelling in _FOREIGN_PHRASES[ctx.language]:
            translated = re.sub(pattern, spelling, translated)
        if translated != text:
            yield ctx.replace_span(P_HIGH, "translate_phrase", "reference", line, start, end, translated,
                                   "another language's phrases in this one's spelling", "illegal keywords")  # fmt: skip


def commented_code_repairs(ctx: EditContext, lexed: LineTokens) -> Iterator[Candidate]:
    """Uncomment a block comment that holds code when a brace error says the structure is broken."""
    if not _structure_broken(ctx):
        return
    for token in lexed.all:
        if token.kind != "comment" or not token.text.startswith("/*"):
            continue
        if not token.closed:
            yield ctx.replace_span(P_HIGH, "drop_comment_mark", "syntax", token.line, token.start, token.start + 2,
                                   "", "drop the '/*' that never closes", "illegal comment")  # fmt: skip
            continue
        inner = token.text[2:-2]
        if not re.search(r"[;{}]", inner) or not re.search(
            r"\b(?:for|while|if|return|else)\b|[A-Za-z_]\w*\s*\(", inner
        ):
            continue
        shifts_braces = inner.count("{") != inner.count("}")
        yield ctx.replace_span(P_HIGH if shifts_braces else P_MID, "uncomment", "syntax", token.line, token.start,
                               token.end, inner, "restore the commented-out code", "illegal comment")  # fmt: skip
        if "/*" not in inner:
            continue  # (a comment of its own, such as the judge's ``/** Definition for ... */``)
        # a stray '/*' that a later comment's '*/' happens to close (whose own '/*' is now inside)
        yield ctx.replace_span(P_MID, "drop_comment_mark", "syntax", token.line, token.start, token.start + 2, "",
                               "drop the '/*'", "illegal comment")  # fmt: skip


def trailing_text_repairs(ctx: EditContext, lexed: LineTokens) -> Iterator[Candidate]:
    """Blank what follows the last top-level ``}`` when it is not code and the compiler complains there."""
    lines = source_lines(ctx.source)
    closing = max((n for n, text in enumerate(lines, 1) if re.match(r"}\s*;?\s*$", text)), default=None)
    if closing is None or not any(d.line > closing for d in _blocking(ctx)):
        return
    after = [n for n in range(closing + 1, len(lines) + 1) if lines[n - 1].strip()]
    if not after:
        return
    start = line_bounds(ctx.source, after[0])[0]
    end = line_bounds(ctx.source, after[-1])[1]
    blanked = "".join(ch if ch == "\n" else "" for ch in ctx.source[start:end])
    yield ctx.replace_span(P_HIGH, "drop_trailing_text", "syntax", after[0], start, end, blanked,
                           "drop the text after the last class", "illegal keywords")  # fmt: skip


def _numberish(text: str) -> bool:
    return re.fullmatch(r"[A-Za-z_]\w*|-?\d+(?:\.\d+)?", text) is not None


# What a function of each return type returns where its code returns a string literal instead.
_RETURNED_STAND_INS = {
    "boolean": ("true", "false"),
    "bool": ("true", "false"),
    **{kind: ("0", "-1", "1") for kind in ("int", "long", "long long", "short")},
    **{kind: ("0",) for kind in ("double", "float")},
}


def literal_kind_repairs(ctx: EditContext, lexed: LineTokens) -> Iterator[Candidate]:
    """Unquote a quoted name or number where the compiler wanted a number; a multi-character C++ character literal
    becomes a string. A string literal a function of a plain type returns (javac rejects it, g++ does for a number and
    turns it into ``true`` for a ``bool``) is unquoted or stands for the values such a function returns."""
    # (javac's "String cannot be converted to boolean" is the words of a condition that assigns, and of a return)
    mismatched = {d.line for d in _blocking(ctx) if d.code in ("type-mismatch", "condition-not-boolean")}
    returned = _returned_strings(ctx)
    for token in lexed.all:
        if token.kind == "string" and token.closed and (token.line in mismatched or token.start in returned):
            inner = token.text[1:-1]
            if _numberish(inner):
                yield ctx.replace_span(P_HIGH, "unquote", "syntax", token.line, token.start, token.end, inner,
                                       f"{token.text} -> {inner}", "unclosed string")  # fmt: skip
            for value in returned.get(token.start, ()):
                if value != inner:
                    yield ctx.replace_span(P_MID, "returned_value", "syntax", token.line, token.start, token.end,
                                           value, f"{token.text} -> {value}", "unclosed string")  # fmt: skip
        elif token.kind == "char" and token.closed and len(token.text) > 3 and not token.text.startswith("'\\"):
            string = '"' + token.text[1:-1] + '"'
            yield ctx.replace_span(P_HIGH, "char_to_string", "syntax", token.line, token.start, token.end, string,
                                   f"{token.text} -> {string}", "unclosed string")  # fmt: skip


def _returned_strings(ctx: EditContext) -> dict[int, tuple[str, ...]]:
    """Offset of each string literal returned as a whole by a function of a plain type -> what such a function
    returns instead."""
    found: dict[int, tuple[str, ...]] = {}
    for statement in ctx.tree.named("return_statement"):
        values = statement.named_children
        function = enclosing(statement, FUNCTION_TYPES)
        kind = function.child_by_field_name("type") if function is not None else None
        if len(values) != 1 or values[0].type != "string_literal" or kind is None:
            continue
        stand_ins = _RETURNED_STAND_INS.get(" ".join(ctx.tree.text(kind).split()))
        if stand_ins is not None:
            found[ctx.tree.span(values[0])[0]] = stand_ins
    return found


def _member_uses(text: str, symbol: str) -> Iterator[re.Match[str]]:
    yield from re.finditer(rf"(?:\.|->)\s*{re.escape(symbol)}\b(\s*\(\s*\))?", text)


def member_shape_repairs(ctx: EditContext) -> Iterator[Candidate]:
    """``.length`` / ``.length()`` / ``.size()`` traded where the compiler says the member does not exist; an object
    qualifier dropped from a name the class itself declares (``ob.v`` -> ``v``)."""
    own = ctx.declared_names | ctx.methods | set(ctx.fields)
    seen: set[tuple[int, str]] = set()
    for diagnostic in _blocking(ctx):
        symbol, line = diagnostic.symbol, diagnostic.line
        if not symbol or diagnostic.category != "reference" or (line, symbol) in seen:
            continue
        seen.add((line, symbol))
        start, end = line_bounds(ctx.source, line)
        text = ctx.source[start:end]
        for found in _member_uses(text, symbol):
            if symbol in SHAPED_MEMBERS:
                for shape in MEMBER_SHAPES[ctx.language]:
                    if shape.lstrip(".") != (symbol + ("()" if found.group(1) else "")):
                        yield ctx.replace_span(P_FIRST, "member_shape", "reference", line, start + found.start(),
                                               start + found.end(), shape, f"'{found.group(0).strip()}' -> '{shape}'",
                                               "illegal keywords")  # fmt: skip
            qualifier = re.search(r"[A-Za-z_]\w*\s*$", text[: found.start()])
            if symbol in own and qualifier is not None and qualifier.group(0).strip() != "this":
                symbol_at = start + found.start() + found.group(0).index(symbol)
                yield ctx.replace_span(P_HIGH, "drop_qualifier", "reference", line, start + qualifier.start(),
                                       symbol_at, "", f"'{symbol}' unqualified", "undefined objects")  # fmt: skip


# Library methods that take no argument and have no field of the same name: named without a call, they are a
# call whose parentheses were lost (``tmp.end`` for ``tmp.end()``).
_CALLED_ONLY = {
    "cpp": frozenset({"begin", "end", "rbegin", "rend", "size", "length", "empty", "top", "front", "back", "c_str",
                      "pop", "pop_back", "pop_front", "clear"}),
    "java": frozenset({"size", "isEmpty", "peek", "poll", "pop", "toCharArray", "keySet", "values", "entrySet",
                       "getKey", "getValue", "toString", "peekFirst", "peekLast", "pollFirst", "pollLast",
                       "trim", "toLowerCase", "toUpperCase"}),
}  # fmt: skip


def lost_call_repairs(ctx: EditContext) -> Iterator[Candidate]:
    """``x.end`` -> ``x.end()``: a library method that takes nothing, named without its call on a line the compiler
    rejects."""
    lines = {d.line for d in _blocking(ctx) if ctx.wanted(d.line)}
    if not lines:
        return
    called_only = _CALLED_ONLY[ctx.language] - set(ctx.fields)
    for node in ctx.tree.named("field_expression", "field_access"):
        member = node.child_by_field_name("field")
        if member is None or line_of(node) not in lines or ctx.tree.text(member) not in called_only:
            continue
        parent = node.parent
        if parent is not None and parent.type == "call_expression" and parent.child_by_field_name("function") == node:
            continue
        text = ctx.tree.text(node)
        yield ctx.edit_at(P_HIGH, "lost_call", "syntax", node, text + "()", f"'{text}' -> '{text}()'",
                          "unclosed parentheses")  # fmt: skip


def missing_declaration_repairs(ctx: EditContext) -> Iterator[Candidate]:
    """Declare, at the top of its function, a variable the compiler cannot find that the code only counts with
    (``one++``, ``one += x``, ``one = 0``): DebugBench's undefined objects often delete one such declaration."""
    seen: set[str] = set()
    for diagnostic in _blocking(ctx):
        name = diagnostic.symbol
        if diagnostic.code != "undeclared-name" or not name or name in seen or name in ctx.declared_names:
            continue
        seen.add(name)
        uses = re.findall(rf"(?<![\w.]){re.escape(name)}\b\s*(\(|\.|\[|\+\+|--|[-+*/]?=(?!=)|)", ctx.source)
        if not name[:1].islower() or any(use in ("(", ".", "[") for use in uses):
            continue
        if not any(use for use in uses) and not re.search(rf"(?:\+\+|--){re.escape(name)}\b", ctx.source):
            continue
        for function in ctx.tree.named(*FUNCTION_TYPES):
            body = function.child_by_field_name("body")
            first, last = function.start_point[0] + 1, function.end_point[0] + 1
            if body is None or not first <= diagnostic.line <= last:
                continue
            opening = ctx.tree.span(body)[0] + 1
            yield ctx.replace_span(P_HIGH, "declare_variable", "reference", diagnostic.line, opening, opening,
                                   f" int {name} = 0;", f"declare 'int {name} = 0'", "undefined objects")  # fmt: skip
            break


_SOLUTION_CLASS = re.compile(r"\b(?:class|struct)\s+Solution\b")


def class_wrapper_repairs(ctx: EditContext) -> Iterator[Candidate]:
    """Put methods that stand outside any class back into ``class Solution`` (its header and closing brace lost),
    the header on the first line of code and the closer after the last, so no line moves."""
    source = ctx.source
    if _SOLUTION_CLASS.search(source) or not _blocking(ctx) or re.search(r"\)\s*\{", source) is None:
        return
    if ctx.language == "java" and re.search(r"^\s*(?:public\s+|final\s+|abstract\s+)*class\b", source, re.M):
        return  # another class holds the code; the methods are not loose
    first = next((n for n, text in enumerate(source_lines(source), start=1) if text.strip()), None)
    if first is None or not ctx.wanted(first):
        return
    start, _ = line_bounds(source, first)
    end = len(source.rstrip())
    opener, closer = ("class Solution { public: ", " };") if ctx.language == "cpp" else ("class Solution { ", " }")
    wrapped = source[:start] + opener + source[start:end] + closer + source[end:]
    yield ctx.make(P_HIGH, "wrap_in_class", "syntax", first, "put the methods back into 'class Solution'", wrapped,
                   "illegal separation")  # fmt: skip


def out_of_class_declaration_repairs(ctx: EditContext) -> Iterator[Candidate]:
    """C++: declare in ``class Solution`` a method defined after it (``T Solution::f(...) { ... }``) that the class
    does not declare, at the top of the class and public, so the class's own methods and the judge can call it."""
    if ctx.language != "cpp":
        return
    holder = next((node for node in ctx.tree.named("class_specifier", "struct_specifier")
                   if (name := node.child_by_field_name("name")) is not None
                   and ctx.tree.text(name) == "Solution"), None)  # fmt: skip
    body = holder.child_by_field_name("body") if holder is not None else None
    if holder is None or body is None:
        return
    members = ctx.tree.text(body)
    for function in ctx.tree.named("function_definition"):
        declarator = function.child_by_field_name("declarator")
        head = ctx.tree.text(function)[: declarator.end_byte - function.start_byte] if declarator else ""
        named = re.search(r"\bSolution\s*::\s*([A-Za-z_]\w*)\s*\(", head)
        if declarator is None or named is None or re.search(rf"\b{named.group(1)}\s*\(", members):
            continue
        if not ctx.wanted(line_of(function)):
            continue
        declaration = " ".join(head.replace(named.group(0), named.group(1) + "(").split())
        opening = ctx.tree.span(body)[0] + 1
        yield ctx.replace_span(P_HIGH, "declare_method", "reference", line_of(function), opening, opening,
                               f" public: {declaration};", f"declare '{named.group(1)}' in class Solution",
                               "undefined methods")  # fmt: skip


UNBOUND_REFERENCE = re.compile(r"'(\w+)' declared as reference but not initiali[sz]ed")
_REFERENCE_DECLARATION = re.compile(r"\s*((?:const\s+)?[\w:<>,\s]+?&)\s*(\w+)\s*;\s*")


def lost_parameter_repairs(ctx: EditContext) -> Iterator[Candidate]:
    """``vector<int>& arr;`` in a function's body, a reference nothing binds (the compiler rejects it): a parameter
    that lost its place in the header. It goes back there, first or last, and every call of the function in the
    program passes a variable of that name in the same place (the callers have one: the function once took it)."""
    for diagnostic in ctx.diagnostics:
        found = UNBOUND_REFERENCE.search(diagnostic.message)
        if found is None or not ctx.wanted(diagnostic.line):
            continue
        name = found.group(1)
        declaration = next((node for node in ctx.tree.named("declaration") if line_of(node) == diagnostic.line
                            and _REFERENCE_DECLARATION.fullmatch(ctx.tree.text(node))), None)  # fmt: skip
        function = enclosing(declaration, FUNCTION_TYPES) if declaration is not None else None
        signature = function_signature(ctx.tree, function) if function is not None else None
        parameters = parameter_list(function) if function is not None else None
        if declaration is None or signature is None or parameters is None or name in signature[1]:
            continue
        matched = _REFERENCE_DECLARATION.fullmatch(ctx.tree.text(declaration))
        assert matched is not None
        parameter = f"{' '.join(matched.group(1).split())} {name}"
        calls = [
            arguments
            for call in ctx.tree.named("call_expression")
            for _, callee, arguments in [call_parts(call)]
            if callee is not None and callee.type == "identifier" and arguments is not None
            and ctx.tree.text(callee) == signature[0]
        ]  # fmt: skip
        for first in (True, False):
            spans = [(*ctx.deletion_span(declaration), "")]
            for listing, item in [(parameters, parameter), *((arguments, name) for arguments in calls)]:
                start, end = ctx.tree.span(listing)
                empty = not ctx.source[start + 1 : end - 1].strip()
                if first:
                    spans.append((start + 1, start + 1, item if empty else f"{item}, "))
                else:
                    spans.append((end - 1, end - 1, item if empty else f", {item}"))
            source = ctx.source
            for start, end, text in sorted(spans, key=lambda span: span[0], reverse=True):
                source = source[:start] + text + source[end:]
            where = f"'{parameter}' -> {signature[0]}'s {'first' if first else 'last'} parameter"
            yield ctx.make(P_HIGH, "reference_to_parameter", "reference", diagnostic.line, where, source,
                           "undefined objects")  # fmt: skip


def arity_repairs(ctx: EditContext) -> Iterator[Candidate]:
    """A call of one of the program's own functions with one argument too many or too few (the compiler finds no
    function to call): the argument dropped, or the missing one passed by the parameter's name where the program
    declares that name somewhere (the compiler tells whether the caller sees it), or the parameter dropped from the
    function and from its calls that pass it, the call being the odd one out (``dfs(int node, int value)`` whose
    ``value`` only goes round the recursion)."""
    lines = {d.line for d in ctx.diagnostics if d.code == "no-matching-call" and ctx.wanted(d.line)}
    if not lines:
        return
    calls: dict[str, list[tuple[Node, list[Node]]]] = {}
    for call in ctx.tree.named("call_expression", "method_invocation"):
        _, callee, arguments = call_parts(call)
        if callee is not None and arguments is not None and callee.type == "identifier":
            calls.setdefault(ctx.tree.text(callee), []).append((arguments, list(arguments.named_children)))
    definitions: dict[str, list[Node]] = {}
    for function in ctx.tree.named("function_definition", "method_declaration"):
        signature = function_signature(ctx.tree, function)
        parameters = parameter_list(function)
        if signature is not None and parameters is not None:
            definitions.setdefault(signature[0], []).append(parameters)
    for name, uses in calls.items():
        if len(definitions.get(name, [])) != 1:
            continue
        parameters = definitions[name][0]
        declared = [node for node in parameters.named_children if "parameter" in node.type]
        for arguments, given in uses:
            if line_of(arguments) not in lines or abs(len(given) - len(declared)) != 1:
                continue
            if len(given) > len(declared):
                for index in range(len(given)):
                    kept = [ctx.tree.text(node) for i, node in enumerate(given) if i != index]
                    yield _relisted(ctx, [(arguments, kept)], f"drop argument {index + 1} of {name}(...)")
                continue
            for index, parameter in enumerate(declared):
                variable = _declared_name(ctx, parameter)
                if variable is None:
                    continue
                passed = [ctx.tree.text(node) for node in given]
                # what a call of the same function nearby passes there (``dfs(root->left, depth + 1)`` beside
                # ``dfs(root->right)``), the nearest first: the lost argument was most likely written like it
                siblings = sorted(
                    (g for _, g in uses if len(g) == len(declared)),
                    key=lambda g: abs(line_of(g[index]) - line_of(arguments)),
                )
                for sibling in dict.fromkeys(ctx.tree.text(g[index]) for g in siblings):
                    if sibling != variable:
                        yield _relisted(ctx, [(arguments, [*passed[:index], sibling, *passed[index:]])],
                                        f"pass '{shortened(sibling)}' to {name}(...) as another call does")  # fmt: skip
                if variable in ctx.declared_names:
                    yield _relisted(ctx, [(arguments, [*passed[:index], variable, *passed[index:]])],
                                    f"pass '{variable}' to {name}(...)")  # fmt: skip
                others = [(a, [ctx.tree.text(n) for i, n in enumerate(g) if i != index])
                          for a, g in uses if len(g) == len(declared)]  # fmt: skip
                kept = [ctx.tree.text(node) for i, node in enumerate(declared) if i != index]
                yield _relisted(ctx, [(parameters, kept), *others], f"drop parameter '{variable}' of {name}(...)")


def _declared_name(ctx: EditContext, parameter: Node) -> str | None:
    names = [node for node in ctx.tree.walk(parameter) if node.type == "identifier"]
    return ctx.tree.text(names[-1]) if names else None


def _relisted(ctx: EditContext, lists: list[tuple[Node, list[str]]], description: str) -> Candidate:
    """``ctx.source`` with each bracketed list (arguments or parameters) holding the given items instead."""
    source = ctx.source
    for node, items in sorted(lists, key=lambda pair: ctx.tree.span(pair[0])[0], reverse=True):
        start, end = ctx.tree.span(node)
        source = source[:start] + "(" + ", ".join(items) + ")" + source[end:]
    return ctx.make(P_HIGH, "match_arity", "reference", line_of(lists[0][0]), description, source,
                    "undefined methods")  # fmt: skip


def structure_repairs(ctx: EditContext, lexed: LineTokens) -> Iterator[Candidate]:
    """Every operator of this module."""
    yield from indentation_brace_repairs(ctx, lexed)
    yield from opening_brace_repairs(ctx, lexed)
    yield from mismatched_bracket_repairs(ctx, lexed)
    yield from wrong_closer_repairs(ctx, lexed)
    yield from stray_brace_repairs(ctx, lexed)
    yield from error_line_phrase_repairs(ctx)
    yield from commented_code_repairs(ctx, lexed)
    yield from trailing_text_repairs(ctx, lexed)
    yield from literal_kind_repairs(ctx, lexed)
    yield from member_shape_repairs(ctx)
    yield from lost_call_repairs(ctx)
    yield from lost_parameter_repairs(ctx)
    yield from arity_repairs(ctx)
    yield from missing_declaration_repairs(ctx)
    yield from class_wrapper_repairs(ctx)
    yield from out_of_class_declaration_repairs(ctx)
