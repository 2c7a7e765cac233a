"""Logic edits of C++/Java that span more than one operator (analysis/clike/edits_logic.py): a call dropped from the
middle of a chain, and a name swapped between two statements."""

from __future__ import annotations

from debugtutor.analysis.clike.edits import candidate_edits
from debugtutor.analysis.clike.syntax_tree import CompiledLanguage


def test_a_call_in_the_middle_of_a_chain_may_be_dropped() -> None:
    code = "class Solution {\n    String f(String s) {\n        StringBuilder out = new StringBuilder(s);\n"
    code += "        return out.reverse().toString();\n    }\n}\n"
    line = 4
    dropped = [e for e in candidate_edits(code, "java", lines=[line]) if e.operator == "drop_chained_call"]
    assert [e.source.split("\n")[line - 1].strip() for e in dropped] == ["return out.toString();"]
    cpp = "int f(vector<int>& v, Node* p) {\n    return v.back().size() + p->next()->val + g().x();\n}\n"
    lines = sorted(e.source.split("\n")[1].strip() for e in candidate_edits(cpp, "cpp", lines=[2])
                   if e.operator == "drop_chained_call")  # fmt: skip
    assert lines == ["return v.back().size() + p->val + g().x();", "return v.size() + p->next()->val + g().x();"]


def test_two_statements_that_differ_in_one_name_may_exchange_it() -> None:
    code = """class Solution {
    public String merge(String a, String b) {
        char[] out = new char[a.length() + b.length()];
        int i = 0;
        for (int j = 0; j < a.length(); j++) {
            out[i] = b.charAt(j);
            i++;
            out[i] = a.charAt(j);
            i++;
        }
        return new String(out);
    }
}
"""
    exchanged = [e for e in candidate_edits(code, "java", lines=[6]) if e.operator == "exchange_names"]
    assert [e.description for e in exchanged] == ["line 6: 'b' and 'a' exchanged with line 8"]
    lines = exchanged[0].source.split("\n")
    assert lines[5].strip() == "out[i] = a.charAt(j);" and lines[7].strip() == "out[i] = b.charAt(j);"


def test_two_assignments_in_a_row_may_give_their_values_to_each_other() -> None:
    cpp = """class Solution {
public:
    int fib(int n) {
        int prev = 0, cur = 1, next = 0;
        for (int i = 0; i < n; i++) {
            next = prev + cur;
            cur = prev;
            prev = next;
            prev += 0;
        }
        return prev;
    }
};
"""
    found = [e for e in candidate_edits(cpp, "cpp", lines={6, 7, 8, 9}) if e.operator == "exchange_targets"]
    assert [e.description for e in found] == [
        "line 6: 'next' and 'cur' take each other's values",
        "line 7: 'cur' and 'prev' take each other's values",
    ]  # a compound assignment ('prev += 0') has no plain value to give
    assert [line.strip() for line in found[1].source.split("\n")[5:8]] == [
        "next = prev + cur;",
        "prev = prev;",
        "cur = next;",
    ]
    java = "class S {\n    void f(int[] a) {\n        a[0] = 1;\n        a[0] = 2;\n        int b = 3;\n    }\n}\n"
    # the same target twice, or a declaration, is not an exchange
    assert not [e for e in candidate_edits(java, "java", lines={3, 4, 5}) if e.operator == "exchange_targets"]


def test_what_a_call_of_the_function_itself_returns_may_be_one_more_or_less() -> None:
    cpp = """class Solution {
public:
    int steps(int i, vector<int>& memo) {
        if (i <= 0) return 0;
        int best = min(i, steps(i - 1, memo));
        best = steps(i - 2, memo);
        return best + helper(i);
    }
};
"""
    found = {e.description for e in candidate_edits(cpp, "cpp", lines={5, 6, 7}) if e.operator == "off_by_one"}
    assert "line 5: recursive result steps(i - 1, memo) -> steps(i - 1, memo) + 1" in found
    assert "line 6: recursive result steps(i - 2, memo) -> steps(i - 2, memo) - 1" in found
    # a call of another function is not a step of this recursion
    assert not any(description.startswith("line 7: recursive result") for description in found)
    java = """class Solution {
    int depth(TreeNode node) {
        if (node == null) return 0;
        return Math.max(this.depth(node.left), depth(node.right));
    }
}
"""
    found = {e.description for e in candidate_edits(java, "java", lines={4}) if e.operator == "off_by_one"}
    assert "line 4: recursive result this.depth(node.left) -> this.depth(node.left) + 1" in found
    assert "line 4: recursive result depth(node.right) -> depth(node.right) + 1" in found


def test_a_variable_stands_in_only_for_one_of_its_own_kind_and_only_numbers_move_by_one() -> None:
    cpp = """class Solution {
public:
    int count(string& word, vector<int>& marks, int limit) {
        string other = word;
        long total = 0;
        bool seen = false;
        total = total + marks.size() + word.size() + limit;
        return total + weigh(word, marks, limit);
    }
};
"""
    edits = list(candidate_edits(cpp, "cpp", lines={7, 8}))
    swaps = {e.description for e in edits if e.operator == "swap_variable"}
    assert "'word' -> 'other'" in " ".join(swaps) and "'total' -> 'limit'" in " ".join(swaps)
    # a string never becomes a list, a number never a flag
    assert not any("'word' -> 'marks'" in s or "'marks' -> 'word'" in s or "'total' -> 'seen'" in s for s in swaps)
    moved = {e.description for e in edits if e.operator == "off_by_one"}
    assert "line 8: argument limit -> limit + 1" in moved
    assert not any("argument word" in d or "argument marks" in d for d in moved)


