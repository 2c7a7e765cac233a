"""C++/Java back-end pieces that need no compiler: parsing, probes, message classification, patterns and edits."""

from __future__ import annotations

import pytest

from debugtutor.analysis.clike.diagnostics import classify_message, pattern_diagnostics
from debugtutor.analysis.clike.edits import blocks_compilation, candidate_edits
from debugtutor.analysis.clike.harness import CompilerMessage, instrument
from debugtutor.analysis.clike.repair import normal_form
from debugtutor.analysis.clike.syntax_tree import (
    enclosing_loop,
    imbalance,
    nesting_depths,
    parse,
    statement_priors,
    tokens,
)
from debugtutor.analysis.localization import localize
from debugtutor.analysis.repair import merge_edits
from debugtutor.analysis.static import Diagnostic

CPP = """class Solution {
public:
    int sumAbove(vector<int>& nums, int k) {
        int total = 0;
        for (int i = 0; i <= nums.size(); i++)
            if (nums[i] > k) total += nums[i];
        return total;
    }
};
"""

JAVA = """class Solution {
    public int sumAbove(int[] nums, int k) {
        int total = 0;
        for (int i = 0; i < nums.length; i++) {
            if (nums[i] > k) total += nums[i];
        }
        return total;
    }
}
"""


def test_parse_tolerates_broken_code_and_marks_where() -> None:
    tree = parse(CPP.replace("int total = 0;", "int total = 0"), "cpp")
    assert tree.has_error
    assert any(node.is_missing and node.type == ";" for node in tree.error_nodes())
    assert not parse(CPP, "cpp").has_error and not parse(JAVA, "java").has_error


def test_statement_structure() -> None:
    tree = parse(CPP, "cpp")
    statements, structural = tree.statement_lines()
    assert {4, 5, 6, 7} <= statements and 3 in structural
    assert statement_priors(tree)[5] == 3 and statement_priors(tree)[7] == 2
    assert nesting_depths(tree)[6] == 1 and nesting_depths(tree)[4] == 0
    assert enclosing_loop(tree, 6) == 5 and enclosing_loop(tree, 7) is None


def test_lexer_sees_strings_comments_and_balance() -> None:
    kinds = [(t.kind, t.text) for t in tokens('x = "a;b"; // c\n/* d */ y++;')]
    assert ("string", '"a;b"') in kinds and ("comment", "// c") in kinds and ("comment", "/* d */") in kinds
    assert imbalance(CPP) is None
    assert imbalance(CPP.replace("for (", "for ((")) == (8, "'}' closes the bracket opened on line 5")
    assert imbalance("int f() {\n  return 1;\n") == (1, "the bracket opened on line 1 never closes")
    assert imbalance('string s = "open;\n') == (1, "unclosed string")
    assert normal_form(CPP) == normal_form(CPP.replace("    ", "  ") + "// note\n")
    assert normal_form('s = "x;') is None


