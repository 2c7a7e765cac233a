"""Repair search for C++ and Java: the same search as for Python, with candidates compiled and run in batches.

Candidates are verified many to a compile (:mod:`debugtutor.analysis.clike.harness`): a batch of a few dozen costs
about one compiler start plus a re-compile when some candidates do not compile. A candidate whose delimiters do not
balance is never compiled (it cannot), and programs that differ only in layout or comments share a verdict.

A program that does not compile first goes through **compile-fix rounds**: every syntax and reference edit near each
error line is compiled in one batch; for each error site the most plausible edit that removes its error without
adding another is kept, and the kept edits (at different sites) are applied together. A program with four broken
lines thus needs a round or two, not a search over four-edit combinations. A mended syntax error may let the
compiler read on to names it could not look up before (a call to a function nobody wrote, further down): those errors
are the next round's, not the mend's doing. The sure smells (:mod:`debugtutor.analysis.clike.smells`) are mended in a
fix the rounds find, before the search of a program that compiles, and in a program that passes every example (the
only evidence of its bug). The program that compiles then goes to the
common search (:func:`debugtutor.analysis.repair._search`: single edits at the most suspicious lines first, then edits
on top of the ones that made progress); the fixes it finds carry the compile-fix edits in front. A fix
is confirmed by a :class:`~debugtutor.sandbox.LeetCodeRequest` before it counts, and the same request runs it on a
few inputs near the examples: a fix that crashes on one the unfixed program ran through fits only the examples, so
the search goes on (it is returned, marked fragile, only if nothing better turns up). Of the fixes a search collects
while it looks further, the one returned is the search's own first choice unless the answers on those inputs side
with another: see :func:`most_corroborated`.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import time
from collections.abc import Awaitable, Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from debugtutor.analysis.clike.design import UnsupportedType, run_compiled_design, unmatched_operations
from debugtutor.analysis.clike.diagnostics import compiler_diagnostics, pattern_diagnostics, quoted_declarations
from debugtutor.analysis.clike.edits import blocks_compilation, candidate_edits
from debugtutor.analysis.clike.edits_structure import BRACELESS_HEADER
from debugtutor.analysis.clike.harness import (
    CPP_COMPILE,
    CallOutcome,
    Variant,
    arun_variants,
    call_plan,
    same_compile,
    values_match,
)
from debugtutor.analysis.clike.smells import smell_mends
from debugtutor.analysis.clike.syntax_tree import (
    COMMENT_TYPES,
    FUNCTION_TYPES,
    CompiledLanguage,
    function_signature,
    imbalance,
    line_of,
    parse,
    tokens,
)
from debugtutor.analysis.edits import Edit
from debugtutor.analysis.examples import input_rules, is_design, perturb_calls
from debugtutor.analysis.repair import (
    AppliedEdit,
    Repair,
    RepairBudget,
    RepairSearch,
    _line_map,
    _search,
    _Verdict,
    answer_closeness,
    changed_original_lines,
    merge_edits,
    unified_diff,
)
from debugtutor.analysis.static import Diagnostic
from debugtutor.errors import InputError
from debugtutor.sandbox import (
    CompareMode,
    LeetCodeCall,
    LeetCodeRequest,
    Limits,
    Status,
    TestOutcome,
    arun,
    precompiled_header_flags,
)

FIRST_PASS_TEST_S = 0.1
ANSWERED = (Status.passed, Status.failed)
"""A call's statuses that carry an answer, right or wrong."""
PROBE_CALLS = 6
PROBE_SEED = 0x5EED_C11C
"""The seed of the inputs the search perturbs for itself. Not a small integer like the seeds that derive a benchmark's
hidden tests from the same examples (0 by default): with one seed the probes would be the hidden inputs, and a check
that a fix does not crash on them would be a look at the evaluation's tests (see :func:`repair_probes`)."""
MAX_FIX_ROUNDS = 6
NARROWING_MAX_SITES = 4
"""A compile-fix round with more error sites than this takes a narrowing edit only when nothing clears a site."""
SURE_STEPS = frozenset({"join_name", "close_string", "drop_quote"})
"""Operators of edits a compile-fix round takes as a narrowing step even past ``NARROWING_MAX_SITES`` sites."""
EDITS_PER_SITE = 24
BLOCK_OPENERS = frozenset({"open_block", "brace_body"})
"""Operators that make a braceless header's body a block (a '{' on the header, or braces around the body's lines):
the lines they mend lie up to ``HEADER_REACH`` below the line they are made at."""
HEADER_REACH = 6
"""How far above an error site a loop or ``if`` header that opens no block is a suspect too."""
UNCLOSED_LITERAL = re.compile(r"unclosed (?:string|character|char) literal|missing terminating")
"""The compilers' words for a string or character literal its line leaves open."""
# (an unmade object's statements deleted with it silence whatever else was wrong on their lines, as a line deleted does)
DELETING_OPERATORS = frozenset(
    {"delete_line", "delete_statement", "drop_line", "drop_unclosed_statement", "drop_unmade_object"}
)
# edits that give the compiler back code a broken comment hid from it
REVEALING_OPERATORS = frozenset({"drop_comment_mark", "close_comment", "fix_comment_mark", "uncomment"})


def normal_form(source: str) -> str | None:
    """A verdict-cache key: the program's tokens without comments or layout; None when its delimiters do not
    balance (it cannot compile, so it is never run)."""
    if imbalance(source) is not None:
        return None
    text = " ".join(token.text for token in tokens(source) if token.kind != "comment")
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