def test_an_operand_of_a_boolean_chain_may_lose_its_negation_most_plausibly_beside_its_mirror() -> None:
    code = """class Solution {
    public int place(String street, Set<Integer> taken) {
        int count = 0;
        for (int i = 1; i + 1 < street.length(); i++) {
            if (ready && street.charAt(i) == '.' && !taken.contains(i - 1) && taken.contains(i + 1)) count++;
        }
        return count;
    }
}
"""
    # (edits come most plausible first: the operand whose mirror image is negated beside it before the other)
    negated = [e.description for e in candidate_edits(code, "java", lines=[5]) if e.operator == "negate_operand"]
    assert negated == ["line 5: 'taken.contains(i + 1)' -> '!taken.contains(i + 1)'", "line 5: 'ready' -> '!ready'"]
    cpp = "bool f(int x, bool a, bool b) {\n    return x > 0 && a;\n}\n"
    assert [e.source.split("\n")[1].strip() for e in candidate_edits(cpp, "cpp", lines=[2])
            if e.operator == "negate_operand"] == ["return x > 0 && !a;"]  # fmt: skip


def test_every_comparison_of_a_kind_in_a_statement_may_be_swapped_alike() -> None:
    code = """class Solution {
public:
    int n, m;
    bool inside(int x, int y) {
        if (x >= 0 and x <= n and y >= 0 and y <= m) return true;
        return false;
    }
};
"""
    alike = {e.source.split("\n")[4].strip() for e in candidate_edits(code, "cpp", lines=[5])
             if e.operator == "swap_comparisons_alike"}  # fmt: skip
    assert "if (x >= 0 and x < n and y >= 0 and y < m) return true;" in alike
    assert "if (x > 0 and x <= n and y > 0 and y <= m) return true;" in alike
    swapped = {e.source.split("\n")[4].strip() for e in candidate_edits(code, "cpp", lines=[5])
               if e.operator == "swap_boolean_operator"}  # fmt: skip
    assert "if (x >= 0 or x <= n and y >= 0 and y <= m) return true;" in swapped
    single = "bool f(int x, int n) {\n    return x >= 0 && x <= n;\n}\n"
    assert not [e for e in candidate_edits(single, "cpp", lines=[2]) if e.operator == "swap_comparisons_alike"]


def test_a_pointer_may_take_two_hops_where_its_loop_guards_the_second() -> None:
    code = """class Solution {
public:
    ListNode* middle(ListNode* head) {
        ListNode* fast = head;
        ListNode* slow = head;
        while (fast != NULL && fast->next != NULL) {
            slow = slow->next;
            fast = fast -> next;
        }
        return slow;
    }
};
"""
    hops = [e for e in candidate_edits(code, "cpp", lines=[7, 8]) if e.operator == "pointer_hops"]
    # (the guarded pointer's edit comes first, though its line comes later)
    assert [e.description for e in hops] == [
        "line 8: 'fast' takes two 'next' hops",
        "line 7: 'slow' takes two 'next' hops",
    ]
    assert "fast = fast->next->next;" in hops[0].source
    java = "class A {\n    Node f(Node p) {\n        p = p.next.next;\n        return p;\n    }\n}\n"
    back = [e.source.split("\n")[2].strip() for e in candidate_edits(java, "java", lines=[3])
            if e.operator == "pointer_hops"]  # fmt: skip
    assert back == ["p = p.next;"]


def test_an_element_may_stand_where_its_index_was_meant_most_plausibly_when_read_twice() -> None:
    code = """class Solution {
public:
    int firstMatch(vector<int>& nums) {
        for (int i = 0; i < nums.size(); i++) {
            if ((nums[i] % 10) == nums[i]) return i;
        }
        return nums[0];
    }
};
"""
    edits = [e for e in candidate_edits(code, "cpp", lines=[5, 7]) if e.operator == "index_for_element"]
    assert [e.description for e in edits][:2] == ["line 5: 'nums[i]' -> 'i'", "line 5: 'nums[i]' -> 'i'"]
    assert "if ((i % 10) == nums[i]) return i;" in {e.source.split("\n")[4].strip() for e in edits}
    assert not [e for e in edits if e.line == 7]  # (an index that is a constant is not a variable the loop meant)


def test_a_function_that_falls_off_its_end_returns_what_it_computed() -> None:
    code = """class Solution {
public:
    int best(int i, vector<int>& memo) {
        if (memo[i] != -1) return memo[i];
        int unused = 0;
        int found = INT_MAX;
        for (int j = 1; j <= 3; j++) {
            found = min(found, j + i);
        }
    }
    void touch(int i) {
        i++;
    }
};
"""
    added = [e for e in candidate_edits(code, "cpp") if e.operator == "add_missing_return"]
    assert [e.description for e in added] == [
        "line 10: return memo[i] = found at the end of the function",
        "line 10: return found at the end of the function",
        "line 10: return memo[i] = unused at the end of the function",
        "line 10: return unused at the end of the function",
    ]
    assert added[0].source.split("\n")[9] == "    return memo[i] = found; }"
    java = "class A {\n    int f(int n) {\n        int total = n * 2;\n        return total;\n    }\n}\n"
    assert not [e for e in candidate_edits(java, "java") if e.operator == "add_missing_return"]


