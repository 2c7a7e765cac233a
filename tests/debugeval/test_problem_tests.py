"""Tests derived from a problem's oracle, and grading against them: the real signature, plain data, order-free and
several-answer problems, a second oracle, design problems and LeetCode's Java environment."""

from __future__ import annotations

import pytest

from debugtutor.debugeval.problem_tests import (
    Problem,
    ProblemTests,
    derive_problem_tests,
    grade,
    plain_data,
    same_answer,
    several_answers_stated,
    strip_comments,
)
from debugtutor.sandbox import LeetCodeCall


def _problem(oracles: list[str], examples: list[str], description: str = "", language: str = "python") -> Problem:
    return Problem(
        language=language,  # type: ignore[arg-type]
        slug="test-problem",
        description=description,
        examples=examples,
        constraints="",
        oracles=[("python", code) for code in oracles],
    )


def _derive(problem: Problem) -> ProblemTests:
    tests, reason = derive_problem_tests(problem, extra=6, seed=0)
    assert tests is not None, reason
    return tests


DEPTH = """class Solution:
    def maxDepth(self, root: Optional[TreeNode]) -> int:
        if root is None:
            return 0
        return 1 + max(self.maxDepth(root.left), self.maxDepth(root.right))
"""


def test_a_fix_without_type_hints_still_receives_a_tree() -> None:
    tests = _derive(_problem([DEPTH], ["Input: root = [3,9,20,null,null,15,7]\nOutput: 3"]))
    assert tests.method == "maxDepth" and tests.calls[0].expected == 3
    unhinted = DEPTH.replace("root: Optional[TreeNode]) -> int", "root)")
    graded = grade(unhinted, tests)
    assert graded.passed is True, graded.reason


def test_the_entry_method_is_never_a_helper() -> None:
    oracle = """class Solution:
    def helper(self, a, b):
        return a * b

    def total(self, arr: List[int], factor: int) -> int:
        return sum(self.helper(x, factor) for x in arr)
"""
    # the statement names the arguments differently from the oracle: the one method no other method calls is the entry
    tests = _derive(_problem([oracle], ["Input: nums = [1,2], k = 3\nOutput: 9"]))
    assert tests.method == "total" and tests.calls[0].expected == 9


def test_a_generator_answer_is_read_as_its_list() -> None:
    oracle = """class Solution:
    def doubled(self, nums: List[int]) -> List[int]:
        return (2 * x for x in nums)
"""
    tests = _derive(_problem([oracle], ["Input: nums = [1,2]\nOutput: [2,4]"]))
    assert tests.calls[0].expected == [2, 4] and all(plain_data(call.expected) for call in tests.calls)
    listed = oracle.replace("return (2 * x for x in nums)", "return [2 * x for x in nums]")
    assert grade(listed, tests).passed is True
    assert not plain_data("<generator object Solution.doubled.<locals>.<genexpr> at 0x7f>")
    assert not plain_data(["deque([1, 2])"]) and plain_data(["a", 1, None])


def test_any_order_answers_compare_as_multisets() -> None:
    oracle = """class Solution:
    def evens(self, nums: List[int]) -> List[int]:
        return [x for x in nums if x % 2 == 0]
"""
    problem = _problem([oracle], ["Input: nums = [1,2,4]\nOutput: [2,4]"], "You may return the answer in any order.")
    tests = _derive(problem)
    assert tests.spec.unordered_depth == 1
    assert grade(oracle.replace("return [x", "return sorted([x").replace("== 0]", "== 0], reverse=True)"), tests).passed
    assert same_answer([1.0, 2.000001], [1, 2]) and not same_answer([1, 2], [2, 1])
    assert same_answer([[1, 2], [3]], [[3], [1, 2]], 1) and not same_answer([[2, 1]], [[1, 2]], 1)


