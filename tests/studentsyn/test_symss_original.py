"""The original SymSS re-implemented: grammar construction, normalisation, best-parse scores and the option choice,
checked against values worked out by hand from the original code's definitions."""

from __future__ import annotations

import math

import pytest

from debugtutor.errors import DataError
from debugtutor.maze import parse_compact
from debugtutor.studentsyn import Option, Question, SymSSOriginal, TaskFamily, brief_of, build_instances, sheets_of
from debugtutor.studentsyn.evaluation import evaluate_in_process
from debugtutor.studentsyn.symss_original import (
    Grammar,
    GrammarError,
    RuleList,
    basic_family_grammar,
    loop_family_grammar,
    program_tokens,
    scored_tokens,
)
from debugtutor.studentsyn.symss_original.generators import add_extra_action_slots
from debugtutor.studentsyn.symss_original.grammar import normalise
from debugtutor.studentsyn.symss_original.sampling import parse_tokens, top_derivations


def probability(grammar: Grammar, lhs: str, rhs: str) -> float:
    return next(p.probability for p in grammar.productions if p.lhs == lhs and p.rhs == tuple(rhs.split()))


def test_tokens_follow_the_original_form() -> None:
    loop = parse_compact("M RUG{IF(pathLeft){L M}ELSE{M}}")
    assert program_tokens(loop) == [
        "DEF",
        "run",
        "m(",
        "move",
        "WHILE",
        "c(",
        "bool_no_marker",
        "c)",
        "w(",
        "IFELSE",
        "c(",
        "bool_path_left",
        "c)",
        "i(",
        "turn_left",
        "move",
        "i)",
        "ELSE",
        "e(",
        "move",
        "e)",
        "w)",
        "m)",
    ]
    assert scored_tokens(parse_compact("M L")) == ["move", "turn_left"]


def test_the_lr_confusion_grammar_of_a_basic_task_by_hand() -> None:
    grammar = Grammar.build(basic_family_grammar(1, parse_compact("M L M R M")))
    # S: the whole path 9, three prefixes 0.5/3 each, the skip chain 0.5 and its shortened copy 0.5 * 2: sum 11.
    assert probability(grammar, "S", "M _S0") == round(9 / 11, 6)
    assert probability(grammar, "S", "M L") == round(0.5 / 3 / 11, 6)
    assert probability(grammar, "S", "M _S_SKIP_REM_LAST0") == round(1.0 / 11, 6)
    # The turn at position 1 may be skipped (weight 2 against the chain's 1).
    assert probability(grammar, "_S_SKIP0", "M _S_SKIP2") == round(2 / 3, 6)
    assert probability(grammar, "L", '"turn_right"') == 0.6
    # "M R M L M": the whole path with both turns mirrored, 0.818182 * 0.7 * 0.6 * 0.7 * 0.6 * 0.7, per token.
    expected = math.log(0.818182 * 0.7 * 0.6 * 0.7 * 0.6 * 0.7) / 5
    assert grammar.score(scored_tokens(parse_compact("M R M L M"))) == pytest.approx(expected, abs=1e-12)
    # Nothing derives a loop from a basic grammar.
    assert grammar.score(["WHILE"]) == float("-inf")


def test_repeated_productions_keep_the_first_weight_and_weights_are_rounded() -> None:
    rules = RuleList()
    rules.add("S", ["A B", "A B"], [1.0, 5.0])
    rules.add("S", ['"move"'], [2.0])
    rules.add("A", ['"move"'])
    rules.add("B", ['"turn_left"'])
    productions = normalise(rules)
    assert [(p.lhs, p.rhs, p.probability) for p in productions if p.lhs == "S"] == [
        ("S", ("A", "B"), round(1 / 3, 6)),
        ("S", ('"move"',), round(2 / 3, 6)),
    ]
    grammar = Grammar(productions)
    assert grammar.best_parse_probability(["move", "turn_left"]) == pytest.approx(0.333333)
    assert grammar.score(["move"]) == pytest.approx(math.log(0.666667))


def test_skipping_adjacent_positions_is_refused_as_in_the_original() -> None:
    with pytest.raises(GrammarError, match="adjacent"):
        RuleList().skippable("M L R M M", [1, 2], start_weight=1.0)
    with pytest.raises(GrammarError, match="no position"):
        RuleList().skippable("M M M", [], start_weight=1.0)


