"""Sure smells of C++/Java programs and their mends (analysis/clike/smells.py), and the repair search's round that
mends them together before it searches."""

from __future__ import annotations

import asyncio

import pytest

from debugtutor.analysis.clike.diagnostics import pattern_diagnostics
from debugtutor.analysis.clike.edits import candidate_edits
from debugtutor.analysis.clike.repair import arepair_compiled
from debugtutor.analysis.clike.smells import smell_mends
from debugtutor.analysis.repair import RepairBudget
from debugtutor.sandbox import LeetCodeCall

MAGIC = """class Solution {
public:
    int ones(int n) {
        string s = "122";
        int i = 2, count = 1;
        while (s.size() < n) {
            if (s[i] = '1') s += (s[s.size()] == '2' ? '1' : '2');
            else s += (s.back() == '2' ? "11" : '22');
            i--;
        }
        for (int j = 0; j < n; j++) count += 0;
        count = 0;
        for (int j = 0; j < n; j++) if (s[j] == '1') count++;
        return count;
    }
};
"""


def test_each_sure_smell_gets_its_one_mend() -> None:
    mends = {edit.description for edit in smell_mends(MAGIC, "cpp")}
    assert mends == {
        "line 7: '=' -> '=='",
        "line 7: 's[s.size()]' -> 's[s.size() - 1]'",
        "line 8: '22' -> \"22\"",
    }
    java = "class S {\n    int f(int[] a, int x) {\n        x == a[a.length];\n        return x;\n    }\n}\n"
    assert {edit.description for edit in smell_mends(java, "java")} == {
        "line 3: '==' -> '='",
        "line 3: 'a[a.length]' -> 'a[a.length - 1]'",
    }
    inside = "int f(int a, int b, int c) {\n    if ((a < b) && (c = b)) return 1;\n    return 0;\n}\n"
    assert [edit.description for edit in smell_mends(inside, "cpp")] == ["line 2: '=' -> '=='"]
    # what is right stays untouched (an assignment whose result is compared is an idiom)
    idiom = "int f(int x) {\n    while ((x = next(x)) != 0) x--;\n    return x;\n}\n"
    assert smell_mends(idiom, "cpp") == []
    # what is right stays untouched: a comparison inside a condition, an escape, the last element
    clean = "int f(string s) {\n    if (s[0] == 'a' && s.back() != '\\n') return s[s.size() - 1];\n    return 0;\n}\n"
    assert smell_mends(clean, "cpp") == []


@pytest.mark.slow
def test_repair_mends_the_smells_together_before_it_searches() -> None:
    # neither mend alone makes an example pass: the search would need both at once, the round tries them together
    code = """class Solution {
public:
    int ends(vector<int>& v) {
        int total = 0;
        if (total = 0) total += v[0];
        total += v[v.size()];
        return total;
    }
};
"""
    calls = [LeetCodeCall(args={"v": [1, 2, 3]}, expected=4), LeetCodeCall(args={"v": [5]}, expected=10)]
    budget = RepairBudget(max_seconds=60.0, batch_size=32, max_executions=400)
    search = asyncio.run(arepair_compiled(code, calls, language="cpp", method="ends", budget=budget))
    assert search.best is not None
    assert [edit.operator for edit in search.best.edits] == ["mend_assignment_condition", "mend_index_past_end"]
    assert search.candidates <= 3  # the program, the mended program, and nothing else


@pytest.mark.slow
def test_a_program_that_passes_every_example_still_gets_its_sure_smells_mended() -> None:
    # no example reaches the read one past the end: the smell is the only evidence of the bug
    code = """class Solution {
public:
    int last(vector<int>& v, bool whole) {
        if (whole) return v[v.size()];
        return v[0];
    }
};
"""
    calls = [LeetCodeCall(args={"v": [1, 2, 3], "whole": False}, expected=1),
             LeetCodeCall(args={"v": [7], "whole": False}, expected=7)]  # fmt: skip
    budget = RepairBudget(max_seconds=60.0, batch_size=32, max_executions=400)
    search = asyncio.run(arepair_compiled(code, calls, language="cpp", method="last", budget=budget))
    assert search.best is not None
    assert [edit.operator for edit in search.best.edits] == ["mend_index_past_end"]
    assert "return v[v.size() - 1];" in search.best.source
    assert search.best.diff.startswith("--- a/solution.cpp\n+++ b/solution.cpp\n")
    # without a smell there is nothing to go on: no repair, and nothing but the program was run
    clean = code.replace("v[v.size()]", "v[v.size() - 1]")
    untouched = asyncio.run(arepair_compiled(clean, calls, language="cpp", method="last", budget=budget))
    assert untouched.repairs == [] and untouched.executions == 1