@pytest.mark.parametrize("language,code", [("cpp", CPP), ("java", JAVA)])
def test_probes_keep_lines_and_wrap_unbraced_bodies(language: str, code: str) -> None:
    probed = instrument(code, language)  # type: ignore[arg-type]
    assert probed.count("\n") == code.count("\n")
    probe = "dt_probe_(6)" if language == "cpp" else "debugtutor_rt.Cov.h(5)"
    assert probe in probed
    if language == "cpp":
        # the unbraced if under the for gets braces with its probe, so the loop body stays one statement
        assert "{ dt_probe_(6); if (nums[i] > k) { dt_probe_(6); total += nums[i]; } }" in probed
    assert not parse(probed, language).has_error  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "language,message,detail,line_text,code,bug_type,category",
    [
        ("cpp", "expected ‘;’ before ‘return’", "", "return x;", "expected-separator", "missing colons", "syntax"),
        ("cpp", "missing terminating \" character", "", "", "unclosed-string", "unclosed string", "syntax"),
        ("cpp", "‘var’ was not declared in this scope", "", "var r = 1;", "undeclared-name", "illegal keywords",
         "reference"),
        ("cpp", "‘helperX’ was not declared in this scope", "", "return helperX(a);", "undeclared-name",
         "undefined methods", "reference"),
        ("cpp", "‘class std::vector<int>’ has no member named ‘length’", "", "v.length();", "no-such-member",
         "illegal keywords", "reference"),
        ("cpp", "lvalue required as left operand of assignment", "", "if (a + b = c)", "assignment-to-value",
         "misused == or =", "syntax"),
        ("java", "cannot find symbol", "symbol:   method fooBar(int)\n", "fooBar(1);", "undeclared-name",
         "undefined methods", "reference"),
        ("java", "cannot find symbol", "symbol:   variable count\n", "count++;", "undeclared-name",
         "illegal comment", "reference"),
        ("java", "incompatible types: int cannot be converted to boolean", "", "if (x = 1)", "condition-not-boolean",
         "misused == or =", "syntax"),
        ("java", "unclosed comment", "", "/* x", "illegal-comment", "illegal comment", "syntax"),
        ("java", "bad operand types for binary operator '||'", "", "if(h = null || h.length<=2)", "type-mismatch",
         "misused == or =", "syntax"),
    ],
)  # fmt: skip
def test_compiler_messages_map_to_debugbench_classes(
    language: str, message: str, detail: str, line_text: str, code: str, bug_type: str, category: str
) -> None:
    # (the Java variable case: the name is declared only in a comment, so the comment hid it)
    source = f"// int count = 0;\n{line_text}\n"
    found = classify_message(CompilerMessage(2, 5, "error", message, detail), source, language)  # type: ignore[arg-type]
    assert found is not None
    assert (found.code, found.bug_type, found.category) == (code, bug_type, category)
    # every one of these is an error: the compile-fix rounds must take it up
    assert blocks_compilation(found)


def test_warnings_are_suspicious_except_assignment_in_condition() -> None:
    warning = CompilerMessage(1, 1, "warning", "unused variable ‘t’ [-Wunused-variable]")
    found = classify_message(warning, "int t;\n", "cpp")
    assert found is not None and found.category == "suspicious-logic"
    parens = CompilerMessage(1, 1, "warning", "suggest parentheses around assignment used as truth value")
    found = classify_message(parens, "if (a = b) {}\n", "cpp")
    assert found is not None and found.bug_type == "misused == or ="
    assert classify_message(CompilerMessage(1, 1, "warning", "[rawtypes] found raw type"), "x\n", "java") is None


def test_pattern_checks() -> None:
    code = """class Solution {
public:
    int f(vector<int>& v, int n) {
        int s = 0;
        if (s = n) s++;
        for (int i = 0; i < n; j++) s += v[i];
        for (int i = 0; i < n; i++);
        s == 3;
        s = s;
        return v[v.size()];
    }
};
"""
    codes = {(d.line, d.code) for d in pattern_diagnostics(code, "cpp")}
    assert {
        (5, "assignment-in-condition"),
        (6, "loop-update-mismatch"),
        (7, "empty-body"),
        (8, "comparison-statement"),
        (9, "self-assignment"),
        (10, "index-past-end"),
    } <= codes
    unbraced = JAVA.replace("{\n            if", "\n            if").replace("nums[i];\n        }", "nums[i];\n")
    unbraced = unbraced.replace("total += nums[i];", "total += nums[i];\n            total -= 0;")
    assert any(d.code == "misleading-indentation" for d in pattern_diagnostics(unbraced, "java"))


