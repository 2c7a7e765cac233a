"""The offline solver on C++ and Java DebugBench instances: accuracy per task beside a trivial baseline and the
published table, repair throughput (batched vs one compile per candidate) and time per repaired bug.

Builds the four DebugEval tasks from ``../shared/data/debugbench`` with problems split by slug (``--train-fraction``,
seed ``--seed``), keeps only the ``test`` split (problems the engine's rules were not tuned on; ``--split train``
measures the development half instead, for working on the rules without looking at the test half; ``--sample-seed``
with ``--exclude-sample`` draws a fresh sample of it, sharing no item with the sample the rules were written on),
draws a seeded sample of ``--per-task`` instances per task and language, and answers each through the same views
and scorer as ``debugtutor debugeval eval --solver offline``. Code Repair instances are built for a seeded sample
of the split's problems only (deriving C++/Java tests compiles every oracle), one bug per problem; a problem whose
bug was measured before (``--exclude``, ``--exclude-sample``) is left out, or with ``--other-bugs`` gives another of
its bugs (once the development half's problems are used up, a fresh sample of fresh bugs of problems already seen).
The test half is split again by problem (``--part``, a hash of the slug alone, see :func:`part_of`): ``dev``
problems may be studied like the development half's (from 2026-12-06, when the development half's problems were all
used up and the rules written on them had stopped telling what carries over), ``held`` problems stay unseen and give
the figures to quote; ``--part all`` measures both, as every run before that date did.

Trivial baselines on the same items:

* Bug Localization, Bug Identification: always the most frequent gold letter of the sample.
* Code Review: the solver's own tie-break alone (a stable coin flip on the two texts, both orders).
* Code Repair: the code returned unchanged (0 by construction: the build keeps only buggy code that fails).

Code Repair's ceiling on the same items (``oracle_passes``): how many items' own correct code passes their tests,
graded like an answer (the tests may come from another language's oracle of the problem).

Each figure also comes for the two halves of its sample in the order it was drawn (``halves``), so that the worse
held-out half can be quoted beside the pooled figure.

``hidden_inputs_probed`` says, per language, how many of the Code Repair items' hidden inputs the repair search also
ran as probes of its own (by chance only: the probes have a seed of their own, see ``PROBE_SEED``).

Items are answered through the one runner (``debugtutor.runs``): each finished item is recorded in the run folder's
``samples.jsonl`` as it ends (``--runs-dir``), and ``--resume RUN`` continues a run that was stopped, running only
the items it has not recorded.

Every figure carries a seeded 95% bootstrap interval. Throughput: for a few sampled repair programs, the first
``--candidates`` candidate edits are verified in one batched job and then one job per candidate, on the same calls.

    python bench/clike_offline.py [--data ../shared/data] [--per-task 24] [--languages cpp,java] [--concurrency 2]
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from debugtutor.analysis.clike.edits import candidate_edits
from debugtutor.analysis.clike.harness import Variant, arun_variants
from debugtutor.analysis.clike.repair import repair_probes
from debugtutor.analysis.examples import example_calls, example_method, stated_calls
from debugtutor.debugeval.baselines import baseline_scores
from debugtutor.debugeval.build import BuildSettings, build_from_debugbench, split_of
from debugtutor.debugeval.debugbench import DebugBenchItem, load_debugbench
from debugtutor.debugeval.offline import OfflineSolver
from debugtutor.debugeval.offline_compiled import (
    COMPILED_REPAIR_SAFETY_S,
    REPAIR_CANDIDATES,
    SEARCH_OUT_OF_TIME,
    SEARCH_SPENT,
)
from debugtutor.debugeval.records import DebugEvalRecord, TaskName
from debugtutor.debugeval.scoring import passes_tests
from debugtutor.debugeval.tasks import TABLE_IV, build_eval_task, build_items
from debugtutor.metrics.stats import bootstrap_mean
from debugtutor.runs import SAMPLES_FILE, EvalItem, default_runs_dir, new_run_id, read_samples, run_task

REPO = Path(__file__).resolve().parents[1]
TASK_ORDER: list[TaskName] = ["bug-localization", "bug-identification", "code-review", "code-repair"]
# The best published model per task and language (DebugEval Table IV).
PUBLISHED = {
    task: {language: max(TABLE_IV[task][language].values()) for language in ("cpp", "java")} for task in TASK_ORDER
}
TARGETS = {"bug-localization": 90.0, "bug-identification": 65.0, "code-review": 95.0, "code-repair": 68.0}


PART_SALT = "split2"


def part_of(slug: str) -> str:
    """``dev`` or ``held``: the part of the test half a problem falls in (a hash of the slug alone, even or odd)."""
    return "dev" if int(hashlib.sha256(f"{PART_SALT}:{slug}".encode()).hexdigest(), 16) % 2 == 0 else "held"


def in_part(args: argparse.Namespace, slug: str) -> bool:
    """Whether a problem of the measured split belongs to the ``--part`` asked for (every one of the train split)."""
    return args.split != "test" or args.part == "all" or part_of(slug) == args.part


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def interval(values: list[float]) -> dict[str, float | int]:
    found = bootstrap_mean(values, seed=0)
    return {"percent": round(100 * found.mean, 1), "low": round(100 * found.low, 1),
            "high": round(100 * found.high, 1), "n": found.n}  # fmt: skip


def answer_summary(item: EvalItem, output: object) -> str:
    """What the solver answered, short: the letter chosen (and the gold one), or whether a repair changed the code."""
    if not isinstance(output, dict):
        return "no answer"
    response = str(output.get("prefill", "")) + "".join(str(r) for r in output.get("responses", [])[:1])
    if item.input["task"] == "code-repair":
        buggy = item.input["record"]["buggy_code"].strip()
        return "unchanged" if not response.strip() or buggy in response else "changed"
    if item.input["task"] == "code-review":
        return f"forward {str(output.get('forward'))[:20]!r} reverse {str(output.get('reverse'))[:20]!r}"
    return f"{response.strip()[:24]!r} gold {item.target!r}"


def search_spent(output: Any) -> str:
    """What the item's repair search spent, as the solver's evidence says (empty when no search ran)."""
    evidence = str(output.get("evidence", "")) if isinstance(output, dict) else ""
    spent = [line for line in evidence.splitlines() if line.startswith(f"- {SEARCH_SPENT}")]
    return spent[0].removeprefix(f"- {SEARCH_SPENT}").strip() if spent else ""


def solve(items: list[EvalItem], solver: OfflineSolver, args: argparse.Namespace) -> tuple[Path, list[dict[str, Any]]]:
    """Answer and score every item through the one runner, so each finished item is on disk at once
    (``samples.jsonl``) and ``--resume`` continues a run that was stopped; the rows are read back from the records."""
    tasks = sorted({item.input["task"] for item in items}, key=TASK_ORDER.index)
    settings = {key: str(value) for key, value in vars(args).items() if key not in ("resume", "runs_dir")}
    task = build_eval_task(items, solver.answer, solver_name="offline", tasks=tasks, data=args.data,
                           config={"bench": "clike_offline", **settings})  # fmt: skip
    run_id = None if args.resume is not None else new_run_id()
    try:
        result = run_task(task, runs_dir=args.runs_dir, run_id=run_id, resume=args.resume, concurrency=args.concurrency)
    except KeyboardInterrupt:
        where = args.resume if run_id is None else (args.runs_dir or default_runs_dir()) / run_id
        log(f"stopped; the items answered so far are recorded: continue with the same arguments and --resume {where}")
        raise SystemExit(130) from None
    by_id = {item.id: item for item in items}
    records = {record.id: record for record in read_samples(result.run_dir / SAMPLES_FILE).records}
    rows = []
    for record in records.values():
        item = by_id.get(record.id)
        if item is None:
            continue
        error = f"{record.error.type}: {record.error.message}"[:300] if record.error is not None else None
        score = float(record.scores.get("score", 0.0)) if error is None else 0.0  # an item that errors scores 0
        seconds = (record.timings.solve_s or 0.0) + (record.timings.score_s or 0.0)
        rows.append({"id": item.id, "task": item.input["task"], "language": item.metadata["language"],
                     "minor": item.input["record"].get("minor_error_type"), "score": score,
                     "seconds": round(seconds, 2), "error": error, "answer": answer_summary(item, record.output),
                     "reason": str(record.scores.get("reason", "")),
                     "search": search_spent(record.output)})  # fmt: skip
    return result.run_dir, rows


async def throughput(records: list[DebugEvalRecord], programs: int, candidates: int) -> dict[str, Any]:
    """Candidates verified per second: one batched job vs one job per candidate (same calls, same candidates)."""
    rows = []
    chosen = [r for language in ("cpp", "java") for r in [x for x in records if x.language == language][:programs]]
    for record in chosen:
        language = record.language
        code = record.buggy_code
        calls = [c for c in example_calls(record.examples, code, language) if c.expected is not None]
        if not calls:
            continue
        method = example_method(record.examples, code, language)
        sources = list(dict.fromkeys(edit.source for edit in candidate_edits(code, language)))[:candidates]  # type: ignore[arg-type]
        options = {"method": method, "signature_source": code, "per_test_s": 1.0, "deadline_s": 300.0}
        started = time.perf_counter()
        batch = await arun_variants(language, [Variant(s) for s in sources], calls, **options)  # type: ignore[arg-type]
        batched_s = time.perf_counter() - started
        started = time.perf_counter()
        single = [await arun_variants(language, [Variant(s)], calls, **options) for s in sources]  # type: ignore[arg-type]
        single_s = time.perf_counter() - started
        same = sum(b.passed == s.variants[0].passed for b, s in zip(batch.variants, single))
        rows.append({"language": language, "candidates": len(sources), "batched_s": round(batched_s, 2),
                     "one_at_a_time_s": round(single_s, 2), "batched_per_s": round(len(sources) / batched_s, 2),
                     "one_at_a_time_per_s": round(len(sources) / single_s, 2),
                     "ratio": round(single_s / batched_s, 2), "verdicts_agree": f"{same}/{len(sources)}"})  # fmt: skip
        log(f"throughput {rows[-1]}")
    return {"programs": rows}


def probes_among_hidden_tests(records: list[DebugEvalRecord]) -> dict[str, str]:
    """Per language: how many of the Code Repair items' hidden inputs (beyond the stated examples) are also inputs the
    repair search perturbed for itself. The search may only meet one by chance: it must not be drawing the inputs
    the tests were derived from."""
    counts: dict[str, list[int]] = {}
    for record in records:
        stated, _ = stated_calls(record.examples, record.buggy_code, record.language)
        shown = {json.dumps(call.args, sort_keys=True) for call in stated}
        probed = {json.dumps(call.args, sort_keys=True) for call in repair_probes(stated)}
        hidden = {json.dumps(call.args, sort_keys=True) for call in record.leetcode_calls} - shown
        count = counts.setdefault(record.language, [0, 0])
        count[0] += len(hidden & probed)
        count[1] += len(hidden)
    return {language: f"{met}/{total}" for language, (met, total) in sorted(counts.items())}


async def oracle_ceiling(records: list[DebugEvalRecord]) -> dict[str, str]:
    """Per language: how many Code Repair items' own correct code passes the item's tests, graded as an answer is.
    The tests come from any language's oracle of the problem, so a language's oracle may fail them (an answer the
    harness cannot read back, a judge the problem needs): such an item is a miss for every solver, and the count is
    the most a solver can score on the sample."""
    counts: dict[str, list[int]] = {}
    for record in records:
        count = counts.setdefault(record.language, [0, 0])
        count[0] += int(await passes_tests(record, record.correct_code))
        count[1] += 1
    return {language: f"{passed}/{total}" for language, (passed, total) in sorted(counts.items())}


def summarize(items_by: dict[tuple[TaskName, str], list[EvalItem]], rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per task and language: the solver and the baseline with intervals, time per item, per-minor-type counts."""
    results: dict[str, Any] = {}
    for (task, language), items in sorted(items_by.items()):
        ids = {item.id for item in items}
        mine = [row for row in rows if row["id"] in ids]
        seconds = sorted(row["seconds"] for row in mine)
        entry: dict[str, Any] = {
            "offline": interval([row["score"] for row in mine]),
            "baseline": interval(baseline_scores(task, items)),
            "target": TARGETS[task],
            "published_best": PUBLISHED[task].get(language),
            "errors": sum(1 for row in mine if row["error"]),
            # searches that stopped at the time net rather than their count: answers that may differ by machine
            "searches_out_of_time": sum(1 for row in mine if row.get("search", "").endswith(SEARCH_OUT_OF_TIME)),
            "seconds_per_item": {
                "median": round(statistics.median(seconds), 1) if seconds else None,
                "max": seconds[-1] if seconds else None,
            },
            "per_minor": {
                minor: f"{sum(r['score'] for r in mine if r['minor'] == minor):.0f}/"
                f"{sum(1 for r in mine if r['minor'] == minor)}"
                for minor in sorted({str(r["minor"]) for r in mine})
            },
        }
        if task == "code-repair":
            fixed = sorted(row["seconds"] for row in mine if row["score"] > 0)
            entry["seconds_per_repaired_bug"] = {
                "median": round(statistics.median(fixed), 1) if fixed else None,
                "p90": round(fixed[min(len(fixed) - 1, int(0.9 * len(fixed)))], 1) if fixed else None,
                "repaired": len(fixed),
            }
        if mine and all("draw" in row for row in mine):
            # the sample's two halves in the order it was drawn: the worse one is a held-out case to quote
            ordered = [row["score"] for row in sorted(mine, key=lambda row: row["draw"])]
            halves = [ordered[: len(ordered) // 2], ordered[len(ordered) // 2 :]]
            entry["halves"] = [round(100 * sum(half) / len(half), 1) for half in halves if half]
        results[f"{task} {language}"] = entry
    return results


def pooled(outputs: list[Path], task124: list[DebugEvalRecord]) -> int:
    """The table over the items of several runs (the gold answers and baselines from the same build)."""
    rows = [row for path in outputs for row in json.loads(path.read_text(encoding="utf-8"))["items"]]
    known = {item.id: item for item in build_items(task124, split="test")}
    items_by: dict[tuple[TaskName, str], list[EvalItem]] = {}
    for row in rows:
        # Code Repair's baseline (the code unchanged) scores 0 whatever the item; its record is not rebuilt here
        item = known.get(row["id"]) or EvalItem(id=row["id"], input={"task": row["task"]}, target=None)
        items_by.setdefault((row["task"], row["language"]), []).append(item)
    print(json.dumps({"runs": [str(path) for path in outputs], "results": summarize(items_by, rows)}))
    return 0


def select(
    args: argparse.Namespace,
    pool: list[DebugBenchItem],
    task124: list[DebugEvalRecord],
    sample_seed: int,
    measured: set[str],
) -> tuple[dict[tuple[TaskName, str], list[EvalItem]], list[DebugEvalRecord]]:
    """The items of each task and language (drawn with ``sample_seed``, leaving out ``measured``), and the Code
    Repair records behind them."""
    languages = [name for name in args.languages.split(",") if name]
    tasks: list[TaskName] = [name for name in args.tasks.split(",") if name]
    items_by: dict[tuple[TaskName, str], list[EvalItem]] = {}
    rng = random.Random(sample_seed)
    in_part_records = [record for record in task124 if in_part(args, record.slug)]
    for language in languages:
        # every task's draw moves the generator, chosen or not: a run of some tasks measures the same items of them
        # as a run of all
        for task in TASK_ORDER:
            if task == "code-repair":
                continue
            found = build_items(in_part_records, tasks=[task], languages=[language], split=args.split)
            rng.shuffle(found)
            if task in tasks:
                items_by[(task, language)] = [item for item in found if item.id not in measured][: args.per_task]
    repair_records: list[DebugEvalRecord] = []
    if "code-repair" in tasks:
        for language in languages:
            slugs = sorted({i.slug for i in pool if i.language == language and i.examples
                            and split_of(i.slug, args.seed, args.train_fraction) == args.split
                            and in_part(args, i.slug)})  # fmt: skip
            rng.shuffle(slugs)
            # more problems than needed: some give no deterministic tests or no failing buggy variant
            chosen = set(slugs[: args.per_task * (4 if measured else 2)])
            repair_settings = BuildSettings(
                seed=args.seed,
                train_fraction=args.train_fraction,
                repair_languages=(language,),
                tests_cache=args.tests_cache,
                workers=2,
            )
            subset = [i for i in pool if i.slug in chosen]
            if args.other_bugs:
                # a problem whose sampled bug was measured before offers another of its bugs (fresh bug, seen problem)
                subset = [i for i in subset if f"code-repair:{i.uid}" not in measured]
            _, built, _ = build_from_debugbench(subset, repair_settings)
            built = [
                r
                for r in built
                if r.language == language and r.split == args.split and f"code-repair:{r.question_id}" not in measured
            ]
            rng.shuffle(built)
            repair_records += built[: args.per_task]
            items = build_items(built[: args.per_task], tasks=["code-repair"], languages=[language], split=args.split)
            items_by[("code-repair", language)] = items
    return items_by, repair_records


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    parser.add_argument("--languages", default="cpp,java")
    parser.add_argument("--tasks", default=",".join(TASK_ORDER))
    parser.add_argument("--per-task", type=int, default=24)
    parser.add_argument("--seed", type=int, default=0, help="the train/test split by problem, and the sample")
    parser.add_argument(
        "--sample-seed",
        type=int,
        default=None,
        help="draw the sample with this seed instead (same split): a fresh sample of the development half, items the "
        "rules were not written on",
    )
    parser.add_argument("--train-fraction", type=float, default=0.5)
    parser.add_argument(
        "--part",
        choices=["held", "dev", "all"],
        default="held",
        help="the test half's problems to measure: held (never studied; the figures to quote), dev (studied from "
        "2026-12-06), all (both, as every run before then)",
    )
    parser.add_argument(
        "--split", choices=("test", "train"), default="test", help="test: held-out half; train: development half"
    )
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument(
        "--runs-dir",
        type=Path,
        default=None,
        help="where the run's records go (default: the runner's, $DEBUGTUTOR_RUNS_DIR or ./runs)",
    )
    parser.add_argument(
        "--resume",
        default=None,
        help="an earlier run of this bench (id, path or 'latest') stopped before its end: its recorded items are "
        "kept and only the rest run (same arguments otherwise)",
    )
    parser.add_argument(
        "--repair-candidates",
        type=int,
        default=REPAIR_CANDIDATES,
        help="the compiled repair search's budget: programs verified per repair search",
    )
    parser.add_argument(
        "--repair-seconds",
        type=float,
        default=COMPILED_REPAIR_SAFETY_S,
        help="the compiled repair search's time limit, a safety net (a row whose search hit it says so)",
    )
    parser.add_argument("--tests-cache", type=Path, default=None, help="derived Code Repair tests, kept between runs")
    parser.add_argument("--throughput-programs", type=int, default=2)
    parser.add_argument("--candidates", type=int, default=16)
    parser.add_argument(
        "--summarize", type=Path, nargs="+", default=None, help="earlier runs' JSON outputs: pool their items, run none"
    )
    parser.add_argument(
        "--exclude-sample",
        type=int,
        default=None,
        help="leave out the items the sample of this seed holds (with --sample-seed: a sample that shares no item)",
    )
    parser.add_argument(
        "--exclude", type=Path, default=None, help="an earlier run's JSON output: leave out the items it measured"
    )
    parser.add_argument(
        "--other-bugs",
        action="store_true",
        help="Code Repair: a problem whose bug was excluded offers another of its bugs (for a fresh development "
        "sample once the half's problems are used up); without it an excluded problem is left out",
    )
    args = parser.parse_args()
    measured: set[str] = set()
    if args.exclude is not None:
        measured = {row["id"] for row in json.loads(args.exclude.read_text(encoding="utf-8"))["items"]}

    started = time.perf_counter()
    pool = list(load_debugbench(args.data / "debugbench"))
    settings = BuildSettings(seed=args.seed, train_fraction=args.train_fraction)
    task124, _, _ = build_from_debugbench(pool, settings)
    if args.summarize:
        return pooled(args.summarize, task124)
    if args.exclude_sample is not None:
        earlier, _ = select(args, pool, task124, args.exclude_sample, measured)
        measured |= {item.id for found in earlier.values() for item in found}
    sample_seed = args.seed if args.sample_seed is None else args.sample_seed
    items_by, repair_records = select(args, pool, task124, sample_seed, measured)
    build_s = time.perf_counter() - started
    log(f"built in {build_s:.0f}s: " + ", ".join(f"{t} {lang_}: {len(v)}" for (t, lang_), v in items_by.items()))
    empty = [f"{task} {language}" for (task, language), found in items_by.items() if not found]
    if empty:
        log(f"no items left to measure for {', '.join(empty)}: every {args.split} item of it is excluded "
            "(--exclude, --exclude-sample); measure the other split or drop an exclusion")  # fmt: skip
        return 2

    solver = OfflineSolver(
        compiled_repair_seconds=args.repair_seconds, compiled_repair_candidates=args.repair_candidates
    )
    everything = [item for key in sorted(items_by) for item in items_by[key]]
    started = time.perf_counter()
    run_dir, rows = solve(everything, solver, args)
    eval_s = time.perf_counter() - started
    drawn = {item.id: place for found in items_by.values() for place, item in enumerate(found)}
    for row in rows:
        row["draw"] = drawn[row["id"]]

    results = summarize(items_by, rows)
    speed = asyncio.run(throughput(repair_records or [], args.throughput_programs, args.candidates))
    ceiling = asyncio.run(oracle_ceiling(repair_records))
    for language, passed in ceiling.items():
        if f"code-repair {language}" in results:
            results[f"code-repair {language}"]["oracle_passes"] = passed
    log(f"Code Repair items whose own correct code passes their tests: {ceiling}")
    probed = probes_among_hidden_tests(repair_records)
    log(f"hidden repair inputs the search also probed (by chance only): {probed}")
    print(json.dumps({"settings": {k: str(v) for k, v in vars(args).items()}, "run": str(run_dir),
                      "build_s": round(build_s, 1),
                      "eval_s": round(eval_s, 1), "results": results, "throughput": speed,
                      "hidden_inputs_probed": probed,
                      "items": rows}))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