def test_loop_grammars_splice_extra_action_slots_and_drop_structures() -> None:
    assert add_extra_action_slots("WHILE C( BOOL_NO_MARKER C) W( IFELSE C( C_AHEAD C) I( M I) ELSE E( L E) W)") == (
        "A_ADD WHILE C( BOOL_NO_MARKER C) W( A_ADD IFELSE C( C_AHEAD C) I( A_ADD M A_ADD I) ELSE E( A_ADD L A_ADD E) "
        "A_ADD W)"
    )
    solution = parse_compact("RUG{IF(pathAhead){M}ELSE{L}}")
    basic = parse_compact("M L M M")
    distractor = parse_compact("RUG{IF(pathLeft){L M}ELSE{M}}")
    ignore_ifelse = Grammar.build(loop_family_grammar(4, solution, basic, (distractor,)))
    # Type 4 writes the loop body as plain actions: the IfElse scores nothing, the inlined body does.
    assert ignore_ifelse.score(scored_tokens(solution)) == float("-inf")
    assert ignore_ifelse.score(scored_tokens(parse_compact("RUG{M L M}"))) > float("-inf")
    # The extra-action slot's five weights for four alternatives: the fifth is ignored, so move is 2/5.
    assert probability(ignore_ifelse, "A_ADD", '"move"') == 0.4
    wrong_path = Grammar.build(loop_family_grammar(2, solution, basic, (distractor,)))
    assert wrong_path.score(scored_tokens(distractor)) > wrong_path.score(scored_tokens(solution))
    with pytest.raises(GrammarError, match="distractor"):
        loop_family_grammar(2, solution, basic, ())


def test_the_choice_is_the_best_scored_option_and_ties_go_by_content(sample_families: list[TaskFamily]) -> None:
    walk = next(f for f in sample_families if f.reference == "walk")
    symss = SymSSOriginal()
    symss.prepare(brief_of(walk))
    sheets = sheets_of(walk)
    observed = walk.attempts("walk", 1)[0].program
    assert symss.infer_type(sheets["walk"], observed) in walk.behaviour_ids
    options = (Option("a", parse_compact("M")), Option("b", walk.solutions["walka"]), Option("c", parse_compact("M")))
    question = Question(sheets["walk"], observed, sheets["walka"], options)
    scores = symss.option_scores(question)
    chosen = symss.predict(question)["default"]
    assert scores[[o.id for o in options].index(chosen)] == max(scores)


def test_a_loop_family_without_distractors_is_a_clear_error(sample_families: list[TaskFamily]) -> None:
    loop = next(f for f in sample_families if f.reference == "loop")
    stripped = TaskFamily(
        loop.reference,
        loop.root,
        loop.tasks,
        loop.solutions,
        loop.basic_solutions,
        loop.behaviours,
        loop.students,
        loop.random_codes,
    )
    with pytest.raises(DataError, match="distractors"):
        SymSSOriginal().prepare(brief_of(stripped))


def test_generation_samples_derivations_into_programs(sample_families: list[TaskFamily]) -> None:
    assert parse_tokens(["move", "WHILE", "c(", "bool_no_marker", "c)", "w(", "move", "w)"]) == parse_compact(
        "M RUG{M}"
    )
    assert parse_tokens(["WHILE", "move"]) is None
    import random

    grammar = Grammar.build(basic_family_grammar(2, parse_compact("M L M R M")))
    codes = top_derivations(grammar, 3, 200, random.Random(1))
    assert len(codes) == 3 and len(set(codes)) == 3
    assert all(grammar.score(scored_tokens(code)) > float("-inf") for code in codes)


@pytest.mark.shared_data
def test_type_inference_and_accuracy_on_the_shared_data(shared_families: list[TaskFamily]) -> None:
    # The original code scored 87.5 (hoc4) and 66.9 (hoc18) over three targets, with single draws of 360 instances
    # ranging 84.4-89.2 and 64.7-70.3; the shared copy has two of the three targets, so only the range is checked.
    accuracy, _ = evaluate_in_process(SymSSOriginal(), shared_families, rounds=3)
    assert 84.4 <= accuracy.references["hoc4"].mean <= 89.2
    assert 64.7 <= accuracy.references["hoc18"].mean <= 70.3
    for family in shared_families:
        instances = build_instances(family, samples=1)
        assert len(instances) == 6 * len(family.targets)
