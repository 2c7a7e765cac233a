"""Mutation: every category yields verified mutants, the logic filter drops edits no test notices, seeds repeat."""

from __future__ import annotations

import pytest

from debugtutor.analysis.mutation import killed_by_tests, mutate
from debugtutor.sandbox import PythonTestsRequest, run

COUNT_EVENS = """def count_evens(nums):
    count = 0
    for i in range(0, len(nums)):
        if nums[i] % 2 == 0:
            count += 1
    return count
"""
TESTS = [
    "assert count_evens([1, 2, 4]) == 2",
    "assert count_evens([]) == 0",
    "assert count_evens([3, 5, 6, 8, 10]) == 3",
]

SQUARES = """def squares(n):
    result = []
    for k in range(1, n + 1):
        result.append(k * k)
    return result
"""
SQUARE_TESTS = ["assert squares(3) == [1, 4, 9]", "assert squares(0) == []"]


@pytest.mark.parametrize("category", ["syntax", "reference", "logic"])
def test_each_category_yields_mutants_of_that_category(category: str) -> None:
    mutants = mutate(COUNT_EVENS, TESTS, categories=[category], count=3, seed=3)
    assert mutants
    for mutant in mutants:
        assert mutant.category == category
        assert mutant.source != COUNT_EVENS
        report = run(PythonTestsRequest(code=mutant.source, tests=TESTS))
        assert killed_by_tests(report) or category == "reference"
        if category == "syntax":
            with pytest.raises(SyntaxError):
                compile(mutant.source, "<m>", "exec")


def test_logic_filter_drops_mutants_no_test_notices() -> None:
    # with only an empty-input test, no logic edit inside the loop changes an outcome
    weak = ["assert squares(0) == []"]
    strong = mutate(SQUARES, SQUARE_TESTS, categories=["logic"], count=40, seed=0, max_attempts=200)
    weak_mutants = mutate(SQUARES, weak, categories=["logic"], count=40, seed=0, max_attempts=200)
    assert len(weak_mutants) < len(strong)
    for mutant in weak_mutants:
        assert killed_by_tests(run(PythonTestsRequest(code=mutant.source, tests=weak)))


def test_higher_orders_stack_edits_on_distinct_lines() -> None:
    for order in (2, 3, 4):
        mutants = mutate(COUNT_EVENS, TESTS, order=order, count=2, seed=order)
        assert mutants
        for mutant in mutants:
            assert mutant.category == "multiple"
            assert len(mutant.operators) == order and len(set(mutant.lines)) == order


def test_same_seed_same_mutants() -> None:
    first = mutate(COUNT_EVENS, None, categories=["syntax"], count=4, seed=7)
    second = mutate(COUNT_EVENS, None, categories=["syntax"], count=4, seed=7)
    assert [m.source for m in first] == [m.source for m in second]
    assert first


def test_operator_filter() -> None:
    mutants = mutate(COUNT_EVENS, TESTS, operators={"swap_comparison"}, count=3, seed=0)
    assert mutants and all(m.operators == ("swap_comparison",) for m in mutants)
