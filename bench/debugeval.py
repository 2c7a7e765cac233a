"""DebugEval arena: build time, and the offline solver's accuracy on Python instances beside DebugEval's Table IV.

Builds DebugBench instances (all languages, all four tasks) and Socratic Code Repair instances from ``../shared/data``
into a temporary folder, then evaluates the offline solver on every Python instance through the runner and prints one
JSON object: build seconds, evaluation seconds, accuracy per task, Socratic Code Repair pass@1, and the best published
Python numbers. Exits 1 when a time target is missed.

    python bench/debugeval.py [--data ../shared/data] [--build-target 60] [--eval-target 300]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from debugtutor.debugeval.build import BuildSettings, build_from_debugbench, write_build
from debugtutor.debugeval.debugbench import load_debugbench
from debugtutor.debugeval.offline import OfflineSolver
from debugtutor.debugeval.records import TASKS, TaskName, load_records, write_records
from debugtutor.debugeval.socratic_bugs import keep_failing, read_socratic_bugs
from debugtutor.debugeval.tasks import TABLE_IV, build_eval_task, build_items
from debugtutor.runs import run_task

REPO = Path(__file__).resolve().parents[1]


def evaluate(folder: Path, runs: Path, tasks: list[TaskName]) -> tuple[dict[str, object], float, int]:
    items = build_items(load_records(folder), tasks=tasks, languages=["python"])
    task = build_eval_task(items, OfflineSolver().answer, solver_name="offline", tasks=tasks, data=folder)
    started = time.perf_counter()
    result = run_task(task, runs_dir=runs, concurrency=8, argv=["bench/debugeval.py"])
    return result.summary.get("task_metrics", {}), time.perf_counter() - started, len(items)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    parser.add_argument("--build-target", type=float, default=60.0)
    parser.add_argument("--eval-target", type=float, default=300.0)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        started = time.perf_counter()
        task124, task3, report = build_from_debugbench(load_debugbench(args.data / "debugbench"), BuildSettings())
        write_build(root / "debugbench", task124, task3, report)
        socratic, dropped = keep_failing(read_socratic_bugs(args.data / "socratic"))
        write_records(root / "socratic" / "debugevalsuite_task3.jsonl", socratic)
        build_s = time.perf_counter() - started

        metrics, eval_s, count = evaluate(root / "debugbench", root / "runs", list(TASKS))
        socratic_metrics, socratic_s, socratic_count = evaluate(root / "socratic", root / "runs", ["code-repair"])

    accuracy = metrics.get("accuracy", {})
    assert isinstance(accuracy, dict)
    result = {
        "build_seconds": round(build_s, 1),
        "build_counts": report.counts,
        "socratic_repair_instances": len(socratic),
        "socratic_dropped_passing": dropped,
        "python_instances": count,
        "eval_seconds": round(eval_s, 1),
        "offline_python_accuracy": {task: by.get("python") for task, by in accuracy.items()},
        "identification": metrics.get("identification", {}),
        "socratic_repair_pass@1": socratic_metrics.get("pass_at_k", {}),
        "socratic_instances": socratic_count,
        "socratic_eval_seconds": round(socratic_s, 1),
        "table_iv_python": {task: by["python"] for task, by in TABLE_IV.items()},
    }
    print(json.dumps(result, indent=2))
    return 0 if build_s <= args.build_target and eval_s <= args.eval_target else 1


if __name__ == "__main__":
    sys.exit(main())
