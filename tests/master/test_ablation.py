"""The ablation's evaluation subset and trivial baseline: the chosen test instances only, tasks not chosen blanked,
and the best constant answer computed on exactly those instances."""

from __future__ import annotations

import json
from pathlib import Path

from debugtutor.master.ablation import AblationPlan, build_eval_subset, trivial_baseline
from debugtutor.master.sources import TASK3_FILE, TASK124_FILE


def test_subset_holds_the_chosen_test_instances_only(split_folder: Path, tmp_path: Path) -> None:
    plan = AblationPlan(base="hf:x", data=tmp_path, eval_data=split_folder, out=tmp_path / "abl",
                        strategies=["answer"], tasks=["bug-identification", "code-repair"], languages=["python"],
                        eval_limit=3)  # fmt: skip
    subset, chosen = build_eval_subset(plan)
    identification = chosen["bug-identification"]["python"]
    repair_lines = (split_folder / TASK3_FILE).read_text().splitlines()
    repair_in_test = sum(1 for line in repair_lines if json.loads(line)["split"] == "test")
    assert repair_in_test >= 1
    assert len(identification) == 3 and len(chosen["code-repair"]["python"]) == min(3, repair_in_test)
    records = [json.loads(line) for line in (subset / TASK124_FILE).read_text().splitlines()]
    assert all(r["split"] == "test" for r in records)
    assert sum(1 for r in records if r["task2_choice"]) == 3
    assert not any(r["task1_options"] or r["task4"] for r in records)  # tasks not chosen are blanked
    assert len((subset / TASK3_FILE).read_text().splitlines()) == min(3, repair_in_test)
    again, _ = build_eval_subset(plan)
    assert (again / TASK124_FILE).read_text() == (subset / TASK124_FILE).read_text()  # seeded, repeatable


def test_trivial_baseline_is_the_best_constant_answer() -> None:
    records = [{"task2_choice": "(C)"}, {"task2_choice": "(C)"}, {"task2_choice": "(A)"}, {"task2_choice": "(B)"}]
    assert trivial_baseline("bug-identification", records) == (50.0, "always (C)")
    assert trivial_baseline("bug-localization", [{"task1_answer": "(D)"}]) == (100.0, "always (D)")
    assert trivial_baseline("code-review", records)[0] == 50.0
    assert trivial_baseline("code-repair", records)[0] == 0.0
    assert trivial_baseline("code-repair", []) == (None, "")
