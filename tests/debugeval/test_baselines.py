"""Tests for the DebugEval tasks' trivial baselines."""

from __future__ import annotations

from debugtutor.debugeval.baselines import baseline_accuracy, baseline_by_item, baseline_percent, baseline_scores
from debugtutor.debugeval.offline import tie_break
from debugtutor.runs import EvalItem


def _choice(task: str, number: int, gold: str, language: str) -> EvalItem:
    return EvalItem(
        id=f"{task}:{language}-{number}", input={"task": task}, target=gold, metadata={"language": language}
    )


def _review(number: int, buggy: str, correct: str) -> EvalItem:
    record = {"buggy_code": buggy, "correct_code": correct}
    return EvalItem(id=f"code-review:{number}", input={"task": "code-review", "record": record}, target=None,
                    metadata={"language": "cpp"})  # fmt: skip


def test_the_most_frequent_letter_is_counted_per_language_and_over_all() -> None:
    items = [_choice("bug-identification", n, gold, "cpp") for n, gold in enumerate("AABC")]
    items += [_choice("bug-identification", n, gold, "java") for n, gold in enumerate("CCCD")]
    found = baseline_accuracy(items)["bug-identification"]
    assert found == {"cpp": 50.0, "java": 75.0, "all": 50.0}  # over all, C is 4 of 8


def test_the_review_coin_flip_scores_an_item_only_when_it_lands_on_the_buggy_side_in_both_orders() -> None:
    pairs = [(f"int f() {{ return {n}; }}", f"int f() {{ return {n + 1}; }}") for n in range(12)]
    scores = baseline_scores("code-review", [_review(n, buggy, correct) for n, (buggy, correct) in enumerate(pairs)])
    assert scores == [float(tie_break(buggy, correct) == "A") for buggy, correct in pairs]
    assert 0 < sum(scores) < len(scores)  # a coin, not a constant


def test_repair_unchanged_passes_nothing_and_an_empty_task_has_no_baseline() -> None:
    assert baseline_scores("code-repair", [_choice("code-repair", 0, "", "java")]) == [0.0]
    assert baseline_scores("bug-localization", []) == []


def test_a_stopped_runs_baseline_covers_only_the_items_it_recorded() -> None:
    items = [_choice("bug-identification", n, gold, "cpp") for n, gold in enumerate("AAAB")]
    by_item = baseline_by_item(items)
    # the letter is fixed on the whole draw (A); the two recorded items are the ones it gets wrong and right
    assert baseline_percent(by_item, ["bug-identification:cpp-3", "bug-identification:cpp-0"]) == {
        "bug-identification": {"all": 50.0, "cpp": 50.0}
    }
    assert baseline_percent(by_item, []) == {}
