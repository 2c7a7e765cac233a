"""The offline solver: answers all four tasks with program analysis and the sandbox, no model.

What it knows about a Python program (:class:`ProgramFacts`) comes from three places: the static checks (syntax
issues, undefined names and methods), a syntax-repaired copy of the program (each syntax issue replaced by its first
proposed fix, so that the rest of the program can still be checked and run), and runs of the program on the
problem's own examples (the ``Input``/``Output`` blocks of the statement, with their stated outputs).

* **Bug Identification**: syntax issues say *syntax*; undefined names, methods and attributes, or a run ending in a
  reference-type exception, say *reference*; wrong outputs of a program with neither say *logic*; evidence of two
  kinds, or two separate syntax or reference sites, say *multiple*.
* **Bug Localization**: each option's lines get the weight of the evidence on them (syntax issue, reference
  finding, the line a failing example raised at, a line a verified repair changed, a suspicious-logic finding);
  the option with the most wins, and a repair search restricted to the options' lines settles the rest.
* **Code Review**: the program that does not compile, has reference findings, fails a stated example, or raises
  where the other returns on perturbed inputs is the buggy one.
* **Code Repair**: the repair search (single and double edits verified against the tests the prompt shows, else the
  problem's stated examples).

Like every solver it sees only a :class:`~debugtutor.debugeval.views.TaskView` (what the prompt shows): never the
gold answer, the labels, the hidden tests or, outside Code Review, the correct code.

C++ and Java programs are compiled, run on the stated examples and repaired by the engine's C++/Java back-ends
(:mod:`debugtutor.debugeval.offline_compiled`).
"""

from __future__ import annotations

import ast
import asyncio
import difflib
import hashlib
import json
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field

from debugtutor import python_ast
from debugtutor.analysis.edits import Direction, Edit, candidate_edits
from debugtutor.analysis.examples import example_calls, perturb_calls
from debugtutor.analysis.execution import collect_execution_facts
from debugtutor.analysis.leetcode import entry_method
from debugtutor.analysis.repair import RepairBudget, arepair
from debugtutor.analysis.static import LEETCODE_PREAMBLE, Diagnostic, check, syntax_issues
from debugtutor.debugeval.offline_compiled import (
    COMPILED_REPAIR_SAFETY_S,
    REPAIR_CANDIDATES,
    CompiledFactsCache,
    CompiledProgram,
    identify_compiled,
    line_evidence_compiled,
    option_edit_passes,
    option_scores_with_edits,
    review_facts,
    review_verdict,
)
from debugtutor.debugeval.problem_tests import answer_in_any_order
from debugtutor.debugeval.records import OPTION_LETTERS, option_text
from debugtutor.debugeval.views import TaskView, ViewAnswer, ViewSolver
from debugtutor.runs import EvalItem, SolverOutput
from debugtutor.sandbox import (
    CompareMode,
    ExceptionInfo,
    LeetCodeCall,
    LeetCodeRequest,
    Limits,
    Status,
    TestReport,
    arun,
)

PER_CALL_TIMEOUT_S = 1.0
RUN_LIMITS = Limits(wall_s=2.0, per_test_s=PER_CALL_TIMEOUT_S, memory_mb=512)
OPTION_EDIT_SECONDS = 90.0
"""Bug Localization in C++/Java: a safety net for checking the single edits at the four options' lines, not their
budget (that is :data:`~debugtutor.debugeval.offline_compiled.OPTION_EDITS` candidates, so the answer does not depend
on how busy the machine is: the slowest of 12 development items took 7 s, two at a time on two cores, with the same
answers as without a deadline)."""
# exceptions that mean "something referenced does not exist" in DebugBench's taxonomy (faulty indexing included)
REFERENCE_EXCEPTIONS = frozenset({"NameError", "AttributeError", "UnboundLocalError", "IndexError", "KeyError"})


