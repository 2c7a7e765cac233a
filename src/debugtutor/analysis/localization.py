"""Fault localization: rank the lines of a program by how likely they hold the bug.

Spectrum-based scores (Ochiai, DStar with star 2, Tarantula) come from per-test line coverage: a line run by many
failing and few passing tests is suspicious. On the small programs novices write, with a handful of tests, many
lines tie, so the ranking also weighs what else is known about a line: a static diagnostic on it (a syntax error
is almost surely the bug; an undefined name very likely), the line where a failing test raised, and, strongest of
all, the lines that a verified repair changed (a single edit that makes every test pass points at the bug).
Remaining ties prefer lines run by fewer tests, then statements over structural lines (``def``, ``else:``).
"""

from __future__ import annotations

import ast
import math
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Literal, Protocol

from pydantic import BaseModel, Field

from debugtutor import python_ast
from debugtutor.analysis.clike import syntax_tree as clike_tree
from debugtutor.sandbox import Language

Formula = Literal["ochiai", "dstar", "tarantula"]

# Weights of the evidence added to the spectrum score (which lies in [0, 1]); each tier dominates the ones below.
REPAIR_WEIGHT = 5.0
REPAIR_SUPPORT_WEIGHT = 0.5
SYNTAX_WEIGHT = 3.0
REFERENCE_WEIGHT = 1.5
EXCEPTION_WEIGHT = 0.6
SUSPICIOUS_LOGIC_WEIGHT = 0.35


class DiagnosticLike(Protocol):
    """What localization needs from a static diagnostic (see :mod:`debugtutor.analysis.static`)."""

    @property
    def category(self) -> str: ...

    @property
    def line(self) -> int: ...

    @property
    def message(self) -> str: ...


class SuspiciousLine(BaseModel):
    """One ranked line: its combined score and the evidence behind it, most important first."""

    line: int
    score: float
    reasons: list[str] = Field(default_factory=list)


@dataclass(frozen=True)
class Spectrum:
    """How many failing (ef) and passing (ep) tests ran a line, out of all failing (nf_total) and passing tests."""

    ef: int
    ep: int
    failed_total: int
    passed_total: int


def ochiai(spectrum: Spectrum) -> float:
    denominator = math.sqrt(spectrum.failed_total * (spectrum.ef + spectrum.ep))
    return spectrum.ef / denominator if denominator else 0.0


def dstar(spectrum: Spectrum, star: int = 2) -> float:
    """DStar; a line run by every failing test and no passing one gets +inf, kept finite here as ef**star + 1."""
    not_run_by_failing = spectrum.failed_total - spectrum.ef
    denominator = spectrum.ep + not_run_by_failing
    if denominator == 0:
        return float(spectrum.ef**star + 1) if spectrum.ef else 0.0
    return spectrum.ef**star / denominator


def tarantula(spectrum: Spectrum) -> float:
    if not spectrum.failed_total or not spectrum.ef:
        return 0.0
    fail_ratio = spectrum.ef / spectrum.failed_total
    pass_ratio = spectrum.ep / spectrum.passed_total if spectrum.passed_total else 0.0
    return fail_ratio / (fail_ratio + pass_ratio)


_FORMULAS = {"ochiai": ochiai, "dstar": dstar, "tarantula": tarantula}


def spectra(coverage: Mapping[int, Collection[int]], failed_tests: Collection[int]) -> dict[int, Spectrum]:
    """Per line, the counts of failing and passing tests that ran it (``coverage``: test index -> lines)."""
    failed = set(failed_tests) & set(coverage)
    failed_total = len(failed)
    passed_total = len(coverage) - failed_total
    counts: dict[int, list[int]] = {}
    for test, lines in coverage.items():
        slot = 0 if test in failed else 1
        for line in lines:
            counts.setdefault(line, [0, 0])[slot] += 1
    return {line: Spectrum(ef, ep, failed_total, passed_total) for line, (ef, ep) in counts.items()}