@pytest.mark.parametrize(
    ("language", "code", "expected"),
    [
        ("cpp", "int f(string s, vector<int>& v, char c) {\n    if (v[0] == 1) return 0;\n"
                "    return (s[0] == 1) + (s[1] != '0') + (c == 7);\n}\n", {"line 3: 1 -> '1'", "line 3: 7 -> '7'"}),
        ("java", "class Solution {\n    int f(String s, int[] a) {\n"
                 "        if (a[0] == 1 || s.charAt(0) == 7) return 1;\n"
                 "        return s.length() == 2 ? 1 : 0;\n    }\n}\n", {"line 3: 7 -> '7'"}),
    ],
)  # fmt: skip
def test_a_character_compared_with_a_bare_digit_gets_its_quotes(language: str, code: str, expected: set[str]) -> None:
    # integers compared with digits (v[0] == 1, s.length() == 2) stay as they are
    assert {edit.description for edit in smell_mends(code, language)} == expected  # type: ignore[arg-type]


def test_a_loop_up_to_the_size_that_reads_at_its_counter_stops_one_earlier() -> None:
    code = """class Solution {
public:
    vector<bool> kids(vector<int>& c, int extra) {
        int top = 0;
        for (int i = 0; i <= c.size(); i++) top = max(top, c[i]);
        vector<bool> fits;
        for (int i = 0; i <= c.size(); i++) fits.push_back(true);
        return fits;
    }
};
"""
    # the second loop never reads c at i: one turn too many there is not an index past the end
    mends = smell_mends(code, "cpp")
    assert [edit.description for edit in mends] == ["line 5: '<=' -> '<'"]
    # an index past the end is what DebugBench calls faulty indexing (a reference bug), not a wrong condition
    assert [edit.bug_type for edit in mends] == ["faulty indexing"]


@pytest.mark.parametrize(
    ("language", "code", "expected"),
    [
        (
            "java",
            "class Solution {\n    public int sieve(int n) {\n        boolean[] gone = new boolean[n];\n"
            "        int kept = 0;\n        for (int i = 2; i <= n; i++) if (!gone[i]) kept++;\n"
            "        for (int i = 2; i <= n + 1; i++) kept += 0;\n        return kept;\n    }\n}\n",
            ["line 5: '<=' -> '<'"],
        ),
        (
            "cpp",
            "class Solution {\npublic:\n    int f(int n) {\n        vector<int> dp(n + 1, 0);\n"
            "        vector<int> seen(n);\n"
            "        for (int i = 1; i <= n; i++) dp[i] = dp[i - 1] + i;\n"
            "        for (int i = 0; i <= n; i++) seen[i] = dp[i];\n        return dp[n];\n    }\n};\n",
            ["line 7: '<=' -> '<'"],
        ),
        (
            # made with another container's size, second of two declarators, the bound that size or a name for it
            "cpp",
            "class Solution {\npublic:\n    int f(vector<int>& ed) {\n        int n = ed.size();\n"
            "        vector<int> vis(ed.size(), 0), seen(ed.size(), 0);\n        int kept = 0;\n"
            "        for (int i = 0; i <= ed.size(); i++) if (!seen[i]) kept++;\n"
            "        for (int i = 0; i <= n; i++) vis[i] = 1;\n"
            "        for (int i = 0; i <= n; i++) if (i < ed.size()) kept += vis[i];\n"
            "        return kept;\n    }\n};\n",
            ["line 7: '<=' -> '<'", "line 8: '<=' -> '<'"],
        ),
    ],
)
def test_a_loop_up_to_an_arrays_made_size_that_reads_it_at_its_counter_stops_one_earlier(
    language: str, code: str, expected: list[str]
) -> None:
    # dp has n + 1 elements, so dp[n] is its last one: only the loop over seen (n elements) runs past the end; a
    # loop that guards its read (``if (i < ed.size())``) is one turn too long on purpose
    assert [edit.description for edit in smell_mends(code, language)] == expected  # type: ignore[arg-type]
    # the static findings name the same loops, for localization
    found = [d.line for d in pattern_diagnostics(code, language) if d.code == "loop-past-end"]  # type: ignore[arg-type]
    assert found == [int(text.split(":")[0].removeprefix("line ")) for text in expected]