@pytest.mark.parametrize("language", ["cpp", "java"])
def test_a_range_check_that_lets_an_index_reach_the_size(language: str) -> None:
    size = "grid.size()" if language == "cpp" else "grid.length"
    code = f"""class Solution {{
    int n, m;
    boolean inside(int x, int y) {{ return x >= 0 && x <= n && y >= 0 && y < m; }}
    boolean outside(int x, int y) {{ return x < 0 || y < 0 || y > {size} || x >= n; }}
    boolean fine(int x, int y) {{ return x >= 0 && x <= n - 1 && y >= 0 && y <= m - 1 && x <= 9; }}
    int count(int[][] grid, int k) {{
        n = {size};
        m = n;
        boolean any = k >= 0 && k <= steps;
        return 0;
    }}
}}
"""
    diagnostics = pattern_diagnostics(code, language)  # type: ignore[arg-type]
    found = [(d.line, d.message) for d in diagnostics if d.code == "range-admits-size"]
    # n is only ever a size; m is given n, not a size itself, and steps is never a size
    assert found == [
        (3, "the range check lets x reach n, one past the last index"),
        (4, f"the range check lets y reach {size}, one past the last index"),
    ]


def _fixes(code: str, language: str, diagnostics: list[Diagnostic] | None = None) -> list[str]:
    return [e.source for e in candidate_edits(code, language, diagnostics=diagnostics or [])]  # type: ignore[arg-type]


def test_repair_edits_include_the_fixes() -> None:
    assert CPP.replace("<=", "<") in _fixes(CPP, "cpp")
    broken = JAVA.replace("int total = 0;", "int total = 0")
    assert JAVA in _fixes(broken, "java")
    renamed = CPP.replace("return total;", "return totl;")
    undeclared = Diagnostic(category="reference", line=7, column=15, message="'totl' was not declared",
                            code="undeclared-name", symbol="totl", bug_type="undefined objects")  # fmt: skip
    assert CPP in _fixes(renamed, "cpp", [undeclared])
    foreign = JAVA.replace("int total = 0;", "let total = 0;")
    assert JAVA.replace("int total = 0;", "var total = 0;") in _fixes(foreign, "java")
    assignment = CPP.replace("nums[i] > k", "nums[i] = k")
    assert CPP.replace("nums[i] > k", "nums[i] == k") in _fixes(assignment, "cpp")
    unclosed = JAVA.replace("return total;", 'String s = "never closed\n        return total;')
    assert any('"never closed"' in fixed for fixed in _fixes(unclosed, "java"))


def test_edits_keep_everything_else_byte_for_byte() -> None:
    for edit in candidate_edits(CPP, "cpp", lines=[5]):
        before, after = CPP.splitlines(), edit.source.splitlines()
        if len(before) == len(after):
            assert [a for a, b in zip(before, after) if a != b] == [before[4]] or edit.line == 5


def test_mutations_carry_debugbench_types() -> None:
    edits = list(candidate_edits(JAVA, "java", direction="mutate"))
    types = {edit.bug_type for edit in edits}
    assert {"missing colons", "unclosed string" if '"' in JAVA else "missing colons", "illegal keywords",
            "undefined objects", "faulty indexing", "condition error", "operation error"} <= types  # fmt: skip
    assert all(edit.source != JAVA for edit in edits)


def test_merge_edits_applies_disjoint_spans_together() -> None:
    first = CPP.replace("int total = 0;", "int total = 1;")
    second = CPP.replace("return total;", "return -total;")
    merged = merge_edits(CPP, [first, second])
    assert merged == CPP.replace("int total = 0;", "int total = 1;").replace("return total;", "return -total;")
    assert merge_edits(CPP, [first, CPP.replace("int total = 0;", "int total = 2;")]) is None


def test_localize_reads_compiled_languages() -> None:
    ranked = localize(CPP, coverage={0: {4, 5, 6, 7}, 1: {4, 5, 7}}, failed_tests=[0], language="cpp")
    assert ranked[0].line == 6


