"""Static checks for novice and LeetCode-style Python: syntax, reference and suspicious-logic diagnostics.

Three layers, each cheap and independent of running the code:

* **Syntax.** ``compile`` reports only the first error, so a line/token scan looks for the classic error shapes on
  its own (missing colon, unclosed bracket or string, illegal comment mark, ``=`` in a condition, bad indentation,
  keywords from other languages), and ``compile`` is re-run after neutralising each error it reports, so that
  several syntax errors in one program can all be found. Every syntax issue carries candidate fixes (whole edited
  sources) that the repair search reuses.
* **Reference.** pyflakes finds undefined names; on top of it, attribute calls on values of known builtin types
  (``nums.push``), on known standard modules (``math.sqr``) and on ``self`` inside a class that never defines the
  method are flagged.
* **Suspicious logic.** Shapes that run but are usually wrong: a comparison used as a statement, ``print`` in a
  function that never returns a value, code after ``return`` in a block, a loop whose body always returns on the
  first pass, shadowed builtins, ``/`` where an integer index or count is needed, ``is`` with a literal.

Names that a judge's environment provides (LeetCode's ``List``, ``TreeNode``, ``collections`` ...) are passed as a
``preamble`` of known names and never reported.
"""

from __future__ import annotations

import ast
import builtins
import difflib
import importlib
import io
import keyword
import re
import tokenize
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict
from pyflakes import checker as pyflakes_checker
from pyflakes import messages as pyflakes_messages

from debugtutor import python_ast
from debugtutor.sandbox import Language

DiagnosticCategory = Literal["syntax", "reference", "suspicious-logic"]
MajorCategory = Literal["syntax", "reference", "logic", "multiple"]

# DebugBench's minor bug types (the ``bug_type`` of diagnostics, edits and mutants) and their major categories.
MAJOR_OF_BUG_TYPE: dict[str, MajorCategory] = {
    "missing colons": "syntax",
    "unclosed parentheses": "syntax",
    "unclosed string": "syntax",
    "illegal comment": "syntax",
    "misused == or =": "syntax",
    "illegal separation": "syntax",
    "illegal indentation": "syntax",
    "faulty indexing": "reference",
    "undefined objects": "reference",
    "undefined methods": "reference",
    "illegal keywords": "reference",
    "condition error": "logic",
    "operation error": "logic",
    "variable error": "logic",
    "other error": "logic",
}

# What LeetCode's Python 3 judge has in scope before the submitted class (typing names, the node classes and the
# star-imported standard modules), so code written for it is not flagged for using them.
_LEETCODE_NAMES = frozenset(
    {
        "List",
        "Optional",
        "Dict",
        "Set",
        "Tuple",
        "Deque",
        "DefaultDict",
        "Union",
        "Any",
        "Callable",
        "Iterator",
        "Generator",
        "Counter",
        "OrderedDict",
        "defaultdict",
        "deque",
        "namedtuple",
        "ListNode",
        "TreeNode",
        "Node",
        "NestedInteger",
        "collections",
        "heapq",
        "math",
        "bisect",
        "itertools",
        "functools",
        "operator",
        "string",
        "re",
        "random",
        "sys",
        "copy",
        "statistics",
        "typing",
        "inf",
        "heappush",
        "heappop",
        "heapify",
        "heappushpop",
        "heapreplace",
        "nlargest",
        "nsmallest",
        "bisect_left",
        "bisect_right",
        "insort",
        "insort_left",
        "insort_right",
        "lru_cache",
        "cache",
        "reduce",
        "cmp_to_key",
        "accumulate",
        "permutations",
        "combinations",
        "combinations_with_replacement",
        "product",
        "chain",
        "groupby",
        "zip_longest",
        "count",
        "cycle",
        "pairwise",
        "gcd",
        "lcm",
        "comb",
        "perm",
        "sqrt",
        "log",
        "log2",
        "ceil",
        "floor",
        "factorial",
        "isqrt",
        "SortedList",
        "SortedDict",
        "SortedSet",
        "ascii_lowercase",
        "ascii_uppercase",
        "ascii_letters",
        "digits",
        "isnan",
        "isinf",
    }
)
# LeetCode star-imports these modules, so their public names are in scope too.
_LEETCODE_STAR_MODULES = (
    "typing",
    "collections",
    "heapq",
    "bisect",
    "itertools",
    "functools",
    "math",
    "operator",
    "string",
    "statistics",
)


def _public_names(module_name: str) -> set[str]:
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]
    return set(names)


LEETCODE_PREAMBLE: frozenset[str] = _LEETCODE_NAMES.union(*(_public_names(m) for m in _LEETCODE_STAR_MODULES))

_COMPOUND_KEYWORDS = ("if", "elif", "else", "for", "while", "def", "class", "try", "except", "finally", "with")
_CONDITION_KEYWORDS = ("if", "elif", "while", "return", "assert")
_OPENERS = {"(": ")", "[": "]", "{": "}"}
_CLOSERS = {")": "(", "]": "[", "}": "{"}
_TAB_SIZE = 8