def test_a_computed_start_value_may_be_put_back_to_zero() -> None:
    cpp = """class Solution {
public:
    int f(vector<int>& nums, vector<vector<int>>& dp) {
        int n = nums.size();
        int cnt = n;
        dp[0][0] = INT_MAX - 1;
        string s = "a";
        for (int i = 0; i < n; i++) cnt = cnt + nums[i];
        return cnt;
    }
};
"""
    reset = [e.description for e in candidate_edits(cpp, "cpp") if e.operator == "reset_value"]
    # not the size read from a call, the string, the literal loop start or the update that reads what it sets
    assert reset == ["line 5: 'n' -> '0'", "line 6: 'INT_MAX - 1' -> '0'"]
    java = "class Solution {\n    int f(int[] a) {\n        int n = a.length;\n        int k = n;\n"
    java += "        return k;\n    }\n}\n"
    edits = [e for e in candidate_edits(java, "java") if e.operator == "reset_value"]
    assert [e.description for e in edits] == ["line 4: 'n' -> '0'"]
    assert edits[0].source.split("\n")[3].strip() == "int k = 0;"
    assert not [e for e in candidate_edits(java, "java", direction="mutate") if e.operator == "reset_value"]


def test_adding_and_exclusive_or_may_be_confused_either_way() -> None:
    code = "bool f(vector<int>& v) {\n    int acc = 0;\n    for (int x : v) acc += x;\n    return acc ^ 1;\n}\n"
    lines = {e.source.split("\n")[e.line - 1].strip() for e in candidate_edits(code, "cpp", lines=[3, 4])}
    assert "for (int x : v) acc ^= x;" in lines
    assert "return acc + 1;" in lines
    back = code.replace("acc += x", "acc ^= x")
    assert "for (int x : v) acc += x;" in {
        e.source.split("\n")[2].strip() for e in candidate_edits(back, "cpp", lines=[3])
    }


def test_an_edit_of_a_piece_the_line_repeats_is_also_made_at_every_copy() -> None:
    code = """class Feed {
    map<int, set<int>> follows;
public:
    bool sees(int user, int author) {
        return author == user || follows[user+1].find(author) != follows[user+1].end();
    }
    int next(int user) {
        return user+1;
    }
};
"""
    every = {e.source.split("\n")[4].strip() for e in candidate_edits(code, "cpp", lines=[5])
             if e.description.endswith("(every copy on the line)")}  # fmt: skip
    assert "return author == user || follows[user+0].find(author) != follows[user+0].end();" in every
    assert "return author == user || follows[user-1].find(author) != follows[user-1].end();" in every
    # '==' and '!=' are whole tokens: an edit of one never rewrites the other's '='
    assert all("!=" in line and "==" in line for line in every if "user+1" in line)
    # a piece the line holds once has no such edit
    assert not [e for e in candidate_edits(code, "cpp", lines=[8]) if "every copy" in e.description]


def test_an_edit_of_an_expression_its_function_repeats_is_also_made_at_every_copy() -> None:
    cpp = """class Solution {
public:
    int corners(vector<vector<int>>& g, int x, int y) {
        int m = g.size(), n = g[0].size(), found = 0;
        if (x<m && y>0) {
            found += g[x+1][y-1];
        }
        if (x<m && y<n) {
            found += g[x+1][y+1];
        }
        return found;
    }
    bool inside(int x, int m) {
        return x<m;
    }
};
"""
    every = {e.description: e.source for e in candidate_edits(cpp, "cpp", lines=[5])
             if e.description.endswith("(every copy in the function)")}  # fmt: skip
    lowered = every["line 5: bound m -> m - 1 (every copy in the function)"].split("\n")
    # both branches of corners() change; the other function's ``x<m`` is another writer's thought
    assert [lowered[4].strip(), lowered[7].strip(), lowered[13].strip()] == [
        "if (x<m - 1 && y>0) {", "if (x<m - 1 && y<n) {", "return x<m;"]  # fmt: skip
    # an operator grown by a character is a change of the whole comparison
    assert "if (x<=m && y<n) {" in every["line 5: '<' -> '<=' (every copy in the function)"]
    # a name is not renamed all through a function, and ``y>0`` occurs once
    assert not [d for d in every if "'x' ->" in d or "bound 0" in d]
    java = """class Solution {
    public int fewest(String text) {
        int[] counts = new int[6];
        for (char ch : text.toCharArray()) counts[ch % 6]++;
        int best = Integer.MAX_VALUE;
        for (int i = 0; i < 6; i++) best = Math.min(best, counts[i]);
        return best;
    }
}
"""
    every = {e.description: e.source for e in candidate_edits(java, "java", lines=[6])
             if e.description.endswith("(every copy in the function)")}  # fmt: skip
    five = every["line 6: bound 6 -> 5 (every copy in the function)"]
    assert "new int[5];" in five and "counts[ch % 5]++" in five and "i < 5;" in five
    # on the line alone, or with 0 and 1, there is nothing to repeat
    assert not [d for d in every if "start 0" in d]
    assert not [e for e in candidate_edits(java, "java", lines=[6]) if "every copy in" in e.description
                and e.operator == "swap_increment"]  # fmt: skip


