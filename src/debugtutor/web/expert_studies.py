"""StudentSyn expert studies (the paper's section 6 and TutorSS): generative ratings and the discriminative pick.

*Generative*: a scenario shows the reference task with the student's attempt and the target task; the candidates are
the top codes of several techniques (one gallery folder each), optionally the student's real attempt (a ceiling) and
the target's solution (a baseline: what a model of a student who makes no mistake would write), all shuffled and
labelled A, B, ... so the rater cannot tell which technique made which. Each candidate gets a score on the 4-point
scale below. Results: the mean per technique (overall, macro-averaged over raters, and per reference task), the
score distribution, and a chi-squared test of independence of technique and score, as the paper's Table 2.

*Discriminative*: an expert sees the observed attempt and ten options on the target task and picks the one this
student wrote (an option with identical code counts too). Results: accuracy per expert and per reference task, the
macro-average over experts (TutorSS measured here, not quoted), beside the chance rate of the same items.
"""

from __future__ import annotations

import csv
import io
import json
import random
import string
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from debugtutor.errors import InputError
from debugtutor.metrics.agreement import chi_squared
from debugtutor.web import studentsyn_files
from debugtutor.web.store import Database, now

GENERATIVE = "generative"
DISCRIMINATIVE = "discriminative"
KINDS = (GENERATIVE, DISCRIMINATIVE)
TRUTH = "student's real attempt (ceiling)"
SOLUTION = "target solution (baseline)"
_MAX_ITEMS = 2000

# The 4-point scale: how well a candidate captures the observed student's behaviour on the target task.
RATING_SCALE: dict[int, tuple[str, str]] = {
    1: ("not this student", "Nothing of the observed behaviour carries over: for example a correct solution, or a "
        "mistake unrelated to the one this student made."),
    2: ("a trace of it", "Something of the student's misconception shows, but most of the attempt is mistakes or "
        "correct parts this student would not produce."),
    3: ("mostly this student", "The misconception is carried over to the target task, with details (extra or "
        "missing blocks) that differ from what this student would most likely write."),
    4: ("exactly this student", "The attempt is what this student would write on the target task: the same "
        "misconception, carried over the way they would apply it."),
}  # fmt: skip


def _insert_study(db: Database, kind: str, name: str, config: dict[str, Any], items: list[dict[str, Any]]) -> int:
    if len(items) > _MAX_ITEMS:
        raise InputError(f"{len(items)} items is more than a study may hold ({_MAX_ITEMS})")
    with db.write() as conn:
        cursor = conn.execute(
            "INSERT INTO studies (kind, name, config, created_at) VALUES (?, ?, ?, ?)",
            (kind, name, json.dumps(config), now()),
        )
        study_id = int(cursor.lastrowid or 0)
        for position, item in enumerate(items):
            conn.execute(
                "INSERT INTO study_items (study_id, position, item_id, payload) VALUES (?, ?, ?, ?)",
                (study_id, position, item["item_id"], json.dumps(item)),
            )
    return study_id