@dataclass
class ProgramFacts:
    """What the offline solver found out about one program."""

    diagnostics: list[Diagnostic]
    syntax_lines: list[int]
    syntax_rounds: int
    """How many syntax issues had to be fixed, one after another, before the program compiled."""
    repaired_syntax: str | None
    """The program with its syntax issues fixed (the original when it compiled), None when fixing failed."""
    reference_sites: dict[str, int]
    """One entry per reference problem (an undefined name counts once however often it is used) -> its line."""
    report: TestReport | None = None
    """The (syntax-repaired) program on the stated examples."""
    syntax_fixed_lines: list[int] = field(default_factory=list)
    """Lines of the program the syntax repair changed (0-based)."""
    calls: list[LeetCodeCall] = field(default_factory=list)
    method: str | None = None

    @property
    def compiles(self) -> bool:
        return not self.syntax_lines

    @property
    def runtime_reference(self) -> dict[int | None, str]:
        """Lines where a run raised a reference-type exception -> the exception type."""
        found: dict[int | None, str] = {}
        if self.report is None:
            return found
        errors = [t.exception for t in self.report.tests if t.exception is not None] + [self.report.setup_error]
        for error in errors:
            if error is not None and error.type in REFERENCE_EXCEPTIONS:
                found.setdefault(error.line, error.type)
        return found

    @property
    def wrong_answers(self) -> int:
        """Examples that ran to the end and returned a wrong value."""
        if self.report is None:
            return 0
        return sum(1 for t in self.report.tests if t.status == Status.failed and t.exception is None)

    @property
    def runtime_failures(self) -> int:
        if self.report is None:
            return 0
        return sum(1 for t in self.report.tests if t.status != Status.passed)

    def describe(self) -> str:
        """The facts as short lines, for a grounded prompt."""
        lines = [
            f"- line {d.line}: {d.category}: {d.message}" for d in self.diagnostics if d.category != "suspicious-logic"
        ]
        if self.syntax_lines:
            lines.append(f"- the code does not compile ({self.syntax_rounds} syntax issue(s) to fix before it does)")
        if self.report is not None:
            for test in self.report.tests:
                if test.status == Status.passed:
                    lines.append(f"- example {test.index + 1} passes")
                elif test.exception is not None:
                    where = f" at line {test.exception.line}" if test.exception.line else ""
                    lines.append(f"- example {test.index + 1} raises {test.exception.type}{where}")
                else:
                    lines.append(f"- example {test.index + 1} returns {test.actual}, expected {test.expected}")
        return "\n".join(lines) or "- no finding"


def _reference_sites(diagnostics: list[Diagnostic]) -> dict[str, int]:
    sites: dict[str, int] = {}
    for diagnostic in diagnostics:
        if diagnostic.category == "reference":
            key = diagnostic.message if diagnostic.code.startswith("undefined") else f"line {diagnostic.line}"
            sites.setdefault(key, diagnostic.line)
    return sites


def fix_syntax(source: str, *, max_rounds: int = 6) -> tuple[str | None, int]:
    """(the source with each syntax issue replaced by its first fix, rounds needed); None when it still fails."""
    current = source
    for rounds in range(max_rounds + 1):
        issues, _ = syntax_issues(current)
        if not issues:
            return current, rounds
        fixes = next((issue.fixes for issue in issues if issue.fixes), ())
        if not fixes:
            return None, rounds
        current = fixes[0]
    return None, max_rounds


class FactsCache:
    """Facts per (program, examples), shared by the tasks that ask about the same buggy program."""

    def __init__(self) -> None:
        self._facts: dict[str, asyncio.Task[ProgramFacts]] = {}

    async def get(self, code: str, examples: list[str]) -> ProgramFacts:
        key = hashlib.sha1(json.dumps([code, examples]).encode("utf-8")).hexdigest()
        task = self._facts.get(key)
        if task is None or task.get_loop() is not asyncio.get_running_loop():
            task = asyncio.create_task(python_facts(code, examples))
            self._facts[key] = task
        try:
            return await task
        except Exception:
            self._facts.pop(key, None)  # a failure (a sandbox problem) is not remembered
            raise


