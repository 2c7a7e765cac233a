"""The offline solver's answers for C++ and Java: what compiling, running and repairing a program shows.

Everything comes from the prompt's view (the program or programs, the problem's stated examples, the options): each
program is compiled in the sandbox (plain, for the compiler's messages, and with coverage probes), run on the stated
examples through the compiled harness of :mod:`debugtutor.analysis.clike` (bounds-checked, so an index past the end
stops the call as LeetCode's sanitizing judge does), and, when it fails, repaired by the engine's search with the
examples as tests (:func:`debugtutor.analysis.repair.arepair`, ``language="cpp"``/``"java"``); one that passes them
all goes to the search too when a sure smell fires (:mod:`debugtutor.analysis.clike.smells`), which mends it.

* **Bug Identification**: the bug types of the verified repair's edits (or of the edits that made the program
  compile; a logic edit that made it compile replaced a reference to nothing, and a logic fix of examples that read
  past the end is faulty indexing), else of the compiler's findings and of the examples' failures (an index out of
  range says reference, a wrong answer logic); two kinds, or edits at two separate places, say *multiple*.
* **Bug Localization**: each option's lines get the weight of the evidence on them (a line a repair changed, or
  that the edits making it compile changed, above all else; then a compiler error or the line just after it, the
  line a failing example crashed or overran at (and, for a null dereferenced, the line that set it to null),
  spectrum-based suspiciousness from the examples' coverage, a suspicious pattern); the statement kind breaks ties.
* **Code Review**: both programs in one job; the one that does not compile, has more compiler errors, fails more
  examples, or crashes on more perturbed inputs (within the problem's rules) is the buggy one; then suspicious
  patterns; else a coin flip on the texts.
* **Code Repair**: the repair search's fix, verified on the stated examples and confirmed by a ``LeetCodeRequest``
  that also runs it on inputs near them (a fix that crashes there where the buggy program did not is passed over
  while the search can find another); the search looks further past its first fix for a smaller one of the same
  kinds of edit (``REPAIR_LOOK_FURTHER``).
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
from dataclasses import dataclass, field

from debugtutor.analysis.clike.diagnostics import quoted_declarations
from debugtutor.analysis.clike.edits import blocks_compilation
from debugtutor.analysis.clike.execution import acollect_compiled_facts
from debugtutor.analysis.clike.harness import CallOutcome, Variant, arun_variants
from debugtutor.analysis.clike.nulls import NULL_FAILURES, is_null_failure, null_origins
from debugtutor.analysis.clike.repair import CompiledVerifier
from debugtutor.analysis.clike.smells import smell_mends
from debugtutor.analysis.clike.syntax_tree import CompiledLanguage, enclosing_loop, parse
from debugtutor.analysis.engine import compiled_localizer, rank_lines
from debugtutor.analysis.examples import input_rules, is_design, perturb_calls, stated_calls
from debugtutor.analysis.execution import ExecutionFacts
from debugtutor.analysis.repair import Repair, RepairBudget, RepairSearch, arepair
from debugtutor.analysis.static import MAJOR_OF_BUG_TYPE, Diagnostic
from debugtutor.sandbox import CompareMode, LeetCodeCall, Status

# Failures of a call that read past the end of an array, string or container.
INDEX_FAILURES = frozenset(
    {"IndexOutOfRange", "ArrayIndexOutOfBoundsException", "StringIndexOutOfBoundsException",
     "IndexOutOfBoundsException", "std::out_of_range"}
)  # fmt: skip
# Failures of a call that say "something referenced does not exist" (faulty indexing included).
REFERENCE_FAILURES = INDEX_FAILURES | NULL_FAILURES | {"EmptyContainer"}
LETTER_OF_MAJOR = {"syntax": "(A)", "reference": "(B)", "logic": "(C)", "multiple": "(D)"}


@dataclass
class CompiledProgram:
    """What the solver found out about one C++/Java program on the stated examples."""

    code: str
    language: str
    calls: list[LeetCodeCall]
    method: str | None
    compiled: bool
    diagnostics: list[Diagnostic]
    outcomes: list[CallOutcome]
    facts: ExecutionFacts
    compare: CompareMode = "exact"
    search: RepairSearch | None = None
    ranked: list[int] = field(default_factory=list)

    @property
    def blocking(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if blocks_compilation(d)]

    @property
    def failing(self) -> list[CallOutcome]:
        return [outcome for outcome in self.outcomes if outcome.status != Status.passed]

    @property
    def repair(self) -> Repair | None:
        return self.search.best if self.search is not None else None

    def _where(self, outcome: CallOutcome) -> str:
        if not outcome.error_line:
            return ""
        if outcome.error_type != "Timeout":
            return f" at line {outcome.error_line}"
        # a program stopped for time was somewhere in its endless loop, a different line each run: name the loop
        loop = enclosing_loop(parse(self.code, "java" if self.language == "java" else "cpp"), outcome.error_line)
        return f" in the loop at line {loop}" if loop is not None else ""

    def describe(self) -> str:
        lines = [f"- line {d.line}: {d.category}: {d.message}" for d in self.diagnostics]
        if not self.compiled:
            lines.append("- the code does not compile")
        for outcome in self.outcomes:
            if outcome.status == Status.passed:
                lines.append(f"- example {outcome.index + 1} passes")
            elif outcome.error_type:
                lines.append(f"- example {outcome.index + 1}: {outcome.error_type}{self._where(outcome)}")
            else:
                lines.append(f"- example {outcome.index + 1} returns {outcome.actual}, expected {outcome.expected}")
        repair = self.repair or (self.search.compile_fix if self.search is not None else None)
        if repair is not None:
            verb = "passes every example" if self.repair is not None else "compiles"
            lines.append(f"- with {'; '.join(e.description for e in repair.edits)} it {verb}")
        if self.search is not None:
            stop = SEARCH_OUT_OF_TIME if self.search.out_of_time else "within its budget"
            lines.append(f"- {SEARCH_SPENT} {self.search.executions} programs verified, {stop}")
        return "\n".join(lines) or "- no finding"


SEARCH_SPENT = "repair search:"
"""How :meth:`CompiledProgram.describe` starts the line that says what the repair search spent."""
SEARCH_OUT_OF_TIME = "stopped at its time limit"
"""How that line ends when the search's time limit, not its count, stopped it."""
REPAIR_CANDIDATES = 2400
"""Candidate programs the repair search of one program may verify. The count, not the clock, bounds the search, so
that its result (and the answers of the tasks that read it) is the same on a loaded machine as on an idle one. A
search that finds nothing spends about 80-140 s alone on two cores and twice that when two searches share them. Most
fixes come within a few hundred; fixes of several planted bugs come later: the limit was 600 until a two-edit fix
came at 1030 on a development bug, then 1200 until, of 13 development-half bugs (11 Java, 2 C++; most with two to
four planted bugs) whose searches had used all 1200, 2 passed every hidden test with 2400. It doubles the time spent
on misses, not the time to a fix."""
REPAIR_LOOK_FURTHER = 3.0
"""Once a fix passes the examples, the search goes on for three times the candidates it took to find it, and a smaller
fix of the same kinds of edit found there is the answer instead: the first to pass may fit only the examples (a
modulus changed from 10 to 9 where a division by 100 should divide by 10, both constants changed, both passing every
example). A smaller fix of another kind does not replace it (a loop's start moved by one against a sum nobody read
added to the answer): the search's own order, suspicious lines and plausible edits first, is the better guide."""
REPAIR_FIXES = 8
"""Fixes collected at most while the search looks further."""
COMPILED_REPAIR_SAFETY_S = 600.0
"""The repair search's time limit when its count bounds it: a net for a machine far slower than this one, which a
search reports when it hits (``out_of_time``), not a budget that decides the answer."""