class Diagnostic(BaseModel):
    """One finding of the static checker, at a 1-based line and 0-based column of the checked source."""

    model_config = ConfigDict(frozen=True)

    category: DiagnosticCategory
    line: int
    column: int
    message: str
    code: str
    """A stable rule id, e.g. ``missing-colon``, ``undefined-name``, ``print-instead-of-return``."""
    symbol: str = ""
    """The name the finding is about (an undeclared name, a missing member), when it has one."""
    bug_type: str = ""
    """The DebugBench minor bug type the finding usually comes from (e.g. ``"undefined methods"``), when known."""


@dataclass(frozen=True)
class SyntaxIssue:
    """A syntax-level problem with the candidate fixes that remove it (each a whole edited source)."""

    diagnostic: Diagnostic
    fixes: tuple[str, ...] = ()
    fix_descriptions: tuple[str, ...] = ()


# ---------------------------------------------------------------------------------------------------------------
# A forgiving line scanner: strings and comments masked, bracket depth tracked, never raises on broken code.


@dataclass
class ScannedLine:
    """One physical line as the scanner saw it."""

    number: int
    text: str
    code: str  # string contents blanked to spaces (quotes kept), comment removed; same length as text up to comment
    comment_start: int | None
    starts_in_string: bool  # inside a triple-quoted string at the line start
    starts_in_brackets: bool  # a continuation line of an open bracket
    unclosed_quote_at: int | None  # column of a single-line string left open at the end of the line
    bracket_errors: list[tuple[int, str]] = field(default_factory=list)  # (column, message)
    opened: list[tuple[int, int, str]] = field(default_factory=list)  # brackets left open after the line
    abandoned: list[tuple[int, int, str]] = field(default_factory=list)  # never-closed brackets this line ends

    @property
    def indent(self) -> int:
        return len(self.text.expandtabs(_TAB_SIZE)) - len(self.text.expandtabs(_TAB_SIZE).lstrip())

    @property
    def stripped_code(self) -> str:
        return self.code.strip()


def scan_lines(source: str) -> list[ScannedLine]:
    """Scan ``source`` line by line, masking strings and comments and tracking brackets across lines."""
    result: list[ScannedLine] = []
    stack: list[tuple[int, int, str]] = []  # (line, column, bracket)
    triple: str | None = None
    indents: dict[int, int] = {}
    for number, text in enumerate(source.splitlines(), start=1):
        indent = len(text.expandtabs(_TAB_SIZE)) - len(text.expandtabs(_TAB_SIZE).lstrip())
        indents[number] = indent
        abandoned: list[tuple[int, int, str]] = []
        # a statement at or left of the opening line's indent means the bracket was never closed: recover there
        if stack and triple is None and _STATEMENT_RE.match(text) and indent <= indents[stack[0][0]]:
            abandoned, stack = list(stack), []
        starts_in_string = triple is not None
        starts_in_brackets = bool(stack)
        chars = list(text)
        comment_start: int | None = None
        unclosed_quote_at: int | None = None
        bracket_errors: list[tuple[int, str]] = []
        i = 0
        quote: str | None = None  # the open single-line string's quote
        quote_col = 0
        while i < len(text):
            ch = text[i]
            if triple is not None:
                if text.startswith(triple, i):
                    triple = None
                    i += 3
                    continue
                chars[i] = " "
                i += 1
                continue
            if quote is not None:
                if ch == "\\":
                    chars[i] = " "
                    if i + 1 < len(text):
                        chars[i + 1] = " "
                    i += 2
                    continue
                if ch == quote:
                    quote = None
                else:
                    chars[i] = " "
                i += 1
                continue
            if ch == "#":
                comment_start = i
                break
            if text.startswith(('"""', "'''"), i):
                triple = text[i : i + 3]
                i += 3
                continue
            if ch in "\"'":
                quote, quote_col = ch, i
            elif ch in _OPENERS:
                stack.append((number, i, ch))
            elif ch in _CLOSERS:
                if stack and stack[-1][2] == _CLOSERS[ch]:
                    stack.pop()
                elif stack:
                    bracket_errors.append((i, f"closing '{ch}' does not match '{stack[-1][2]}'"))
                else:
                    bracket_errors.append((i, f"unmatched '{ch}'"))
            i += 1
        if quote is not None and not text.rstrip().endswith("\\"):
            unclosed_quote_at = quote_col
        code = "".join(chars[:comment_start] if comment_start is not None else chars)
        result.append(
            ScannedLine(
                number=number,
                text=text,
                code=code,
                comment_start=comment_start,
                starts_in_string=starts_in_string,
                starts_in_brackets=starts_in_brackets,
                unclosed_quote_at=unclosed_quote_at,
                bracket_errors=bracket_errors,
                opened=list(stack),
                abandoned=abandoned,
            )
        )
    return result


def _replace_line(source: str, number: int, new_text: str | None) -> str:
    """``source`` with line ``number`` replaced (``None`` deletes it), keeping the other lines byte for byte."""
    lines = source.splitlines(keepends=True)
    old = lines[number - 1]
    ending = old[len(old.rstrip("\r\n")) :]
    if new_text is None:
        del lines[number - 1]
    else:
        lines[number - 1] = new_text + (ending or "")
    return "".join(lines)


def _first_word(code: str) -> str:
    match = re.match(r"\s*([A-Za-z_]\w*)", code)
    return match.group(1) if match else ""


