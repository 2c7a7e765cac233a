"""NeurSS: synthetic tasks and students, a tiny seeded training run on the built-in sample, the weight cache."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from debugtutor.errors import MissingExtraError
from debugtutor.maze import RepeatUntilGoal, execute, program_from_json, program_to_json
from debugtutor.studentsyn import (
    EditD,
    TaskFamily,
    brief_of,
    build_instances,
    evaluate_in_process,
    present,
    sheets_of,
    task_context,
)
from debugtutor.studentsyn.behaviour_edits import TaskContext, behaviour_model, has_control
from debugtutor.studentsyn.neurss import (
    NeurSS,
    NeurSSConfig,
    SyntheticStudent,
    build_training_data,
    synthetic_tasks,
)

TINY = NeurSSConfig(synthetic_tasks=8, groups=240, steps=70)


def family(families: list[TaskFamily], reference: str) -> TaskFamily:
    return next(f for f in families if f.reference == reference)


def reference_context(fam: TaskFamily) -> TaskContext:
    return task_context(fam.tasks[fam.reference], fam.solutions[fam.reference])


@pytest.mark.parametrize("reference", ["walk", "loop"])
def test_synthetic_tasks_are_solved_and_of_the_reference_kind(
    sample_families: list[TaskFamily], reference: str
) -> None:
    ctx = reference_context(family(sample_families, reference))
    tasks = synthetic_tasks(ctx, 6, seed=3)
    assert len(tasks) == 6
    assert [t.task.grid for t in tasks] == [t.task.grid for t in synthetic_tasks(ctx, 6, seed=3)]
    assert [t.task.grid for t in tasks] != [t.task.grid for t in synthetic_tasks(ctx, 6, seed=4)]
    for task in tasks:
        assert execute(task.task, task.solution).success
        assert has_control(task.solution) == has_control(ctx.solution)
        assert task.task.grid != ctx.task.grid
    if reference == "loop":
        assert all(isinstance(t.solution.body[-1], RepeatUntilGoal) for t in tasks)


def test_a_synthetic_student_draws_from_its_behaviour_and_slips_when_told(sample_families: list[TaskFamily]) -> None:
    walk = family(sample_families, "walk")
    model = behaviour_model(reference_context(walk), "forgetting to include some turns needed in the solution")
    steady = SyntheticStudent(5, 0.0, seed=1)
    assert steady.attempt(model, "t") == steady.attempt(model, "t")
    drawn = {SyntheticStudent(5, 0.0, seed=s).attempt(model, "t") for s in range(20)}
    assert len(drawn) > 1 and all(model.log_likelihood(p) > float("-inf") for p in drawn)
    slipped = {SyntheticStudent(5, 1.0, seed=s).attempt(model, "t") for s in range(20)}
    assert slipped - drawn


def test_training_groups_never_use_the_target_tasks(sample_families: list[TaskFamily]) -> None:
    loop = family(sample_families, "loop")
    data = build_training_data(brief_of(loop), NeurSSConfig(synthetic_tasks=6, groups=40))
    assert len(data.options) == 40 and all(len(options) == 10 for options in data.options)
    assert all(0 <= label < 10 for label in data.label)
    grids = {ctx.task.grid for ctx, _ in data.table.index}
    assert loop.tasks[loop.reference].grid in grids
    assert not grids & {loop.tasks[t].grid for t in loop.targets}
    # Every group's label points at an option and the options are indices into the item table.
    assert max(max(options) for options in data.options) < len(data.table.tokens)


def test_the_cache_key_follows_the_config_and_the_family(sample_families: list[TaskFamily]) -> None:
    walk, loop = brief_of(family(sample_families, "walk")), brief_of(family(sample_families, "loop"))
    assert TINY.key(walk) == NeurSSConfig(synthetic_tasks=8, groups=240, steps=70).key(walk)
    assert TINY.key(walk) != TINY.key(loop)
    assert TINY.key(walk) != NeurSSConfig(synthetic_tasks=8, groups=240, steps=71).key(walk)
    assert TINY.key(walk) != TINY.key(brief_of(family(sample_families, "walk"), "walka"))


def test_the_cache_key_follows_the_rules(sample_families: list[TaskFamily], monkeypatch: pytest.MonkeyPatch) -> None:
    from debugtutor.maze import parse_compact
    from debugtutor.studentsyn import neurss

    walk = brief_of(family(sample_families, "walk"))
    before = TINY.key(walk)
    original = neurss.behaviour_model

    def changed(ctx, description):  # type: ignore[no-untyped-def]
        model = original(ctx, description)
        model.bases = [(parse_compact("M"), 1.0)]
        return model

    monkeypatch.setattr(neurss, "behaviour_model", changed)
    assert TINY.key(walk) != before


def test_missing_torch_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)
    with pytest.raises(MissingExtraError) as raised:
        NeurSS(TINY)
    assert "hf" in str(raised.value)


@pytest.mark.hf
@pytest.mark.slow
def test_tiny_training_learns_caches_and_beats_editd(sample_families: list[TaskFamily], tmp_path: Path) -> None:
    neurss = NeurSS(TINY, cache_dir=tmp_path)
    accuracy, _ = evaluate_in_process(neurss, sample_families, rounds=2, samples=5)
    assert neurss.from_cache == {"walk": False, "loop": False}
    for model in neurss._models.values():
        assert model.losses[-1] < model.losses[0] / 2
    assert len(list(tmp_path.glob("*.pt"))) == 2
    editd, _ = evaluate_in_process(EditD(), sample_families, rounds=2, samples=5)
    assert accuracy.references["walk"].mean > editd.references["walk"].mean
    mean = sum(a.mean for a in accuracy.references.values()) / 2
    assert mean > sum(a.mean for a in editd.references.values()) / 2

    # A second instance loads the same weights instead of training, and answers the same.
    again = NeurSS(TINY, cache_dir=tmp_path)
    repeated, _ = evaluate_in_process(again, sample_families, rounds=2, samples=5)
    assert again.from_cache == {"walk": True, "loop": True}
    assert repeated.references == accuracy.references

    loop = family(sample_families, "loop")
    question = present(build_instances(loop, samples=1)[0], sheets_of(loop)).question
    codes = again.synthesize(question, top_k=3)
    assert len(codes) == 3 and len(set(codes)) == 3
    assert all(program_from_json(program_to_json(code)) == code for code in codes)