@dataclass
class CompiledVerifier:
    """Verifies candidate programs in batches and remembers each one's compiler diagnostics."""

    language: CompiledLanguage
    calls: list[LeetCodeCall]
    method: str | None
    signature_source: str
    per_test_s: float
    compare: CompareMode = "exact"
    jobs: int = 0
    compiles: int = 0
    compile_seconds: float = 0.0
    variants_compiled: int = 0

    light_header: bool | None = None
    """C++: compile against the light header set (decided by the first compile, see :meth:`_verify`)."""

    def __post_init__(self) -> None:
        self.diagnostics: dict[str, list[Diagnostic]] = {}
        self.verdicts: dict[str, _Verdict] = {}
        if self.language != "cpp":
            self.light_header = False
        self.signature_readable = self._signature_problem(self.signature_source) is None

    def _signature_problem(self, source: str) -> InputError | None:
        """Why the harness cannot call the judged method of ``source``; None when it can."""
        try:
            call_plan(source, self.language, self.method, self.calls)
        except InputError as problem:
            return problem
        return None

    def _uncallable(self, source: str) -> list[Diagnostic]:
        """A finding on the judged method's header when the judge could not pass its arguments or take its answer
        (``list<int>& nums``, ``Object[] nums`` compile, but no LeetCode signature has them): the type is the bug."""
        problem = self._signature_problem(source)
        if problem is None:
            return []
        unmatched = unmatched_operations(source, self.calls)
        if unmatched:
            return unmatched  # (an operation the class lacks: the method renamed or its parameters changed)
        hidden = self._commented_method_line(source) if "has no method" in problem.message else None
        if hidden is not None:
            # the judged method lies in a comment (a planted "illegal comment" wrapping it whole): the comment is
            # the site to mend, though the compiler says nothing of the class
            return [Diagnostic(category="syntax", line=hidden, column=0, message=problem.message,
                               code="commented-method", bug_type="illegal comment")]  # fmt: skip
        named = re.search(r"unsupported (?:parameter|return) type\W*([A-Za-z_]\w*)", problem.message)
        line = self._header_line(source) if named is not None else None
        if named is None or line is None:
            return []
        return [
            Diagnostic(
                category="reference",
                line=line,
                column=0,
                message=problem.message,
                code="uncallable-signature",
                symbol=named.group(1),
                bug_type="undefined objects",
            )
        ]

    def _commented_method_line(self, source: str) -> int | None:
        """The line where a comment holding the judged method's header starts; None when no comment holds it."""
        if self.method is None:
            return None
        header = re.compile(rf"\b{re.escape(self.method)}\s*\(")
        tree = parse(source, self.language)
        for comment in tree.named(*COMMENT_TYPES):
            if header.search(tree.text(comment)):
                return line_of(comment)
        return None

    def _header_line(self, source: str) -> int | None:
        """The line where the judged method's definition (or declaration) starts."""
        tree = parse(source, self.language)
        for function in tree.named(*FUNCTION_TYPES, "declaration", "field_declaration"):
            signature = function_signature(tree, function)
            if signature is not None and signature[0] == self.method:
                return line_of(function)
        return None

    def adopt_signature_of(self, source: str) -> bool:
        """Read the judged method's signature from ``source`` when the program as given had none the harness can
        call (a comment or an unknown type in the method's header is part of the bug): until then no candidate
        could run. True when the verifier changed; the verdicts it remembered are dropped."""
        if self.signature_readable or source == self.signature_source or self._signature_problem(source):
            return False
        self.signature_source, self.signature_readable = source, True
        self.verdicts.clear()
        return True

    async def verify(self, sources: list[str], seconds: float, full_time: bool = True) -> list[_Verdict]:
        """One verdict per source, in order; programs verified before (at full time) are not run again."""
        fresh = [source for source in dict.fromkeys(sources) if source not in self.verdicts]
        found: dict[str, _Verdict] = {}
        if fresh:
            for source, verdict in zip(fresh, await self._verify(fresh, seconds, full_time)):
                found[source] = verdict
                if verdict.known and (full_time or verdict.all_passed or not verdict.compiles):
                    self.verdicts[source] = verdict
        return [self.verdicts.get(source) or found[source] for source in sources]

    async def _verify(self, sources: list[str], seconds: float, full_time: bool) -> list[_Verdict]:
        per_test = self.per_test_s if full_time else min(self.per_test_s, FIRST_PASS_TEST_S)
        if self.light_header is None and len(await asyncio.to_thread(precompiled_header_flags, CPP_COMPILE[1:])):
            self.light_header = False  # (the precompiled full header compiles faster than the light one)
        deciding = self.light_header is None
        variants = [Variant(source, light_header=bool(self.light_header)) for source in sources]
        if deciding:
            # the first batch also compiles its first program against the light headers: when both compiles
            # agree, every later batch saves most of the compiler's start-up
            variants.append(Variant(sources[0], light_header=True))
        batch = await arun_variants(
            self.language,
            variants,
            self.calls,
            method=self.method,
            signature_source=self.signature_source,
            per_test_s=per_test,
            deadline_s=max(5.0, seconds),
            compare=self.compare,
            # the first batch holds the program as given: the compiler's own messages name every broken site (an
            # imbalance check names only the first), the later ones need only know that a candidate fails
            unbalanced_variants="alone" if self.jobs == 0 else "fail",
        )
        self.jobs += 1
        if deciding and len(batch.variants) == len(sources) + 1:
            light = batch.variants.pop()
            self.light_header = same_compile(batch.variants[0], light) and light.passed == batch.variants[0].passed
        self.compiles += batch.compiles
        self.compile_seconds += batch.compile_seconds
        self.variants_compiled += len(sources)
        verdicts = []
        for source, result in zip(sources, batch.variants):
            self.diagnostics[source] = compiler_diagnostics(result.messages, source, self.language)
            if not self.signature_readable:
                self.diagnostics[source] += self._uncallable(source)
            if not result.compiled or result.harness_error or not self.defines_method(source):
                verdicts.append(_Verdict(0, len(self.calls), compiles=False, known=batch.problem is None))
                continue
            known = all(call.known for call in result.calls)
            timed_out = any(call.status == Status.timeout for call in result.calls)
            stops = tuple(
                None if call.status in (Status.passed, Status.failed) else call.error_line or 0 for call in result.calls
            )
            verdict = _Verdict(result.passed, len(self.calls), compiles=True, known=known and not timed_out,
                               timed_out=timed_out, stops=stops,
                               closeness=tuple(self._closeness(call) for call in result.calls))  # fmt: skip
            if known and timed_out and full_time:
                # a program that ran out of its full time runs out of it again: asked twice (the search asks for the
                # program it starts from), it is not compiled and run twice
                self.verdicts[source] = verdict
            verdicts.append(verdict)
        return verdicts

    def _closeness(self, call: CallOutcome) -> float:
        if call.status == Status.passed:
            return 1.0
        if call.status != Status.failed or call.actual is None or call.expected is None:
            return 0.0
        return answer_closeness(
            json.loads(call.actual), json.loads(call.expected), unordered=self.compare == "unordered"
        )

    def defines_method(self, source: str) -> bool:
        """Whether ``source`` still defines the method the judge calls (an edit that deleted it cannot be a fix,
        whatever the compiler says of the rest)."""
        if self.method is None:
            return True
        name = re.escape(self.method)
        # a design problem's class may leave its constructor implicit
        return re.search(rf"\b{name}\s*\(|\b(?:class|struct)\s+{name}\b", source) is not None

    def proposer(self) -> Callable[..., Iterator[Edit]]:
        def propose(
            source: str,
            *,
            lines: Collection[int] | None = None,
            categories: Collection[str] = ("syntax", "reference", "logic"),
            direction: Literal["mutate", "repair"] = "repair",
        ) -> Iterator[Edit]:
            known = self.diagnostics.get(source)
            found = [*(known or []), *pattern_diagnostics(source, self.language)]
            return candidate_edits(
                source, self.language, lines=lines, categories=categories, direction=direction, diagnostics=found
            )

        return propose

    def blocking_lines(self, source: str) -> list[int]:
        return sorted({d.line for d in self.diagnostics.get(source, []) if blocks_compilation(d)})