def test_an_index_wrong_at_every_place_it_is_read_is_moved_there_not_where_the_same_sum_means_else() -> None:
    cpp = """class Solution {
public:
    int cheapest(vector<int>& days, int at) {
        if (at < 0) return 0;
        int day = cheapest(days, at-1);
        int week = upper_bound(days.begin(), days.end(), days[at-1] - 7) - days.begin();
        int month = upper_bound(days.begin(), days.end(), days[at-1] - 30) - days.begin();
        return day + week + month;
    }
};
"""
    edits = [e for e in candidate_edits(cpp, "cpp", lines=[6]) if e.description.startswith("line 6: index at-1 -> at ")]
    by_where = {e.description.split("-> at ", 1)[1]: e.source for e in edits}
    read = by_where["(every copy of 'days[at-1]' in the function)"]
    # both reads move; the recursion's argument, the same sum for another purpose, stays
    assert "days[at] - 7" in read and "days[at] - 30" in read and "cheapest(days, at-1)" in read
    # the copies of the sum itself are offered too (the recursion's argument among them)
    assert "cheapest(days, at)" in by_where["(every copy in the function)"]


def test_state_declared_before_a_loop_may_be_made_afresh_in_each_pass() -> None:
    cpp = """class Solution {
public:
    int reach(int n, vector<vector<int>>& g) {
        int total = 0;
        vector<int> seen(n);
        for (int i = 0; i < n; i++) {
            total += walk(i, g, seen);
        }
        return total;
    }
};
"""
    moved = [e for e in candidate_edits(cpp, "cpp") if e.operator == "fresh_per_pass"]
    assert [e.line for e in moved] == [5]
    lines = moved[0].source.split("\n")
    assert lines[4].strip() == "" and lines[5].strip() == "for (int i = 0; i < n; i++) { vector<int> seen(n);"
    java = """class Solution {
    public int distinct(int[][] rows) {
        Set<Integer> seen = new HashSet<>();
        int total = 0;
        for (int[] row : rows) {
            for (int x : row) seen.add(x);
            total += seen.size();
        }
        return total;
    }
}
"""
    moved = [e for e in candidate_edits(java, "java") if e.operator == "fresh_per_pass"]
    assert [e.source.split("\n")[4].strip() for e in moved] == [
        "for (int[] row : rows) { Set<Integer> seen = new HashSet<>();"
    ]
    # a name the code reads after the loop (or in the loop's header) belongs outside it
    after = java.replace("return total;", "return total + seen.size();")
    header = cpp.replace("i < n;", "i < (int)seen.size();")
    assert not [e for e in candidate_edits(after, "java") if e.operator == "fresh_per_pass"]
    assert not [e for e in candidate_edits(header, "cpp") if e.operator == "fresh_per_pass"]


def test_an_empty_value_returning_helper_may_return_the_simple_values_of_its_type() -> None:
    cpp = """class Solution {
public:
    bool covers(string s, int n) {
        if (s.size() > n) return true;
        return allSeen();
    }
    bool allSeen() {
    }
    int count() {
        // nothing yet
    }
};
"""
    stubs = [(e.line, e.source.split("\n")[e.line - 1].strip()) for e in candidate_edits(cpp, "cpp")
             if e.operator == "stub_return"]  # fmt: skip
    assert stubs == [(8, "return false; }"), (8, "return true; }"), (11, "return 0; }"), (11, "return -1; }"),
                     (11, "return 1; }")]  # fmt: skip
    java = "class Solution {\n    public boolean ok(int[] a) {\n        return check(a);\n    }\n"
    java += "    private boolean check(int[] a) {\n    }\n}\n"
    # (javac rejects the empty body: the edit is a reference one, for the compile-fix rounds)
    java_stubs = [e for e in candidate_edits(java, "java") if e.operator == "stub_return"]
    assert [e.category for e in java_stubs] == ["reference", "reference"]
    assert not [e for e in candidate_edits(cpp.replace("bool allSeen() {\n", "void allSeen() {\n"), "cpp")
                if e.operator == "stub_return" and e.line == 8]  # fmt: skip


def test_an_element_may_be_dropped_from_a_returned_list() -> None:
    cpp = "class Solution {\npublic:\n    vector<int> f(int a, int b) {\n        return {a, b, g(a, b)};\n    }\n};\n"
    dropped = [e.source.split("\n")[3].strip() for e in candidate_edits(cpp, "cpp", lines=[4])
               if e.operator == "drop_returned_element"]  # fmt: skip
    assert "return {a, b};" in dropped and "return {b, g(a, b)};" in dropped and "return {a, g(a, b)};" in dropped
    java = """class Solution {
    public List<Integer> f(int a, int b) {
        int[] unused = {a, b};
        if (a > b) return Arrays.asList(a, b, a - b);
        return g(a, b);
    }
}
"""
    found = [(e.line, e.source.split("\n")[e.line - 1].strip()) for e in candidate_edits(java, "java")
             if e.operator == "drop_returned_element"]  # fmt: skip
    # only lists that are returned, and only a call's arguments when the call makes a list
    kept = ["b, a - b", "a, a - b", "a, b"]
    assert found == [(4, f"if (a > b) return Arrays.asList({rest});") for rest in kept]


