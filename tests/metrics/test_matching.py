"""Bipartite matching P/R/F1: the test vectors of the Socratic benchmark's evaluation, and matching properties."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from debugtutor.metrics import ExactMatchScorer, match_example, score_matching
from debugtutor.metrics.matching import match_weights


class HalfScorer:
    """Pair score len(p) / (len(p) + len(q)): always 0.5 on one-character strings."""

    name = "half"
    signature = "half"

    def score_pairs(self, predictions: Sequence[str], references: Sequence[str]) -> list[float]:
        return [len(p) / (len(p) + len(r)) for p, r in zip(predictions, references)]


def test_exact_single_example() -> None:
    match = match_example(["a", "b", "c"], ["b", "c", "d"], ExactMatchScorer())
    assert match.tp == 2
    assert match.precision == pytest.approx(2 / 3)
    assert match.recall == pytest.approx(2 / 3)
    assert match.f1 == pytest.approx(2 / 3)


def test_exact_dataset_mean_of_per_example_scores() -> None:
    score = score_matching([(["a", "b", "c"], ["b", "c", "d"]), (["d", "e"], ["e", "f"])], ExactMatchScorer())
    assert [m.tp for m in score.examples] == [2, 1]
    expected = (2 / 3 + 1 / 2) / 2
    assert score.precision.mean == pytest.approx(expected)
    assert score.recall.mean == pytest.approx(expected)
    assert score.f1.mean == pytest.approx(expected)


@pytest.mark.parametrize("examples", [[(["a"], ["b"])], [([], [])], [([], ["a"])], [(["a"], [])]])
def test_no_overlap_or_empty_scores_zero(examples: list[tuple[list[str], list[str]]]) -> None:
    score = score_matching(examples, ExactMatchScorer())
    assert score.precision.mean == 0 and score.recall.mean == 0 and score.f1.mean == 0


def test_half_scorer_vectors() -> None:
    single = match_example(["a", "b", "c"], ["b", "c", "d"], HalfScorer())
    assert single.tp == pytest.approx(1.5)
    assert (single.precision, single.recall, single.f1) == pytest.approx((0.5, 0.5, 0.5))
    score = score_matching([(["a", "b", "c"], ["b", "c", "d"]), (["d", "e"], ["e", "f", "g", "h"])], HalfScorer())
    assert score.precision.mean == pytest.approx((0.5 + 0.5) / 2)
    assert score.recall.mean == pytest.approx((0.5 + 0.25) / 2)
    assert score.f1.mean == pytest.approx((0.5 + 2 * 0.5 * 0.25 / 0.75) / 2)


def test_a_heavy_edge_beats_two_light_ones() -> None:
    # Maximum weight, not maximum cardinality: p0-r0 (0.9) alone outweighs p0-r1 + p1-r0 (0.4 + 0.4).
    weights = np.array([[0.9, 0.4], [0.4, 0.0]])
    match = match_weights(weights)
    assert match.tp == pytest.approx(0.9)


def test_matching_agrees_with_networkx_on_random_matrices() -> None:
    nx = pytest.importorskip("networkx")
    rng = np.random.default_rng(7)
    for _ in range(30):
        m, n = rng.integers(1, 7, size=2)
        weights = rng.random((m, n)) * (rng.random((m, n)) > 0.3)
        graph = nx.Graph()
        for i in range(m):
            for j in range(n):
                graph.add_edge(("p", i), ("r", j), weight=float(weights[i, j]))
        matching = nx.max_weight_matching(graph)
        total = sum(graph[a][b]["weight"] for a, b in matching)
        assert match_weights(weights).tp == pytest.approx(total)


def test_negative_weights_are_rejected() -> None:
    with pytest.raises(ValueError, match="non-negative"):
        match_weights(np.array([[-0.1]]))


def test_bootstrap_interval_contains_the_mean() -> None:
    score = score_matching([(["a"], ["a"]), (["a"], ["b"]), (["x", "y"], ["y"])], ExactMatchScorer())
    assert score.f1.low <= score.f1.mean <= score.f1.high
    assert score.as_dict()["examples"] == 3
