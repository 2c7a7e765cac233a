"""Maximum-weight bipartite matching between predicted and reference utterances (the Socratic "thoroughness" score).

For one example with m predictions and n references, every pair gets a similarity weight; a maximum-weight matching
uses each prediction and each reference at most once. TP is the matched weight, P = TP/m, R = TP/n, F1 = 2PR/(P+R).
A dataset's score is the mean of the per-example P, R and F1 (not the harmonic mean of the means), as the original
evaluation computes it. With non-negative weights the Hungarian assignment (scipy) reaches the same total as a
maximum-weight matching, since an extra zero-weight edge never changes the sum.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from debugtutor.metrics.stats import BootstrapInterval, bootstrap_mean
from debugtutor.metrics.text import PairScorer


@dataclass(frozen=True)
class ExampleMatch:
    """The matching of one example: TP, P, R, F1 and the matched (prediction, reference, weight) triples."""

    tp: float
    precision: float
    recall: float
    f1: float
    pairs: tuple[tuple[int, int, float], ...] = ()


@dataclass(frozen=True)
class MatchingScore:
    """A dataset's mean per-example precision, recall and F1 with bootstrap intervals, plus every example's match."""

    precision: BootstrapInterval
    recall: BootstrapInterval
    f1: BootstrapInterval
    examples: list[ExampleMatch] = field(default_factory=list)
    metric: str = ""

    def as_dict(self) -> dict[str, object]:
        return {
            "metric": self.metric,
            "examples": len(self.examples),
            "precision": self.precision.as_dict(),
            "recall": self.recall.as_dict(),
            "f1": self.f1.as_dict(),
        }


def match_weights(weights: np.ndarray) -> ExampleMatch:
    """Match on a precomputed m x n weight matrix (rows predictions, columns references; weights >= 0)."""
    m, n = weights.shape
    if m == 0 or n == 0:
        return ExampleMatch(0.0, 0.0, 0.0, 0.0)
    if np.any(weights < 0):
        raise ValueError("match_weights: pair weights must be non-negative")
    from scipy.optimize import linear_sum_assignment  # scipy takes a quarter second to import; only load it here

    rows, cols = linear_sum_assignment(weights, maximize=True)
    pairs = tuple((int(r), int(c), float(weights[r, c])) for r, c in zip(rows, cols) if weights[r, c] > 0)
    tp = float(sum(w for _, _, w in pairs))
    precision, recall = tp / m, tp / n
    f1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return ExampleMatch(tp, precision, recall, f1, pairs)


def match_example(predictions: Sequence[str], references: Sequence[str], scorer: PairScorer) -> ExampleMatch:
    """Score every (prediction, reference) pair with ``scorer`` and match them."""
    if not predictions or not references:
        return ExampleMatch(0.0, 0.0, 0.0, 0.0)
    preds = [p for p in predictions for _ in references]
    refs = [r for _ in predictions for r in references]
    weights = np.asarray(scorer.score_pairs(preds, refs), dtype=float).reshape(len(predictions), len(references))
    return match_weights(weights)


def match_examples(examples: Sequence[tuple[Sequence[str], Sequence[str]]], scorer: PairScorer) -> list[ExampleMatch]:
    """The matching of every ``(predictions, references)`` example, all pairs scored in one batch."""
    preds: list[str] = []
    refs: list[str] = []
    shapes: list[tuple[int, int]] = []
    for predictions, references in examples:
        shapes.append((len(predictions), len(references)))
        for p in predictions:
            for r in references:
                preds.append(p)
                refs.append(r)
    flat = np.asarray(scorer.score_pairs(preds, refs), dtype=float) if preds else np.zeros(0)
    matches: list[ExampleMatch] = []
    offset = 0
    for m, n in shapes:
        size = m * n
        matches.append(match_weights(flat[offset : offset + size].reshape(m, n)))
        offset += size
    return matches


def score_matching(
    examples: Sequence[tuple[Sequence[str], Sequence[str]]],
    scorer: PairScorer,
    *,
    seed: int = 0,
    resamples: int = 1000,
) -> MatchingScore:
    """Mean per-example P/R/F1 over ``(predictions, references)`` examples, all pairs scored in one batch."""
    matches = match_examples(examples, scorer)
    return MatchingScore(
        precision=bootstrap_mean([x.precision for x in matches], seed=seed, resamples=resamples),
        recall=bootstrap_mean([x.recall for x in matches], seed=seed, resamples=resamples),
        f1=bootstrap_mean([x.f1 for x in matches], seed=seed, resamples=resamples),
        examples=matches,
        metric=scorer.name,
    )
