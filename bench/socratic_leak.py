"""Benchmark of the Socratic leak guard: precision and recall on our labelled sentences, false alarms on the
benchmark's own instructor utterances.

Two labelled files (tests/socratic/data): a development part, used while tuning the guard, and a held-apart part,
written at the same time and never tuned on. Each is scored three ways, by what the guard is told about the fix: the
fixed program and the benchmark-style prose (both), the fixed program only (what ``socratic leak-check`` gets), the
prose only (what the benchmark's files give, as in ``socratic eval``). The benchmark's instructor utterances are
sentences that do not leak; they are split in two halves by a fixed hash of the problem id, so the half used while
tuning and the held-apart half are reported apart too. A trivial baseline sits beside the guard: flag every sentence
(precision = the share of leaks, recall 1).

    python bench/socratic_leak.py [--data DIR] [--show-errors] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from debugtutor.socratic.dataset import load_dialogues
from debugtutor.socratic.leak_labels import (
    FIX_KNOWLEDGE,
    benchmark_utterances,
    read_labelled_set,
    score_check,
    score_clean_utterances,
)

REPO_ROOT = Path(__file__).resolve().parents[1]
LABELLED = REPO_ROOT / "tests" / "socratic" / "data"
DEFAULT_DATA = REPO_ROOT.parent / "shared" / "data" / "socratic" / "v2_sigcse" / "final_dataset"
PARTS = {"dev": "leak_sentences_dev.txt", "heldout": "leak_sentences_heldout.txt"}


def _percent(value: float) -> str:
    return f"{value * 100:5.1f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="benchmark folder for the clean utterances")
    parser.add_argument("--show-errors", action="store_true", help="list missed leaks and false alarms")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    report: dict[str, Any] = {"labelled": {}, "benchmark_utterances": {}, "data": str(args.data)}
    errors: dict[str, Any] = {}
    for part, file_name in PARTS.items():
        cases = read_labelled_set(LABELLED / file_name)
        report["labelled"][part] = {}
        for fixes in FIX_KNOWLEDGE:
            score = score_check(cases, fixes)
            row = score.as_dict()
            leaks = int(row["leaks"])
            row["flag_everything_precision"] = leaks / int(row["sentences"])
            report["labelled"][part][fixes] = row
            if fixes == "both":
                errors[part] = {"missed": score.missed, "false_alarms": score.false_alarms}
    dialogues = load_dialogues(args.data)
    for part in ("dev", "heldout"):
        clean = score_clean_utterances(benchmark_utterances(dialogues, part))  # type: ignore[arg-type]
        report["benchmark_utterances"][part] = {
            "utterances": clean.sentences,
            "flagged": clean.false_positives,
            "false_positive_rate": clean.false_positive_rate,
        }
        errors[f"benchmark_{part}"] = {"false_alarms": clean.false_alarms}
    report["seconds"] = round(time.perf_counter() - started, 2)
    if args.show_errors:
        report["errors"] = errors
    if args.json:
        print(json.dumps(report))
        return 0
    print("Leak guard on the labelled sentences (precision / recall %, flag-everything precision beside it)")
    print(f"{'part':8} {'fix known as':13} {'n':>4} {'leaks':>5} {'prec':>6} {'recall':>6} {'fpr':>6} {'flag-all':>8}")
    for part, by_fix in report["labelled"].items():
        for fixes, row in by_fix.items():
            print(
                f"{part:8} {fixes:13} {row['sentences']:4d} {row['leaks']:5d} {_percent(row['precision']):>6} "
                f"{_percent(row['recall']):>6} {_percent(row['false_positive_rate']):>6} "
                f"{_percent(row['flag_everything_precision']):>8}"
            )
    print(f"Benchmark instructor utterances flagged (all are Socratic; {args.data}):")
    for part, row in report["benchmark_utterances"].items():
        print(
            f"  {part:8} {row['flagged']} of {row['utterances']} "
            f"({_percent(row['false_positive_rate']).strip()}% false positives)"
        )
    print(f"({report['seconds']} s)")
    if args.show_errors:
        for part, lists in errors.items():
            for kind, sentences in lists.items():
                for sentence in sentences:
                    print(f"[{part} {kind}] {sentence}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