def test_a_variable_may_stand_in_for_a_formula_the_same_line_computes_from_it() -> None:
    code = """class Solution {
public:
    int f(vector<int>& nums) {
        vector<int> dp(3);
        for (auto a : nums)
            for (int i : vector<int>(dp)) dp[(i + a) % 3] = max(dp[(i + a) % 3], a);
        return g(a) + a;
    }
};
"""
    found = [e.source.split("\n")[5].strip() for e in candidate_edits(code, "cpp", lines=[6])
             if e.operator == "widen_operand"]  # fmt: skip
    # only the use that stands alone widens: the 'a' inside 'i + a' is a term of the formula already
    assert found == ["for (int i : vector<int>(dp)) dp[(i + a) % 3] = max(dp[(i + a) % 3], i + a);"]
    # nor does a use inside the formula itself
    assert [e.description for e in candidate_edits(code, "cpp", lines=[7]) if e.operator == "widen_operand"] == []
    # a comparison on the line is no formula of the value: an index does not become a boolean
    tested = code.replace("max(dp[(i + a) % 3], a)", "a < 3 ? dp[a] : 0")
    widened = [e.description for e in candidate_edits(tested, "cpp", lines=[6]) if e.operator == "widen_operand"]
    assert widened == ["line 6: 'a' -> 'i + a'"]


def test_a_repair_never_turns_a_loop_condition_against_the_loop_step() -> None:
    code = """class Solution {
public:
    int f(vector<int>& a, int m) {
        int s = 0;
        for (int j = m - 1; j >= 0; j--) s += a[j];
        for (int i = 0; i < m and s > 0; i++) s--;
        for (int k = m; 0 < k; --k) s++;
        return s;
    }
};
"""

    def swapped(line: int, direction: str = "repair") -> set[str]:
        edits = candidate_edits(code, "cpp", lines=[line], direction=direction)  # type: ignore[arg-type]
        return {e.source.split("\n")[line - 1].strip() for e in edits if e.operator == "swap_comparison"}

    # stepping down: '>' keeps the loop meaningful; '<=', '<' and '==' would stop it before it starts
    assert swapped(5) == {"for (int j = m - 1; j > 0; j--) s += a[j];"}
    up = swapped(6)
    assert "for (int i = 0; i <= m and s > 0; i++) s--;" in up
    assert "for (int i = 0; i > m and s > 0; i++) s--;" not in up
    assert "for (int i = 0; i < m and s < 0; i++) s--;" in up  # not the loop's variable: every swap stays
    # the variable on the right: '0 < k' reads as 'k > 0'
    down = swapped(7)
    assert "for (int k = m; 0 <= k; --k) s++;" in down
    assert "for (int k = m; 0 > k; --k) s++;" not in down
    # a mutation may still write the mistake
    assert "for (int j = m - 1; j <= 0; j--) s += a[j];" in swapped(5, "mutate")


def test_the_operands_of_a_chain_that_ask_the_same_thing_may_all_be_negated_at_once() -> None:
    code = """class Solution {
    public List<Integer> alone(int[] arr, Map<Integer, Integer> seen) {
        List<Integer> out = new ArrayList<>();
        for (int i : arr) if (seen.get(i) == 1 && seen.containsKey(i - 1) && seen.containsKey(i + 1)) out.add(i);
        return out;
    }
}
"""
    together = [e for e in candidate_edits(code, "java", lines=[4]) if e.operator == "negate_operands"]
    assert [e.source.split("\n")[3].strip() for e in together] == [
        "for (int i : arr) if (seen.get(i) == 1 && !seen.containsKey(i - 1) && !seen.containsKey(i + 1)) out.add(i);"
    ]
    # one of them negated already: the single negation beside its mirror is the edit, not both
    half = code.replace("&& seen.containsKey(i - 1)", "&& !seen.containsKey(i - 1)")
    assert not [e for e in candidate_edits(half, "java", lines=[4]) if e.operator == "negate_operands"]
    cpp = "bool f(set<int>& s, int x) {\n    return s.count(x) && g(x);\n}\n"
    assert not [e for e in candidate_edits(cpp, "cpp", lines=[2]) if e.operator == "negate_operands"]


def test_an_assigned_value_may_give_way_to_the_one_it_was_compared_with() -> None:
    cpp = """class Solution {
public:
    int trap(vector<int>& height) {
        vector<int> left(height.size());
        int top = height[0];
        for (int i = 1; i < height.size(); i++) {
            if (height[i] < top) {
                left[i] = height[i];
            } else {
                top = height[i];
            }
        }
        return left.back();
    }
};
"""
    found = [e for e in candidate_edits(cpp, "cpp", lines=[8, 10]) if e.operator == "compared_value"]
    # (not on line 10: 'top' is the target there, and 'top = top' is no program)
    assert {e.line for e in found} == {8}
    found = found[:1]
    assert [e.description for e in found] == ["line 8: 'height[i]' -> 'top' (compared on line 7)"]
    assert found[0].source.split("\n")[7].strip() == "left[i] = top;"
    java = "class S {\n    int f(Node p, int low) {\n        int m = 0;\n        while (p.val < low) m = p.val;\n"
    java += "        return m;\n    }\n}\n"
    assert next(e.source.split("\n")[3].strip() for e in candidate_edits(java, "java", lines=[4])
                if e.operator == "compared_value") == "while (p.val < low) m = low;"  # fmt: skip