def _applied(edit: Edit, original_line: int | None, made_it_compile: bool) -> AppliedEdit:
    return AppliedEdit(
        operator=edit.operator,
        category=edit.category,
        line=edit.line,
        description=edit.description,
        original_line=original_line,
        made_it_compile=made_it_compile,
        bug_type=edit.bug_type,
    )


def _comments_above_missing_return(verifier: CompiledVerifier, current: str, errors: list[int]) -> set[int]:
    """The lines comments start on in a method the compiler says can end without returning: code commented out
    there (a loop's body, so that the return below became the body) may be what the method lost."""
    ends = {
        diagnostic.line
        for diagnostic in verifier.diagnostics.get(current, [])
        if diagnostic.line in errors and diagnostic.code == "missing-return"
    }
    if not ends:
        return set()
    tree = parse(current, verifier.language)
    methods = [
        (line_of(node), node.end_point[0] + 1)
        for node in tree.named(*FUNCTION_TYPES)
        if any(line_of(node) <= end <= node.end_point[0] + 1 for end in ends)
    ]
    return {
        line_of(node)
        for node in tree.named(*COMMENT_TYPES)
        if any(start <= line_of(node) <= end for start, end in methods)
    }


def _edits_per_error_site(verifier: CompiledVerifier, current: str, errors: list[int]) -> list[Edit]:
    """Syntax and reference edits near each line with a blocking error, the most plausible few per line."""
    # a bracket the compiler found closed by the wrong closer was opened on a line it names
    opened = {
        int(found.group(1))
        for diagnostic in verifier.diagnostics.get(current, [])
        if diagnostic.line in errors
        for found in [re.search(r"opened on line (\d+)", diagnostic.message)]
        if found is not None
    }
    errors = sorted({*errors, *opened})
    # "could not convert '{a, b}'" is about how a and b were declared, maybe far above
    declared = {
        line
        for diagnostic in verifier.diagnostics.get(current, [])
        if diagnostic.line in errors
        for line in quoted_declarations(current, diagnostic)
    }
    wanted = (
        {line + delta for line in errors for delta in (-2, -1, 0, 1)}
        | declared
        | _comments_above_missing_return(verifier, current, errors)
    )
    # a block opened without its '{' a few lines up ends at its '}', and what follows that '}' is out of place
    lines = current.split("\n")
    headers = {
        header
        for line in errors
        for header in range(max(1, line - HEADER_REACH), line - 2)
        if header <= len(lines) and BRACELESS_HEADER.match(lines[header - 1])
    } - wanted
    first = imbalance(current)
    if first is not None and first[1].endswith("never closes") and first[0] in errors:
        # a block that never closes is reported at its opener (or where the file ends): its '}' may be missing
        # anywhere inside it, where the indentation says a block ended
        wanted |= set(range(first[0], current.count("\n") + 2))
    by_site: dict[int, list[Edit]] = {}
    for edit in verifier.proposer()(current, lines=wanted | headers, categories=("syntax", "reference")):
        if edit.line in headers and edit.operator not in BLOCK_OPENERS:
            continue

        def distance(line: int, edit: Edit = edit) -> float:
            return abs(line - edit.line) + (0.5 if edit.line > line else 0)

        if not verifier.defines_method(edit.source):
            continue  # it deleted the method the judge calls: whatever the compiler then says, no fix
        site = min(errors, key=distance)
        if len(by_site.setdefault(site, [])) < EDITS_PER_SITE and _balanced_but_elsewhere(
            edit, errors, site, first[0] if first is not None else None
        ):
            by_site[site].append(edit)
    return [edit for site in errors for edit in by_site.get(site, [])]


def _blocking_sites(verifier: CompiledVerifier, source: str) -> list[int]:
    """The lines with a blocking error, a bracket left open at the line that opened it: a candidate whose brackets
    do not balance is not compiled, and the imbalance is found where the block's '}' meets the '(' or '[' left
    open, lines below the mistake (the compiler would have named the opener's line)."""
    sites = set()
    for diagnostic in verifier.diagnostics.get(source, []):
        if blocks_compilation(diagnostic):
            opened = re.search(r"^'\}' closes the bracket opened on line (\d+)", diagnostic.message)
            sites.add(int(opened.group(1)) if opened is not None else diagnostic.line)
    return sorted(sites)


