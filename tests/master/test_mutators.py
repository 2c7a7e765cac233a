"""Bug injection per language: every mutant's class is confirmed by running it, C++ and Java included."""

from __future__ import annotations

import pytest

from debugtutor.master.checks import compile_error_class, derive_tests
from debugtutor.master.mutators import EngineMutator, mutator_for
from debugtutor.master.records import ProgramTests, SourceProgram
from debugtutor.sandbox import LeetCodeCall

CPP = """class Solution {
public:
    int countBig(vector<int>& nums, int limit) {
        int count = 0;
        for (int i = 0; i < nums.size(); i++) {
            if (nums[i] > limit) {
                count += 1;
            }
        }
        return count;
    }
};
"""
JAVA = """class Solution {
    public int countBig(int[] nums, int limit) {
        int count = 0;
        for (int i = 0; i < nums.length; i++) {
            if (nums[i] > limit) {
                count += 1;
            }
        }
        return count;
    }
}
"""
PYTHON = """class Solution:
    def countBig(self, nums: List[int], limit: int) -> int:
        count = 0
        for value in nums:
            if value > limit:
                count += 1
        return count
"""
CALLS = [LeetCodeCall(args={"nums": [1, 5, 9], "limit": 4}, expected=2),
         LeetCodeCall(args={"nums": [4, 4], "limit": 4}, expected=0),
         LeetCodeCall(args={"nums": [], "limit": 0}, expected=0)]  # fmt: skip
TESTS = ProgramTests(kind="leetcode", calls=CALLS, method="countBig")


def test_compiler_messages_name_the_class() -> None:
    assert compile_error_class("main.cpp:26:16: error: 'cnt' was not declared in this scope") == "reference"
    assert compile_error_class("Main.java:5: error: cannot find symbol\n  symbol: variable cnt") == "reference"
    assert compile_error_class("main.cpp:9:5: error: expected ';' before 'return'") == "syntax"
    assert compile_error_class("Main.java:7: error: ';' expected") == "syntax"
    assert compile_error_class("main.cpp: error: no match for 'operator<<'") is None


def test_python_mutants_are_confirmed_by_execution() -> None:
    mutator = mutator_for("python")
    assert isinstance(mutator, EngineMutator)
    for bug_class in ("syntax", "reference", "logic", "multiple"):
        (found,) = mutator.mutants(PYTHON, TESTS, bug_class, seed=3)
        assert found.mutation.bug_class == bug_class and found.report.status.value != "passed"
        assert found.mutation.code != PYTHON and found.mutation.kinds


@pytest.mark.slow
@pytest.mark.parametrize(("language", "code"), [("cpp", CPP), ("java", JAVA)])
def test_compiled_mutants_are_confirmed_by_the_compiler_and_the_tests(language: str, code: str) -> None:
    mutator = mutator_for(language)  # type: ignore[arg-type]
    for bug_class in ("syntax", "reference", "logic"):
        found = mutator.mutants(code, TESTS, bug_class, seed=1)
        assert found, bug_class
        mutation, report = found[0].mutation, found[0].report
        assert mutation.code != code and len(mutation.lines) == 1 and mutation.kinds
        if bug_class == "logic":
            assert report.status.value == "failed" and report.setup_error is None
        elif bug_class == "syntax":
            assert report.status.value == "compile_error"
        else:  # an unknown name does not compile; an index past the end fails at run time
            assert report.status.value in ("compile_error", "failed", "error")


@pytest.mark.slow
def test_compiled_tests_are_derived_from_example_blocks() -> None:
    program = SourceProgram(id="p", origin="unit", language="cpp", slug="count-big", question="", code=CPP,
                            tests=ProgramTests(kind="examples", examples=["Input: nums = [1,5,9], limit = 4\n"
                                                                          "Output: 2"]))  # fmt: skip
    tests = derive_tests(program, extra=2)
    assert tests is not None and tests.kind == "leetcode" and tests.method == "countBig"
    assert tests.calls[0].expected == 2
