"""Benchmark: static classification of DebugBench Python items into syntax / reference / logic / multiple.

Each item's labelled major category comes from its shard's bug type (DebugBench's taxonomy: misused ``==``/``=``,
missing colons, unclosed parentheses/strings, illegal comments and indentation are syntax; faulty indexing,
undefined objects/methods and illegal keywords are reference; condition, operation, variable and other errors are
logic; double/triple/quadruple are multiple). Prints the confusion matrix, per-class precision/recall, accuracy,
time per item, and how many oracle (correct) programs are wrongly flagged.

Usage: ``python bench/analysis_static.py [--data PATH]`` (default ``../shared/data`` beside the repository).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from debugtutor.analysis.static import classify

MAJOR_BY_BUG_TYPE = {
    "misused == or =": "syntax",
    "missing colons": "syntax",
    "unclosed parentheses": "syntax",
    "unclosed string": "syntax",
    "illegal comment": "syntax",
    "illegal indentation": "syntax",
    "faulty indexing": "reference",
    "undefined objects": "reference",
    "undefined methods": "reference",
    "illegal keywords": "reference",
    "condition error": "logic",
    "operation error": "logic",
    "variable error": "logic",
    "other error": "logic",
    "double": "multiple",
    "triple": "multiple",
    "quadruple": "multiple",
}
CLASSES = ("syntax", "reference", "logic", "multiple")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[1].parent / "shared" / "data")
    args = parser.parse_args()
    shards = sorted((args.data / "debugbench").glob("python3_*.json"))
    if not shards:
        print(f"no DebugBench Python shards under {args.data / 'debugbench'}", file=sys.stderr)
        return 1
    matrix: Counter[tuple[str, str]] = Counter()
    oracle_flagged = 0
    items = 0
    started = time.perf_counter()
    for shard in shards:
        bug_type = shard.stem.split("_", 1)[1]
        label = MAJOR_BY_BUG_TYPE[bug_type]
        for item in json.loads(shard.read_text(encoding="utf-8")):
            items += 1
            matrix[(label, classify(item["buggy_code"]))] += 1
            oracle_flagged += classify(item["oracle_code"]) != "logic"
    elapsed = time.perf_counter() - started

    width = max(len(c) for c in CLASSES) + 2
    print(f"DebugBench Python: {items} items from {len(shards)} shards (rows: label, columns: prediction)")
    print(" " * width + "".join(c.rjust(width) for c in CLASSES) + "total".rjust(width))
    for label in CLASSES:
        row = [matrix[(label, p)] for p in CLASSES]
        print(label.ljust(width) + "".join(str(n).rjust(width) for n in row) + str(sum(row)).rjust(width))
    print()
    for cls in CLASSES:
        predicted = sum(matrix[(label, cls)] for label in CLASSES)
        actual = sum(matrix[(cls, p)] for p in CLASSES)
        precision = matrix[(cls, cls)] / predicted if predicted else 0.0
        recall = matrix[(cls, cls)] / actual if actual else 0.0
        print(f"{cls:<10} precision {precision:6.1%}  recall {recall:6.1%}")
    accuracy = sum(matrix[(c, c)] for c in CLASSES) / items
    print(f"\naccuracy {accuracy:.1%}")
    print(f"oracle programs flagged with a syntax/reference error: {oracle_flagged} of {items}")
    print(f"time: {elapsed:.1f} s for {2 * items} programs ({1000 * elapsed / (2 * items):.1f} ms each)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
