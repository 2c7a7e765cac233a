"""The offline Socratic instructor: distinct Socratic utterances for one turn, with no model.

It grounds every question in facts about the student's current program: which tests fail and with what values (run
in the sandbox), which line is at fault (named by the bug description when there is one, otherwise ranked by the
analysis engine), what the construct on that line is, and what the trace shows. It reads the dialogue state (the
first turn, a student who is stuck, a student who has found the line, a code edit, passing tests) to choose how much
guidance to give, and returns a few utterances spanning neighbouring levels of the guidance spectrum:

0. open: "walk me through your code", "which tests fail?"
1. a failing test: "what does ``f(5)`` return, and what did you expect?"
2. the line: "what does line 11 do when ``f(5)`` runs?"
3. the construct: "which values does ``range(0, n)`` produce when ``n`` is 5?"
4. the trace: "what is ``b`` after line 13 runs for the first time?"

Utterances never state the fix: the templates only point at existing code and observed behaviour, and every
candidate passes the :class:`~debugtutor.socratic.leak.LeakGuard` before it is returned.
"""

from __future__ import annotations

import ast
import builtins
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from debugtutor.analysis.execution import FIRST_FAILING, ExecutionFacts, collect_execution_facts, split_unit_tests
from debugtutor.analysis.localization import localize
from debugtutor.analysis.static import check
from debugtutor.socratic.leak import LeakGuard

_LINE_REF = re.compile(r"\blines?\s+(\d+)((?:\s*(?:,|and|&|-|to)\s*\d+)*)", re.I)
_BACKTICK = re.compile(r"`([^`\n]+)`")
_STUCK = re.compile(
    r"\b(?:don'?t know|do not know|not (?:really |quite |too )?sure|no idea|confus\w*|stuck|lost|idk|"
    r"can'?t (?:see|find|figure)|what do you mean|help)\b",
    re.I,
)
_BUILTIN_NAMES = frozenset(dir(builtins))
_THANKS = re.compile(r"\b(?:thank|thanks|it works|works now|fixed it|got it)\b", re.I)


@dataclass
class TutoringState:
    """What the instructor knows at one turn."""

    problem: str
    code: str  # the student's current program
    unit_tests: str
    student_text: str
    turn_index: int = 0
    bug_desc: str = ""
    bug_fixes: list[str] = field(default_factory=list)
    original_code: str = ""  # the program the dialogue started from (for leak checks and "what changed")
    code_changed: bool = False
    history: list[tuple[str, str]] = field(default_factory=list)  # earlier (student, instructor) lines
    suspect_lines: list[int] = field(default_factory=list)  # a caller's own localization (e.g. a verified repair)


@dataclass(frozen=True)
class FailingTest:
    """A failing test as the student would see it."""

    source: str
    call: str
    expected: str | None
    actual: str | None
    exception: str | None
    exception_line: int | None


@dataclass
class BugFocus:
    """Where the instructor points the student: lines, the construct there, and names to ask about."""

    lines: list[int]
    construct: str | None
    line_text: str
    names: list[str]
    kind: str  # range / condition / init / print / return / call / operation / other


@lru_cache(maxsize=256)
def _facts(code: str, unit_tests: str) -> ExecutionFacts | None:
    split = split_unit_tests(unit_tests)
    if not split.tests:
        return None
    try:
        compile(code, "<student>", "exec")
    except (SyntaxError, ValueError):
        return None
    return collect_execution_facts(
        code, split.tests, setup=split.setup, trace_test=FIRST_FAILING, max_events=400, per_test_timeout_s=2.0
    )


def _call_of(test_source: str) -> str:
    """The call a test makes: the left side of ``assert CALL == VALUE`` (or the whole assertion)."""
    try:
        tree = ast.parse(test_source.strip().splitlines()[-1].strip())
    except SyntaxError:
        return test_source.strip()
    node = tree.body[0] if tree.body else None
    if isinstance(node, ast.Assert):
        test = node.test
        if isinstance(test, ast.Compare):
            return ast.unparse(test.left)
        if isinstance(test, ast.UnaryOp) and isinstance(test.operand, ast.Call):
            return ast.unparse(test.operand)
        return ast.unparse(test)
    return test_source.strip()


def failing_tests(facts: ExecutionFacts | None) -> list[FailingTest]:
    if facts is None:
        return []
    out = []
    for test in facts.failing:
        exc = test.exception
        exception = None if exc is None or exc.type == "AssertionError" else exc.type
        out.append(
            FailingTest(
                test.source,
                _call_of(test.source),
                test.expected,
                test.actual,
                exception,
                exc.line if exc is not None and exception else None,
            )
        )
    return out


def lines_named(bug_desc: str) -> list[int]:
    """Line numbers a bug description names ("On line 11", "lines 2 and 3", "lines 4-6")."""
    lines: list[int] = []
    for match in _LINE_REF.finditer(bug_desc):
        numbers = [int(match.group(1)), *map(int, re.findall(r"\d+", match.group(2) or ""))]
        lines.extend(n for n in numbers if n not in lines)
    return lines


