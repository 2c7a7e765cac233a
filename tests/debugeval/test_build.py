"""Building instances: balanced identification, diff-based localization options, review pairs, repair tests,
determinism for a seed and train/test splits by problem."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from debugtutor.debugeval.build import (
    BuildSettings,
    balanced_letters,
    build_from_debugbench,
    golden_snippet,
    localization_options,
    split_of,
    stratified_sample,
    write_build,
)
from debugtutor.debugeval.debugbench import DebugBenchItem, major_of
from debugtutor.debugeval.problem_tests import problem_tests
from debugtutor.debugeval.records import load_records, option_text

ORACLE = """class Solution:
    def total(self, nums: List[int], k: int) -> int:
        result = 0
        smallest = min(nums)
        largest_value_seen = max(nums)
        n = len(nums)
        for value in nums:
            if value > k:
                result += value
        spread = largest_value_seen - smallest
        half = n // 2
        middle_of_sorted_values = sorted(nums)[half]
        a = 1
        b = 2
        total_count_of_values = n + spread * 0
        return result
"""
EXAMPLES = ["Input: nums = [1,5,7], k = 4\nOutput: 12", "Input: nums = [2], k = 3\nOutput: 0"]


def _item(slug: str, minor: str, buggy: str) -> DebugBenchItem:
    return DebugBenchItem(
        language="python", minor_type=minor, major_type=major_of(minor), slug=slug, description="Sum above k.",
        examples=EXAMPLES, oracle_code=ORACLE, buggy_code=buggy,
    )  # fmt: skip


def _pool() -> list[DebugBenchItem]:
    pool = []
    for index in range(6):
        slug = f"problem-{index}"
        pool.append(_item(slug, "condition error", ORACLE.replace("value > k", "value >= k")))
        pool.append(_item(slug, "missing colons", ORACLE.replace("for value in nums:", "for value in nums")))
        pool.append(_item(slug, "undefined objects", ORACLE.replace("result += value", "result += valu")))
        pool.append(_item(slug, "double", ORACLE.replace("value > k", "value >= k").replace("= 0", "= 1")))
    pool.append(_item("problem-extra", "operation error", ORACLE.replace("result += value", "result -= value")))
    return pool


def test_golden_snippet_is_the_buggy_side_of_the_one_hunk() -> None:
    buggy = ORACLE.replace("value > k", "value >= k")
    snippet, indexes = golden_snippet(buggy, ORACLE, "python")  # type: ignore[misc]
    assert snippet == "if value>=k:"  # every option in the same spacing
    assert option_text(buggy.splitlines()[indexes[0]]) == snippet
    two_hunks = buggy.replace("= 0", "= 1")
    assert golden_snippet(two_hunks, ORACLE, "python") is None


def test_indentation_bug_is_shown_like_every_other_option() -> None:
    # its leading spaces would give it away: the option is the line's text, the code shows the layout
    buggy = ORACLE.replace("        return result", "            return result")
    snippet, indexes = golden_snippet(buggy, ORACLE, "python")  # type: ignore[misc]
    assert snippet == "return result" and indexes == [len(buggy.splitlines()) - 1]


def test_stratified_sample_keeps_minor_shares() -> None:
    import random

    items = [_item("s", "condition error", "a")] * 6 + [_item("s", "operation error", "b")] * 2
    chosen = stratified_sample(items, 4, random.Random(0))
    assert Counter(i.minor_type for i in chosen) == {"condition error": 3, "operation error": 1}


def test_balanced_letters() -> None:
    import random

    assert Counter(balanced_letters(10, random.Random(1))) == {"A": 3, "B": 3, "C": 2, "D": 2}


def test_build_rules_and_determinism(tmp_path: Path) -> None:
    settings = BuildSettings(seed=3, review_per_category=3, repair_languages=(), train_fraction=0.5)
    task124, task3, report = build_from_debugbench(_pool(), settings)
    assert task3 == []
    # identification: every category sampled down to the smallest (logic: 7 items)
    chosen = Counter(r.task2_choice for r in task124 if r.task2_choice)
    assert set(chosen.values()) == {6} and len(chosen) == 4
    assert report.counts["code-review"]["python"] == 12
    localization = [r for r in task124 if r.task1_options]
    assert localization and all(r.major_error_type != "multiple error" for r in localization)
    oracle_lines = [option_text(line) for line in ORACLE.splitlines()]
    for record in localization:
        options = record.option_texts()
        gold = options["ABCD".index(record.task1_answer[1])]
        assert gold not in oracle_lines and len(set(options)) == 4
        assert all(option in oracle_lines for option in options if option != gold)
        # indistinguishable by form: as many lines, no indentation, the same spacing
        assert len({option.count("\n") for option in options}) == 1
        assert all(option == option_text(option) for option in options)
    # one problem never sits on both sides of the split
    sides: dict[str, set[str]] = {}
    for record in task124:
        sides.setdefault(record.slug, set()).add(record.split)
        assert record.split == split_of(record.slug, 3, 0.5)
    assert all(len(side) == 1 for side in sides.values())
    assert {"train", "test"} <= {side for found in sides.values() for side in found}
    # same seed, same bytes; another seed, other choices
    write_build(tmp_path / "a", task124, task3, report)
    again = build_from_debugbench(list(reversed(_pool())), settings)
    write_build(tmp_path / "b", again[0], again[1], again[2])
    assert (tmp_path / "a" / "debugevalsuite_task124.jsonl").read_bytes() == (
        tmp_path / "b" / "debugevalsuite_task124.jsonl"
    ).read_bytes()
    other = build_from_debugbench(_pool(), BuildSettings(seed=4, review_per_category=3, repair_languages=()))[0]
    assert [r.task1_answer for r in other] != [r.task1_answer for r in task124] or [
        r.question_id for r in other if r.task2_choice
    ] != [r.question_id for r in task124 if r.task2_choice]
    assert load_records(tmp_path / "a")[0] == task124[0]


def test_repair_tests_come_from_the_oracle_and_buggy_code_fails_them() -> None:
    item = _item("p", "condition error", ORACLE.replace("value > k", "value >= k"))
    tests = problem_tests(item, extra=4, seed=0)
    assert tests is not None and tests.method == "total"
    assert tests.calls[0].expected == 12 and len(tests.calls) > len(EXAMPLES)
    _, task3, _ = build_from_debugbench([item], BuildSettings(repair_extra_tests=4))
    assert len(task3) == 1 and task3[0].tests_kind == "leetcode" and task3[0].leetcode_calls
    again = build_from_debugbench([item], BuildSettings(repair_extra_tests=4))[1]
    assert [r.model_dump() for r in again] == [r.model_dump() for r in task3]  # no run-to-run timing in the files


def test_gold_length_rank_is_drawn_uniformly_and_hides_nothing() -> None:
    import random

    item = _item("p", "condition error", ORACLE.replace("value > k", "value >= k"))
    ranks: Counter[int] = Counter()
    for seed in range(200):
        options = localization_options(item, random.Random(seed))
        assert options is not None
        shorter = sum(1 for text in options.distractors if len(text) < len(options.gold))
        ranks[shorter] += 1
    assert set(ranks) == {0, 1, 2, 3} and min(ranks.values()) > 30  # each rank about a quarter of the draws
    # too few lines on one side of the gold's length: the item is not used rather than given a telling rank
    small = "\n".join(ORACLE.splitlines()[:9]) + "\n"
    short = _item("q", "condition error", small.replace("value > k", "value >= k")).model_copy(
        update={"oracle_code": small}
    )
    assert golden_snippet(short.buggy_code, small, "python") is not None
    assert localization_options(short, random.Random(0)) is None


def test_items_whose_correct_code_is_in_another_language_are_dropped() -> None:
    # DebugBench files some Python solutions as Java items: a review pair or repair test built from them is broken
    mislabelled = _item("p", "condition error", ORACLE.replace("value > k", "value >= k")).model_copy(
        update={"language": "java"}
    )
    task124, _, report = build_from_debugbench([mislabelled, *_pool()], BuildSettings(repair_languages=()))
    assert all(record.language == "python" for record in task124)
    assert report.dropped["the item's correct code is in another language"] == 1
