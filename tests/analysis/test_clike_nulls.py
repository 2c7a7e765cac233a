"""Nulls in C++/Java (analysis/clike/nulls.py): from the crash back to where the null was set, and the edits that
make the missing object."""

from __future__ import annotations

import asyncio

import pytest

from debugtutor.analysis.clike.edits import candidate_edits
from debugtutor.analysis.clike.nulls import null_origins
from debugtutor.analysis.clike.repair import arepair_compiled
from debugtutor.analysis.repair import RepairBudget
from debugtutor.analysis.static import Diagnostic
from debugtutor.sandbox import LeetCodeCall

STACK = """class Solution {
    public int deepest(String s) {
        Deque<Character> open = null;
        int best = 0;
        for (char c : s.toCharArray()) {
            if (c == '(') open.push(c);
            else if (c == ')') open.pop();
            best = Math.max(best, open.size());
        }
        return best;
    }
}
"""
TABLE = """class Solution {
    public long ways(int n) {
        long[] table = null;
        table[0] = 1;
        for (int i = 1; i <= n; i++) {
            table[i] = table[i - 1] * 2;
        }
        return table[n];
    }
}
"""
TREE = """class Solution {
    int total = 0;
    void walk(TreeNode node) {
        if (node == null) return;
        total += node.val;
        walk(node.left);
        walk(null);
    }
    public int sum(TreeNode root) {
        walk(root);
        return total;
    }
}
"""


def _descriptions(code: str, lines: set[int] | None = None) -> list[str]:
    return [edit.description.split(": ", 1)[-1] for edit in candidate_edits(code, "java", lines=lines)]


def test_null_origin_is_the_line_that_set_it() -> None:
    assert null_origins(STACK, 6, "java") == [3]
    assert null_origins(TABLE, 4, "java") == [3]
    assert null_origins(STACK, 4, "java") == []  # nothing dereferenced there
    cpp = "int f(vector<int>* v) {\n    vector<int>* w = nullptr;\n    return w->size();\n}\n"
    assert null_origins(cpp, 3, "cpp") == [2]


def test_null_initialisers_get_a_new_object_of_their_type() -> None:
    assert "null -> new ArrayDeque<>()" in _descriptions(STACK, {3})
    sized = _descriptions(TABLE, {3})
    assert "null -> new long[n + 1]" in sized and "null -> new long[n]" in sized
    # never proposed on lines not asked about, nor as a bug to inject
    assert not any("new ArrayDeque" in d for d in _descriptions(STACK, {5}))
    assert not any("new ArrayDeque" in edit.description for edit in candidate_edits(STACK, "java", direction="mutate"))
    # a string starts empty (there is no implementation class to make)
    text = "class S {\n    int f(String s) {\n        String seen = null;\n        return s.length() - seen.length();\n"
    assert _descriptions(text + "    }\n}\n", {3})[0] == 'null -> ""'


def test_null_argument_takes_what_a_sibling_call_passes() -> None:
    found = _descriptions(TREE, {7})
    assert "null -> node.right" in found and "null -> node.left" in found


DISCOUNTS = """class Solution {
    public int[] cheaper(int[] costs, int cut) {
        int[] spare = new int[1];
        String label = "x";
        for (int k = 0; k < costs.length; k++)
            costs[k] = lower(k, cut, null);
        return costs;
    }
    int lower(int k, int cut, int[] costs) {
        return costs[k] > cut ? costs[k] - cut : costs[k];
    }
}
"""


def test_a_null_argument_takes_a_variable_in_scope_of_the_type_the_called_function_declares() -> None:
    found = _descriptions(DISCOUNTS, {6})
    assert "null -> costs" in found and "null -> spare" in found
    # the parameter's type decides: not the string, not the ints
    assert not {"null -> label", "null -> cut", "null -> k"} & set(found)