def _kind(line_text: str, construct: str | None) -> str:
    text = construct or line_text
    if "range(" in text:
        return "range"
    stripped = line_text.strip()
    if stripped.startswith(("if ", "elif ", "while ")) or re.search(r"[<>]=?|==|!=|\band\b|\bor\b|\bnot\b", text):
        return "condition"
    if stripped.startswith("print("):
        return "print"
    if stripped.startswith("return"):
        return "return"
    if re.match(r"^\w+\s*=\s*[-\w\"'\[\]{}().]+\s*$", stripped):
        return "init"
    if re.search(r"[-+*/%]", text):
        return "operation"
    if "(" in text:
        return "call"
    return "other"


def _names_on(code: str, line: int) -> list[str]:
    """Variables assigned (or iterated) on ``line``, then the other names it reads."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return re.findall(r"[A-Za-z_]\w*", code.splitlines()[line - 1] if 0 < line <= len(code.splitlines()) else "")
    stores: list[str] = []
    loads: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and getattr(node, "lineno", None) == line:
            (stores if isinstance(node.ctx, ast.Store) else loads).append(node.id)
    return [n for n in dict.fromkeys([*stores, *loads]) if n not in _BUILTIN_NAMES]


def find_focus(state: TutoringState, facts: ExecutionFacts | None) -> BugFocus | None:
    """The line and construct to ask about: the bug description's, else the caller's suspects, else the analysis
    engine's top-ranked line."""
    code_lines = state.code.splitlines()
    lines = [n for n in lines_named(state.bug_desc) if 0 < n <= len(code_lines)]
    if not lines:
        lines = [n for n in state.suspect_lines if 0 < n <= len(code_lines)]
    if not lines:
        coverage = facts.coverage() if facts is not None else None
        failed = [t.index for t in facts.failing] if facts is not None else []
        ranked = localize(state.code, coverage=coverage, failed_tests=failed, diagnostics=check(state.code))
        lines = [item.line for item in ranked[:1] if 0 < item.line <= len(code_lines)]
    if not lines:
        return None
    line = lines[0]
    line_text = code_lines[line - 1].strip()
    construct = None
    squashed_line = re.sub(r"\s+", "", line_text)
    for span in _BACKTICK.findall(state.bug_desc):
        if re.sub(r"\s+", "", span) in squashed_line and len(span) > 1:
            construct = span
            break
    if construct is None:
        match = re.search(r"range\([^()]*(?:\([^()]*\)[^()]*)*\)", line_text)
        if match:
            construct = match.group(0)
        elif line_text.startswith(("if ", "elif ", "while ")):
            construct = line_text.split(" ", 1)[1].rstrip(":").strip()
    return BugFocus(lines, construct, line_text, _names_on(state.code, line), _kind(line_text, construct))


