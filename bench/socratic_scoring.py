"""Benchmark of Socratic scoring: the paper's matching metrics over every example of a real folder.

Predictions are each example's neighbour's references ("shifted": the next example's reference utterances, which
are similar questions from the same or a nearby dialogue, not the same ones). Times are measured for
BLEU-4 + ROUGE-L with matching (target: under 10 s for all of ``v2_sigcse/train``) and for BERTScore with the bundled
MiniLM (target: under 2 minutes), each including the scorer's construction. The times cover the two reference
baselines too (the constant generic answer and the mismatched references are scored on every example), so the pair
count includes theirs. Exits non-zero when a target is missed.

    python bench/socratic_scoring.py [--data DIR] [--skip-bertscore] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from debugtutor.metrics import get_pair_scorer
from debugtutor.socratic.evaluation import GENERIC_QUESTIONS, load_examples, mismatched_partners, score_predictions

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO_ROOT.parent / "shared" / "data" / "socratic" / "v2_sigcse" / "train"
LEXICAL_TARGET_S = 10.0
BERTSCORE_TARGET_S = 120.0


def timed_score(
    examples: list[Any], predictions: dict[str, list[str]], metrics: list[str]
) -> tuple[dict[str, Any], float]:
    started = time.perf_counter()
    scorers = {name: get_pair_scorer(name) for name in metrics}
    result = score_predictions(examples, predictions, metrics, scorers=scorers)
    return result, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--skip-bertscore", action="store_true")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)

    examples = load_examples(args.data)
    predictions = {e.id: examples[(i + 1) % len(examples)].references for i, e in enumerate(examples)}
    partners = mismatched_partners(examples)
    pairs = sum(
        (len(predictions[e.id]) + len(GENERIC_QUESTIONS)) * len(e.references)
        + (len(predictions[e.id]) * len(partners[e.id].references) if e.id in partners else 0)
        for e in examples
    )
    lexical, lexical_s = timed_score(examples, predictions, ["bleu4", "rougeL"])
    report: dict[str, Any] = {
        "data": str(args.data),
        "examples": len(examples),
        "pairs": pairs,
        "lexical_s": round(lexical_s, 2),
        "lexical_target_s": LEXICAL_TARGET_S,
        "f1": {name: round(lexical[name]["f1"]["mean"] * 100, 2) for name in ("bleu4", "rougeL")},
    }
    failed = lexical_s > LEXICAL_TARGET_S
    if not args.skip_bertscore:
        bert, bert_s = timed_score(examples, predictions, ["bertscore"])
        report["bertscore_s"] = round(bert_s, 2)
        report["bertscore_target_s"] = BERTSCORE_TARGET_S
        report["f1"]["bertscore"] = round(bert["bertscore"]["f1"]["mean"] * 100, 2)
        report["bertscore_signature"] = bert["bertscore"]["signature"]
        failed = failed or bert_s > BERTSCORE_TARGET_S
    if args.json:
        print(json.dumps(report))
    else:
        print(f"{report['examples']} examples, {pairs} prediction-reference pairs with the baselines' ({args.data})")
        print(f"BLEU-4 + ROUGE-L with matching: {lexical_s:.2f} s (target < {LEXICAL_TARGET_S:.0f} s)")
        if "bertscore_s" in report:
            print(
                f"BERTScore (MiniLM) with matching: {report['bertscore_s']:.2f} s (target < {BERTSCORE_TARGET_S:.0f} s)"
            )
        print("F1 % of shifted references: " + ", ".join(f"{k} {v:.1f}" for k, v in report["f1"].items()))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
