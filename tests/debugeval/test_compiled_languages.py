"""C++ and Java in the offline solver: compile, run on the stated examples and repair, in the sandbox."""

from __future__ import annotations

import asyncio

import pytest

from debugtutor.debugeval import offline_compiled
from debugtutor.debugeval.offline import OfflineSolver
from debugtutor.debugeval.offline_compiled import (
    CompiledFactsCache,
    compiled_program,
    identify_compiled,
    line_evidence_compiled,
    option_edit_passes,
    option_scores_with_edits,
    review_facts,
    review_verdict,
)
from debugtutor.debugeval.records import DebugEvalRecord, render_options
from debugtutor.debugeval.tasks import build_items

CPP = """class Solution {
public:
    int twice(int x) {
        int y = x;
        return y * 2;
    }
};
"""
JAVA = """class Solution {
    public int twice(int x) {
        int y = x;
        return y * 2;
    }
}
"""
EXAMPLES = ["Input: x = 3\nOutput: 6", "Input: x = 0\nOutput: 0"]


@pytest.mark.slow
@pytest.mark.parametrize("language,code", [("cpp", CPP), ("java", JAVA)])
def test_identification_from_compiler_and_repair(language: str, code: str) -> None:
    undeclared = asyncio.run(compiled_program(code.replace("y * 2", "z * 2"), EXAMPLES, language, 0.0))
    assert not undeclared.compiled and identify_compiled(undeclared)[0] == "(B)"
    missing = asyncio.run(compiled_program(code.replace("x;", "x"), EXAMPLES, language, 0.0))
    assert identify_compiled(missing)[0] == "(A)"
    logic = asyncio.run(compiled_program(code.replace("y * 2", "y * 3"), EXAMPLES, language, 60.0))
    assert logic.compiled and logic.failing and logic.repair is not None
    assert identify_compiled(logic)[0] == "(C)"
    assert (
        max(line_evidence_compiled(logic), key=line_evidence_compiled(logic).__getitem__)
        == code.count("\n", 0, code.index("y * 2")) + 1
    )


@pytest.mark.slow
def test_review_sides_swap_with_the_programs() -> None:
    buggy = CPP.replace("y * 2", "y * 3")
    facts = asyncio.run(review_facts(buggy, CPP, EXAMPLES, "cpp"))
    assert review_verdict(facts) == "A"
    assert review_verdict(asyncio.run(review_facts(CPP, buggy, EXAMPLES, "cpp"))) == "B"


@pytest.mark.slow
def test_cache_shares_one_analysis() -> None:
    cache = CompiledFactsCache()

    async def twice() -> tuple[object, object]:
        return await asyncio.gather(cache.get(JAVA, EXAMPLES, "java", 0.0), cache.get(JAVA, EXAMPLES, "java", 0.0))

    first, second = asyncio.run(twice())
    assert first is second


SUM_JAVA = """class Solution {
    public int total(int[] nums) {
        int sum = 0;
        for (int i = 0; i <= nums.length; i++) {
            sum += nums[i];
        }
        return sum;
    }
}
"""
SUM_EXAMPLES = ["Input: nums = [1,2,3]\nOutput: 6", "Input: nums = [5]\nOutput: 5"]


@pytest.mark.slow
def test_a_bound_that_reads_past_the_end_is_faulty_indexing() -> None:
    program = asyncio.run(compiled_program(SUM_JAVA, SUM_EXAMPLES, "java", 60.0))
    assert program.repair is not None and "i < nums.length" in program.repair.source
    # the fix changes a comparison (a logic edit), but the examples read past the end: DebugBench's reference class
    assert identify_compiled(program)[0] == "(B)"
    # the same loop one turn short reads nothing out of bounds: a wrong condition, however a loop bound looks
    short = asyncio.run(compiled_program(SUM_JAVA.replace("<=", "< -1 +"), SUM_EXAMPLES, "java", 60.0))
    assert short.repair is not None and not {o.error_type for o in short.failing} - {None}
    assert identify_compiled(short)[0] == "(C)"


@pytest.mark.slow
def test_a_program_that_passes_every_example_is_searched_only_when_a_sure_smell_fires() -> None:
    # a two-character literal no example reaches: the examples pass, the smell is mended and is the repair
    smelly = (
        "class Solution {\npublic:\n    string twice(string s) {\n        if (s.empty()) s += '22';\n"
        "        return s + s;\n    }\n};\n"
    )
    examples = ['Input: s = "ab"\nOutput: "abab"', 'Input: s = "c"\nOutput: "cc"']
    program = asyncio.run(compiled_program(smelly, examples, "cpp", 60.0))
    assert program.compiled and not program.failing
    assert program.repair is not None and [e.operator for e in program.repair.edits] == ["mend_multichar_literal"]
    assert identify_compiled(program)[0] == "(A)"
    clean = asyncio.run(compiled_program(CPP, EXAMPLES, "cpp", 60.0))
    assert clean.search is None and clean.repair is None


@pytest.mark.slow
def test_the_repair_search_is_bounded_by_its_candidate_count_and_says_when_its_time_limit_stopped_it() -> None:
    buggy = CPP.replace("y * 2", "y * 3")
    found = asyncio.run(compiled_program(buggy, EXAMPLES, "cpp", 120.0, repair_candidates=200))
    assert found.search is not None and found.repair is not None and not found.search.out_of_time
    assert "programs verified, within its budget" in found.describe()
    starved = asyncio.run(compiled_program(buggy, EXAMPLES, "cpp", 120.0, repair_candidates=2))
    assert starved.search is not None and starved.repair is None
    assert starved.search.executions <= 2 and not starved.search.out_of_time
    rushed = asyncio.run(compiled_program(buggy, EXAMPLES, "cpp", 0.5))
    assert rushed.search is not None and rushed.repair is None and rushed.search.out_of_time
    assert "stopped at its time limit" in rushed.describe()


