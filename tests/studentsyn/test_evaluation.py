"""Evaluation: cross-validated tuning, held-out targets and directions, significance, runner records that resume."""

from __future__ import annotations

from pathlib import Path

from debugtutor.maze import Program
from debugtutor.report import write_report
from debugtutor.studentsyn import (
    BehaviourEdits,
    EditD,
    FamilyBrief,
    Question,
    RandD,
    TaskFamily,
    comparable_paper_numbers,
    evaluate_in_process,
    evaluate_with_runner,
    held_out_tasks,
    significance,
)
from debugtutor.studentsyn.evaluation import leave_one_target_out, round_accuracy


def test_cross_validation_tunes_on_one_fold_and_tests_on_the_rest() -> None:
    # Setting "b" is right on every instance, "a" on half: every fold must pick "b" and score 1.0.
    rows = [{"a": i % 2 == 0, "b": True} for i in range(20)]
    accuracy, chosen = round_accuracy(rows, ["a", "b"], folds=10)
    assert accuracy == 1.0 and chosen == ["b"] * 10
    single, _ = round_accuracy([{"default": True}, {"default": False}], ["default"], folds=10)
    assert single == 0.5


def test_significance_between_a_strong_and_a_random_technique(sample_families: list[TaskFamily]) -> None:
    strong, _ = evaluate_in_process(BehaviourEdits(), sample_families, rounds=3, samples=4)
    weak, _ = evaluate_in_process(RandD(), sample_families, rounds=3, samples=4)
    test = significance([strong, weak], "loop")
    assert test.chi2_pvalue is not None and test.chi2_pvalue < 1e-6
    assert test.tukey_pvalues is not None and test.tukey_pvalues[0][1] < 0.01
    assert significance([strong], "loop").note


def test_runner_records_match_in_process_and_resume(sample_families: list[TaskFamily], tmp_path: Path) -> None:
    in_process, _ = evaluate_in_process(EditD(), sample_families, rounds=2, samples=2)
    recorded, run_dir = evaluate_with_runner(
        EditD(), sample_families, rounds=2, samples=2, runs_dir=tmp_path, experts={"walk": 50.0}, report=write_report
    )
    assert recorded.references == in_process.references
    assert (Path(run_dir) / "samples.jsonl").is_file() and (Path(run_dir) / "report.html").is_file()
    report = (Path(run_dir) / "report.html").read_text()
    assert "TutorSS (experts, scored here on the same targets)" in report
    assert "SymSS (original code)" not in report  # EditD is never shown beside another method's name
    lines = (Path(run_dir) / "samples.jsonl").read_text().splitlines()
    assert len(lines) == 2 * 2 * 2 * 2 * 6
    again, same_dir = evaluate_with_runner(
        EditD(), sample_families, rounds=2, samples=2, runs_dir=tmp_path, resume=run_dir
    )
    assert same_dir == run_dir and again.references == in_process.references
    assert len((Path(run_dir) / "samples.jsonl").read_text().splitlines()) == len(lines)


def test_paper_numbers_stand_only_beside_the_same_method() -> None:
    assert comparable_paper_numbers("symss-original", "hoc4") == {
        "SymSS (original code) (paper, 3 targets)": 87.5,
        "RandD (paper, 3 targets)": 9.9,
        "TutorSS (experts) (paper, 3 targets)": 89.8,
    }
    for ours in ("behaviour-edits", "behaviour-edits-oracle-type", "neurss", "editembd"):
        beside = comparable_paper_numbers(ours, "hoc18")
        assert not any("SymSS" in label for label in beside)
        assert set(beside) == {"RandD (paper, 3 targets)", "TutorSS (experts) (paper, 3 targets)"}
    assert comparable_paper_numbers("editd", "walk") == {}