async def compiled_program(
    code: str,
    examples: list[str],
    language: str,
    repair_seconds: float,
    compare: CompareMode = "exact",
    repair_candidates: int = REPAIR_CANDIDATES,
) -> CompiledProgram:
    """Compile, run and repair one program on the stated examples, answers compared by ``compare`` (``unordered``
    where the problem accepts the answer in any order; real-valued answers are compared within LeetCode's 1e-5
    otherwise). The repair search verifies at most ``repair_candidates`` programs; ``repair_seconds`` is only a
    safety net for a machine far slower than expected (0 turns the search off)."""
    calls, method = stated_calls(examples, code, language)  # type: ignore[arg-type]
    if compare == "exact" and any(_has_float(call.expected) for call in calls):
        compare = "float"  # LeetCode accepts a real-valued answer within 1e-5 ("1.00000" for 0.9999999999999999)
    found = await acollect_compiled_facts(code, calls, language, method=method, compare=compare)  # type: ignore[arg-type]
    facts = found.facts if found.compiled else None
    ranked = [item.line for item in rank_lines(code, facts, found.diagnostics, language=language)]  # type: ignore[arg-type]
    program = CompiledProgram(
        code,
        language,
        calls,
        method,
        found.compiled,
        found.diagnostics,
        found.outcomes,
        found.facts,
        compare,
        ranked=ranked,
    )
    passes = found.compiled and bool(found.outcomes) and not program.failing
    # (a program that passes every example and shows no sure smell leaves the search nothing to go on)
    searched = not passes or bool(smell_mends(code, language))  # type: ignore[arg-type]
    if repair_seconds > 0 and searched and (calls or not found.compiled):
        program.search = await arepair(
            code,
            leetcode_calls=calls,
            method=method,
            language=language,  # type: ignore[arg-type]
            suspicious_lines=ranked,
            budget=RepairBudget(
                max_seconds=repair_seconds,
                max_executions=repair_candidates,
                batch_size=32,
                per_test_s=1.0,
                max_fixes=REPAIR_FIXES,
                look_further=REPAIR_LOOK_FURTHER,
            ),
            compare=compare,
            localize=compiled_localizer(calls, language, method, compare=compare),  # type: ignore[arg-type]
        )
    return program


