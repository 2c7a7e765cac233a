"""Nulls in C++/Java (analysis/clike/nulls.py): from the crash back to where the null was set, and the edits that
make the missing object."""

from __future__ import annotations

import asyncio

import pytest

from debugtutor.analysis.clike.edits import candidate_edits
from debugtutor.analysis.clike.nulls import null_origins
from debugtutor.analysis.clike.repair import arepair_compiled
from debugtutor.analysis.repair import RepairBudget
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


def test_null_argument_takes_what_a_sibling_call_passes() -> None:
    found = _descriptions(TREE, {7})
    assert "null -> node.right" in found and "null -> node.left" in found


@pytest.mark.slow
def test_repair_finds_the_missing_object() -> None:
    calls = [LeetCodeCall(args={"n": 3}, expected=8), LeetCodeCall(args={"n": 0}, expected=1)]
    budget = RepairBudget(max_seconds=60.0, batch_size=32, max_executions=400)
    search = asyncio.run(
        arepair_compiled(TABLE, calls, language="java", method="ways", suspicious_lines=[4], budget=budget)
    )
    assert search.best is not None and "new long[n + 1]" in search.best.source