class _Cheater:
    """A test-only stand-in that knows the data from outside the interface: setting "a" finds the true answer only
    when asked about ``target``, setting "b" only elsewhere (so choosing on the other tasks always picks wrong)."""

    name = "cheater"
    settings: tuple[str, ...] = ("a", "b")
    reads_true_type = False

    def __init__(self, family: TaskFamily, target: str) -> None:
        self.family, self.target = family, target

    def prepare(self, brief: FamilyBrief) -> None:
        """Nothing to learn."""

    def _answer(self, question: Question) -> Program:
        student = next(
            a.student
            for a in self.family.students
            if a.task == question.reference.name and a.program == question.code_a
        )
        attempt = self.family.attempt_of(student, question.target.name)
        assert attempt is not None
        return attempt.program

    def predict(self, question: Question) -> dict[str, str]:
        right = self._answer(question)
        good = next(o.id for o in question.options if o.program == right)
        bad = next(o.id for o in question.options if o.program != right)
        on_target = question.target.name == self.target
        return {"a": good if on_target else bad, "b": bad if on_target else good}


def test_leave_one_target_out_chooses_on_the_other_targets(sample_families: list[TaskFamily]) -> None:
    walk = [f for f in sample_families if f.reference == "walk"]
    result = leave_one_target_out(_Cheater(walk[0], "walka"), walk, rounds=2, samples=3)
    held = {h.target: h for h in result.targets}
    assert set(held) == {"walka", "walkb"}
    # Each held-out target gets the setting that won on the other one, which is wrong on it: an honest 0 both ways,
    # where choosing on all targets together would have looked perfect.
    assert held["walka"].setting == "b" and held["walka"].tuned_on == ["walkb"] and held["walka"].mean == 0.0
    assert held["walkb"].setting == "a" and held["walkb"].tuned_on == ["walka"] and held["walkb"].mean == 0.0
    assert held["walka"].tuning_accuracy == 100.0
    assert held["walka"].instances_per_round == 3 * 6 and len(held["walka"].rounds) == 2
    assert result.references["walk"] == 0.0 and result.worst["walk"] == 0.0


def test_held_out_tasks_score_every_direction_with_settings_from_the_others(sample_families: list[TaskFamily]) -> None:
    walk = next(f for f in sample_families if f.reference == "walk")
    result = held_out_tasks(_Cheater(walk, "walka"), [walk], rounds=1, samples=2)
    directions = {(d.observed, d.target): d for d in result.directions}
    assert set(directions) == {(a, b) for a in walk.tasks for b in walk.tasks if a != b}
    into_a = directions[("walk", "walka")]
    # Chosen on directions that neither observe on walk nor ask about walka, where "b" is always right.
    assert into_a.tuned_on == ["walka->walk", "walka->walkb", "walkb->walk"]
    assert into_a.setting == "b" and into_a.mean == 0.0 and into_a.paper_direction
    assert not directions[("walkb", "walk")].paper_direction
    assert directions[("walkb", "walk")].mean == 100.0  # "b" is right away from walka
    assert result.worst.target == "walka" and result.worst.mean == 0.0
    assert result.targets["walk"]["walka"].worst == 0.0
    # walka -> walk is tuned on walk->walka, walk->walkb, walkb->walka, where "a" wins two to one: wrong there.
    assert result.targets["walk"]["walk"].by_observed == {"walka": 0.0, "walkb": 100.0}


def test_the_exact_expectation_agrees_with_many_draws(sample_families: list[TaskFamily]) -> None:
    from debugtutor.studentsyn import expected_accuracy, token_edit_distance

    # EditD scores each option on its own: its exact expected accuracy must match the mean over many seeded draws.
    walk = next(f for f in sample_families if f.reference == "walk")
    exact = {t: expected_accuracy(walk, "walk", t, lambda a, o: -token_edit_distance(a, o)) for t in walk.targets}
    drawn, _ = evaluate_in_process(EditD(), [walk], rounds=40, samples=5)
    assert abs(sum(exact.values()) / len(exact) - drawn.references["walk"].mean) < 3.0
    # A perfect scorer is right every time, a constant one is right one time in ten (bar identical codes).
    answers = {(a.program, b.program) for a in walk.students for b in walk.students if a.student == b.student}
    perfect = expected_accuracy(walk, "walk", "walka", lambda a, o: float((a, o) in answers))
    assert perfect == 100.0
    assert 9.0 <= expected_accuracy(walk, "walk", "walka", lambda a, o: 0.0) <= 15.0