async def python_facts(code: str, examples: list[str]) -> ProgramFacts:
    """Static facts plus the stated examples run on the (syntax-repaired) program."""
    diagnostics = await asyncio.to_thread(check, code, preamble=LEETCODE_PREAMBLE)
    syntax_lines = sorted({d.line for d in diagnostics if d.category == "syntax"})
    repaired, rounds = (code, 0) if not syntax_lines else await asyncio.to_thread(fix_syntax, code)
    # With syntax errors, the checker reads a copy with the broken lines blanked out, so a name bound on one of them
    # looks undefined: reference findings come from the syntax-repaired program only, and none when it cannot be
    # repaired (not parsing must not also count as a reference error).
    reference = _reference_sites(diagnostics) if not syntax_lines else {}
    facts = ProgramFacts(diagnostics, syntax_lines, rounds if syntax_lines else 0, repaired, reference)
    if repaired is None:
        return facts
    if syntax_lines:
        facts.syntax_fixed_lines = changed_lines(code, repaired)
    if syntax_lines:
        # reference problems hidden behind the syntax errors show once those are fixed
        for key, line in _reference_sites(await asyncio.to_thread(check, repaired, preamble=LEETCODE_PREAMBLE)).items():
            facts.reference_sites.setdefault(key, line)
    calls = example_calls(examples, repaired)
    if calls:
        method = entry_method(repaired, set(calls[0].args))
        facts.calls, facts.method = calls, method.name if method else None
        facts.report = await run_calls(repaired, calls, facts.method)
    return facts


# LeetCode's Python judge star-imports these modules too (``ceil``, ``sqrt``, ``inf`` without a prefix); the sandbox's
# harness brings fewer, so the runs here add them on one extra first line and shift reported lines back.
_STAR_IMPORTS = "from math import *; from string import *; from statistics import *; from operator import *\n"


async def run_calls(code: str, calls: list[LeetCodeCall], method: str | None) -> TestReport:
    """Run ``class Solution`` calls with LeetCode's names in scope; exception lines refer to ``code``."""
    report = await arun(LeetCodeRequest(code=_STAR_IMPORTS + code, calls=calls, method=method, limits=RUN_LIMITS))
    tests = [
        test.model_copy(update={"exception": _shifted(test.exception)}) if test.exception is not None else test
        for test in report.tests
    ]
    return report.model_copy(update={"tests": tests, "setup_error": _shifted(report.setup_error)})


def _shifted(info: ExceptionInfo | None) -> ExceptionInfo | None:
    if info is None or info.line is None:
        return info
    return info.model_copy(update={"line": info.line - 1 if info.line > 1 else None})


# ---------------------------------------------------------------------------------------------------------------
# Decisions.


# Diagnostics that follow from an earlier syntax error rather than mark a new one: a block left empty because its
# header was blanked out, and the line where the parser gives up after an unclosed bracket or string.
_CASCADE_CODES = frozenset({"missing-indented-block"})
_OPENER_CODES = frozenset({"unclosed-bracket", "unclosed-string"})


def syntax_clusters(diagnostics: list[Diagnostic]) -> int:
    """Separate places with syntax errors: reports on adjacent lines are one place, a cascade belongs to the error
    before it, and an unclosed bracket or string takes the parser's complaint where it gives up, however far on."""
    sites: list[tuple[int, bool]] = []  # (last line, an opener still waiting for the parser's complaint)
    for diagnostic in sorted((d for d in diagnostics if d.category == "syntax"), key=lambda d: d.line):
        if sites:
            last, waiting = sites[-1]
            generic = diagnostic.code == "syntax-error"
            if diagnostic.line - last <= 1 or diagnostic.code in _CASCADE_CODES or (waiting and generic):
                sites[-1] = (max(last, diagnostic.line), waiting and not generic)
                continue
        sites.append((diagnostic.line, diagnostic.code in _OPENER_CODES))
    return len(sites)


def changed_lines(before: str, after: str) -> list[int]:
    """0-based lines of ``before`` that an edit producing ``after`` replaced or deleted (or inserted before)."""
    changed: set[int] = set()
    matcher = difflib.SequenceMatcher(a=before.splitlines(), b=after.splitlines(), autojunk=False)
    for tag, start, end, _, _ in matcher.get_opcodes():
        if tag != "equal":
            changed.update(range(start, max(end, start + 1)))
    return sorted(changed)


