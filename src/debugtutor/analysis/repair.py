"""Repair search: find the smallest edits that make a buggy program pass its tests.

Candidates come from :func:`debugtutor.analysis.edits.candidate_edits` in ``repair`` direction (the inverses of the
bug-injecting operators), tried at the most suspicious lines first, and every candidate is verified by running the
tests in :mod:`debugtutor.sandbox` (assert tests, or LeetCode calls with expected outputs). The search is

1. single edits, ordered by line suspiciousness and by the operators' own plausibility order;
2. double edits: a second edit on top of the single edits that looked like progress (more tests passing, a
   program that now compiles where the original did not, or, in C++ and Java, tests that crashed getting further;
   then, in C++ and Java, those whose wrong answers came nearer the expected ones; then those that kept as many
   tests passing), each re-localized when its lines moved or the original never ran;
3. with the budget left, a third edit on top of the double edits that made such progress over their base (and on
   a few whose answers only came nearer).

Candidates that do not compile, or that compile to the same program as one already tried, are dropped before
running; verdicts are cached by the hash of the normalized program. For assert tests, candidates are checked in
batches by one sandboxed process each (``_verify_harness.py``: a fresh namespace per candidate), two batches at a
time, and a candidate that passes is confirmed on its own as a :class:`debugtutor.sandbox.PythonTestsRequest` before
it counts. The search stops at a budget of executions (candidate checks) and seconds, or once it has its fixes, and
returns the fixes found, fewest edits and smallest change first, but for the one it puts first: the first found,
unless a later one of the same kinds of edit changes less. A search told to look further goes on past its first fix
(at the same number of edits) for a few times the candidates that fix took, since the first candidate to pass may fit
only the tests.
"""

from __future__ import annotations

import asyncio
import difflib
import hashlib
import itertools
import json
import math
import time
import warnings
from collections.abc import Awaitable, Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field

from debugtutor.analysis.edits import candidate_edits
from debugtutor.sandbox import (
    CompareMode,
    ExecOutcome,
    Language,
    LeetCodeCall,
    LeetCodeRequest,
    Limits,
    ProgramRequest,
    PythonTestsRequest,
    SandboxRequest,
    Status,
    TestReport,
    arun,
)

VERIFY_MARKER = "@@debugtutor-verify@@"
CANDIDATE_LOAD_S = 2.0
"""Seconds to load a candidate fix before its first test."""
RELOCALIZED_BASES = 2  # bases whose lines are ranked again (one localization run each)
RELOCALIZED_SHARE = 4  # how many candidates such a base gets for each one another base gets
PROGRESS_SHARE = 3  # ... and a base that did better than its own base (see _Candidate.progressed)
MAX_PAIRED = 8  # single edits that passed more examples, each two of which are tried together
EMPTY_ENDER_SPAN = 4
"""A single edit that ends a timeout but passes no more tests (``i < n`` -> ``i > n``: the loop never runs) lets the
other single edits go on until the search has verified this many times the candidates it had when that edit turned
up; one that also passes more tests stops them at once."""
CLOSER_BASES = 4  # past the first level, bases whose answers only came nearer the expected ones (see _closer)
CLOSENESS_ITEMS = 400  # list elements or characters an answer is compared on (the comparison is quadratic)


class EditLike(Protocol):
    """The fields of :class:`debugtutor.analysis.edits.Edit` that the search reads."""

    @property
    def operator(self) -> str: ...

    @property
    def category(self) -> str: ...

    @property
    def line(self) -> int: ...

    @property
    def description(self) -> str: ...

    @property
    def source(self) -> str: ...


class EditProposer(Protocol):
    """The signature of :func:`debugtutor.analysis.edits.candidate_edits`."""

    def __call__(
        self,
        source: str,
        *,
        lines: Collection[int] | None = None,
        categories: Collection[str] = ("syntax", "reference", "logic"),
        direction: Literal["mutate", "repair"] = "repair",
    ) -> Iterator[EditLike]: ...


class RepairBudget(BaseModel):
    """How much a search may spend: sandbox executions, seconds, and how many fixes to collect before stopping."""

    max_executions: int = 20000
    max_seconds: float = 10.0
    max_fixes: int = 1
    look_further: float | None = None
    """Once a fix is found, go on for this many times the candidates it took (up to ``max_fixes``), for a smaller fix
    of the same kinds of edit (the first one to pass may fit only the tests, see :func:`_preferred_first`); None: stop
    at ``max_fixes`` fixes."""
    max_edits: int = Field(default=3, ge=1, le=4)
    """Edits per fix; each level past one builds only on candidates that passed more tests than their base."""
    concurrency: int = 2
    batch_size: int = 32
    max_bases: int = 24
    top_lines: int = 4
    per_test_s: float = 0.25


class AppliedEdit(BaseModel):
    """One edit of a repair; ``line`` is in the program the edit was applied to, ``original_line`` the matching
    line of the buggy program (they differ only after an earlier edit added or removed lines)."""

    operator: str
    category: str
    line: int
    description: str
    original_line: int | None = None
    made_it_compile: bool = False
    """The program did not compile before this edit and did after it (a syntax-level fix, whatever its label)."""
    bug_type: str = ""
    """The DebugBench minor bug type the edit undoes (e.g. ``"condition error"``), when its operator knows it."""


