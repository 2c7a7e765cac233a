"""The analysis questioner: distinct Socratic utterances for one turn from program analysis, with no model (the
``offline`` instructor and the tutor's fallback both ask it).

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

It listens: a student who has already named the cause (the line, the construct, or the buggy names with a causal
phrase) is not asked to walk through the code again; a student who reported what a test returns is not asked to run
it again; a lost student gets a more specific question. Line numbers in the bug description refer to the program
the dialogue started from, so they are carried through the student's edits (lines inserted above shift them). A
``print`` the student added to debug a function that returns a value is not a "print vs return" bug.

Utterances never state the fix: the templates only point at existing code and observed behaviour, and a candidate
that quotes code the student cannot see (in their program, the problem or the tests) is dropped. The instructor
deliberately does not call :class:`~debugtutor.socratic.leak.LeakGuard`: the evaluation measures leaks with that
guard, and a check the instructor filtered against could only ever report zero.
"""

from __future__ import annotations

import ast
import builtins
import difflib
import keyword
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from debugtutor.analysis.execution import FIRST_FAILING, ExecutionFacts, collect_execution_facts, split_unit_tests
from debugtutor.analysis.localization import localize
from debugtutor.analysis.static import check

_LINE_REF = re.compile(r"\blines?\s+(\d+)((?:\s*(?:,|and|&|-|to)\s*\d+)*)", re.I)
_BACKTICK = re.compile(r"`([^`\n]+)`")
_STUCK = re.compile(
    r"\b(?:don'?t know|do not know|not (?:really |quite |too )?sure|no idea|confus\w*|stuck|lost|idk|"
    r"can'?t (?:see|find|figure)|what do you mean|help)\b",
    re.I,
)
_BUILTIN_NAMES = frozenset(dir(builtins))
_PYTHON_WORDS = _BUILTIN_NAMES | frozenset(keyword.kwlist)
_THANKS = re.compile(r"\b(?:thank|thanks|it works|works now|fixed it|got it)\b", re.I)
# A student explaining a cause: "because", "should be", "off by one", "starts at", "never reaches" ...
_CAUSAL = re.compile(
    r"\b(?:because|since|should(?:n'?t)?|instead|problem is|issue is|bug is|wrong|mistake|error is|off by one|"
    r"never|always|starts? (?:at|from)|stops? (?:at|before)|forgot|missing|too (?:early|late|many|few)|"
    r"(?:does|did)n'?t|not (?:included|counted|added|reached|updated|returned))\b",
    re.I,
)
_CODE_TOKEN = re.compile(r"\d+(?:\.\d+)?|[A-Za-z_]\w*|\*\*|//|[-+*/%<>=!]=|[^\s\w]")


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
    cause_names: list[str] = field(default_factory=list)  # names of the line and of the description's code spans


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
        code, split.tests, setup=split.setup, trace_test=FIRST_FAILING, max_events=400, per_test_s=2.0
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


def map_line(original: str, current: str, line: int) -> int | None:
    """Where line ``line`` of ``original`` is in ``current`` after the student's edits (None when it is gone).

    Lines are aligned on their stripped text; a changed line maps to the line that replaced it.
    """
    old = [text.strip() for text in original.splitlines()]
    new = [text.strip() for text in current.splitlines()]
    index = line - 1
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if not i1 <= index < i2:
            continue
        if tag == "equal":
            return j1 + (index - i1) + 1
        if tag == "replace":
            return j1 + min(index - i1, j2 - j1 - 1) + 1
        return None  # the line was deleted
    return None


def _enclosing_function(tree: ast.AST, line: int) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    found = None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            end = getattr(node, "end_lineno", None) or node.lineno
            if node.lineno <= line <= end and (found is None or node.lineno > found.lineno):
                found = node
    return found


