"""Code Repair pass@1 in C++ and Java with every item counted, on the GPT fixes LeetCode judged.

Builds Code Repair instances for a seeded sample of problems (``--problems`` per language, C++ and Java), answers each
with the fix GPT-4 (``--model``) wrote for that instance's buggy program (``../shared/data/debugbench_llm_fixes``),
scores the answers through the runner and prints one JSON object per language:

* ``pass@1``: the runner's summary (every item in the denominator: a fix that cannot be called fails, an item whose
  grading errored counts as 0 and is listed under ``errors``);
* ``pass@1 over scored items only``: what a summary that leaves errored items out would report;
* ``LeetCode accepted``: the share of the same fixes LeetCode's own judge accepted (the reference our tests should
  approach), and ``buggy code unchanged`` (0 by construction: an instance is kept only when its buggy code fails).

Items whose buggy program has no GPT fix in the file are left out of the sample before scoring (they have no answer),
never after. Runs as it stands on older versions of the package too (the solver adapts), for before/after figures.

    python bench/debugeval_repair.py [--problems 40] [--seed 0] [--model gpt-4]
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from debugtutor.debugeval.build import BuildReport, BuildSettings, _build_repairs
from debugtutor.debugeval.debugbench import load_debugbench
from debugtutor.debugeval.records import normalize_language
from debugtutor.debugeval.tasks import build_eval_task, build_items
from debugtutor.runs import run_task

REPO = Path(__file__).resolve().parents[1]


def load_fixes(path: Path, model: str) -> dict[tuple[str, str], dict[str, Any]]:
    """(language, buggy code) -> the model's fix row (its code and LeetCode's verdict)."""
    fixes: dict[tuple[str, str], dict[str, Any]] = {}
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            if row["model"] == model:
                fixes.setdefault((normalize_language(row["shard"].split("_", 1)[0]), row["buggy_code"]), row)
    return fixes


def replay_solver(fixes: dict[tuple[str, str], dict[str, Any]]) -> Any:
    """A solver answering each Code Repair prompt with the recorded fix; it takes a view (this version) or an item
    (versions before views), whichever the package hands it."""
    view_answer: Any = None  # (None in a version before views)
    try:
        from debugtutor.debugeval.views import ViewAnswer

        view_answer = ViewAnswer
    except ImportError:
        pass

    async def answer(given: Any) -> Any:
        if hasattr(given, "code"):  # a TaskView
            language, code = given.language, given.code
        else:
            record = given.input["record"]
            language, code = record["language"], record["buggy_code"]
        text = f"```code\n{fixes[(language, code)]['fixed_code']}\n```"
        return view_answer(responses=[text]) if view_answer is not None else {"responses": [text]}

    return answer


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    parser.add_argument("--problems", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--model", default="gpt-4")
    args = parser.parse_args()

    started = time.perf_counter()
    fixes = load_fixes(args.data / "debugbench_llm_fixes.jsonl.gz", args.model)
    items = load_debugbench(args.data / "debugbench")
    slugs_with_fix: dict[str, set[str]] = defaultdict(set)
    for item in items:
        if (item.language, item.buggy_code) in fixes:
            slugs_with_fix[item.language].add(item.slug)
    chosen = set()
    for language in ("cpp", "java"):
        candidates = sorted(slugs_with_fix[language])
        random.Random(f"{args.seed}:{language}").shuffle(candidates)
        chosen |= {(language, slug) for slug in candidates[: args.problems]}
    # the instance for a problem is one of its buggy variants: only variants with a fix may be drawn
    chosen_slugs = {slug for _, slug in chosen}
    pool = [
        item
        for item in items
        if (item.language == "python" and item.slug in chosen_slugs)  # their oracles may give the expected answers
        or ((item.language, item.slug) in chosen and (item.language, item.buggy_code) in fixes)
    ]
    report = BuildReport()
    records = _build_repairs(pool, BuildSettings(seed=args.seed, repair_languages=("cpp", "java")), report)
    build_s = time.perf_counter() - started
    task_items = build_items(records, tasks=["code-repair"], languages=["cpp", "java"])
    task = build_eval_task(task_items, replay_solver(fixes), solver_name="llm", tasks=["code-repair"], data=None)
    with tempfile.TemporaryDirectory() as runs:
        result = run_task(task, runs_dir=Path(runs), concurrency=2, argv=["bench/debugeval_repair.py"])
        samples = [json.loads(line) for line in (result.run_dir / "samples.jsonl").read_text().splitlines()]
    metrics = result.summary.get("task_metrics", {})
    by_id = {sample["id"]: sample for sample in samples}
    out: dict[str, Any] = {}
    for language in ("cpp", "java"):
        here = [item for item in task_items if item.metadata["language"] == language]
        scored = [by_id[item.id] for item in here if by_id.get(item.id, {}).get("error") is None]
        accepted = [bool(fixes[(language, item.input["record"]["buggy_code"])]["leetcode_pass"]) for item in here]
        out[language] = {
            "items": len(here),
            "pass@1": metrics.get("pass_at_k", {}).get(language, {}).get("pass@1"),
            "pass@1 over scored items only": round(
                100 * sum(float(s["scores"].get("score", 0.0)) for s in scored) / len(scored), 2
            )
            if scored
            else None,
            "errored items": len(here) - len(scored),
            "LeetCode accepted": round(100 * sum(accepted) / len(accepted), 2) if accepted else None,
            "buggy code unchanged": 0.0,
        }
    print(
        json.dumps(
            {
                "model": args.model,
                "problems_per_language": args.problems,
                "seed": args.seed,
                "summary_items": metrics.get("items", {}),
                "summary_errors": metrics.get("errors", {}),
                "by_language": out,
                "dropped": report.dropped,
                "build_seconds": round(build_s, 1),
                "seconds": round(time.perf_counter() - started, 1),
            },
            indent=2,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