def _balanced_but_elsewhere(edit: Edit, errors: list[int], site: int, first: int | None = None) -> bool:
    """Whether an edit leaves its program's delimiters balanced, or unbalanced only at another error site (two
    strings left open on two lines: each edit closes one, and the rounds merge them), or unbalanced only further down
    when it gives a broken comment's code back to the compiler or mends the program's first imbalance (``first``, its
    line) at this site: the code further down has a broken delimiter of its own, which neither the compiler nor the
    imbalance check could name before (each stops at the first), and the next round mends it; or unbalanced only by
    a bracket opened on this line when the program's first imbalance was here too."""
    if normal_form(edit.source) is not None:
        return True
    left = imbalance(edit.source)
    if left is None:
        return False
    mends_first = first is not None and abs(first - site) <= 1 and left[0] > first + 1
    if (edit.operator in REVEALING_OPERATORS or mends_first) and left[0] > site + 1:
        return True
    if first is not None and abs(first - site) <= 1 and left[1].endswith("never closes") and abs(left[0] - site) > 1:
        # (a string closed here leaves a block above that never closes: the brace lost elsewhere is the next round's;
        # the check names the opener, which may stand anywhere above)
        return True
    # the mismatch may lie at either end: where a closer met the wrong opener or where that opener stands, and a
    # bracket that never closes is what a compiler reports where the file ends
    places = {left[0]}
    opened = re.search(r"opened on line (\d+)", left[1])
    if opened is not None and first == site == int(opened.group(1)):
        # the program's first imbalance was on this line and the edit leaves only a bracket that this same line
        # opened: one of two mistakes on the line mended (``if (ok(s) return "s;`` without its quote), and the
        # next round closes the bracket where the compiler then asks for it
        return True
    if opened is not None:
        if int(opened.group(1)) in set(errors) - {site}:
            return True  # (two calls a line apart each left unclosed: this edit closes one, the other is the other's)
        places.add(int(opened.group(1)))
    if left[1].endswith("never closes"):
        places.add(len(edit.source.rstrip("\n").split("\n")))
    return any(abs(place - other) <= 1 and abs(other - site) > 2 for place in places for other in errors)


def _round_picks(
    current: str, clearing: list[tuple[Edit, set[int]]], narrowing: list[Edit], errors: list[int]
) -> list[Edit]:
    """The edits one compile-fix round applies: those that together clear the most error sites (:func:`_cover`);
    where a site is cleared only by deleting its code, or when no site is cleared at all, the likeliest edit of a
    line with several complaints that leaves the compiler fewer of them there (``narrowing``) instead.

    Two mistakes on one line (``flipcol(j,gri=d)``: a split name and a missing ';') leave no single edit but a
    deletion that clears the site; the edit that narrows it is a step towards the program meant, and the next round
    takes the next step. Picks below the first that puts in or takes out a brace wait for the next round."""
    narrowed: dict[int, Edit] = {}
    narrowable: set[int] = set()
    for edit in narrowing:
        nearest = min(errors, key=lambda site: abs(site - edit.line))
        narrowable.add(nearest)
        # (with many sites the complaints are mostly one broken structure's echoes, and a line's count says little;
        # a name split in two and joined again is a step whatever else is broken)
        if len(errors) <= NARROWING_MAX_SITES or edit.operator in SURE_STEPS:
            narrowed.setdefault(nearest, edit)
    # a site some edit narrows that only a deletion clears is narrowed, or else left for a round with fewer sites
    deleted_only = {
        site for site in narrowable
        if not any(site in sites and edit.operator not in DELETING_OPERATORS for edit, sites in clearing)
        and any(site in sites for _, sites in clearing)
    }  # fmt: skip
    # (a deletion that clears such a site waits too: the sites only it clears are cleared again once the line's
    # mistakes are mended one by one, or it comes back in a later round)
    kept = [
        (edit, sites) for edit, sites in clearing if edit.operator not in DELETING_OPERATORS or not sites & deleted_only
    ]
    picks = _cover(kept)
    picks += [narrowed[site] for site in sorted(deleted_only & narrowed.keys()) if narrowed[site] not in picks]
    picks = picks or narrowing[:1]
    braces = _braces(current)
    reshaping = [edit.line for edit in picks if _braces(edit.source) != braces]
    if reshaping:
        # below a '{' or '}' put in or taken out, the errors were the old block structure's: the next round's
        # compile says which are left, and the edits that fit the new structure
        picks = [edit for edit in picks if edit.line <= min(reshaping)]
    return picks


def _reveals(edit: Edit, news: list[Diagnostic]) -> bool:
    """Whether the complaints ``news`` on lines an edit that clears every old error made new were there before,
    unseen: the compiler could not read so far or look the names up until the edit."""
    if edit.category == "syntax":
        # a mended syntax error lets the compiler read on, to names it could not look up before (a call to a
        # function nobody wrote, further down): not this edit's doing, unless it deleted code
        return {d.category for d in news} == {"reference"} and edit.operator not in DELETING_OPERATORS
    if edit.operator == "rename_reference":
        # a type named again lets the compiler look up its members (``ArrayList<int> ans;`` as ``vector``:
        # ``ans.add(x)`` is now a call vector lacks), which it could not before
        return {d.code for d in news} == {"no-such-member"}
    return False


def _adds_errors(verifier: CompiledVerifier, alone: str, together: str) -> bool:
    """Whether ``together`` has a blocking error on a line where ``alone`` (a candidate the compiler read, whose own
    errors are known) has none."""
    if imbalance(alone) is not None or alone not in verifier.diagnostics:
        return False
    mapping = _line_map(alone, together)
    known = set(_blocking_sites(verifier, alone))
    found = {mapping.get(line, line) for line in _blocking_sites(verifier, together)}
    return bool(found - known)


def _braces(source: str) -> tuple[int, int]:
    return source.count("{"), source.count("}")


def _changes_one_line(before: str, after: str) -> bool:
    """Whether ``after`` is ``before`` with one line changed (no line added or removed)."""
    old, new = before.split("\n"), after.split("\n")
    return len(old) == len(new) and sum(a != b for a, b in zip(old, new)) == 1