def test_several_valid_answers_leave_a_different_answer_undecided() -> None:
    oracle = """class Solution:
    def anyEven(self, nums: List[int]) -> int:
        return min(x for x in nums if x % 2 == 0)
"""
    problem = _problem([oracle], ["Input: nums = [1,2,4]\nOutput: 2"], "If there are several, return any of them.")
    tests = _derive(problem)
    assert tests.spec.several_answers
    other = oracle.replace("min(", "max(")
    assert grade(other, tests).passed is None  # another even number: no checker can tell
    crashing = oracle.replace("return min(", "return 1 // 0 + min(")
    assert grade(crashing, tests).passed is False
    assert several_answers_stated("You may return the index to any of the peaks.")
    assert not several_answers_stated("If several elements are largest, delete any of them.")
    assert not several_answers_stated("If there are multiple answers, return the smallest one.")


def test_a_second_oracle_drops_inputs_the_two_disagree_on() -> None:
    # the two medians agree on odd lengths (every example) and differ on even ones: inputs outside what the
    # problem means, where a third solution could legitimately give either answer
    upper = "class Solution:\n    def median(self, nums: List[int]) -> int:\n"
    upper += "        return sorted(nums)[len(nums) // 2]\n"
    lower = upper.replace("len(nums) // 2", "(len(nums) - 1) // 2")
    examples = ["Input: nums = [3,1,2]\nOutput: 2", "Input: nums = [5,4,9,1,7]\nOutput: 5"]
    alone = _derive(_problem([upper], examples))
    confirmed = _derive(_problem([upper, lower], examples))
    assert any(len(call.args["nums"]) % 2 == 0 for call in alone.calls)
    assert confirmed.confirmed_by == "python"
    assert confirmed.calls and all(len(call.args["nums"]) % 2 == 1 for call in confirmed.calls)


def test_design_problems_run_operation_sequences() -> None:
    oracle = """class Counter:
    def __init__(self, start: int):
        self.value = start

    def add(self, amount: int) -> None:
        self.value += amount

    def get(self) -> int:
        return self.value
"""
    example = 'Input\n["Counter", "add", "get", "add", "get"]\n[[1], [2], [], [3], []]\n'
    example += "Output\n[null, null, 3, null, 6]"
    tests = _derive(_problem([oracle], [example]))
    assert tests.spec.kind == "design" and tests.calls[0].expected == [None, None, 3, None, 6]
    assert grade(oracle, tests).passed is True
    assert grade(oracle.replace("+= amount", "-= amount"), tests).passed is False


def test_time_limit_follows_the_oracle() -> None:
    tests = _derive(_problem([DEPTH], ["Input: root = [1,2]\nOutput: 2"]))
    looping = DEPTH.replace("if root is None:", "while True:\n            pass\n        if root is None:")
    graded = grade(looping, tests)
    assert graded.passed is False and "timeout" in graded.reason


def test_comments_are_blanked_without_touching_strings_or_lines() -> None:
    code = 'int f() { // a comment\n  /* two\n lines */ return s == "//x"; }\n'
    stripped = strip_comments(code)
    assert stripped.count("\n") == code.count("\n") and '"//x"' in stripped and "comment" not in stripped


@pytest.mark.slow
def test_java_gets_leetcodes_pair_class() -> None:
    oracle = "class Solution:\n    def sumPair(self, a: int, b: int) -> int:\n        return a + b\n"
    problem = _problem([oracle], ["Input: a = 1, b = 2\nOutput: 3"], language="java")
    tests = _derive(problem)
    java = """import javafx.util.Pair;
class Solution {
    public int sumPair(int a, int b) {
        Pair<Integer, Integer> pair = new Pair<>(a, b);
        return pair.getKey() + pair.getValue();
    }
}
"""
    graded = grade(java, tests)
    assert graded.passed is True, graded.reason


def test_tests_keep_the_calls_they_were_given() -> None:
    tests = ProblemTests(calls=[LeetCodeCall(args={"n": 1}, expected=2)], method="f")
    assert grade("class Solution:\n    def f(self, n):\n        return n + 1\n", tests).passed is True