def syntax_sites(facts: ProgramFacts) -> int:
    """How many separate syntax errors the program has.

    When the syntax repair succeeds, the lines it had to change (one error spilling onto several lines is reported
    on each but fixed once; several fixes on one line are one place), at most one per fix; when it does not, the
    separate places the errors were reported at (:func:`syntax_clusters`). Failing to parse is one error, never by
    itself a sign of a second one."""
    if not facts.syntax_lines:
        return 0
    if facts.repaired_syntax is None:
        return max(1, syntax_clusters(facts.diagnostics))
    return max(1, min(facts.syntax_rounds, len(facts.syntax_fixed_lines) or 1))


def identify(facts: ProgramFacts) -> str:
    """The major category as an answer letter: (A) syntax, (B) reference, (C) logic, (D) multiple."""
    kinds: set[str] = set()
    sites = syntax_sites(facts)
    if sites:
        kinds.add("syntax")
    runtime = facts.runtime_reference
    reference_lines = set(facts.reference_sites.values()) | {line for line in runtime if line is not None}
    if facts.reference_sites or runtime:
        kinds.add("reference")
        sites += max(1, len(facts.reference_sites), len(reference_lines))
    if facts.repaired_syntax is not None and facts.wrong_answers and not runtime:
        kinds.add("logic")
        sites += 1
    if len(kinds) > 1 or sites > 1:
        return "(D)"
    if kinds == {"syntax"}:
        return "(A)"
    if kinds == {"reference"}:
        return "(B)"
    return "(C)"


def option_lines(code: str, option: str) -> list[int]:
    """1-based lines of ``code`` where the option's lines occur (consecutive code lines, blank ones skipped),
    compared in the options' spacing (:func:`~debugtutor.debugeval.records.option_text`)."""
    wanted = [option_text(line) for line in option.splitlines() if line.strip()]
    if not wanted:
        return []
    numbered = [(number, option_text(line)) for number, line in enumerate(code.splitlines(), start=1) if line.strip()]
    texts = [text for _, text in numbered]
    found: list[int] = []
    for index in range(len(texts) - len(wanted) + 1):
        if texts[index : index + len(wanted)] == wanted:
            found.extend(number for number, _ in numbered[index : index + len(wanted)])
    if not found:
        lines = [line.strip() for line in code.splitlines()]
        # layout differences: fall back to comparing without any whitespace
        squeeze = re.compile(r"\s+")
        target = squeeze.sub("", wanted[0])
        found = [n for n, line in enumerate(lines, start=1) if squeeze.sub("", line) == target]
    return found


_WEIGHTS = {"syntax": 3.0, "reference": 2.0, "exception": 1.5, "repair": 4.0, "suspicious-logic": 0.4}


def line_evidence(facts: ProgramFacts) -> dict[int, float]:
    """Evidence weight per line from the static and runtime facts."""
    weights: dict[int, float] = {}

    def add(line: int | None, weight: float) -> None:
        if line is not None:
            weights[line] = weights.get(line, 0.0) + weight

    for diagnostic in facts.diagnostics:
        add(diagnostic.line, _WEIGHTS.get(diagnostic.category, 0.0))
    for line in facts.runtime_reference:
        add(line, _WEIGHTS["exception"])
    if facts.report is not None:
        for test in facts.report.tests:
            if test.exception is not None and test.exception.type not in REFERENCE_EXCEPTIONS:
                add(test.exception.line, _WEIGHTS["exception"] / 2)
    return weights


_IDENTITY_OPERAND = {ast.FloorDiv: 1, ast.Div: 1, ast.Mult: 1, ast.Pow: 1, ast.Add: 0, ast.Sub: 0}


def line_oddities(code: str) -> dict[int, float]:
    """Lines whose shape is odd for a finished solution: a bare ``return`` in a function declared to return a value,
    ``print`` inside a method, arithmetic with an identity operand (``x // 1``, ``x + 0``), a comparison of a value
    with itself. Weak evidence, below every static or runtime finding."""
    try:
        tree = python_ast.parse(code)
    except (SyntaxError, ValueError):
        return {}
    odd: dict[int, float] = {}
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        returns = ast.unparse(function.returns) if function.returns else ""
        for node in ast.walk(function):
            bare_return = (
                isinstance(node, ast.Return) and node.value is None and bool(returns) and "None" not in returns
            )
            if isinstance(node, ast.stmt) and (bare_return or _is_print_statement(node)):
                odd[node.lineno] = odd.get(node.lineno, 0.0) + 0.8
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.right, ast.Constant):
            identity = _IDENTITY_OPERAND.get(type(node.op))
            if identity is not None and node.right.value == identity and not isinstance(node.right.value, bool):
                odd[node.lineno] = odd.get(node.lineno, 0.0) + 0.8
        elif (
            isinstance(node, ast.Compare)
            and len(node.comparators) == 1
            and ast.dump(node.left) == ast.dump(node.comparators[0])
        ):
            odd[node.lineno] = odd.get(node.lineno, 0.0) + 0.8
    return odd