def sbfl_scores(
    coverage: Mapping[int, Collection[int]], failed_tests: Collection[int], formula: Formula = "ochiai"
) -> dict[int, float]:
    """Spectrum-based suspiciousness of every covered line under ``formula``."""
    score = _FORMULAS[formula]
    return {line: score(spectrum) for line, spectrum in spectra(coverage, failed_tests).items()}


def statement_lines(source: str, language: Language = "python") -> tuple[set[int], set[int]]:
    """(lines that start a statement, structural lines: def/class headers, else/try/finally and the like).

    For source that does not parse, every non-blank, non-comment line counts as a statement line. C++ and Java
    are read with tree-sitter (which parses broken code too)."""
    if language != "python":
        return clike_tree.parse(source, language).statement_lines()
    try:
        tree = python_ast.parse(source)
    except SyntaxError:
        lines = source.splitlines()
        return {n for n, text in enumerate(lines, 1) if text.strip() and not text.strip().startswith("#")}, set()
    statements: set[int] = set()
    structural: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt):
            statements.add(node.lineno)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)):
                structural.add(node.lineno)
    text_lines = source.splitlines()
    for number, text in enumerate(text_lines, 1):
        stripped = text.strip()
        if stripped in ("else:", "try:", "finally:") or stripped.startswith("except"):
            statements.add(number)
            structural.add(number)
    return statements, structural


def statement_priors(source: str, language: Language = "python") -> dict[int, int]:
    """A tie-break prior by statement kind: where novices' bugs tend to be when the evidence cannot tell.

    Conditions and loop headers (the decisions) come first, then statements that compute (a return, an assignment
    or call with an operator, call or subscript in it), then plain initializations (``x = 0``, ``acc = []``), then
    headers of definitions. Source that does not parse gets no prior."""
    if language != "python":
        return clike_tree.statement_priors(clike_tree.parse(source, language))
    try:
        tree = python_ast.parse(source)
    except SyntaxError:
        return {}
    priors: dict[int, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.If, ast.While, ast.For, ast.AsyncFor)):
            rank = 3
        elif isinstance(node, (ast.Return, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr)):
            value = getattr(node, "value", None)
            plain = value is None or isinstance(value, (ast.Constant, ast.Name, ast.List, ast.Dict, ast.Tuple, ast.Set))
            if isinstance(value, (ast.List, ast.Dict, ast.Tuple, ast.Set)):
                plain = all(isinstance(child, (ast.Constant, ast.Name)) for child in ast.iter_child_nodes(value))
            rank = 1 if plain and not isinstance(node, ast.AugAssign) else 2
        elif isinstance(node, ast.stmt):
            rank = 1 if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) else 0
        else:
            continue
        priors[node.lineno] = max(priors.get(node.lineno, 0), rank)
    return priors


def nesting_depths(source: str, language: Language = "python") -> dict[int, int]:
    """How many compound statements enclose each statement line (a deeper line runs under narrower conditions,
    so among equally suspicious lines it says more)."""
    if language != "python":
        return clike_tree.nesting_depths(clike_tree.parse(source, language))
    try:
        tree = python_ast.parse(source)
    except SyntaxError:
        return {}
    depths: dict[int, int] = {}

    def visit(body: list[ast.stmt], depth: int) -> None:
        for statement in body:
            depths.setdefault(statement.lineno, depth)
            for field_name in ("body", "orelse", "finalbody"):
                inner = getattr(statement, field_name, None)
                if not (isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt)):
                    continue
                # an `elif` is an If inside the orelse at the same column: it is no deeper than its `if`
                is_elif = (
                    field_name == "orelse"
                    and len(inner) == 1
                    and isinstance(inner[0], ast.If)
                    and inner[0].col_offset == statement.col_offset
                )
                visit(inner, depth if is_elif else depth + 1)
            for handler in getattr(statement, "handlers", []):
                visit(handler.body, depth + 1)

    visit(tree.body, 0)
    return depths