def _top_level_positions(code: str, chars: str) -> Iterator[int]:
    """Columns of ``chars`` in masked ``code`` outside brackets."""
    depth = 0
    for i, ch in enumerate(code):
        if ch in _OPENERS:
            depth += 1
        elif ch in _CLOSERS:
            depth = max(0, depth - 1)
        elif depth == 0 and ch in chars:
            yield i


def _single_equals(code: str, *, top_level_only: bool) -> list[int]:
    """Columns of ``=`` that are neither part of a comparison/augmented operator nor a keyword argument."""
    positions = []
    depth = 0
    for i, ch in enumerate(code):
        if ch in _OPENERS:
            depth += 1
        elif ch in _CLOSERS:
            depth = max(0, depth - 1)
        if ch != "=":
            continue
        before = code[i - 1] if i > 0 else ""
        after = code[i + 1] if i + 1 < len(code) else ""
        if after == "=" or before in "=!<>+-*/%&|^:@~":
            continue
        if depth > 0:
            if top_level_only:
                continue
            # keyword arguments `f(x=1)` are legal: a name right after `(` or `,`
            if re.search(r"[(,]\s*[A-Za-z_]\w*\s*$", code[:i]):
                continue
        positions.append(i)
    return positions


def _logical_end(lines: list[ScannedLine], index: int) -> int:
    """Index of the last physical line of the logical line starting at ``index``."""
    j = index
    while j + 1 < len(lines) and (lines[j + 1].starts_in_brackets or lines[j].code.rstrip().endswith("\\")):
        j += 1
    return j


_STATEMENT_RE = re.compile(
    r"\s*(?:(?:if|elif|else|for|while|def|class|try|except|finally|with|return|break|continue|pass|raise|import|"
    r"from|global|nonlocal|del|assert|yield)\b|[A-Za-z_][\w.\[\], ]*\s*(?:[-+*/%&|^]|//|\*\*)?=(?!=))"
)


def _header_keyword(code: str) -> str | None:
    word = _first_word(code)
    if word == "async":
        word = _first_word(code.strip()[5:])
    return word if word in _COMPOUND_KEYWORDS else None


def _mask_block_comments(lines: list[ScannedLine]) -> None:
    """Blank the code of lines strictly inside a C-style ``/* ... */`` block, so they raise no further findings."""
    inside = False
    for line in lines:
        if inside:
            if "*/" in line.code:
                inside = False
            else:
                line.code = ""
                line.opened = []
                line.bracket_errors = []
                line.unclosed_quote_at = None
        elif "/*" in line.code and "*/" not in line.code[line.code.index("/*") :]:
            inside = True


def _scan_syntax_issues(source: str) -> list[SyntaxIssue]:  # noqa: C901 - one pass over the error shapes
    lines = scan_lines(source)
    _mask_block_comments(lines)
    issues: list[SyntaxIssue] = []

    def add(number: int, column: int, code: str, message: str, fixes: list[tuple[str, str]]) -> None:
        category: DiagnosticCategory = "reference" if code == "foreign-keyword" else "syntax"
        issues.append(
            SyntaxIssue(
                Diagnostic(category=category, line=number, column=column, message=message, code=code),
                tuple(f for _, f in fixes),
                tuple(d for d, _ in fixes),
            )
        )

    index = 0
    while index < len(lines):
        line = lines[index]
        if line.starts_in_string or line.starts_in_brackets or not line.stripped_code:
            index += 1
            continue
        end = _logical_end(lines, index)
        logical = [lines[k] for k in range(index, end + 1)]
        joined = " ".join(part.code for part in logical)
        last = logical[-1]
        keyword_ = _header_keyword(line.code)
        # missing colon on a block header
        if keyword_ is not None and not any(True for _ in _top_level_positions(joined, ":")) and not last.opened:
            col = len(last.code.rstrip())
            fixed = last.text[:col] + ":" + last.text[col:]
            add(
                last.number,
                col,
                "missing-colon",
                f"'{keyword_}' statement is missing its ':'",
                [(f"line {last.number}: add ':'", _replace_line(source, last.number, fixed))],
            )
        # `=` where a comparison was meant
        if _first_word(line.code) in _CONDITION_KEYWORDS:
            header_end = next(_top_level_positions(joined, ":"), None) if keyword_ is not None else None
            offset = 0
            for part in logical:
                limit = None if header_end is None else header_end - offset
                offset += len(part.code) + 1
                if limit is not None and limit < 0:
                    break
                for col in _single_equals(part.code if limit is None else part.code[:limit], top_level_only=False):
                    fixed = part.text[:col] + "==" + part.text[col + 1 :]
                    add(
                        part.number,
                        col,
                        "assignment-in-condition",
                        "'=' used where '==' was meant",
                        [(f"line {part.number}: '=' -> '=='", _replace_line(source, part.number, fixed))],
                    )
        # a bracket left open when the next statement (or the end of the file) comes
        still_open = lines[end + 1].abandoned if end + 1 < len(lines) else last.opened
        if still_open:
            opener_line, opener_col, bracket = still_open[0]
            closers = "".join(_OPENERS[b] for _, _, b in reversed(still_open))
            col = len(last.code.rstrip())
            if keyword_ is not None and last.code.rstrip().endswith(":"):
                col -= 1
            fixed = last.text[:col] + closers + last.text[col:]
            fixes = [(f"line {last.number}: add '{closers}'", _replace_line(source, last.number, fixed))]
            add(opener_line, opener_col, "unclosed-bracket", f"'{bracket}' was never closed", fixes)
        for part in logical:
            for col, message in part.bracket_errors:
                fixed = part.text[:col] + part.text[col + 1 :]
                add(
                    part.number,
                    col,
                    "unmatched-bracket",
                    message,
                    [(f"line {part.number}: drop '{part.text[col]}'", _replace_line(source, part.number, fixed))],
                )
        index = end + 1

    for line in lines:
        if line.unclosed_quote_at is not None:
            add(
                line.number,
                line.unclosed_quote_at,
                "unclosed-string",
                "string literal is not closed",
                _unclosed_string_fixes(source, line),
            )
        if line.starts_in_string:
            continue
        code = line.code
        comment_mark = re.search(r"(^\s*//)|(/\*)|(\*/)|(<!--)|(//\s*[A-Za-z_]\w*\s+[A-Za-z_]\w*)", code)
        if comment_mark:
            col = comment_mark.start() + (len(comment_mark.group(1)) - 2 if comment_mark.group(1) else 0)
            marker_fixed = line.text[:col] + "#" + line.text[col:].replace("*/", "").lstrip("/*<!-")
            dropped = line.text[:col].rstrip()
            fixes = [(f"line {line.number}: use '#' for the comment", _replace_line(source, line.number, marker_fixed))]
            if dropped.strip():
                fixes.append((f"line {line.number}: drop the comment", _replace_line(source, line.number, dropped)))
            add(line.number, col, "illegal-comment", "comment mark from another language (Python uses '#')", fixes)
        for pattern, replacement, message in _FOREIGN_TOKENS:
            for match in pattern.finditer(code):
                fixed = line.text[: match.start()] + match.expand(replacement) + line.text[match.end() :]
                add(
                    line.number,
                    match.start(),
                    "foreign-keyword",
                    message,
                    [
                        (
                            f"line {line.number}: {match.group(0).strip()!r} -> {match.expand(replacement).strip()!r}",
                            _replace_line(source, line.number, fixed),
                        )
                    ],
                )
    issues.extend(_indentation_issues(source, lines))
    return issues