async def _option_spectrum(code: str, facts: ProgramFacts, lines_per_option: list[list[int]]) -> list[tuple[int, int]]:
    """Per option: (1 when a failing example ran its lines else 0, minus the passing examples that ran them).

    A wrong result comes from a line the failing run executed, and a line that passing runs execute too is less
    suspect (spectrum-based fault localization on the examples); all zeros when the examples cannot be traced."""
    neutral = [(0, 0)] * len(lines_per_option)
    if not facts.compiles or facts.report is None or facts.report.status == Status.passed:
        return neutral
    tests = assert_tests(code, [c for c in facts.calls if c.expected is not None], facts.method)
    if tests is None:
        return neutral
    traced = await asyncio.to_thread(
        collect_execution_facts, _ASSERT_PRELUDE + code, tests, per_test_s=PER_CALL_TIMEOUT_S
    )
    coverage = traced.coverage()
    failing = {test.index for test in traced.failing}
    if not failing:
        return neutral
    spectrum = []
    for lines in lines_per_option:
        shifted = {line + 1 for line in lines}
        ran_failing = any(shifted & coverage.get(index, set()) for index in failing)
        ran_passing = sum(1 for index, covered in coverage.items() if index not in failing and shifted & covered)
        spectrum.append((int(ran_failing), -ran_passing))
    return spectrum


def _is_print_statement(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Name)
        and node.value.func.id == "print"
    )


async def localize_option(code: str, facts: ProgramFacts, options: list[str]) -> tuple[int, str]:
    """The index of the option most likely to hold the bug in ``code``, and what decided it."""
    lines_per_option = [option_lines(code, option) for option in options]
    evidence = line_evidence(facts)
    for line, weight in line_oddities(facts.repaired_syntax or code).items():
        evidence[line] = evidence.get(line, 0.0) + weight
    scores = [max((evidence.get(line, 0.0) for line in lines), default=0.0) for lines in lines_per_option]
    best = max(scores)
    if best > 0 and scores.count(best) == 1:
        return scores.index(best), "static and runtime findings"
    spectrum = await _option_spectrum(code, facts, lines_per_option)
    candidates = sorted(
        (index for index, score in enumerate(scores) if score == best),
        key=lambda index: (spectrum[index], _statement_rank(code, lines_per_option[index])),
        reverse=True,
    )
    # nothing static decides: repairs restricted to the options' lines do, when the examples can check them; the
    # examples are few, so a fix may fit them by accident: several fixes vote, the likelier statements first
    if facts.compiles and facts.calls and facts.report is not None and facts.report.status != Status.passed:
        suspicious = [line for index in candidates for line in lines_per_option[index]]
        search = await repair_on_examples(code, facts, suspicious)
        votes = {index: 0 for index in candidates}
        for changed in search:
            for index in candidates:
                votes[index] += bool(changed & set(lines_per_option[index]))
        if any(votes.values()):
            return max(candidates, key=lambda index: votes[index]), "a repair that passes the examples"
    return candidates[0], "the statement kind (no finding tells the options apart)"


_ASSERT_PRELUDE = (
    "from typing import *; from collections import *; from heapq import *; from bisect import *; "
    "from functools import *; from itertools import *; from math import *; "
    "import collections, heapq, bisect, functools, itertools, math, string, re\n"
)


def assert_tests(code: str, calls: list[LeetCodeCall], method: str | None) -> list[str] | None:
    """The calls as ``assert Solution().m(**args) == expected`` lines, or None when node types may be involved (those
    need the LeetCode harness's conversions). The code need not parse."""
    if not calls or method is None or "Node" in code:
        return None
    return [f"assert Solution().{method}(**{call.args!r}) == {call.expected!r}" for call in calls]