def _has_float(value: object) -> bool:
    if isinstance(value, list):
        return any(_has_float(item) for item in value)
    return isinstance(value, float)


class CompiledFactsCache:
    """Facts per (program, examples, language, repair budget), shared by the tasks that ask about one program."""

    def __init__(self) -> None:
        self._facts: dict[str, asyncio.Task[CompiledProgram]] = {}

    async def get(
        self,
        code: str,
        examples: list[str],
        language: str,
        repair_seconds: float,
        compare: CompareMode = "exact",
        repair_candidates: int = REPAIR_CANDIDATES,
    ) -> CompiledProgram:
        facts = [code, examples, language, repair_seconds, compare, repair_candidates]
        key = hashlib.sha1(json.dumps(facts).encode()).hexdigest()
        task = self._facts.get(key)
        if task is None or task.get_loop() is not asyncio.get_running_loop():
            found = compiled_program(code, examples, language, repair_seconds, compare, repair_candidates)
            task = asyncio.create_task(found)
            self._facts[key] = task
        try:
            return await task
        except Exception:
            self._facts.pop(key, None)
            raise


# ---------------------------------------------------------------------------------------------------------------
# Bug Identification.


def _sites(lines: list[int], gap: int = 1) -> int:
    """How many separate places ``lines`` fall in (lines at most ``gap`` apart are one place)."""
    count, last = 0, None
    for line in sorted(set(lines)):
        if last is None or line - last > gap:
            count += 1
        last = line
    return count


def _major(bug_type: str, fallback: str) -> str:
    return MAJOR_OF_BUG_TYPE.get(bug_type, fallback)