def test_a_function_calling_itself_with_its_own_arguments_is_flagged() -> None:
    cpp = """class Solution {
public:
    int rec(int ind, string& s, vector<int>& dp) {
        if (ind >= s.size()) return 0;
        int ans = rec(ind, s, dp);
        return max(ans, rec(ind + 1, s, dp));
    }
};
"""
    java = """class Solution {
    int go(int i, int[] a) { if (i == a.length) return 0; return this.go(i, a); }
    int step(int i, int[] a) { if (i == a.length) return 0; return step(i + 1, a); }
}
"""
    flagged = {(d.line, d.code) for d in pattern_diagnostics(cpp, "cpp")}
    assert (5, "unchanged-recursion") in flagged and (6, "unchanged-recursion") not in flagged
    java_lines = [d.line for d in pattern_diagnostics(java, "java") if d.code == "unchanged-recursion"]
    assert java_lines == [2]


def test_a_power_of_ten_may_have_a_zero_too_many_or_too_few() -> None:
    code = "int thousands(int num) {\n    return num / 10000 % 10;\n}\n"
    found = [e.description for e in candidate_edits(code, "cpp", lines={2}, categories=("logic",))]
    assert "line 2: 10000 -> 1000" in found and "line 2: 10000 -> 100000" in found
    assert "line 2: 10000 -> 10001" in found  # beside the +-1 it always had


def test_a_recursive_call_moving_away_from_its_base_case_is_a_pattern_finding() -> None:
    code = """int fib(int n) {
    if (n <= 1) return n;
    return fib(n - 1) + fib(n + 2);
}
int walk(int i, int n) {
    if (i == n) return 0;
    return 1 + walk(i + 1, n);
}
int bounded(int n) {
    if (n > 40) return 0;
    if (n == 0) return 1;
    return bounded(n + 1);
}
"""
    found = [(d.line, d.code, d.message) for d in pattern_diagnostics(code, "cpp") if d.code == "receding-recursion"]
    # counting up to a parameter, or bounded from above, is not moving away
    assert found == [(3, "receding-recursion", "the recursive call passes n + 2, away from the base case")]


def test_a_recursive_call_passing_on_what_its_base_case_waits_for_unchanged_is_a_pattern_finding() -> None:
    code = """int paths(int r, int c, int k) {
    if (k == 0) return 1;
    return paths(r + 1, c, k) + paths(r, c + 1, k - 1);
}
int same(int k) {
    if (k == 0) return 1;
    return same(k);
}
"""
    found = [(d.line, d.message) for d in pattern_diagnostics(code, "cpp") if d.code == "receding-recursion"]
    # same(k) passes every argument unchanged: that is the unchanged-recursion finding's, not this one's
    assert found == [(3, "the recursive call passes k, no nearer to the base case")]


def test_a_returned_sum_beside_a_total_accumulated_and_never_read_is_flagged() -> None:
    cpp = """class Solution {
public:
    int countPairs(vector<int>& a, int lo, int hi) {
        if (hi - lo <= 1) return lo < hi && a[lo] > 0;
        int mid = (lo + hi) / 2, pairs = 0;
        int left = countPairs(a, lo, mid), right = countPairs(a, mid, hi);
        for (int i = lo; i < mid; i++) pairs += a[i] > a[mid];
        return left + right;
    }
};
"""
    flagged = [(d.line, d.category) for d in pattern_diagnostics(cpp, "cpp") if d.code == "unread-total"]
    assert flagged == [(8, "suspicious-logic")]  # (not the base case's return, which is no sum)
    used = cpp.replace("return left + right;", "return left + right + pairs;")
    assert not [d for d in pattern_diagnostics(used, "cpp") if d.code == "unread-total"]
    java = """class Solution {
    int evens(int[] a) {
        int seen = 0, answer = 0;
        for (int x : a) if (x % 2 == 0) seen++;
        return answer;
    }
}
"""
    assert [d.line for d in pattern_diagnostics(java, "java") if d.code == "unread-total"] == [5]
