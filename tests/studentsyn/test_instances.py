"""Discriminative instances: the paper's construction, seeded, sized from the data."""

from __future__ import annotations

from collections import Counter

import pytest

from debugtutor.studentsyn import TaskFamily, build_instances
from debugtutor.studentsyn.instances import DiscriminativeInstance


def family(families: list[TaskFamily], reference: str) -> TaskFamily:
    return next(f for f in families if f.reference == reference)


def _check(instance: DiscriminativeInstance, fam: TaskFamily) -> None:
    assert len(instance.options) == 10
    assert instance.option_sources[instance.label] == f"{instance.student}:answer"
    assert instance.options[instance.label] == fam.attempt_of(instance.student, instance.target_task).program  # type: ignore[union-attr]
    assert instance.option_sources.count("solution") == 1
    assert sum(s.startswith("rand") for s in instance.option_sources) == 3
    assert next(a.behaviour for a in fam.students if a.student == instance.student) == instance.behaviour
    other_types = sorted(int(s.split("mis_")[1]) for s in instance.option_sources if ":mis_" in s)
    assert other_types == [b for b in fam.behaviour_ids if b != instance.behaviour]


def test_sample_instances_are_seeded_and_well_formed(sample_families: list[TaskFamily]) -> None:
    walk = family(sample_families, "walk")
    first = build_instances(walk, samples=3, seed=7)
    assert len(first) == 3 * len(walk.targets) * 6
    assert first == build_instances(walk, samples=3, seed=7)
    assert first != build_instances(walk, samples=3, seed=8)
    assert first != build_instances(walk, samples=3, seed=7, round_index=1)
    for instance in first:
        _check(instance, walk)
    assert len({i.id for i in first}) == len(first)
    assert DiscriminativeInstance.from_json(first[0].to_json()) == first[0]


def test_duplicate_code_counts_as_correct(sample_families: list[TaskFamily]) -> None:
    instance = build_instances(family(sample_families, "walk"), samples=1)[0]
    duplicate = next(
        (i for i, o in enumerate(instance.options) if o == instance.options[instance.label] and i != instance.label),
        None,
    )
    assert instance.is_correct(instance.label)
    assert not instance.is_correct(len(instance.options))
    wrong = [i for i, o in enumerate(instance.options) if o != instance.options[instance.label]]
    assert wrong and not instance.is_correct(wrong[0])
    if duplicate is not None:
        assert instance.is_correct(duplicate)


@pytest.mark.shared_data
def test_shared_instances_follow_the_paper(shared_families: list[TaskFamily]) -> None:
    for fam in shared_families:
        instances = build_instances(fam)
        # 20 samples x (targets x 6 types): 360 with the published 3 targets, 240 with the shared copy's 2.
        assert len(instances) == 20 * len(fam.targets) * 6
        for instance in instances:
            _check(instance, fam)
        notes = Counter(s.split(":")[1] for i in instances for s in i.option_sources if s.startswith("rand"))
        if fam.reference == "hoc4":
            assert set(notes) == {"edit_2", "edit_5", "edit_10"} and len(set(notes.values())) == 1
        else:
            assert notes["edit_2"] == len(instances)
