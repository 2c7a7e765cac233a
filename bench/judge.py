"""The public judge against LeetCode's own verdicts: agreement, false-fail and false-pass rates, ungradable share.

``../shared/data/debugbench_llm_fixes.jsonl.gz`` holds fixes that GPT-4 and GPT-3.5 wrote for DebugBench items, each
with the verdict LeetCode's online judge gave it. Every fix is graded by ``debugeval judge`` (the tests Code Repair
derives from the problem's oracle) and compared with that verdict:

* agreement: share of gradable fixes where our verdict equals LeetCode's;
* false-fail rate: share of the gradable fixes LeetCode accepted that we fail;
* false-pass rate: share of the gradable fixes LeetCode rejected that we pass;
* ungradable share: share of all fixes we could not grade (problem absent from the data, no tests derivable, or an
  answer the problem may accept that no checker can confirm).

Beside them, on the same fixes (those our judge could grade), two simpler judges: ``always pass`` and ``stated
examples only`` (the same run and comparison, on the problem's own examples alone, without the derived inputs).
By default a seeded sample stratified by language, model and LeetCode verdict (``--per-language`` fixes per
language) gives the figures in minutes; ``--full`` grades all (hours on two cores: every C++/Java fix compiles).
Derived tests are cached per problem (``--cache``), so a second run only grades. Prints one JSON object.

    python bench/judge.py [--per-language 200] [--full] [--seed 0] [--cache DIR] [--workers 2] [--details]
                          [--languages python,cpp,java]
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from debugtutor.debugeval.build import BuildSettings
from debugtutor.debugeval.debugbench import load_debugbench
from debugtutor.debugeval.judge import JudgeResult, Prediction, TestsCache, agreement_figures, judge
from debugtutor.debugeval.problem_tests import Grade, ProblemTests, problems_from, same_answer
from debugtutor.debugeval.records import normalize_language
from debugtutor.llm import default_cache_dir
from debugtutor.sandbox import Status

REPO = Path(__file__).resolve().parents[1]


def load_fixes(path: Path) -> list[dict[str, Any]]:
    rows = []
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for number, line in enumerate(handle):
            row = json.loads(line)
            row["id"] = str(number)
            row["language"] = normalize_language(row["shard"].split("_", 1)[0])
            rows.append(row)
    return rows


def stratified_sample(rows: list[dict[str, Any]], per_language: int, seed: int) -> list[dict[str, Any]]:
    """``per_language`` rows of each language, every (model, LeetCode verdict) stratum keeping its share."""
    chosen: list[dict[str, Any]] = []
    for language in sorted({row["language"] for row in rows}):
        here = [row for row in rows if row["language"] == language]
        strata: dict[tuple[str, bool], list[dict[str, Any]]] = defaultdict(list)
        for row in here:
            strata[(row["model"], bool(row["leetcode_pass"]))].append(row)
        count = min(per_language, len(here))
        quotas = {key: count * len(group) / len(here) for key, group in strata.items()}
        taken = {key: int(quota) for key, quota in quotas.items()}
        for key in sorted(quotas, key=lambda k: (-(quotas[k] - taken[k]), k))[: count - sum(taken.values())]:
            taken[key] += 1
        for key in sorted(strata):
            group = list(strata[key])
            random.Random(f"{seed}:{language}:{key}").shuffle(group)
            chosen.extend(group[: taken[key]])
    return chosen


def examples_only(result: JudgeResult, graded: Grade | None, tests: ProblemTests | None) -> str:
    """The verdict from the stated examples alone: the first tests of the same run (the examples come first),
    compared the way the judge compares."""
    if result.verdict == "ungradable" or graded is None or tests is None:
        return result.verdict
    if tests.spec.kind == "design" or graded.report is None:
        return result.verdict  # design tests are the stated examples; no report: the program never ran
    report = graded.report
    count = max(1, tests.example_calls)
    if report.setup_error is not None or len(report.tests) < count:
        return "fail"
    for position, (test, call) in enumerate(zip(report.tests[:count], tests.calls[:count])):
        if test.status != Status.passed or test.actual is None:
            return "fail"
        actual = json.loads(test.actual)
        stated = tests.stated_outputs[position] if position < len(tests.stated_outputs) else None
        depth = tests.spec.unordered_depth
        if not same_answer(actual, call.expected, depth) and not (
            stated is not None and same_answer(actual, stated, depth)
        ):
            return "fail"
    return "pass"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    parser.add_argument("--per-language", type=int, default=200)
    parser.add_argument("--full", action="store_true", help="grade every fix (hours on two cores)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cache", type=Path, default=default_cache_dir() / "judge-tests")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--details", action="store_true", help="list every disagreement")
    parser.add_argument("--languages", default="python,cpp,java", help="comma-separated languages to grade")
    args = parser.parse_args()

    languages = {normalize_language(name) for name in args.languages.split(",") if name.strip()}
    rows = [row for row in load_fixes(args.data / "debugbench_llm_fixes.jsonl.gz") if row["language"] in languages]
    sample = rows if args.full else stratified_sample(rows, args.per_language, args.seed)
    problems = problems_from(load_debugbench(args.data / "debugbench"))
    cache = TestsCache(args.cache)
    predictions = [
        Prediction(id=row["id"], slug=row["slug"], language=row["language"], code=row["fixed_code"]) for row in sample
    ]
    baseline: dict[str, str] = {}

    def record(result: JudgeResult, graded: Grade | None) -> None:
        problem = problems.get((result.language, result.slug))
        cached = None
        if problem is not None:
            key = TestsCache.key(
                problem, extra=judge_settings.repair_extra_tests,
                compiled_extra=judge_settings.compiled_repair_extra_tests, seed=judge_settings.seed,
            )  # fmt: skip
            cached = cache.memory.get(key)
        baseline[result.id] = examples_only(result, graded, cached[0] if cached else None)
        done = len(baseline)
        if done % 50 == 0:
            print(f"graded {done}/{len(predictions)}", file=sys.stderr, flush=True)

    judge_settings = BuildSettings()
    started = time.perf_counter()
    results = judge(predictions, problems, cache=cache, settings=judge_settings, workers=args.workers, on_result=record)
    seconds = time.perf_counter() - started
    truth = {row["id"]: bool(row["leetcode_pass"]) for row in sample}

    def table(verdict_of: dict[str, str]) -> dict[str, Any]:
        out = {"all": agreement_figures([(truth[r.id], verdict_of[r.id]) for r in results])}
        for language in ("python", "cpp", "java"):
            pairs = [(truth[r.id], verdict_of[r.id]) for r in results if r.language == language]
            if pairs:
                out[language] = agreement_figures(pairs)
        return out

    ours: dict[str, str] = {result.id: result.verdict for result in results}
    # the trivial judges are scored on the same fixes: those our judge could grade
    always = {result.id: "pass" if result.verdict != "ungradable" else "ungradable" for result in results}
    report: dict[str, Any] = {
        "sample": "full" if args.full else f"stratified, {args.per_language} per language, seed {args.seed}",
        "languages": sorted(languages),
        "seconds": round(seconds, 1),
        "judge": table(ours),
        "baseline_always_pass": table(always),
        "baseline_stated_examples_only": table(baseline),
        "ungradable_reasons": _reasons([r for r in results if r.verdict == "ungradable"]),
    }
    if args.details:
        report["disagreements"] = [
            {"id": r.id, "language": r.language, "slug": r.slug, "leetcode": truth[r.id], "ours": r.verdict}
            | {"reason": r.reason}
            for r in results
            if r.verdict != "ungradable" and (r.verdict == "pass") != truth[r.id]
        ]
    print(json.dumps(report, indent=2))
    return 0


def _reasons(results: list[JudgeResult]) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for result in results:
        counts[result.reason.split(":")[0][:80]] += 1
    return dict(sorted(counts.items(), key=lambda kv: -kv[1]))


if __name__ == "__main__":
    sys.exit(main())