class Repair(BaseModel):
    """A verified fix: the edits, the fixed program, its unified diff against the buggy one, and what finding it
    cost (executions and seconds since the search began)."""

    edits: list[AppliedEdit]
    source: str
    diff: str
    changed_lines: list[int]
    executions: int
    seconds: float
    fragile: bool = False
    """It passed the tests, but crashed on inputs near them that the unfixed program ran through; kept only because
    the search found no fix that held there too."""

    @property
    def edit_lines(self) -> list[int]:
        """The buggy program's lines the edits were made at, logic and reference edits before syntax ones."""
        ordered = sorted(self.edits, key=lambda edit: edit.category == "syntax")
        lines: list[int] = []
        for edit in ordered:
            line = edit.original_line or edit.line
            if line not in lines:
                lines.append(line)
        return lines


class RepairSearch(BaseModel):
    """The outcome of one search: the fixes found (smallest first) and what the search spent."""

    repairs: list[Repair] = Field(default_factory=list)
    executions: int = 0
    seconds: float = 0.0
    candidates: int = 0
    sandbox_runs: int = 0
    tests_total: int = 0
    tests_passed_before: int = 0
    budget_exhausted: bool = False
    out_of_time: bool = False
    """The search stopped at its time limit (rather than at its execution count, a fix, or the end of its edits):
    where the count is meant to bound the search, its result then depends on the machine's speed."""
    compile_fix: Repair | None = None
    """C++/Java: the edits that made a program compile that did not (whether or not it then passed its tests)."""

    @property
    def best(self) -> Repair | None:
        return self.repairs[0] if self.repairs else None


@dataclass
class _Verdict:
    passed: int
    total: int
    compiles: bool
    known: bool = True
    """False when the batch ran out of time before this candidate: not a verdict to cache."""
    timed_out: bool = False
    """A test ran out of the short first-pass budget: the candidate may deserve the full one."""
    stops: tuple[int | None, ...] = ()
    """Per test, in order, where a test that did not return stopped: the program's line (0 when the runner could not
    tell), None for a test that returned an answer, right or wrong. Empty when the verifier does not say."""
    closeness: tuple[float, ...] = ()
    """Per test, in order, how near its answer came to the expected one (:func:`answer_closeness`; 1 passed, 0
    no answer). Empty when the verifier does not say."""

    @property
    def all_passed(self) -> bool:
        return self.compiles and self.total > 0 and self.passed == self.total


def answer_closeness(actual: Any, expected: Any, *, unordered: bool = False) -> float:
    """How near a wrong answer is to the expected one, from 0 to 1 (equal answers only): numbers by the logarithm
    of their gap, strings and lists by the share of characters or elements they have in the same order (``unordered``:
    a list's elements are compared sorted). An answer of another type, or a wrong boolean, is 0."""
    if actual == expected and type(actual) is type(expected):
        return 1.0
    if isinstance(actual, bool) or isinstance(expected, bool):
        return 0.0
    if isinstance(actual, int | float) and isinstance(expected, int | float):
        gap = abs(float(actual) - float(expected))
        return 1.0 / (2.0 + math.log1p(gap)) if math.isfinite(gap) else 0.0
    if isinstance(actual, str) and isinstance(expected, str):
        pair = (actual[:CLOSENESS_ITEMS], expected[:CLOSENESS_ITEMS])
        return 0.99 * difflib.SequenceMatcher(None, *pair, autojunk=False).ratio()
    if isinstance(actual, list) and isinstance(expected, list):
        mine, theirs = ([json.dumps(item, sort_keys=True) for item in side] for side in (actual, expected))
        if unordered:
            mine, theirs = sorted(mine), sorted(theirs)
        matcher = difflib.SequenceMatcher(None, mine[:CLOSENESS_ITEMS], theirs[:CLOSENESS_ITEMS], autojunk=False)
        return 0.99 * matcher.ratio()
    return 0.0


def _closer(verdict: _Verdict | None, before: _Verdict | None) -> bool:
    """Progress that passes no more tests: every test stops where it did (or returns now) and the answers, taken
    together, came nearer the expected ones. Two faults in the way of the same tests fail them until both are
    mended; the answers of the edit that mends one of them often move toward the expected ones."""
    if verdict is None or before is None or not verdict.closeness or len(verdict.closeness) != len(before.closeness):
        return False
    if verdict.passed != before.passed or len(verdict.stops) != len(before.stops):
        return False
    if any(now is not None and now != then for now, then in zip(verdict.stops, before.stops, strict=True)):
        return False
    return sum(verdict.closeness) > sum(before.closeness) + 1e-9


@dataclass
class _Candidate:
    source: str
    edits: list[AppliedEdit]
    verdict: _Verdict | None = None
    base_passed: int = 0
    """Tests the program this candidate was edited from passed."""
    base: _Candidate | None = None
    """The program this candidate was edited from, when it was one the search verified (for :func:`_moved_on`)."""
    progressed: bool = False
    """As a base: it did better than the program it was edited from (more tests passed, a test that crashed or ran
    out of time now answers), not only as well or a little nearer."""


@dataclass
class _Base:
    candidate: _Candidate
    lines: list[int] = field(default_factory=list)


def changed_original_lines(original: str, edited: str) -> list[int]:
    """Lines of ``original`` (1-based) that an edit replaced or deleted; for a pure insertion, the line before it."""
    matcher = difflib.SequenceMatcher(a=original.splitlines(), b=edited.splitlines(), autojunk=False)
    changed: set[int] = set()
    for tag, a_start, a_end, _b_start, _b_end in matcher.get_opcodes():
        if tag in ("replace", "delete"):
            changed.update(range(a_start + 1, a_end + 1))
        elif tag == "insert":
            changed.add(max(1, a_start))
    return sorted(changed)


