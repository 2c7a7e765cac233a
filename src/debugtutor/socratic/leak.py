"""The leak guard: does an instructor utterance give the fix away, in code or in plain words?

A Socratic instructor leads the student to the fix and never states it. The guard first works out what the fix
*does* to the program, from the fixed program (a line diff, then a token diff inside changed lines) and from the
benchmark-style prose (``Replace `A` with `B` on line N`` is applied to the buggy code; other fix lines name edits
with verbs such as *swap*, *move* or *insert*):

- the new code it writes: every sub-expression of a changed line that the buggy program does not already contain
  (``range(1, n + 1)``, ``n + 1``, ``nums[0]``), and the tokens it adds or removes (``%``, ``<=``, ``return``);
- the kind of edit: arguments swapped, a line moved, indented or dedented, inserted or deleted, a result assigned.

Each kind of edit and each added token comes with the plain words people use for it (``//`` is "integer
division", a dedent is "out of the loop", ``+ 1`` is "add one"); the table is general, not written for any one bug.

An utterance (checked one sentence at a time) leaks when

1. it quotes new code of the fix (two tokens or more), framed as a question or not; or
2. it is *framed as an edit*: an order (``Swap the two arguments``), a modal (``you need to``), a suggestion or a
   leading question (``what if you ...``, ``have you tried ...``, ``shouldn't ...``, ``isn't ... what you want``), a
   norm (``should be``, ``instead of``, ``rather than``), and it names what the fix changes: an added token, the
   words for the edit, a removed token with a delete verb, or new code the student cannot see anywhere.

Debugging moves are not edits ("add a print statement", "try calling ``f(3)``", "change the test input"), and calls
of the program's own functions are test inputs, not fixes. Mentioning the *buggy* code, asking what an operator does
in general, or pointing at a line is fine.
"""

from __future__ import annotations

import ast
import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from debugtutor import python_ast

# -- tokens -------------------------------------------------------------------------------------------------------

_TOKEN = re.compile(r"\d+(?:\.\d+)?|[A-Za-z_]\w*|\*\*|//|<<|>>|[-+*/%&|^@<>=!]=|->|:=|[^\s\w]")
_QUOTES = str.maketrans({"\u2018": '"', "\u2019": '"', "\u201c": '"', "\u201d": '"', "'": '"'})
_BACKTICK = re.compile(r"`([^`\n]+)`")
_FENCE = re.compile(r"```[\w+-]*\n(.*?)(?:```|$)", re.S)
# Keywords that are also everyday English words: they name a change only when quoted or used as a noun.
_ENGLISH_KEYWORDS = frozenset({"and", "or", "not", "in", "is", "for", "if", "else", "as", "with", "from", "pass"})
_OPENERS = {"(": ")", "[": "]", "{": "}"}


def tokens(text: str) -> tuple[str, ...]:
    """Code-ish tokens of a text: names, numbers, operators; quotes of every kind count as one ``"`` token."""
    return tuple(_TOKEN.findall(text.translate(_QUOTES)))


def _contains(haystack: Sequence[str], needle: Sequence[str]) -> bool:
    n = len(needle)
    if n == 0 or n > len(haystack):
        return False
    first = needle[0]
    return any(
        haystack[i] == first and tuple(haystack[i : i + n]) == tuple(needle) for i in range(len(haystack) - n + 1)
    )


def _balanced(toks: Sequence[str]) -> bool:
    depth: list[str] = []
    for tok in toks:
        if tok in _OPENERS:
            depth.append(_OPENERS[tok])
        elif tok in _OPENERS.values() and (not depth or depth.pop() != tok):
            return False
    return not depth


# -- what the fix does -------------------------------------------------------------------------------------------


@dataclass
class FixEdit:
    """What a fix changes: new code fragments (token tuples), tokens added and removed, and the kinds of edit."""

    fragments: set[tuple[str, ...]] = field(default_factory=set)
    added: set[str] = field(default_factory=set)
    removed: set[str] = field(default_factory=set)
    kinds: set[str] = field(default_factory=set)

    def update(self, other: FixEdit) -> None:
        self.fragments |= other.fragments
        self.added |= other.added
        self.removed |= other.removed
        self.kinds |= other.kinds


_RANGE_ONE_ARG = re.compile(r"\brange\(\s*([^,()]+(?:\([^()]*\))?[^,()]*)\)")