def test_a_loop_up_to_a_rows_length_reads_the_row_at_its_counter() -> None:
    code = """class Solution {
    public int ones(int[][] grid) {
        int total = 0;
        for (int i = 0; i < grid.length; i++)
            for (int j = 0; j <= grid[0].length; j++) total += grid[i][j];
        for (int k = 0; k <= grid.length; k++) {
            if (k < grid.length) total += grid[k][0];
        }
        return total;
    }
}
"""
    # the second loop guards its read against the last turn: one turn too many there is on purpose
    assert [edit.description for edit in smell_mends(code, "java")] == ["line 5: '<=' -> '<'"]


def test_a_loop_up_to_a_name_that_holds_a_size_is_bounded_by_that_size() -> None:
    code = """class Solution {
public:
    int corners(vector<vector<int>>& grid) {
        int n = grid.size(), m = grid[0].size();
        int k = grid.size();
        int total = 0;
        for (int i = 0; i <= n; i++) total += grid[i][0];
        for (int j = 0; j <= m; j++) total += grid[0][j];
        k--;
        for (int i = 0; i <= k; i++) total += grid[i][1];
        return total;
    }
};
"""
    # k is changed after it took the size, so it no longer says where the container ends
    assert [edit.description for edit in smell_mends(code, "cpp")] == ["line 7: '<=' -> '<'", "line 8: '<=' -> '<'"]


@pytest.mark.parametrize("language", ["cpp", "java"])
def test_a_cursor_that_starts_at_the_size_and_reads_there_before_it_moves_starts_on_the_last_element(
    language: str,
) -> None:
    size = "word.size()" if language == "cpp" else "word.length()"
    read = "word[{0}]" if language == "cpp" else "word.charAt({0})"
    code = (
        "class Solution {\npublic:\n    bool mirrored(string word) {\n"
        f"        int l = 0, r = {size};\n        int n = {size};\n        int back = {size};\n"
        f"        while (l < r) {{\n            if ({read.format('l')} != {read.format('r')}) return false;\n"
        "            l++;\n            r--;\n        }\n"
        f"        while (back > 0) {{\n            back--;\n"
        f"            if ({read.format('back')} == 'x') return false;\n"
        f"        }}\n        return n == 0 || {read.format('n - 1')} != 'x';\n    }}\n}};\n"
    )
    if language == "java":
        code = code.replace("public:\n    bool", "    public boolean").replace("string word", "String word")
        code = code.replace("};", "}")
    # r is read at the size before it moves; back moves first; n never moves (a bound, read at n - 1)
    line = next(number for number, text in enumerate(code.splitlines(), 1) if "r = " in text)
    mends = [edit for edit in smell_mends(code, language) if edit.operator == "mend_cursor_past_end"]  # type: ignore[arg-type]
    assert [edit.description for edit in mends] == [f"line {line}: r = {size} -> {size} - 1"]
    assert f"r = {size} - 1;" in mends[0].source and mends[0].bug_type == "faulty indexing"
    found = [d.line for d in pattern_diagnostics(code, language) if d.code == "cursor-past-end"]  # type: ignore[arg-type]
    assert found == [line]


def test_an_index_that_names_the_containers_size_is_one_past_the_end() -> None:
    code = """class Solution {
public:
    int ends(vector<int>& nums, int n) {
        vector<int> dp(n, 0);
        int size = nums.size();
        int k = nums.size();
        k--;
        return dp[n] + nums[size] + nums[k];
    }
};
"""
    # dp was made with n elements and nums has size elements; k was moved back onto the last one
    assert [edit.description for edit in smell_mends(code, "cpp")] == [
        "line 8: 'dp[n]' -> 'dp[n - 1]'", "line 8: 'nums[size]' -> 'nums[size - 1]'"
    ]  # fmt: skip