def test_a_total_accumulated_and_never_read_may_join_what_the_function_returns() -> None:
    cpp = """class Solution {
public:
    int merge(vector<long>& sums, int left, int right) {
        int count = 0, k = 0;
        vector<long> cache(right - left);
        for (int i = left; i < right; i++) {
            cache[k++] = sums[i];
            count += sums[i] > 0;
        }
        int leftSide = left, rightSide = right;
        return leftSide + rightSide;
    }
};
"""
    found = [e for e in candidate_edits(cpp, "cpp", lines=[11]) if "unread_total" in e.operator]
    # ('k' is read where its update's value indexes the cache)
    assert [e.source.split("\n")[10].strip() for e in found] == ["return leftSide + rightSide + count;"]
    java = """class Solution {
    int pairs(int[] a) {
        int found = 0, best = 0;
        for (int x : a) {
            if (x > 1) found++;
        }
        return best;
    }
}
"""
    assert [e.source.split("\n")[6].strip() for e in candidate_edits(java, "java", lines=[7])
            if "unread_total" in e.operator] == ["return found;"]  # fmt: skip
    read = java.replace("return best;", "best = found;\n        return best;")
    assert not [e for e in candidate_edits(read, "java", lines=[8]) if "unread_total" in e.operator]


def test_a_constant_a_counted_loop_stores_per_pass_may_be_the_counter() -> None:
    cpp = """class Solution {
public:
    int gaps(string s) {
        vector<int> seen(26, -1);
        int total = 0;
        for (int i = 0; i < s.size(); i++) {
            if (seen[s[i] - 'a'] >= 0) total += i - seen[s[i] - 'a'];
            seen[s[i] - 'a'] = 0;
        }
        return total;
    }
};
"""
    found = [e.source.split("\n")[7].strip() for e in candidate_edits(cpp, "cpp", lines=[8])
             if e.operator == "constant_to_counter"]  # fmt: skip
    assert found == ["seen[s[i] - 'a'] = i;", "seen[s[i] - 'a'] = i + 1;"]
    # a constant given to a plain variable, or outside a counted loop, is another edit's to change
    plain = cpp.replace("seen[s[i] - 'a'] = 0;", "total = 0;")
    assert not [e for e in candidate_edits(plain, "cpp", lines=[8]) if e.operator == "constant_to_counter"]
    java = "class S {\n    void f(int[] a) {\n        int k = 0;\n"
    java += "        while (k < a.length) { a[k] = 0; k++; }\n    }\n}\n"
    assert not [e for e in candidate_edits(java, "java", lines=[4]) if e.operator == "constant_to_counter"]


def test_a_constant_near_a_literal_its_function_writes_elsewhere_is_tried_first() -> None:
    java = """class Solution {
    int digitSum(int num) {
        int total = 0;
        while (num > 0) {
            total += num % 10;
            num = num / 100;
        }
        return total;
    }
}
"""
    changed = [e.description.split(": ", 1)[1] for e in candidate_edits(java, "java", lines=[6])
               if e.operator == "change_constant"]  # fmt: skip
    # ``10`` is written two lines up, so ``100 -> 10`` comes before the changes by one
    assert changed.index("100 -> 10") < changed.index("100 -> 101") < changed.index("100 -> 1000")
    alone = java.replace("num % 10", "num % 7")
    changed = [e.description.split(": ", 1)[1] for e in candidate_edits(alone, "java", lines=[6])
               if e.operator == "change_constant"]  # fmt: skip
    assert changed.index("100 -> 101") < changed.index("100 -> 10")
    # a literal of another function is no evidence
    other = alone.replace("    int digitSum", "    int base() { return 10; }\n    int digitSum")
    changed = [e.description.split(": ", 1)[1] for e in candidate_edits(other, "java", lines=[7])
               if e.operator == "change_constant"]  # fmt: skip
    assert changed.index("100 -> 101") < changed.index("100 -> 10")


def test_two_neighbouring_digits_of_a_literal_may_be_typed_in_the_wrong_order() -> None:
    java = """class Gauge {
    double toKelvinish(double c) {
        return c + 237.15 + 0x1F + 10 + 5;
    }
}
"""
    found = sorted(e.description.split(": ", 1)[1] for e in candidate_edits(java, "java", lines=[3])
                   if e.operator == "transpose_digits")  # fmt: skip
    # a hexadecimal literal, a swap that would lead with a zero and a single digit give nothing
    assert found == ["237.15 -> 237.51", "237.15 -> 273.15", "237.15 -> 327.15"]
    cpp = "long long f(long long n) {\n    return n % 1000000070LL + 12;\n}\n"
    found = sorted(e.description.split(": ", 1)[1] for e in candidate_edits(cpp, "cpp", lines=[2])
                   if e.operator == "transpose_digits")  # fmt: skip
    assert found == ["1000000070LL -> 1000000007LL", "1000000070LL -> 1000000700LL", "12 -> 21"]
    # a mutant is not a typing slip: mutation analysis keeps its own operators
    assert not [e for e in candidate_edits(java, "java", direction="mutate") if e.operator == "transpose_digits"]