def _normalized(line: str) -> str:
    """``range(E)`` is ``range(0, E)``: dropping a start of 1 *adds* the start 0, which is how people say it."""
    return _RANGE_ONE_ARG.sub(r"range(0, \1)", line)


def _parseable(line: str) -> ast.AST | None:
    text = line.strip()
    if text.startswith("elif "):
        text = text[2:]
    if text.endswith(":"):
        text += " pass"
    for candidate in (text, f"({text})"):
        try:
            return python_ast.parse(candidate)
        except SyntaxError:
            continue
    return None


def _sub_expressions(line: str) -> list[tuple[str, ...]]:
    """Token tuples of the line and of every sub-expression (and subscript slice) in it."""
    text = line.strip()
    found = [tokens(text)]
    tree = _parseable(text)
    if tree is None:
        return found
    for node in ast.walk(tree):
        if isinstance(node, (ast.expr, ast.stmt)) and not isinstance(node, ast.Pass):
            try:
                segment = ast.unparse(node)
            except Exception:  # an unparseable node is just skipped
                continue
            found.append(tokens(segment))
            if isinstance(node, ast.Subscript):
                found.append(("[", *tokens(ast.unparse(node.slice)), "]"))
    return [f for f in found if f]


def _line_edit(old_lines: Sequence[str], new_lines: Sequence[str], known: Sequence[str]) -> FixEdit:
    """A changed block: the token diff, the fragments new to the program, swaps and assigned results."""
    edit = FixEdit()
    old_toks = [t for line in old_lines for t in tokens(_normalized(line))]
    new_toks = [t for line in new_lines for t in tokens(_normalized(line))]
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old_toks, b=new_toks, autojunk=False).get_opcodes():
        if tag in ("replace", "insert"):
            edit.added.update(new_toks[j1:j2])
        if tag in ("replace", "delete"):
            edit.removed.update(old_toks[i1:i2])
    if old_toks and sorted(old_toks) == sorted(new_toks) and old_toks != new_toks:
        edit.kinds.add("swap")
        edit.added.clear()
        edit.removed.clear()
    if len(old_lines) == len(new_lines) == 1:
        old, new = old_lines[0].strip(), new_lines[0].strip()
        target = re.match(r"^([A-Za-z_][\w.\[\]]*)\s*=(?!=)\s*(.+)$", new)
        if target and tokens(target.group(2)) == tokens(old):
            edit.kinds.add("assign")
    for line in new_lines:
        for fragment in _sub_expressions(_normalized(line)):
            if len(fragment) >= 2 and _balanced(fragment) and not _contains(known, fragment):
                edit.fragments.add(fragment)
    return edit


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def diff_edit(buggy: str, fixed: str, known: Sequence[str] | None = None) -> FixEdit:
    """What turning ``buggy`` into ``fixed`` does (see the module docstring)."""
    known = tokens(buggy) if known is None else known
    old = [line for line in buggy.splitlines() if line.strip()]
    new = [line for line in fixed.splitlines() if line.strip()]
    old_stripped = [line.strip() for line in old]
    new_stripped = [line.strip() for line in new]
    edit = FixEdit()
    inserted: list[str] = []
    deleted: list[str] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old_stripped, b=new_stripped, autojunk=False).get_opcodes():
        if tag == "equal":
            for a, b in zip(old[i1:i2], new[j1:j2]):
                if _indent(a) != _indent(b):
                    edit.kinds.add("dedent" if _indent(b) < _indent(a) else "indent")
                    edit.added.update(tokens(b.strip())[:1])
        elif tag == "replace":
            edit.update(_line_edit(old[i1:i2], new[j1:j2], known))
        elif tag == "insert":
            inserted.extend(new_stripped[j1:j2])
        else:
            deleted.extend(old_stripped[i1:i2])
    moved = set(inserted) & set(deleted)
    if moved:
        edit.kinds.add("move")
        for line in moved:
            edit.added.update(tokens(line)[:1])
    for line in inserted:
        if line not in moved:
            edit.kinds.add("insert")
            edit.update(_line_edit([], [line], known))
    for line in deleted:
        if line not in moved:
            edit.kinds.add("delete")
            edit.removed.update(tokens(line))
    return edit


