"""Manual evaluation of Socratic instructors, as the SIGCSE'24 paper's "manual" rows: people decide which predicted
utterance matches which reference, and precision, recall and F1 follow from those decisions.

A study takes the predictions of one or more runs (``samples.jsonl`` holds each example's predictions and
references) or of an uploaded JSONL file. Every (example, system) pair becomes one item; items are shuffled once and
carry no trace of the system that produced them, so annotators are blind to it. For each prediction an annotator
ticks the references it matches (none, one or several). Per item the ticks form a 0/1 weight matrix and the paper's
bipartite matching gives TP, P = TP/m, R = TP/n and F1; a system's score is the mean over its items, per annotator,
and the mean of the annotators' scores. Agreement is computed on the per-prediction decision "matches some
reference": Cohen's kappa for every pair of annotators, Fleiss' kappa over the predictions all of them labelled.
"""

from __future__ import annotations

import csv
import io
import json
import math
import random
import secrets
from collections.abc import Hashable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from debugtutor.errors import InputError
from debugtutor.metrics.agreement import fleiss_over_common, pairwise_cohen
from debugtutor.metrics.matching import match_weights
from debugtutor.runs import SAMPLES_FILE, list_run_dirs, read_manifest, read_samples
from debugtutor.web.store import Database, now

KIND = "manual-eval"
_MAX_ITEMS = 5000


def socratic_runs(runs_dir: Path) -> list[dict[str, Any]]:
    """The Socratic evaluation runs under ``runs_dir`` that have records, newest first."""
    out = []
    for run_dir in reversed(list_run_dirs(runs_dir)):
        try:
            manifest = read_manifest(run_dir)
        except InputError:
            continue
        if manifest.task != "socratic" or not (run_dir / SAMPLES_FILE).is_file():
            continue
        out.append(
            {
                "id": manifest.run_id,
                "path": str(run_dir),
                "system": _system_label(manifest.config, manifest.model, manifest.run_id),
                "items": manifest.counts.done,
                "status": manifest.status,
                "started": manifest.started_at,
            }
        )
    return out


def _system_label(config: dict[str, Any], model: str | None, run_id: str) -> str:
    instructor = str(config.get("instructor") or "instructor")
    return f"{instructor}{' · ' + model if model else ''} ({run_id})"


def _contexts(run_dir: Path) -> tuple[dict[str, dict[str, Any]], str | None]:
    """The dialogue context of each example of a run, rebuilt from the data folder its manifest names."""
    from debugtutor.socratic.evaluation import load_examples

    manifest = read_manifest(run_dir)
    folders = [Path(p) for p in manifest.dataset_checksums]
    for folder in folders:
        if folder.is_dir():
            try:
                examples = load_examples(
                    folder,
                    dedup=bool(manifest.config.get("dedup")),
                    parser=str(manifest.config.get("parser") or "original"),
                )
            except InputError as exc:
                return {}, f"the run's data folder could not be read: {exc}"
            return {e.id: _context_of(asdict(e)) for e in examples}, None
    named = ", ".join(str(f) for f in folders) or "none recorded"
    return {}, f"the run's data folder is not on this server ({named}): the dialogue context cannot be shown"


def _context_of(example: dict[str, Any]) -> dict[str, Any]:
    return {
        "problem": example["problem"],
        "bug_code": example["bug_code"],
        "unit_tests": example["unit_tests"],
        "history": [
            {"student": record["user_text"], "instructor": record["assistant_text"], "code": record["code_text"]}
            for record in example["history"]
        ],
        "student_text": example["student_text"],
        "student_code": example["student_code"],
    }


def _run_examples(run_dir: Path) -> tuple[str, list[dict[str, Any]], str | None]:
    manifest = read_manifest(run_dir)
    system = _system_label(manifest.config, manifest.model, manifest.run_id)
    contexts, note = _contexts(run_dir)
    latest: dict[str, Any] = {}
    for record in read_samples(run_dir / SAMPLES_FILE).records:
        latest[record.id] = record
    examples = []
    for record in latest.values():
        output = record.output
        if record.error is not None or not isinstance(output, dict):
            continue
        predictions, references = output.get("predictions"), output.get("references")
        if not isinstance(predictions, list) or not isinstance(references, list):
            continue
        automatic = {k: v for k, v in record.scores.items() if k.endswith("_f1") or k.endswith("_f1@constant")}
        examples.append(
            {
                "example_id": record.id,
                "predictions": [str(p) for p in predictions],
                "references": [str(r) for r in references],
                "context": contexts.get(record.id),
                "automatic": automatic,
            }
        )
    return system, examples, note