def test_a_call_that_reads_an_element_at_the_size_is_one_past_the_end() -> None:
    """Java reads a string's letters with ``charAt`` and a list's elements with ``get`` (C++ checks with ``at``):
    at the size they read one past the end like a subscript does. The mend is the last element; the repair's
    edits also offer the first (the other end a planted index bug moves from); reads inside the bounds are left be."""
    java = """class Solution {
    public int ends(String word, List<Integer> seen) {
        char last = word.charAt(word.length());
        int top = seen.get(seen.size());
        int first = seen.get(0) + word.charAt(word.length() - 1);
        return last + top + first;
    }
}
"""
    cpp = """class Solution {
public:
    int ends(vector<int>& nums) {
        return nums.at(nums.size()) + nums.at(0);
    }
};
"""
    assert [edit.description for edit in smell_mends(java, "java")] == [
        "line 3: 'word.charAt(word.length())' -> 'word.charAt(word.length() - 1)'",
        "line 4: 'seen.get(seen.size())' -> 'seen.get(seen.size() - 1)'",
    ]
    assert [edit.description for edit in smell_mends(cpp, "cpp")] == [
        "line 4: 'nums.at(nums.size())' -> 'nums.at(nums.size() - 1)'"
    ]
    assert [d.line for d in pattern_diagnostics(java, "java") if d.code == "index-past-end"] == [3, 4]
    assert [d.line for d in pattern_diagnostics(cpp, "cpp") if d.code == "index-past-end"] == [4]
    firsts = [edit.source for edit in candidate_edits(java, "java") if edit.operator == "first_element"]
    assert firsts == [java.replace("word.charAt(word.length())", "word.charAt(0)"),
                      java.replace("seen.get(seen.size())", "seen.get(0)")]  # fmt: skip
    lasts = {edit.source for edit in candidate_edits(java, "java") if edit.operator == "off_by_one"}
    assert java.replace("word.charAt(word.length())", "word.charAt(word.length() - 1)") in lasts


def test_a_java_local_declared_null_and_then_used_is_made() -> None:
    code = """class S {
    int f(int[] a) {
        Deque<Integer> stack = null;
        stack.push(-1);
        List<Integer> seen = null;
        if (a.length > 0) seen = new ArrayList<>();
        seen.add(1);
        Map<Integer, Integer> counts = null;
        int k = counts.size();
        Foo other = null;
        other.run();
        return k + stack.peek() + seen.size();
    }
}
"""
    found = [(edit.line, edit.source.splitlines()[edit.line - 1].strip()) for edit in smell_mends(code, "java")]
    # not 'seen' (a branch may make it first), nor a type with no likely implementation
    assert found == [
        (3, "Deque<Integer> stack = new ArrayDeque<>();"),
        (8, "Map<Integer, Integer> counts = new HashMap<>();"),
    ]
    assert not smell_mends(code.replace("stack.push(-1);", "stack = new ArrayDeque<>();").split("List<")[0], "java")


@pytest.mark.parametrize("language", ["cpp", "java"])
def test_a_number_commented_out_right_after_an_operand_is_a_division_again(language: str) -> None:
    code = "double f(int total, int off) {\n    double kept = (100 - off)/*100.0*/;\n    return total * kept;\n}\n"
    mends = smell_mends(code, language)  # type: ignore[arg-type]
    assert [edit.source for edit in mends] == [code.replace("/*100.0*/", "/100.0")]
    # a comment that stands apart, or holds words, is what comments are for
    for comment in (" /*100.0*/", "/*percent*/"):
        assert not smell_mends(code.replace("/*100.0*/", comment), language)  # type: ignore[arg-type]


OWN_MEMBERSHIP_JAVA = """class Solution {
    public boolean swapped(String s1, String s2) {
        List<Character> first = new ArrayList<>();
        List<Character> second = new ArrayList<>();
        for (int i = 0; i < s1.length(); i++) {
            if (s1.charAt(i) != s2.charAt(i)) { first.add(s1.charAt(i)); second.add(s2.charAt(i)); }
        }
        for (Character c : first) {
            if (!(first.contains(c))) return false;
        }
        return first.size() == 2;
    }
}
"""

