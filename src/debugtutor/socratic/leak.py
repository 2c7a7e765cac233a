"""The leak guard: does an instructor utterance give the fix away?

A Socratic instructor leads the student to the fix and never states it. An utterance leaks when it contains the
fixed code or expression (a code fragment that the bug fixes or the fixed program introduce and the buggy code does
not contain), or when it tells the student to make an edit and names new code to write. Mentioning the *buggy*
code is fine ("What does `range(0, n)` produce?") and so is pointing at a line.

Fix fragments come from the benchmark's ``<bug_fixes>`` prose (backticked spans, the right-hand side of "replace `A`
with `B`", fenced code) and, when a fixed program is known, from the lines that differ from the buggy code.
Comparisons ignore whitespace, so ``range(1,n)`` matches ``range(1, n)``.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

_BACKTICK = re.compile(r"`([^`\n]+)`")
_FENCE = re.compile(r"```(?:python)?\n(.*?)```", re.S)
_REPLACE_WITH = re.compile(r"(?:replace|change)\s+`([^`]+)`\s+(?:with|to|into|by)\s+`([^`]+)`", re.I)
_EDIT_VERBS = (
    r"change|replace|modify|rewrite|update|set|use|add|remove|delete|insert|swap|switch|initiali[sz]e|"
    r"put|return|append|assign|edit|fix|turn"
)
# An edit the student is told to make: a modal ("you should", "try", "let's"...) or a sentence-initial imperative
# followed by an edit verb.
_DIRECTIVE = re.compile(
    rf"(?:\b(?:you\s+(?:should|need\s+to|have\s+to|must|want\s+to|could|can)|try\s+to|try|just|simply|"
    rf"let'?s|go\s+ahead\s+and|please)\s+(?:{_EDIT_VERBS})\b|(?:^|[.!;:]\s+)(?:{_EDIT_VERBS})\b)",
    re.I,
)
_ANSWER_STATEMENT = re.compile(
    r"\b(?:the (?:fix|solution|answer|correct code|bug fix) is|should (?:be|read|say)|needs? to be|"
    r"must be|has to be|instead of)\b",
    re.I,
)
_TOKEN = re.compile(r"\w+|[^\w\s]+")
_SINGLE_TOKEN = re.compile(r"^(?:\w+|[^\w\s]+)$")


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _code_spans(text: str) -> list[str]:
    return [m.group(1) for m in _BACKTICK.finditer(text)] + [m.group(1) for m in _FENCE.finditer(text)]


@dataclass(frozen=True)
class LeakVerdict:
    """Whether an utterance leaks the fix, and why."""

    leaked: bool
    reasons: tuple[str, ...] = ()


@dataclass
class LeakGuard:
    """Checks utterances against one bug's fixes; build it once per bug.

    ``context`` (the problem statement and unit tests) lists code the student already sees: calls such as
    ``fibonacci(5)`` taken from the examples are not new code.
    """

    bug_code: str
    bug_fixes: list[str]
    fixed_code: str | None = None
    context: str = ""
    fragments: list[str] = field(init=False)
    changed_tokens: list[str] = field(init=False)

    def __post_init__(self) -> None:
        self._known = _squash(self.bug_code) + "\n" + _squash(self.context)
        candidates: list[str] = []
        changed: list[str] = []
        for fix in self.bug_fixes:
            replaced = _REPLACE_WITH.findall(fix)
            if replaced:
                candidates.extend(new for _, new in replaced)
                for old, new in replaced:
                    old_tokens = set(_TOKEN.findall(old))
                    changed.extend(tok for tok in _TOKEN.findall(new) if tok not in old_tokens)
            else:
                candidates.extend(_code_spans(fix))
        self.changed_tokens = list(dict.fromkeys(changed))
        if self.fixed_code:
            candidates.extend(_added_lines(self.bug_code, self.fixed_code))
        fragments: list[str] = []
        for fragment in candidates:
            squashed = _squash(fragment)
            # A fragment the buggy code already contains (a variable name, the buggy line itself) reveals nothing.
            if len(squashed) >= 2 and squashed not in _squash(self.bug_code) and squashed not in fragments:
                fragments.append(squashed)
        self.fragments = fragments

    def _new_code(self, utterance: str) -> list[str]:
        return [s for s in _code_spans(utterance) if _squash(s) and _squash(s) not in self._known]

    def check(self, utterance: str) -> LeakVerdict:
        """Flag an utterance that writes the fix, or tells the student which new code to write."""
        squashed = _squash(utterance)
        directive = bool(_DIRECTIVE.search(utterance) or _ANSWER_STATEMENT.search(utterance))
        reasons: list[str] = []
        for fragment in self.fragments:
            if fragment not in squashed:
                continue
            # A lone token (`True`, `<=`, `return`) is a topic to ask about; with an instruction it is the answer.
            if not _SINGLE_TOKEN.match(fragment) or directive:
                reasons.append(f"contains the fix `{fragment}`")
        if directive:
            spans = {_squash(s) for s in _code_spans(utterance)}
            for token in self.changed_tokens:
                named = rf"\b(?:to|with|as|be|into|use)\s+`?{re.escape(token)}`?(?!\w)"
                if token in spans or re.search(named, utterance):
                    reasons.append(f"names the changed token `{token}`")
            new_code = [s for s in self._new_code(utterance) if not _SINGLE_TOKEN.match(_squash(s))]
            if new_code:
                reasons.append(f"tells the student to write new code `{new_code[0]}`")
        return LeakVerdict(bool(reasons), tuple(dict.fromkeys(reasons)))

    def leak_rate(self, utterances: Iterable[str]) -> float:
        items = list(utterances)
        return sum(self.check(u).leaked for u in items) / len(items) if items else 0.0


def _added_lines(before: str, after: str) -> list[str]:
    """Lines (stripped) that the fixed program has and the buggy one lacks."""
    old = [line.strip() for line in before.splitlines()]
    new = [line.strip() for line in after.splitlines()]
    added: list[str] = []
    for tag, _, _, j1, j2 in difflib.SequenceMatcher(a=old, b=new).get_opcodes():
        if tag in ("replace", "insert"):
            added.extend(line for line in new[j1:j2] if line)
    return added