@pytest.mark.slow
def test_repair_finds_the_missing_object() -> None:
    calls = [LeetCodeCall(args={"n": 3}, expected=8), LeetCodeCall(args={"n": 0}, expected=1)]
    budget = RepairBudget(max_seconds=60.0, batch_size=32, max_executions=400)
    search = asyncio.run(
        arepair_compiled(TABLE, calls, language="java", method="ways", suspicious_lines=[4], budget=budget)
    )
    assert search.best is not None and "new long[n + 1]" in search.best.source


UNMADE_POINTER = """class Solution {
public:
    int last(TreeNode* root) {
        TreeNode* spare;
        queue<TreeNode*> q;
        q.push(root);
        int seen = 0;
        while (!q.empty()) {
            TreeNode* node = q.front();
            q.pop();
            seen = spare->val;
            if (node->left) q.push(node->left);
        }
        return seen;
    }
};
"""
UNMADE_HANDLE = """class Solution {
    public int count(String word, int[] limits) {
        Helper probe;
        String text;
        text.trim();
        int total = 0;
        for (int limit : limits) total += probe.bound(limit);
        return total + word.length();
    }
    int bound(int limit) { return limit * 2; }
}
"""
ASSIGNED_LATER = """class Solution {
public:
    int pick(vector<int>& nums) {
        int* best;
        best = &nums[0];
        return *best;
    }
};
"""


def _unmade(code: str, language: str) -> list[str]:
    return [
        edit.description.split(": ", 1)[-1]
        for edit in candidate_edits(code, language, categories=("reference",))  # type: ignore[arg-type]
        if "unmade" in edit.operator
    ]


def test_a_pointer_nothing_sets_is_replaced_by_one_of_its_type_in_scope() -> None:
    found = _unmade(UNMADE_POINTER, "cpp")
    # the nearest pointer of the same type first, then the parameter; never the queue or the int
    assert [d for d in found if "->" in d] == ["'spare' -> 'node'", "'spare' -> 'root'"]
    assert "delete 'spare' and the statements that use it" in found
    fixed = next(e.source for e in candidate_edits(UNMADE_POINTER, "cpp") if "'spare' -> 'node'" in e.description)
    assert "spare" not in fixed and "seen = node->val;" in fixed
    assert len(fixed.splitlines()) == len(UNMADE_POINTER.splitlines())  # lines keep their numbers


def test_an_unmade_object_goes_with_its_statements_or_its_members_stay() -> None:
    found = _unmade(UNMADE_HANDLE, "java")
    assert "delete 'text' and the statements that use it" in found
    assert "'probe.bound' -> 'bound'" in found
    member = next(e.source for e in candidate_edits(UNMADE_HANDLE, "java") if "'probe.bound'" in e.description)
    assert "total += bound(limit);" in member and "Helper probe" not in member
    dropped = next(e.source for e in candidate_edits(UNMADE_HANDLE, "java") if "delete 'text'" in e.description)
    assert "text" not in dropped
    # a String stand-in for the string nobody made, the parameter
    assert "'text' -> 'word'" in found


STAND_IN_CALL = {
    "cpp": """class Solution {
public:
    int ways(vector<int>& nums, int goal) {
        int helper;
        return helper.count(nums, goal, 0);
    }
    int walk(vector<int>& nums, int goal, int at) {
        if (at == nums.size()) return goal == 0;
        return walk(nums, goal - nums[at], at + 1) + walk(nums, goal + nums[at], at + 1);
    }
    int twice(int n) { return 2 * n; }
};
""",
    "java": """class Solution {
    public int ways(int[] nums, int goal) {
        Counter helper;
        return helper.count(nums, goal, 0);
    }
    private int walk(int[] nums, int goal, int at) {
        if (at == nums.length) return goal == 0 ? 1 : 0;
        return walk(nums, goal - nums[at], at + 1) + walk(nums, goal + nums[at], at + 1);
    }
    private int twice(int n) { return 2 * n; }
}
""",
}


