"""C++ and Java ``class Solution`` calls: generated programs, argument/result conversion, compile and type errors."""

from __future__ import annotations

from typing import Any

import pytest

from debugtutor.sandbox import Language, LeetCodeCall, LeetCodeRequest, Limits, Status, run

# a small heap: JVMs started side by side under -n 2 otherwise fail to reserve native memory on small machines
SMALL = Limits(memory_mb=256)

CPP = {
    "total": "class Solution {\npublic:\n    long long total(vector<int>& nums) {\n"
    "        long long s = 0; for (int x : nums) s += x; return s;\n    }\n};\n",
    "flip": "class Solution {\npublic:\n    string flip(string s) { reverse(s.begin(), s.end()); return s; }\n};\n",
    "reverseList": "class Solution {\npublic:\n    ListNode* reverseList(ListNode* head) {\n"
    "        ListNode* prev = nullptr;\n        while (head) { ListNode* n = head->next; head->next = prev;"
    " prev = head; head = n; }\n        return prev;\n    }\n};\n",
    "maxDepth": "class Solution {\npublic:\n    int maxDepth(TreeNode* root) {\n"
    "        return root ? 1 + max(maxDepth(root->left), maxDepth(root->right)) : 0;\n    }\n};\n",
    "transpose": "class Solution {\npublic:\n    vector<vector<int>> transpose(vector<vector<int>>& g) {\n"
    "        vector<vector<int>> t(g[0].size(), vector<int>(g.size()));\n"
    "        for (size_t i = 0; i < g.size(); i++) for (size_t j = 0; j < g[0].size(); j++) t[j][i] = g[i][j];\n"
    "        return t;\n    }\n};\n",
}
JAVA = {
    "total": "class Solution {\n    public long total(int[] nums) {\n"
    "        long s = 0; for (int x : nums) s += x; return s;\n    }\n}\n",
    "flip": "class Solution {\n    public String flip(String s) {\n"
    "        return new StringBuilder(s).reverse().toString();\n    }\n}\n",
    "reverseList": "class Solution {\n    public ListNode reverseList(ListNode head) {\n        ListNode prev = null;\n"
    "        while (head != null) { ListNode n = head.next; head.next = prev; prev = head; head = n; }\n"
    "        return prev;\n    }\n}\n",
    "maxDepth": "class Solution {\n    public int maxDepth(TreeNode root) {\n"
    "        return root == null ? 0 : 1 + Math.max(maxDepth(root.left), maxDepth(root.right));\n    }\n}\n",
    "transpose": "import java.util.*;\npublic class Solution {\n"
    "    public List<List<Integer>> transpose(int[][] g) {\n        List<List<Integer>> t = new ArrayList<>();\n"
    "        for (int j = 0; j < g[0].length; j++) { List<Integer> row = new ArrayList<>();"
    " for (int[] r : g) row.add(r[j]); t.add(row); }\n        return t;\n    }\n}\n",
}
CALLS: dict[str, list[tuple[dict[str, Any], Any]]] = {
    "total": [({"nums": [1, 2, 3]}, 6), ({"nums": []}, 0), ({"nums": [2000000000, 2000000000]}, 4000000000)],
    "flip": [({"s": "abc"}, "cba"), ({"s": 'a"b\\'}, '\\b"a')],
    "reverseList": [({"head": [1, 2, 3]}, [3, 2, 1]), ({"head": []}, [])],
    "maxDepth": [({"root": [3, 9, 20, None, None, 15, 7]}, 3), ({"root": []}, 0)],
    "transpose": [({"g": [[1, 2, 3], [4, 5, 6]]}, [[1, 4], [2, 5], [3, 6]])],
}


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["cpp", "java"])
@pytest.mark.parametrize("method", sorted(CALLS))
def test_calls_convert_arguments_and_results(lang: Language, method: str) -> None:
    code = (CPP if lang == "cpp" else JAVA)[method]
    calls = [LeetCodeCall(args=args, expected=expected) for args, expected in CALLS[method]]
    report = run(LeetCodeRequest(code=code, calls=calls, lang=lang, method=method, limits=SMALL))
    assert [t.status for t in report.tests] == [Status.passed] * len(calls), report
    assert report.status is Status.passed


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["cpp", "java"])
def test_wrong_answer_fails_and_oracle_mode_records_actual(lang: Language) -> None:
    code = (CPP if lang == "cpp" else JAVA)["total"]
    calls = [LeetCodeCall(args={"nums": [1, 2]}, expected=4), LeetCodeCall(args={"nums": [5]})]
    report = run(LeetCodeRequest(code=code, calls=calls, lang=lang, method="total", limits=SMALL))
    assert [t.status for t in report.tests] == [Status.failed, Status.passed]
    assert report.tests[0].actual == "3" and report.tests[1].actual == "5"


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["cpp", "java"])
def test_compile_error_is_reported_with_the_compiler_message(lang: Language) -> None:
    code = (CPP if lang == "cpp" else JAVA)["total"].replace("s += x;", "s += y;")
    report = run(
        LeetCodeRequest(code=code, calls=[LeetCodeCall(args={"nums": [1]}, expected=1)], lang=lang, limits=SMALL)
    )
    assert report.status is Status.compile_error
    assert report.tests[0].status is Status.compile_error
    assert report.setup_error is not None and "y" in report.setup_error.message