def examples_from_jsonl(name: str, text: str) -> dict[str, list[dict[str, Any]]]:
    """Predictions uploaded as JSONL: ``{"id", "predictions": [...], "references": [...], "system"?}`` per line.

    Lines without a ``system`` belong to a system named after the file. Errors name the file and line."""
    systems: dict[str, list[dict[str, Any]]] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"not a JSON object: {exc.msg}", path=name, line=number) from exc
        if not isinstance(record, dict):
            raise InputError("expected a JSON object", path=name, line=number)
        if "output" in record and isinstance(record["output"], dict):  # a run's samples.jsonl line
            if record.get("error") is not None:
                continue
            record = {**record["output"], "id": record.get("id")}
        for field in ("predictions", "references"):
            value = record.get(field)
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise InputError(f"'{field}' must be a list of strings", path=name, line=number, field=field)
        if not isinstance(record.get("id"), str):
            raise InputError("missing a string 'id'", path=name, line=number, field="id")
        system = str(record.get("system") or Path(name).stem)
        systems.setdefault(system, []).append(
            {"example_id": record["id"], "predictions": record["predictions"], "references": record["references"],
             "context": None, "automatic": {}}
        )  # fmt: skip
    if not systems:
        raise InputError("holds no predictions", path=name)
    return systems


def create_study(
    db: Database,
    name: str,
    *,
    run_dirs: Sequence[Path] = (),
    uploads: Sequence[tuple[str, str]] = (),
    limit: int | None = None,
    seed: int = 0,
) -> int:
    """A study over the runs' (and uploads') examples; with ``limit``, that many examples drawn (seeded) from those
    every system has, so systems are compared on the same examples."""
    name = " ".join(name.split())
    if not name:
        raise InputError("the study needs a name", field="name")
    systems: dict[str, list[dict[str, Any]]] = {}
    notes: list[str] = []
    for run_dir in run_dirs:
        system, examples, note = _run_examples(run_dir)
        systems[system] = examples
        if note:
            notes.append(note)
    for upload_name, text in uploads:
        for system, examples in examples_from_jsonl(upload_name, text).items():
            systems.setdefault(system, []).extend(examples)
    systems = {s: e for s, e in systems.items() if e}
    if not systems:
        raise InputError("choose at least one run (or upload predictions) with finished examples", field="runs")
    shared = set.intersection(*({e["example_id"] for e in examples} for examples in systems.values()))
    if limit is not None:
        if not shared:
            raise InputError("the chosen systems share no example ids, so a paired sample cannot be drawn")
        chosen = set(random.Random(f"manual-eval:{seed}").sample(sorted(shared), min(limit, len(shared))))
    else:
        chosen = {e["example_id"] for examples in systems.values() for e in examples}
    items = [
        {**example, "system": system}
        for system, examples in sorted(systems.items())
        for example in examples
        if example["example_id"] in chosen
    ]
    if len(items) > _MAX_ITEMS:
        raise InputError(f"{len(items)} items is more than a study may hold ({_MAX_ITEMS}): set a limit", field="limit")
    random.Random(f"manual-eval-order:{seed}").shuffle(items)
    config = {"systems": sorted(systems), "runs": [str(p) for p in run_dirs], "limit": limit, "seed": seed,
              "notes": notes}  # fmt: skip
    with db.write() as conn:
        cursor = conn.execute(
            "INSERT INTO studies (kind, name, config, created_at) VALUES (?, ?, ?, ?)",
            (KIND, name, json.dumps(config), now()),
        )
        study_id = int(cursor.lastrowid or 0)
        for position, item in enumerate(items):
            conn.execute(
                "INSERT INTO study_items (study_id, position, item_id, payload) VALUES (?, ?, ?, ?)",
                (study_id, position, secrets.token_hex(6), json.dumps(item)),
            )
    return study_id


def check_matches(matches: list[list[int]], predictions: int, references: int) -> list[list[int]]:
    if len(matches) != predictions:
        raise InputError(f"expected a decision for each of the {predictions} predictions", field="matches")
    clean = []
    for row in matches:
        if any(not 0 <= r < references for r in row):
            raise InputError("a reference index is out of range", field="matches")
        clean.append(sorted(set(row)))
    return clean