def _blocking_count(verifier: CompiledVerifier, source: str, line: int | None = None) -> int:
    """How many compiler findings that block compilation ``source`` got (several on one line count apart), on
    ``line`` only when given."""
    return sum(
        1
        for diagnostic in verifier.diagnostics.get(source, [])
        if blocks_compilation(diagnostic) and (line is None or diagnostic.line == line)
    )


def _closes_literal(verifier: CompiledVerifier, before: str, edit: Edit) -> bool:
    """Whether ``edit`` closes a string or character literal the compiler said its line left open, so that the
    compiler reads the rest of the line as code again: a step even when that code has mistakes of its own (``s[i] =
    'u`` closed is ``s[i] = 'u'``, and the next round sees the '=')."""
    if edit.operator != "close_string" or edit.source not in verifier.diagnostics:
        return False

    def open_literal(source: str) -> bool:
        return any(
            diagnostic.line == edit.line and UNCLOSED_LITERAL.search(diagnostic.message)
            for diagnostic in verifier.diagnostics.get(source, [])
        )

    return open_literal(before) and not open_literal(edit.source)


def _cover(clearing: list[tuple[Edit, set[int]]]) -> list[Edit]:
    """Edits that together clear the most error sites, greedily: each time the edit that clears the most sites no
    earlier pick cleared, a deletion after any other edit that clears as many (it clears a site by silencing the
    code on it), else the most plausible (the earliest). Where edits that delete nothing clear every site the
    deletions do, they are picked alone (``bra;`` mended to ``break;`` and a loop's body braced, rather than the
    statement deleted because that one deletion clears both sites)."""
    mending = [(edit, sites) for edit, sites in clearing if edit.operator not in DELETING_OPERATORS]
    everywhere = set().union(*(sites for _, sites in clearing)) if clearing else set()
    if len(mending) < len(clearing) and set().union(*(sites for _, sites in mending)) >= everywhere:
        return _greedy_cover(mending)
    return _greedy_cover(clearing)


def _greedy_cover(clearing: list[tuple[Edit, set[int]]]) -> list[Edit]:
    covered: set[int] = set()
    picks: list[Edit] = []
    left = list(clearing)
    while left:
        best = min(
            range(len(left)),
            key=lambda index: (-len(left[index][1] - covered), left[index][0].operator in DELETING_OPERATORS, index),
        )
        edit, sites = left.pop(best)
        if not sites - covered:
            break
        picks.append(edit)
        covered |= sites
    return picks


async def _compile_fix_rounds(
    code: str, verifier: CompiledVerifier, budget: RepairBudget, started: float
) -> tuple[str, list[AppliedEdit], Repair | None, int]:
    """(the program after the rounds, the edits applied, a fix if one passed every test, candidates verified)."""
    current, applied = code, list[AppliedEdit]()
    verified = 0
    for _ in range(MAX_FIX_ROUNDS):
        if time.monotonic() - started > budget.max_seconds:
            break
        errors = verifier.blocking_lines(current)
        if not errors:
            break
        edits = _edits_per_error_site(verifier, current, errors)
        if not edits:
            break
        remaining = max(5.0, budget.max_seconds - (time.monotonic() - started))
        verdicts = await verifier.verify([edit.source for edit in edits], remaining, True)
        verified += len(edits)
        line_map_cache: dict[str, dict[int, int]] = {}
        clearing: list[tuple[Edit, set[int]]] = []
        narrowing: list[Edit] = []
        errors_now = _blocking_count(verifier, current)
        # (a program whose delimiters do not balance was never compiled: its one complaint is the imbalance)
        unread = normal_form(current) is None
        passing: dict[int, int] = {}
        introducing: dict[int, int] = {}
        for edit, verdict in zip(edits, verdicts):
            if verdict.all_passed:
                mapping = _line_map(code, current)
                steps = [*applied, _applied(edit, mapping.get(edit.line, edit.line), True)]
                return (
                    current,
                    applied,
                    _repair(code, edit.source, steps, verified, started, verifier.language),
                    verified,
                )
            if verdict.compiles:
                lines_after: set[int] = set()
                passing[id(edit)] = verdict.passed
            else:
                if edit.source not in line_map_cache:
                    line_map_cache[edit.source] = _line_map(current, edit.source)
                mapping = line_map_cache[edit.source]
                lines_after = {mapping.get(line, line) for line in _blocking_sites(verifier, edit.source)}
            introduced = lines_after - {line + delta for line in errors for delta in (-1, 0, 1)}
            # an error left on a neighbouring line that had its own error before is that line's, not this one's
            cleared = {
                site for site in errors if not lines_after & ({site - 1, site, site + 1} - (set(errors) - {site}))
            }
            # (a literal closed gives the compiler back the code it swallowed, with whatever mistakes that has)
            closes = _closes_literal(verifier, current, edit)
            # (an edit that balances a program never compiled lets the compiler read all of it: what it says further
            # down was there before, unseen)
            balances = unread and normal_form(edit.source) is not None
            revealing = closes or balances or (edit.operator in REVEALING_OPERATORS and cleared == set(errors))
            if introduced and not revealing and cleared == set(errors):
                revealing = _reveals(edit, [
                    d for d in verifier.diagnostics.get(edit.source, [])
                    if blocks_compilation(d) and mapping.get(d.line, d.line) in introduced
                ])  # fmt: skip
            if introduced and not revealing and (len(introduced) >= len(cleared) or cleared != set(errors)):
                # a new error elsewhere is tolerated only from an edit that clears every old one (code a broken
                # comment hid comes back with its own mistakes, as many as it had)
                continue
            introducing[id(edit)] = len(introduced)
            on_line = _blocking_count(verifier, current, edit.line)
            if not verdict.compiles and (
                closes
                or (
                    not introduced
                    and edit.operator not in DELETING_OPERATORS
                    and _changes_one_line(current, edit.source)
                    and (
                        (
                            on_line >= 2
                            and _blocking_count(verifier, edit.source, edit.line) < on_line
                            and _blocking_count(verifier, edit.source) < errors_now
                        )
                        # an edit that balances such a program lets the compiler read it: what it then says is news
                        or (unread and normal_form(edit.source) is not None)
                    )
                )
            ):
                narrowing.append(edit)
            # (a block's statements follow its header)
            reach = HEADER_REACH if edit.operator in BLOCK_OPENERS else 2
            near = {site for site in cleared if -2 <= site - edit.line <= reach}
            if near or (cleared and cleared == set(errors)):
                # far sites count too once the edit clears one near it (a restored brace clears a whole function),
                # except for deletions, which silence whatever followed from the deleted code
                clearing.append((edit, near if edit.operator in DELETING_OPERATORS and near else cleared))
        # of the edits that make the program compile, one that passes more examples first (``return "s";`` and
        # ``return s;`` both compile; the examples tell the string from the variable); of edits that clear the same
        # sites, one that leaves no new complaint before one tolerated for revealing code (a '}' put in where an
        # inner block ends inline breaks the blocks below it; put in where the missing one belongs, it compiles)
        # (and of the rest, one that clears its own line's complaint before one that leaves its line wrong but
        # quiets the lines below: a ')' put inside ``s[i]=='1){`` has only moved the confusion)
        clearing.sort(
            key=lambda pair: (
                -passing.get(id(pair[0]), 0),
                introducing.get(id(pair[0]), 0),
                pair[0].line in errors and pair[0].line not in pair[1],
            )
        )
        # (of the ways to close ``return "wrong string;``, the one the compiler then finds least wrong first)
        narrowing.sort(key=lambda edit: _blocking_count(verifier, edit.source))
        picks = _round_picks(current, clearing, narrowing, errors)
        if not picks:
            break
        remaining = max(5.0, budget.max_seconds - (time.monotonic() - started))
        picks, merged, verdict = await _round_step(verifier, current, picks, remaining)
        verified += 1
        mapping = _line_map(code, current)
        applied += [_applied(edit, mapping.get(edit.line, edit.line), False) for edit in picks]
        current = merged
        if verdict.all_passed:
            return current, applied, _repair(code, current, applied, verified, started, verifier.language), verified
        if verdict.compiles:
            if applied:
                applied[-1] = applied[-1].model_copy(update={"made_it_compile": True})
            break
    return current, applied, None, verified


