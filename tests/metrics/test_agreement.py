"""Annotator agreement and the chi-squared test against values computed by hand."""

from __future__ import annotations

import math

import pytest

from debugtutor.metrics.agreement import (
    chi_squared,
    cohen_kappa,
    fleiss_kappa,
    fleiss_over_common,
    pairwise_cohen,
)


def test_cohen_kappa_two_by_two_by_hand() -> None:
    # 50 units: both yes 20, A yes/B no 5, A no/B yes 10, both no 15.
    # observed = 35/50 = 0.7; A says yes 25/50, B says yes 30/50: expected = .5*.6 + .5*.4 = 0.5; kappa = 0.4
    first = [True] * 25 + [False] * 25
    second = [True] * 20 + [False] * 5 + [True] * 10 + [False] * 15
    result = cohen_kappa(first, second)
    assert result.observed == pytest.approx(0.7)
    assert result.expected == pytest.approx(0.5)
    assert result.kappa == pytest.approx(0.4)
    assert result.units == 50


def test_cohen_kappa_perfect_disagreement_and_degenerate() -> None:
    assert cohen_kappa([1, 2, 1, 2], [2, 1, 2, 1]).kappa == pytest.approx(-1.0)
    assert cohen_kappa([1, 1, 2], [1, 1, 2]).kappa == pytest.approx(1.0)
    # everyone said the same thing: chance agreement is total, kappa is undefined
    assert math.isnan(cohen_kappa([1, 1, 1], [1, 1, 1]).kappa)
    assert math.isnan(cohen_kappa([], []).kappa)


def test_fleiss_kappa_textbook_table() -> None:
    # 10 units, 14 raters, 5 categories (the classic worked example): P-bar = 0.378, Pe = 0.213, kappa = 0.210
    counts = [
        [0, 0, 0, 0, 14],
        [0, 2, 6, 4, 2],
        [0, 0, 3, 5, 6],
        [0, 3, 9, 2, 0],
        [2, 2, 8, 1, 1],
        [7, 7, 0, 0, 0],
        [3, 2, 6, 3, 0],
        [2, 5, 3, 2, 2],
        [6, 5, 2, 1, 0],
        [0, 2, 2, 3, 7],
    ]
    units = [[category for category, count in enumerate(row) for _ in range(count)] for row in counts]
    result = fleiss_kappa(units)
    assert result.observed == pytest.approx(0.378, abs=5e-4)
    assert result.expected == pytest.approx(0.213, abs=5e-4)
    assert result.kappa == pytest.approx(0.210, abs=5e-4)


def test_fleiss_equals_small_hand_computation() -> None:
    # 4 units, 2 raters, binary: (T,T) (T,F) (F,F) (F,F). P_i = 1, 0, 1, 1 -> P-bar 0.75;
    # p(T) = 3/8, p(F) = 5/8 -> Pe = 9/64 + 25/64 = 34/64; kappa = (0.75 - 34/64) / (1 - 34/64) = 14/30
    result = fleiss_kappa([[True, True], [True, False], [False, False], [False, False]])
    assert result.kappa == pytest.approx(14 / 30)
    with pytest.raises(ValueError):
        fleiss_kappa([[1, 2], [1]])


def test_pairwise_and_common_use_shared_units_only() -> None:
    labels = {
        "ann": {"u1": True, "u2": False, "u3": True, "u4": False},
        "bob": {"u1": True, "u2": False, "u3": False},
        "cat": {"u1": True, "u2": True, "u3": True, "u4": False},
    }
    pairs = pairwise_cohen(labels)
    assert set(pairs) == {("ann", "bob"), ("ann", "cat"), ("bob", "cat")}
    assert pairs[("ann", "bob")].units == 3
    assert pairs[("ann", "cat")].units == 4
    common = fleiss_over_common(labels)
    assert common.units == 3  # u4 lacks bob's label
    assert math.isnan(fleiss_over_common({"solo": {"u": 1}}).kappa)


def test_chi_squared_two_by_two_by_hand() -> None:
    # expected counts 12, 18, 28, 42: chi2 = 4/12 + 4/18 + 4/28 + 4/42
    result = chi_squared([[10, 20], [30, 40]])
    assert result is not None
    assert result.statistic == pytest.approx(4 / 12 + 4 / 18 + 4 / 28 + 4 / 42)
    assert result.dof == 1
    assert 0 < result.p_value < 1


def test_chi_squared_drops_empty_columns_and_needs_two_groups() -> None:
    result = chi_squared([[10, 0, 20], [30, 0, 40]])
    assert result is not None and result.dof == 1
    assert chi_squared([[1, 2, 3]]) is None
    assert chi_squared([[0, 5], [0, 7]]) is None
