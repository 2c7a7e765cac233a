"""Techniques: EditD as the paper defines it, RandD, and our behaviour edits with the type inferred or revealed."""

from __future__ import annotations

import pytest

from debugtutor.errors import InputError
from debugtutor.maze import parse_compact, token_sequence
from debugtutor.studentsyn import (
    BehaviourEdits,
    BehaviourEditsOracleType,
    EditD,
    RandD,
    TaskFamily,
    brief_of,
    build_instances,
    evaluate_in_process,
    make_technique,
    present,
    sheets_of,
    token_edit_distance,
    tree_edit_distance,
)
from debugtutor.studentsyn.evaluation import held_out_tasks


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
    walk = family(sample_families, "walk")
    instance = build_instances(walk, samples=1)[0]
    question = present(instance, sheets_of(walk)).question
    choice = EditD().predict(question)["default"]
    distances = {o.id: token_edit_distance(question.code_a, o.program) for o in question.options}
    assert distances[choice] == min(distances.values())
    assert RandD(seed=1).predict(question) == RandD(seed=1).predict(question)
    picks = {RandD(seed=s).predict(question)["default"] for s in range(40)}
    assert len(picks) > 3


def test_randd_is_near_chance_over_many_instances(sample_families: list[TaskFamily]) -> None:
    accuracy, _ = evaluate_in_process(RandD(), sample_families, rounds=4, samples=10)
    for reference in ("walk", "loop"):
        assert 3.0 <= accuracy.references[reference].mean <= 22.0


def test_the_oracle_variant_reads_the_type_only_through_its_channel(sample_families: list[TaskFamily]) -> None:
    loop = family(sample_families, "loop")
    oracle = BehaviourEditsOracleType()
    oracle.prepare(brief_of(loop))
    instance = build_instances(loop, samples=1)[0]
    with pytest.raises(InputError, match="reveal"):
        oracle.predict(present(instance, sheets_of(loop)).question)
    assert oracle.reads_true_type and not BehaviourEdits.reads_true_type
    assert set(oracle.predict(present(instance, sheets_of(loop), reveal_type=True).question)) == set(oracle.settings)


def test_behaviour_edits_settings_are_background_weights(sample_families: list[TaskFamily]) -> None:
    loop = family(sample_families, "loop")
    edits = BehaviourEdits()
    edits.prepare(brief_of(loop))
    assert edits.settings == tuple(f"background={w:g}" for w in BehaviourEdits.BACKGROUND_WEIGHTS)
    question = present(build_instances(loop, samples=1)[0], sheets_of(loop)).question
    choices = edits.predict(question)
    assert set(choices) == set(edits.settings)
    single = BehaviourEdits(background_weights=(1.0,))
    single.prepare(brief_of(loop))
    assert single.settings == ("default",)
    assert single.predict(question)["default"] == choices["background=1"]


def test_old_names_point_to_the_new_ones() -> None:
    with pytest.raises(InputError) as raised:
        make_technique("symss-infer")
    assert "symss-original" in str(raised.value) and "behaviour-edits" in str(raised.value)


def test_behaviour_edits_beat_editd_in_every_direction_of_the_sample(sample_families: list[TaskFamily]) -> None:
    ours = held_out_tasks(BehaviourEdits(), sample_families, rounds=1, samples=3)
    editd = held_out_tasks(EditD(), sample_families, rounds=1, samples=3)
    assert len(ours.directions) == 12
    assert ours.worst.mean > 0 and ours.worst.mean >= editd.worst.mean


@pytest.mark.shared_data
def test_type_inference_on_the_shared_tasks(shared_families: list[TaskFamily]) -> None:
    # Every task of every family in turn is the observed one: at most a few students of 72 get the wrong type.
    wrong = []
    for fam in shared_families:
        edits = BehaviourEdits()
        sheets = sheets_of(fam)
        edits.prepare(brief_of(fam))
        wrong += [a for a in fam.students if edits.infer_type(sheets[a.task], a.program) != a.behaviour]
    assert len(wrong) <= 4


@pytest.mark.shared_data
@pytest.mark.slow
def test_behaviour_edits_held_out_both_ways_on_the_shared_data(shared_families: list[TaskFamily]) -> None:
    ours = held_out_tasks(BehaviourEdits(), shared_families, rounds=1)
    randd = held_out_tasks(RandD(), shared_families, rounds=1)
    assert ours.worst_swapped is not None and ours.worst_paper_direction is not None
    assert ours.worst.mean >= 70.0 > 3 * randd.worst.mean


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