@pytest.mark.slow
def test_java_class_described_in_a_comment_does_not_name_the_file() -> None:
    # LeetCode's Java templates open with "* public class TreeNode {" in a comment; the file is still named after
    # the harness's public class, so the program compiles and runs
    code = "/**\n * public class TreeNode {\n *     int val;\n * }\n */\n" + JAVA["total"]
    calls = [LeetCodeCall(args={"nums": [1, 2]}, expected=3)]
    report = run(LeetCodeRequest(code=code, calls=calls, lang="java", method="total", limits=SMALL))
    assert report.status is Status.passed, report.setup_error


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["cpp", "java"])
def test_a_comment_above_the_method_is_not_part_of_its_return_type(lang: Language) -> None:
    # the words of a comment ("sums the array, in order") would otherwise read as the return type's first words
    code = (CPP if lang == "cpp" else JAVA)["total"]
    header = "    long long total(" if lang == "cpp" else "    public long total("
    commented = code.replace(header, "    // sums the array, in order\n" + header)
    calls = [LeetCodeCall(args={"nums": [1, 2]}, expected=3)]
    report = run(LeetCodeRequest(code=commented, calls=calls, lang=lang, method="total", limits=SMALL))
    assert report.status is Status.passed, report.setup_error


@pytest.mark.slow
def test_crash_marks_the_call_and_the_rest_not_run() -> None:
    code = "class Solution {\npublic:\n    int pick(vector<int>& v, int i) { if (i < 0) abort(); return v[i]; }\n};\n"
    calls = [LeetCodeCall(args={"v": [7], "i": i}) for i in (0, -1, 0)]
    report = run(LeetCodeRequest(code=code, calls=calls, lang="cpp", method="pick"))
    assert [t.status for t in report.tests] == [Status.passed, Status.error, Status.error]
    assert report.tests[2].exception is not None and report.tests[2].exception.type == "NotRun"


@pytest.mark.parametrize(
    ("lang", "code"),
    [
        ("cpp", "class Solution {\npublic:\n    int size(unordered_map<int, int>& m) { return m.size(); }\n};\n"),
        ("java", "class Solution {\n    public int size(Map<Integer, Integer> m) { return m.size(); }\n}\n"),
    ],
)
def test_a_signature_the_calls_cannot_fit_fails_every_call(lang: Language, code: str) -> None:
    # A graded fix whose method cannot be called fails; it must not raise out of the grader (where an item would be
    # dropped from pass@k) nor pass.
    report = run(LeetCodeRequest(code=code, calls=[LeetCodeCall(args={"m": {}}, expected=0)], lang=lang, method="size"))
    assert report.status is Status.error
    assert report.setup_error is not None and report.setup_error.type == "SignatureError"
    assert "cannot call size: unsupported parameter type" in report.setup_error.message
    assert [t.status for t in report.tests] == [Status.error]


def test_cpp_method_declared_in_the_class_and_defined_after_it_is_called() -> None:
    code = (
        "class Solution {\npublic:\n    vector<int> evens(vector<int>& nums);\n"
        '    void note(int x) { throw runtime_error("no"); }\n};\n'
        "vector<int> Solution::evens(vector<int>& nums) {\n    vector<int> kept;\n"
        "    for (int x : nums) if (x % 2 == 0) kept.push_back(x);\n    return kept;\n}\n"
    )
    calls = [LeetCodeCall(args={"nums": [1, 2, 4]}, expected=[2, 4])]
    report = run(LeetCodeRequest(code=code, calls=calls, lang="cpp", method="evens", limits=SMALL))
    assert report.status == Status.passed, report


HELPER_AFTER_ENTRY = {
    "cpp": "class Solution {\npublic:\n    int peaks(vector<int>& nums) {\n        int n = 0;\n"
    "        for (int i = 1; i + 1 < (int) nums.size(); i++) n += isPeak(nums, i);\n        return n;\n    }\n"
    "private:\n    bool isPeak(vector<int>& nums, int i) {\n"
    "        return nums[i] > nums[i - 1] && nums[i] > nums[i + 1];\n    }\n};\n",
    "java": "class Solution {\n    public int peaks(int[] nums) {\n        int n = 0;\n"
    "        for (int i = 1; i + 1 < nums.length; i++) if (isPeak(nums, i)) n++;\n        return n;\n    }\n"
    "    private boolean isPeak(int[] nums, int i) { return nums[i] > nums[i - 1] && nums[i] > nums[i + 1]; }\n}\n",
}


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["cpp", "java"])
def test_with_no_method_named_the_entry_is_the_method_the_arguments_fit(lang: Language) -> None:
    # a helper declared after the entry point takes other arguments: calling the last method declared fails
    calls = [LeetCodeCall(args={"nums": [1, 3, 2, 4, 1]}, expected=2), LeetCodeCall(args={"nums": [5, 5]}, expected=0)]
    report = run(LeetCodeRequest(code=HELPER_AFTER_ENTRY[lang], calls=calls, lang=lang, limits=SMALL))
    assert [t.status for t in report.tests] == [Status.passed, Status.passed], report
