"""Runner overhead: 10,000 trivial items through the full runner versus a bare loop doing the same work.

The solver returns its input and the scorer returns 1.0, so what is measured is the runner itself: scheduling with
bounded concurrency, the thread hop for plain (non-async) functions, validation, one appended and flushed JSON line
per item, the manifest and the summary. The baseline calls the same solver and scorer in a plain loop and writes the
same JSON lines to a file with the same per-line flush. The HTML report (matplotlib) is a fixed cost per run, not
per item, and is timed separately.

Target: under 1 ms of runner time per item. Exits 1 if missed.

    python bench/runner_overhead.py [--items N] [--concurrency C]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from debugtutor.runs import EvalItem, EvalTask, SampleRecord, Timings, input_hash, run_task
from debugtutor.runs._records import encode_record

TARGET_MS_PER_ITEM = 1.0


def solve(item: EvalItem) -> object:
    return item.input


def score(item: EvalItem, output: object) -> float:
    return 1.0


def baseline(items: list[EvalItem], path: Path) -> float:
    """A bare loop: call solver and scorer, write the same record line, flush it to the OS, per item."""
    started = time.perf_counter()
    with open(path, "ab", buffering=0) as handle:
        for item in items:
            solve_started = time.perf_counter()
            output = solve(item)
            score_started = time.perf_counter()
            value = score(item, output)
            record = SampleRecord(
                id=item.id,
                input_hash=input_hash(item.input),
                output=output,
                scores={"score": value},
                timings=Timings(solve_s=score_started - solve_started, score_s=time.perf_counter() - score_started),
            )
            handle.write(encode_record(record))
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--concurrency", type=int, default=8)
    args = parser.parse_args(argv)
    items = [EvalItem(id=f"item-{n:06d}", input={"n": n, "text": f"print({n})"}) for n in range(args.items)]

    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        base_s = baseline(items, root / "baseline.jsonl")
        results = {}
        for executor in ("thread", "inline"):
            task = EvalTask(name="overhead", items=items, solver=solve, scorer=score, executor=executor)
            started = time.perf_counter()
            result = run_task(task, runs_dir=root / executor, concurrency=args.concurrency, argv=[])
            results[executor] = time.perf_counter() - started
            lines = (result.run_dir / "samples.jsonl").read_bytes().count(b"\n")
            if lines != args.items or result.summary["metrics"]["score"]["mean"] != 1.0:
                print(f"error: the {executor} run recorded {lines} lines", file=sys.stderr)
                return 1
        report_started = time.perf_counter()
        from debugtutor.report import write_report

        write_report(result.run_dir)
        report_s = time.perf_counter() - report_started

    base_ms = base_s * 1000 / args.items
    figures = {
        "items": args.items,
        "concurrency": args.concurrency,
        "baseline_ms_per_item": round(base_ms, 4),
        "report_s": round(report_s, 3),
    }
    print(f"{'':28}{'ms/item':>10}{'x baseline':>12}")
    print(f"{'baseline (bare loop)':28}{base_ms:>10.4f}{1.0:>12.2f}")
    for executor, seconds in results.items():
        ms = seconds * 1000 / args.items
        figures[f"runner_{executor}_ms_per_item"] = round(ms, 4)
        figures[f"runner_{executor}_ratio"] = round(ms / base_ms, 2)
        print(f"{f'runner, sync solver, {executor}':28}{ms:>10.4f}{ms / base_ms:>12.2f}")
    print(f"report.html for {args.items} items: {report_s:.2f} s (once per run)")
    print(json.dumps(figures))
    worst = max(seconds * 1000 / args.items for seconds in results.values())
    if worst >= TARGET_MS_PER_ITEM:
        print(f"FAIL: {worst:.3f} ms per item, target below {TARGET_MS_PER_ITEM} ms", file=sys.stderr)
        return 1
    print(f"OK: below the {TARGET_MS_PER_ITEM} ms per item target")
    return 0


if __name__ == "__main__":
    sys.exit(main())