_FOREIGN_TOKENS: list[tuple[re.Pattern[str], str, str]] = [
    (re.compile(r"=([!<>])(?!=)"), r"\1=", "operator written backwards"),
    (re.compile(r"\s*&&\s*"), " and ", "'&&' is not Python (use 'and')"),
    (re.compile(r"\s*\|\|\s*"), " or ", "'||' is not Python (use 'or')"),
    (re.compile(r"(?<!=)!(?!=)\s*"), "not ", "'!' is not Python (use 'not')"),
    (re.compile(r"\belse\s+if\b"), "elif", "'else if' is not Python (use 'elif')"),
    (re.compile(r"([A-Za-z_][\w.\[\]]*)\s*\+\+"), r"\1 += 1", "'++' is not Python (use '+= 1')"),
    (re.compile(r"([A-Za-z_][\w.\[\]]*)--(?=\s*(?:;|$))"), r"\1 -= 1", "'--' is not Python (use '-= 1')"),
    (re.compile(r"(?<![=!<>])===?(?==)"), "=", "'===' is not Python (use '==')"),
    (
        re.compile(r"^(\s*)(?:var|let|const|int|long|auto|String|boolean|double)\s+(?=[A-Za-z_]\w*\s*=[^=])"),
        r"\1",
        "a declaration keyword from another language",
    ),
    (re.compile(r"\bnew\s+(?=[A-Za-z_]\w*\s*\()"), "", "'new' is not Python"),
]


def _unclosed_string_fixes(source: str, line: ScannedLine) -> list[tuple[str, str]]:
    assert line.unclosed_quote_at is not None
    col = line.unclosed_quote_at
    text = line.text
    quote = text[col]
    fixes: list[tuple[str, str]] = []
    for pos in range(col + 1, len(text) + 1):
        if pos == len(text.rstrip()) or (pos < len(text) and text[pos] in ")],:" and text[pos - 1] != "\\"):
            fixed = text[:pos] + quote + text[pos:]
            fixes.append(
                (f"line {line.number}: close the string at column {pos}", _replace_line(source, line.number, fixed))
            )
    fixes.append(
        (f"line {line.number}: drop the stray quote", _replace_line(source, line.number, text[:col] + text[col + 1 :]))
    )
    return fixes


def _indentation_issues(source: str, lines: list[ScannedLine]) -> list[SyntaxIssue]:
    """Unexpected indents, missing indented blocks and dedents to no enclosing level, with re-indent fixes."""
    issues: list[SyntaxIssue] = []
    stack = [0]
    expect_block = False
    previous: ScannedLine | None = None
    for line in lines:
        if line.starts_in_string or line.starts_in_brackets or not line.stripped_code:
            continue
        indent = line.indent
        problem: tuple[str, str] | None = None
        if expect_block:
            if indent > stack[-1]:
                stack.append(indent)
            else:
                problem = ("missing-indented-block", "expected an indented block")
        elif indent > stack[-1]:
            problem = ("unexpected-indent", "unexpected indent")
            stack.append(indent)
        elif indent < stack[-1]:
            while stack and stack[-1] > indent:
                stack.pop()
            if not stack or stack[-1] != indent:
                problem = ("inconsistent-dedent", "unindent does not match any outer indentation level")
                stack.append(indent)
        if problem is not None:
            targets = _indent_targets(stack, previous, indent)
            fixes = [(f"line {line.number}: indent to {t}", _reindent_block(source, lines, line, t)) for t in targets]
            issues.append(
                SyntaxIssue(
                    Diagnostic(category="syntax", line=line.number, column=0, message=problem[1], code=problem[0]),
                    tuple(f for _, f in fixes),
                    tuple(d for d, _ in fixes),
                )
            )
        # a header that lost its colon still opens a block: do not report its body as a second error
        header = _header_keyword(line.code) is not None
        expect_block = header and (
            line.code.rstrip().endswith(":") or next(_top_level_positions(line.code, ":"), None) is None
        )
        previous = line
    return issues