async def repair_on_examples(code: str, facts: ProgramFacts, lines: list[int]) -> list[set[int]]:
    """Lines changed by the repairs found at ``lines`` that make the stated examples pass.

    Plain-valued calls are checked as assert tests, many candidates per sandboxed process (the fast path); node-typed
    ones go through the LeetCode harness, one candidate per run, with a smaller budget."""
    calls = [call for call in facts.calls if call.expected is not None]
    tests = assert_tests(code, calls, facts.method)
    if tests is not None:
        # one prelude line on top gives the code LeetCode's names; line numbers shift by one both ways
        search = await arepair(
            _ASSERT_PRELUDE + code,
            tests,
            suspicious_lines=[line + 1 for line in lines],
            budget=RepairBudget(max_seconds=6.0, max_executions=400, max_edits=1, top_lines=len(lines)),
            proposer=_keeping_prelude,
        )
        shift = 1
    else:
        search = await arepair(
            code,
            leetcode_calls=calls,
            method=facts.method,
            suspicious_lines=lines,
            budget=RepairBudget(max_seconds=3.0, max_executions=120, max_edits=1, top_lines=len(lines)),
        )
        shift = 0
    return [{line - shift for line in [*repair.edit_lines, *repair.changed_lines]} for repair in search.repairs]


def _keeping_prelude(
    source: str,
    *,
    lines: Collection[int] | None = None,
    categories: Collection[str] = ("syntax", "reference", "logic"),
    direction: Direction = "repair",
) -> Iterator[Edit]:
    """The edits of a program run under :data:`_ASSERT_PRELUDE` that leave the prelude as written: the imports are the
    harness's, not the code under repair (an edit deleting them would take the program's first line's place)."""
    for edit in candidate_edits(source, lines=lines, categories=categories, direction=direction):
        if edit.source.startswith(_ASSERT_PRELUDE):
            yield edit


def without_prelude(source: str) -> str:
    """A program the search ran under :data:`_ASSERT_PRELUDE`, without it: the prelude as written, or as an edit left
    it (an import line), comes off; when an edit deleted it, nothing does (cutting the first line then would cut the
    program's own, ``class Solution:``)."""
    if source.startswith(_ASSERT_PRELUDE):
        return source[len(_ASSERT_PRELUDE) :]
    first, _, rest = source.partition("\n")
    return rest if re.match(r"\s*(?:from|import)\s", first) else source


def _statement_rank(code: str, lines: list[int]) -> int:
    """Where bugs tend to sit when no evidence tells: decisions and returns, then computations, then plain
    statements, then definition headers. Length plays no part (options are drawn so that it tells nothing); options
    of the same kind stay in letter order, which the builder deals out evenly."""
    source_lines = code.splitlines()
    text = " ".join(source_lines[n - 1].strip() for n in lines if 0 < n <= len(source_lines))
    if re.match(r"(if|elif|while|for)\b|.*\breturn\b", text):
        return 3
    if re.search(r"[-+*/%<>\[]", text):
        return 2
    if re.match(r"(def|class)\b", text):
        return 0
    return 1


def _structural_prior(lines_per_option: list[list[int]], scores: list[float], code: str) -> int:
    """Among the best-scored options, the one whose statement ranks highest by :func:`_statement_rank`."""
    best = max(scores)
    candidates = [index for index, score in enumerate(scores) if score == best]
    return max(candidates, key=lambda index: _statement_rank(code, lines_per_option[index]))


def tie_break(first: str, second: str) -> str:
    """A verdict that knows nothing about which code is buggy: a stable coin flip on the two texts.

    The solver must not favour the side that the data calls buggy when no evidence decides, or a tie would be
    answered right by construction; flipping on content keeps both presentation orders consistent."""
    a = hashlib.sha256(first.encode()).digest()
    b = hashlib.sha256(second.encode()).digest()
    return "A" if a < b else "B"


