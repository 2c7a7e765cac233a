"""Does a solver's answer depend on anything its prompt does not show? The blank and swap checks, on real items.

Builds DebugBench instances (Python, seed 0) and asks the offline solver twice per item: once with the record as
built, once with every field the prompt does not show blanked or changed (gold answer, labels, slug, the record's
copy of the examples, hidden tests, method name, and the correct code outside Code Review). It prints the share of
items whose answer is unchanged (must be 100%). For Code Review it also swaps the buggy and the correct program and
prints the share of items whose two answers flip (must be 100%; an answer tied to a position would not flip).
Runs on older versions of the package too (they hand the solver the item), for before/after figures.

    python bench/debugeval_views.py [--data ../shared/data] [--per-task 60]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

from debugtutor.debugeval.build import BuildSettings, build_from_debugbench
from debugtutor.debugeval.debugbench import load_debugbench
from debugtutor.debugeval.offline import OfflineSolver
from debugtutor.debugeval.records import DebugEvalRecord
from debugtutor.debugeval.tasks import build_items
from debugtutor.runs import EvalItem

REPO = Path(__file__).resolve().parents[1]
TASKS = ("bug-localization", "bug-identification", "code-review")


def blanked(item: EvalItem) -> EvalItem:
    task = item.input["task"]
    record = DebugEvalRecord.model_validate(item.input["record"])
    blank = record.model_copy(
        update={
            "question_id": "blanked", "source": "", "slug": "", "split": "train", "task1_answer": "",
            "task2_choice": "", "task4": "", "major_error_type": "", "minor_error_type": "", "examples": [],
            "leetcode_calls": [], "method": None, "correct_code": record.correct_code if task == "code-review" else "",
        }
    )  # fmt: skip
    return EvalItem(id="blanked", input={"task": task, "record": blank.model_dump(mode="json")})


def swapped(item: EvalItem) -> EvalItem:
    record = DebugEvalRecord.model_validate(item.input["record"])
    swap = record.model_copy(update={"buggy_code": record.correct_code, "correct_code": record.buggy_code})
    return item.model_copy(update={"input": {"task": "code-review", "record": swap.model_dump(mode="json")}})


def answer_of(output: Any) -> Any:
    output = getattr(output, "output", output)  # a SolverOutput, or the bare output of older versions
    if "forward" in output:
        return (output["forward"]["responses"][0], output["reverse"]["responses"][0])
    return output["responses"][0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    parser.add_argument("--per-task", type=int, default=60)
    args = parser.parse_args()

    started = time.perf_counter()
    pool = [item for item in load_debugbench(args.data / "debugbench") if item.language == "python"]
    task124, _, _ = build_from_debugbench(pool, BuildSettings(seed=0, repair_languages=()))
    items = []
    for task in TASKS:
        items += build_items(task124, tasks=[task], languages=["python"])[: args.per_task]  # type: ignore[list-item]
    solver = OfflineSolver()

    async def run(batch: list[EvalItem]) -> list[Any]:
        gate = asyncio.Semaphore(4)

        async def one(item: EvalItem) -> Any:
            async with gate:
                return answer_of(await solver(item))

        return list(await asyncio.gather(*(one(item) for item in batch)))

    original = asyncio.run(run(items))
    blank = asyncio.run(run([blanked(item) for item in items]))
    reviews = [(index, item) for index, item in enumerate(items) if item.input["task"] == "code-review"]
    swap = asyncio.run(run([swapped(item) for _, item in reviews]))
    flips = [
        swap[position] == tuple("Code-B" if a == "Code-A" else "Code-A" for a in original[index])
        for position, (index, _) in enumerate(reviews)
    ]
    unchanged: dict[str, list[bool]] = {}
    for item, first, second in zip(items, original, blank):
        unchanged.setdefault(item.input["task"], []).append(first == second)
    report = {
        "items": len(items),
        "unchanged_when_blanked_percent": {
            task: round(100 * sum(values) / len(values), 2) for task, values in unchanged.items()
        },
        "review_flips_when_swapped_percent": round(100 * sum(flips) / len(flips), 2) if flips else None,
        "review_items": len(flips),
        "seconds": round(time.perf_counter() - started, 1),
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
