"""Bug Identification by the offline solver on the shared Python DebugBench data: the confusion matrix.

Builds the Bug Identification instances (Python, every category sampled down to the smallest, seed 0 by default),
lets the offline solver's identification (static checks, syntax repair, the stated examples run in the sandbox)
answer each, and prints one JSON object: accuracy, the gold x predicted confusion matrix, per-class recall, and the
trivial baselines on the same items (always the most frequent gold class, always "logic"; classes are balanced, so
both are 25%).

    python bench/debugeval_identification.py [--data ../shared/data] [--seed 0] [--limit N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from debugtutor.debugeval.build import BuildSettings, build_from_debugbench
from debugtutor.debugeval.debugbench import load_debugbench
from debugtutor.debugeval.offline import identify, python_facts

REPO = Path(__file__).resolve().parents[1]
CLASSES = ("(A)", "(B)", "(C)", "(D)")
NAMES = {"(A)": "syntax", "(B)": "reference", "(C)": "logic", "(D)": "multiple"}


async def answer_all(records: list[Any], concurrency: int) -> list[str]:
    gate = asyncio.Semaphore(concurrency)

    async def one(record: Any) -> str:
        async with gate:
            return identify(await python_facts(record.buggy_code, record.examples))

    return list(await asyncio.gather(*(one(record) for record in records)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--limit", type=int, default=0, help="first N items only (0: all)")
    parser.add_argument("--concurrency", type=int, default=4)
    args = parser.parse_args()

    started = time.perf_counter()
    pool = [item for item in load_debugbench(args.data / "debugbench") if item.language == "python"]
    task124, _, _ = build_from_debugbench(pool, BuildSettings(seed=args.seed, repair_languages=()))
    records = [record for record in task124 if record.task2_choice]
    if args.limit:
        records = records[: args.limit]
    predicted = asyncio.run(answer_all(records, args.concurrency))
    gold = [record.task2_choice for record in records]
    matrix = {NAMES[g]: {NAMES[p]: 0 for p in CLASSES} for g in CLASSES}
    for truth, guess in zip(gold, predicted):
        matrix[NAMES[truth]][NAMES.get(guess, "multiple")] += 1
    correct = sum(truth == guess for truth, guess in zip(gold, predicted))
    majority = Counter(gold).most_common(1)[0][1] if gold else 0
    report = {
        "items": len(records),
        "seed": args.seed,
        "accuracy": round(100 * correct / len(records), 2) if records else 0.0,
        "baseline_majority_class": round(100 * majority / len(records), 2) if records else 0.0,
        "baseline_always_logic": round(100 * gold.count("(C)") / len(records), 2) if records else 0.0,
        "confusion_gold_by_predicted": matrix,
        "recall": {NAMES[g]: round(100 * matrix[NAMES[g]][NAMES[g]] / max(1, gold.count(g)), 2) for g in CLASSES},
        "answers": {NAMES[c]: predicted.count(c) for c in CLASSES},
        "seconds": round(time.perf_counter() - started, 1),
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
