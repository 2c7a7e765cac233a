"""Syntax operators: the fixes :mod:`debugtutor.analysis.static` proposes for each syntax issue (repair) and the
breakages of the DebugBench taxonomy (mutate)."""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Collection, Iterator

from debugtutor.analysis.edits._base import _P_FIRST, _P_HIGH, _P_LOW, _P_MID, Edit, _Candidate, _Text
from debugtutor.analysis.edits._novice import _inline_def_repairs
from debugtutor.analysis.static import scan_lines, syntax_issues

# ---------------------------------------------------------------------------------------------------------------
# Syntax operators.

_SYNTAX_OPERATOR_NAMES = {
    "missing-colon": ("insert_missing_colon", "syntax", "missing colons"),
    "unclosed-bracket": ("close_parenthesis", "syntax", "unclosed parentheses"),
    "unmatched-bracket": ("drop_unmatched_bracket", "syntax", "unclosed parentheses"),
    "unclosed-string": ("close_string", "syntax", "unclosed string"),
    "illegal-comment": ("fix_comment_mark", "syntax", "illegal comment"),
    "assignment-in-condition": ("assignment_to_comparison", "syntax", "misused == or ="),
    "foreign-keyword": ("translate_foreign_keyword", "reference", "illegal keywords"),
    "unexpected-indent": ("fix_indentation", "syntax", "illegal indentation"),
    "missing-indented-block": ("fix_indentation", "syntax", "illegal indentation"),
    "inconsistent-dedent": ("fix_indentation", "syntax", "illegal indentation"),
}


_INDENTATION_CODES = ("unexpected-indent", "missing-indented-block", "inconsistent-dedent")


def _is_layout_issue(code: str, message: str) -> bool:
    return code in _INDENTATION_CODES or (code == "syntax-error" and bool(re.search(r"indent|outside", message)))


def _normalised_layout(source: str, *, max_rounds: int = 12) -> str | None:
    """``source`` with every indentation problem fixed in turn (first fix each), or ``None`` if nothing changed.

    Students' indentation noise (one space off on a run of lines) is one mistake spread over many lines; fixing
    it as a single edit leaves the search budget for the real bug.
    """
    current = source
    for _ in range(max_rounds):
        issues, _compiled = syntax_issues(current)
        layout = [i for i in issues if _is_layout_issue(i.diagnostic.code, i.diagnostic.message) and i.fixes]
        if not layout:
            break
        current = layout[0].fixes[0]
    return current if current != source else None


def _syntax_repairs(source: str, lines: Collection[int] | None) -> Iterator[_Candidate]:
    issues, _ = syntax_issues(source)
    if sum(_is_layout_issue(i.diagnostic.code, i.diagnostic.message) for i in issues) > 1:
        normalised = _normalised_layout(source)
        if normalised is not None:
            first = min(i.diagnostic.line for i in issues if _is_layout_issue(i.diagnostic.code, i.diagnostic.message))
            yield (
                _P_FIRST,
                Edit(
                    "fix_indentation",
                    "syntax",
                    first,
                    f"line {first}: re-indent the program",
                    normalised,
                    "illegal indentation",
                ),
            )
    for issue in issues:
        code, message = issue.diagnostic.code, issue.diagnostic.message
        if code == "syntax-error" and _is_layout_issue(code, message):
            code = "unexpected-indent"  # e.g. `return` outside a function: a statement dedented out of its block
        operator, category, bug_type = _SYNTAX_OPERATOR_NAMES.get(code, ("", "syntax", ""))
        if not operator:
            continue
        fixes = list(zip(issue.fixes, issue.fix_descriptions))
        if "outside function" in message:
            # a `return` dedented out of its function ends the function body far more often than an inner block
            fixes.sort(key=_indent_target)
        for rank, (fixed, description) in enumerate(fixes):
            line = int(m.group(1)) if (m := re.match(r"line (\d+)", description)) else issue.diagnostic.line
            if lines is not None and line not in lines and issue.diagnostic.line not in lines:
                continue
            edit = Edit(operator, category, line, description, fixed, bug_type)  # type: ignore[arg-type]
            yield (_P_FIRST if rank == 0 else _P_HIGH), edit
    yield from _uncomment_repairs(source, lines)
    yield from _inline_def_repairs(source, lines)


def _indent_target(fix: tuple[str, str]) -> int:
    """The indentation a re-indent fix moves to (by its description), fixes of other kinds last."""
    match = re.search(r"indent to (\d+)", fix[1])
    return int(match.group(1)) if match else 1 << 30


def _uncomment_repairs(source: str, lines: Collection[int] | None) -> Iterator[_Candidate]:
    """Commented-out code (``# x = []`` or a statement turned into a string) brought back."""
    text = _Text(source)
    for number in range(1, len(text.lines) + 1):
        if lines is not None and number not in lines:
            continue
        raw = text.line_text(number)
        match = re.match(r"(\s*)#\s?(.*\S)\s*$", raw)
        if match and _parses(match.group(2)) and re.search(r"[=(\[]|^(return|for|if|while)\b", match.group(2)):
            new = text.replace(
                text.starts[number - 1], text.starts[number - 1] + len(raw), match.group(1) + match.group(2)
            )
            yield (
                _P_MID,
                Edit(
                    "uncomment_line",
                    "syntax",
                    number,
                    f"line {number}: uncomment '{match.group(2)}'",
                    new,
                    "illegal comment",
                ),
            )
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            inner = node.value.value
            if ((lines is None or node.lineno in lines) and "\n" in inner.strip()) or _looks_like_code(inner):
                start, end = text.span(node)
                segment = text.segment(node)
                quote = segment[:3] if segment[:3] in ('"""', "'''") else segment[:1]
                if segment.endswith(quote) and _parses_dedented(inner):
                    new = text.replace(start, end, segment[len(quote) : -len(quote)])
                    if _parses(new):
                        yield (
                            _P_MID,
                            Edit(
                                "unwrap_string_code",
                                "syntax",
                                node.lineno,
                                f"line {node.lineno}: turn the string back into code",
                                new,
                                "illegal comment",
                            ),
                        )