def _weights(matches: list[list[int]], references: int) -> Any:
    import numpy as np

    weights = np.zeros((len(matches), references))
    for p, row in enumerate(matches):
        for r in row:
            weights[p, r] = 1.0
    return weights


def item_scores(matches: list[list[int]], references: int) -> dict[str, float]:
    """P, R, F1 of one item from an annotator's match decisions (the bipartite matching on 0/1 weights)."""
    match = match_weights(_weights(matches, references))
    return {"tp": match.tp, "precision": match.precision, "recall": match.recall, "f1": match.f1}


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def study_results(db: Database, study_id: int) -> dict[str, Any]:
    """Per system: P/R/F1 per annotator and their mean, the automatic scores on the same items; then agreement."""
    items = {
        row["item_id"]: json.loads(row["payload"])
        for row in db.read("SELECT item_id, payload FROM study_items WHERE study_id = ?", (study_id,))
    }
    answers = db.read(
        "SELECT item_id, annotator, answer FROM study_answers WHERE study_id = ? ORDER BY annotator", (study_id,)
    )
    per: dict[str, dict[str, list[dict[str, float]]]] = {}
    decisions: dict[str, dict[Hashable, Hashable]] = {}
    annotated_items: dict[str, set[str]] = {}
    for row in answers:
        item = items.get(row["item_id"])
        if item is None:
            continue
        matches = json.loads(row["answer"])["matches"]
        scores = item_scores(matches, len(item["references"]))
        per.setdefault(item["system"], {}).setdefault(row["annotator"], []).append(scores)
        annotated_items.setdefault(item["system"], set()).add(row["item_id"])
        for p, refs in enumerate(matches):
            decisions.setdefault(row["annotator"], {})[(row["item_id"], p)] = bool(refs)
    systems = []
    for system in sorted({item["system"] for item in items.values()}):
        by_annotator: dict[str, dict[str, Any]] = {}
        for annotator, item_list in sorted(per.get(system, {}).items()):
            by_annotator[annotator] = {
                "items": len(item_list),
                **{k: _mean([s[k] for s in item_list]) for k in ("precision", "recall", "f1")},
            }
        means = {
            k: _mean([float(a[k]) for a in by_annotator.values() if a[k] is not None])
            for k in ("precision", "recall", "f1")
        }
        done = annotated_items.get(system, set())
        automatic: dict[str, list[float]] = {}
        for item_id in done:
            for key, value in items[item_id].get("automatic", {}).items():
                if isinstance(value, (int, float)) and not math.isnan(value):
                    automatic.setdefault(key, []).append(float(value))
        systems.append(
            {
                "system": system,
                "items": sum(1 for item in items.values() if item["system"] == system),
                "annotated_items": len(done),
                "annotators": by_annotator,
                "mean": means,
                "automatic": {k: _mean(v) for k, v in sorted(automatic.items())},
            }
        )
    pairs = pairwise_cohen(decisions)
    fleiss = fleiss_over_common(decisions)
    return {
        "systems": systems,
        "annotators": sorted(decisions),
        "cohen": [{"annotators": list(pair), **result.as_dict()} for pair, result in pairs.items()],
        "fleiss": fleiss.as_dict(),
        "unit": "one prediction; label = matches at least one reference",
    }


def answers_csv(db: Database, study_id: int) -> str:
    """One row per (item, annotator, prediction): the system, the example, the prediction and what it matched."""
    items = {
        row["item_id"]: json.loads(row["payload"])
        for row in db.read("SELECT item_id, payload FROM study_items WHERE study_id = ?", (study_id,))
    }
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["item", "system", "example", "annotator", "prediction_index", "prediction", "matched_references",
                     "matched_reference_texts", "updated_at"])  # fmt: skip
    for row in db.read(
        "SELECT item_id, annotator, answer, updated_at FROM study_answers WHERE study_id = ? "
        "ORDER BY item_id, annotator",
        (study_id,),
    ):
        item = items.get(row["item_id"])
        if item is None:
            continue
        for p, refs in enumerate(json.loads(row["answer"])["matches"]):
            writer.writerow([row["item_id"], item["system"], item["example_id"], row["annotator"], p,
                             item["predictions"][p], " ".join(str(r) for r in refs),
                             " | ".join(item["references"][r] for r in refs), row["updated_at"]])  # fmt: skip
    return buffer.getvalue()