def _returns_value(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether the function itself (not a nested one) has a ``return <value>``."""
    stack: list[ast.AST] = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return) and node.value is not None:
            return True
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(node))
    return False


def is_debug_print(code: str, line: int) -> bool:
    """A ``print(...)`` line inside a function that returns a value: output for the student, not the bug."""
    lines = code.splitlines()
    if not 0 < line <= len(lines) or not re.match(r"print\s*\(", lines[line - 1].strip()):
        return False
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return False
    function = _enclosing_function(tree, line)
    return function is not None and _returns_value(function)


def _kind(line_text: str, construct: str | None, *, debug_print: bool = False) -> str:
    text = construct or line_text
    if re.search(r"(?<![\w.])range\s*\(", text):
        return "range"
    stripped = line_text.strip()
    if re.match(r"(?:if|elif|while)\b", stripped) or re.search(r"[<>]=?|==|!=|\band\b|\bor\b|\bnot\b", text):
        return "condition"
    if re.match(r"print\s*\(", stripped):
        return "other" if debug_print else "print"
    if re.match(r"return\b", stripped):
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
    named = lines_named(state.bug_desc)
    if state.original_code and state.original_code != state.code:
        # The description numbers the lines of the program the dialogue started from.
        named = [m for m in (map_line(state.original_code, state.code, n) for n in named) if m is not None]
    lines = [n for n in named if 0 < n <= len(code_lines)]
    if not lines:
        lines = [n for n in state.suspect_lines if 0 < n <= len(code_lines) and not is_debug_print(state.code, n)]
    if not lines:
        coverage = facts.coverage() if facts is not None else None
        failed = [t.index for t in facts.failing] if facts is not None else []
        ranked = localize(state.code, coverage=coverage, failed_tests=failed, diagnostics=check(state.code))
        lines = [
            item.line
            for item in ranked
            if 0 < item.line <= len(code_lines) and not is_debug_print(state.code, item.line)
        ][:1]
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
        match = re.search(r"(?<![\w.])range\([^()]*(?:\([^()]*\)[^()]*)*\)", line_text)
        if match:
            construct = match.group(0)
        elif re.match(r"(?:if|elif|while)\b", line_text):
            construct = re.sub(r"^(?:if|elif|while)\s*", "", line_text).rstrip(":").strip()
    kind = _kind(line_text, construct, debug_print=is_debug_print(state.code, line))
    names = _names_on(state.code, line)
    described = [n for span in _BACKTICK.findall(state.bug_desc) for n in re.findall(r"[A-Za-z_]\w*", span)]
    cause_names = [n for n in dict.fromkeys([*names, *described]) if n not in _BUILTIN_NAMES]
    return BugFocus(lines, construct, line_text, names, kind, cause_names)


def _code_tokens(text: str) -> list[str]:
    return _CODE_TOKEN.findall(text)


def _mentions(text: str, code: str) -> bool:
    """Whether ``text`` contains the tokens of ``code`` in order (whole tokens: ``in`` is not inside ``index``)."""
    needle = _code_tokens(code)
    hay = _code_tokens(text)
    n = len(needle)
    return n > 0 and any(hay[i : i + n] == needle for i in range(len(hay) - n + 1))


def student_named_cause(text: str, focus: BugFocus | None) -> bool:
    """Has the student already said where the bug is: the line, the construct, or a buggy name with a cause?"""
    if focus is None or not text.strip():
        return False
    if any(re.search(rf"\blines?\s*(?:\d+\s*(?:,|and|to|-)\s*)*{n}\b", text, re.I) for n in focus.lines):
        return True
    if focus.construct is not None and len(_code_tokens(focus.construct)) > 1 and _mentions(text, focus.construct):
        return True
    if _CAUSAL.search(text):
        # "a" and "I" are English words; other one-letter names count as written (case matters).
        names = [n for n in focus.cause_names or focus.names if n not in ("a", "I")]
        return any(re.search(rf"(?<![\w.']){re.escape(n)}(?![\w'])", text) for n in names)
    return False


def visible_code_only(text: str, visible: str) -> bool:
    """Whether every code span of ``text`` quotes code the student can see (``visible``), token for token; a lone
    Python keyword or built-in name (`return`, `print`) is the language, not new code."""
    for span in _BACKTICK.findall(text):
        if not span.strip() or (span.strip() in _PYTHON_WORDS) or _mentions(visible, span):
            continue
        return False
    return True


class AnalysisQuestioner:
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
        visible = "\n".join((state.code, state.original_code, state.problem, state.unit_tests))
        said = {instructor.strip().lower() for _, instructor in state.history}
        chosen: list[str] = []
        for text in candidates:
            if text.lower() in said or text in chosen or not visible_code_only(text, visible):
                continue
            chosen.append(text)
            if len(chosen) == self.max_utterances:
                break
        return chosen

    def _level(self, state: TutoringState, focus: BugFocus | None, failures: Sequence[FailingTest]) -> int:
        level = min(4, state.turn_index // 2 + 1) if state.turn_index else 0
        text = state.student_text
        if _STUCK.search(text):
            level += 1  # a stuck student needs a more specific question
        if failures and _mentions(text, failures[0].call):
            level = max(level, 2)  # they have run the failing test already: point at the line next
        if student_named_cause(text, focus):
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
        start = self._level(state, focus, failures)
        if student_named_cause(state.student_text, focus):
            # They have said where the bug is: no walking through the code or re-running tests from the start.
            levels = {lvl: utterances for lvl, utterances in levels.items() if lvl >= 2}
        if state.code_changed:
            changed = ["What happens when you run the test cases now?"]
            if _STUCK.search(state.student_text):
                changed.append("Can you walk me through your code line by line?")
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