async def _round_step(
    verifier: CompiledVerifier, current: str, picks: list[Edit], seconds: float
) -> tuple[list[Edit], str, _Verdict]:
    """The picks a compile-fix round applies after all, the program they make and its verdict."""
    # a candidate that another site's open bracket or string leaves unbalanced is not compiled (the imbalance is all
    # it is asked about), so the sites it seems to clear are a guess; when a pick that was compiled balances the
    # program, the guessed ones wait for the next round, which compiles them (``q.push(i;`` above ``while (i k)``:
    # any edit of the second line 'cleared' it, the first of them a ';' that clears nothing)
    merged = merge_edits(current, [edit.source for edit in picks])
    compiled = [edit for edit in picks if imbalance(edit.source) is None]
    if compiled and len(compiled) < len(picks):
        balanced = merge_edits(current, [edit.source for edit in compiled])
        if balanced is not None and imbalance(balanced) is None:
            picks, merged = compiled, balanced
    if merged is None or normal_form(merged) is None:
        picks = picks[:1]
        merged = picks[0].source
    verifier.adopt_signature_of(merged)
    verdict = (await verifier.verify([merged], seconds))[0]
    if merged != picks[0].source and _adds_errors(verifier, picks[0].source, merged):
        # the picks together leave an error the likeliest of them alone does not (``map[i]--;`` turned into
        # ``map[i]--,`` 'cleared' the line below by breaking it): that one alone is the round's step
        picks = picks[:1]
        merged = picks[0].source
        verdict = (await verifier.verify([merged], seconds))[0]
    return picks, merged, verdict


async def _smell_fix_round(
    code: str, current: str, verifier: CompiledVerifier, budget: RepairBudget, started: float
) -> tuple[str, list[AppliedEdit]]:
    """Mend every sure smell of a program that compiles at once (:mod:`debugtutor.analysis.clike.smells`), kept
    when the program then passes at least as many examples and runs out of time no more often: several planted bugs
    that the examples do not all show are mended together, before the search."""
    if time.monotonic() - started > budget.max_seconds / 2:
        return current, []
    picks = smell_mends(current, verifier.language)
    if not picks:
        return current, []
    merged = merge_edits(current, [edit.source for edit in picks])
    if merged is None or normal_form(merged) is None:
        return current, []
    remaining = max(5.0, budget.max_seconds - (time.monotonic() - started))
    before, after = await verifier.verify([current, merged], remaining)
    if not after.compiles or after.passed < before.passed or (after.timed_out and not before.timed_out):
        return current, []
    mapping = _line_map(code, current)
    return merged, [_applied(edit, mapping.get(edit.line, edit.line), False) for edit in picks]


async def _smells_mended(
    code: str,
    found: Repair,
    verifier: CompiledVerifier,
    budget: RepairBudget,
    started: float,
    executions: int,
    confirmed: Callable[[str], Awaitable[bool]] | None,
) -> tuple[Repair, int]:
    """A fix the compile-fix rounds found, with the sure smells left in it mended too when the examples still pass
    (they may not show every planted bug); the candidates verified so far, counting the mended program."""
    mended, smell_edits = await _smell_fix_round(code, found.source, verifier, budget, started)
    if not smell_edits:
        return found, executions
    executions += 1
    if (await verifier.verify([mended], 5.0))[0].all_passed and (confirmed is None or await confirmed(mended)):
        return _repair(code, mended, [*found.edits, *smell_edits], executions, started, verifier.language), executions
    return found, executions


DIFF_NAMES: dict[CompiledLanguage, str] = {"cpp": "solution.cpp", "java": "Solution.java"}
"""The file name a repair's diff gives the program."""