def identify_compiled(program: CompiledProgram) -> tuple[str, str]:
    """(answer letter, the evidence it rests on)."""
    repair = program.repair
    fix = repair or (program.search.compile_fix if program.search is not None else None)
    kinds: set[str] = set()
    lines: list[int] = []
    raised = {outcome.error_type for outcome in program.failing if outcome.error_type}
    if fix is not None:
        for edit in fix.edits:
            major = _major(edit.bug_type, edit.category)
            if major == "logic" and edit.made_it_compile:
                # a changed value or operator cannot make code compile that named nothing wrong: what it replaced
                # referred to something that does not exist
                major = "reference"
            kinds.add(major)
            lines.append(edit.original_line or edit.line)
        if repair is not None and kinds == {"logic"} and raised & INDEX_FAILURES:
            # the examples read past the end and a bound or start value fixes it: DebugBench calls that faulty
            # indexing, whichever operator the fix changed
            kinds = {"reference"}
    if repair is None:
        # what the edits did not explain: compiler errors elsewhere, failing examples
        for diagnostic in program.blocking:
            if not any(abs(diagnostic.line - line) <= 1 for line in lines):
                kinds.add(_major(diagnostic.bug_type, "syntax" if diagnostic.category == "syntax" else "reference"))
                lines.append(diagnostic.line)
        compiled_now = program.compiled or fix is not None
        if compiled_now and program.failing:
            kinds.add("reference" if raised & REFERENCE_FAILURES else "logic")
        elif compiled_now and not program.calls and not kinds:
            kinds.add("logic")
    if not kinds:
        kinds.add("logic")
    major = "multiple" if len(kinds) > 1 or _sites(lines, gap=2) > 1 else next(iter(kinds))
    return LETTER_OF_MAJOR[major], f"kinds {sorted(kinds)} at lines {sorted(set(lines))}"


# ---------------------------------------------------------------------------------------------------------------
# Bug Localization.

# A fix verified on every example, and the edits that made the program compile, outrank the rest of the evidence
# summed: one broken line (a block left open) draws a dozen compiler messages on the lines after it.
_WEIGHTS = {
    "repair": 50.0,
    "compile_fix": 40.0,
    "syntax": 3.0,
    "reference": 2.5,
    "next_line": 1.2,
    "crash": 1.5,
    "null_origin": 2.0,
    "declaration": 1.0,
    "pattern": 0.5,
}


def line_evidence_compiled(program: CompiledProgram) -> dict[int, float]:
    """Evidence weight per line (see the module docstring)."""
    weights: dict[int, float] = {}

    def add(line: int | None, weight: float) -> None:
        if line:
            weights[line] = weights.get(line, 0.0) + weight

    fix = program.repair
    if fix is not None:
        for edit in fix.edits:
            add(edit.original_line or edit.line, _WEIGHTS["repair"])
    elif program.search is not None and program.search.compile_fix is not None:
        for edit in program.search.compile_fix.edits:
            add(edit.original_line or edit.line, _WEIGHTS["compile_fix"])
    for diagnostic in program.diagnostics:
        if blocks_compilation(diagnostic):
            add(diagnostic.line, _WEIGHTS["syntax" if diagnostic.category == "syntax" else "reference"])
            if diagnostic.code in ("expected-separator", "parse-error", "unbalanced-brackets"):
                # "expected ';' before X" points at the line after the one missing it
                add(diagnostic.line - 1, _WEIGHTS["next_line"])
            for line in quoted_declarations(program.code, diagnostic):
                add(line, _WEIGHTS["declaration"])
        else:
            add(diagnostic.line, _WEIGHTS["pattern"])
    for outcome in program.failing:
        add(outcome.error_line, _WEIGHTS["crash"])
        if outcome.error_line and is_null_failure(outcome.error_type):
            for origin in null_origins(program.code, outcome.error_line, program.language):  # type: ignore[arg-type]
                add(origin, _WEIGHTS["null_origin"])
    for rank, line in enumerate(program.ranked[:6]):
        add(line, 0.3 / (rank + 1))
    return weights


OPTION_EDITS = 96
OPTION_EDIT_TEST_S = 0.25
"""CPU seconds per example call of an option edit: the stated examples are small, so a right answer comes in
milliseconds, and a program that loops (as edits of a program that never ends mostly do) costs a quarter of a second
rather than a whole one, so that all of the edits are checked well inside the job's deadline."""


