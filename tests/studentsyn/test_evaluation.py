"""Evaluation: cross-validated tuning, significance tests, and runner records that resume."""

from __future__ import annotations

from pathlib import Path

from debugtutor.studentsyn import (
    EditD,
    RandD,
    SymSS,
    TaskFamily,
    evaluate_in_process,
    evaluate_with_runner,
    significance,
)
from debugtutor.studentsyn.evaluation import round_accuracy


def test_cross_validation_tunes_on_one_fold_and_tests_on_the_rest() -> None:
    # Setting "b" is right on every instance, "a" on half: every fold must pick "b" and score 1.0.
    rows = [{"a": i % 2 == 0, "b": True} for i in range(20)]
    accuracy, chosen = round_accuracy(rows, ["a", "b"], folds=10)
    assert accuracy == 1.0 and chosen == ["b"] * 10
    single, _ = round_accuracy([{"default": True}, {"default": False}], ["default"], folds=10)
    assert single == 0.5


def test_significance_between_a_strong_and_a_random_technique(sample_families: list[TaskFamily]) -> None:
    strong, _ = evaluate_in_process(SymSS(infer_type=False), sample_families, rounds=3, samples=4)
    weak, _ = evaluate_in_process(RandD(), sample_families, rounds=3, samples=4)
    test = significance([strong, weak], "walk")
    assert test.chi2_pvalue is not None and test.chi2_pvalue < 1e-6
    assert test.tukey_pvalues is not None and test.tukey_pvalues[0][1] < 0.01
    assert significance([strong], "walk").note


def test_runner_records_match_in_process_and_resume(sample_families: list[TaskFamily], tmp_path: Path) -> None:
    in_process, _ = evaluate_in_process(EditD(), sample_families, rounds=2, samples=2)
    recorded, run_dir = evaluate_with_runner(EditD(), sample_families, rounds=2, samples=2, runs_dir=tmp_path)
    assert recorded.references == in_process.references
    assert (Path(run_dir) / "samples.jsonl").is_file() and (Path(run_dir) / "report.html").is_file()
    lines = (Path(run_dir) / "samples.jsonl").read_text().splitlines()
    assert len(lines) == 2 * 2 * 2 * 2 * 6
    again, same_dir = evaluate_with_runner(
        EditD(), sample_families, rounds=2, samples=2, runs_dir=tmp_path, resume=run_dir
    )
    assert same_dir == run_dir and again.references == in_process.references
    assert len((Path(run_dir) / "samples.jsonl").read_text().splitlines()) == len(lines)