def _repair(
    original: str, fixed: str, edits: list[AppliedEdit], executions: int, started: float, language: CompiledLanguage
) -> Repair:
    return Repair(
        edits=edits,
        source=fixed,
        diff=unified_diff(original, fixed, name=DIFF_NAMES[language]),
        changed_lines=changed_original_lines(original, fixed),
        executions=executions,
        seconds=round(time.monotonic() - started, 3),
    )


def _design_passes(
    source: str, language: CompiledLanguage, calls: list[LeetCodeCall], compare: CompareMode, limits: Limits
) -> bool:
    """Whether ``source`` answers every operation sequence as expected, run as the graders run a design class (a
    program of its own, not the batch harness that found the fix)."""
    sequences = [dict(call.args) for call in calls]
    try:
        results = run_compiled_design(source, language, sequences[0]["operations"][0], sequences, limits)
    except UnsupportedType:
        return False
    return all(
        "answers" in result and values_match(result["answers"], call.expected, compare)
        for result, call in zip(results, calls, strict=True)
    )


def most_corroborated(
    fixes: list[Repair], answered: dict[str, list[TestOutcome]], compare: CompareMode
) -> list[Repair]:
    """The fixes (in the search's order of preference) with the one whose answers on the probes the most different
    kinds of fix share put first. Fixes that pass every example can still disagree near them; a behaviour that
    several unrelated edits arrive at (``i-1`` -> ``i-0`` and ``i-1`` -> ``i``) is likelier the intended one than one
    that a single edit happened to fit to the examples (a lookup of another variable that the examples do not tell
    apart). Kinds, not copies, are counted: ``<`` and ``<=`` in one place are one kind of edit, two ways to say it.
    On equal support the search's own first choice stays first; a fix not run on the probes stands alone."""
    groups: list[list[Repair]] = []
    for fix in fixes:
        runs = answered.get(fix.source)
        alike = [group for group in groups if _same_answers(answered.get(group[0].source), runs, compare)]
        if alike:
            alike[0].append(fix)
        else:
            groups.append([fix])
    if len(groups) < 2:
        return fixes
    best = max(groups, key=lambda group: len({tuple(edit.operator for edit in fix.edits) for fix in group}))
    return [best[0], *(fix for fix in fixes if fix is not best[0])]


def plain_branches_first(code: str, fixes: list[Repair], language: CompiledLanguage) -> list[Repair]:
    """The fixes in their order, except that those with more ``if`` statements that do the same whichever way the
    condition goes than ``code`` had come after the others: ``right`` -> ``left`` in ``if (v > x) return
    f(root->right); return f(root->left);`` passes examples that only ever go left, but a writer does not test a
    condition to do the same thing either way (the right fix there turns the comparison)."""
    before = redundant_branches(code, language)
    plain: list[Repair] = []
    doubtful: list[Repair] = []
    for fix in fixes:
        (plain if redundant_branches(fix.source, language) <= before else doubtful).append(fix)
    return plain + doubtful


def redundant_branches(source: str, language: CompiledLanguage) -> int:
    """How many ``if`` statements of ``source`` do the same whichever way their condition goes: two branches alike,
    or a branch that returns what the statement right after the ``if`` returns."""
    tree = parse(source, language)
    found = 0
    for statement in tree.named("if_statement"):
        then = statement.child_by_field_name("consequence")
        if then is None:
            continue
        body = _bare(tree.text(then))
        other = statement.child_by_field_name("alternative")
        if other is not None:
            found += _bare(re.sub(r"^\s*else\b", "", tree.text(other))) == body
        elif body.startswith("return"):
            following = statement.next_named_sibling
            found += following is not None and _bare(tree.text(following)) == body
    return found


def _bare(text: str) -> str:
    """A statement's text without its layout and the braces around it."""
    return re.sub(r"\s+", "", text).removeprefix("{").removesuffix("}")


def _same_answers(first: list[TestOutcome] | None, second: list[TestOutcome] | None, compare: CompareMode) -> bool:
    """Two programs answered each probe alike (equal as the problem compares answers, or failed the same way); a
    probe that either ran out of time on says nothing either way."""
    if first is None or second is None or len(first) != len(second):
        return False
    for one, other in zip(first, second, strict=True):
        if Status.timeout in (one.status, other.status):
            continue
        if one.status in ANSWERED and other.status in ANSWERED:
            if not values_match(_answer(one.actual), _answer(other.actual), compare):
                return False
        elif one.status != other.status:
            return False
    return True


def _answered_on(runs: list[TestOutcome]) -> set[int]:
    """The probes a program answered (rightly or not)."""
    return {index for index, test in enumerate(runs) if test.status in ANSWERED}


def _crashed_on(runs: list[TestOutcome]) -> set[int]:
    """The probes a program crashed on (an exception, no memory left); a call after the one that ended the program
    was never run and says nothing either way."""
    return {
        index for index, test in enumerate(runs) if test.status in (Status.error, Status.memory)
        and (test.exception is None or test.exception.type != "NotRun")
    }  # fmt: skip


def _answer(printed: str | None) -> object:
    try:
        return json.loads(printed) if printed is not None else None
    except ValueError:
        return printed


def repair_probes(calls: Sequence[LeetCodeCall]) -> list[LeetCodeCall]:
    """The inputs near the examples (within what the examples show of the problem's rules) that the search runs each
    confirmed fix on, expected answers unset; none for a design problem's operation sequences."""
    if is_design(calls):
        return []
    bare = [LeetCodeCall(args=call.args) for call in calls]
    return perturb_calls(bare, count=PROBE_CALLS, seed=PROBE_SEED, rules=input_rules(list(calls)))