def enclosing_loop(source: str, line: int, language: Language = "python") -> int | None:
    """The header line of the innermost loop that contains ``line``, or None."""
    if language != "python":
        return clike_tree.enclosing_loop(clike_tree.parse(source, language), line)
    try:
        tree = python_ast.parse(source)
    except SyntaxError:
        return None
    best: tuple[int, int] | None = None
    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.While, ast.AsyncFor)):
            end = node.end_lineno or node.lineno
            if node.lineno <= line <= end and (best is None or node.lineno > best[0]):
                best = (node.lineno, end)
    return best[0] if best else None


def localize(
    source: str,
    *,
    coverage: Mapping[int, Collection[int]] | None = None,
    failed_tests: Collection[int] = (),
    diagnostics: Iterable[DiagnosticLike] = (),
    exception_lines: Mapping[int, str] | None = None,
    repaired_lines: Collection[int] = (),
    repair_support_lines: Collection[int] = (),
    formula: Formula = "ochiai",
    language: Language = "python",
) -> list[SuspiciousLine]:
    """Rank the lines of ``source`` from most to least suspicious.

    ``coverage`` maps test index to the lines it ran and ``failed_tests`` names the tests that did not pass;
    ``exception_lines`` maps a line to the exception a failing test raised there; ``repaired_lines`` are the lines
    a verified repair edited, ``repair_support_lines`` lines it only touched along the way (a re-indented block, a
    syntax fix next to the logic fix). Lines with no evidence at all are left out."""
    statements, structural = statement_lines(source, language)
    line_count = len(source.splitlines())
    evidence: dict[int, list[tuple[float, str]]] = {}

    def add(line: int, weight: float, reason: str) -> None:
        if 1 <= line <= max(line_count, 1):
            evidence.setdefault(line, []).append((weight, reason))

    primary: dict[int, float] = {}
    secondary: dict[int, float] = {}
    tests_running: dict[int, int] = {}
    if coverage and failed_tests:
        line_spectra = spectra(coverage, failed_tests)
        second_formula: Formula = "dstar" if formula != "dstar" else "ochiai"
        for line, spectrum in line_spectra.items():
            if line not in statements:
                continue
            tests_running[line] = spectrum.ef + spectrum.ep
            primary[line] = _FORMULAS[formula](spectrum)
            secondary[line] = _FORMULAS[second_formula](spectrum)
            if primary[line] > 0:
                add(
                    line,
                    primary[line],
                    f"{formula} {primary[line]:.2f}: run by {spectrum.ef} of "
                    f"{spectrum.failed_total} failing and {spectrum.ep} of {spectrum.passed_total} passing tests",
                )
    for diagnostic in diagnostics:
        category = diagnostic.category
        weight = {"syntax": SYNTAX_WEIGHT, "reference": REFERENCE_WEIGHT}.get(category, SUSPICIOUS_LOGIC_WEIGHT)
        add(diagnostic.line, weight, f"{category}: {diagnostic.message}")
    for line, exception in (exception_lines or {}).items():
        add(line, EXCEPTION_WEIGHT, f"a failing test raised {exception} here")
    for line in repaired_lines:
        add(line, REPAIR_WEIGHT, "a verified repair changes this line")
    for line in set(repair_support_lines) - set(repaired_lines):
        add(line, REPAIR_SUPPORT_WEIGHT, "a verified repair also touches this line")

    ranked = []
    for line, items in evidence.items():
        items.sort(key=lambda item: -item[0])
        # one piece of evidence of each kind counts; repeated diagnostics on a line add little
        seen: set[str] = set()
        score = 0.0
        for weight, reason in items:
            kind = reason.split(":", 1)[0].split(" ", 1)[0]
            score += weight if kind not in seen else weight * 0.1
            seen.add(kind)
        ranked.append(SuspiciousLine(line=line, score=round(score, 6), reasons=[reason for _, reason in items]))
    priors = statement_priors(source, language)
    depths = nesting_depths(source, language)
    ranked.sort(
        key=lambda item: (
            -item.score,
            -secondary.get(item.line, 0.0),
            -priors.get(item.line, 0),
            -depths.get(item.line, 0),
            tests_running.get(item.line, 0),
            item.line in structural,
            item.line,
        )
    )
    return ranked