@pytest.mark.parametrize("language", ["cpp", "java"])
def test_a_call_on_an_unmade_object_goes_to_the_one_function_taking_as_many_arguments(language: str) -> None:
    code = STAND_IN_CALL[language]
    assert "'helper.count(...)' -> 'walk(...)'" in _unmade(code, language)
    fixed = next(e.source for e in candidate_edits(code, language) if "-> 'walk(...)'" in e.description)  # type: ignore[arg-type]
    assert "return walk(nums, goal, 0);" in fixed and "helper" not in fixed
    # with a second function of three parameters the call has no one place to go
    ambiguous = code.replace("twice(int n)", "twice(int n, int m, int k)")
    assert not any("-> 'walk(...)'" in d or "-> 'twice(...)'" in d for d in _unmade(ambiguous, language))


def test_a_variable_given_a_value_later_is_not_unmade() -> None:
    assert _unmade(ASSIGNED_LATER, "cpp") == []


def test_a_vector_indexed_but_never_grown_gets_a_size_from_the_parameters() -> None:
    code = """class Solution {
public:
    double best(int n, vector<int>& edges) {
        unordered_map<int, vector<int>> graph;
        vector<double> chance;
        chance[0] = 1.0;
        vector<int> order;
        order.push_back(0);
        return chance[n - 1] + graph[0].size() + order[0];
    }
};
"""
    found = _unmade(code, "cpp") + [
        e.description.split(": ", 1)[-1] for e in candidate_edits(code, "cpp") if e.operator == "size_vector"
    ]
    assert found == [
        "size the vector: chance(n)", "size the vector: chance(n + 1)",
        "size the vector: chance(edges.size())", "size the vector: chance(edges.size() + 1)",
    ]  # fmt: skip


def test_a_grid_made_null_gets_the_shape_of_a_grid_parameter_as_it_is_and_turned() -> None:
    java = """class Solution {
    public int[][] turned(int[][] grid) {
        int[][] out = null;
        for (int i = 0; i < grid.length; i++)
            for (int j = 0; j < grid[0].length; j++) out[j][i] = grid[i][j];
        return out;
    }
}
"""
    made = _descriptions(java, {3})
    assert "null -> new int[grid.length][grid[0].length]" in made
    assert "null -> new int[grid[0].length][grid.length]" in made


def test_an_array_made_null_or_never_sized_gets_the_bound_its_counter_is_kept_below_first() -> None:
    java = """class Solution {
    public int bars(int[] costs, int coins) {
        int[] counts = null;
        for (int x : costs) counts[x]++;
        int at = 1, bought = 0;
        while (at <= 100000 && coins >= at * counts[at]) { coins -= at * counts[at]; bought += counts[at]; at++; }
        return bought;
    }
}
"""
    assert _descriptions(java, {3})[:3] == [
        "null -> new int[100001]", "null -> new int[costs.length]", "null -> new int[costs.length + 1]"
    ]  # fmt: skip
    cpp = """class Solution {
public:
    int seen(vector<int>& nums) {
        vector<bool> marked;
        int found = 0;
        for (int v = 0; v < 1001; v++) if (marked[v]) found++;
        return found + nums.size();
    }
};
"""
    sized = [e.description.split(": ", 1)[-1] for e in candidate_edits(cpp, "cpp") if e.operator == "size_vector"]
    assert sized[:2] == ["size the vector: marked(1001)", "size the vector: marked(nums.size())"]