def _indent_targets(stack: list[int], previous: ScannedLine | None, indent: int) -> list[int]:
    targets: list[int] = []
    if previous is not None:
        if previous.code.rstrip().endswith(":"):
            targets.append(previous.indent + 4)
        targets.append(previous.indent)
    targets.extend(sorted(set(stack), reverse=True))
    seen: list[int] = []
    for t in targets:
        if t != indent and t not in seen:
            seen.append(t)
    return seen[:4]


def _reindent_block(source: str, lines: list[ScannedLine], start: ScannedLine, target: int) -> str:
    """Move ``start`` to indentation ``target`` and shift the block it opens (deeper lines after it) alike."""
    delta = target - start.indent
    out = source.splitlines(keepends=True)
    for line in lines[start.number - 1 :]:
        if line is not start:
            # siblings and their bodies move along: a mis-indented run of lines is one mistake
            if line.stripped_code and not line.starts_in_string and line.indent < start.indent:
                break
            if not line.text.strip():
                continue
        expanded = line.text.expandtabs(_TAB_SIZE)
        new_indent = max(0, line.indent + delta)
        ending = out[line.number - 1][len(out[line.number - 1].rstrip("\r\n")) :]
        out[line.number - 1] = " " * new_indent + expanded.lstrip() + ending
    return "".join(out)


def _compile_error(source: str) -> SyntaxError | None:
    try:
        compile(source, "<student>", "exec", dont_inherit=True)
    except SyntaxError as exc:
        return exc
    except (ValueError, OverflowError, MemoryError, RecursionError) as exc:  # null bytes, huge literals, deep nesting
        return SyntaxError(str(exc))
    return None


def syntax_issues(source: str, *, max_rounds: int = 8) -> tuple[list[SyntaxIssue], str | None]:
    """All syntax issues found, and a neutralised version of ``source`` that compiles (``None`` if none was found).

    The scan findings come first; then compile errors not already explained by the scan. Each compile error is
    neutralised (by a scan fix on that line when one exists, else by replacing the line with ``pass``) and the
    source recompiled, so errors after the first are found too.
    """
    scanned = _scan_syntax_issues(source)
    if _compile_error(source) is None:
        return [], source  # scan findings on code that compiles are false alarms
    issues = list(scanned)
    reported_lines = {i.diagnostic.line for i in scanned}
    current = source
    tried: set[int] = set()
    pending = sorted((i for i in scanned if i.fixes), key=lambda i: i.diagnostic.line)
    for _ in range(max_rounds + len(pending)):
        error = _compile_error(current)
        if error is None:
            return issues, current
        lineno = error.lineno or 1
        # fix what the scan explained before the error first: the error may be a cascade of an earlier one
        earlier = [i for i in pending if i.diagnostic.line <= lineno]
        if earlier:
            pending.remove(earlier[0])
            current = _apply_line_fix(current, source, earlier[0].fixes[0])
            continue
        if lineno in tried:
            break
        tried.add(lineno)
        if lineno not in reported_lines:
            message = f"{error.msg}" if error.msg else "invalid syntax"
            issues.append(
                SyntaxIssue(
                    Diagnostic(
                        category="syntax",
                        line=lineno,
                        column=max(0, (error.offset or 1) - 1),
                        message=message,
                        code="syntax-error",
                    ),
                    *_generic_fixes(source, lineno),
                )
            )
            reported_lines.add(lineno)
        current = _neutralise(current, lineno)
    return issues, (current if _compile_error(current) is None else None)