async def arepair_compiled(
    code: str,
    calls: Sequence[LeetCodeCall],
    *,
    language: CompiledLanguage,
    method: str | None = None,
    suspicious_lines: Sequence[int] = (),
    budget: RepairBudget | None = None,
    localize: Callable[[str], Awaitable[list[int]]] | None = None,
    compare: CompareMode = "exact",
    confirm: bool = True,
) -> RepairSearch:
    """Search for fixes of a C++/Java ``code`` that pass every call in ``calls`` (see the module docstring)."""
    budget = budget or RepairBudget(max_seconds=60.0, batch_size=32, max_executions=2000)
    started = time.monotonic()
    calls = list(calls)
    verifier = CompiledVerifier(language, calls, method, code, budget.per_test_s, compare)
    limits = Limits(wall_s=15.0, per_test_s=max(1.0, budget.per_test_s), memory_mb=1024)
    probes = repair_probes(calls)
    answered: dict[str, list[TestOutcome]] = {}  # program -> how it went on each probe

    async def run_probes(source: str, with_examples: bool) -> bool:
        """Run ``source`` on the probes (after the examples, when asked); whether every example passed."""
        asked = [*calls, *probes] if with_examples else probes
        request = LeetCodeRequest(code=source, calls=asked, lang=language, method=method, limits=limits,
                                  compare=compare)  # fmt: skip
        tests = (await arun(request)).tests
        examples, near = (tests[: len(calls)], tests[len(calls) :]) if with_examples else ([], tests)
        answered[source] = near
        return len(examples) == len(calls) and all(test.status == Status.passed for test in examples)

    async def confirmed(source: str) -> bool:
        if is_design(calls):
            return await asyncio.to_thread(_design_passes, source, language, calls, compare, limits)
        return await run_probes(source, with_examples=True)

    async def holds_near_examples(source: str) -> bool:
        """A confirmed fix crashes on no probe the program the search began from ran through: one that does (an
        index past the end, a null, a division by zero) where the unfixed program did not only fits the examples.
        (Running out of time is not held against it: a right answer may simply take longer than a wrong one.)"""
        crashed = _crashed_on(answered.get(source, []))
        if not crashed:
            return True  # (then the unfixed program's runs need not be looked at)
        if current not in answered:
            await run_probes(current, with_examples=False)
        return not crashed & _answered_on(answered[current])

    original = (await verifier.verify([code], budget.max_seconds))[0]
    executions = 1
    if original.all_passed:
        # examples that show no bug in a program said to have one: a sure smell is the only evidence there is (an
        # index one past the end that no example reaches, a character literal of two characters)
        as_given = _repair(code, code, [], executions, started, language)
        mended, executions = await _smells_mended(code, as_given, verifier, budget, started, executions,
                                                  confirmed if confirm else None)  # fmt: skip
        return RepairSearch(repairs=[mended] if mended.edits else [], executions=executions,
                            seconds=round(time.monotonic() - started, 3), candidates=executions,
                            tests_total=original.total, tests_passed_before=original.total,
                            sandbox_runs=verifier.jobs)  # fmt: skip
    prefix: list[AppliedEdit]
    found: Repair | None
    current, prefix, found, verified = code, [], None, 0
    compile_fix: Repair | None = None
    if not original.compiles:
        current, prefix, found, verified = await _compile_fix_rounds(code, verifier, budget, started)
        executions += verified
        if prefix and current != code and not verifier.blocking_lines(current):
            compile_fix = _repair(code, current, prefix, executions, started, language)
    if found is not None and (not confirm or await confirmed(found.source)):
        found, executions = await _smells_mended(code, found, verifier, budget, started, executions,
                                                 confirmed if confirm else None)  # fmt: skip
        return RepairSearch(repairs=[found], executions=executions, seconds=round(time.monotonic() - started, 3),
                            candidates=executions, sandbox_runs=verifier.jobs, tests_total=len(calls),
                            compile_fix=found)  # fmt: skip
    left = budget.max_seconds - (time.monotonic() - started)
    if left <= 1.0 or not calls:
        return RepairSearch(executions=executions, seconds=round(time.monotonic() - started, 3), candidates=executions,
                            sandbox_runs=verifier.jobs, tests_total=len(calls), budget_exhausted=True,
                            out_of_time=left <= 1.0, compile_fix=compile_fix)  # fmt: skip
    smell_fixed, smell_edits = await _smell_fix_round(code, current, verifier, budget, started)
    if smell_edits:
        executions += 1
        current, prefix = smell_fixed, [*prefix, *smell_edits]
        if (await verifier.verify([current], 5.0))[0].all_passed and (not confirm or await confirmed(current)):
            fixed = _repair(code, current, prefix, executions, started, language)
            return RepairSearch(repairs=[fixed], executions=executions, seconds=round(time.monotonic() - started, 3),
                                candidates=executions, sandbox_runs=verifier.jobs, tests_total=len(calls),
                                tests_passed_before=original.passed, compile_fix=compile_fix)  # fmt: skip
    ranked = list(suspicious_lines)
    if current != code:
        mapping = {old: new for new, old in _line_map(code, current).items()}
        ranked = [mapping.get(line, line) for line in ranked]
        if localize is not None:
            ranked = list(await localize(current)) or ranked
    search = await _search(
        current,
        verifier.verify,
        confirm=confirmed if confirm else None,
        robust=holds_near_examples if confirm else None,
        suspicious_lines=ranked,
        budget=budget.model_copy(update={"max_seconds": left, "max_executions": budget.max_executions - executions}),
        proposer=verifier.proposer(),
        localize=localize,
        normal_form=normal_form,
        diff_name=DIFF_NAMES[language],
    )
    ordered = plain_branches_first(code, most_corroborated(search.repairs, answered, compare), language)
    search = search.model_copy(update={"repairs": ordered})
    repairs = []
    if prefix:
        back = _line_map(code, current)
        for repair in search.repairs:
            edits = [*prefix, *(e.model_copy(update={"original_line": back.get(e.line, e.line)}) for e in repair.edits)]
            repairs.append(_repair(code, repair.source, edits, executions + repair.executions, started, language))
    else:
        repairs = search.repairs
    return search.model_copy(
        update={
            "repairs": repairs,
            "executions": search.executions + executions,
            "seconds": round(time.monotonic() - started, 3),
            "candidates": search.candidates + verified,
            "sandbox_runs": verifier.jobs,
            "tests_total": len(calls),
            "tests_passed_before": original.passed,
            "compile_fix": compile_fix,
            "out_of_time": search.out_of_time,
        }
    )