def test_an_unmade_value_may_stand_for_a_maps_entry_at_the_key_the_code_around_it_indexes_with() -> None:
    java = """class Solution {
    public int steps(int[] nums) {
        Map<Integer, Integer> rank = new HashMap<>();
        for (int i = 0; i < nums.length; i++) rank.put(nums[i], i);
        int count = 0;
        Integer y;
        for (int i = 1; i < nums.length; i++) {
            if (nums[i] > nums[0]) {
                count += y;
            }
        }
        return count;
    }
}
"""
    assert "'y' -> 'rank.get(nums[i])'" in _unmade(java, "java")
    fixed = next(e.source for e in candidate_edits(java, "java") if "rank.get(nums[i])" in e.description)
    assert "count += rank.get(nums[i]);" in fixed and "Integer y" not in fixed
    cpp = java.replace("Map<Integer, Integer> rank = new HashMap<>();", "unordered_map<int, int> rank;")
    cpp = cpp.replace("Integer y;", "int y;").replace("int[] nums", "vector<int>& nums").replace(".length", ".size()")
    cpp = cpp.replace("rank.put(nums[i], i);", "rank[nums[i]] = i;").replace("public int", "int")
    assert "'y' -> 'rank[nums[i]]'" in _unmade(cpp, "cpp")
    # a map of another value type is no stand-in
    assert not any("rank" in d for d in _unmade(java.replace("Map<Integer, Integer>", "Map<Integer, String>"), "java"))


RUNNING_MAXIMUM = {
    "java": "class Solution {\n    public int top(int[] nums) {\n        int max;\n        for (int m : nums)\n"
    "            max = Math.max(m, max);\n        return max;\n    }\n}\n",
    "cpp": "class Solution {\npublic:\n    int top(vector<int>& nums) {\n        int max;\n        for (int m : nums)\n"
    "            max = std::max(m, max);\n        return max;\n    }\n};\n",
}


def _first_values(code: str, language: str, diagnostics: list[Diagnostic]) -> list[str]:
    return [
        e.description.split("starts at ", 1)[1]
        for e in candidate_edits(code, language, categories=["reference"], diagnostics=diagnostics)  # type: ignore[arg-type]
        if e.operator == "initialise_variable"
    ]


def test_a_running_maximum_read_before_any_value_starts_at_the_lowest_value_then_the_first_element() -> None:
    told = Diagnostic(category="reference", line=5, column=0, message="variable max might not have been initialized",
                      code="uninitialized")  # fmt: skip
    assert _first_values(RUNNING_MAXIMUM["java"], "java", [told])[:2] == ["Integer.MIN_VALUE", "nums[0]"]
    assert _first_values(RUNNING_MAXIMUM["java"], "java", []) == []  # javac said nothing: nothing to mend
    # C++ says nothing and compiles the read: the read itself is the finding
    assert _first_values(RUNNING_MAXIMUM["cpp"], "cpp", [])[:2] == ["INT_MIN", "nums[0]"]
    set_first = RUNNING_MAXIMUM["cpp"].replace("int max;\n", "int max;\n        max = 0;\n")
    assert _first_values(set_first, "cpp", []) == []


def test_a_string_read_before_any_value_spells_its_own_name_first_where_the_others_beside_it_do() -> None:
    code = (
        'class Solution {\n    public int pick(String key) {\n        String type = "type";\n'
        "        String color;\n        if (key.equals(color)) return 1;\n        return 0;\n    }\n}\n"
    )
    told = Diagnostic(category="reference", line=5, column=0, message="variable color might not have been initialized",
                      code="uninitialized")  # fmt: skip
    assert _first_values(code, "java", [told]) == ['"color"', '""']
    plain = code.replace('String type = "type";', 'String type = "kind";')
    assert _first_values(plain, "java", [told]) == ['""', '"color"']


@pytest.mark.slow
def test_the_search_gives_a_variable_read_before_any_value_its_first_value() -> None:
    # (Java only: a C++ program reading garbage may pass by chance, and then there is nothing to search for)
    language = "java"
    calls = [LeetCodeCall(args={"nums": [-4, -2, -9]}, expected=-2), LeetCodeCall(args={"nums": [3]}, expected=3)]
    budget = RepairBudget(max_seconds=90.0, batch_size=32, max_executions=200, per_test_s=2.0)
    search = asyncio.run(arepair_compiled(RUNNING_MAXIMUM[language], calls, language=language, method="top",  # type: ignore[arg-type]
                                          budget=budget))  # fmt: skip
    assert search.best is not None
    assert "int max = " in search.best.source


