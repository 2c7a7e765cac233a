"""Text similarity, bipartite-matching precision/recall/F1, pass@k and the statistics every arena reports.

Pair scorers wrap well-kept libraries (sacrebleu, rouge-score, bert-score, sentence-transformers); this package adds
only the parts the papers define on top of them: the maximum-weight matching between predicted and reference
utterances, the per-example P/R/F1 averaged over a dataset, bootstrap intervals and the unbiased pass@k estimator.
"""

from debugtutor.metrics.matching import ExampleMatch, MatchingScore, match_example, match_examples, score_matching
from debugtutor.metrics.passk import pass_at_k
from debugtutor.metrics.stats import BootstrapInterval, bootstrap_mean
from debugtutor.metrics.text import (
    PAIR_SCORERS,
    BertScoreScorer,
    Bleu4Scorer,
    EmbeddingCosineScorer,
    ExactMatchScorer,
    PairScorer,
    RougeLScorer,
    get_pair_scorer,
)

__all__ = [
    "PAIR_SCORERS",
    "BertScoreScorer",
    "Bleu4Scorer",
    "BootstrapInterval",
    "EmbeddingCosineScorer",
    "ExactMatchScorer",
    "ExampleMatch",
    "MatchingScore",
    "PairScorer",
    "RougeLScorer",
    "bootstrap_mean",
    "get_pair_scorer",
    "match_example",
    "match_examples",
    "pass_at_k",
    "score_matching",
]