def test_a_loop_stepping_by_one_may_step_by_two_where_its_function_already_does() -> None:
    java = """class Solution {
    int[] alternate(int[] v) {
        int[] out = new int[v.length];
        int k = 0;
        for (int i = 0; i < v.length; i++) {
            out[k++] = v[i];
        }
        for (int i = 1; i < v.length; i++) {
            out[k++] = v[i];
        }
        for (int j = v.length - 1; j >= 0; --j) {
            k--;
        }
        for (int p = 0; p < k; p += 2) {
            out[p] = -out[p];
        }
        return out;
    }
}
"""
    edits = [e for e in candidate_edits(java, "java") if e.operator == "double_step"]
    assert sorted(e.description for e in edits) == [
        "line 11: '--j' -> 'j -= 2'",
        "line 5: 'i++' -> 'i += 2'",
        "line 5: 'i++' -> 'i += 2' (every copy in the function)",
        "line 8: 'i++' -> 'i += 2'",
    ]
    both = next(e for e in edits if "every copy" in e.description).source.split("\n")
    assert both[4].strip().endswith("i += 2) {") and both[7].strip().endswith("i += 2) {")
    # it comes before the low-priority edits of its line
    wanted = ("double_step", "negate_condition")
    first = next(e.operator for e in candidate_edits(java, "java", lines=[5]) if e.operator in wanted)
    assert first == "double_step"
    # without a loop of the function stepping by two there is no such edit: a step of two fits small examples by
    # chance; nor in mutation analysis
    alone = java.replace("p += 2", "p++")
    assert not [e for e in candidate_edits(alone, "java") if e.operator == "double_step"]
    assert not [e for e in candidate_edits(java, "java", direction="mutate") if e.operator == "double_step"]


def test_a_letters_offset_may_be_taken_from_the_other_case() -> None:
    java = """class Node {
    Node[] links = new Node[26];
    Node get(char ch) {
        return links[ch - 'A'];
    }
    boolean isVowel(char ch) {
        return ch == 'a';
    }
}
"""
    found = [e.source.split("\n")[3].strip() for e in candidate_edits(java, "java") if e.operator == "letter_case"]
    assert found == ["return links[ch - 'a'];"]  # not the compared letter: that is what the test is about
    cpp = "int f(char c) {\n    return c + 'a' - 1;\n}\n"
    found = [e.source.split("\n")[1].strip() for e in candidate_edits(cpp, "cpp") if e.operator == "letter_case"]
    assert found == ["return c + 'A' - 1;"]


def test_a_parameter_the_function_never_reads_is_the_first_stand_in_for_a_name() -> None:
    cpp = """class Net {
    map<int, map<int, bool>> links;
public:
    void link(int from, int to) {
        links[from][from] = true;
    }
    bool linked(int from, int to) {
        return links[from][to];
    }
};
"""
    first = next(e for e in candidate_edits(cpp, "cpp", lines=[5]))
    assert first.operator == "swap_variable" and "'from' -> 'to'" in first.description
    # where every parameter is read, the same swap waits behind the likelier off-by-one edits
    read = cpp.replace("links[from][from] = true;", "links[from][from] = to > 0;")
    assert next(e for e in candidate_edits(read, "cpp", lines=[5])).operator != "swap_variable"


def test_an_argument_may_be_copied_from_a_sibling_call_that_differs_in_it_alone() -> None:
    java = """class Tokens {
    int ttl = 5;
    Map<String, Integer> expiry = new HashMap<>();
    void start(String id, int now) {
        expiry.put(id, now);
    }
    void renew(String id, int now) {
        expiry.put(id, now + ttl);
    }
    void other(String key, int t) {
        expiry.put(key, t + ttl);
    }
}
"""
    found = [e.source.split("\n")[4].strip() for e in candidate_edits(java, "java", lines=[5])
             if e.operator == "sibling_argument"]  # fmt: skip
    # from renew (one argument differs); not from other, whose 't' is not visible in start and whose key differs too
    assert found == ["expiry.put(id, now + ttl);"]


def test_a_value_kept_from_zero_that_nothing_divides_by_divides_what_its_block_reads() -> None:
    java = """class Solution {
    public int copies(String s, String target) {
        int[] have = new int[26], need = new int[26];
        for (char c : s.toCharArray()) have[c - 'a']++;
        for (char c : target.toCharArray()) need[c - 'a']++;
        int best = Integer.MAX_VALUE;
        for (int i = 0; i < 26; i++) {
            if (need[i] > 0) {
                best = Math.min(best, have[i]);
            }
        }
        return best;
    }
}
"""
    found = [e for e in candidate_edits(java, "java", lines=[9]) if e.operator == "guarded_divisor"]
    # the element at the same index only: not the running minimum, not the target written
    assert [e.source.split("\n")[8].strip() for e in found] == ["best = Math.min(best, have[i] / need[i]);"]
    # a block that divides by the value already, and a test that is not about zero, offer nothing
    divided = java.replace("have[i]);", "have[i] / need[i]);")
    assert not [e for e in candidate_edits(divided, "java", lines=[9]) if e.operator == "guarded_divisor"]
    other = java.replace("need[i] > 0", "need[i] > 2")
    assert not [e for e in candidate_edits(other, "java", lines=[9]) if e.operator == "guarded_divisor"]
    cpp = (
        "int f(int total, int parts) {\n    int share = 0;\n    if (0 != parts) share = total;\n    return share;\n}\n"
    )
    found = [e for e in candidate_edits(cpp, "cpp", lines=[3]) if e.operator == "guarded_divisor"]
    assert [e.source.split("\n")[2].strip() for e in found] == ["if (0 != parts) share = total / parts;"]
    # inside a formula the quotient is one operand; an index is left alone
    formula = cpp.replace("share = total;", "share = total * v[k];").replace(
        "int parts)", "int parts, vector<int> v, int k)"
    )
    quotients = [
        e.source.split("\n")[2].strip()
        for e in candidate_edits(formula, "cpp", lines=[3])
        if e.operator == "guarded_divisor"
    ]
    assert quotients == ["if (0 != parts) share = (total / parts) * v[k];"]


