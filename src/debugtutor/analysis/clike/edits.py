"""Single edits of C++ and Java programs, for repair and for bug injection (mutation), over the DebugBench taxonomy.

``candidate_edits(source, language, direction="repair", diagnostics=...)`` yields fix-oriented edits, most plausible
first. Syntax repairs start from where tree-sitter assumed a missing token and from the compiler's error lines: add
a ``;`` or ``:``, close or drop a bracket, close or drop a string, repair a comment mark, ``=`` <-> ``==``, braces
around a body that its indentation says is longer, drop a ``;`` that empties a loop or ``if``, a lone ``!`` between
two operands to ``!=`` or ``==``, a separator inserted where the compiler points inside a line, one more pair of
parentheses around a condition that closed too early, drop a character no expression holds. Reference repairs
start from the undeclared names and members the compiler names: translate a keyword of another language, rename to
the closest declared name, a type nothing declares to the types the program writes or LeetCode signatures use,
uncomment the declaration a comment hid, unwrap or drop a call to something undefined, and on a line the compiler
cannot type, keep one operand of an operator that cannot take both. Logic edits
(:mod:`debugtutor.analysis.clike.edits_logic`) swap operators, names and variables, shift bounds and indices by one,
negate conditions, delete or swap statements, drop a call from a chain and exchange a name between two statements.
``direction="mutate"`` yields the bug-injecting counterparts, each labelled with its DebugBench minor type.

Every edit is a string substitution at tree-sitter or lexer positions, so everything outside the changed span stays
byte for byte; edits never add or remove lines except inserted ``}`` lines.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Sequence
from difflib import SequenceMatcher
from itertools import pairwise

from tree_sitter import Node

from debugtutor.analysis.clike.context import (
    P_FIRST,
    P_HIGH,
    P_LAST,
    P_LOW,
    P_MID,
    Candidate,
    EditContext,
    LineTokens,
    code_end,
    line_bounds,
    source_lines,
)
from debugtutor.analysis.clike.diagnostics import FOREIGN_MEMBERS, FOREIGN_WORDS
from debugtutor.analysis.clike.edits_logic import LOGIC_OPERATORS, NUMERAL_TYPES, shortened
from debugtutor.analysis.clike.edits_names import LIBRARY_CALLS, name_repairs
from debugtutor.analysis.clike.edits_structure import structure_repairs
from debugtutor.analysis.clike.nulls import (
    null_argument_edits,
    null_initialisation_edits,
    uninitialised_value_repairs,
    unmade_object_repairs,
    unsized_vector_repairs,
)
from debugtutor.analysis.clike.smells import index_past_end
from debugtutor.analysis.clike.syntax_tree import (
    BRACKET_PAIRS,
    COMMENT_TYPES,
    ELEMENT_READS,
    FUNCTION_TYPES,
    STATEMENT_TYPES,
    CompiledLanguage,
    SyntaxTree,
    Token,
    code_tokens,
    enclosing,
    end_line_of,
    function_signature,
    indent_width,
    line_of,
    operator_token,
    parse,
    typed_declarators,
)
from debugtutor.analysis.edits._base import ALL_CATEGORIES, Direction, Edit
from debugtutor.analysis.static import Diagnostic

# Diagnostics that do not stop compilation (warnings and pattern findings about code that compiles).
NON_BLOCKING_CODES = frozenset({"assignment-in-condition", "comparison-statement"})
_MISSING_BUG = {";": "missing colons", ":": "missing colons", ")": "unclosed parentheses",
                "]": "unclosed parentheses", "}": "unclosed parentheses", "(": "unclosed parentheses"}  # fmt: skip


def blocks_compilation(diagnostic: Diagnostic) -> bool:
    return diagnostic.category in ("syntax", "reference") and diagnostic.code not in NON_BLOCKING_CODES


# ---------------------------------------------------------------------------------------------------------------
# Syntax repairs.


def _error_lines(ctx: EditContext) -> list[int]:
    lines = [d.line for d in ctx.diagnostics if blocks_compilation(d) and d.category == "syntax"]
    lines += [line_of(node) for node in ctx.tree.error_nodes()]
    return [line for line in dict.fromkeys(lines) if ctx.wanted(line) or ctx.wanted(line - 1)]


def missing_token_repairs(ctx: EditContext) -> Iterator[Candidate]:
    for node in ctx.tree.error_nodes():
        if not node.is_missing or not ctx.wanted(line_of(node)):
            continue
        token = node.type
        if not re.fullmatch(r"[;:)\]}(]|\w+", token) or (token.isidentifier() and token != "while"):
            continue
        start, _ = ctx.tree.span(node)
        yield ctx.replace_span(P_FIRST, "insert_missing_token", "syntax", line_of(node), start, start, token,
                               f"insert the missing '{token}'", _MISSING_BUG.get(token, ""))  # fmt: skip


def _for_each_colons(ctx: EditContext, line: int, code: Sequence[Token]) -> Iterator[Candidate]:
    """The ':' of a for-each header written as ',' or ';' (``for (Map.Entry<K, V> e, m.entrySet())``, ``for (auto x;
    v)``): each separator inside a ``for`` header on the line that has no ':' and fewer than two ';' (a counting
    loop has two)."""
    for index, token in enumerate(code):
        if token.text != "for" or index + 1 >= len(code) or code[index + 1].text != "(":
            continue
        depth, separators, closed = 0, list[Token](), False
        for inner in code[index + 1 :]:
            if inner.text in ("(", "[", "{"):
                depth += 1
            elif inner.text in (")", "]", "}"):
                depth -= 1
                if depth == 0:
                    closed = True
                    break
            elif depth == 1 and inner.text in (",", ";", ":"):
                separators.append(inner)
        texts = [separator.text for separator in separators]
        if not closed or ":" in texts or texts.count(";") >= 2:
            continue
        for separator in separators:
            yield ctx.replace_span(P_HIGH, "for_each_colon", "syntax", line, separator.start, separator.end, ":",
                                   f"'{separator.text}' -> ':' in a for-each header", "missing colons")  # fmt: skip


_EXPECTED_SEPARATOR = re.compile(r"^expected '([;,:])' before|^'([;,:])' expected")


def separator_repairs(ctx: EditContext, lexed: LineTokens) -> Iterator[Candidate]:
    """A ``;`` at the end of the error line or the code line before it; a ``:`` after an access label or case."""
    source = ctx.source
    for line in _error_lines(ctx):
        previous = next((n for n in range(line - 1, 0, -1) if lexed.code_on(n)), None)
        for target in (line, previous):
            if target is None:
                continue
            code = lexed.code_on(target)
            if not code or code[-1].text in (";", "{", "}", ",", ":", "(", "&&", "||", "+", "<<"):
                continue
            end = code_end(source, target, code)
            yield ctx.replace_span(P_HIGH, "insert_semicolon", "syntax", target, end, end, ";",
                                   "add the missing ';'", "missing colons")  # fmt: skip
        for token in lexed.code_on(line):
            if token.text in ("public", "private", "protected", "default") or token.text == "case":
                following = next((t for t in lexed.code_on(line) if t.start > token.start and t.text == ":"), None)
                if following is None:
                    end = code_end(source, line, lexed.code_on(line))
                    insert_at = token.end if token.text != "case" else end
                    if token.text == "case":
                        code = lexed.code_on(line)
                        after = [t for t in code if t.start > token.start]
                        insert_at = after[0].end if after else token.end
                    yield ctx.replace_span(P_HIGH, "insert_colon", "syntax", line, insert_at, insert_at, ":",
                                           f"add ':' after '{token.text}'", "missing colons")  # fmt: skip
        yield from _for_each_colons(ctx, line, lexed.code_on(line))
        for token in lexed.code_on(line):
            if token.text == ",":
                yield ctx.replace_span(P_LOW, "comma_to_semicolon", "syntax", line, token.start, token.end, ";",
                                       "',' -> ';'", "illegal separation")  # fmt: skip
            elif token.text == ";" and ctx.language == "cpp":
                yield ctx.replace_span(P_LAST, "semicolon_to_comma", "syntax", line, token.start, token.end, ",",
                                       "';' -> ','", "illegal separation")  # fmt: skip
    for diagnostic in ctx.diagnostics:
        # "expected ';' before 'i'" (g++), "';' expected" (javac) inside a line (``for (...; i <= n i++)``): the
        # column says where it goes
        expected = _EXPECTED_SEPARATOR.search(diagnostic.message)
        if expected is None or diagnostic.category != "syntax" or not ctx.wanted(diagnostic.line):
            continue
        line_start = line_bounds(source, diagnostic.line)[0]
        at = line_start + diagnostic.column
        if line_start < at < code_end(source, diagnostic.line, lexed.code_on(diagnostic.line)):
            separator = expected.group(1) or expected.group(2)
            assigned = _bare_target(lexed.code_on(diagnostic.line), at) if separator == ";" else None
            if assigned is not None:
                # ``ans min(ans, x);``: a ';' there would leave ``ans;``, a statement that does nothing; the
                # assignment the line meant is the likelier mend
                assignment = " =" if source[at].isspace() else "= " if source[at - 1].isspace() else " = "
                yield ctx.replace_span(P_HIGH, "insert_assignment", "syntax", diagnostic.line, at, at, assignment,
                                       f"assign to '{assigned}' what follows it", "missing colons")  # fmt: skip
            yield ctx.replace_span(P_HIGH if assigned is None else P_MID, "insert_separator", "syntax",
                                   diagnostic.line, at, at, separator, f"insert the expected '{separator}'",
                                   "missing colons")  # fmt: skip


_NOT_ASSIGNABLE = {
    "return", "else", "do", "break", "continue", "goto", "case", "default", "new", "delete", "throw", "const", "static",
    "int", "long", "short", "char", "bool", "boolean", "float", "double", "void", "auto", "var", "unsigned", "signed",
}  # fmt: skip


def _bare_target(code: Sequence[Token], at: int) -> str | None:
    """The variable (``ans``, ``dp[i]``, ``this.x``) that the statement broken at offset ``at`` consists of so far,
    when it consists of nothing else; else None."""
    start = max((index + 1 for index, token in enumerate(code) if token.start < at and token.text in ";{}"), default=0)
    before = [token for token in code[start:] if token.start < at]
    if not before or before[0].kind != "word" or before[0].text in _NOT_ASSIGNABLE:
        return None
    depth, previous = 0, None
    for token in before[1:]:
        if token.text in ("[", "("):
            depth += 1
        elif token.text in ("]", ")"):
            depth -= 1
        elif depth == 0 and not (token.text in (".", "->") or (token.kind == "word" and previous in (".", "->"))):
            return None
        previous = token.text
    if depth != 0 or before[-1].text in (".", "->") or (len(before) > 1 and before[1].text == "("):
        return None
    return "".join(token.text for token in before)


# Words that begin a statement and never stand inside an expression.
_STATEMENT_KEYWORDS = frozenset({"return", "break", "continue", "throw"})


def bracket_repairs(ctx: EditContext, lexed: LineTokens) -> Iterator[Candidate]:
    """Close a bracket the line leaves open (at the places a closer can go), or drop one it never opened.

    Besides the error lines: the code line before each (``while (i < n`` with its ``{`` on the next line is an error
    there) and a line an error says a bracket was opened on (where the brackets first balance again, far below)."""
    source = ctx.source
    errors = _error_lines(ctx)
    opened_on = [
        int(found.group(1))
        for diagnostic in ctx.diagnostics
        if blocks_compilation(diagnostic)
        for found in [re.search(r"opened on line (\d+)", diagnostic.message)]
        if found is not None
    ]
    before = [next((n for n in range(line - 1, 0, -1) if lexed.code_on(n)), 0) for line in errors]
    for line in dict.fromkeys([*errors, *before, *opened_on]):
        if not line or not ctx.wanted(line):
            continue
        code = lexed.code_on(line)
        for opener, closer in (("(", ")"), ("[", "]")):
            opened = sum(1 for t in code if t.text == opener)
            closed = sum(1 for t in code if t.text == closer)
            if opened > closed:
                spots: list[int] = []
                for index, token in enumerate(code):
                    following = code[index + 1] if index + 1 < len(code) else None
                    if following is not None and following.text in ("{", ";", "&&", "||", ")", "?", ",", "]"):
                        spots.append(token.end)
                    elif following is not None and following.text in _STATEMENT_KEYWORDS and index > 0:
                        # ``if (v > limit return v;``: a header's condition ends where a statement begins
                        spots.append(token.end)
                spots.append(code_end(source, line, code))
                if code and code[-1].text in (";", "{"):
                    spots.append(code[-1].start)
                missing = opened - closed
                for rank, spot in enumerate(dict.fromkeys(reversed(spots))):
                    yield ctx.replace_span(P_HIGH if rank < 3 else P_MID, "close_bracket", "syntax", line, spot,
                                           spot, closer, f"add '{closer}'", "unclosed parentheses")  # fmt: skip
                    if missing > 1 and rank < 3:
                        # ``isdigit(s[i] {``: every bracket the line leaves open closes at once
                        yield ctx.replace_span(P_HIGH, "close_bracket", "syntax", line, spot, spot, closer * missing,
                                               f"add '{closer * missing}'", "unclosed parentheses")  # fmt: skip
                # ``hrns[n / 100 + tens[t]]``: the closer belongs inside the expression, before an operator that
                # joins the bracket's value to the next term (the compiler's types rule out most such places)
                for spot in _operator_spots(code, opener, exclude=set(spots)):
                    yield ctx.replace_span(P_LOW, "close_bracket", "syntax", line, spot, spot, closer,
                                           f"add '{closer}'", "unclosed parentheses")  # fmt: skip
            if closed > opened:
                for token in reversed([t for t in code if t.text == closer]):
                    yield ctx.replace_span(P_HIGH, "drop_bracket", "syntax", line, token.start, token.end, "",
                                           f"drop an unmatched '{closer}'", "unclosed parentheses")  # fmt: skip
            if opened > closed:
                for token in [t for t in code if t.text == opener]:
                    yield ctx.replace_span(P_MID, "drop_bracket", "syntax", line, token.start, token.end, "",
                                           f"drop an unmatched '{opener}'", "unclosed parentheses")  # fmt: skip
    yield from _brace_repairs(ctx, lexed)


BINARY_OPERATORS = frozenset({"+", "-", "*", "/", "%", "<", ">", "<=", ">=", "==", "!=", "&", "|", "^", "<<", ">>"})
"""Operators that join two terms, before which a bracket the line leaves open may have been meant to close."""


def _operator_spots(code: Sequence[Token], opener: str, exclude: Collection[int]) -> list[int]:
    """Offsets just before each binary operator after the line's first ``opener`` that no closer matches (a term
    ends there), other than ``exclude``; the line opens more ``opener`` than it closes."""
    closer = BRACKET_PAIRS[opener]
    open_at: list[int] = []
    for index, token in enumerate(code):
        if token.text == opener:
            open_at.append(index)
        elif token.text == closer and open_at:
            open_at.pop()
    spots = []
    for index in range(open_at[0] + 2, len(code)):
        token, previous = code[index], code[index - 1]
        ends_term = previous.kind in ("word", "number") or previous.text in (")", "]")
        if token.text in BINARY_OPERATORS and ends_term and previous.end not in exclude:
            spots.append(previous.end)
    return spots


def early_condition_repairs(ctx: EditContext, lexed: LineTokens) -> Iterator[Candidate]:
    """``if (a && b) || (c)``: the condition's parenthesis closes before an ``&&``/``||`` that goes on; one more pair
    around the whole condition (``if ((a && b) || (c))``)."""
    for line in _error_lines(ctx):
        code = lexed.code_on(line)
        keyword = next(
            (i for i, t in enumerate(code[:-1]) if t.text in ("if", "while") and code[i + 1].text == "("), None
        )
        if keyword is None or sum(t.text == "(" for t in code) != sum(t.text == ")" for t in code):
            continue
        opening, depth, closing = keyword + 1, 0, None
        for index in range(opening, len(code)):
            depth += {"(": 1, ")": -1}.get(code[index].text, 0)
            if depth == 0:
                closing = index
                break
        if closing is None or closing + 1 >= len(code) or code[closing + 1].text not in ("&&", "||"):
            continue
        last = len(code) - 1 - (code[-1].text == "{")
        if code[last].text != ")" or last <= closing:
            continue
        start, end = code[opening].end, code[last].end
        yield ctx.replace_span(P_HIGH, "wrap_condition", "syntax", line, start, end,
                               "(" + ctx.source[start:end] + ")", "one pair of parentheses around the whole condition",
                               "unclosed parentheses")  # fmt: skip


COMPARING = frozenset({"==", "!=", "<", ">", "<=", ">=", "&&", "||"})
NOT_CALLS = frozenset({"if", "while", "for", "switch", "return", "catch", "sizeof", "synchronized"})
BOOLEAN_ARGUMENT = re.compile(
    r"\(\s*(?:bool|boolean)\s*\)|\bbool(?:ean)?\b.*cannot be converted|"
    r"(?:bool|boolean)\W+(?:and|to)\W+\w+|invalid operands"
)


def misplaced_closer_repairs(ctx: EditContext, lexed: LineTokens) -> Iterator[Candidate]:
    """``Math.abs(a - b == k)``: a call's ``)`` put after the comparison that was to take the call's answer, moved
    in front of the operator (``Math.abs(a - b) == k``). First on a line whose compiler finding says a call got a
    boolean (the comparison's answer); late elsewhere (C++ converts the boolean and compiles it)."""
    told = {d.line for d in ctx.diagnostics if blocks_compilation(d) and BOOLEAN_ARGUMENT.search(d.message)}
    # (a call's arguments, not a declaration's parameters: ``f(vector<int>& v)`` has no comparison in it)
    calls = {ctx.tree.span(node)[0] for node in ctx.tree.named("argument_list")}
    for line in sorted({token.line for token in lexed.all if token.text == "("}):
        if not ctx.wanted(line):
            continue
        code = lexed.code_on(line)
        for index, token in enumerate(code):
            callee = code[index - 1] if index else None
            if token.text != "(" or callee is None or callee.kind != "word" or callee.text in NOT_CALLS:
                continue
            if token.start not in calls:
                continue
            depth, operators, closing = 0, list[int](), None
            for inner in range(index, len(code)):
                text = code[inner].text
                if text in ("(", "["):
                    depth += 1
                elif text in (")", "]"):
                    depth -= 1
                    if depth == 0:
                        closing = inner
                        break
                elif depth == 1 and text in COMPARING and inner - 1 > index:
                    operators.append(inner)
            if closing is None or code[closing].text != ")":
                continue
            for operator in operators:
                start, end = code[operator - 1].end, code[closing].end
                moved = ")" + ctx.source[start : code[closing].start]
                yield ctx.replace_span(P_HIGH if line in told else P_LOW, "move_bracket", "syntax", line, start, end,
                                       moved, f"close {callee.text}( before '{code[operator].text}'",
                                       "unclosed parentheses")  # fmt: skip


END_OF_FILE = re.compile(r"end of (?:file|input)")


def _turned_braces(lexed: LineTokens, lines: list[str]) -> Iterator[Token]:
    """Each ``{`` alone on its line whose next code line is not indented deeper: a block's closer written the wrong
    way round (the lines it should have closed stand above it, the ones after it at the outer level)."""
    for token in lexed.all:
        if token.text != "{" or token.kind != "symbol" or [t.text for t in lexed.code_on(token.line)] != ["{"]:
            continue
        following = next((n for n in range(token.line + 1, len(lines) + 1) if lexed.code_on(n)), None)
        if following is not None and indent_width(lines[following - 1]) <= indent_width(lines[token.line - 1]):
            yield token


def _brace_repairs(ctx: EditContext, lexed: LineTokens) -> Iterator[Candidate]:
    depth = 0
    stack: list[Token] = []
    unmatched: list[Token] = []
    for token in lexed.all:
        if token.kind != "symbol":
            continue
        if token.text == "{":
            stack.append(token)
            depth += 1
        elif token.text == "}":
            if stack:
                stack.pop()
            else:
                unmatched.append(token)
    lines = source_lines(ctx.source)
    for token in unmatched:
        if ctx.wanted(token.line) or ctx.lines is None:
            yield ctx.replace_span(P_HIGH, "drop_brace", "syntax", token.line, token.start, token.end, "",
                                   "drop an unmatched '}'", "unclosed parentheses")  # fmt: skip
    if stack:
        # (the compiler names only the file's end, where the braces run out: the turned brace may be anywhere)
        at_end = any(END_OF_FILE.search(d.message) for d in ctx.diagnostics if blocks_compilation(d))
        for token in _turned_braces(lexed, lines):
            if ctx.wanted(token.line) or at_end:
                yield ctx.replace_span(P_HIGH, "turn_brace", "syntax", token.line, token.start, token.end, "}",
                                       "'{' -> '}'", "unclosed parentheses")  # fmt: skip
    for token in stack[-2:]:
        # a block that never closes: close it where the indentation falls back to its opening line's
        opening_indent = indent_width(lines[token.line - 1])
        closes = 0
        for number in range(token.line + 1, len(lines) + 1):
            text = lines[number - 1]
            if not text.strip():
                continue
            following = next((n for n in range(number + 1, len(lines) + 1) if lines[n - 1].strip()), None)
            if following is None or indent_width(lines[following - 1]) <= opening_indent:
                _, end = line_bounds(ctx.source, number)
                yield ctx.replace_span(P_HIGH if closes == 0 else P_MID, "close_brace", "syntax", number, end, end,
                                       " }", "add the missing '}'", "unclosed parentheses")  # fmt: skip
                closes += 1
                if closes >= 3:
                    break


def string_repairs(ctx: EditContext, lexed: LineTokens) -> Iterator[Candidate]:
    """Close a string or character literal where the line's code goes on, or drop its quote, or the statement."""
    source = ctx.source
    for token in lexed.all:
        if token.kind not in ("string", "char") or token.closed or not ctx.wanted(token.line):
            continue
        quote = token.text[0]
        what = "string" if token.kind == "string" else "character literal"
        bug = "unclosed string"
        spots = [m.start() + token.start for m in re.finditer(r"[;),+\]}]|<<|\s\S", token.text[1:])]
        spots = [spot + 1 for spot in spots]
        spots.append(token.end)
        text = source[token.start : token.end]
        trailing = len(text) - len(text.rstrip())
        if trailing:
            spots.append(token.end - trailing)
        # brackets the line opened before the string and the string swallowed the closers of (``{"+", "/;``)
        still_open: list[str] = []
        for earlier in lexed.code_on(token.line):
            if earlier.start >= token.start:
                break
            if earlier.text in BRACKET_PAIRS:
                still_open.append(BRACKET_PAIRS[earlier.text])
            elif earlier.text in BRACKET_PAIRS.values() and still_open and still_open[-1] == earlier.text:
                still_open.pop()
        closers = "".join(reversed(still_open))
        # (a name the statement goes on from: ``"s;``, ``"s2[j]) {``, ``"temp.trim();``)
        named = re.match(r"([A-Za-z_]\w*)\s*(?:[;),+\]}\[]|\.\s*[A-Za-z_]|$)", token.text[1:])
        # (the code after an open quote does not parse: the name's other uses, not the tree, tell it is a name;
        # ``string type = "type;`` spells the variable's own name, a string)
        own = named is not None and re.search(rf"\b{named.group(1)}\s*=\s*$", source[: token.start]) is not None
        if named is not None and not own and any(t.kind == "word" and t.text == named.group(1) for t in lexed.all):
            # ``return "s;`` where ``s`` is a variable: a quote put before a name (or an expression that starts with
            # one), not a string cut short
            yield ctx.replace_span(P_HIGH, "drop_quote", "syntax", token.line, token.start, token.start + 1, "",
                                   "drop the stray quote", bug)  # fmt: skip
        if closers:
            # ``v[s[i]-'a' "=i;``: the quote stands where the bracket the line left open closed
            yield ctx.replace_span(P_HIGH, "quote_to_bracket", "syntax", token.line, token.start, token.start + 1,
                                   closers[0], f"the stray quote -> '{closers[0]}'", bug)  # fmt: skip
        for rank, spot in enumerate(dict.fromkeys(spots)):
            yield ctx.replace_span(P_HIGH if rank < 3 else P_MID, "close_string", "syntax", token.line, spot, spot,
                                   quote, f"close the {what}", bug)  # fmt: skip
            if closers and rank < 3:
                yield ctx.replace_span(P_HIGH, "close_string", "syntax", token.line, spot, spot, quote + closers,
                                       f"close the {what} and the brackets before it", bug)  # fmt: skip
        yield ctx.replace_span(P_MID, "drop_quote", "syntax", token.line, token.start, token.start + 1, "",
                               "drop the stray quote", bug)  # fmt: skip
        # an appended half statement (`string s = "never closed`): drop it from its start
        line_start, _ = line_bounds(source, token.line)
        before = [t for t in lexed.on(token.line) if t.end <= token.start and t.kind != "comment"]
        cut = next((t.end for t in reversed(before) if t.text in (";", "{", "}")), None)
        if cut is not None:
            yield ctx.replace_span(P_MID, "drop_unclosed_statement", "syntax", token.line, cut, token.end, "",
                                   "drop the unfinished statement", bug)  # fmt: skip
        yield ctx.replace_span(P_LOW, "drop_line", "syntax", token.line, line_start, token.end, "",
                               "drop the line", bug)  # fmt: skip


def comment_repairs(ctx: EditContext, lexed: LineTokens, compiles: bool) -> Iterator[Candidate]:
    """``#`` comments to ``//``, unterminated or stray block-comment marks dropped, commented-out code restored."""
    source = ctx.source
    undeclared = {d.symbol for d in ctx.diagnostics if d.symbol and d.code == "undeclared-name"}
    for token in lexed.all:
        line = token.line
        if token.kind == "comment" and token.text.startswith("/*") and not token.closed and ctx.wanted(line):
            yield ctx.replace_span(P_HIGH, "drop_comment_mark", "syntax", line, token.start, token.start + 2, "",
                                   "drop the '/*' that never closes", "illegal comment")  # fmt: skip
            line_end = line_bounds(source, line)[1]
            yield ctx.replace_span(P_MID, "close_comment", "syntax", line, line_end, line_end, " */",
                                   "close the comment on its line", "illegal comment")  # fmt: skip
        elif token.kind == "symbol" and token.text == "#" and ctx.wanted(line):
            yield ctx.replace_span(P_HIGH, "fix_comment_mark", "syntax", line, token.start, token.end, "//",
                                   "'#' -> '//'", "illegal comment")  # fmt: skip
        elif token.kind == "symbol" and token.text == "*" and source.startswith("*/", token.start) and ctx.wanted(line):
            yield ctx.replace_span(P_HIGH, "drop_comment_mark", "syntax", line, token.start, token.start + 2, "",
                                   "drop the stray '*/'", "illegal comment")  # fmt: skip
        elif token.kind == "comment" and (ctx.wanted(line) or undeclared):
            inner = token.text[2:-2] if token.text.startswith("/*") else token.text[2:]
            stripped = inner.strip()
            declares = any(re.search(rf"\b{re.escape(name)}\b", stripped) for name in undeclared)
            looks_like_code = bool(re.search(r"[;{}]\s*$|^\s*(?:if|for|while|return|else)\b", stripped))
            # (a block comment counts too unless it is documentation: LeetCode's "/** Definition for ..." headers
            # hold a class)
            hides_code = looks_like_code and ctx.wanted(line) and not token.text.startswith("/**")
            if declares or hides_code:
                priority = P_FIRST if declares else (P_LOW if compiles else P_MID)
                yield ctx.replace_span(priority, "uncomment", "syntax", line, token.start, token.end, inner,
                                       "restore the commented-out code", "illegal comment")  # fmt: skip
            glued = token.start > 0 and (source[token.start - 1].isalnum() or source[token.start - 1] in ")]_")
            block = token.text.startswith("/*") and not token.text.startswith("/**")
            after_header = source[: token.start].rstrip().endswith(")")
            if block and ctx.wanted(line) and after_header and inner.count("}") > inner.count("{"):
                # ``f(int x) /* body } */``: the marks stand where the body's opening brace and the next closing
                # brace were (the comment ends past the body's own closer)
                braced = "{" + inner + "}"
                yield ctx.replace_span(P_HIGH, "comment_marks_to_braces", "syntax", line, token.start, token.end,
                                       braced, "'/*' and '*/' -> '{' and '}'", "illegal comment")  # fmt: skip
            if glued and block and ctx.wanted(line) and _OPERAND.fullmatch(inner):
                # ``(100 - discount)/*100d*/``: the '/' of a division glued to its divisor began a comment, which
                # swallowed the divisor (and the program still compiles)
                yield ctx.replace_span(P_HIGH, "comment_to_division", "syntax", line, token.start, token.end,
                                       f"/{inner}", f"'{token.text}' -> '/{inner}'", "illegal comment")  # fmt: skip


_OPERAND = re.compile(r"\(*[\w.]+(\[[^\]]*\]|\([^)]*\))*\)*")


def assignment_repairs(ctx: EditContext) -> Iterator[Candidate]:
    """``=`` in a condition -> ``==``; ``==`` as a statement (or returned) -> ``=``."""
    for node in ctx.tree.named("assignment_expression"):
        operator = operator_token(node)
        if operator is None or operator.type != "=" or not ctx.wanted(line_of(node)):
            continue
        parent = node.parent
        in_condition = parent is not None and (
            parent.type in ("condition_clause", "parenthesized_expression", "binary_expression", "unary_expression",
                            "conditional_expression", "ternary_expression", "argument_list", "return_statement")
            or (parent.type == "for_statement" and parent.child_by_field_name("condition") == node)
        )  # fmt: skip
        if in_condition:
            yield ctx.edit_at(P_FIRST, "assignment_to_comparison", "syntax", operator, "==", "'=' -> '=='",
                              "misused == or =")  # fmt: skip
    for node in ctx.tree.named("binary_expression"):
        operator = operator_token(node)
        if operator is None or operator.type != "==" or not ctx.wanted(line_of(node)):
            continue
        parent = node.parent
        if parent is not None and parent.type in ("expression_statement", "return_statement"):
            yield ctx.edit_at(P_FIRST if parent.type == "expression_statement" else P_MID,
                              "comparison_to_assignment", "syntax", operator, "=", "'==' -> '='",
                              "misused == or =")  # fmt: skip
    # ``if (s[i] = 'a' || s[i] = 'e')``: every test in a condition written with '=' (the compiler stops at the first
    # one it cannot assign to, and no single '==' compiles)
    for condition in ctx.tree.named("condition_clause", "parenthesized_expression"):
        if condition.parent is None or condition.parent.type not in ("if_statement", "while_statement"):
            continue
        operators = [
            operator
            for node in ctx.tree.walk(condition)
            if node.type == "assignment_expression"
            for operator in [operator_token(node)]
            if operator is not None and operator.type == "="
        ]
        if len(operators) >= 2 and ctx.wanted(line_of(condition)):
            source = ctx.source
            for start, end in sorted((ctx.tree.span(operator) for operator in operators), reverse=True):
                source = source[:start] + "==" + source[end:]
            yield ctx.make(P_FIRST, "assignment_to_comparison", "syntax", line_of(condition),
                           "every '=' in the condition -> '=='", source, "misused == or =")  # fmt: skip
    # a compile error on a line with a lone '=' where a value is expected: try '==' there
    for diagnostic in ctx.diagnostics:
        if diagnostic.code not in ("assignment-to-value", "condition-not-boolean", "type-mismatch"):
            continue
        start, end = line_bounds(ctx.source, diagnostic.line)
        for found in re.finditer(r"(?<![=!<>+\-*/%&|^])=(?!=)", ctx.source[start:end]):
            position = start + found.start()
            yield ctx.replace_span(P_HIGH, "assignment_to_comparison", "syntax", diagnostic.line, position,
                                   position + 1, "==", "'=' -> '=='", "misused == or =")  # fmt: skip


def separation_repairs(ctx: EditContext) -> Iterator[Candidate]:
    """Drop a ``;`` (or ``{}`` over a line indented deeper) that empties a loop or ``if``; brace an unbraced body
    over the lines indented with it (a body on the header's line, over the lines indented deeper than the header)."""
    lines = source_lines(ctx.source)
    for node in ctx.tree.named("if_statement", "for_statement", "while_statement", "for_range_loop",
                               "enhanced_for_statement", "else_clause"):  # fmt: skip
        body = node.child_by_field_name("body") or node.child_by_field_name("consequence")
        if node.type == "else_clause":
            body = node.named_children[-1] if node.named_children else None
        if body is None:
            continue
        header_line = line_of(node)
        # C++ reads the lone ';' as an empty expression statement, Java's grammar as the bare ';' token
        if body.type in ("expression_statement", ";") and ctx.tree.text(body).strip() == ";":
            if ctx.wanted(header_line) or ctx.wanted(line_of(body)):
                yield ctx.delete_node(P_HIGH, "drop_empty_body", "syntax", body, "drop the ';' that ends the header",
                                      "illegal separation")  # fmt: skip
            continue
        if body.type in ("compound_statement", "block"):
            # (`if (...) {}` over a statement indented deeper: the braces empty the body the indentation gives it)
            after = next((n for n in range(body.end_point[0] + 2, len(lines) + 1) if lines[n - 1].strip()), None)
            if (
                not body.named_children
                and body.end_point[0] + 1 == header_line
                and after is not None
                and indent_width(lines[after - 1]) > indent_width(lines[header_line - 1])
                and not lines[after - 1].strip().startswith("}")
                and (ctx.wanted(header_line) or ctx.wanted(after))
            ):
                yield ctx.delete_node(P_HIGH, "drop_empty_body", "syntax", body, "drop the '{}' that ends the header",
                                      "illegal separation")  # fmt: skip
            continue
        body_line = line_of(body)
        run_end = body.end_point[0] + 1
        yield from _same_line_brace(ctx, header_line, body, run_end)
        if body_line == header_line:
            # (`while (n--) node = q.front(); q.pop();` over lines indented deeper than the header: the statements
            # after the body on its line and those lines are what the loop was written to run)
            following = next((n for n in range(run_end + 1, len(lines) + 1) if lines[n - 1].strip()), None)
            if following is None or lines[following - 1].strip().startswith("}"):
                continue
            body_indent = indent_width(lines[following - 1])
            if body_indent <= indent_width(lines[header_line - 1]):
                continue
        else:
            body_indent = indent_width(lines[body_line - 1])
        number, opened = run_end + 1, 0
        while number <= len(lines):
            text = lines[number - 1]
            # (a '}' closes the enclosing block, unless it closes a block opened on the lines taken so far)
            if text.strip() and (indent_width(text) < body_indent or (text.strip().startswith("}") and opened <= 0)):
                break
            if text.strip():
                run_end = number
                opened += text.count("{") - text.count("}")
            number += 1
        ends = [run_end, _loop_variable_reach(ctx, node, lines, body.end_point[0] + 1)]
        start, _ = ctx.tree.span(body)
        for last in sorted({end for end in ends if end > body.end_point[0] + 1}):
            if not (ctx.wanted(header_line) or any(ctx.wanted(n) for n in range(body_line, last + 1))):
                continue
            _, end = line_bounds(ctx.source, last)
            source = ctx.source[:start] + "{ " + ctx.source[start:end] + " }" + ctx.source[end:]
            yield ctx.make(P_HIGH, "brace_body", "syntax", header_line,
                           f"braces around lines {body_line}-{last}", source, "illegal separation")  # fmt: skip


def _same_line_brace(ctx: EditContext, header_line: int, body: Node, line: int) -> Iterator[Candidate]:
    """Braces around a braceless body and the statements after it on its line (``while (n--) node = q.front();
    q.pop();``: written on one line, they were meant to run together), up to a comment that ends the line."""
    if not (ctx.wanted(header_line) or ctx.wanted(line)):
        return
    start, body_end = ctx.tree.span(body)
    _, line_end = line_bounds(ctx.source, line)
    after = code_tokens(ctx.source[body_end:line_end])
    if not after or after[0].text in ("}", "else", "{") or after[-1].text not in (";", "}"):
        return
    end = body_end + after[-1].end
    source = ctx.source[:start] + "{ " + ctx.source[start:end] + " }" + ctx.source[end:]
    yield ctx.make(P_HIGH, "brace_body", "syntax", header_line,
                   f"braces around the body and the rest of line {line}", source, "illegal separation")  # fmt: skip


_LOOP_VARIABLE = re.compile(r"for\s*\(\s*[\w:.<>,\s*&]*?[\w>*&]\s+[*&]?\s*(\w+)\s*[=:]")


def _loop_variable_reach(ctx: EditContext, loop: Node, lines: list[str], body_end: int) -> int:
    """The last of the one-line statements right after a braceless ``for`` body that read the variable its header
    declares (0 when none does): out of the loop that variable is undeclared, so they were written to run in it
    (``for (int i = 0; ...) if (...) break; ans += s[i];``)."""
    if loop.type != "for_statement":
        return 0
    header = _LOOP_VARIABLE.match(ctx.tree.text(loop))
    if header is None:
        return 0
    reads = re.compile(rf"\b{re.escape(header.group(1))}\b")
    reach, number = 0, body_end + 1
    while number <= len(lines):
        text = lines[number - 1].strip()
        if text:
            if text.startswith("}") or not text.endswith(";") or not reads.search(text) or text.startswith("return"):
                break
            reach = number
        number += 1
    return reach


_BEFORE_TOKEN = re.compile(r"before '(.+?)' token|illegal start of expression|illegal character: '(.+?)'")


_NEVER_IN_CODE = frozenset({"@", "`", "\\"})


# what Java lets stand alone as a statement (and so as a part of a for header before or after its condition)
_STATEMENT_EXPRESSIONS = frozenset(
    {"assignment_expression", "update_expression", "method_invocation", "object_creation_expression"}
)


def idle_for_part_repairs(ctx: EditContext) -> Iterator[Candidate]:
    """A Java for header whose first or last part is a value that does nothing ("not a statement"): ``for (i; i <
    n; i++)`` after ``int i = 0;`` above it loses the ``i`` (the loop starts from the value it has), and ``for (...;
    i + 1)`` steps ``i += 1``."""
    if ctx.language != "java":
        return
    lines = {d.line for d in ctx.diagnostics if d.code == "not-a-statement" and ctx.wanted(d.line)}
    if not lines:
        return
    for loop in ctx.tree.named("for_statement"):
        if line_of(loop) not in lines:
            continue
        for part in loop.children_by_field_name("init"):
            if part.is_named and part.type not in _STATEMENT_EXPRESSIONS and part.type != "local_variable_declaration":
                yield ctx.edit_at(P_HIGH, "drop_idle_for_part", "syntax", part, "",
                                  f"drop '{shortened(ctx.tree.text(part))}' from the loop's start",
                                  "illegal keywords")  # fmt: skip
        for part in loop.children_by_field_name("update"):
            if part.type in _STATEMENT_EXPRESSIONS or not part.is_named:
                continue
            operator = operator_token(part) if part.type == "binary_expression" else None
            left = part.child_by_field_name("left")
            if operator is not None and operator.type in ("+", "-") and left is not None and left.type == "identifier":
                right = part.child_by_field_name("right")
                stepped = f"{ctx.tree.text(left)} {operator.type}= {ctx.tree.text(right) if right else '1'}"
                yield ctx.edit_at(P_HIGH, "step_idle_for_part", "syntax", part, stepped,
                                  f"'{shortened(ctx.tree.text(part))}' -> '{stepped}'", "misused == or =")  # fmt: skip


def stray_token_repairs(ctx: EditContext, lexed: LineTokens) -> Iterator[Candidate]:
    """Delete the token a parse error names (``expected unqualified-id before '/' token`` in ``nums1./end()``):
    a character typed where nothing may stand, the one nearest the reported column first. On any line that does not
    parse, a character no expression holds (``return @1.5;``)."""
    seen: set[int] = set()
    for diagnostic in ctx.diagnostics:
        if diagnostic.category != "syntax" or not ctx.wanted(diagnostic.line):
            continue
        found = _BEFORE_TOKEN.search(diagnostic.message)
        if found is None:
            continue
        named = found.group(1) or found.group(2)
        on_line = [
            t for t in lexed.code_on(diagnostic.line) if t.kind == "symbol" and (named is None or t.text == named)
        ]
        start_of_line = line_bounds(ctx.source, diagnostic.line)[0]
        on_line.sort(key=lambda t: abs(t.start - start_of_line - max(0, diagnostic.column - 1)))
        if on_line and diagnostic.message.startswith(("expected primary-expression before", "illegal start of expr")):
            # ``helper(arr=, i)``: an operator whose operand is missing stands just before the named token
            code = lexed.code_on(diagnostic.line)
            index = code.index(on_line[0])
            operator = code[index - 1] if index > 0 else None
            if operator is not None and operator.text in _BINARY_OPERATORS and operator.start not in seen:
                seen.add(operator.start)
                yield ctx.replace_span(P_MID, "drop_stray_token", "syntax", diagnostic.line, operator.start,
                                       operator.end, "", f"drop the stray '{operator.text}'",
                                       "illegal separation")  # fmt: skip
        for token in on_line[:2]:
            if token.start in seen or token.text in ("{", "}", ";"):
                continue
            seen.add(token.start)
            bug = "illegal comment" if token.text in ("/", "*") else "illegal separation"
            yield ctx.replace_span(P_MID, "drop_stray_token", "syntax", diagnostic.line, token.start, token.end, "",
                                   f"drop the stray '{token.text}'", bug)  # fmt: skip
    for line in _error_lines(ctx):
        code = lexed.code_on(line)
        for before, token in zip([None, *code], code):
            # '@' only starts an annotation (first on its line, or a parameter's); '`' and '\' nowhere in code
            annotation = token.text == "@" and (before is None or before.text in ("(", ","))
            if token.kind == "symbol" and token.text in _NEVER_IN_CODE and not annotation and token.start not in seen:
                seen.add(token.start)
                yield ctx.replace_span(P_MID, "drop_stray_token", "syntax", line, token.start, token.end, "",
                                       f"drop the stray '{token.text}'", "illegal separation")  # fmt: skip
        for before, token in pairwise(code):
            # a keyword typed twice (``return return x;``); ``long long`` is a C++ type
            if token.text == before.text and token.text in _NEVER_TWICE and before.end < token.start:
                yield ctx.replace_span(P_MID, "drop_repeated_word", "syntax", line, before.end, token.end, "",
                                       f"drop the repeated '{token.text}'", "illegal keywords")  # fmt: skip
            # JavaScript's strict comparisons (``a !== b``) are the plain ones here
            if before.text in ("!=", "==") and token.text == "=" and before.end == token.start:
                yield ctx.replace_span(P_HIGH, "translate_operator", "syntax", line, token.start, token.end, "",
                                       f"'{before.text}=' -> '{before.text}'", "illegal keywords")  # fmt: skip
        if len(code) > 1 and code[0].text == "}" and code[1].text not in _AFTER_CLOSING_BRACE:
            # a block's '}' with text after it that nothing may follow a block with (``}==1``)
            yield ctx.replace_span(P_MID, "drop_after_brace", "syntax", line, code[1].start, code[-1].end, "",
                                   f"drop '{ctx.source[code[1].start : code[-1].end]}' after the '}}'",
                                   "illegal separation")  # fmt: skip


_NEVER_TWICE = frozenset({"return", "new", "else", "if", "for", "while", "break", "continue", "int", "static",
                          "public", "private", "final", "const", "void", "class", "this"})  # fmt: skip
_HEADER_KEYWORDS = frozenset({"if", "while", "for", "switch", "catch", "synchronized", "return", "new", "sizeof"})


def block_header_repairs(ctx: EditContext, lexed: LineTokens) -> Iterator[Candidate]:
    """A call with no ';' that a block follows inside a function (``print(a != b)`` then ``{ ... } else ...``):
    only a control statement's header stands there, so the called name is a keyword misspelt or swapped for a word
    of another language. A header with a ';' or ':' between its parentheses is a ``for`` loop's, any other an
    ``if``'s (first where an ``else`` follows the block) or a ``while``'s."""
    for line in _error_lines(ctx):
        code = lexed.code_on(line)
        while code and code[0].text in ("}", "else"):
            code = code[1:]
        if len(code) < 3 or code[0].kind != "word" or code[0].text in _HEADER_KEYWORDS or code[1].text != "(":
            continue
        depth, close, separated = 0, None, False
        for index, token in enumerate(code[1:], 1):
            depth += (token.text in BRACKET_PAIRS) - (token.text in BRACKET_PAIRS.values())
            separated |= depth == 1 and token.text in (";", ":")
            if depth == 0:
                close = index
                break
        if close is None:
            continue
        rest = code[close + 1 :] or lexed.code_on(line + 1)[:1]
        if not rest or rest[0].text != "{" or not _inside_a_function(ctx, line):
            continue
        name = code[0]
        block_end = _closing_bracket(ctx.source, rest[0].start)
        followed_by_else = block_end is not None and re.match(r"\s*else\b", ctx.source[block_end + 1 :]) is not None
        keywords = ("for",) if separated else ("if", "while") if followed_by_else else ("while", "if")
        for keyword in keywords:
            yield ctx.replace_span(P_HIGH, "header_keyword", "reference", line, name.start, name.end, keyword,
                                   f"'{name.text}' -> '{keyword}'", "illegal keywords")  # fmt: skip


def _inside_a_function(ctx: EditContext, line: int) -> bool:
    """Whether ``line`` lies in a function's body, below its header (where a method's own header cannot stand)."""
    return any(line_of(node) < line <= end_line_of(node) for node in ctx.tree.named(*FUNCTION_TYPES))


_BINARY_OPERATORS = frozenset(
    {"=", "+", "-", "*", "/", "%", "&&", "||", "<", ">", "==", "!=", "<=", ">=", "&", "|", "^", "+=", "-=", "*=", "/="}
)
_AFTER_CLOSING_BRACE = frozenset({"}", ";", ",", ")", "else", "while", "catch", "finally"})


_OPERAND_END = frozenset({")", "]"})


def garbled_comparison_repairs(ctx: EditContext, lexed: LineTokens) -> Iterator[Candidate]:
    """A lone ``!`` between two operands on a line that does not parse (``seen.size() ! n``): a comparison that lost
    a character, ``!=`` or ``==``."""
    for line in _error_lines(ctx):
        code = lexed.code_on(line)
        for before, token, after in zip(code, code[1:], code[2:]):
            if token.text != "!" or not (before.kind in ("word", "number") or before.text in _OPERAND_END):
                continue
            if after.kind not in ("word", "number", "string", "char") and after.text != "(":
                continue
            for new in ("!=", "=="):
                yield ctx.replace_span(P_MID, "garbled_comparison", "syntax", line, token.start, token.end, new,
                                       f"'!' -> '{new}'", "misused == or =")  # fmt: skip


_EXPECTED_CLOSER = re.compile(r"^expected '([;,)\]])' before|^'([;,)\]])' expected")
_NOT_OPERANDS = _NOT_ASSIGNABLE | {
    "if", "while", "for", "switch", "class", "struct", "public", "private", "protected", "final", "string", "String",
}  # fmt: skip
_CONDITION_HEADS = frozenset({"if", "while", "for"})


def _in_condition_header(code: Sequence[Token], before: Token) -> bool:
    """Whether ``before`` stands inside the parenthesised header of an ``if``, ``while`` or ``for`` on its line."""
    depth = 0
    for index in range(len(code) - 1, -1, -1):
        token = code[index]
        if token.start > before.start:
            continue
        if token.text in (")", "]"):
            depth += 1
        elif token.text in ("(", "["):
            if depth == 0:
                return token.text == "(" and index > 0 and code[index - 1].text in _CONDITION_HEADS
            depth -= 1
    return False


def missing_operator_repairs(ctx: EditContext, lexed: LineTokens) -> Iterator[Candidate]:
    """Two operands side by side where the compiler expected a closer or a separator between them (``while (i k)``,
    ``solve(a, k) + solve(k + 1, j)`` followed on the next line by ``values[i] * values[j];``): the binary operator
    that joined them was lost. In a loop or ``if`` header the comparisons come first, elsewhere the arithmetic."""
    for diagnostic in ctx.diagnostics:
        if diagnostic.category != "syntax" or not ctx.wanted(diagnostic.line):
            continue
        if _EXPECTED_CLOSER.search(diagnostic.message) is None:
            continue
        at = line_bounds(ctx.source, diagnostic.line)[0] + diagnostic.column
        before = next((t for t in reversed(lexed.all) if t.end <= at and t.kind != "comment"), None)
        after = next((t for t in lexed.all if t.start >= at and t.kind != "comment"), None)
        if before is None or after is None or before.end == after.start:
            continue
        if not (before.kind in ("word", "number", "string", "char") or before.text in _OPERAND_END):
            continue
        if not (after.kind in ("word", "number", "string", "char") or after.text == "("):
            continue
        if before.text in _NOT_OPERANDS or after.text in _NOT_OPERANDS or after.line - before.line > 1:
            continue
        comparing = _in_condition_header(lexed.code_on(before.line), before)
        comparisons = ("<", ">", "<=", ">=", "==", "!=", "&&", "||")
        arithmetic = ("+", "-", "*", "/", "%")
        for rank, new in enumerate((*comparisons, *arithmetic) if comparing else (*arithmetic, *comparisons)):
            bug = "condition error" if new in comparisons else "operation error"
            yield ctx.replace_span(P_MID if rank < 5 else P_LOW, "insert_operator", "syntax", before.line,
                                   before.end, before.end, f" {new}", f"insert '{new}' between '{before.text}' and "
                                   f"'{after.text}'", bug)  # fmt: skip


_ARITHMETIC = frozenset({"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", "&&", "||"})


_COMPARISONS = frozenset({"==", "!=", "<", ">", "<=", ">="})


def _returned(node: Node) -> bool:
    parent = node.parent
    while parent is not None and parent.type == "parenthesized_expression":
        parent = parent.parent
    return parent is not None and parent.type == "return_statement"


def mismatched_operand_repairs(ctx: EditContext) -> Iterator[Candidate]:
    """An operator the compiler cannot apply to its operands (``s + flag`` of a string and a bool: "no match for
    'operator+'", "bad operand types"): an operand added to a sound expression, so each operand is tried alone. So
    too a comparison returned where the method returns no boolean (``return ans.toString() == s;`` from a method
    returning a String): a comparison put around the value meant."""
    lines = {d.line for d in ctx.diagnostics if d.code == "type-mismatch" and ctx.wanted(d.line)}
    for node in ctx.tree.named("binary_expression"):
        operator = operator_token(node)
        if line_of(node) not in lines or operator is None:
            continue
        if operator.type not in _ARITHMETIC and not (operator.type in _COMPARISONS and _returned(node)):
            continue
        for kept in (node.child_by_field_name("left"), node.child_by_field_name("right")):
            if kept is None:
                continue
            whole, alone = ctx.tree.text(node), ctx.tree.text(kept)
            yield ctx.edit_node(P_MID, "drop_operand", "reference", node, alone,
                                f"'{shortened(whole)}' -> '{shortened(alone)}'", "undefined objects")  # fmt: skip


_POINTER_MEMBER = re.compile(r"request for member '(\w+)' in '([^']*)', which is of pointer type")
_NO_POINTER = re.compile(r"base operand of '->' (?:has|is) (?:a )?non-pointer type")


def member_access_repairs(ctx: EditContext) -> Iterator[Candidate]:
    """C++'s two ways to reach a member mixed up: ``node.next`` on a pointer ("request for member 'next' in 'node',
    which is of pointer type") takes ``->``, ``node->next`` on an object takes ``.``; and ``head->next-next``, an
    arrow that lost its '>' (a '-' whose right side is a member name the program reaches through '->' elsewhere,
    which g++ takes for ``std::next``), gets it back."""
    if ctx.language != "cpp":
        return
    to_arrow: dict[int, set[str]] = {}
    to_dot: set[int] = set()
    for diagnostic in ctx.diagnostics:
        if diagnostic.code != "member-access" or not ctx.wanted(diagnostic.line):
            continue
        found = _POINTER_MEMBER.search(diagnostic.message)
        if found is not None:
            to_arrow.setdefault(diagnostic.line, set()).add(found.group(1))
        elif _NO_POINTER.search(diagnostic.message):
            to_dot.add(diagnostic.line)
    mismatched = {d.line for d in ctx.diagnostics if d.code == "type-mismatch" and ctx.wanted(d.line)}
    if not (to_arrow or to_dot or mismatched):
        return
    arrow_members = set()
    for node in ctx.tree.named("field_expression"):
        operator, field = node.child_by_field_name("operator"), node.child_by_field_name("field")
        if operator is None or field is None:
            continue
        line, member = line_of(node), ctx.tree.text(field)
        if operator.type == "->":
            arrow_members.add(member)
        flipped = (
            "->" if operator.type == "." and member in to_arrow.get(line, ())
            else "." if operator.type == "->" and line in to_dot
            else None
        )  # fmt: skip
        if flipped is not None:
            reached = shortened(ctx.source[ctx.tree.span(node)[0] : ctx.tree.span(operator)[0]])
            yield ctx.edit_at(P_HIGH, "dot_to_arrow" if flipped == "->" else "arrow_to_dot", "reference", operator,
                              flipped, f"'{reached}{operator.type}{member}' -> '{reached}{flipped}{member}'",
                              "undefined objects")  # fmt: skip
    for node in ctx.tree.named("binary_expression"):
        operator, right = operator_token(node), node.child_by_field_name("right")
        if line_of(node) not in mismatched or operator is None or operator.type != "-" or right is None:
            continue
        if right.type == "identifier" and ctx.tree.text(right) in arrow_members:
            yield ctx.edit_at(P_HIGH, "minus_to_arrow", "syntax", operator, "->",
                              f"'-{ctx.tree.text(right)}' -> '->{ctx.tree.text(right)}'", "missing colons")  # fmt: skip


_LITERAL_KIND_MISMATCH = re.compile(
    r"comparison between pointer and integer|incomparable types: (char|String) and (char|String)"
    r"|bad operand types for binary operator '[=!]='"
)


def compared_literal_repairs(ctx: EditContext, lexed: LineTokens) -> Iterator[Candidate]:
    """A character compared with a one-character string (``s[i] == "1"``: a pointer and an integer to g++,
    incomparable types to javac): the string literal becomes the character literal, or the other way round."""
    lines = {
        d.line for d in ctx.diagnostics
        if blocks_compilation(d) and ctx.wanted(d.line) and _LITERAL_KIND_MISMATCH.search(d.message)
    }  # fmt: skip
    for line in sorted(lines):
        for token in lexed.code_on(line):
            inner = token.text[1:-1]
            if token.kind == "string" and (len(inner) == 1 or (len(inner) == 2 and inner[0] == "\\")) and inner != "'":
                yield ctx.replace_span(P_HIGH, "string_to_char", "syntax", line, token.start, token.end, f"'{inner}'",
                                       f"{token.text} -> '{inner}'", "")  # fmt: skip
            elif token.kind == "char" and inner != '"':
                yield ctx.replace_span(P_MID, "char_to_string", "syntax", line, token.start, token.end, f'"{inner}"',
                                       f'{token.text} -> "{inner}"', "")  # fmt: skip


def cast_repairs(ctx: EditContext) -> Iterator[Candidate]:
    """A cast on a line the compiler finds a value of the wrong type on (``(Long) set.contains(i) ? a : b``: "boolean
    cannot be converted to Long", the cast binding tighter than the conditional it was meant for): the cast dropped."""
    lines = {d.line for d in ctx.diagnostics if d.code == "type-mismatch" and ctx.wanted(d.line)}
    for node in ctx.tree.named("cast_expression"):
        value = node.child_by_field_name("value")
        if line_of(node) in lines and value is not None:
            kind = node.child_by_field_name("type")
            shown = ctx.tree.text(kind) if kind is not None else "the type"
            yield ctx.edit_node(P_HIGH, "drop_cast", "reference", node, ctx.tree.text(value),
                                f"drop the cast to {shown}", "undefined objects")  # fmt: skip


_CONVERTED = re.compile(
    r"incompatible types: (?P<java_from>.+?) cannot be converted to (?P<java_to>.+)$"
    r"|cannot convert '(?P<cpp_from>[^']+)' to '(?P<cpp_to>[^']+)' in initialization"
)
_DECLARING = ("local_variable_declaration", "enhanced_for_statement", "declaration", "for_range_loop")


def declared_type_repairs(ctx: EditContext) -> Iterator[Candidate]:
    """A variable declared with a type its value cannot have ("int[] cannot be converted to int" for ``for (int
    edge : edges)`` over an ``int[][]``): the declared type becomes the value's (``auto`` in C++, whose compiler
    spells library types in full)."""
    wanted: dict[int, list[tuple[str, str]]] = {}
    for diagnostic in ctx.diagnostics:
        found = _CONVERTED.search(diagnostic.message)
        if diagnostic.code == "type-mismatch" and found is not None and ctx.wanted(diagnostic.line):
            value, declared = (
                found.group("java_from", "java_to") if found.group("java_from") else ("auto", found.group("cpp_to"))
            )
            wanted.setdefault(diagnostic.line, []).append((value.strip(), declared.strip()))
    if not wanted:
        return
    for node in ctx.tree.named(*_DECLARING):
        kind = node.child_by_field_name("type")
        if kind is None or line_of(kind) not in wanted:
            continue
        written = ctx.tree.text(kind)
        for value, declared in wanted[line_of(kind)]:
            if written == declared.removeprefix("std::") or written == declared:
                yield ctx.edit_node(P_MID, "declared_type", "reference", kind, value,
                                    f"'{written}' -> '{value}' (its value's type)", "undefined objects")  # fmt: skip


_OUTSIDE_A_METHOD = re.compile(
    r"invalid method declaration; return type required|ISO C\+\+ forbids declaration of .* with no type"
)
_BEFORE_CLOSERS = re.compile(r"^(\s*)(\S.*?)\s*((?:\}\s*;?\s*)+)$")


def delete_line_repairs(ctx: EditContext) -> Iterator[Candidate]:
    """An error line deleted; one that ends in closing braces after code (``computeReult(, v, s) };``, ``lef }``:
    text typed in front of the braces that end a method or class) loses the code and keeps the braces."""
    # (a statement where a class lists its members: code typed after a method's closing brace)
    outside = {d.line for d in ctx.diagnostics if _OUTSIDE_A_METHOD.search(d.message)}
    for line in _error_lines(ctx):
        start, end = line_bounds(ctx.source, line)
        if ctx.source[start:end].strip():
            yield ctx.replace_span(P_LAST, "delete_line", "syntax", line, start, end, "", "delete the line", "")
        closing = _BEFORE_CLOSERS.match(ctx.source[start:end])
        if closing is not None and (line in outside or not re.search(r"[{;]\s*$", closing.group(2))):
            junk_start, junk_end = start + len(closing.group(1)), start + closing.start(3)
            yield ctx.replace_span(P_LOW, "delete_before_closers", "syntax", line, junk_start, junk_end, "",
                                   "drop the code before the closing braces", "")  # fmt: skip


# ---------------------------------------------------------------------------------------------------------------
# Reference repairs.


def _similar(name: str, candidates: Collection[str], limit: int = 3) -> list[str]:
    scored = []
    for other in candidates:
        if other == name or len(other) < 2:
            continue
        ratio = SequenceMatcher(a=name.lower(), b=other.lower()).ratio()
        if name.lower() in other.lower() or other.lower() in name.lower():
            ratio += 0.3
        if ratio >= 0.5:
            scored.append((ratio, other))
    return [other for _, other in sorted(scored, reverse=True)[:limit]]


_API_MEMBERS = {
    "cpp": ("size", "length", "push_back", "pop_back", "emplace_back", "insert", "erase", "find", "count", "begin",
            "end", "empty", "front", "back", "top", "push", "pop", "substr", "clear", "first", "second", "at",
            "resize", "reserve", "val", "next", "left", "right"),
    "java": ("size", "length", "add", "remove", "get", "set", "put", "contains", "containsKey", "getOrDefault",
             "isEmpty", "poll", "peek", "offer", "push", "pop", "charAt", "substring", "indexOf", "equals", "append",
             "toString", "keySet", "values", "entrySet", "getKey", "getValue", "val", "next", "left", "right",
             "toCharArray", "addAll", "clear", "sort"),
}  # fmt: skip


MAX_VISIBLE = 6
MAX_TYPES = 8
# the types LeetCode's own signatures are written in
SIGNATURE_TYPES = {
    "cpp": ("int", "vector", "string", "bool", "long long", "double", "char", "TreeNode", "ListNode"),
    "java": ("int", "String", "List", "boolean", "long", "double", "char", "TreeNode", "ListNode"),
}
_TYPE_NODES = ("type_identifier", "primitive_type", "integral_type", "floating_point_type", "boolean_type")


_CONTAINERS: dict[str, dict[int, tuple[str, ...]]] = {
    "cpp": {1: ("vector", "set", "unordered_set", "stack", "queue", "deque", "priority_queue", "multiset", "list"),
            2: ("map", "unordered_map", "pair", "multimap")},
    "java": {1: ("List", "ArrayList", "Set", "HashSet", "TreeSet", "Queue", "Deque", "ArrayDeque", "LinkedList",
                 "PriorityQueue", "Stack"),
             2: ("Map", "HashMap", "TreeMap")},
}  # fmt: skip
"""The library's generic containers by how many type arguments they take."""
_TEMPLATE_TYPES = ("template_type", "generic_type")


def _type_arguments(node: Node) -> int | None:
    """How many type arguments the type named at ``node`` is given (``dict<int, int>``: 2); None when it is given
    none, 0 when they are left to the compiler (Java's ``new Dict<>()``)."""
    parent = node.parent
    if parent is None or parent.type not in _TEMPLATE_TYPES or parent.named_children[0] != node:
        return None
    listed = next((child for child in parent.named_children[1:]
                   if child.type in ("template_argument_list", "type_arguments")), None)  # fmt: skip
    return None if listed is None else len(listed.named_children)


def _type_names(ctx: EditContext, unknown: str, arguments: int | None = None, *, look_alikes: bool = True) -> list[str]:
    """Stand-ins for a type nothing declares: look-alikes first (unless ``look_alikes`` is off), then the program's
    own types (most written first), then the usual signature types. A type given type arguments (``dict<int, int>``)
    stands for a generic one: the generic types the program writes, then the library's containers that take as many
    arguments."""
    undeclared = {d.symbol for d in ctx.diagnostics if d.category == "reference" and d.symbol}
    if arguments is None:
        written = Counter(ctx.tree.text(node) for node in ctx.tree.named(*_TYPE_NODES))
        usual: tuple[str, ...] = SIGNATURE_TYPES[ctx.language]
    else:
        given = ((node, _type_arguments(node)) for node in ctx.tree.named("type_identifier"))
        # (a diamond ``<>`` on either side says nothing of the count)
        written = Counter(ctx.tree.text(node) for node, count in given
                          if count is not None and (count == arguments or not count or not arguments))  # fmt: skip
        containers = _CONTAINERS[ctx.language]
        usual = containers.get(arguments, ()) if arguments else tuple(n for names in containers.values() for n in names)
    for name in (*undeclared, "Solution"):
        written.pop(name, None)
    alike = _similar(unknown, {*written, *usual}) if look_alikes else []
    ranked = [*alike, *(name for name, _ in written.most_common()), *usual]
    return [name for name in dict.fromkeys(ranked) if name != unknown][:MAX_TYPES]


_VALUE_TYPES: dict[str, tuple[tuple[re.Pattern[str], str], ...]] = {
    "java": (
        (re.compile(r"'(?:[^'\\]|\\.+)'|.*\.charAt\([^()]*\)"), "char"),
        (re.compile(r'".*"|String\.valueOf\(.*\)|.*\.(?:substring|toString|trim|toUpperCase|toLowerCase)\(.*\)'),
         "String"),
        (re.compile(r".*\.(?:length|size)\(\)|.*\.indexOf\(.*\)|Integer\.parseInt\(.*\)|-?\d+"), "int"),
        (re.compile(r"true|false|.*\.(?:contains|containsKey|equals|isEmpty)\(.*\)"), "boolean"),
        (re.compile(r"-?\d*\.\d+"), "double"),
    ),
    "cpp": (
        (re.compile(r"'(?:[^'\\]|\\.+)'"), "char"),
        (re.compile(r'".*"|to_string\(.*\)|.*\.substr\(.*\)'), "string"),
        (re.compile(r".*\.(?:length|size)\(\)|-?\d+"), "int"),
        (re.compile(r"true|false"), "bool"),
        (re.compile(r"-?\d*\.\d+"), "double"),
    ),
}  # fmt: skip
"""The type a value of a recognisable shape has (a character literal, ``s.charAt(i)``, ``v.size()`` ...)."""


def _value_type(ctx: EditContext, type_node: Node) -> str | None:
    """The type of the value the variable declared with ``type_node`` is given: its initial value, else the first
    value assigned to it afterwards, when that value has a shape :data:`_VALUE_TYPES` knows; else None."""
    declaration = type_node.parent
    if declaration is None:
        return None
    named = [name for name, _ in typed_declarators(ctx.tree, declaration)]
    if len(named) != 1:
        return None
    declarator = next((n for n in declaration.named_children if n.type in ("init_declarator", "variable_declarator")),
                      None)  # fmt: skip
    value = declarator.child_by_field_name("value") if declarator is not None else None
    if value is not None:
        text = ctx.tree.text(value)
    else:
        after = ctx.source[ctx.tree.span(declaration)[1] :]
        assigned = re.search(rf"(?<![\w.]){re.escape(named[0])}\s*=(?!=)\s*([^;]+);", after)
        if assigned is None:
            return None
        text = assigned.group(1)
    text = " ".join(text.split())
    return next((kind for shape, kind in _VALUE_TYPES[ctx.language] if shape.fullmatch(text)), None)


_JUMP_WORDS = ("break", "continue", "return")


def _endless_self(ctx: EditContext, line: int, start: int) -> str | None:
    """The name of the innermost function whose lines hold ``line``, when no return comes before offset ``start``
    in it (a call of it there would recurse with nothing to end it); else None."""
    holders = [node for node in ctx.tree.named(*FUNCTION_TYPES) if line_of(node) <= line <= end_line_of(node)]
    if not holders or any(node.type == "return_statement" and node.start_byte < start
                          for node in ctx.tree.walk(holders[-1])):  # fmt: skip
        return None
    signature = function_signature(ctx.tree, holders[-1])
    return signature[0] if signature is not None else None


def _kept_in_a_rename(ctx: EditContext, symbol: str, is_member: bool) -> Callable[[int], bool]:
    """Whether a use of ``symbol`` starting at a position keeps its name when the symbol is renamed everywhere: where a
    variable of that name is in scope, where it is declared, and in comments. A name one function declares and
    another reads undeclared (a helper reading the caller's local) stays as it is where it is declared, and in code
    commented out that may come back."""
    comments = [ctx.tree.span(node) for node in ctx.tree.named(*COMMENT_TYPES)]
    resolved: set[int] = set()
    if not is_member:
        for node in ctx.tree.named("identifier"):
            if ctx.tree.text(node) == symbol and (
                ctx.is_declarator(node) or (ctx.is_variable_use(node) and symbol in ctx.visible_names(node))
            ):
                resolved.add(ctx.tree.span(node)[0])
    return lambda at: at in resolved or any(start <= at < end for start, end in comments)


LEETCODE_FIELDS = {"ListNode": ("next", "val"), "TreeNode": ("left", "right", "val")}
"""The fields of the node types LeetCode declares for the programs (they are not in the code)."""
_NO_MEMBER = re.compile(r"'(?:struct|class) (\w+)' has no member named")


def _receiver_fields(ctx: EditContext, diagnostic: Diagnostic) -> list[str]:
    """The fields an unknown member may stand for: those of the type the compiler names (g++ does), else those of
    LeetCode's node types the program uses and of the program's own classes (javac names no type)."""
    named = _NO_MEMBER.search(diagnostic.message)
    if named is not None and named.group(1) in LEETCODE_FIELDS:
        return list(LEETCODE_FIELDS[named.group(1)])
    used = [kind for kind in LEETCODE_FIELDS if re.search(rf"\b{kind}\b", ctx.source)]
    fields = [field for kind in used for field in LEETCODE_FIELDS[kind]] + list(ctx.fields)
    return list(dict.fromkeys(fields))[:MAX_VISIBLE]


def reference_repairs(ctx: EditContext) -> Iterator[Candidate]:
    source = ctx.source
    for diagnostic in ctx.diagnostics:
        symbol = diagnostic.symbol
        if not symbol or diagnostic.category != "reference" or not ctx.wanted(diagnostic.line):
            continue
        line = diagnostic.line
        start, end = line_bounds(source, line)
        text = source[start:end]
        uses = [m for m in re.finditer(rf"(?<![\w.]){re.escape(symbol)}\b", text)]
        member_uses = [m for m in re.finditer(rf"(?<=[.>])\s*{re.escape(symbol)}\b", text)]
        is_member = diagnostic.code == "no-such-member" or (bool(member_uses) and not uses)
        targets = member_uses if is_member else uses
        foreign = (FOREIGN_MEMBERS if is_member else FOREIGN_WORDS)[ctx.language].get(symbol)
        replacements: list[tuple[int, str, str]] = []
        if foreign is not None:
            replacements.append((P_FIRST, foreign, "illegal keywords"))
        if is_member:
            known = set(_API_MEMBERS[ctx.language]) | ctx.methods | set(ctx.fields)
            replacements += [(P_HIGH, other, "undefined methods") for other in _similar(symbol, known)]
            # a member nothing declares may stand for any field of the object it is read from, not only a look-alike
            # (``temp->next->undefined`` for ``temp->next->next``)
            offered = {other for _, other, _ in replacements}
            replacements += [(P_MID, other, "undefined objects") for other in _receiver_fields(ctx, diagnostic)
                             if other not in offered and other != symbol]  # fmt: skip
        elif named_type := next((node for node in ctx.tree.named("type_identifier")
                                 if line_of(node) == line and ctx.tree.text(node) == symbol), None):  # fmt: skip
            # a type nothing declares (``Array<int>``, ``UndefinedObject``): the types the program writes elsewhere,
            # then those LeetCode's signatures use; the compiler tells which fit the code around it
            # (a keyword of another language is no misspelt type: ``var`` looks like ``char``, which holds no
            # ``1e9 + 7``, so its stand-ins are the types the program writes most)
            stand_ins = _type_names(ctx, symbol, _type_arguments(named_type), look_alikes=foreign is None)
            if foreign is not None and (told := _value_type(ctx, named_type)) is not None:
                # (``let c; ... c = s.charAt(i);``: the value the variable is given says its type; an int would
                # compile too, and print as a number)
                stand_ins = [told, *(name for name in stand_ins if name != told)]
            replacements += [(P_HIGH, other, "undefined objects") for other in stand_ins]
        else:
            called = re.search(rf"\b{re.escape(symbol)}\s*\(", text) is not None
            pool = (ctx.methods | set(LIBRARY_CALLS[ctx.language])) if called else set(ctx.declared_names)
            if not called and symbol[:1].isupper():
                # ``ArrayUtils.sort(nums)``: a library class under a name it does not have
                pool |= {call.rpartition(".")[0] for call in LIBRARY_CALLS[ctx.language] if "." in call}
            bug = "undefined methods" if called else "undefined objects"
            if not called and text.strip() == f"{symbol};":
                # a statement of one unknown name: a jump keyword misspelt (``bra;`` for ``break;``)
                replacements += [(P_HIGH, word, "illegal keywords") for word in _similar(symbol, _JUMP_WORDS)]
            # (a call renamed to the function it stands in, with no return above to end it, is a recursion that never
            # ends: after the other edits)
            itself = _endless_self(ctx, line, start) if called else None
            replacements += [(P_LOW if other == itself else P_HIGH, other, bug) for other in _similar(symbol, pool)]
            if not called:
                # a name nothing declares may stand for any variable in scope there, not only a look-alike
                offered = {other for _, other, _ in replacements}
                use = next((node for node in ctx.tree.named("identifier")
                            if line_of(node) == line and ctx.tree.text(node) == symbol), None)  # fmt: skip
                visible = [n for n in ctx.visible_names(use) if n not in offered and n != symbol] if use else []
                replacements += [(P_MID, other, bug) for other in visible[:MAX_VISIBLE]]
        yield from _unwrap_calls(ctx, line, start, text, symbol, is_member, returning=P_FIRST)
        pattern = rf"(?<=[.>])\s*{re.escape(symbol)}\b" if is_member else rf"(?<![\w.]){re.escape(symbol)}\b"
        kept = _kept_in_a_rename(ctx, symbol, is_member)
        for priority, new, bug in replacements:
            description = f"'{symbol}' -> '{new or '(nothing)'}'"
            # every use on the line, then every use in the program, then each use alone

            def renamed_use(match: re.Match[str], new: str = new, cut: int = len(symbol)) -> str:
                return match.group(0)[: len(match.group(0)) - cut] + new

            on_line = re.sub(pattern, renamed_use, text)
            if on_line != text:
                yield ctx.replace_span(priority, "rename_reference", "reference", line, start, end, on_line,
                                       description, bug)  # fmt: skip

            def renamed_unless_kept(match: re.Match[str], renamed_use: Callable[[re.Match[str]], str] = renamed_use,
                                    kept: Callable[[int], bool] = kept, width: int = len(symbol)) -> str:  # fmt: skip
                return match.group(0) if kept(match.end() - width) else renamed_use(match)

            renamed = re.sub(pattern, renamed_unless_kept, source)
            if renamed != source:
                yield ctx.make(priority + 1, "rename_reference", "reference", line, description + " everywhere",
                               renamed, bug)  # fmt: skip
            if len(targets) > 1:
                for found in targets:
                    position = start + found.start() + (len(found.group(0)) - len(symbol))
                    yield ctx.replace_span(priority + 1, "rename_reference", "reference", line, position,
                                           position + len(symbol), new, description, bug)  # fmt: skip
        yield from _unwrap_calls(ctx, line, start, text, symbol, is_member)
        yield from _joined_names(ctx, line, start, text, symbol)
        yield from _drop_statement_at(ctx, line)


def _joined_names(ctx: EditContext, line: int, start: int, text: str, symbol: str) -> Iterator[Candidate]:
    """A declared name a stray character or space split in two (``gri=d`` for ``grid``), where one part is the name
    the compiler could not find: the two parts joined again."""
    for found in re.finditer(r"(?<![\w.])(\w+)(\s+|\s*[^\w\s(){}\[\];,]\s*)(\w+)\b", text):
        head, tail = found.group(1), found.group(3)
        joined = head + tail
        if symbol not in (head, tail) or joined not in ctx.declared_names or head[:1].isdigit():
            continue
        yield ctx.replace_span(P_FIRST, "join_name", "reference", line, start + found.start(), start + found.end(),
                               joined, f"'{found.group(0)}' -> '{joined}'", "undefined objects")  # fmt: skip


# An expression whose value is all it does: a name, a member, an element, a literal.
_INERT = re.compile(r"[\w.\[\]\s'\"]+")


def _unwrap_calls(
    ctx: EditContext, line: int, start: int, text: str, symbol: str, member: bool, returning: int | None = None
) -> Iterator[Candidate]:
    """``f(x)`` -> ``x`` and ``obj.f()`` -> ``obj`` for an undefined ``f``; a whole statement ``print(x);`` also ->
    ``return x;`` (a function that computed its answer and wrote it out instead of returning it). With
    ``returning`` (a priority), only that last edit, and only in a function that returns nothing though it should
    (the call took the return's place: then before any other edit of the name)."""
    if returning is not None and (member or not _returns_nothing_it_should(ctx, line)):
        return
    if member:
        for found in re.finditer(rf"\.\s*{re.escape(symbol)}\s*\(\s*\)", text):
            span = (start + found.start(), start + found.end())
            yield ctx.replace_span(P_MID, "unwrap_call", "reference", line, *span, "", f"drop the call to '{symbol}'",
                                   "undefined methods")  # fmt: skip
        return
    for found in re.finditer(rf"(?<![\w.]){re.escape(symbol)}\s*\(", text):
        closing = _closing_bracket(text, found.end() - 1)
        if closing is None:
            continue
        inner = text[found.end() : closing].strip()
        if not inner or _top_level_comma(inner):
            continue
        span = (start + found.start(), start + closing + 1)
        whole = not text[: found.start()].strip() and text[closing + 1 :].strip() == ";"
        if whole:
            priority = P_MID if returning is None else returning
            yield ctx.replace_span(priority, "call_to_return", "reference", line, *span, f"return {inner}",
                                   f"'{symbol}(...)' -> 'return ...'", "undefined methods")  # fmt: skip
        # (``f(v);`` -> ``v;`` does nothing: the statement deleted, which the deletions offer, not a mended call)
        if returning is None and not (whole and _INERT.fullmatch(inner)):
            yield ctx.replace_span(P_MID, "unwrap_call", "reference", line, *span, inner,
                                   f"drop the call to '{symbol}'", "undefined methods")  # fmt: skip


def _returns_nothing_it_should(ctx: EditContext, line: int) -> bool:
    """Whether the function around ``line`` declares a result type other than ``void`` and has no ``return``."""
    for function in ctx.tree.named("function_definition", "method_declaration"):
        first, last = line_of(function), function.end_point[0] + 1
        if not first <= line <= last:
            continue
        kind = function.child_by_field_name("type")
        returns = any(node.type == "return_statement" for node in ctx.tree.walk(function))
        return kind is not None and ctx.tree.text(kind) != "void" and not returns
    return False


def _closing_bracket(text: str, opening: int) -> int | None:
    """Where the bracket at ``opening`` (``(`` or ``{``) closes in ``text`` (brackets of its kind inside counted), or
    None."""
    steps = {text[opening]: 1, BRACKET_PAIRS[text[opening]]: -1}
    depth = 0
    for index in range(opening, len(text)):
        depth += steps.get(text[index], 0)
        if depth == 0:
            return index
    return None


def _top_level_comma(inner: str) -> bool:
    depth = 0
    for char in inner:
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(char, 0)
        if char == "," and depth == 0:
            return True
    return False


def _drop_statement_at(ctx: EditContext, line: int) -> Iterator[Candidate]:
    for node in ctx.tree.statements():
        if line_of(node) == line and node.type in ("expression_statement", "declaration",
                                                   "local_variable_declaration"):  # fmt: skip
            yield ctx.delete_node(P_LOW, "delete_statement", "reference", node, "delete the statement",
                                  "undefined methods")  # fmt: skip
            return


_JAVA_TYPES = ("int", "long", "String", "double", "boolean", "char")


def java_var_repairs(ctx: EditContext) -> Iterator[Candidate]:
    """Java's ``var`` where Java forbids it (a parameter, a field, a local without a value) -> a concrete type:
    the primitive types and ``String`` first, then the types the program declares elsewhere."""
    if ctx.language != "java":
        return
    forbidden = [node for node in ctx.tree.named("type_identifier") if _var_forbidden(ctx, node)]
    if not forbidden:
        return
    declared = [ctx.tree.text(kind) for kind in ctx.tree.named("integral_type", "floating_point_type",
                                                                "boolean_type", "type_identifier", "generic_type",
                                                                "array_type")]  # fmt: skip
    choices = list(dict.fromkeys([*_JAVA_TYPES, *(t for t in declared if t != "var" and "\n" not in t)]))[:10]
    for node in forbidden:
        for choice in choices:
            yield ctx.edit_at(P_HIGH, "var_to_type", "reference", node, choice, f"'var' -> '{choice}'",
                              "illegal keywords")  # fmt: skip


def _var_forbidden(ctx: EditContext, node: Node) -> bool:
    parent = node.parent
    if ctx.tree.text(node) != "var" or parent is None or not ctx.wanted(line_of(node)):
        return False
    if parent.type == "local_variable_declaration":
        declarator = parent.child_by_field_name("declarator")
        value = declarator.child_by_field_name("value") if declarator is not None else None
        # a local with a value may be ``var``
        return value is None or value.type in ("array_initializer", "null_literal")
    return parent.type in ("formal_parameter", "field_declaration", "spread_parameter")


def foreign_word_repairs(ctx: EditContext, lexed: LineTokens) -> Iterator[Candidate]:
    """Foreign keywords the tree shows even without a compiler message (``elif``, ``var``, ``len(x)``)."""
    table = FOREIGN_WORDS[ctx.language]
    for token in lexed.all:
        if token.kind != "word" or token.text not in table or not ctx.wanted(token.line):
            continue
        if token.text in ctx.declared_names:
            continue
        new = table[token.text]
        if token.text == "len":
            call = re.match(r"len\s*\(([^()]*)\)", ctx.source[token.start :])
            if call:
                inner = call.group(1).strip()
                for member in ("size()",) if ctx.language == "cpp" else ("length", "length()", "size()"):
                    yield ctx.replace_span(P_HIGH, "translate_keyword", "reference", token.line, token.start,
                                           token.start + call.end(), f"{inner}.{member}",
                                           f"'len({inner})' -> '{inner}.{member}'", "illegal keywords")  # fmt: skip
            continue
        if new == "else if" and not ctx.source[token.end :].lstrip(" \t").startswith("("):
            new = "else"  # (``elif {``: the last branch of the chain, with no condition to test)
        if new or token.text in ("print", "println"):
            yield ctx.replace_span(P_HIGH, "translate_keyword", "reference", token.line, token.start, token.end, new,
                                   f"'{token.text}' -> '{new}'", "illegal keywords")  # fmt: skip
        if new in ("const", "final"):
            # the other language's constant qualifier may not have been meant at all: a Java ``final`` local is
            # assigned once, so ``const int mid;`` assigned in a loop compiles only without it
            end = token.end + len(ctx.source[token.end :]) - len(ctx.source[token.end :].lstrip(" \t"))
            yield ctx.replace_span(P_HIGH, "drop_keyword", "reference", token.line, token.start, end, "",
                                   f"drop '{token.text}'", "illegal keywords")  # fmt: skip


# ---------------------------------------------------------------------------------------------------------------
# Mutations (bug injection) beyond the self-inverse logic operators.


def syntax_mutations(ctx: EditContext, lexed: LineTokens) -> Iterator[Candidate]:
    source = ctx.source
    statements = [node for node in ctx.tree.statements() if node.type not in ("compound_statement", "block")]
    for node in statements:
        line = line_of(node)
        if not ctx.wanted(line):
            continue
        text = ctx.tree.text(node)
        start, end = ctx.tree.span(node)
        if node.type in ("expression_statement", "declaration", "local_variable_declaration", "return_statement") \
                and text.endswith(";") and "\n" not in text:  # fmt: skip
            yield ctx.replace_span(P_MID, "drop_semicolon", "syntax", line, end - 1, end, "", "drop the ';'",
                                   "missing colons")  # fmt: skip
            stripped = text.strip()
            if re.match(r"[\w<>\[\]:,\s*&]+\s+\w+\s*(=|;)", stripped) and node.type != "return_statement":
                yield ctx.replace_span(P_LOW, "comment_out", "syntax", line, start, end, "// " + text,
                                       "comment the statement out", "illegal comment")  # fmt: skip
        if node.type in ("if_statement", "for_statement", "while_statement"):
            body = node.child_by_field_name("body") or node.child_by_field_name("consequence")
            if body is not None and body.type in ("compound_statement", "block"):
                body_start, body_end = ctx.tree.span(body)
                inner = source[body_start + 1 : body_end - 1]
                yield ctx.replace_span(P_LOW, "drop_braces", "syntax", line, body_start, body_end, inner,
                                       "drop the braces of the body", "illegal separation")  # fmt: skip
            condition = node.child_by_field_name("condition")
            if condition is not None and body is not None:
                _, condition_end = ctx.tree.span(condition)
                yield ctx.replace_span(P_LOW, "empty_body", "syntax", line, condition_end, condition_end, ";",
                                       "';' right after the header", "illegal separation")  # fmt: skip
    yield from _token_mutations(ctx, lexed)
    yield from _operator_mutations(ctx)


def _token_mutations(ctx: EditContext, lexed: LineTokens) -> Iterator[Candidate]:
    """Syntax mutations of single tokens: quotes, closing brackets, comment marks, access-specifier colons."""
    source = ctx.source
    for token in lexed.all:
        if not ctx.wanted(token.line):
            continue
        if token.kind in ("string", "char") and token.closed and len(token.text) >= 2:
            yield ctx.replace_span(P_MID, "unclose_string", "syntax", token.line, token.end - 1, token.end, "",
                                   "drop the closing quote", "unclosed string")  # fmt: skip
        elif token.kind == "symbol" and token.text in (")", "]"):
            yield ctx.replace_span(P_MID, "drop_closing_bracket", "syntax", token.line, token.start, token.end, "",
                                   f"drop a '{token.text}'", "unclosed parentheses")  # fmt: skip
        elif token.kind == "comment" and token.text.startswith("//"):
            yield ctx.replace_span(P_LOW, "wrong_comment_mark", "syntax", token.line, token.start, token.start + 2,
                                   "#", "'//' -> '#'", "illegal comment")  # fmt: skip
        elif token.kind == "word" and token.text in ("public", "private", "protected") and ctx.language == "cpp":
            after = source[token.end : token.end + 3]
            colon = after.find(":")
            if colon >= 0:
                yield ctx.replace_span(P_MID, "drop_colon", "syntax", token.line, token.end + colon,
                                       token.end + colon + 1, "", f"drop the ':' after '{token.text}'",
                                       "missing colons")  # fmt: skip


def _operator_mutations(ctx: EditContext) -> Iterator[Candidate]:
    """'==' and '=' swapped where the other one still parses."""
    for node in ctx.tree.named("binary_expression"):
        operator = operator_token(node)
        if operator is not None and operator.type == "==" and ctx.wanted(line_of(node)):
            yield ctx.edit_at(P_MID, "comparison_to_assignment", "syntax", operator, "=", "'==' -> '='",
                              "misused == or =")  # fmt: skip
    for node in ctx.tree.named("assignment_expression"):
        operator = operator_token(node)
        if (
            operator is not None
            and operator.type == "="
            and ctx.wanted(line_of(node))
            and node.parent is not None
            and node.parent.type == "expression_statement"
        ):
            yield ctx.edit_at(
                P_MID, "assignment_to_comparison", "syntax", operator, "==", "'=' -> '=='", "misused == or ="
            )


_INJECTED_WORDS = {
    "cpp": {
        "int": ("var", "def", "let"),
        "auto": ("var", "let"),
        "nullptr": ("null", "None"),
        "NULL": ("None",),
        "true": ("True",),
        "false": ("False",),
        "bool": ("boolean",),
        "string": ("String",),
        "this": ("self",),
    },
    "java": {
        "int": ("def", "let"),
        "boolean": ("bool",),
        "String": ("string",),
        "null": ("None", "nullptr"),
        "true": ("True",),
        "false": ("False",),
        "this": ("self",),
        "var": ("auto",),
    },
}
_INJECTED_MEMBERS = {
    "cpp": {"size": "length", "push_back": "push", "empty": "isEmpty", "substr": "substring", "count": "contains"},
    "java": {"length": "size", "add": "push_back", "isEmpty": "empty", "substring": "substr", "size": "length"},
}


def reference_mutations(ctx: EditContext, lexed: LineTokens) -> Iterator[Candidate]:
    words = _INJECTED_WORDS[ctx.language]
    members = _INJECTED_MEMBERS[ctx.language]
    for token in lexed.all:
        if token.kind != "word" or not ctx.wanted(token.line):
            continue
        previous = ctx.source[max(0, token.start - 2) : token.start]
        if token.text in words:
            for new in words[token.text]:
                yield ctx.replace_span(P_MID, "foreign_keyword", "reference", token.line, token.start, token.end,
                                       new, f"'{token.text}' -> '{new}'", "illegal keywords")  # fmt: skip
        elif token.text in members and (previous.endswith(".") or previous.endswith("->")):
            new = members[token.text]
            yield ctx.replace_span(P_MID, "foreign_member", "reference", token.line, token.start, token.end, new,
                                   f"'.{token.text}' -> '.{new}'", "illegal keywords")  # fmt: skip
    for node in ctx.tree.named("identifier"):
        if not ctx.wanted(line_of(node)) or not ctx.is_variable_use(node):
            continue
        name = ctx.tree.text(node)
        for new in (name + "s" if not name.endswith("s") else name[:-1], name + "Val"):
            if new and new not in ctx.words:
                yield ctx.edit_at(P_MID, "undefined_variable", "reference", node, new, f"'{name}' -> '{new}'",
                                  "undefined objects")  # fmt: skip
                break
    for node in ctx.tree.named("call_expression", "method_invocation"):
        callee = node.child_by_field_name("name" if node.type == "method_invocation" else "function")
        if callee is None or callee.type not in ("identifier",) or not ctx.wanted(line_of(node)):
            continue
        called = ctx.tree.text(callee)
        if called in ctx.methods:
            new = called + "Helper"
            if new not in ctx.words:
                yield ctx.edit_at(P_MID, "undefined_method", "reference", callee, new, f"'{called}' -> '{new}'",
                                  "undefined methods")  # fmt: skip
    for node in ctx.tree.named("return_statement"):
        if node.named_children and ctx.wanted(line_of(node)):
            value = node.named_children[0]
            yield ctx.edit_node(P_LOW, "undefined_method", "reference", value,
                                f"processResult({ctx.tree.text(value)})", "wrap the result in an undefined call",
                                "undefined methods")  # fmt: skip


# ---------------------------------------------------------------------------------------------------------------
# Entry point.


def _shared_ends(first: str, second: str) -> tuple[int, int]:
    """How many characters two texts share at the start, and then at the end of what remains."""
    limit = min(len(first), len(second))
    prefix = next((i for i in range(limit) if first[i] != second[i]), limit)
    limit -= prefix
    suffix = next((i for i in range(limit) if first[-1 - i] != second[-1 - i]), limit)
    return prefix, suffix


_OPERATOR_CHARS = frozenset("=!<>+-*/%&|^")


def _glued(char: str, neighbour: str) -> bool:
    """Whether ``char`` belongs to the same token as the ``neighbour`` it touches (both of a name or number, or
    both of an operator)."""
    if not neighbour:
        return False
    word = char.isalnum() or char == "_"
    return (word and (neighbour.isalnum() or neighbour == "_")) or (
        char in _OPERATOR_CHARS and neighbour in _OPERATOR_CHARS
    )


def _changed_piece(source: str, edit: Edit) -> tuple[int, int, str] | None:
    """Where a logic edit (or an index moved by one, filed under faulty indexing) changes one line of ``source``, in
    whole tokens: (start, end, the new text); None when it spans lines or is no such edit."""
    if (edit.category != "logic" and edit.operator != "off_by_one") or not edit.source:
        return None
    prefix, suffix = _shared_ends(source, edit.source)
    # whole tokens: '==' -> '!=' differs in one character, but the copies to find are of '=='
    while prefix > 0 and _glued(source[prefix - 1], source[prefix : len(source) - suffix + 1][:1]):
        prefix -= 1
    while suffix > 0 and _glued(source[len(source) - suffix], source[len(source) - suffix - 1 : len(source) - suffix]):
        suffix -= 1
    old, new = source[prefix : len(source) - suffix], edit.source[prefix : len(edit.source) - suffix]
    if "\n" in old or "\n" in new:
        return None
    return prefix, len(source) - suffix, new


def _repeated_on_line(source: str, edit: Edit) -> Edit | None:
    """A logic edit that replaces a piece of a line, made at every copy of that piece on the line: a bug written
    into an expression the line repeats (``friends[id+1].find(x) != friends[id+1].end()``) is in every copy.
    None when the piece occurs once, or the edit only inserts or spans lines."""
    piece = _changed_piece(source, edit)
    if piece is None or not source[piece[0] : piece[1]].strip():
        return None
    prefix, end, new = piece
    old = source[prefix:end]
    start = source.rfind("\n", 0, prefix) + 1
    end = source.find("\n", prefix)
    end = len(source) if end < 0 else end
    # a copy is the same text not glued to a longer name or number
    before = r"(?<![\w.])" if re.match(r"[\w.]", old) else ""
    after = r"(?![\w.])" if re.search(r"[\w.]$", old) else ""
    pattern = re.compile(before + re.escape(old) + after)
    line_text = source[start:end]
    if len(pattern.findall(line_text)) < 2:
        return None
    repeated = source[:start] + pattern.sub(lambda _: new, line_text) + source[end:]
    return Edit(edit.operator, edit.category, edit.line, edit.description + " (every copy on the line)", repeated,
                edit.bug_type)  # fmt: skip


_Copies = dict[tuple[int, str, str], list[tuple[int, int]]]


def _expression_copies(tree: SyntaxTree) -> _Copies:
    """The places of each one-line expression's text in each function: (function start, node type, text) -> spans."""
    copies: _Copies = {}
    for function in tree.named(*FUNCTION_TYPES):
        for node in tree.walk(function):
            if node.is_named and node.start_point[0] == node.end_point[0]:
                copies.setdefault((function.start_byte, node.type, tree.text(node)), []).append(tree.span(node))
    return copies


def _repeated_in_function(tree: SyntaxTree, source: str, edit: Edit, copies_of: _Copies) -> list[Edit]:
    """A logic edit of an expression made at every copy of that expression in its function: a writer who had a
    bound or a constant wrong had it wrong wherever they wrote it (``x<m`` in two branches for ``x<m-1``; ``6`` as
    both an array's size and the bound of the loop over it). The expression is the smallest one holding the change,
    or for an addition after it (``m`` -> ``m - 1``), the largest one that ends there, and also the expression one
    level up (:func:`_enclosing_expression`) where that stands at fewer places. None when the expression occurs once
    in the function, or only on the edit's line (see :func:`_repeated_on_line`), or is a name, another single word
    (``null``) or the constant 0 or 1."""
    piece = _changed_piece(source, edit)
    if piece is None:
        return []
    start, end, new = piece
    while start == end and start > 0 and source[start - 1] in " \t":
        start = end = start - 1  # (``m && y`` -> ``m - 1 && y`` is an addition after ``m``)
    while start == end and start > 0 and _glued(source[start - 1], new[:1]):
        start -= 1  # an operator grown by a character ('<' -> '<=') is a change of that operator
    at = len(source[:start].encode())
    if start < end:
        node = tree.root.named_descendant_for_byte_range(at, len(source[:end].encode()))
    else:
        node = tree.root.named_descendant_for_byte_range(max(at - 1, 0), at)
        while node is not None and node.parent is not None and node.parent.end_byte == at:
            node = node.parent
        if node is not None and node.end_byte != at:
            return []
    function = enclosing(node, FUNCTION_TYPES) if node is not None else None
    if node is None or function is None or node.type in STATEMENT_TYPES[tree.language]:
        return []
    if node.child_count == 0 and node.type not in NUMERAL_TYPES:
        return []  # a name, ``null`` or ``true`` is everywhere: all of them at once is a rewrite, not a fix
    found: list[Edit] = []
    spans: list[list[tuple[int, int]]] = []
    for holder in (node, _enclosing_expression(tree, node)):
        if holder is None:
            continue
        text = tree.text(holder)
        if "\n" in text or text in ("0", "1"):
            continue
        copies = sorted(set(copies_of.get((function.start_byte, holder.type, text), [])))
        if len(copies) < 2 or all(source.count("\n", 0, start) + 1 == edit.line for start, _ in copies):
            continue
        if any(len(copies) == len(earlier) for earlier in spans):
            continue  # (the same places: the larger expression adds nothing)
        spans.append(copies)
        holder_start, holder_end = tree.span(holder)
        new = edit.source[holder_start : holder_end + len(edit.source) - len(source)]
        repeated = source
        for copy_start, copy_end in reversed(copies):
            repeated = repeated[:copy_start] + new + repeated[copy_end:]
        where = " (every copy in the function)" if holder is node else f" (every copy of '{text}' in the function)"
        found.append(Edit(edit.operator, edit.category, edit.line, edit.description + where, repeated, edit.bug_type))
    return found


def _enclosing_expression(tree: SyntaxTree, node: Node) -> Node | None:
    """The expression one level above ``node`` (past the brackets or parentheses that only wrap it): ``days[ind-1]``
    for ``ind-1``. Its copies are fewer where the smaller expression also stands elsewhere for another purpose
    (``ind-1`` as the recursion's argument, where ``days[ind-1]`` was the mistake on two lines); None at a
    statement or past one line."""
    inner, up = tree.text(node), node.parent

    def wraps(outer: Node, text: str) -> bool:
        bare = text.replace(" ", "")
        return tree.text(outer).replace(" ", "") in (f"[{bare}]", f"({bare})")

    while up is not None and wraps(up, inner):
        inner, up = tree.text(up), up.parent
    if up is None or up.type in STATEMENT_TYPES[tree.language] or up.type in FUNCTION_TYPES:
        return None
    if up.type.endswith(("declarator", "argument_list", "arguments")) or "\n" in tree.text(up):
        return None
    return up


def first_element_edits(ctx: EditContext) -> Iterator[Candidate]:
    """An index one past the last element (``s.charAt(s.length())``, ``v[v.size()]``) set to the first element's:
    the last one's is :func:`off_by_one_edits`' (and the smell's mend), the first is the other end a planted index
    bug moves from."""
    for node in ctx.tree.named(*ELEMENT_READS):
        past_end = index_past_end(ctx.tree, node) if ctx.wanted(line_of(node)) else None
        if past_end is not None:
            index = past_end[1]
            yield ctx.edit_node(P_LOW, "first_element", "reference", index, "0", f"index {ctx.tree.text(index)} -> 0",
                                "faulty indexing")  # fmt: skip


def candidate_edits(
    source: str,
    language: CompiledLanguage,
    *,
    lines: Collection[int] | None = None,
    categories: Collection[str] = ALL_CATEGORIES,
    direction: Direction = "repair",
    diagnostics: Sequence[Diagnostic] = (),
) -> Iterator[Edit]:
    """All single edits of a C++ or Java ``source`` at ``lines`` (every line when None), most plausible first.

    ``diagnostics`` (the compiler's, see :mod:`debugtutor.analysis.clike.diagnostics`) point the syntax and
    reference repairs at the lines and names the compiler complained about; without them only what the parse tree
    shows is used. Each yielded program differs from ``source`` and from every earlier one."""
    tree = parse(source, language)
    ctx = EditContext(tree, language, None if lines is None else set(lines), direction, tuple(diagnostics))
    lexed = LineTokens(source)
    compiles = not tree.has_error and not any(blocks_compilation(d) for d in diagnostics)
    operators: list[Callable[[], Iterator[Candidate]]] = []
    if direction == "repair":
        if "syntax" in categories:
            operators += [
                lambda: missing_token_repairs(ctx),
                lambda: separator_repairs(ctx, lexed),
                lambda: bracket_repairs(ctx, lexed),
                lambda: early_condition_repairs(ctx, lexed),
                lambda: misplaced_closer_repairs(ctx, lexed),
                lambda: string_repairs(ctx, lexed),
                lambda: comment_repairs(ctx, lexed, compiles),
                lambda: assignment_repairs(ctx),
                lambda: separation_repairs(ctx),
                lambda: stray_token_repairs(ctx, lexed),
                lambda: idle_for_part_repairs(ctx),
                lambda: garbled_comparison_repairs(ctx, lexed),
                lambda: block_header_repairs(ctx, lexed),
                lambda: missing_operator_repairs(ctx, lexed),
                lambda: compared_literal_repairs(ctx, lexed),
                lambda: delete_line_repairs(ctx),
            ]
        if "reference" in categories:
            operators += [
                lambda: reference_repairs(ctx),
                lambda: mismatched_operand_repairs(ctx),
                lambda: member_access_repairs(ctx),
                lambda: cast_repairs(ctx),
                lambda: declared_type_repairs(ctx),
                lambda: foreign_word_repairs(ctx, lexed),
                lambda: java_var_repairs(ctx),
                lambda: null_initialisation_edits(ctx),
                lambda: first_element_edits(ctx),
                lambda: null_argument_edits(ctx),
                lambda: unmade_object_repairs(ctx),
                lambda: uninitialised_value_repairs(ctx),
                lambda: unsized_vector_repairs(ctx),
                lambda: name_repairs(ctx),
            ]
        if "syntax" in categories or "reference" in categories:
            operators.append(lambda: structure_repairs(ctx, lexed))
    else:
        if "syntax" in categories:
            operators.append(lambda: syntax_mutations(ctx, lexed))
        if "reference" in categories:
            operators.append(lambda: reference_mutations(ctx, lexed))
    if "logic" in categories or "reference" in categories:
        for operator in LOGIC_OPERATORS:
            operators.append(lambda operator=operator: operator(ctx))  # type: ignore[misc]
    candidates = [(priority, edit) for make in operators for priority, edit in make() if edit.category in categories]
    if direction == "repair":
        singles, copies = list(candidates), _expression_copies(tree)
        candidates += [(priority + 1, repeated) for priority, edit in singles
                       for repeated in (_repeated_on_line(source, edit),
                                        *_repeated_in_function(tree, source, edit, copies))
                       if repeated is not None]  # fmt: skip
    candidates.sort(key=lambda item: (item[0], item[1].line))
    seen = {source}
    for _, edit in candidates:
        if edit.source not in seen:
            seen.add(edit.source)
            yield edit
