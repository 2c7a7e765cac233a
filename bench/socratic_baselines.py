"""Benchmark of a Socratic instructor beside the two reference baselines, and its leak rate under the leak guard.

Either runs the offline instructor over a folder through the runner (a fresh run in a temporary runs folder), or
re-scores the predictions recorded by an earlier run (``--run RUN_DIR``: any run's ``samples.jsonl``, also one made
before the baselines existed). Prints, per metric, the instructor's F1, the constant baseline's (three generic
questions every turn), the mismatched baseline's (the instructor's predictions against another problem's
references), the margins with paired 95% intervals, and the share of predicted utterances the leak guard flags.

The offline instructor does not filter its candidates with the leak guard (it has its own check that it quotes only
code the student can see, :mod:`debugtutor.socratic.questioner`), so the leak rate here is measured by a check it does
not filter against.

    python bench/socratic_baselines.py [--data DIR] [--run RUN_DIR] [--metrics rougeL,bleu4] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from debugtutor.runs import SAMPLES_FILE, run_task
from debugtutor.socratic.evaluation import (
    build_eval_task,
    load_examples,
    parse_metric_names,
    read_predictions,
    score_predictions,
)
from debugtutor.socratic.instructors import get_instructor

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO_ROOT.parent / "shared" / "data" / "socratic" / "v2_sigcse" / "train"


def _cell(interval: dict[str, Any] | None) -> str:
    if not interval:
        return "n/a"
    return f"{interval['mean'] * 100:6.2f} [{interval['low'] * 100:6.2f}, {interval['high'] * 100:6.2f}]"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--run", type=Path, help="re-score this run's samples.jsonl instead of running the instructor")
    parser.add_argument("--metrics", default="rougeL,bleu4")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    metrics = parse_metric_names(args.metrics)

    started = time.perf_counter()
    examples = load_examples(args.data)
    if args.run is not None:
        source = str(args.run)
        predictions = read_predictions(args.run / SAMPLES_FILE, {e.id for e in examples})
        result = score_predictions(examples, predictions, metrics)
    else:
        source = "offline instructor, fresh run"
        with tempfile.TemporaryDirectory() as runs_dir:
            task = build_eval_task(examples, get_instructor("offline"), metrics=metrics, data=args.data)
            run = run_task(task, runs_dir=Path(runs_dir))
            result = dict(run.summary["task_metrics"])
    seconds = time.perf_counter() - started
    report: dict[str, Any] = {
        "data": str(args.data),
        "source": source,
        "examples": result["examples"],
        "seconds": round(seconds, 1),
        "leak_rate": result["leak_rate"],
        "leaked_utterances": result["leaked_utterances"],
        "utterances": result["utterances"],
        "scores": {
            name: {
                "instructor": result[name]["f1"],
                **{b: (result["baselines"].get(b) or {}).get(name, {}).get("f1") for b in result["baselines"]},
                **{f"margin_over_{b}": m for b, m in result["margins"].get(name, {}).items()},
            }
            for name in metrics
        },
    }
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{report['examples']} examples of {args.data} ({source}), {report['seconds']} s")
    print("F1 % [95% CI]; margins are paired bootstrap intervals of per-example differences")
    for name, row in report["scores"].items():
        for key, interval in row.items():
            print(f"  {name:8} {key:22} {_cell(interval)}")
    checker = "the current leak guard" if args.run is not None else "the leak guard, which the instructor does not call"
    print(
        f"leak rate under {checker}: {report['leak_rate'] * 100:.2f}% "
        f"({report['leaked_utterances']} of {report['utterances']} utterances)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