OWN_MEMBERSHIP_CPP = """class Solution {
public:
    bool same(set<int>& a, set<int> b, multiset<int> m) {
        for (auto& x : a) {
            if (!a.count(x)) return false;
        }
        for (int y : m) if (m.count(y) > 1) return false;
        return true;
    }
};
"""


@pytest.mark.parametrize(
    ("language", "code", "expected"),
    [
        ("java", OWN_MEMBERSHIP_JAVA, ["line 9: 'first' -> 'second'"]),
        # a multiset's count used as a number is not a membership test
        ("cpp", OWN_MEMBERSHIP_CPP, ["line 5: 'a' -> 'b'"]),
    ],
)
def test_a_loop_asking_the_container_it_walks_whether_it_holds_the_element_asks_the_other_one(
    language: str, code: str, expected: list[str]
) -> None:
    assert [edit.description for edit in smell_mends(code, language)] == expected  # type: ignore[arg-type]
    codes = {(d.line, d.code, d.bug_type) for d in pattern_diagnostics(code, language)}  # type: ignore[arg-type]
    assert (int(expected[0].split()[1][:-1]), "own-membership", "variable error") in codes


def test_a_loop_asking_its_own_container_is_left_alone_when_the_mend_is_not_sure() -> None:
    # two other lists of the type: which one was meant is not sure
    three = OWN_MEMBERSHIP_JAVA.replace(
        "List<Character> second = new ArrayList<>();",
        "List<Character> second = new ArrayList<>(), third = new ArrayList<>();",
    )
    assert not smell_mends(three, "java")
    # the loop empties the container as it goes: the test can be false
    removing = OWN_MEMBERSHIP_JAVA.replace(
        "if (!(first.contains(c)))", "second.remove(c); first.remove(c); if (!(first.contains(c)))"
    )
    assert not smell_mends(removing, "java")
    # another container is the one asked
    assert not smell_mends(OWN_MEMBERSHIP_JAVA.replace("first.contains(c)", "second.contains(c)"), "java")


_SEARCH_BODY = """        int lo = 0, hi = nums.SIZE - 1;
        while (lo <= hi) {
            int mid = MIDDLE;
            if (nums[mid] == target) {
                return mid;
            } else if (nums[mid] > target) {
                hi = mid - 1;
            } else
                lo = mid + 1;
        }
        return lo;
    }
"""
SEARCH_INSERT = {
    "cpp": "class Solution {\npublic:\n    int searchInsert(vector<int>& nums, int target) {\n"
    + _SEARCH_BODY.replace("SIZE", "size()").replace("MIDDLE", "lo + (hi - lo) / 2")
    + "};\n",
    "java": "class Solution {\n    public int searchInsert(int[] nums, int target) {\n"
    + _SEARCH_BODY.replace("SIZE", "length").replace("MIDDLE", "(lo + hi) >> 1")
    + "}\n",
}


@pytest.mark.parametrize("language", ["cpp", "java"])
def test_a_search_bound_set_to_the_middle_while_the_bounds_may_meet_moves_past_it(language: str) -> None:
    good = SEARCH_INSERT[language]
    stuck = good.replace("hi = mid - 1;", "hi = mid;").replace("lo = mid + 1;", "lo = mid;")
    mends = [edit for edit in smell_mends(stuck, language) if edit.operator == "mend_bound_to_middle"]  # type: ignore[arg-type]
    assert [edit.description.split(": ", 1)[1] for edit in mends] == ["'mid' -> 'mid - 1'", "'mid' -> 'mid + 1'"]
    assert all(edit.bug_type == "variable error" for edit in mends)
    codes = {(d.line, d.code) for d in pattern_diagnostics(stuck, language)}  # type: ignore[arg-type]
    assert {(edit.line, "bound-to-middle") for edit in mends} <= codes
    assert not smell_mends(good, language)  # type: ignore[arg-type]
    # bounds that may not meet (``lo < hi``), and a branch that leaves the loop, move nothing past the middle
    assert not smell_mends(stuck.replace("lo <= hi", "lo < hi"), language)  # type: ignore[arg-type]
    leaving = stuck.replace("hi = mid;", "hi = mid;\n                break;").replace(
        "lo = mid;", "{ lo = mid; break; }"
    )
    assert not smell_mends(leaving, language)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("header", "mended"),
    [
        ("for (int i = 0; i < n; i)", "for (int i = 0; i < n; i++)"),
        ("for (int i = n; i > 0; i)", "for (int i = n; i > 0; i--)"),
        ("for (int i = 0; i < n; i + 2)", "for (int i = 0; i < n; i += 2)"),
        ("for (int i = 0; i < n; i - 1)", "for (int i = 0; i < n; i--)"),
    ],
)
def test_a_loop_whose_update_computes_without_storing_moves_its_variable(header: str, mended: str) -> None:
    code = "class Solution {\npublic:\n    int f(int n) {\n        int t = 0;\n"
    code += f"        {header} t += i;\n        return t;\n    }}\n}};\n"
    (edit,) = [e for e in smell_mends(code, "cpp") if e.operator == "mend_idle_update"]
    assert edit.line == 5 and edit.source == code.replace(header, mended)
    moving = code.replace(header, "for (int i = 0; i < n; i++)")
    assert not [e for e in smell_mends(moving, "cpp") if e.operator == "mend_idle_update"]


