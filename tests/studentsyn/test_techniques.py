"""Techniques: EditD as the paper defines it, seeded RandD, SymSS type inference and accuracy."""

from __future__ import annotations

import pytest

from debugtutor.maze import parse_compact, token_sequence
from debugtutor.studentsyn import (
    EditD,
    RandD,
    SymSS,
    TaskFamily,
    build_instances,
    evaluate_in_process,
    token_edit_distance,
    tree_edit_distance,
)


def family(families: list[TaskFamily], reference: str) -> TaskFamily:
    return next(f for f in families if f.reference == reference)


def test_editd_distance_is_levenshtein_over_the_paper_tokens() -> None:
    a, b = parse_compact("M L M R M"), parse_compact("M R M L M")
    assert token_sequence(a) == [1, 2, 4, 2, 8, 2, 7]
    assert token_edit_distance(a, b) == 2
    assert token_edit_distance(a, a) == 0
    assert tree_edit_distance(a, parse_compact("M L M R")) == 1
    loop = parse_compact("RUG{IF(pathAhead){M}ELSE{L}}")
    assert tree_edit_distance(loop, parse_compact("RUG{IF(pathAhead){M}ELSE{R}}")) == 1


def test_editd_and_randd_choices(sample_families: list[TaskFamily]) -> None:
    instance = build_instances(family(sample_families, "walk"), samples=1)[0]
    choice = EditD().predict(instance)["default"]
    distances = [token_edit_distance(instance.code_a, o) for o in instance.options]
    assert distances[choice] == min(distances) and choice == distances.index(min(distances))
    assert RandD(seed=1).predict(instance) == RandD(seed=1).predict(instance)
    picks = {RandD(seed=s).predict(instance)["default"] for s in range(40)}
    assert len(picks) > 3


def test_symss_on_the_sample_beats_editd(sample_families: list[TaskFamily]) -> None:
    symss, _ = evaluate_in_process(SymSS(infer_type=True), sample_families, rounds=1, samples=5)
    editd, _ = evaluate_in_process(EditD(), sample_families, rounds=1, samples=5)
    for reference in ("walk", "loop"):
        assert symss.references[reference].mean > editd.references[reference].mean


@pytest.mark.shared_data
def test_type_inference_on_the_shared_reference_tasks(shared_families: list[TaskFamily]) -> None:
    for fam in shared_families:
        symss = SymSS(infer_type=True)
        symss.prepare(fam)
        attempts = [a for a in fam.students if a.task == fam.reference]
        wrong = [a.student for a in attempts if symss.observe(fam.reference, a.program) != a.behaviour]
        assert wrong == []


@pytest.mark.shared_data
@pytest.mark.slow
def test_symss_accuracy_on_the_shared_benchmark(shared_families: list[TaskFamily]) -> None:
    inferred, _ = evaluate_in_process(SymSS(infer_type=True), shared_families, rounds=1)
    editd, _ = evaluate_in_process(EditD(), shared_families, rounds=1)
    for reference in ("hoc4", "hoc18"):
        assert inferred.references[reference].mean >= 80.0
        assert inferred.references[reference].mean > editd.references[reference].mean + 30


def test_symss_settings_are_background_costs(sample_families: list[TaskFamily]) -> None:
    symss = SymSS(infer_type=True)
    symss.prepare(family(sample_families, "loop"))
    assert symss.settings == tuple(f"background={c}" for c in SymSS.BACKGROUND_COSTS)
    instance = build_instances(family(sample_families, "loop"), samples=1)[0]
    choices = symss.predict(instance)
    assert set(choices) == set(symss.settings) and all(0 <= c < 10 for c in choices.values())
    single = SymSS(infer_type=True, background_costs=(0.9,))
    single.prepare(family(sample_families, "loop"))
    assert single.settings == ("default",)
    assert single.predict(instance)["default"] == choices["background=0.9"]


@pytest.mark.shared_data
@pytest.mark.slow
def test_symss_infer_beats_the_experts_on_held_out_targets(shared_families: list[TaskFamily]) -> None:
    from debugtutor.studentsyn.evaluation import PUBLISHED, leave_one_target_out

    result = leave_one_target_out(SymSS(infer_type=True), shared_families, rounds=2)
    for held in result.targets:
        assert held.target not in held.tuned_on
    for reference in ("hoc4", "hoc18"):
        assert result.references[reference] > PUBLISHED[reference]["TutorSS (human experts)"]


@pytest.mark.hf
@pytest.mark.slow
def test_editembd_embedding_learns_tree_distance(sample_families: list[TaskFamily]) -> None:
    from debugtutor.studentsyn.embedding import CodeEmbedder, generate_codes

    walk = family(sample_families, "walk")
    codes = generate_codes(list(walk.solutions.values()), 200, seed=1)
    embedder = CodeEmbedder(seed=1)
    losses = embedder.fit(codes, pairs=400, steps=80)
    assert losses[-1] < losses[0] / 2
    a, b = codes[0], codes[1]
    assert embedder.distance(a, a) == pytest.approx(0.0, abs=1e-5)
    assert embedder.distance(a, b) == pytest.approx(embedder.distance(b, a), rel=1e-5)
