"""Tests from LeetCode examples: parsing, node helpers, perturbation, oracle expectations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from debugtutor.analysis.examples import (
    example_calls,
    example_method,
    input_rules,
    oracle_tests,
    parse_example,
    perturb_calls,
)
from debugtutor.analysis.leetcode import (
    entry_method,
    linked_to_list,
    list_to_linked,
    list_to_tree,
    tree_to_list,
)
from debugtutor.sandbox import LeetCodeCall, LeetCodeRequest, Status, run

TWO_SUM = """class Solution:
    def twoSum(self, nums: List[int], target: int) -> List[int]:
        seen = {}
        for i, x in enumerate(nums):
            if target - x in seen:
                return [seen[target - x], i]
            seen[x] = i
        return []
"""
TWO_SUM_EXAMPLES = [
    "Input: nums = [2,7,11,15], target = 9\nOutput: [0,1]\nExplanation: Because nums[0] + nums[1] == 9.",
    "Input: nums = [3,2,4], target = 6\nOutput: [1,2]",
]


def test_parse_example_names_values_and_output() -> None:
    example = parse_example(TWO_SUM_EXAMPLES[0])
    assert example is not None
    assert example.args == {"nums": [2, 7, 11, 15], "target": 9}
    assert example.expected == [0, 1]
    tree = parse_example('Input: root = [3,9,20,null,null,15,7], s = "a,b"\nOutput: true')
    assert tree is not None and tree.args == {"root": [3, 9, 20, None, None, 15, 7], "s": "a,b"}
    assert tree.expected is True
    assert parse_example("no example here") is None


def test_unnamed_input_binds_to_the_parameter() -> None:
    code = "class Solution:\n    def f(self, n: int) -> int:\n        return n\n"
    assert example_calls(["Input: 5\nOutput: 5"], code) == [LeetCodeCall(args={"n": 5}, expected=5)]


@pytest.mark.parametrize("values", [[], [1], [1, 2, 3]])
def test_linked_list_round_trip(values: list[int]) -> None:
    assert linked_to_list(list_to_linked(values)) == values


@pytest.mark.parametrize("values", [[], [1], [3, 9, 20, None, None, 15, 7], [1, None, 2, 3]])
def test_tree_round_trip(values: list[int | None]) -> None:
    assert tree_to_list(list_to_tree(values)) == values


def test_entry_method_prefers_matching_argument_names() -> None:
    code = (
        "class Solution:\n    def helper(self, a):\n        return a\n"
        "    def solve(self, nums: List[int], k: int) -> int:\n        return k\n"
    )
    method = entry_method(code, {"nums", "k"})
    assert method is not None and method.name == "solve"
    assert [p.name for p in method.parameters] == ["nums", "k"]


JAVA_WITH_AN_ADDED_METHOD = """class Solution {
    public int buckets(String street) {
        int count = 0;
        for (int i = 0; i < street.length(); i++) {
            if (street.charAt(i) == 'H') count++;
        }
        return count;
    }

    public int extra(String value) {
        return missing(value);
    }
}
"""
CPP_WITH_A_PRIVATE_HELPER = """class Solution {
    int walk(TreeNode* root) {
        if (!root) return 0;
        int left = walk(root->left);
        int right = walk(root->right);
        int moved = root->val - 1 + left + right;
        return moved;
    }
public:
    int coins(TreeNode* root) {
        return walk(root);
    }
};
"""
CPP_WITH_A_CALLED_HELPER = """class Solution {
public:
    int solve(vector<int>& nums) {
        return count(nums);
    }
    int count(vector<int>& values) {
        int total = 0;
        for (int value : values) {
            total += value > 0;
        }
        return total;
    }
};
"""


@pytest.mark.parametrize(
    ("code", "language", "example", "entry"),
    [
        (JAVA_WITH_AN_ADDED_METHOD, "java", 'Input: hamsters = "H..H"\nOutput: 2', "buckets"),
        (CPP_WITH_A_PRIVATE_HELPER, "cpp", "Input: root = [3,0,0]\nOutput: 2", "coins"),
        (CPP_WITH_A_CALLED_HELPER, "cpp", "Input: xs = [1,-2,3]\nOutput: 2", "solve"),
    ],
)
def test_the_entry_is_public_uncalled_and_not_a_one_line_addition(
    code: str, language: str, example: str, entry: str
) -> None:
    """The example names its argument as no method does: of the methods with as many parameters, LeetCode calls
    the public one no other method calls, the longest of those."""
    assert example_method([example], code, language) == entry  # type: ignore[arg-type]


def test_perturbation_preserves_types_and_is_seeded() -> None:
    calls = example_calls(TWO_SUM_EXAMPLES, TWO_SUM)
    first = perturb_calls(calls, count=8, seed=1)
    assert first == perturb_calls(calls, count=8, seed=1)
    assert len(first) == 8
    originals = [json.dumps(c.args, sort_keys=True) for c in calls]
    for call in first:
        assert json.dumps(call.args, sort_keys=True) not in originals
        assert isinstance(call.args["nums"], list) and all(isinstance(v, int) for v in call.args["nums"])
        assert isinstance(call.args["target"], int)
        assert call.expected is None


def test_tree_perturbation_keeps_the_shape() -> None:
    calls = [LeetCodeCall(args={"root": [3, 9, 20, None, None, 15, 7]})]
    for call in perturb_calls(calls, count=5, seed=0):
        root = call.args["root"]
        assert [v is None for v in root] == [v is None for v in calls[0].args["root"]]


def test_oracle_tests_take_expected_values_from_the_oracle() -> None:
    tests = oracle_tests(TWO_SUM_EXAMPLES, TWO_SUM, extra=4, seed=0)
    assert len(tests) >= 2
    assert tests[0].expected == [0, 1]
    assert run(LeetCodeRequest(code=TWO_SUM, calls=tests)).status == Status.passed
    buggy = TWO_SUM.replace("return [seen[target - x], i]", "return [i, seen[target - x]]")
    assert run(LeetCodeRequest(code=buggy, calls=tests)).status == Status.failed


def test_nondeterministic_oracle_calls_are_dropped() -> None:
    code = "import random\nclass Solution:\n    def f(self, n: int) -> int:\n        return random.random() + n\n"
    assert oracle_tests(["Input: n = 1\nOutput: 1"], code, extra=2) == []


@pytest.mark.shared_data
@pytest.mark.slow
def test_debugbench_oracles_pass_their_own_tests(shared_data: Path) -> None:
    items = json.loads((shared_data / "debugbench" / "python3_operation error.json").read_text())
    items = [item for item in items if "class Solution" in item["oracle_code"]][:4]
    for item in items:
        tests = oracle_tests(item["examples"], item["oracle_code"], extra=3, seed=0)
        assert tests, item["slug"]
        method = example_method(item["examples"], item["oracle_code"])
        assert run(LeetCodeRequest(code=item["oracle_code"], calls=tests, method=method)).status == Status.passed


def test_perturbed_inputs_keep_the_examples_invariants() -> None:
    # next-greater-element-i: every value of nums1 appears in nums2, all values distinct
    examples = [
        "Input: nums1 = [4,1,2], nums2 = [1,3,4,2]\nOutput: [-1,3,-1]",
        "Input: nums1 = [2,4], nums2 = [1,2,3,4]\nOutput: [3,-1]",
    ]
    calls = example_calls(examples)
    rules = input_rules(calls, "1 <= nums1.length <= nums2.length <= 1000\n0 <= nums1[i], nums2[i] <= 104")
    assert "nums1 values within nums2's" in rules.names and "nums2 distinct" in rules.names
    perturbed = perturb_calls(calls, count=10, seed=3, rules=rules)
    assert perturbed
    for call in perturbed:
        nums1, nums2 = call.args["nums1"], call.args["nums2"]
        assert set(nums1) <= set(nums2) and len(set(nums2)) == len(nums2) and 1 <= len(nums1) <= len(nums2)


def test_stated_bounds_hold_and_misread_ones_are_dropped() -> None:
    calls = example_calls(["Input: n = 3, k = 1\nOutput: 0", "Input: n = 4, k = 4\nOutput: 1"])
    # "0 <= k <= n <= 8" holds for the examples; "n <= 2" does not, so it cannot be a real constraint
    rules = input_rules(calls, "0 <= k <= n <= 8\nn <= 2")
    assert "0 <= k <= n <= 8" in rules.names and "n <= 2" not in rules.names
    for call in perturb_calls(calls, count=10, seed=0, rules=rules):
        assert 0 <= call.args["k"] <= call.args["n"] <= 8
    # 10^5 written as "105" by the scraped text, and an alias for a length
    rules = input_rules(example_calls(["Input: nums = [1,2]\nOutput: 3"]), "n == nums.length\n1 <= n <= 105")
    assert not rules.allows({"nums": []}) and rules.allows({"nums": list(range(1, 201))})


def test_entry_point_from_the_real_signature() -> None:
    from debugtutor.analysis.examples import entry_point

    code = (
        "class Solution:\n    def findKthBit(self, N: int, K: int, R: bool = True) -> str:\n        return '0'\n"
        "    def helper(self, a, b):\n        return a\n"
    )
    method = entry_point(code, ["n", "k"])  # names differ in case, a defaulted parameter follows
    assert method is not None and method.name == "findKthBit" and len(method.parameters) == 2
    ambiguous = "class Solution:\n    def a(self, x):\n        return x\n    def b(self, y):\n        return y\n"
    assert entry_point(ambiguous, ["n"]) is None  # no guess that could call a helper
    assert entry_point(ambiguous, ["n"], title="b value") is not None


def test_boundary_inputs_come_from_the_stated_bounds() -> None:
    from debugtutor.analysis.examples import boundary_calls, scalar_bounds

    assert scalar_bounds("0 <= n <= 37\n1 <= k <= n <= 5000", ["n", "k"]) == {"n": [0.0, 37.0, 5000.0], "k": [1.0]}
    calls = example_calls(["Input: n = 4\nOutput: 4", "Input: n = 25\nOutput: 1389537"])
    rules = input_rules(calls, "0 <= n <= 37")
    found = boundary_calls(calls, "0 <= n <= 37", rules)
    assert {call.args["n"] for call in found} == {37}  # 0 breaks the examples' own "n >= 1"; both are 1 or more
    # an anagram pair stays an anagram pair
    pair = example_calls(['Input: s = "ab", t = "ba"\nOutput: true', 'Input: s = "abc", t = "cab"\nOutput: true'])
    rules = input_rules(pair)
    assert "s a rearrangement of t" in rules.names and not rules.allows({"s": "ab", "t": "aa"})