def _generic_fixes(source: str, lineno: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Fixes for a compile error the scan did not explain: re-indent the line (and its run) or delete it."""
    lines = scan_lines(source)
    if lineno > len(lines):
        return (), ()
    line = lines[lineno - 1]
    previous = next((p for p in reversed(lines[: lineno - 1]) if p.stripped_code), None)
    levels = sorted({p.indent for p in lines[: lineno - 1] if p.stripped_code and not p.starts_in_brackets})
    targets = _indent_targets(levels, previous, line.indent)
    fixes = [(f"line {lineno}: indent to {t}", _reindent_block(source, lines, line, t)) for t in targets]
    fixes.append((f"line {lineno}: delete the line", _replace_line(source, lineno, None)))
    return tuple(f for _, f in fixes), tuple(d for d, _ in fixes)


def _apply_line_fix(current: str, original: str, fixed: str) -> str:
    """Carry the lines that ``fixed`` changed relative to ``original`` over to ``current`` (same line count)."""
    before, after, now = original.splitlines(True), fixed.splitlines(True), current.splitlines(True)
    if len(before) != len(after) or len(before) != len(now):
        return fixed if current == original else current
    return "".join(a if a != b else n for b, a, n in zip(before, after, now))


def _neutralise(source: str, lineno: int) -> str:
    """Make line ``lineno`` harmless: apply a scan fix there when one compiles further, else turn it into ``pass``."""
    for issue in _scan_syntax_issues(source):
        if issue.diagnostic.line == lineno and issue.fixes:
            after = _compile_error(issue.fixes[0])
            if after is None or (after.lineno or 0) > lineno:
                return issue.fixes[0]
    lines = source.splitlines()
    if lineno > len(lines):
        return source
    text = lines[lineno - 1]
    indent = text[: len(text) - len(text.lstrip())]
    stripped = text.strip()
    header = _header_keyword(stripped)
    if header in ("else", "try", "finally"):
        return _replace_line(source, lineno, f"{indent}{header}:")
    if header is not None:
        word = "elif" if header in ("elif", "except") and header == "elif" else "if"
        return _replace_line(source, lineno, f"{indent}{'except Exception' if header == 'except' else word + ' True'}:")
    return _replace_line(source, lineno, f"{indent}pass")


# ---------------------------------------------------------------------------------------------------------------
# Reference checks.

_TYPE_BY_CONSTRUCTOR = {"list": list, "dict": dict, "set": set, "str": str, "tuple": tuple, "frozenset": frozenset}
_TYPE_BY_ANNOTATION = {
    "list": list,
    "List": list,
    "dict": dict,
    "Dict": dict,
    "set": set,
    "Set": set,
    "str": str,
    "tuple": tuple,
    "Tuple": tuple,
    "int": int,
    "float": float,
    "bool": bool,
}
_KNOWN_MODULES = ("math", "heapq", "bisect", "itertools", "functools", "string", "random", "operator", "collections")


def _literal_type(node: ast.expr) -> type | None:
    if isinstance(node, (ast.List, ast.ListComp)):
        return list
    if isinstance(node, (ast.Dict, ast.DictComp)):
        return dict
    if isinstance(node, (ast.Set, ast.SetComp)):
        return set
    if isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        return str
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _TYPE_BY_CONSTRUCTOR:
        return _TYPE_BY_CONSTRUCTOR[node.func.id]
    return None


def _annotation_type(node: ast.expr | None) -> type | None:
    if node is None:
        return None
    if isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Name):
        return _TYPE_BY_ANNOTATION.get(node.id)
    return None


class _ReferenceVisitor(ast.NodeVisitor):
    """Attribute calls that cannot resolve: methods missing on builtin types, modules or ``self``'s class."""

    def __init__(self, shadowed_modules: set[str]) -> None:
        self.findings: list[Diagnostic] = []
        self.shadowed_modules = shadowed_modules
        self._scopes: list[dict[str, type | None]] = [{}]
        self._class_members: list[set[str] | None] = []

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        found: set[str] = set()
        # inherited or generated members are unknown, so such classes are not checked
        known = not (node.bases or node.keywords or node.decorator_list)
        for stmt in ast.walk(node):
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                found.add(stmt.name)
            elif isinstance(stmt, ast.Attribute) and isinstance(stmt.ctx, ast.Store):
                found.add(stmt.attr)
            elif isinstance(stmt, ast.Name) and isinstance(stmt.ctx, ast.Store):
                found.add(stmt.id)
            elif isinstance(stmt, ast.Call) and isinstance(stmt.func, ast.Name) and stmt.func.id == "setattr":
                known = False
        self._class_members.append(found if known else None)
        self.generic_visit(node)
        self._class_members.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        scope: dict[str, type | None] = {}
        for arg in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]:
            scope[arg.arg] = _annotation_type(arg.annotation)
        # a name assigned values of several types is not trusted
        for sub in ast.walk(node):
            targets: list[ast.expr] = []
            value: ast.expr | None = None
            if isinstance(sub, ast.Assign):
                targets, value = sub.targets, sub.value
            elif isinstance(sub, ast.AnnAssign):
                targets, value = [sub.target], sub.value
                if isinstance(sub.target, ast.Name):
                    self._merge(scope, sub.target.id, _annotation_type(sub.annotation))
            elif isinstance(sub, (ast.For, ast.comprehension, ast.With, ast.AugAssign, ast.NamedExpr)):
                for target_node in ast.walk(getattr(sub, "target", sub)):
                    if isinstance(target_node, ast.Name) and isinstance(target_node.ctx, ast.Store):
                        self._merge(scope, target_node.id, None)
            for target in targets:
                if isinstance(target, ast.Name):
                    self._merge(scope, target.id, _literal_type(value) if value is not None else None)
                else:
                    for name in ast.walk(target):
                        if isinstance(name, ast.Name):
                            self._merge(scope, name.id, None)
        self._scopes.append(scope)
        self.generic_visit(node)
        self._scopes.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    @staticmethod
    def _merge(scope: dict[str, type | None], name: str, kind: type | None) -> None:
        if name in scope and scope[name] is not kind:
            scope[name] = None
        else:
            scope[name] = kind

    def _type_of(self, name: str) -> type | None:
        for scope in reversed(self._scopes):
            if name in scope:
                return scope[name]
        return None

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            owner, attr = func.value.id, func.attr
            kind = self._type_of(owner)
            if kind is not None and not hasattr(kind, attr):
                self._report(func, f"'{kind.__name__}' object has no method '{attr}'", dir(kind))
            elif owner == "self" and self._class_members and self._class_members[-1] is not None:
                members = self._class_members[-1]
                if attr not in members and not hasattr(object, attr):
                    self._report(func, f"the class defines no method '{attr}'", sorted(members))
            elif (
                owner in _KNOWN_MODULES
                and owner not in self.shadowed_modules
                and all(owner not in scope for scope in self._scopes)
            ):
                module = importlib.import_module(owner)
                if not hasattr(module, attr):
                    self._report(func, f"module '{owner}' has no attribute '{attr}'", dir(module))
        self.generic_visit(node)

    def _report(self, node: ast.Attribute, message: str, candidates: list[str]) -> None:
        close = difflib.get_close_matches(node.attr, [c for c in candidates if not c.startswith("_")], n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        self.findings.append(
            Diagnostic(
                category="reference",
                line=node.lineno,
                column=node.col_offset,
                message=message + hint,
                code="undefined-method",
            )
        )


_PYFLAKES_REFERENCE = (pyflakes_messages.UndefinedName, pyflakes_messages.UndefinedLocal)
_PYFLAKES_SUSPICIOUS = {
    pyflakes_messages.IsLiteral: "is-literal",
    pyflakes_messages.MultiValueRepeatedKeyLiteral: "repeated-dict-key",
    pyflakes_messages.PercentFormatInvalidFormat: "bad-format",
    pyflakes_messages.StringDotFormatExtraPositionalArguments: "bad-format",
    pyflakes_messages.IfTuple: "if-tuple",
    pyflakes_messages.AssertTuple: "assert-tuple",
}


def reference_diagnostics(tree: ast.Module, *, preamble: Collection[str] = ()) -> list[Diagnostic]:
    """pyflakes' undefined names plus attribute calls that cannot resolve, for a parsed module."""
    flakes = pyflakes_checker.Checker(tree, filename="<student>", builtins=set(preamble))
    found: list[Diagnostic] = []
    for message in flakes.messages:
        if isinstance(message, _PYFLAKES_REFERENCE):
            code = "undefined-name" if isinstance(message, pyflakes_messages.UndefinedName) else "undefined-local"
            found.append(
                Diagnostic(
                    category="reference",
                    line=message.lineno,
                    column=message.col,
                    message=message.message % message.message_args,
                    code=code,
                )
            )
        elif type(message) in _PYFLAKES_SUSPICIOUS:
            found.append(
                Diagnostic(
                    category="suspicious-logic",
                    line=message.lineno,
                    column=message.col,
                    message=message.message % message.message_args,
                    code=_PYFLAKES_SUSPICIOUS[type(message)],
                )
            )
    assigned = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    visitor = _ReferenceVisitor(shadowed_modules=assigned)
    visitor.visit(tree)
    found.extend(visitor.findings)
    return found


def undefined_names(tree: ast.Module, *, preamble: Collection[str] = ()) -> list[tuple[str, int, int]]:
    """``(name, line, column)`` for each use of a name that is never defined (pyflakes)."""
    flakes = pyflakes_checker.Checker(tree, filename="<student>", builtins=set(preamble))
    return [(str(m.message_args[0]), m.lineno, m.col) for m in flakes.messages if isinstance(m, _PYFLAKES_REFERENCE)]


# ---------------------------------------------------------------------------------------------------------------
# Suspicious logic.

_BUILTIN_NAMES = frozenset(n for n in dir(builtins) if not n.startswith("_") and n[0].islower())
_TERMINATORS = (ast.Return, ast.Raise, ast.Continue, ast.Break)


def _always_exits(body: list[ast.stmt]) -> bool:
    """True when every path through ``body`` ends in return/raise (so an enclosing loop runs once)."""
    for stmt in body:
        if isinstance(stmt, (ast.Return, ast.Raise)):
            return True
        if isinstance(stmt, ast.If) and stmt.orelse and _always_exits(stmt.body) and _always_exits(stmt.orelse):
            return True
    return False


class _SuspiciousVisitor(ast.NodeVisitor):
    def __init__(self) -> None:
        self.findings: list[Diagnostic] = []

    def _add(self, node: ast.AST, code: str, message: str) -> None:
        self.findings.append(
            Diagnostic(
                category="suspicious-logic",
                line=getattr(node, "lineno", 1),
                column=getattr(node, "col_offset", 0),
                message=message,
                code=code,
            )
        )

    def generic_visit(self, node: ast.AST) -> None:
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                self._check_block(block, in_loop=isinstance(node, (ast.For, ast.While)) and name == "body")
        super().generic_visit(node)

    def _check_block(self, block: list[ast.stmt], *, in_loop: bool) -> None:
        for i, stmt in enumerate(block[:-1]):
            if isinstance(stmt, _TERMINATORS):
                kind = type(stmt).__name__.lower()
                self._add(block[i + 1], "unreachable-code", f"code after '{kind}' on line {stmt.lineno} never runs")
                break
        if in_loop and _always_exits(block):
            self._add(block[-1], "loop-exits-first-iteration", "the loop body always returns, so it runs at most once")

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        own = list(_own_nodes(node))
        returns_value = any(isinstance(n, ast.Return) and n.value is not None for n in own)
        yields = any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in own)
        if not returns_value and not yields:
            for n in own:
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "print":
                    self._add(
                        n,
                        "print-instead-of-return",
                        f"'{node.name}' prints but never returns a value; 'return' may be meant",
                    )
                    break
        for arg in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]:
            if arg.arg in _BUILTIN_NAMES:
                self._add(arg, "shadowed-builtin", f"parameter '{arg.arg}' shadows the builtin '{arg.arg}'")
        self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Expr(self, node: ast.Expr) -> None:
        value = node.value
        if isinstance(value, ast.Compare) and len(value.ops) == 1 and isinstance(value.ops[0], ast.Eq):
            self._add(node, "comparison-statement", "comparison result is discarded; '=' (assignment) may be meant")
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            if isinstance(target, ast.Name) and target.id in _BUILTIN_NAMES:
                self._add(target, "shadowed-builtin", f"'{target.id}' shadows the builtin '{target.id}'")
            if isinstance(target, ast.Name) and isinstance(node.value, ast.Name) and node.value.id == target.id:
                self._add(node, "self-assignment", f"'{target.id}' is assigned to itself")
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        if any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.Div) for n in ast.walk(node.slice)):
            self._add(node, "float-division-index", "'/' gives a float, which cannot index; '//' may be meant")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        if isinstance(node.func, ast.Name) and node.func.id == "range":
            for arg in node.args:
                if any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.Div) for n in ast.walk(arg)):
                    self._add(arg, "float-division-range", "'/' gives a float, which range() rejects; use '//'")
                    break
        self.generic_visit(node)