async def option_edit_passes(program: CompiledProgram, lines_per_option: list[list[int]], seconds: float) -> list[int]:
    """For each option, the most stated examples that one edit on its lines makes pass (-1: no edit compiled).

    The full repair search ranks lines by the evidence and may spend its budget before it reaches the right one;
    the options name four places, few enough to try every single edit at each in a batch or three."""
    wanted = {line: index for index, lines in enumerate(lines_per_option) for line in lines}
    language: CompiledLanguage = "java" if program.language == "java" else "cpp"
    verifier = CompiledVerifier(
        language, program.calls, program.method, program.code, OPTION_EDIT_TEST_S, program.compare
    )
    propose = verifier.proposer()
    edits = list(itertools.islice(propose(program.code, lines=set(wanted)), OPTION_EDITS))
    best = [-1] * len(lines_per_option)
    if not edits:
        return best
    verdicts = await verifier.verify([edit.source for edit in edits], seconds)
    for edit, verdict in zip(edits, verdicts):
        index = wanted.get(edit.line)
        if index is not None and verdict.compiles:
            best[index] = max(best[index], verdict.passed)
    return best


def option_scores_with_edits(scores: list[float], passes: list[int], passing_now: int, total: int) -> list[float]:
    """``scores`` plus what :func:`option_edit_passes` found: an edit that makes every example pass counts like a
    repair, one that makes more pass than now a little."""
    if max(passes, default=-1) <= passing_now:
        return scores
    top = max(passes)
    weight = _WEIGHTS["repair"] if top == total else 1.0
    return [score + (weight if passed == top else 0.0) for score, passed in zip(scores, passes)]


# ---------------------------------------------------------------------------------------------------------------
# Code Review.


@dataclass
class ReviewFacts:
    """Both programs of a Code Review prompt, compiled and run in one job."""

    compiled: tuple[bool, bool]
    errors: tuple[int, int]
    failing: tuple[int, int]
    crashes: tuple[int, int]
    suspicious: tuple[int, int]


def _pair(values: list[int]) -> tuple[int, int]:
    return values[0], values[1]


async def review_facts(code_a: str, code_b: str, examples: list[str], language: str) -> ReviewFacts:
    """Compile and run both programs on the stated examples and on perturbed inputs, in one sandboxed job."""
    # the same calls whichever program is shown first: bound to the program with the smaller text
    first = min((code_a, code_b), key=lambda code: (len(code), code))
    calls, method = stated_calls(examples, first, language)  # type: ignore[arg-type]
    extra = []
    if calls and not is_design(calls):  # (an operation sequence has no perturbed variant with a known meaning)
        rules = input_rules(calls)
        extra = perturb_calls([LeetCodeCall(args=call.args) for call in calls], count=10, seed=0, rules=rules)
    batch = await arun_variants(
        language,  # type: ignore[arg-type]
        [Variant(code_a), Variant(code_b)],
        [*calls, *extra],
        method=method,
        signature_source=first,
        per_test_s=1.0,
        warnings=True,
        deadline_s=90.0,
    )
    from debugtutor.analysis.clike.diagnostics import compiler_diagnostics, pattern_diagnostics

    compiled, errors, failing, crashes, suspicious = [], [], [], [], []
    for code, result in zip((code_a, code_b), batch.variants):
        found = compiler_diagnostics(result.messages, code, language)  # type: ignore[arg-type]
        compiled.append(int(result.compiled))
        errors.append(sum(1 for d in found if blocks_compilation(d)))
        stated = result.calls[: len(calls)]
        failing.append(sum(1 for call in stated if call.status != Status.passed))
        crashes.append(sum(1 for call in result.calls[len(calls) :] if call.status not in (Status.passed,)))
        patterns = pattern_diagnostics(code, language)  # type: ignore[arg-type]
        suspicious.append(len([d for d in [*found, *patterns] if not blocks_compilation(d)]))
    return ReviewFacts(
        compiled=(bool(compiled[0]), bool(compiled[1])),
        errors=_pair(errors),
        failing=_pair(failing),
        crashes=_pair(crashes),
        suspicious=_pair(suspicious),
    )


def review_verdict(facts: ReviewFacts) -> str | None:
    """``A`` or ``B`` (the buggier side) from the first fact that tells them apart; None when none does."""
    if facts.compiled[0] != facts.compiled[1]:
        return "B" if facts.compiled[0] else "A"
    for pair in (facts.errors, facts.failing, facts.crashes, facts.suspicious):
        if pair[0] != pair[1]:
            return "A" if pair[0] > pair[1] else "B"
    return None