def _compiles(code: str) -> bool:
    try:
        with warnings.catch_warnings():
            # candidates may well say `x is 1`; that is the student's business, not a warning for our user
            warnings.simplefilter("ignore", SyntaxWarning)
            compile(code, "<edit>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return True


def _parses(code: str) -> bool:
    try:
        ast.parse(code)
    except (SyntaxError, ValueError):
        return False
    return True


def _parses_dedented(code: str) -> bool:
    import textwrap

    return _parses(textwrap.dedent(code.strip("\n")))


def _looks_like_code(text: str) -> bool:
    return bool(re.search(r"^\s*(return|for|if|while)\b|=", text)) and _parses_dedented(text)


def _syntax_mutations(source: str, lines: Collection[int] | None) -> Iterator[_Candidate]:
    """Edits that make ``source`` fail to compile, one per DebugBench syntax bug type and site."""
    text = _Text(source)
    for line in scan_lines(source):
        number = line.number
        if (lines is not None and number not in lines) or line.starts_in_string or not line.stripped_code:
            continue
        code = line.code.rstrip()
        base = text.starts[number - 1]
        if code.endswith(":") and not line.starts_in_brackets:
            new = text.replace(base + len(code) - 1, base + len(code), "")
            yield _P_MID, Edit("remove_colon", "syntax", number, f"line {number}: drop ':'", new, "missing colons")
        closers = [i for i, ch in enumerate(line.code) if ch in ")]}"]
        if closers:
            i = closers[-1]
            new = text.replace(base + i, base + i + 1, "")
            yield (
                _P_MID,
                Edit(
                    "unclose_parenthesis",
                    "syntax",
                    number,
                    f"line {number}: drop '{line.code[i]}'",
                    new,
                    "unclosed parentheses",
                ),
            )
        quotes = [i for i, ch in enumerate(line.code) if ch in "\"'"]
        if len(quotes) >= 2 and line.text[quotes[-1]] == line.text[quotes[-2]] and quotes[-1] - quotes[-2] > 1:
            i = quotes[-1]
            new = text.replace(base + i, base + i + 1, "")
            yield (
                _P_MID,
                Edit(
                    "unclose_string", "syntax", number, f"line {number}: drop the closing quote", new, "unclosed string"
                ),
            )
        if line.comment_start is not None:
            i = line.comment_start
            new = text.replace(base + i, base + i + 1, "//")
            yield (
                _P_MID,
                Edit("illegal_comment", "syntax", number, f"line {number}: '#' -> '//'", new, "illegal comment"),
            )
        elif not code.endswith(":"):
            new = text.replace(base + len(line.text), base + len(line.text), "  // note")
            yield (
                _P_LOW,
                Edit("illegal_comment", "syntax", number, f"line {number}: add a '//' comment", new, "illegal comment"),
            )
        if line.indent > 0 and not line.starts_in_brackets:
            for shift in (1, -1):
                new_indent = line.indent + shift * 2
                new = text.replace(base, base + len(line.text) - len(line.text.lstrip()), " " * max(0, new_indent))
                yield (
                    _P_MID,
                    Edit(
                        "illegal_indentation",
                        "syntax",
                        number,
                        f"line {number}: indent {line.indent} -> {new_indent}",
                        new,
                        "illegal indentation",
                    ),
                )
        first = re.match(r"\s*(if|elif|while)\b", code)
        if first:
            for match in re.finditer(r"(?<![=!<>])==(?!=)", code):
                new = text.replace(base + match.start(), base + match.end(), "=")
                yield (
                    _P_MID,
                    Edit(
                        "comparison_to_assignment",
                        "syntax",
                        number,
                        f"line {number}: '==' -> '='",
                        new,
                        "misused == or =",
                    ),
                )
        for match in re.finditer(r"\b(and|or|not)\b", code):
            new_token = {"and": "&&", "or": "||", "not": "!"}[match.group(1)]
            new = text.replace(base + match.start(), base + match.end(), new_token)
            yield (
                _P_LOW,
                Edit(
                    "foreign_operator",
                    "syntax",
                    number,
                    f"line {number}: '{match.group(1)}' -> '{new_token}'",
                    new,
                    "illegal keywords",
                ),
            )
        elif_match = re.match(r"(\s*)elif\b", line.text)
        if elif_match:
            new = text.replace(base + len(elif_match.group(1)), base + len(elif_match.group(0)), "else if")
            yield (
                _P_LOW,
                Edit(
                    "foreign_keyword", "syntax", number, f"line {number}: 'elif' -> 'else if'", new, "illegal keywords"
                ),
            )
