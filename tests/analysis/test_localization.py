"""Tests for spectrum-based fault localization and the combined line ranking."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pytest

from debugtutor.analysis.localization import (
    Spectrum,
    dstar,
    enclosing_loop,
    localize,
    nesting_depths,
    ochiai,
    sbfl_scores,
    spectra,
    statement_lines,
    statement_priors,
    tarantula,
)

PROGRAM = """def grade(score):
    if score > 90:
        return "A"
    elif score > 80:
        return "B"
    else:
        return "C"
"""


@dataclass(frozen=True)
class FakeDiagnostic:
    category: str
    line: int
    message: str


def test_formulas_on_known_spectra() -> None:
    spectrum = Spectrum(ef=2, ep=1, failed_total=2, passed_total=3)
    assert ochiai(spectrum) == pytest.approx(2 / math.sqrt(2 * 3))
    assert dstar(spectrum) == pytest.approx(4 / 1)
    assert tarantula(spectrum) == pytest.approx(1.0 / (1.0 + 1 / 3))
    never_failing = Spectrum(ef=0, ep=3, failed_total=2, passed_total=3)
    assert ochiai(never_failing) == 0.0 and dstar(never_failing) == 0.0 and tarantula(never_failing) == 0.0
    only_failing = Spectrum(ef=2, ep=0, failed_total=2, passed_total=3)
    assert dstar(only_failing) > dstar(spectrum)  # the "infinite" case stays the largest


def test_spectra_counts_failing_and_passing_runs() -> None:
    coverage = {0: {1, 2, 3}, 1: {1, 2, 4, 5}, 2: {1, 2, 4, 6, 7}}
    counts = spectra(coverage, failed_tests={1})
    assert counts[5] == Spectrum(ef=1, ep=0, failed_total=1, passed_total=2)
    assert counts[1] == Spectrum(ef=1, ep=2, failed_total=1, passed_total=2)
    scores = sbfl_scores(coverage, {1})
    assert max(scores, key=scores.__getitem__) == 5
    assert scores[3] == 0.0


def test_statement_lines_marks_structural_lines() -> None:
    statements, structural = statement_lines(PROGRAM)
    assert statements == {1, 2, 3, 4, 5, 6, 7}
    assert structural == {1, 6}
    broken_statements, broken_structural = statement_lines("def f(:\n\n    # note\n    return 1\n")
    assert broken_statements == {1, 4} and broken_structural == set()


def test_localize_ranks_the_branch_only_failing_tests_take() -> None:
    coverage = {0: {1, 2, 3}, 1: {1, 2, 4, 5}, 2: {1, 2, 4, 6, 7}}
    ranked = localize(PROGRAM, coverage=coverage, failed_tests=[1])
    assert ranked[0].line == 5
    assert "ochiai" in ranked[0].reasons[0]
    assert {item.line for item in ranked} == {1, 2, 4, 5}  # lines no failing test ran carry no evidence


def test_ties_prefer_statements_over_structural_lines() -> None:
    # every test runs every line and every test fails: pure spectra cannot separate the lines
    coverage = {0: {1, 2, 3}, 1: {1, 2, 3}}
    source = "def f(x):\n    y = x * 3\n    return y\n"
    ranked = localize(source, coverage=coverage, failed_tests=[0, 1])
    assert ranked[-1].line == 1
    assert ranked[0].score == ranked[1].score == ranked[2].score


def test_static_and_dynamic_evidence_outrank_spectra() -> None:
    coverage = {0: {1, 2, 3}, 1: {1, 2, 4, 5}}
    diagnostics = [FakeDiagnostic("reference", 3, "undefined name 'grad'")]
    ranked = localize(PROGRAM, coverage=coverage, failed_tests=[1], diagnostics=diagnostics)
    assert ranked[0].line == 3
    assert any("undefined name" in reason for reason in ranked[0].reasons)
    with_exception = localize(PROGRAM, coverage=coverage, failed_tests=[1], exception_lines={4: "TypeError"})
    assert with_exception[0].line == 4
    syntax = localize("def f(:\n    return 1\n", diagnostics=[FakeDiagnostic("syntax", 1, "missing ')'")])
    assert [item.line for item in syntax] == [1]


def test_a_verified_repair_puts_its_line_first() -> None:
    coverage = {0: {1, 2, 3}, 1: {1, 2, 4, 5}}
    diagnostics = [FakeDiagnostic("reference", 5, "undefined name")]
    ranked = localize(PROGRAM, coverage=coverage, failed_tests=[1], diagnostics=diagnostics, repaired_lines=[2])
    assert ranked[0].line == 2
    assert ranked[0].reasons[0] == "a verified repair changes this line"


def test_out_of_range_evidence_is_ignored() -> None:
    ranked = localize(PROGRAM, diagnostics=[FakeDiagnostic("suspicious-logic", 99, "far away")])
    assert ranked == []


NESTED = """def count(nums, limit):
    total = 0
    for x in nums:
        if x > limit:
            total += x
        elif x == limit:
            total += 1
    while total > 100:
        total -= 1
    return total
"""


def test_priors_prefer_decisions_then_computations_then_initializations() -> None:
    priors = statement_priors(NESTED)
    assert priors[3] == priors[4] == priors[8] == 3  # for / if / while
    assert priors[5] == priors[9] == 2  # augmented assignments compute
    assert priors[2] == 1  # a plain initialization
    assert priors[1] == 0  # the def header
    assert statement_priors("def f(:\n") == {}


def test_nesting_depth_counts_blocks_but_not_elif_chains() -> None:
    depths = nesting_depths(NESTED)
    assert (depths[1], depths[2], depths[3], depths[4], depths[5]) == (0, 1, 1, 2, 3)
    assert depths[6] == depths[4]  # an elif is as deep as its if
    assert depths[7] == depths[5]


def test_enclosing_loop_finds_the_innermost_loop_header() -> None:
    assert enclosing_loop(NESTED, 5) == 3
    assert enclosing_loop(NESTED, 9) == 8
    assert enclosing_loop(NESTED, 2) is None
    assert enclosing_loop("while True\n", 1) is None


def test_ties_break_toward_deeper_decisions() -> None:
    # every failing test runs lines 2-5 and 10 and nothing passes: the nested condition leads
    coverage = {0: {2, 3, 4, 5, 10}, 1: {2, 3, 4, 5, 10}}
    ranked = localize(NESTED, coverage=coverage, failed_tests=[0, 1])
    assert [item.line for item in ranked] == [4, 3, 5, 2, 10]