UNMADE_ON_A_BROKEN_LINE = """class Solution {
    public double[] convert(double celsius) {
        double[] out = new double[2];
        Holder obj;
        out[1] = obj.celsius * 2.0 + 1.0
        out[0] = obj.celsius + 3.0;
        return out;
    }
}
"""


def test_a_line_with_a_missing_semicolon_and_an_unmade_object_is_mended_not_deleted() -> None:
    # deleting the object with its statements clears every complaint at once, but the ';' and the member read
    # mended one at a time keep the code the program was meant to run
    calls = [
        LeetCodeCall(args={"celsius": 1.0}, expected=[4.0, 3.0]),
        LeetCodeCall(args={"celsius": 2.5}, expected=[5.5, 6.0]),
    ]
    budget = RepairBudget(max_seconds=120.0, batch_size=32, max_executions=300)
    search = asyncio.run(arepair_compiled(UNMADE_ON_A_BROKEN_LINE, calls, language="java", method="convert",
                                          budget=budget))  # fmt: skip
    assert search.best is not None
    assert "out[1] = celsius * 2.0 + 1.0;" in search.best.source and "obj" not in search.best.source


def test_a_node_never_made_is_made_before_its_first_use_from_an_int_in_scope_there() -> None:
    # the value the node holds is read after the pointer is declared: it is made where it is first used
    code = """class Solution {
public:
    TreeNode* grow(vector<int>& values, int at) {
        if (at >= values.size()) return nullptr;
        TreeNode* node;
        int value = values[at];
        node->left = grow(values, 2 * at + 1);
        node->right = grow(values, 2 * at + 2);
        return node;
    }
};
"""
    made = [d for d in _unmade(code, "cpp") if d.startswith("'node = new")]
    assert made == [
        "'node = new TreeNode(value)' before its first use",
        "'node = new TreeNode(at)' before its first use",
    ]
    calls = [LeetCodeCall(args={"values": [4, 2, 7], "at": 0}, expected=[4, 2, 7])]
    budget = RepairBudget(max_seconds=60.0, batch_size=32, max_executions=400)
    search = asyncio.run(arepair_compiled(code, calls, language="cpp", method="grow", budget=budget))
    assert search.best is not None
    assert "node = new TreeNode(value);\n        node->left" in search.best.source


def test_a_java_collection_field_never_made_is_made_where_it_is_declared() -> None:
    code = """class Board {
    List<Integer> marks;
    int total;
    public Board(int n) {
        for (int i = 0; i < n; i++) marks.add(i);
    }
    public int count() {
        return marks.size() + total;
    }
}
"""
    assert "'marks' = new ArrayList<>()" in _unmade(code, "java")
    assert not any(d.startswith("'total'") for d in _unmade(code, "java"))  # (an int field starts at zero)


def test_a_vector_field_never_grown_is_made_where_a_call_begins() -> None:
    code = """class Solution {
public:
    vector<int> seen;
    void mark(int at, vector<int>& next) {
        seen[at] = 1;
        if (!seen[next[at]]) mark(next[at], next);
    }
    int reach(vector<int>& next) {
        mark(0, next);
        int count = 0;
        for (int i = 0; i < next.size(); i++) count += seen[i];
        return count;
    }
};
"""
    made = [e for e in candidate_edits(code, "cpp") if e.operator == "size_vector"]
    # in reach, where a call begins (mark is called by reach, so it is left alone)
    assert [e.description.split(": ", 1)[-1] for e in made] == [
        "make the vector: seen = vector<int>(next.size());", "make the vector: seen = vector<int>(next.size() + 1);"
    ]  # fmt: skip
    assert "        seen = vector<int>(next.size());\n        mark(0, next);" in made[0].source