def create_generative(
    db: Database,
    name: str,
    *,
    benchmark: Path,
    galleries: Sequence[Path],
    top_k: int = 1,
    include_truth: bool = True,
    include_solution: bool = True,
    seed: int = 0,
) -> int:
    name = " ".join(name.split())
    if not name:
        raise InputError("the study needs a name", field="name")
    if not galleries:
        raise InputError("name at least one gallery folder (one per technique)", field="galleries")
    if top_k < 1:
        raise InputError("rate at least the top code of each technique", field="top_k")
    families = studentsyn_files.check_benchmark(benchmark)
    scenarios: dict[str, dict[str, Any]] = {}
    techniques: list[str] = []
    for folder in galleries:
        seen_here: set[str] = set()
        for scenario in studentsyn_files.read_gallery(folder):
            if scenario["reference"] not in families or scenario["target"] not in families[scenario["reference"]]:
                raise InputError(
                    f"scenario {scenario['id']}: task {scenario['reference']}/{scenario['target']} is not in the "
                    "benchmark folder",
                    path=str(folder),
                    hint="choose the benchmark folder the gallery was made from",
                )
            technique = scenario["technique"]
            if technique in techniques and technique not in seen_here:
                raise InputError(f"technique {technique!r} is in two galleries", path=str(folder))
            if technique not in seen_here:
                seen_here.add(technique)
                techniques.append(technique)
            entry = scenarios.setdefault(
                scenario["id"],
                {key: scenario[key] for key in ("reference", "target", "student", "code_a")}
                | {"scenario": scenario["id"], "truth": None, "candidates": []},
            )
            entry["truth"] = entry["truth"] or scenario["ground_truth"]
            for rank, code in enumerate(scenario["synthesized"][:top_k], start=1):
                entry["candidates"].append({"technique": technique, "rank": rank, "code": code})
    items = []
    for scenario_id in sorted(scenarios):
        entry = scenarios[scenario_id]
        if include_truth and entry["truth"]:
            entry["candidates"].append({"technique": TRUTH, "rank": 1, "code": entry["truth"]})
        if include_solution:
            code = studentsyn_files.solution_code(benchmark, entry["reference"], entry["target"])
            entry["candidates"].append({"technique": SOLUTION, "rank": 1, "code": code})
        if not entry["candidates"]:
            continue
        rng = random.Random(f"generative:{seed}:{scenario_id}")
        rng.shuffle(entry["candidates"])
        for label, candidate in zip(string.ascii_uppercase * 4, entry["candidates"]):
            candidate["key"] = label
        items.append({**entry, "item_id": scenario_id})
    if not items:
        raise InputError("the galleries hold no synthesized codes to rate")
    random.Random(f"generative-order:{seed}").shuffle(items)
    config = {
        "benchmark": str(benchmark),
        "galleries": [str(g) for g in galleries],
        "techniques": techniques,
        "top_k": top_k,
        "include_truth": include_truth,
        "include_solution": include_solution,
        "seed": seed,
    }
    return _insert_study(db, GENERATIVE, name, config, items)  # fmt: skip


def create_discriminative(db: Database, name: str, *, benchmark: Path, samples: int = 1, seed: int = 0) -> int:
    name = " ".join(name.split())
    if not name:
        raise InputError("the study needs a name", field="name")
    if samples < 1:
        raise InputError("draw at least one sample", field="samples")
    items = [
        {**item, "item_id": f"{item['instance']}"}
        for item in studentsyn_files.discriminative_items(benchmark, samples=samples, seed=seed)
    ]
    if not items:
        raise InputError("the benchmark folder gives no instances", path=str(benchmark))
    random.Random(f"discriminative-order:{seed}").shuffle(items)
    config = {"benchmark": str(benchmark), "samples": samples, "seed": seed}
    return _insert_study(db, DISCRIMINATIVE, name, config, items)


def check_ratings(item: dict[str, Any], form: dict[str, str]) -> dict[str, int]:
    """A score 1-4 for every candidate of the item (form fields ``score-<key>``)."""
    scores = {}
    for candidate in item["candidates"]:
        value = form.get(f"score-{candidate['key']}", "")
        if value not in ("1", "2", "3", "4"):
            raise InputError(f"rate candidate {candidate['key']} on the 1-4 scale", field=f"score-{candidate['key']}")
        scores[candidate["key"]] = int(value)
    return scores


def _items(db: Database, study_id: int) -> dict[str, dict[str, Any]]:
    return {
        row["item_id"]: json.loads(row["payload"])
        for row in db.read("SELECT item_id, payload FROM study_items WHERE study_id = ?", (study_id,))
    }


