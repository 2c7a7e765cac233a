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
from debugtutor.studentsyn.evaluation import leave_one_target_out, round_accuracy
from debugtutor.studentsyn.instances import DiscriminativeInstance


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


class _RightOnlyOn:
    """A stand-in technique: setting "a" answers right only on ``target``, setting "b" right everywhere else."""

    name = "right-only-on"
    settings = ("a", "b")

    def __init__(self, target: str) -> None:
        self.target = target

    def prepare(self, family: TaskFamily) -> None:
        """Nothing to learn."""

    def predict(self, instance: DiscriminativeInstance) -> dict[str, int]:
        wrong = (instance.label + 1) % len(instance.options)
        if instance.options[wrong] == instance.options[instance.label]:
            wrong = (instance.label + 2) % len(instance.options)
        on_target = instance.target_task == self.target
        return {"a": instance.label if on_target else wrong, "b": wrong if on_target else instance.label}


def test_leave_one_target_out_chooses_on_the_other_targets(sample_families: list[TaskFamily]) -> None:
    walk = [f for f in sample_families if f.reference == "walk"]
    result = leave_one_target_out(_RightOnlyOn("walka"), walk, rounds=2, samples=3)
    held = {h.target: h for h in result.targets}
    assert set(held) == {"walka", "walkb"}
    # Each held-out target gets the setting that won on the other one, which is wrong on it: an honest 0 both ways,
    # where choosing on all targets together would have looked perfect.
    assert held["walka"].setting == "b" and held["walka"].tuned_on == ["walkb"] and held["walka"].mean == 0.0
    assert held["walkb"].setting == "a" and held["walkb"].tuned_on == ["walka"] and held["walkb"].mean == 0.0
    assert held["walka"].tuning_accuracy == 100.0
    assert held["walka"].instances_per_round == 3 * 6 and len(held["walka"].rounds) == 2
    assert result.references["walk"] == 0.0