@pytest.mark.slow
def test_real_valued_answers_are_compared_within_leetcodes_tolerance() -> None:
    third = "class Solution {\n    public double third(int n) {\n        return n / 3.0;\n    }\n}\n"
    program = asyncio.run(compiled_program(third, ["Input: n = 1\nOutput: 0.33333"], "java", 0.0))
    assert program.compiled and program.compare == "float" and not program.failing
    wrong = asyncio.run(compiled_program(third.replace("3.0", "4.0"), ["Input: n = 1\nOutput: 0.33333"], "java", 0.0))
    assert wrong.failing


@pytest.mark.slow
def test_single_edits_at_the_options_lines_say_which_option_explains_the_failures() -> None:
    buggy = JAVA.replace("y * 2", "y * 3")
    program = asyncio.run(compiled_program(buggy, EXAMPLES, "java", 0.0))
    assert program.failing and program.repair is None
    # options: line 3 (int y = x), line 4 (the return), line 2 (the header)
    passes = asyncio.run(option_edit_passes(program, [[3], [4], [2]], 30.0))
    assert passes[1] == 2 and passes[0] < 2


TOTAL_JAVA = """class Solution {
    public int total(int[] nums) {
        int n = nums.length;
        int sum = 0;
        for (int i = 0; i < n; i++) {
            sum += nums[i] - 1;
        }
        return sum;
    }
}
"""


@pytest.mark.slow
def test_a_fix_on_none_of_the_options_sends_localization_to_edits_at_the_options(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # one-number examples: "return sum + 1" passes them as well as the real fix, and the search finds it first (a
    # search that looked further would find the smaller real fix: this one stops at its first)
    monkeypatch.setattr(offline_compiled, "REPAIR_LOOK_FURTHER", None)
    monkeypatch.setattr(offline_compiled, "REPAIR_FIXES", 1)
    examples = ["Input: nums = [5]\nOutput: 5", "Input: nums = [7]\nOutput: 7"]
    question = "Add up the numbers.\n\n" + "\n\n".join(f"Example {i}:\n{e}" for i, e in enumerate(examples, 1))
    others = ["int n = nums.length;", "for (int i = 0; i < n; i++) {", "public int total(int[] nums) {"]

    async def answer_each_place() -> list[list[str]]:
        # one solver in one loop: the program is compiled and searched once, and only the edits at the options are
        # checked again for each order of the options
        solver, answers = OfflineSolver(repair_seconds=8.0), []
        program = await solver.compiled_cache.get(TOTAL_JAVA, examples, "java", solver.compiled_repair_seconds)
        assert program.repair is not None and {e.line for e in program.repair.edits} == {8}
        for place in range(4):
            options = [*others[:place], "sum += nums[i] - 1;", *others[place:]]
            record = DebugEvalRecord(
                question_id="t", language="java", buggy_code=TOTAL_JAVA, correct_code=TOTAL_JAVA.replace(" - 1", ""),
                question_content=question, task1_options=render_options(options), task1_answer=f"({'ABCD'[place]})",
            )  # fmt: skip
            (item,) = build_items([record], tasks=["bug-localization"])
            answers.append((await solver(item)).output["responses"])
        return answers

    assert asyncio.run(answer_each_place()) == [[f"<Answer>({letter})</Answer>"] for letter in "ABCD"]


def test_option_scores_count_an_edit_that_passes_every_example_like_a_repair() -> None:
    assert option_scores_with_edits([0.0, 0.5, 0.0], [1, 3, -1], 1, 3) == [0.0, 50.5, 0.0]
    assert option_scores_with_edits([0.0, 0.0], [2, 1], 1, 3) == [1.0, 0.0]  # more pass than now: a little
    assert option_scores_with_edits([0.2, 0.0], [1, 1], 1, 3) == [0.2, 0.0]  # nothing better than now: unchanged


@pytest.mark.slow
def test_a_compiler_error_about_names_points_at_where_they_were_declared() -> None:
    declared = """class Solution {
public:
    vector<int> evens(vector<int>& nums) {
        list<int> kept;
        for (int x : nums) {
            if (x % 2 == 0) kept.push_back(x);
        }
        return {kept.begin(), kept.end(), kept};
    }
};
"""
    program = asyncio.run(compiled_program(declared, ["Input: nums = [1,2]\nOutput: [2]"], "cpp", 0.0))
    assert not program.compiled
    weights = line_evidence_compiled(program)
    # the error is reported on the return; the name it quotes was declared on line 4
    assert weights.get(4, 0.0) > 0 and weights.get(5, 0.0) == 0


@pytest.mark.slow
def test_a_program_stopped_for_time_is_described_by_its_endless_loop_not_the_line_it_was_stopped_on() -> None:
    # the line a killed program was on differs from run to run; a grounded prompt must not
    endless = (
        "class Solution {\npublic:\n    int total(int n) {\n        int sum = 0;\n        int i = 0;\n"
        "        while (i < n) {\n            sum += i;\n            sum %= 1000;\n        }\n"
        "        return sum;\n    }\n};\n"
    )
    program = asyncio.run(compiled_program(endless, ["Input: n = 3\nOutput: 3"], "cpp", 0.0))
    assert [outcome.error_type for outcome in program.outcomes] == ["Timeout"]
    assert "- example 1: Timeout in the loop at line 6" in program.describe()