def unified_diff(original: str, fixed: str, *, name: str = "program.py") -> str:
    """A unified diff between two versions of a program."""
    lines = difflib.unified_diff(
        original.splitlines(keepends=True), fixed.splitlines(keepends=True), f"a/{name}", f"b/{name}"
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def _normal_form(source: str) -> str | None:
    """A cache key for a program that compiles (its text without trailing blanks), None when it does not compile.

    Text, not the AST: dumping an AST costs more than running a novice's tests, and the edits that give the same
    program almost always give the same text."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # e.g. SyntaxWarning for `is` with a literal
            compile(source, "student.py", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return None
    normal = "\n".join(line.rstrip() for line in source.rstrip().splitlines())
    return hashlib.blake2b(normal.encode(), digest_size=16).hexdigest()


def _line_map(original: str, edited: str) -> dict[int, int]:
    """For each line of ``edited`` (1-based), the line of ``original`` it corresponds to."""
    matcher = difflib.SequenceMatcher(a=original.splitlines(), b=edited.splitlines(), autojunk=False)
    mapping: dict[int, int] = {}
    for tag, a_start, a_end, b_start, b_end in matcher.get_opcodes():
        for offset in range(b_end - b_start):
            if tag == "equal":
                mapping[b_start + offset + 1] = a_start + offset + 1
            else:
                mapping[b_start + offset + 1] = min(a_start + offset, max(a_end - 1, a_start)) + 1
    return mapping


def _span_of(base: str, edited: str) -> tuple[int, int, str]:
    """The one span of ``base`` that ``edited`` replaces: (start, end, replacement)."""
    prefix = 0
    limit = min(len(base), len(edited))
    while prefix < limit and base[prefix] == edited[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and base[len(base) - 1 - suffix] == edited[len(edited) - 1 - suffix]:
        suffix += 1
    return prefix, len(base) - suffix, edited[prefix : len(edited) - suffix]


def merge_edits(base: str, edited: Sequence[str]) -> str | None:
    """Apply several single-span edits of ``base`` together (each given as the edited program); None when two of
    them overlap or touch."""
    spans = sorted((_span_of(base, text) for text in edited), key=lambda span: span[0])
    for (_, end, _), (start, _, _) in itertools.pairwise(spans):
        if start < end + 1:
            return None
    merged = base
    for start, end, text in reversed(spans):
        merged = merged[:start] + text + merged[end:]
    return merged


def _interleave(iterators: Sequence[Iterator[Any]], chunk: int = 1, shares: Sequence[int] = ()) -> Iterator[Any]:
    """Round-robin over iterators, ``chunk`` items at a time (times the iterator's share, 1 unless ``shares``
    says), until all are exhausted."""
    active = [
        (iterator, chunk * (shares[index] if index < len(shares) else 1)) for index, iterator in enumerate(iterators)
    ]
    while active:
        still: list[tuple[Iterator[Any], int]] = []
        for iterator, size in active:
            taken = list(itertools.islice(iterator, size))
            yield from taken
            if len(taken) == size:
                still.append((iterator, size))
        active = still


BatchVerifier = Callable[[list[str], float, bool], Awaitable[list[_Verdict]]]
"""Checks programs against the tests within a number of seconds (with the short first-pass per-test budget, or
the full one); one verdict per program, in order."""
Confirmer = Callable[[str], Awaitable[bool]]
"""Whether a program that passed in a batch passes when checked again on its own (or, as a robustness check,
whether a confirmed fix also holds on inputs near the tests)."""


class _Search:
    """One repair search; holds the verdict cache, the counters and the budget clock."""

    def __init__(
        self,
        code: str,
        verify: BatchVerifier,
        confirm: Confirmer | None,
        proposer: EditProposer,
        budget: RepairBudget,
        normal_form: Callable[[str], str | None] | None = None,
        robust: Confirmer | None = None,
        diff_name: str = "program.py",
    ) -> None:
        self.code = code
        self.robust = robust
        self.diff_name = diff_name
        self.fragile: Repair | None = None
        self.normal_form = normal_form or _normal_form
        self.verify = verify
        self.confirm = confirm
        self.proposer = proposer
        self.budget = budget
        self.started = time.monotonic()
        self.executions = 0
        self.sandbox_runs = 0
        self.candidates = 0
        self.cache: dict[str, _Verdict] = {}
        self.keys: dict[str, str | None] = {}
        self.slow: list[_Candidate] = []
        self.fixes: list[Repair] = []
        self.exhausted = False
        self.out_of_time = False

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def out_of_budget(self) -> bool:
        if self.exhausted:
            return True
        if self.elapsed() >= self.budget.max_seconds:
            self.exhausted = self.out_of_time = True
        elif self.executions >= self.budget.max_executions:
            self.exhausted = True
        return self.exhausted

    def done(self) -> bool:
        return len(self.fixes) >= self.budget.max_fixes or self.looked_far_enough() or self.out_of_budget()

    def looked_far_enough(self) -> bool:
        """A fix is in hand and the search went on past it as far as the budget's ``look_further`` asks."""
        further = self.budget.look_further
        if further is None or not self.fixes:
            return False
        return self.executions >= (1 + further) * self.fixes[0].executions  # (the first found took the fewest)

    async def check_all(self, candidates: list[_Candidate], *, full_time: bool = False) -> None:
        """Verify candidates (already deduplicated and compiling), ``concurrency`` batches at a time. Candidates
        that ran out of the short first-pass time are kept aside for :meth:`recheck_slow`."""
        size = self.budget.batch_size
        batches = [candidates[start : start + size] for start in range(0, len(candidates), size)]
        remaining = max(0.5, self.budget.max_seconds - self.elapsed())
        verdict_lists = await asyncio.gather(
            *(self.verify([item.source for item in batch], remaining, full_time) for batch in batches)
        )
        self.sandbox_runs += len(batches)
        for batch, verdicts in zip(batches, verdict_lists, strict=True):
            for item, verdict in zip(batch, verdicts, strict=True):
                key = self.key(item.source)
                if key is not None and verdict.known:
                    self.cache[key] = verdict
                if verdict.timed_out and not full_time:
                    self.slow.append(item)
                item.verdict = verdict
        self.executions += len(candidates)

    async def confirmed(self, candidate: _Candidate) -> bool:
        """A batch verdict of "all passed" checked again on its own, when the search has a confirmer."""
        if self.confirm is None:
            return True
        self.executions += 1
        self.sandbox_runs += 1
        return await self.confirm(candidate.source)

    async def run_batches(
        self, candidates: Iterable[_Candidate], on_verdict: Callable[[_Candidate], Awaitable[None]]
    ) -> None:
        """Verify candidates in rounds, skipping ones that do not compile or repeat a program already seen."""
        seen_here: set[str] = set()
        pending: list[_Candidate] = []
        round_size = self.budget.batch_size * self.budget.concurrency

        async def flush() -> None:
            room = max(0, self.budget.max_executions - self.executions)
            todo = pending[:room]
            pending.clear()
            await self.check_all(todo)
            for item in todo:
                await on_verdict(item)
                if len(self.fixes) >= self.budget.max_fixes:
                    return

        for candidate in candidates:
            if self.done():
                break
            key = self.key(candidate.source)
            if key is None or key in seen_here:
                continue
            seen_here.add(key)
            self.candidates += 1
            if key in self.cache:
                candidate.verdict = self.cache[key]
                await on_verdict(candidate)
                continue
            pending.append(candidate)
            if len(pending) >= round_size:
                await flush()
        if pending and not self.done():
            await flush()

    async def record_if_fixed(self, candidate: _Candidate) -> bool:
        verdict = candidate.verdict
        if verdict is None or not verdict.all_passed or not await self.confirmed(candidate):
            return False
        edits = []
        for edit in candidate.edits:
            edits.append(edit.model_copy(update={"original_line": edit.original_line or edit.line}))
        fix = Repair(
            edits=edits,
            source=candidate.source,
            diff=unified_diff(self.code, candidate.source, name=self.diff_name),
            changed_lines=changed_original_lines(self.code, candidate.source),
            executions=self.executions,
            seconds=round(self.elapsed(), 3),
        )
        if self.robust is not None and not await self.robust(candidate.source):
            # a fix that only fits the tests: search on for one that holds, and keep the first as a last resort
            self.fragile = self.fragile or fix.model_copy(update={"fragile": True})
            return False
        self.fixes.append(fix)
        return True

    async def recheck_slow(self) -> None:
        """Give the candidates that ran out of the short first-pass time the full per-test time."""
        while self.slow and not self.done():
            room = max(0, self.budget.max_executions - self.executions)
            chunk = self.slow[: min(room, self.budget.batch_size * self.budget.concurrency)]
            del self.slow[: len(chunk)]
            await self.check_all(chunk, full_time=True)
            for item in chunk:
                if await self.record_if_fixed(item):
                    return

    def key(self, source: str) -> str | None:
        """The program's cache key (memoized), or None when it does not compile."""
        if source not in self.keys:
            self.keys[source] = self.normal_form(source)
        return self.keys[source]

    def edits_at(self, source: str, lines: Sequence[int], *, categories: Collection[str]) -> Iterator[_Candidate]:
        """Candidates on ``source``: the top lines interleaved (most plausible operator of each line first), then
        the remaining ranked lines, then edits anywhere else. The proposer is asked once per program."""
        edits = list(self.proposer(source, lines=None, categories=categories, direction="repair"))
        by_line: dict[int, list[EditLike]] = {}
        for edit in edits:
            by_line.setdefault(edit.line, []).append(edit)
        ranked = [line for line in dict.fromkeys(lines) if line in by_line]
        unranked = [line for line in by_line if line not in set(ranked)]
        top, rest = ranked[: self.budget.top_lines], ranked[self.budget.top_lines :] + unranked
        source_compiles = self.key(source) is not None
        line_map = None if source == self.code else _line_map(self.code, source)

        def candidate(edit: EditLike) -> _Candidate:
            original_line = edit.line if line_map is None else line_map.get(edit.line, edit.line)
            applied = AppliedEdit(
                operator=edit.operator,
                category=edit.category,
                line=edit.line,
                description=edit.description,
                original_line=original_line,
                made_it_compile=not source_compiles and self.key(edit.source) is not None,
                bug_type=getattr(edit, "bug_type", ""),
            )
            return _Candidate(edit.source, [applied])

        for group in (top, rest):
            for edit in _interleave([iter(by_line[line]) for line in group], chunk=2):
                yield candidate(edit)


def _statement_order(source: str, ranked: Sequence[int]) -> list[int]:
    """The ranked lines first, then every other non-blank line in file order."""
    order = [line for line in ranked]
    seen = set(order)
    for number, text in enumerate(source.splitlines(), 1):
        if text.strip() and not text.strip().startswith("#") and number not in seen:
            order.append(number)
            seen.add(number)
    return order


async def _deeper_edits(
    search: _Search,
    bases: list[_Candidate],
    *,
    order: list[int],
    compiles: bool,
    localize: Callable[[str], Awaitable[list[int]]] | None,
    passed_before: int = 0,
    timed_out_before: bool = False,
) -> None:
    """Edits on top of edits, one level at a time up to the budget's ``max_edits``. The lines of the bases that
    pass the most tests, more than the program did, are ranked again on what they do (a test that passes now
    tells the lines it runs from those only the failing ones run, as the program that failed every test could
    not). Where the program ran out of time, the bases that end are ranked on what the first of them runs: the
    code past the endless loop, which the program never reached, gets its place."""
    budget, code = search.budget, search.code
    localized: dict[str, list[int]] = {}
    reached: list[list[int]] = []

    async def base_lines(base: _Candidate, best: int) -> list[int]:
        same_shape = len(base.source.splitlines()) == len(code.splitlines())
        verdict = base.verdict
        telling = verdict is not None and passed_before < verdict.passed == best < verdict.total
        room = budget.max_seconds - search.elapsed() > 1.0
        if localize is not None and telling and len(localized) < RELOCALIZED_BASES and room:
            search.sandbox_runs += 1
            localized[base.source] = _statement_order(base.source, list(await localize(base.source)))
        if base.source in localized:
            return localized[base.source]
        ends_now = _ends_a_timeout(verdict, timed_out_before)
        if compiles and same_shape and ends_now and localize is not None and (reached or room):
            if not reached:
                search.sandbox_runs += 1
                reached.append(_statement_order(base.source, list(await localize(base.source))))
            return reached[0]
        if compiles and same_shape:
            return order
        if localize is not None and budget.max_seconds - search.elapsed() > 1.0:
            search.sandbox_runs += 1
            return _statement_order(base.source, list(await localize(base.source)))
        return _statement_order(base.source, [])

    for _depth in range(2, budget.max_edits + 1):
        if search.fixes or search.done() or not bases:
            return
        # an edit on top of a base that passes more tests than the base did, or gets further in a test that
        # crashed (see _moved_on), is progress worth building on
        progress: list[_Candidate] = []
        closer: list[_Candidate] = []

        async def judge(
            candidate: _Candidate, progress: list[_Candidate] = progress, closer: list[_Candidate] = closer
        ) -> None:
            if await search.record_if_fixed(candidate):
                return
            verdict = candidate.verdict
            if verdict is None or not verdict.compiles or not verdict.total:
                return
            if verdict.passed > candidate.base_passed or _moved_on(candidate, candidate.base):
                candidate.progressed = True
                progress.append(candidate)
            elif candidate.base is not None and _closer(verdict, candidate.base.verdict):
                closer.append(candidate)

        streams, shares = [], []
        # (a base with as many edits as this level's candidates, a pair tried together, waits for the next level)
        waiting = [base for base in bases if len(base.edits) >= _depth]
        best = max((base.verdict.passed for base in bases if base.verdict is not None), default=0)
        for base in bases:
            if len(base.edits) >= _depth:
                continue
            lines = await base_lines(base, best)
            following = search.edits_at(base.source, lines, categories=("logic", "reference", "syntax"))
            streams.append(_on_top_of(base, following))
            # a base ranked again on what it does is searched faster than the others, and one that did better than
            # its own base faster than those that only did as well or came nearer (a crash mended, the next fault
            # the tests reach may be anywhere on the way: at an even share, two dozen bases leave each of them a
            # few dozen edits)
            shares.append(RELOCALIZED_SHARE if base.source in localized else PROGRESS_SHARE if base.progressed else 1)
        await search.run_batches(_interleave(streams, chunk=6, shares=shares), judge)
        # (answers that only came nearer are weaker evidence: a few such bases, after the ones that passed more)
        nearer = sorted(closer, key=_closeness_desc)[:CLOSER_BASES]
        bases = (sorted(waiting + progress, key=_progress_desc) + nearer)[: budget.max_bases]


async def _search(
    code: str,
    verify: BatchVerifier,
    *,
    confirm: Confirmer | None = None,
    suspicious_lines: Sequence[int],
    budget: RepairBudget,
    proposer: EditProposer,
    localize: Callable[[str], Awaitable[list[int]]] | None,
    normal_form: Callable[[str], str | None] | None = None,
    robust: Confirmer | None = None,
    diff_name: str = "program.py",
) -> RepairSearch:
    """The search behind :func:`arepair` (and the compiled languages' search): ``confirm`` checks a fix that
    passed in a batch on its own; ``robust``, when given, whether a confirmed fix holds near the tests (a fix that
    does not is returned only when the search finds no other); ``diff_name`` is the file name the fixes' diffs
    give the program."""
    search = _Search(code, verify, confirm, proposer, budget, normal_form, robust, diff_name)
    original = _Candidate(code, [])
    compiles = search.key(code) is not None
    if compiles:
        await search.check_all([original], full_time=True)
        # (a compiled language's key only says that the program may compile: the compiler has the last word)
        compiles = original.verdict is not None and original.verdict.compiles
    base_verdict = original.verdict or _Verdict(0, 0, compiles=False)
    result = RepairSearch(tests_total=base_verdict.total, tests_passed_before=base_verdict.passed)
    if base_verdict.all_passed:
        result.executions, result.seconds = search.executions, round(search.elapsed(), 3)
        result.sandbox_runs = search.sandbox_runs
        return result

    ranked = list(suspicious_lines)
    if not ranked and compiles and localize is not None:
        ranked = list(await localize(code))
    order = _statement_order(code, ranked)
    # single edits by what they did: more tests pass, as many pass, fewer pass (still worth a second edit when
    # two faults mask each other)
    improvers: list[_Candidate] = []
    closer: list[_Candidate] = []
    neutral: list[_Candidate] = []
    others: list[_Candidate] = []

    async def judge_single(candidate: _Candidate) -> None:
        verdict = candidate.verdict
        if verdict is None or not verdict.compiles or await search.record_if_fixed(candidate):
            return
        # a program that no longer runs out of time has moved on even when no more tests pass (a call that never
        # returned now returns something: the next edit can make it the right thing)
        ends_now = _ends_a_timeout(verdict, base_verdict.timed_out)
        if ends_now:
            ended_timeout.append(candidate)
        # (every test returns an answer now, where one ran out of time or crashed before: an edit to pair)
        stopped_before = any(stop is not None for stop in base_verdict.stops)
        if (
            verdict.total
            and not verdict.timed_out
            and (ends_now or (stopped_before and not any(stop is not None for stop in verdict.stops)))
        ):
            answering.append(candidate)
        if verdict.passed > base_verdict.passed or not compiles or ends_now or _moved_on(candidate, original):
            candidate.progressed = compiles  # (once a program that did not compile does, every edit "improves" it)
            improvers.append(candidate)
        elif _closer(verdict, base_verdict):
            closer.append(candidate)
        elif verdict.passed == base_verdict.passed and verdict.total:
            neutral.append(candidate)
        elif verdict.total:
            others.append(candidate)

    ended_timeout: list[_Candidate] = []
    answering: list[_Candidate] = []

    # A program that does not compile can only be helped by syntax edits first.
    categories = ("syntax",) if not compiles else ("logic", "reference", "syntax")
    singles = search.edits_at(code, order, categories=categories)
    await search.run_batches(_until_a_timeout_ends(singles, search, ended_timeout, base_verdict.passed), judge_single)
    if not compiles and not search.fixes and not search.done():
        await search.run_batches(search.edits_at(code, order, categories=("reference", "logic")), judge_single)

    paired = compiles and budget.max_edits > 1
    combined = await _paired(search, code, improvers, base_verdict.passed, answering) if paired else []
    bases = (
        sorted(combined, key=_progress_desc)
        + sorted(improvers, key=_progress_desc)
        + sorted(closer, key=_closeness_desc)
        + neutral
        + sorted(others, key=_passed_desc)
    )[: budget.max_bases]
    await _deeper_edits(
        search,
        bases,
        order=order,
        compiles=compiles,
        localize=localize,
        passed_before=base_verdict.passed,
        timed_out_before=base_verdict.timed_out,
    )
    if not search.fixes:
        await search.recheck_slow()
    if not search.fixes and search.fragile is not None:
        search.fixes.append(search.fragile)

    result.repairs = _preferred_first(code, search.fixes)
    result.executions = search.executions
    result.sandbox_runs = search.sandbox_runs
    result.seconds = round(search.elapsed(), 3)
    result.candidates = search.candidates
    result.budget_exhausted = search.exhausted and not search.fixes
    result.out_of_time = search.out_of_time
    return result


def _until_a_timeout_ends(
    candidates: Iterator[_Candidate], search: _Search, ended_timeout: list[_Candidate], passed_before: int
) -> Iterator[_Candidate]:
    """The single edits of a program that runs out of time, until one ends it. Every other single edit of a program
    that never ends runs out of time too (slowly): once one edit makes it end, the search goes on from there. An edit
    that ends it only by skipping the work (a loop that no longer runs) passes nothing more, so the singles go on a
    while (see :data:`EMPTY_ENDER_SPAN`): the edit that ends the loop the right way may sit a few lines further down."""
    empty_since: int | None = None
    for candidate in candidates:
        if any(ender.verdict is not None and ender.verdict.passed > passed_before for ender in ended_timeout):
            return
        if ended_timeout and empty_since is None:
            empty_since = search.executions
        if empty_since is not None and search.executions >= EMPTY_ENDER_SPAN * empty_since:
            return
        yield candidate


async def _paired(
    search: _Search, code: str, improvers: list[_Candidate], passed: int, ended: Sequence[_Candidate] = ()
) -> list[_Candidate]:
    """Two faults that each fail examples of their own: the edits that mend each are found alone, and together they
    are one candidate rather than a place deep in each other's search. Tries each two of the best single edits that
    passed more than ``passed``, and each of those with each edit after which every test returns an answer where one
    ran out of time or crashed before (``ended``: an endless loop or recursion mended, the other fault still failing
    the examples it reaches); returns the pairs that passed more than either alone (a fix is recorded)."""
    gaining = [c for c in sorted(improvers, key=_passed_desc) if c.verdict is not None and c.verdict.passed > passed]
    combined: list[_Candidate] = []

    async def judge_pair(candidate: _Candidate) -> None:
        verdict = candidate.verdict
        if verdict is None or await search.record_if_fixed(candidate):
            return
        if verdict.compiles and verdict.passed > candidate.base_passed:
            candidate.progressed = True
            combined.append(candidate)

    # (the enders whose answers came nearest the expected ones first: an edit that ends a loop by cutting it short
    # answers too)
    enders = sorted((candidate for candidate in ended if candidate not in gaining), key=_progress_desc)[:MAX_PAIRED]
    if (len(gaining) >= 2 or (gaining and enders)) and not search.fixes and not search.done():
        await search.run_batches(_pairs_of(code, gaining[:MAX_PAIRED], enders), judge_pair)
    return combined


def _pairs_of(code: str, singles: Sequence[_Candidate], partners: Sequence[_Candidate] = ()) -> Iterator[_Candidate]:
    """Each two of ``singles`` (single edits of ``code``) applied together and, taking turns with those pairs, each of
    ``partners`` with each of them, where their spans are apart; a pair's ``base_passed`` is what the better of the two
    passed alone."""
    for first, second in _interleave([itertools.combinations(singles, 2), itertools.product(partners, singles)]):
        merged = merge_edits(code, [first.source, second.source])
        if merged is not None:
            alone = max(-_passed_desc(first), -_passed_desc(second))
            yield _Candidate(merged, [*first.edits, *second.edits], base_passed=alone)


def _on_top_of(base: _Candidate, following: Iterator[_Candidate]) -> Iterator[_Candidate]:
    base_passed = base.verdict.passed if base.verdict is not None else 0
    for candidate in following:
        yield _Candidate(candidate.source, base.edits + candidate.edits, base_passed=base_passed, base=base)


def _ends_a_timeout(verdict: _Verdict | None, timed_out_before: bool) -> bool:
    """Whether a program that ran out of time before compiles and no longer runs out of time with this edit."""
    return timed_out_before and verdict is not None and verdict.compiles and not verdict.timed_out


def _moved_on(candidate: _Candidate, base: _Candidate | None) -> bool:
    """Progress that passes no more tests: a test that crashed in ``base`` returns an answer now, or stops at a later
    line of the same-shaped program, while every test that returned still does and no passing test is lost. Two
    faults on the way of one test hide each other so (an overflow at one line, a read past the end at the next):
    mending the first is a base for the second. A test whose crash could not be placed before (a segmentation fault
    where the runner cannot tell the line) and is placed now says nothing either way; another test must move on."""
    if base is None or candidate.verdict is None or base.verdict is None:
        return False
    verdict, before = candidate.verdict, base.verdict
    if not before.stops or len(verdict.stops) != len(before.stops) or verdict.passed < before.passed:
        return False
    same_lines = candidate.source.count("\n") == base.source.count("\n")
    moved = False
    for now, then in zip(verdict.stops, before.stops, strict=True):
        if now == then or (then == 0 and now):
            # (a crash the runner could not place before, placed now: neither further nor back, as far as it can tell)
            continue
        if then is not None and (now is None or (same_lines and now > then > 0)):
            moved = True
        else:
            return False  # a test that returned stops now, or one stops earlier or where the runner cannot tell
    return moved


def _progress_desc(candidate: _Candidate) -> tuple[int, int, float]:
    """A base's sort key, most promising first: tests passed, then tests that return an answer (a program that
    crashed everywhere and now returns, still wrong, has got past one of its faults), then how near the answers
    came to the expected ones."""
    verdict = candidate.verdict
    if verdict is None:
        return (0, 0, 0.0)
    return (-verdict.passed, -sum(1 for stop in verdict.stops if stop is None), -sum(verdict.closeness))


def _closeness_desc(candidate: _Candidate) -> float:
    return -sum(candidate.verdict.closeness) if candidate.verdict is not None else 0.0


def _passed_desc(candidate: _Candidate) -> int:
    return -(candidate.verdict.passed if candidate.verdict is not None else 0)


def _preferred_first(code: str, fixes: list[Repair]) -> list[Repair]:
    """The fixes, fewest edits and smallest change first, except that the one returned first is the first found of
    the fewest edits (the search tries the most suspicious lines and the most plausible edits first) or, smaller
    still, a fix found after it with edits of the same kinds (a constant changed by less than the first changed its
    own): a smaller change of another kind may fit only the tests, where the first one followed the evidence."""
    ranked = sorted(fixes, key=lambda fix: (len(fix.edits), _diff_size(code, fix.source)))
    if not ranked:
        return ranked
    first = min(fixes, key=lambda fix: len(fix.edits))  # (min keeps the first found of equals)
    kinds = [edit.operator for edit in first.edits]
    alike = [fix for fix in fixes if [edit.operator for edit in fix.edits] == kinds]
    chosen = min(alike, key=lambda fix: _diff_size(code, fix.source))  # (the first of equals: min keeps order)
    return [chosen, *(fix for fix in ranked if fix is not chosen)]


def _diff_size(original: str, fixed: str) -> int:
    matcher = difflib.SequenceMatcher(a=original, b=fixed, autojunk=False)
    return sum(
        max(a_end - a_start, b_end - b_start)
        for tag, a_start, a_end, b_start, b_end in matcher.get_opcodes()
        if tag != "equal"
    )


def _report_verdict(report: TestReport) -> _Verdict:
    passed = sum(1 for test in report.tests if test.status == Status.passed)
    return _Verdict(passed=passed, total=len(report.tests), compiles=True)


@cache
def _verify_harness() -> str:
    return resources.files("debugtutor.analysis").joinpath("_verify_harness.py").read_text(encoding="utf-8")


def _batch_verdicts(outcome: ExecOutcome, count: int, total: int) -> list[_Verdict | None]:
    verdicts: list[_Verdict | None] = [None] * count
    for line in outcome.stdout.splitlines():
        start = line.find(VERIFY_MARKER)
        if start < 0:
            continue
        try:
            record = json.loads(line[start + len(VERIFY_MARKER) :])
        except json.JSONDecodeError:
            continue
        index = record.get("index")
        if isinstance(index, int) and 0 <= index < count:
            timed_out = bool(record.get("timed_out"))
            verdicts[index] = _Verdict(
                passed=int(record.get("passed", 0)),
                total=total,
                compiles=True,
                known=not timed_out,
                timed_out=timed_out,
            )
    return verdicts


async def arepair(
    code: str,
    tests: Sequence[str] = (),
    *,
    setup: str = "",
    leetcode_calls: Sequence[LeetCodeCall] | None = None,
    method: str | None = None,
    suspicious_lines: Sequence[int] = (),
    budget: RepairBudget | None = None,
    proposer: EditProposer | None = None,
    localize: Callable[[str], Awaitable[list[int]]] | None = None,
    language: Language = "python",
    compare: CompareMode = "exact",
) -> RepairSearch:
    """Search for fixes of ``code`` that pass every test (assert ``tests`` with ``setup``, or ``leetcode_calls``
    of ``class Solution``'s ``method`` with expected outputs, compared by ``compare``). ``suspicious_lines`` orders
    the search; without it, ``localize`` (an async function source -> ranked lines) is asked. ``proposer`` defaults
    to :func:`debugtutor.analysis.edits.candidate_edits`. C++ and Java (``language``) take ``leetcode_calls`` and
    are searched by :func:`debugtutor.analysis.clike.repair.arepair_compiled` (candidates compiled in batches)."""
    if language != "python":
        from debugtutor.analysis.clike.repair import arepair_compiled

        if leetcode_calls is None:
            raise ValueError("C++ and Java repairs are verified on leetcode_calls")
        return await arepair_compiled(
            code, leetcode_calls, language=language, method=method, suspicious_lines=suspicious_lines,
            budget=budget, localize=localize, compare=compare,
        )  # fmt: skip
    budget = budget or RepairBudget()
    per_test = budget.per_test_s
    tests = list(tests)
    count = len(leetcode_calls) if leetcode_calls is not None else len(tests)
    limits = Limits(wall_s=CANDIDATE_LOAD_S, per_test_s=per_test, memory_mb=512)

    async def verify_one(source: str) -> _Verdict:
        request: SandboxRequest
        if leetcode_calls is not None:
            request = LeetCodeRequest(
                code=source, calls=list(leetcode_calls), method=method, limits=limits, compare=compare
            )
        else:
            request = PythonTestsRequest(code=source, tests=tests, setup=setup, limits=limits)
        report = await arun(request)
        return _report_verdict(report)

    async def verify_batch(sources: list[str], seconds: float, full_time: bool = True) -> list[_Verdict]:
        if leetcode_calls is not None:
            return list(await asyncio.gather(*(verify_one(source) for source in sources)))
        # the first pass gives each test a tenth of its time: one fix among many candidates that loop forever is
        # then found fast, and the ones that ran out are checked again with the full time at the end
        test_time = per_test if full_time else max(0.01, per_test / 10)
        config = {
            "programs": sources,
            "tests": tests,
            "setup": setup,
            "per_test_timeout_s": test_time,
            "deadline_s": seconds,
        }
        # the harness stops starting candidates at the deadline; the wall limit only catches a runaway: every
        # candidate's suite budget, or the deadline plus one candidate's
        candidate_s = Limits(wall_s=CANDIDATE_LOAD_S, per_test_s=test_time).suite_budget(count).wall_s
        wall = min(candidate_s * len(sources), seconds + candidate_s)
        files = {"candidates.json": json.dumps(config)}
        outcome = await arun(ProgramRequest(source=_verify_harness(), files=files, limits=Limits(wall_s=wall)))
        verdicts = _batch_verdicts(outcome, len(sources), count)
        reported = [index for index, verdict in enumerate(verdicts) if verdict is not None]
        last = reported[-1] if reported else -1
        # a candidate that killed the whole process (memory, os._exit) is the first one unreported: check it
        # alone, then the rest as a new batch while time is left
        if last + 1 < len(sources) and outcome.status != Status.passed:
            started = time.monotonic()
            verdicts[last + 1] = await verify_one(sources[last + 1])
            left = seconds - outcome.wall_s - (time.monotonic() - started)
            if last + 2 < len(sources) and left > 0.5:
                verdicts[last + 2 :] = await verify_batch(sources[last + 2 :], left, full_time)
        return [verdict or _Verdict(0, count, compiles=True, known=False) for verdict in verdicts]

    async def confirm(source: str) -> bool:
        return (await verify_one(source)).all_passed

    return await _search(
        code,
        verify_batch,
        confirm=confirm if leetcode_calls is None else None,
        suspicious_lines=suspicious_lines,
        budget=budget,
        proposer=proposer or candidate_edits,
        localize=localize,
    )


def repair(
    code: str,
    tests: Sequence[str] = (),
    **options: Any,
) -> RepairSearch:
    """Synchronous :func:`arepair` (for callers outside an event loop)."""
    return asyncio.run(arepair(code, tests, **options))