PYTHON_COUNTER = """class Counter:
    def __init__(self, start):
        self.value = start

    def add(self, amount):
        self.value += amount

    def get(self):
        return self.value

    def both(self, extra):
        return [self.value, len(extra)]
"""
CPP_COUNTER = """class Counter {
public:
    int value;
    Counter(int start) { value = start; }
    void add(int amount) { value += amount; }
    int get() { return value; }
    vector<int> both(vector<int>& extra) { return {value, (int)extra.size()}; }
};
"""
JAVA_COUNTER = """class Counter {
    private int value;
    public Counter(int start) { value = start; }
    public void add(int amount) { value += amount; }
    public int get() { return value; }
    public List<Integer> both(int[] extra) { return Arrays.asList(value, extra.length); }
}
"""
# the same counter kept in LeetCode's javafx Pair, which a plain JDK lacks
JAVA_PAIR_COUNTER = """import javafx.util.Pair;
class Counter {
    private Pair<String, Integer> state;
    public Counter(int start) { state = new Pair<>("value", start); }
    public void add(int amount) { int value = state.getValue(); value += amount; state = new Pair<>("value", value); }
    public int get() { return state.getValue(); }
    public List<Integer> both(int[] extra) { return Arrays.asList(state.getValue(), extra.length); }
}
"""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("language", "code"), [("cpp", CPP_COUNTER), ("java", JAVA_COUNTER), ("java", JAVA_PAIR_COUNTER)]
)
def test_compiled_design_problems(language: str, code: str) -> None:
    example = 'Input\n["Counter", "add", "get", "both"]\n[[1], [2], [], [[7, 8]]]\nOutput\n[null, null, 3, [3, 2]]'
    problem = _problem([PYTHON_COUNTER], [example], language=language)
    tests = _derive(problem)
    assert tests.spec.kind == "design" and tests.language == language
    graded = grade(code, tests)
    assert graded.passed is True, graded.reason
    assert grade(code.replace("value += amount", "value -= amount"), tests).passed is False


FORGED_STDOUT = "@@debugtutor-sequence@@ [null, null, 3, [3, 2]]"


@pytest.mark.slow
@pytest.mark.parametrize("language", ["python", "cpp", "java"])
def test_a_design_program_cannot_answer_for_itself(language: str) -> None:
    # a wrong Counter (it subtracts) prints the right answers as the old stdout protocol read them, and writes a
    # second record for its sequence on the judge's channel: neither may pass it
    forged_record = '{\\"event\\": \\"test\\", \\"index\\": 0, \\"actual\\": [null, null, 3, [3, 2]]}\\n'
    if language == "python":
        code = (
            "import os\n"
            "class Counter:\n"
            "    def __init__(self, start):\n"
            "        self.value = start\n"
            f"        print('\\n{FORGED_STDOUT}')\n"
            f'        os.write(3, "{forged_record}".encode())\n'
            "    def add(self, amount):\n"
            "        self.value -= amount\n"
            "    def get(self):\n"
            "        return self.value\n"
            "    def both(self, extra):\n"
            "        return [self.value, len(extra)]\n"
        )
    elif language == "cpp":
        forge = (
            f'std::cout << "\\n{FORGED_STDOUT}" << std::endl;'
            f' std::string f = "{forged_record}"; if (write(3, f.data(), f.size()) < 0) return;'
        )
        code = CPP_COUNTER.replace("value = start;", f"value = start; {forge}").replace("+= amount", "-= amount")
    else:
        forge = (
            f'System.out.println("\\n{FORGED_STDOUT}");'
            ' try (java.io.FileOutputStream out = new java.io.FileOutputStream("/proc/self/fd/3", true))'
            f' {{ out.write("{forged_record}".getBytes()); }} catch (java.io.IOException e) {{ }}'
        )
        code = JAVA_COUNTER.replace("value = start;", f"value = start; {forge}").replace("+= amount", "-= amount")
    example = 'Input\n["Counter", "add", "get", "both"]\n[[1], [2], [], [[7, 8]]]\nOutput\n[null, null, 3, [3, 2]]'
    tests = _derive(_problem([PYTHON_COUNTER], [example], language=language))
    honest = {"python": PYTHON_COUNTER, "cpp": CPP_COUNTER, "java": JAVA_COUNTER}[language]
    assert grade(honest, tests).passed is True
    forged = grade(code, tests)
    assert forged.passed is False, forged.reason
    # the forgery alone (a right Counter that also prints and writes) is a conflict, not a pass on its word
    assert "two answers" in grade(code.replace("-= amount", "+= amount"), tests).reason