class OfflineInstructor:
    """Socratic utterances from program analysis and templates; see the module docstring."""

    name = "offline"

    def __init__(self, *, max_utterances: int = 3) -> None:
        self.max_utterances = max_utterances

    def respond(self, state: TutoringState) -> list[str]:
        facts = _facts(state.code, state.unit_tests)
        failures = failing_tests(facts)
        all_pass = facts is not None and not failures and facts.load_error is None and bool(facts.tests)
        focus = find_focus(state, facts)
        candidates = self._candidates(state, facts, failures, focus, all_pass)
        guard = LeakGuard(
            state.original_code or state.code,
            state.bug_fixes,
            context=state.problem + "\n" + state.unit_tests,
        )
        said = {instructor.strip().lower() for _, instructor in state.history}
        chosen: list[str] = []
        for text in candidates:
            if text.lower() in said or text in chosen or guard.check(text).leaked:
                continue
            chosen.append(text)
            if len(chosen) == self.max_utterances:
                break
        return chosen

    def _level(self, state: TutoringState, focus: BugFocus | None) -> int:
        level = min(4, state.turn_index // 2 + 1) if state.turn_index else 0
        text = state.student_text
        if _STUCK.search(text):
            level += 1  # a stuck student needs a more specific question
        if focus is not None:
            mentions_line = any(re.search(rf"\bline\s*{n}\b", text, re.I) for n in focus.lines)
            mentions_construct = focus.construct is not None and re.sub(r"\s+", "", focus.construct) in re.sub(
                r"\s+", "", text
            )
            if mentions_line or mentions_construct:
                level = max(level, 3)
        return min(level, 4)

    def _candidates(
        self,
        state: TutoringState,
        facts: ExecutionFacts | None,
        failures: Sequence[FailingTest],
        focus: BugFocus | None,
        all_pass: bool,
    ) -> list[str]:
        if _THANKS.search(state.student_text) and (all_pass or state.code_changed):
            return [
                "You're welcome! Is there anything else I can help you with today?",
                "I'm glad I could be of assistance. Let me know if you have any other questions.",
            ]
        if all_pass:
            return [
                "Good. Try running your code again. Does it pass all the test cases now?",
                "Great! Does it work correctly now?",
            ]
        syntax = [d for d in check(state.code) if d.category == "syntax"] if facts is None else []
        if syntax:
            line = syntax[0].line
            text = state.code.splitlines()[line - 1].strip() if 0 < line <= len(state.code.splitlines()) else ""
            keyword = text.split(" ", 1)[0].rstrip(":") if text else ""
            out = [
                "What does the error message say when you run your code?",
                f"Let's look at line {line}. Do you see any problems with the syntax?",
            ]
            if keyword in ("for", "while", "if", "elif", "else", "def", "return", "print"):
                out.append(f"Where can you find the correct syntax of a `{keyword}` statement in Python?")
            out.append(f"Can you explain what line {line} is supposed to do?")
            return out
        if facts is not None and facts.load_error is not None:
            err = facts.load_error
            where = f"line {err.line}" if err.line else "the line in the error message"
            return [
                f"What do you think the `{err.type}` error message is telling you?",
                f"Let's look at {where}. Do you see anything wrong there?",
                "Can you read the error message and tell me what it means?",
            ]
        levels = self._by_level(state, facts, failures, focus)
        start = self._level(state, focus)
        if state.code_changed:
            changed = [
                "What happens when you run the test cases now?",
                "Can you walk me through your code line by line?",
            ]
            if failures:
                changed.append(f"What does your function return for `{failures[0].call}` now?")
            return changed + [u for lvl in range(start, 5) for u in levels.get(lvl, [])]
        # One utterance per level around the chosen one, then the remaining ones: the set spans the spectrum.
        order = [lvl for d in range(5) for lvl in (start + d, start - d) if 0 <= lvl <= 4]
        order = list(dict.fromkeys(order))
        out = [levels[lvl][0] for lvl in order if levels.get(lvl)]
        out += [u for lvl in order for u in levels.get(lvl, [])[1:]]
        return out

    def _by_level(
        self,
        state: TutoringState,
        facts: ExecutionFacts | None,
        failures: Sequence[FailingTest],
        focus: BugFocus | None,
    ) -> dict[int, list[str]]:
        first = failures[0] if failures else None
        # The opening reply to a request for help agrees to help before asking.
        opener = "Sure. " if state.turn_index == 0 else ""
        levels: dict[int, list[str]] = {
            0: [
                f"{opener}Can you walk me through your code line by line?",
                f"{opener}Can you explain what your function is supposed to do?",
            ]
        }
        if first is not None:
            lvl1 = []
            if first.exception:
                lvl1.append(f"What do you think the `{first.exception}` error means?")
            lvl1 += [
                f"Let's look at the first failing test case. What do you observe when you run `{first.call}`?",
                f"What do you think your function should return for `{first.call}`?",
            ]
            levels[1] = lvl1
        if focus is None:
            return levels
        line = focus.lines[0]
        call = f" when you run `{first.call}`" if first is not None else ""
        levels[2] = [
            f"Let's look at line {line}. What do you think the problem is?",
            f"Can you explain what is happening on line {line}?",
        ]
        if len(focus.lines) > 1:
            levels[2].append(f"How do lines {focus.lines[0]} and {focus.lines[1]} work together?")
        construct = focus.construct or focus.line_text
        var = focus.names[0] if focus.names else None
        lvl3: list[str] = []
        if focus.kind == "range":
            if var:
                lvl3.append(f"What are the values of `{var}` in the for loop on line {line}?")
            lvl3.append(f"How many times does the for loop on line {line} run?")
        elif focus.kind == "condition" and focus.line_text.startswith(("for ", "while ")):
            lvl3.append(f"How many times does the loop on line {line} run?")
            lvl3.append(f"Let's look at the condition on line {line}. What do you think `{construct}` checks?")
        elif focus.kind == "condition":
            lvl3.append(f"Let's look at the condition on line {line}. What do you think `{construct}` checks?")
            lvl3.append(f"What do you think `{construct}` evaluates to{call}?")
        elif focus.kind == "init" and var:
            lvl3.append(f"What is the value of `{var}` before the loop starts?")
            lvl3.append(f"What happens to `{var}` the first time it is updated?")
        elif focus.kind == "print":
            lvl3.append("What is the difference between `print` and `return`?")
            lvl3.append("What does your function return?")
        elif focus.kind == "return":
            lvl3.append(f"What do you think your function returns{call}?")
        else:
            lvl3.append(f"What do you think `{construct}` on line {line} does?")
        levels[3] = lvl3
        lvl4: list[str] = []
        if var:
            lvl4.append(f"Can you tell me what the value of `{var}` is after line {line} in the first iteration?")
            lvl4.append(
                f"Let's add a print statement to see the values of `{var}` at each iteration. What do you observe?"
            )
        levels[4] = lvl4
        return levels