_REPLACE = re.compile(
    r"(?:replace|change|turn|convert|rewrite)\s+(?:the\s+)?`([^`]+)`\s+(?:with|to|into|by)\s*`([^`]+)`", re.I
)
_ON_LINE = re.compile(r"\blines?\s+(\d+)", re.I)
_PROSE_KINDS = {
    "swap": re.compile(r"\b(?:swap|switch|exchange|reverse the order|other way round)", re.I),
    "move": re.compile(r"\bmove", re.I),
    "dedent": re.compile(r"\b(?:dedent|unindent|outdent|remove (?:a |one )?(?:tab |level of )?indent)", re.I),
    "indent": re.compile(r"\b(?:indent|insert (?:a )?tab)", re.I),
    "insert": re.compile(r"\b(?:insert|add)\b", re.I),
    "delete": re.compile(r"\b(?:remove|delete)\b", re.I),
}


def prose_edit(fix: str, buggy: str, known: Sequence[str]) -> FixEdit:
    """What one benchmark fix line does: replacements are applied to the buggy code, other code spans are new."""
    edit = FixEdit()
    lines = buggy.splitlines()
    replacements = _REPLACE.findall(fix)
    if replacements:
        line_numbers = [int(n) for n in _ON_LINE.findall(fix)]
        fixed_lines = list(lines)
        applied = False
        for old, new in replacements:
            targets = [n - 1 for n in line_numbers if 0 < n <= len(lines) and old in fixed_lines[n - 1]]
            if not targets:
                targets = [i for i, line in enumerate(fixed_lines) if old in line][:1]
            for index in targets:
                fixed_lines[index] = fixed_lines[index].replace(old, new, 1)
                applied = True
            if not targets:
                edit.update(_line_edit([old], [new], known))
        if applied:
            edit.update(diff_edit(buggy, "\n".join(fixed_lines), known))
    for kind, pattern in _PROSE_KINDS.items():
        if pattern.search(fix) and not (replacements and kind in ("insert", "delete")):
            edit.kinds.add(kind)
    replaced = {new for _, new in replacements} | {old for old, _ in replacements}
    spans = [s for s in _BACKTICK.findall(fix) if s not in replaced] + _FENCE.findall(fix)
    for span in spans:
        for line in span.splitlines():
            if line.strip():
                edit.update(_line_edit([], [line], known))
    return edit


# -- the words for an edit ---------------------------------------------------------------------------------------

_W = r"(?<![\w`])"  # a word start that is not inside a code span's name
_TOKEN_WORDS: dict[str, str] = {
    "//": r"integer division|floor division|floor|two slashes|double slash|whole number",
    "%": r"modulo|modulus|\bmod\b|remainder|percent",
    "!=": r"not equal|unequal|different|negat\w*|flip\w*|opposite|invert\w*",
    "==": r"double equals?|equality|two equals",
    "<=": r"or equal|equal to|equals? sign|includ\w*|inclusive|at most|as well|also",
    ">=": r"or equal|equal to|equals? sign|includ\w*|inclusive|at least|as well|also",
    "<": r"less than|smaller than|strict\w*",
    ">": r"greater than|bigger than|larger than|strict\w*",
    "**": r"power|exponent|squared?",
    "*": r"multipl\w*|times|product|by itself",
    "/": r"divi\w*",
    "+": r"add(?:ing)? one|plus|one more|increas\w*|increment\w*|rais\w*|by one|higher|larger",
    "-": r"subtract\w*|minus|one less|less one|fewer|earlier|decreas\w*|decrement\w*|lower|smaller|by one",
    "=": r"assign\w*|stor(?:e|es|ed|ing)|sav(?:e|es|ed|ing)|captur\w*|variable|back (?:in)?to",
    "0": r"zero|first (?:element|item|index|value|one|position)|beginning",
    "1": r"\bone\b",
    "[": r"index\w*|first (?:element|item)|element|subscript",
    "return": r"return\w*|give back|hand back",
    "str": r"strings?\b|text|\bstr\b",
    "int": r"integers?|\bint\b|whole number",
    "float": r"float\w*|decimal",
    "len": r"length|\blen\b|size",
    "sorted": r"\bsort\w*",
    "reversed": r"revers\w*",
    "lower": r"lower[- ]?cas\w*|lower\b|same case",
    "upper": r"upper[- ]?cas\w*|upper\b|same case",
    "casefold": r"same case|lower[- ]?cas\w*",
    "get": r"\.?get\b|default",
    "print": r"print\w*",
    "not": r"negat\w*|opposite|invert\w*",
    ":": r"colon",
}
_KIND_WORDS: dict[str, str] = {
    "swap": r"swap\w*|switch\w*|exchang\w*|order|other way|revers\w*|\bfirst\b.*\bsecond\b|\bbefore\b|\bafter\b",
    "dedent": r"dedent\w*|unindent\w*|outdent\w*|out of the (?:loop|if|for|while|block)|outside|after the loop|"
    r"same level|indent\w*|once the loop|loop (?:is )?(?:done|finishe?s?d?|ends?)",
    "indent": r"indent\w*|inside the (?:loop|if|block)|into the (?:loop|if|block)|in the loop",
    "move": r"\bmov\w*|before the (?:loop|for|while)|above|below|outside|out of the|take \w+(?: \d+)? out|once\b",
    "insert": r"forg[oe]t\w*|missing|another line|new line|extra line|(?:add|insert)\w* (?:a |an |another |one more )?"
    r"(?:line|statement)|handle|else case|otherwise",
    "delete": r"remov\w*|delet\w*|drop\w*|get rid|take out|without",
    "assign": r"assign\w*|stor(?:e|es|ed|ing)\b|sav(?:e|es|ed|ing)\b|captur\w*|variable|back (?:in)?to",
}
_DELETE_VERBS = re.compile(r"\b(?:remov\w*|delet\w*|drop\w*|get rid of|take out|without|leave out|no need for)\b", re.I)