async def review_buggy_side(code_a: str, code_b: str, examples: list[str], cache: FactsCache) -> str:
    """``A`` when ``code_a`` looks buggier on the evidence, ``B`` when ``code_b`` does.

    Every judge is symmetric in its two programs, so swapping them swaps the answer."""
    first = await cache.get(code_a, examples)
    second = await cache.get(code_b, examples)
    for judge in (_compile_verdict, _reference_verdict, _example_verdict):
        verdict = judge(first, second)
        if verdict is not None:
            return verdict
    verdict = await _perturbed_verdict(first, second)
    if verdict is not None:
        return verdict
    suspicious = [sum(1 for d in f.diagnostics if d.category == "suspicious-logic") for f in (first, second)]
    if suspicious[0] != suspicious[1]:
        return "A" if suspicious[0] > suspicious[1] else "B"
    return tie_break(code_a, code_b)


def _compile_verdict(buggy: ProgramFacts, correct: ProgramFacts) -> str | None:
    if buggy.compiles != correct.compiles:
        return "A" if not buggy.compiles else "B"
    return None


def _reference_verdict(buggy: ProgramFacts, correct: ProgramFacts) -> str | None:
    a, b = bool(buggy.reference_sites), bool(correct.reference_sites)
    return ("A" if a else "B") if a != b else None


def _example_verdict(buggy: ProgramFacts, correct: ProgramFacts) -> str | None:
    a, b = buggy.runtime_failures, correct.runtime_failures
    if buggy.report is None or correct.report is None or a == b:
        return None
    return "A" if a > b else "B"


async def _perturbed_verdict(buggy: ProgramFacts, correct: ProgramFacts) -> str | None:
    """Run both programs on perturbed example inputs: the one that raises or times out where the other returns."""
    if not buggy.calls or not correct.calls or buggy.repaired_syntax is None or correct.repaired_syntax is None:
        return None
    # the same inputs whichever program is shown first: the example calls with the smaller text are perturbed
    source = min((buggy.calls, correct.calls), key=lambda calls: json.dumps([c.args for c in calls], sort_keys=True))
    calls = perturb_calls([LeetCodeCall(args=call.args) for call in source], count=12, seed=0)
    if not calls:
        return None
    reports = await asyncio.gather(
        *(run_calls(facts.repaired_syntax or "", calls, facts.method) for facts in (buggy, correct))
    )
    crashes = [sum(1 for t in report.tests if t.status != Status.passed) for report in reports]
    if crashes[0] != crashes[1]:
        return "A" if crashes[0] > crashes[1] else "B"
    return None


# ---------------------------------------------------------------------------------------------------------------
# The solver.


def _answer(letter_in_parens: str, evidence: str) -> ViewAnswer:
    return ViewAnswer(responses=[f"<Answer>{letter_in_parens}</Answer>"], evidence=evidence)