_COUNT_SHARED = {
    "java": (
        "class Solution {\n    public int countShared(int[] a, int[] b) {\n"
        "        Set<Integer> seen = new HashSet<>();\n        for (int x : b) seen.add(x);\n"
        "        int count = 0;\n        for (int x : a) {\n"
        "            if (seen.contains(x)) count++;\n            return count;\n        }\n        AFTER\n    }\n}\n"
    ),
    "cpp": (
        "class Solution {\npublic:\n    int countShared(vector<int>& a, vector<int>& b) {\n"
        "        set<int> seen(b.begin(), b.end());\n        int count = 0;\n        for (int x : a) {\n"
        "            if (seen.count(x)) count++;\n            return count;\n        }\n        AFTER\n    }\n};\n"
    ),
}


@pytest.mark.parametrize("language", ["cpp", "java"])
def test_a_return_that_ends_a_loop_s_every_first_turn_moves_after_the_loop(language: str) -> None:
    buggy = _COUNT_SHARED[language].replace("AFTER", "return 0;")
    (mend,) = [e for e in smell_mends(buggy, language) if e.operator == "mend_return_in_loop"]  # type: ignore[arg-type]
    # the return after the loop gives way to the one that ended the loop's block; the line count stays
    assert "return 0;" not in mend.source and mend.source.count("return count;") == 1
    assert mend.source.index("return count;") > mend.source.index("        }\n")
    assert mend.source.count("\n") == buggy.count("\n") and mend.line == 8
    assert (8, "return-ends-loop") in {(d.line, d.code) for d in pattern_diagnostics(buggy, language)}  # type: ignore[arg-type]
    calls = [
        LeetCodeCall(args={"a": [1, 2, 3, 4], "b": [2, 4, 9]}, expected=2),
        LeetCodeCall(args={"a": [5, 6], "b": [6, 5]}, expected=2),
    ]
    budget = RepairBudget(max_seconds=60.0, batch_size=32, max_executions=50, per_test_s=2.0)
    search = asyncio.run(arepair_compiled(buggy, calls, language=language, method="countShared", budget=budget))  # type: ignore[arg-type]
    assert search.best is not None and [e.operator for e in search.best.edits] == ["mend_return_in_loop"]
    # the loop as the block's last statement: the return goes right after its '}'
    last = _COUNT_SHARED[language].replace("\n        AFTER", "")
    (moved,) = [e for e in smell_mends(last, language) if e.operator == "mend_return_in_loop"]  # type: ignore[arg-type]
    assert "        } return count;\n" in moved.source


@pytest.mark.parametrize("language", ["cpp", "java"])
def test_a_return_a_continue_can_skip_or_one_with_code_after_the_loop_is_left_alone(language: str) -> None:
    skipped = _COUNT_SHARED[language].replace("AFTER", "return 0;")
    skipped = skipped.replace("count++;\n", "count++;\n            if (x < 0) continue;\n", 1)
    assert not [e for e in smell_mends(skipped, language) if e.operator == "mend_return_in_loop"]  # type: ignore[arg-type]
    followed = _COUNT_SHARED[language].replace("AFTER", "count += 1;\n        return count;")
    assert not [e for e in smell_mends(followed, language) if e.operator == "mend_return_in_loop"]  # type: ignore[arg-type]