def _own_nodes(func: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.AST]:
    """The nodes of ``func``'s body that belong to it, not to nested functions, lambdas or classes."""
    stack: list[ast.AST] = list(func.body)
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                stack.append(child)


def suspicious_diagnostics(tree: ast.Module) -> list[Diagnostic]:
    """Patterns that run but are usually wrong (see the module docstring)."""
    visitor = _SuspiciousVisitor()
    visitor.visit(tree)
    return visitor.findings


# ---------------------------------------------------------------------------------------------------------------
# Public entry points.


def check(source: str, *, preamble: Collection[str] = (), language: Language = "python") -> list[Diagnostic]:
    """Every diagnostic for ``source``, sorted by line: syntax first found, then reference and suspicious logic.

    When the source does not compile, reference and suspicious-logic checks run on a neutralised copy (each syntax
    error replaced by a harmless line), so a program with several kinds of errors reports all of them. C++ and
    Java (``language``) get the compiler's diagnostics, from a compile in the sandbox, and the pattern checks of
    :mod:`debugtutor.analysis.clike.diagnostics`.
    """
    if language != "python":
        from debugtutor.analysis.clike.diagnostics import check as compiled_check

        return compiled_check(source, language)
    issues, compiled = syntax_issues(source)
    found = [issue.diagnostic for issue in issues]
    if compiled is not None:
        try:
            tree = python_ast.parse(compiled)
        except (SyntaxError, ValueError, RecursionError):
            tree = None
        if tree is not None:
            found.extend(reference_diagnostics(tree, preamble=preamble))
            found.extend(suspicious_diagnostics(tree))
    unique = {(d.line, d.column, d.code, d.message): d for d in found}
    return sorted(unique.values(), key=lambda d: (d.line, d.column, d.code))


