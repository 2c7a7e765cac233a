"""The unbiased pass@k estimator against brute-force enumeration."""

from __future__ import annotations

import itertools

import pytest

from debugtutor.metrics import bootstrap_mean, pass_at_k


@pytest.mark.parametrize(("n", "c", "k"), [(5, 0, 1), (5, 5, 3), (6, 2, 1), (6, 2, 3), (7, 3, 4), (4, 1, 4)])
def test_pass_at_k_matches_enumeration(n: int, c: int, k: int) -> None:
    outcomes = [True] * c + [False] * (n - c)
    subsets = list(itertools.combinations(range(n), k))
    brute = sum(any(outcomes[i] for i in s) for s in subsets) / len(subsets)
    assert pass_at_k(n, c, k) == pytest.approx(brute)


def test_pass_at_1_is_the_share_correct() -> None:
    assert pass_at_k(10, 3, 1) == pytest.approx(0.3)


@pytest.mark.parametrize(("n", "c", "k"), [(3, 4, 1), (3, 1, 0), (3, 1, 4)])
def test_bad_arguments(n: int, c: int, k: int) -> None:
    with pytest.raises(ValueError):
        pass_at_k(n, c, k)


def test_bootstrap_is_seeded_and_brackets_the_mean() -> None:
    values = [0, 1, 1, 0, 1, 1, 1, 0, 1, 1]
    a, b = bootstrap_mean(values, seed=3), bootstrap_mean(values, seed=3)
    assert a == b
    assert a.mean == pytest.approx(0.7)
    assert a.low < 0.7 < a.high
    assert bootstrap_mean([]).n == 0
