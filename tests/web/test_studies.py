"""Manual evaluation and expert studies against hand-computed results (the web app's golden fixtures)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from debugtutor.errors import InputError
from debugtutor.samples import sample_dir
from debugtutor.web import expert_studies, manual_eval, studies
from debugtutor.web.store import Database

PREDICTIONS = [
    {"id": "d#1", "system": "alpha", "predictions": ["p1", "p2"], "references": ["r1", "r2", "r3"]},
    {"id": "d#2", "system": "alpha", "predictions": ["q1"], "references": ["s1"]},
    {"id": "d#1", "system": "beta", "predictions": ["b1", "b2"], "references": ["r1", "r2", "r3"]},
    {"id": "d#2", "system": "beta", "predictions": ["c1"], "references": ["s1"]},
]


def _items_by_key(db: Database, study_id: int) -> dict[tuple[str, str], str]:
    rows = db.read("SELECT item_id, payload FROM study_items WHERE study_id = ?", (study_id,))
    return {(json.loads(r["payload"])["system"], json.loads(r["payload"])["example_id"]): r["item_id"] for r in rows}


def test_manual_evaluation_scores_and_agreement_by_hand(tmp_path: Path) -> None:
    db = Database(tmp_path / "web.sqlite3")
    upload = "\n".join(json.dumps(p) for p in PREDICTIONS)
    study = manual_eval.create_study(db, "golden", uploads=[("preds.jsonl", upload)])
    items = _items_by_key(db, study)
    labels = {
        "ann": {("alpha", "d#1"): [[0], [0]], ("alpha", "d#2"): [[0]], ("beta", "d#1"): [[], [1]],
                ("beta", "d#2"): [[]]},
        "bob": {("alpha", "d#1"): [[0], []], ("alpha", "d#2"): [[]], ("beta", "d#1"): [[], [1]],
                ("beta", "d#2"): [[]]},
    }  # fmt: skip
    for annotator, answers in labels.items():
        for key, matches in answers.items():
            studies.save_answer(db, study, items[key], annotator, {"matches": matches})
    results = manual_eval.study_results(db, study)
    alpha = next(s for s in results["systems"] if s["system"] == "alpha")
    # ann: item 1 both predictions tick r1 -> one matched pair: P 1/2, R 1/3, F1 0.4; item 2: 1, 1, 1
    assert alpha["annotators"]["ann"]["precision"] == pytest.approx(0.75)
    assert alpha["annotators"]["ann"]["recall"] == pytest.approx((1 / 3 + 1) / 2)
    assert alpha["annotators"]["ann"]["f1"] == pytest.approx(0.7)
    # bob: item 1 as ann's; item 2 no match: 0, 0, 0
    assert alpha["annotators"]["bob"]["f1"] == pytest.approx(0.2)
    assert alpha["mean"]["f1"] == pytest.approx(0.45)
    assert alpha["mean"]["recall"] == pytest.approx(5 / 12)
    # per-prediction "matches some reference": ann T T T F T F, bob T F F F T F -> observed 4/6, chance 4/9
    [cohen] = results["cohen"]
    assert cohen["units"] == 6 and cohen["kappa"] == pytest.approx(0.4)
    assert results["fleiss"]["kappa"] == pytest.approx(1 / 3)
    csv_text = manual_eval.answers_csv(db, study)
    assert csv_text.count("\n") == 1 + 2 * 6  # header, then one row per annotator and prediction


def test_manual_evaluation_paired_sample_and_bad_uploads(tmp_path: Path) -> None:
    db = Database(tmp_path / "web.sqlite3")
    upload = "\n".join(json.dumps(p) for p in PREDICTIONS)
    study = manual_eval.create_study(db, "one each", uploads=[("preds.jsonl", upload)], limit=1, seed=3)
    keys = _items_by_key(db, study)
    assert len(keys) == 2 and {system for system, _ in keys} == {"alpha", "beta"}
    assert len({example for _, example in keys}) == 1  # both systems on the same example
    with pytest.raises(InputError, match=r"preds\.jsonl:2: not a JSON object"):
        manual_eval.create_study(db, "bad", uploads=[("preds.jsonl", json.dumps(PREDICTIONS[0]) + "\n{oops")])
    with pytest.raises(InputError, match=r"preds\.jsonl:1, field 'references'"):
        manual_eval.create_study(db, "bad", uploads=[("preds.jsonl", json.dumps({"id": "x", "predictions": []}))])
    with pytest.raises(InputError, match="decision for each"):
        manual_eval.check_matches([[0]], 2, 3)


def _gallery(folder: Path, technique: str, codes: dict[str, str]) -> Path:
    folder.mkdir(parents=True)
    lines = []
    for scenario, code in codes.items():
        attempt = "RUG{IF(pathAhead){M}ELSE{R}}"
        lines.append(json.dumps({"id": scenario, "reference": "loop", "target": "loopa", "student": scenario[-4:],
                                 "code_a": attempt, "ground_truth": attempt, "synthesized": [code, "M"],
                                 "technique": technique, "proxy": [0.5, 0.1]}))  # fmt: skip
    (folder / "scenarios.jsonl").write_text("\n".join(lines) + "\n")
    return folder


def test_generative_study_by_hand(tmp_path: Path) -> None:
    db = Database(tmp_path / "web.sqlite3")
    scenarios = {"loop-stu1": "RUG{IF(pathRight){R M}ELSE{M}}", "loop-stu2": "RUG{M}"}
    galleries = [_gallery(tmp_path / "a", "alpha", scenarios), _gallery(tmp_path / "b", "beta", scenarios)]
    study = expert_studies.create_generative(
        db, "golden", benchmark=sample_dir("studentsyn"), galleries=galleries, top_k=1, seed=1
    )
    items = {row["item_id"]: json.loads(row["payload"]) for row in db.read("SELECT * FROM study_items")}
    assert set(items) == set(scenarios)
    for item in items.values():
        techniques = sorted(c["technique"] for c in item["candidates"])
        assert techniques == sorted(["alpha", "beta", expert_studies.TRUTH, expert_studies.SOLUTION])
        assert [c["key"] for c in item["candidates"]] == ["A", "B", "C", "D"]
    plan = {
        ("r1", "loop-stu1"): {"alpha": 4, "beta": 2, expert_studies.TRUTH: 3, expert_studies.SOLUTION: 1},
        ("r1", "loop-stu2"): {"alpha": 3, "beta": 2, expert_studies.TRUTH: 4, expert_studies.SOLUTION: 1},
        ("r2", "loop-stu1"): {"alpha": 4, "beta": 1, expert_studies.TRUTH: 4, expert_studies.SOLUTION: 1},
    }
    for (rater, scenario), by_technique in plan.items():
        scores = {c["key"]: by_technique[c["technique"]] for c in items[scenario]["candidates"]}
        form = {f"score-{k}": str(v) for k, v in scores.items()}
        studies.save_answer(db, study, scenario, rater, {"scores": expert_studies.check_ratings(items[scenario], form)})
    results = expert_studies.generative_results(db, study, ["alpha", "beta"])
    rows = {row["technique"]: row for row in results["rows"]}
    assert list(rows)[:2] == ["alpha", "beta"]
    assert rows["alpha"]["mean"] == pytest.approx(11 / 3) and rows["alpha"]["macro_mean"] == pytest.approx(3.75)
    assert rows["beta"]["mean"] == pytest.approx(5 / 3) and rows["beta"]["macro_mean"] == pytest.approx(1.5)
    assert rows["alpha"]["counts"] == [0, 0, 1, 2] and rows["beta"]["counts"] == [1, 2, 0, 0]
    # expected counts 0.5 / 1 / 0.5 / 1 in both rows: chi2 = 2 * (0.5 + 1 + 0.5 + 1) = 6 on 3 degrees of freedom
    assert results["chi2_techniques"]["chi2"] == pytest.approx(6.0) and results["chi2_techniques"]["dof"] == 3
    assert rows[expert_studies.SOLUTION]["mean"] == 1.0
    with pytest.raises(InputError, match="rate candidate"):
        expert_studies.check_ratings(items["loop-stu1"], {"score-A": "5"})


def test_generative_study_refuses_foreign_galleries(tmp_path: Path) -> None:
    db = Database(tmp_path / "web.sqlite3")
    folder = tmp_path / "g"
    folder.mkdir()
    (folder / "scenarios.jsonl").write_text(json.dumps({"id": "x", "reference": "hoc4", "target": "hoc4a",
        "student": "stu1", "code_a": "M", "synthesized": ["M"], "technique": "t"}) + "\n")  # fmt: skip
    with pytest.raises(InputError, match="not in the benchmark folder"):
        expert_studies.create_generative(db, "x", benchmark=sample_dir("studentsyn"), galleries=[folder])
    (folder / "scenarios.jsonl").write_text('{"id": "x"}\n')
    with pytest.raises(InputError, match=r"scenarios\.jsonl:1, field 'reference'"):
        expert_studies.create_generative(db, "x", benchmark=sample_dir("studentsyn"), galleries=[folder])


def test_discriminative_study_accuracy_and_chance(tmp_path: Path) -> None:
    db = Database(tmp_path / "web.sqlite3")
    study = expert_studies.create_discriminative(db, "pick", benchmark=sample_dir("studentsyn"), samples=1, seed=0)
    items = {row["item_id"]: json.loads(row["payload"]) for row in db.read("SELECT * FROM study_items")}
    assert items and all(len(item["options"]) == 10 and item["correct"] for item in items.values())
    for item_id, item in items.items():
        studies.save_answer(db, study, item_id, "expert1", {"pick": item["correct"][0]})
        studies.save_answer(db, study, item_id, "expert2", {"pick": 0})
    results = expert_studies.discriminative_results(db, study)
    by_expert = {row["expert"]: row for row in results["experts"]}
    second = sum(0 in item["correct"] for item in items.values()) / len(items)
    assert by_expert["expert1"]["accuracy"] == 1.0
    assert by_expert["expert2"]["accuracy"] == pytest.approx(second)
    assert results["macro_accuracy"] == pytest.approx((1 + second) / 2)
    chance = sum(len(item["correct"]) / 10 for item in items.values()) / len(items)
    assert results["chance"] == pytest.approx(chance)
    assert 0.1 <= chance < 0.5
