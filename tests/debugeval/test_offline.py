"""The offline solver on small LeetCode-style programs: identification, localization, review and repair."""

from __future__ import annotations

import asyncio
from typing import Any

from debugtutor.analysis.edits import candidate_edits
from debugtutor.debugeval.offline import (
    _ASSERT_PRELUDE,
    FactsCache,
    OfflineSolver,
    _keeping_prelude,
    identify,
    line_oddities,
    option_lines,
    python_facts,
    without_prelude,
)
from debugtutor.debugeval.records import DebugEvalRecord, TaskName, render_options
from debugtutor.debugeval.tasks import build_items

CORRECT = """class Solution:
    def countAbove(self, nums: List[int], k: int) -> int:
        count = 0
        for value in nums:
            if value > k:
                count += 1
        return count
"""
EXAMPLES = ["Input: nums = [1,5,7], k = 4\nOutput: 2", "Input: nums = [5,5], k = 5\nOutput: 0"]
# the problem text as a prompt shows it: the solver reads the examples from here, never from a record field
QUESTION = "Count the values above k.\n\n" + "\n\n".join(f"Example {i}:\n{e}" for i, e in enumerate(EXAMPLES, 1))


def _identify(code: str) -> str:
    return identify(asyncio.run(python_facts(code, EXAMPLES)))


def test_identification_by_kind_of_evidence() -> None:
    assert _identify(CORRECT.replace("if value > k:", "if value > k")) == "(A)"
    assert _identify(CORRECT.replace("count += 1", "count += one")) == "(B)"
    assert _identify(CORRECT.replace("value > k", "value >= k")) == "(C)"
    both = CORRECT.replace("if value > k:", "if value > k").replace("count += 1", "count += one")
    assert _identify(both) == "(D)"


def test_facts_use_the_examples_and_lines() -> None:
    facts = asyncio.run(python_facts(CORRECT.replace("count += 1", "count += one"), EXAMPLES))
    assert facts.report is not None and facts.runtime_reference == {6: "NameError"}
    assert "NameError" in facts.describe()
    assert option_lines(CORRECT, "if value > k:") == [5]


def test_oddities_flag_bare_return_and_identity_arithmetic() -> None:
    odd = line_oddities("class S:\n    def f(self, x: int) -> int:\n        y = x // 1\n        return\n")
    assert set(odd) == {3, 4}


def _solve(record: DebugEvalRecord, task: TaskName) -> Any:
    (item,) = build_items([record], tasks=[task])
    return asyncio.run(OfflineSolver(repair_seconds=8.0)(item)).output


def test_localization_and_review() -> None:
    buggy = CORRECT.replace("value > k", "value >= k")
    options = ["count = 0", "if value >= k:", "for value in nums:", "return count"]
    record = DebugEvalRecord(
        question_id="q", language="python", buggy_code=buggy, correct_code=CORRECT, question_content=QUESTION,
        task1_options=render_options(options), task1_answer="(B)", task4="True",
    )  # fmt: skip
    assert _solve(record, "bug-localization")["responses"] == ["<Answer>(B)</Answer>"]
    review = _solve(record, "code-review")
    assert review["forward"]["responses"] == ["Code-A"] and review["reverse"]["responses"] == ["Code-B"]


def test_repair_finds_a_fix_that_passes_the_tests() -> None:
    record = DebugEvalRecord(
        question_id="r", language="python", buggy_code="def add(a, b):\n    return a - b\n", tests_kind="asserts",
        unit_tests=["assert add(2, 3) == 5", "assert add(1, 1) == 2"],
    )  # fmt: skip
    response = _solve(record, "code-repair")["responses"][0]
    assert "a + b" in response


def test_cache_shares_facts_between_tasks() -> None:
    async def twice() -> bool:
        cache = FactsCache()
        first = await cache.get(CORRECT, EXAMPLES)
        return first is await cache.get(CORRECT, EXAMPLES)

    assert asyncio.run(twice())


def test_review_tie_break_knows_nothing_of_which_code_is_buggy() -> None:
    # With no evidence the verdict may only depend on the two texts, never on which one the record calls buggy:
    # swapping the programs swaps the answer, so a tie is right by chance, not by construction.
    from debugtutor.debugeval.offline import tie_break

    pairs = [("def f(x):\n    return x\n", "def f(x):\n    return x + 0\n"), ("a = 1\n", "a = 2\n"), ("x", "y")]
    for first, second in pairs:
        assert {tie_break(first, second), tie_break(second, first)} == {"A", "B"}
    assert {tie_break(f"v = {i}\n", f"v = {i + 1}\n") for i in range(40)} == {"A", "B"}


def test_one_syntax_error_spilling_over_lines_is_one_site() -> None:
    # an unclosed bracket is reported where it opens and where the parser gives up: one error, not two
    spilled = CORRECT.replace("for value in nums:", "for value in [nums:")
    facts = asyncio.run(python_facts(spilled, EXAMPLES))
    assert len(facts.syntax_lines) >= 2 and facts.repaired_syntax is None
    assert identify(facts) == "(A)"
    # a program that cannot even be parsed is a syntax error, not "multiple" for that alone
    garbage = CORRECT.replace("count += 1", "count += @@@")
    facts = asyncio.run(python_facts(garbage, EXAMPLES))
    assert facts.repaired_syntax is None and identify(facts) == "(A)"
    # several fixes on one line are one place
    brackets = CORRECT.replace("count += 1", "count += 1 ) ) ]")
    facts = asyncio.run(python_facts(brackets, EXAMPLES))
    assert facts.syntax_rounds > 1 and identify(facts) == "(A)"
    # two separate syntax errors are two sites
    two = CORRECT.replace("count = 0", "count = 0)").replace("return count", "return count +")
    assert identify(asyncio.run(python_facts(two, EXAMPLES))) == "(D)"


def test_the_prelude_the_repair_ran_under_comes_off_without_the_programs_first_line() -> None:
    code = "class Solution:\n    def f(self, n: int) -> int:\n        return n + 1\n"
    assert without_prelude(_ASSERT_PRELUDE + code) == code
    # an edit of the prelude line leaves an import line; one that deleted it leaves the program as written
    assert without_prelude("from typing import *\n" + code) == code
    assert without_prelude(code) == code


def test_the_python_repair_search_never_edits_the_prelude_it_runs_under() -> None:
    """The generic proposer offers to drop the unused imports of line 1; under the prelude that line is the
    harness's, so the search is never offered it, and every other edit stays on offer."""
    code = (
        "class Solution:\n    def addDigits(self, num: int) -> int:\n        while num > 9:\n"
        "            num = sum(int(d) for d in str(num))\n        return num\n"
    )
    every = list(candidate_edits(_ASSERT_PRELUDE + code))
    kept = list(_keeping_prelude(_ASSERT_PRELUDE + code))
    assert any(not edit.source.startswith(_ASSERT_PRELUDE) for edit in every)
    assert [edit.source for edit in kept] == [e.source for e in every if e.source.startswith(_ASSERT_PRELUDE)]
    assert kept
