"""Leaks are impossible by construction: a technique sees only what a Question holds, and its choices do not move when
everything hidden is blanked, the options are reshuffled under new ids and the tasks are renamed."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import pytest

from debugtutor.llm import ScriptedModel
from debugtutor.llm.scripted import ScriptRule
from debugtutor.maze import Program
from debugtutor.studentsyn import (
    BehaviourEdits,
    BehaviourEditsOracleType,
    EditD,
    FamilyBrief,
    Option,
    Question,
    RandD,
    SymSSOriginal,
    TaskFamily,
    TaskSheet,
    Technique,
    brief_of,
    build_instances,
    present,
    sheets_of,
)
from debugtutor.studentsyn.instances import DiscriminativeInstance


def test_a_question_holds_only_the_visible_parts() -> None:
    # A new field on any of these is a new channel to the technique: it must be added here on purpose.
    assert {f.name for f in dataclasses.fields(Question)} == {
        "reference",
        "code_a",
        "target",
        "options",
        "revealed_type",
    }
    assert {f.name for f in dataclasses.fields(Option)} == {"id", "program"}
    assert {f.name for f in dataclasses.fields(TaskSheet)} == {
        "name",
        "task",
        "solution",
        "basic_solution",
        "distractors",
    }
    # prepare() sees task sheets and the type catalogue: no student attempt at all.
    assert {f.name for f in dataclasses.fields(FamilyBrief)} == {"reference", "tasks", "behaviours"}


def test_present_hides_the_label_and_reveals_the_type_only_when_asked(sample_families: list[TaskFamily]) -> None:
    walk = next(f for f in sample_families if f.reference == "walk")
    instance = build_instances(walk, samples=1)[0]
    sheets = sheets_of(walk)
    shown = present(instance, sheets, seed=1)
    assert shown.question.revealed_type is None
    assert sorted(shown.positions.values()) == list(range(10))
    assert [o.program for o in shown.question.options] == [
        instance.options[shown.positions[o.id]] for o in shown.question.options
    ]
    # Ids carry nothing: they are fresh per presentation, as is the order.
    again = present(instance, sheets, seed=2)
    assert {o.id for o in again.question.options}.isdisjoint({o.id for o in shown.question.options})
    assert present(instance, sheets, seed=1, reveal_type=True).question.revealed_type == instance.behaviour


def _blanked(instance: DiscriminativeInstance, names: dict[str, str], keep_type: bool) -> DiscriminativeInstance:
    """Everything hidden replaced by nothing: no id, no label, no sources, no student, no type (unless the technique
    reads the type through its named channel), and the tasks renamed."""
    return dataclasses.replace(
        instance,
        id="blank",
        reference_task=names[instance.reference_task],
        target_task=names[instance.target_task],
        behaviour=instance.behaviour if keep_type else 0,
        student="",
        option_sources=("",) * len(instance.options),
        label=0,
    )


def _renamed(brief: FamilyBrief, names: dict[str, str]) -> FamilyBrief:
    tasks = tuple(sorted((s.renamed(names[s.name]) for s in brief.tasks), key=lambda s: s.name))
    return FamilyBrief(brief.reference.renamed(names[brief.reference.name]), tasks, brief.behaviours)


def _choices(
    make: Callable[[], Technique], family: TaskFamily, observed: str, names: dict[str, str] | None
) -> tuple[list[Program], list[list[int]]]:
    technique = make()
    brief = brief_of(family, observed)
    sheets = sheets_of(family)
    if names is not None:
        brief = _renamed(brief, names)
        sheets = {names[n]: s.renamed(names[n]) for n, s in sheets.items()}
    technique.prepare(brief)
    chosen: list[Program] = []
    positions: list[list[int]] = []
    for instance in build_instances(family, samples=1, seed=3, observed=observed):
        if names is not None:
            instance = _blanked(instance, names, keep_type=technique.reads_true_type)
        shown = present(instance, sheets, seed="again" if names else 0, reveal_type=technique.reads_true_type)
        picks = technique.predict(shown.question)
        chosen.extend(instance.options[shown.positions[picks[s]]] for s in technique.settings)
        positions.append([shown.positions[o.id] for o in shown.question.options])
    return chosen, positions


def _techniques() -> list[tuple[str, Callable[[], Technique]]]:
    techniques: list[tuple[str, Callable[[], Technique]]] = [
        ("randd", RandD),
        ("editd", EditD),
        ("symss-original", SymSSOriginal),
        ("behaviour-edits", BehaviourEdits),
        ("behaviour-edits-oracle-type", BehaviourEditsOracleType),
    ]
    from debugtutor.studentsyn.llmss import LLMSS

    # The scripted model answers every prompt alike; its choice still goes through the question's options.
    answer = ScriptRule(match=".", response="```\nM M L M\n```")
    techniques.append(("llmss", lambda: LLMSS(ScriptedModel(rules=[answer]))))
    return techniques


@pytest.mark.parametrize("observed", ["reference", "swapped"])
def test_choices_do_not_move_when_everything_hidden_is_blanked(
    sample_families: list[TaskFamily], observed: str
) -> None:
    for family in sample_families:
        task = family.reference if observed == "reference" else family.targets[0]
        names = {name: f"task{i}" for i, name in enumerate(sorted(family.tasks, reverse=True))}
        for label, make in _techniques():
            first, first_order = _choices(make, family, task, None)
            second, second_order = _choices(make, family, task, names)
            assert first == second, f"{label} changed its choices on {family.reference} observed on {task}"
            assert first_order != second_order  # the options really were presented differently


@pytest.mark.hf
def test_trained_techniques_do_not_move_either(sample_families: list[TaskFamily], tmp_path: Path) -> None:
    from debugtutor.studentsyn import EditEmbD
    from debugtutor.studentsyn.neurss import NeurSS, NeurSSConfig

    tiny = NeurSSConfig(synthetic_tasks=4, groups=60, steps=15)
    loop = next(f for f in sample_families if f.reference == "loop")
    names = {name: f"task{i}" for i, name in enumerate(sorted(loop.tasks, reverse=True))}
    trained: list[tuple[str, Callable[[], Technique]]] = [
        ("editembd", lambda: EditEmbD(generated_codes=80, pairs=200, steps=20)),
        ("neurss", lambda: NeurSS(tiny, cache_dir=tmp_path)),
    ]
    for label, make in trained:
        first, _ = _choices(make, loop, loop.reference, None)
        second, _ = _choices(make, loop, loop.reference, names)
        assert first == second, f"{label} changed its choices"
    # The renamed family reused the trained weights: the cache key holds the task's content, not its name.
    assert len(list(tmp_path.glob("*.pt"))) == 1
