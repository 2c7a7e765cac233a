"""LeetCode-style ``class Solution`` calls with ListNode / TreeNode arguments in list notation."""

from __future__ import annotations

import json

from debugtutor.sandbox import LeetCodeCall, LeetCodeRequest, Limits, Status, run

REVERSE = """class Solution:
    def reverseList(self, head: Optional[ListNode]) -> Optional[ListNode]:
        prev = None
        while head:
            head.next, prev, head = prev, head, head.next
        return prev
"""

INVERT = """class Solution:
    def invertTree(self, root: Optional[TreeNode]) -> Optional[TreeNode]:
        if root:
            root.left, root.right = self.invertTree(root.right), self.invertTree(root.left)
        return root
"""

MERGE_K = """class Solution:
    def mergeKLists(self, lists: List[Optional[ListNode]]) -> Optional[ListNode]:
        values = []
        for node in lists:
            while node:
                values.append(node.val)
                node = node.next
        dummy = tail = ListNode()
        for value in sorted(values):
            tail.next = ListNode(value)
            tail = tail.next
        return dummy.next
"""


def test_linked_list_in_and_out(isolation: str) -> None:
    calls = [LeetCodeCall(args={"head": [1, 2, 3]}, expected=[3, 2, 1]), LeetCodeCall(args={"head": []}, expected=[])]
    report = run(LeetCodeRequest(code=REVERSE, calls=calls))
    assert report.status is Status.passed, report.tests
    assert report.tests[0].actual == json.dumps([3, 2, 1])
    assert report.tests[0].source == "Solution().reverseList(head=[1, 2, 3])"


def test_tree_in_and_out_with_nulls() -> None:
    calls = [LeetCodeCall(args={"root": [4, 2, 7, 1, 3, 6, 9]}, expected=[4, 7, 2, 9, 6, 3, 1])]
    calls.append(LeetCodeCall(args={"root": [1, None, 2]}, expected=[1, 2]))
    report = run(LeetCodeRequest(code=INVERT, calls=calls))
    assert report.status is Status.passed, report.tests


def test_list_of_linked_lists() -> None:
    call = LeetCodeCall(args={"lists": [[1, 4, 5], [1, 3, 4], [2, 6]]}, expected=[1, 1, 2, 3, 4, 4, 5, 6])
    report = run(LeetCodeRequest(code=MERGE_K, calls=[call]))
    assert report.status is Status.passed, report.tests


def test_expected_none_records_the_oracle_value_and_wrong_answers_fail() -> None:
    code = "class Solution:\n    def twoSum(self, nums: List[int], target: int) -> List[int]:\n        return [0, 0]\n"
    report = run(
        LeetCodeRequest(
            code=code,
            calls=[
                LeetCodeCall(args={"nums": [2, 7], "target": 9}),
                LeetCodeCall(args={"nums": [2, 7], "target": 9}, expected=[0, 1]),
            ],
        )
    )
    assert report.tests[0].status is Status.passed and report.tests[0].actual == "[0, 0]"
    assert report.tests[1].status is Status.failed and report.tests[1].expected == "[0, 1]"


def test_compare_modes() -> None:
    code = (
        "class Solution:\n    def groups(self, n: int) -> List[List[int]]:\n"
        "        return [[3, 2], [1]] if n else [0.1 + 0.2]\n"
    )
    unordered = run(
        LeetCodeRequest(code=code, calls=[LeetCodeCall(args={"n": 1}, expected=[[1], [2, 3]])], compare="unordered")
    )
    assert unordered.status is Status.passed
    exact = run(LeetCodeRequest(code=code, calls=[LeetCodeCall(args={"n": 1}, expected=[[1], [2, 3]])]))
    assert exact.status is Status.failed
    floats = run(LeetCodeRequest(code=code, calls=[LeetCodeCall(args={"n": 0}, expected=[0.3])], compare="float"))
    assert floats.status is Status.passed


def test_in_place_method_reports_the_modified_argument() -> None:
    code = (
        "class Solution:\n    def rotate(self, nums: List[int], k: int) -> None:\n"
        "        k %= len(nums)\n        nums[:] = nums[-k:] + nums[:-k]\n"
    )
    report = run(
        LeetCodeRequest(code=code, calls=[LeetCodeCall(args={"nums": [1, 2, 3, 4], "k": 1}, expected=[4, 1, 2, 3])])
    )
    assert report.status is Status.passed, report.tests


def test_method_choice_and_errors() -> None:
    code = (
        "class Solution:\n    def a(self, x: int) -> int:\n        return x\n"
        "    def b(self, x: int) -> int:\n        return 1 // x\n"
    )
    ambiguous = run(LeetCodeRequest(code=code, calls=[LeetCodeCall(args={"x": 1})]))
    assert ambiguous.status is Status.error and ambiguous.setup_error is not None
    chosen = run(LeetCodeRequest(code=code, calls=[LeetCodeCall(args={"x": 0})], method="b"))
    assert chosen.tests[0].status is Status.error
    assert chosen.tests[0].exception is not None and chosen.tests[0].exception.type == "ZeroDivisionError"
    assert chosen.tests[0].exception.line == 5


def test_infinite_loop_in_one_call_times_out_alone() -> None:
    code = "class Solution:\n    def f(self, n: int) -> int:\n        while n:\n            pass\n        return n\n"
    report = run(
        LeetCodeRequest(
            code=code,
            calls=[LeetCodeCall(args={"n": 1}), LeetCodeCall(args={"n": 0}, expected=0)],
            limits=Limits(per_test_s=0.5),
        )
    )
    assert [test.status for test in report.tests] == [Status.timeout, Status.passed]