# -- how a sentence frames an edit -------------------------------------------------------------------------------

_EDIT_VERBS = (
    r"add|append|apply|assign|begin|call|capture|cast|change|compare|convert|correct|declare|decrement|dedent|"
    r"define|delete|divide|drop|edit|fix|flip|give|handle|increase|increment|indent|index|initiali[sz]e|insert|"
    r"invert|iterate|keep|loop|lower-case|lowercase|make|modify|move|multiply|negate|outdent|pass|put|raise|"
    r"remove|rename|replace|reset|return|reverse|rewrite|save|set|shift|slice|sort|square|start|stop|store|"
    r"subtract|swap|switch|take|turn|unindent|update|use|wrap|write"
)
_LEAD_IN = r"(?:(?:so|now|then|just|please|first|next|also|and|but|ok(?:ay)?|great|good|well|alright|instead)[,]?\s+)*"
_IMPERATIVE = re.compile(rf"(?:^|[.;:!?]\s+|,\s+(?:and|then)\s+|\band then\s+)\W*{_LEAD_IN}(?:{_EDIT_VERBS})\b", re.I)
_CHANGE_VERBS = (
    r"change|replace|use|add|insert|remove|delete|swap|switch|move|put|set|initiali[sz]e|make|rewrite|fix|update|"
    r"assign|store|convert|wrap|return|start|stop|begin"
)
# Suggestions, in a question or not: "what if you ...", "have you tried ...", "try the modulo operator".
_SUGGESTION = re.compile(
    rf"\b(?:why\s+not|how\s+about|what\s+about|"
    rf"what\s+if(?!\s+(?:there\b|it\b|the\s+(?:input|list|string|number|array|user|test)|"
    rf"(?:we|you)\s+(?:call|run|test|pass|print|try)))|"
    rf"have\s+you\s+(?:tried|considered|thought\s+about)|did\s+you\s+(?:try|consider)|"
    rf"(?:try|consider)\s+(?:to\s+)?(?:(?:{_CHANGE_VERBS})\w*\b|`|the\s+\w+\s+(?:operator|function|method|keyword)))",
    re.I,
)
# "Could you change ...?" asks for an edit; "where could you change ...?" asks the student to find the place.
_ASK_TO_CHANGE = re.compile(rf"\b(?:can|could|would)\s+you\s+(?:please\s+)?(?:{_CHANGE_VERBS})\b", re.I)
# Telling, in a statement: "you need to ...", "let's change ...", "you forgot ...".
_MODAL = re.compile(
    r"\b(?:you(?:'ll| will)?\s+(?:should|need(?:s)?(?:\s+to)?|have\s+to|must|ought\s+to|might\s+want\s+to|"
    r"want\s+to|may\s+want\s+to)|let'?s(?!\s+(?:also\s+)?(?:keep|remember|note|recall))|let\s+us|maybe|perhaps|"
    r"you\s+forgot|you\s+(?:are|were)\s+missing)\b",
    re.I,
)
_LEADING = re.compile(
    r"^\W*(?:(?:and|so|but|now|then|hmm|ok(?:ay)?|well)[,]?\s+)?(?:shouldn'?t|wouldn'?t|isn'?t|doesn'?t|don'?t|"
    r"won'?t|couldn'?t|aren'?t|should)\b|"
    r"\b(?:isn'?t|wouldn'?t)\b.*\b(?:what you want|what you need|better|correct|right)\b",
    re.I,
)
_NORM = re.compile(
    r"\b(?:should|must|needs?\s+to|has\s+to|have\s+to|ought\s+to)\s+(?:also\s+|only\s+|really\s+)?"
    r"(?:be|read|say|start|stop|begin|end|go|come|include|use|check|cover|look|contain|have|run|loop)\b|"
    r"\bthe\s+(?:fix|solution|answer|correct\s+(?:code|version|line|expression))\s+is\b|"
    r"\binstead\b|\brather\s+than\b|\bis\s+missing\b|\bin\s+the\s+wrong\s+order\b",
    re.I,
)
_WH_QUESTION = re.compile(
    r"^\W*(?:(?:and|so|but|now|then|good|great|ok(?:ay)?|well|right|exactly)[,.!]?\s+)*"
    r"(?:what|which|how|where|when|why|who|whose)\b(?!\s+(?:if|about)\b)",
    re.I,
)
# Debugging moves, not edits: a print statement, the debugger, a test input, running or calling something.
_DEBUG_MOVE = re.compile(
    r"\b(?:print\s+statements?|a\s+print\b|print(?:ing)?\s+(?:out|the|it)|print\(|debugger|breakpoint|"
    r"test\s+(?:input|case|cases)|the\s+tests?\b|in\s+the\s+(?:shell|terminal|interpreter)|step\s+through|"
    r"(?:try|trying)\s+(?:calling|running|it|again|the\s+test)|run(?:ning)?\s+(?:it|the|your|this)|trac(?:e|ing)\b|"
    r"move\s+on|let'?s\s+(?:print|trace|test|look|check|run|walk|step|see|try\s+it|review|go\s+over|examine|"
    r"revisit|read|think|consider|suppose|say|assume|imagine|start\s+(?:by|with)|also\s+(?:look|review|check)))",
    re.I,
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[\"'`(]?[A-Z])")


@dataclass(frozen=True)
class LeakVerdict:
    """Whether an utterance leaks the fix, and why."""

    leaked: bool
    reasons: tuple[str, ...] = ()


def _words_pattern(alternatives: Iterable[str]) -> re.Pattern[str] | None:
    parts = [f"(?:{a})" for a in alternatives if a]
    return re.compile(rf"{_W}(?:{'|'.join(parts)})", re.I) if parts else None


@dataclass
class LeakGuard:
    """Checks utterances against one bug's fixes; build it once per bug.

    ``bug_fixes`` are benchmark-style prose lines (each an alternative fix), ``fixed_code`` a fixed program; give
    either or both. ``context`` (the problem statement and unit tests) is code the student already sees: calls such
    as ``fibonacci(5)`` taken from the examples are not new code.
    """

    bug_code: str
    bug_fixes: list[str]
    fixed_code: str | None = None
    context: str = ""
    edit: FixEdit = field(init=False)

    def __post_init__(self) -> None:
        known = tokens(self.bug_code)
        self._known = known
        self._context = tokens(self.context)
        self._own_functions = set(re.findall(r"^\s*def\s+([A-Za-z_]\w*)", self.bug_code, re.M))
        self._own_functions |= set(re.findall(r"\bassert\s+(?:not\s+)?([A-Za-z_]\w*)\s*\(", self.context))
        edit = FixEdit()
        if self.fixed_code:
            edit.update(diff_edit(self.bug_code, self.fixed_code, known))
        for fix in self.bug_fixes:
            edit.update(prose_edit(fix, self.bug_code, known))
        # A fragment the student can already see in the problem or the tests is not news.
        edit.fragments = {f for f in edit.fragments if not _contains(self._context, f)}
        edit.added.discard("")
        self.edit = edit
        self._concepts = _words_pattern(
            [_TOKEN_WORDS[t] for t in sorted(edit.added) if t in _TOKEN_WORDS]
            + [_KIND_WORDS[k] for k in sorted(edit.kinds) if k in _KIND_WORDS]
        )
        self._named = sorted(edit.added, key=len, reverse=True)

    @property
    def fragments(self) -> list[str]:
        """The new code of the fix, as space-joined token strings (for reports and tests)."""
        return sorted(" ".join(f) for f in self.edit.fragments)

    # -- sentence analysis ---------------------------------------------------------------------------------------

    def _strip_test_calls(self, sentence: str) -> str:
        """Remove calls of the program's own functions (test inputs such as ``sum_to(4)``)."""
        for name in self._own_functions:
            sentence = re.sub(rf"\b{re.escape(name)}\s*\([^()]*(?:\([^()]*\)[^()]*)*\)", " ", sentence)
        return sentence

    def _framing(self, sentence: str) -> str | None:
        if _DEBUG_MOVE.search(sentence) and not _NORM.search(sentence):
            return None
        wh_question = _WH_QUESTION.search(sentence) is not None
        if _SUGGESTION.search(sentence) or (_ASK_TO_CHANGE.search(sentence) and not wh_question):
            return "suggests an edit"
        if _LEADING.search(sentence):
            return "asks a leading question"
        if sentence.rstrip().endswith("?"):
            # A question asks; only an order inside it tells ("... and change it to X?" is rare but happens).
            return "tells the student which edit to make" if _IMPERATIVE.search(sentence) and not wh_question else None
        if _IMPERATIVE.search(sentence):
            return "tells the student which edit to make"
        if _MODAL.search(sentence):
            return "tells the student to make an edit"
        if _NORM.search(sentence):
            return "says what the code should be"
        return None

    def _names_token(self, sentence: str, spans: Sequence[tuple[str, ...]], token: str) -> bool:
        if any(token in span for span in spans):
            return True
        if not re.match(r"\w", token):
            return False  # an operator outside a code span is prose punctuation
        if token in _ENGLISH_KEYWORDS:
            # "the and", "an or", "with or.": the keyword used as a noun, not as a word of the sentence
            noun = rf"\b(?:the|an?|with|to|use|using|by|into)\s+{token}\b(?=\s*(?:[.,;!?]|$|operator|keyword|instead))"
            return re.search(noun, sentence, re.I) is not None
        if len(token) == 1 and token.isalpha():
            return False  # a one-letter name outside a code span reads as an English word
        if token in self._known:
            # A name the program already uses reads as a plain word, unless quoted as code or named as the new
            # value ("replace total with nums").
            return re.search(rf"\b(?:with|to|into|by)\s+(?:the\s+)?{re.escape(token)}\b", sentence) is not None
        return re.search(rf"(?<![\w.]){re.escape(token)}(?!\w)", sentence) is not None

    def _sentence_reasons(self, sentence: str) -> list[str]:
        reasons: list[str] = []
        text = self._strip_test_calls(sentence)
        toks = tokens(text.replace("`", " "))
        for fragment in sorted(self.edit.fragments, key=len, reverse=True):
            if _contains(toks, fragment):
                reasons.append(f"contains the fix `{' '.join(fragment)}`")
                break
        framing = self._framing(text)
        if framing is None:
            return reasons
        spans = [tokens(s) for s in _BACKTICK.findall(text)]
        named = [t for t in self._named if self._names_token(text, spans, t)]
        if named:
            reasons.append(f"{framing}: names `{named[0]}`, which the fix adds")
        if self._concepts is not None:
            match = self._concepts.search(text)
            if match:
                reasons.append(f"{framing}: describes the edit (\u201c{match.group(0)}\u201d)")
        if _DELETE_VERBS.search(text):
            gone = [t for t in sorted(self.edit.removed) if self._names_token(text, spans, t)]
            if gone:
                reasons.append(f"{framing}: says to remove `{gone[0]}`")
        unknown = [
            s for s in spans if s and not _contains(self._known, s) and not _contains(self._context, s) and s != ('"',)
        ]
        if unknown:
            reasons.append(f"{framing}: names new code `{' '.join(unknown[0])}`")
        return reasons

    def check(self, utterance: str) -> LeakVerdict:
        """Flag an utterance that writes the fix, or frames an edit and names what the fix changes."""
        reasons: list[str] = []
        for sentence in _SENTENCE.split(" ".join(utterance.split())):
            reasons.extend(self._sentence_reasons(sentence))
        return LeakVerdict(bool(reasons), tuple(dict.fromkeys(reasons)))

    def leak_rate(self, utterances: Iterable[str]) -> float:
        items = list(utterances)
        return sum(self.check(u).leaked for u in items) / len(items) if items else 0.0