class OfflineSolver:
    """Answers every DebugEval task without a model (see the module docstring), from the prompt's view only."""

    def __init__(
        self,
        repair_seconds: float = 4.0,
        compiled_repair_seconds: float = COMPILED_REPAIR_SAFETY_S,
        compiled_repair_candidates: int = REPAIR_CANDIDATES,
    ) -> None:
        self.cache = FactsCache()
        self.repair_seconds = repair_seconds
        self.compiled_cache = CompiledFactsCache()
        self.compiled_repair_seconds = compiled_repair_seconds
        self.compiled_repair_candidates = compiled_repair_candidates

    async def __call__(self, item: EvalItem) -> SolverOutput:
        """The item answered through its views (what :func:`~debugtutor.debugeval.tasks.build_eval_task` runs)."""
        return await ViewSolver(self.answer)(item)

    async def answer(self, view: TaskView) -> ViewAnswer:
        if view.task == "code-repair":
            return await self.repair(view)
        if view.language != "python":
            return await self._compiled(view)
        if view.task == "bug-identification":
            facts = await self.cache.get(view.code, view.examples)
            return _answer(identify(facts), facts.describe())
        if view.task == "bug-localization":
            facts = await self.cache.get(view.code, view.examples)
            index, reason = await localize_option(view.code, facts, view.options)
            return _answer(f"({OPTION_LETTERS[index]})", f"{facts.describe()}\n- decided by {reason}")
        side = await review_buggy_side(view.code_a, view.code_b, view.examples, self.cache)
        return ViewAnswer(responses=[f"Code-{side}"])

    async def _compiled_program(self, view: TaskView) -> CompiledProgram:
        """The shared facts of the view's C++/Java program; answers compared as the statement allows."""
        compare: CompareMode = "unordered" if answer_in_any_order(view.question) else "exact"
        return await self.compiled_cache.get(
            view.code,
            view.examples,
            view.language,
            self.compiled_repair_seconds,
            compare,
            self.compiled_repair_candidates,
        )

    async def _compiled(self, view: TaskView) -> ViewAnswer:
        """C++ and Java (see :mod:`debugtutor.debugeval.offline_compiled`)."""
        if view.task == "code-review":
            facts = await review_facts(view.code_a, view.code_b, view.examples, view.language)
            side = review_verdict(facts) or tie_break(view.code_a, view.code_b)
            return ViewAnswer(responses=[f"Code-{side}"], evidence=str(facts))
        program = await self._compiled_program(view)
        if view.task == "bug-identification":
            letter, why = identify_compiled(program)
            return _answer(letter, f"{program.describe()}\n- {why}")
        weights = line_evidence_compiled(program)
        lines = [option_lines(view.code, option) for option in view.options]
        scores = [max((weights.get(line, 0.0) for line in option), default=0.0) for option in lines]
        fixed_lines = {edit.original_line or edit.line for edit in program.repair.edits} if program.repair else set()
        fix_among_options = any(fixed_lines.intersection(option) for option in lines)
        if not fix_among_options and program.compiled and program.calls and program.failing:
            # no fix from the whole-program search, or one that touches none of the options (the prompt says the
            # bug is on one of them, so that fix is another program that happens to pass the examples): every
            # single edit at the options' own lines, checked on the examples, says which of them can explain the
            # failures
            passes = await option_edit_passes(program, lines, OPTION_EDIT_SECONDS)
            passing_now = len(program.outcomes) - len(program.failing)
            scores = option_scores_with_edits(scores, passes, passing_now, len(program.calls))
        return _answer(f"({OPTION_LETTERS[_structural_prior(lines, scores, view.code)]})", program.describe())

    async def repair(self, view: TaskView) -> ViewAnswer:
        """The repair search's best fix (for C++/Java without one, the program the compile-fix rounds made compile;
        else the unchanged code), as a fenced response.

        The search is guided only by what the prompt shows: the unit tests when it shows them, else the examples in
        the problem text (with their stated outputs). C++ and Java programs are repaired by the engine's compiled
        search on the stated examples (:mod:`debugtutor.debugeval.offline_compiled`)."""
        budget = RepairBudget(max_seconds=self.repair_seconds, max_executions=600)
        fixed = view.code
        if view.language != "python":
            program = await self._compiled_program(view)
            search = program.search
            if program.repair is not None:
                fixed = program.repair.source
            elif search is not None and search.compile_fix is not None:
                # no fix passes the examples (or there are none to run, as for design problems): the program the
                # compile-fix rounds made compile is closer to right than code that cannot compile
                fixed = search.compile_fix.source
            return ViewAnswer(responses=[f"```code\n{fixed}\n```"], evidence=program.describe())
        if view.language == "python" and view.tests:
            search = await arepair(view.code, view.tests, setup=view.test_setup, budget=budget)
            fixed = search.best.source if search.best else fixed
        elif view.language == "python":
            facts = await self.cache.get(view.code, view.examples)
            visible = [call for call in facts.calls if call.expected is not None]
            if not visible:
                return ViewAnswer(responses=[f"```code\n{fixed}\n```"])
            tests = assert_tests(view.code, visible, facts.method)
            if tests is not None:
                # plain values: assert tests, checked in batches (the fast path); the prelude line comes off again
                search = await arepair(_ASSERT_PRELUDE + view.code, tests, budget=budget, proposer=_keeping_prelude)
                fixed = without_prelude(search.best.source) if search.best else fixed
            else:
                search = await arepair(
                    view.code,
                    leetcode_calls=visible,
                    method=facts.method,
                    budget=budget.model_copy(update={"batch_size": 4, "max_executions": 24, "max_seconds": 2.0}),
                )
                fixed = search.best.source if search.best else fixed
        return ViewAnswer(responses=[f"```code\n{fixed}\n```"])
