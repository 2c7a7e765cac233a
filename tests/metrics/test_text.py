"""Pair scorers: BLEU-4 as the Socratic evaluation computes it, ROUGE-L, BERTScore and embedding cosine."""

from __future__ import annotations

import pytest

from debugtutor.errors import InputError
from debugtutor.metrics import get_pair_scorer


def test_bleu4_unsmoothed_known_value() -> None:
    # Clipped n-gram precisions 5/6, 3/5, 2/4, 1/3 and no brevity penalty: geometric mean 0.5373.
    bleu = get_pair_scorer("bleu4")
    [score] = bleu.score_pairs(["the cat sat on the mat"], ["the cat sat on a mat"])
    assert score == pytest.approx((5 / 6 * 3 / 5 * 2 / 4 * 1 / 3) ** 0.25, abs=1e-4)


def test_bleu4_unsmoothed_is_zero_for_short_predictions_and_smoothed_is_not() -> None:
    short, ref = "what is n", "what is n here"
    assert get_pair_scorer("bleu4").score_pairs([short], [ref]) == [0.0]
    assert get_pair_scorer("bleu4-smooth").score_pairs([short], [ref])[0] > 0.0


def test_bleu4_empty_prediction_scores_zero() -> None:
    assert get_pair_scorer("bleu4").score_pairs([""], ["anything at all here"]) == [0.0]


def test_rouge_l_f_measure() -> None:
    # LCS of 5 tokens over 6 and 6: P = R = F = 5/6.
    [score] = get_pair_scorer("rougeL").score_pairs(["the cat sat on a mat"], ["the cat sat on the mat"])
    assert score == pytest.approx(5 / 6)


def test_signature_names_the_settings() -> None:
    assert "smooth:none" in get_pair_scorer("bleu4").signature
    assert "stemmer:no" in get_pair_scorer("rougeL").signature


def test_unknown_metric_is_an_input_error() -> None:
    with pytest.raises(InputError, match="unknown metric"):
        get_pair_scorer("meteor")


def test_pairs_must_align() -> None:
    with pytest.raises(ValueError):
        get_pair_scorer("rougeL").score_pairs(["a", "b"], ["a"])


@pytest.mark.hf
@pytest.mark.slow
def test_bertscore_minilm_separates_paraphrase_from_unrelated() -> None:
    scorer = get_pair_scorer("bertscore")
    close, far = scorer.score_pairs(
        ["What value does the loop variable start at?", "What value does the loop variable start at?"],
        ["Which value does the loop variable begin with?", "Bananas are rich in potassium."],
    )
    assert 0.0 <= far < close <= 1.0
    assert close - far > 0.3
    assert "minilm" in scorer.signature.lower() or "model" in scorer.signature


@pytest.mark.hf
@pytest.mark.slow
def test_embedding_cosine_ranks_paraphrase_higher() -> None:
    scorer = get_pair_scorer("embedding-cosine")
    close, far = scorer.score_pairs(
        ["Which line adds the number to the total?"] * 2,
        ["On which line is the total increased?", "The weather is sunny today."],
    )
    assert far < close