def test_a_child_left_null_beside_its_sibling_built_by_a_call_is_built_by_the_mirrored_call() -> None:
    java = """class Solution {
    private TreeNode build(int lo, int hi, int values[], Map<Integer, Integer> at) {
        if (lo > hi) return null;
        TreeNode root = new TreeNode(values[hi]);
        int mid = at.get(root.val);
        root.right = null;
        root.left = build(lo, mid - 1, values, at);
        return root;
    }
}
"""
    built = [e.source for e in candidate_edits(java, "java", categories=("logic",)) if e.operator == "mirrored_child"]
    # the range split at mid taken from its other side first (the array parameter is no bound), then the same call
    assert built == [
        java.replace("root.right = null;", "root.right = build(mid + 1, hi, values, at);"),
        java.replace("root.right = null;", "root.right = build(lo, mid - 1, values, at);"),
    ]
    cpp = """class Solution {
public:
    TreeNode* flip(TreeNode* node) {
        if (!node) return nullptr;
        TreeNode* copy = new TreeNode(node->val);
        copy->left = flip(node->right);
        copy->right = nullptr;
        return copy;
    }
};
"""
    built = [e.source for e in candidate_edits(cpp, "cpp", categories=("logic",)) if e.operator == "mirrored_child"]
    assert built[0] == cpp.replace("copy->right = nullptr;", "copy->right = flip(node->left);")
    # both children built already: nothing to mirror
    both = cpp.replace("copy->right = nullptr;", "copy->right = flip(node->left);")
    assert not [e for e in candidate_edits(both, "cpp", categories=("logic",)) if e.operator == "mirrored_child"]


GOOD_NODES: dict[CompiledLanguage, str] = {
    "java": """class Solution {
    int count = 0;

    void visit(TreeNode root, int best) {
        if (root != null) {
            if (best <= root.val) {
                best = root.val;
                count++;
            }
            visit(root.left, best);
            visit(root.right, best);
        }
    }
}
""",
    "cpp": """class Solution {
public:
    int count = 0;

    void visit(TreeNode* root, int best) {
        if (root != nullptr) {
            if (best <= root->val) {
                best = root->val;
                count++;
            }
            visit(root->left, best);
            visit(root->right, best);
        }
    }
};
""",
}


def test_a_statement_moves_across_the_closing_brace_beside_it() -> None:
    for language, good in GOOD_NODES.items():
        lines = good.split("\n")
        right = next(number for number, text in enumerate(lines) if "visit(root" in text and "right" in text)
        # the last call of the block written after its closing brace: moved back in, the line count kept
        outside = [*lines[:right], lines[right + 1], "        " + lines[right].strip(), *lines[right + 2 :]]
        moved_in = [e for e in candidate_edits("\n".join(outside), language) if e.operator == "move_statement_in"]
        assert [e.source for e in moved_in if e.line == right + 2] == [good]
        # and the other way: a block's last statement moved out to right after it
        moved_out = [e for e in candidate_edits(good, language) if e.operator == "move_statement_out"]
        assert "\n".join(outside) in [e.source for e in moved_out]
        assert all(e.source.count("\n") == good.count("\n") for e in moved_in + moved_out)
        # a block's only statement stays in it
        assert any("count++" in e.description for e in moved_out)
        alone = good.replace("best = root.val;\n", "").replace("best = root->val;\n", "")
        assert not any(
            "count++" in e.description for e in candidate_edits(alone, language) if e.operator == "move_statement_out"
        )


def test_a_constant_returned_where_a_value_of_the_return_type_is_built_and_never_returned_gives_way_to_it() -> None:
    cpp = """class Solution {
public:
    string reversed(string a) {
        string done = "";
        string out = "";
        int steps = 0;
        for (int i = a.size() - 1; i >= 0; i--) {
            out += a[i];
            steps++;
        }
        if (a.empty()) return "";
        return "result";
    }
};
"""
    found = [e for e in candidate_edits(cpp, "cpp", lines=[11, 12]) if e.operator == "return_built_value"]
    # only 'out' is built ('done' is never given a value after its declaration, 'steps' is no string)
    assert [(e.line, e.description.split(": ", 1)[-1]) for e in found if "every copy" not in e.description] == [
        (11, "returned \"\" -> 'out', built but never returned"),
        (12, "returned \"result\" -> 'out', built but never returned"),
    ]
    java = cpp.replace("public:\n    string", "    public String").replace("string ", "String ")
    java = java.replace("a.size()", "a.length()").replace("a[i]", "a.charAt(i)").replace("a.empty()", "a.isEmpty()")
    java = java.replace("};", "}")
    returned = java.replace('return "result";', "return out;")
    assert not [e for e in candidate_edits(returned, "java") if e.operator == "return_built_value"]
    offered = [e for e in candidate_edits(java, "java") if e.operator == "return_built_value"]
    assert [e.line for e in offered if "every copy" not in e.description] == [10, 11]