def classify(source: str, *, preamble: Collection[str] = LEETCODE_PREAMBLE) -> MajorCategory:
    """Predict DebugBench's major bug category of a buggy program from its static diagnostics.

    Errors are grouped into sites (one per line); a program with error sites of both syntax and reference kind,
    or with three or more error sites, is ``multiple``; otherwise the kind of its errors; no error at all means
    the bug must be in the logic.
    """
    return classify_diagnostics(check(source, preamble=preamble))


def classify_diagnostics(diagnostics: list[Diagnostic]) -> MajorCategory:
    """The major-category rule of :func:`classify`, on diagnostics already computed."""
    sites: dict[int | str, str] = {}
    syntax_lines = {d.line for d in diagnostics if d.category == "syntax"}
    for diagnostic in diagnostics:
        if diagnostic.category == "syntax":
            sites[diagnostic.line] = "syntax"
        elif diagnostic.category == "reference" and diagnostic.line not in syntax_lines:
            # one misspelt or missing name used on many lines is one bug: key reference sites by their message
            key = diagnostic.message if diagnostic.code.startswith("undefined") else diagnostic.line
            sites.setdefault(key, "reference")
    kinds = set(sites.values())
    if not sites:
        return "logic"
    if len(kinds) > 1 or len(sites) >= 3:
        return "multiple"
    return "syntax" if kinds == {"syntax"} else "reference"


def is_keyword(name: str) -> bool:
    """True for Python keywords (also soft keywords), which can never be variable names."""
    return keyword.iskeyword(name) or keyword.issoftkeyword(name)


def tokens_or_none(source: str) -> list[tokenize.TokenInfo] | None:
    """The token stream of ``source``, or ``None`` when it does not tokenize."""
    try:
        return list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None