def _answers(db: Database, study_id: int) -> list[tuple[str, str, dict[str, Any]]]:
    rows = db.read(
        "SELECT item_id, annotator, answer FROM study_answers WHERE study_id = ? ORDER BY annotator, item_id",
        (study_id,),
    )
    return [(row["item_id"], row["annotator"], json.loads(row["answer"])) for row in rows]


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def generative_results(db: Database, study_id: int, techniques: Sequence[str]) -> dict[str, Any]:
    items = _items(db, study_id)
    ratings: list[dict[str, Any]] = []
    for item_id, rater, answer in _answers(db, study_id):
        item = items.get(item_id)
        if item is None:
            continue
        for candidate in item["candidates"]:
            score = answer.get("scores", {}).get(candidate["key"])
            if score is not None:
                ratings.append(
                    {"scenario": item_id, "reference": item["reference"], "rater": rater,
                     "technique": candidate["technique"], "rank": candidate["rank"], "score": int(score)}
                )  # fmt: skip
    order = [*techniques, *(t for t in (TRUTH, SOLUTION) if any(r["technique"] == t for r in ratings))]
    references = sorted({r["reference"] for r in ratings})
    rows: list[dict[str, Any]] = []
    for technique in order:
        mine = [r for r in ratings if r["technique"] == technique]
        by_rater: dict[str, list[int]] = {}
        for rating in mine:
            by_rater.setdefault(rating["rater"], []).append(rating["score"])
        rows.append(
            {
                "technique": technique,
                "n": len(mine),
                "mean": _mean([r["score"] for r in mine]),
                "macro_mean": _mean([m for m in (_mean(v) for v in by_rater.values()) if m is not None]),
                "by_reference": {ref: _mean([r["score"] for r in mine if r["reference"] == ref]) for ref in references},
                "by_rater": {rater: _mean(v) for rater, v in sorted(by_rater.items())},
                "good_share": _mean([float(r["score"] >= 3) for r in mine]),
                "counts": [sum(1 for r in mine if r["score"] == s) for s in (1, 2, 3, 4)],
            }
        )
    counts: dict[str, list[int]] = {row["technique"]: row["counts"] for row in rows}
    test = chi_squared([counts[t] for t in counts if t in techniques])
    test_all = chi_squared(list(counts.values()))
    return {
        "rows": rows,
        "references": references,
        "raters": sorted({r["rater"] for r in ratings}),
        "ratings": len(ratings),
        "chi2_techniques": test.as_dict() if test else None,
        "chi2_all": test_all.as_dict() if test_all else None,
    }


def discriminative_results(db: Database, study_id: int) -> dict[str, Any]:
    items = _items(db, study_id)
    experts: dict[str, dict[str, Any]] = {}
    references = sorted({item["reference"] for item in items.values()})
    for item_id, expert, answer in _answers(db, study_id):
        item = items.get(item_id)
        if item is None:
            continue
        entry = experts.setdefault(expert, {"answered": 0, "correct": 0, "by_reference": {}})
        hit = int(answer.get("pick", -1)) in item["correct"]
        entry["answered"] += 1
        entry["correct"] += int(hit)
        ref = entry["by_reference"].setdefault(item["reference"], [0, 0])
        ref[0] += int(hit)
        ref[1] += 1
    rows = []
    for expert, entry in sorted(experts.items()):
        rows.append(
            {
                "expert": expert,
                "answered": entry["answered"],
                "accuracy": entry["correct"] / entry["answered"],
                "by_reference": {ref: (c / n if n else None) for ref, (c, n) in sorted(entry["by_reference"].items())},
            }
        )
    chance = _mean([len(item["correct"]) / len(item["options"]) for item in items.values()])
    return {
        "experts": rows,
        "references": references,
        "macro_accuracy": _mean([row["accuracy"] for row in rows]),
        "macro_by_reference": {
            ref: _mean([row["by_reference"][ref] for row in rows if row["by_reference"].get(ref) is not None])
            for ref in references
        },
        "chance": chance,
        "items": len(items),
    }


def answers_csv(db: Database, study_id: int, kind: str) -> str:
    items = _items(db, study_id)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    if kind == GENERATIVE:
        writer.writerow(["scenario", "reference", "target", "student", "rater", "candidate", "technique", "rank",
                         "code", "score"])  # fmt: skip
    else:
        writer.writerow(["instance", "reference", "target", "student", "expert", "pick", "correct", "options_correct"])
    for item_id, rater, answer in _answers(db, study_id):
        item = items.get(item_id)
        if item is None:
            continue
        if kind == GENERATIVE:
            for candidate in item["candidates"]:
                writer.writerow([item_id, item["reference"], item["target"], item["student"], rater, candidate["key"],
                                 candidate["technique"], candidate["rank"], candidate["code"],
                                 answer.get("scores", {}).get(candidate["key"], "")])  # fmt: skip
        else:
            pick = int(answer.get("pick", -1))
            writer.writerow([item_id, item["reference"], item["target"], item["student"], rater, pick,
                             int(pick in item["correct"]), " ".join(map(str, item["correct"]))])  # fmt: skip
    return buffer.getvalue()
