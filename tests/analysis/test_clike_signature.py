"""Bugs in the judged method's own header (analysis/clike/repair.py, edits.py): a type nothing declares or the judge
cannot pass, a comment that swallows a parameter. Until the header is mended no candidate can run, so the search
reads the signature from the first mended program."""

from __future__ import annotations

import asyncio

import pytest

from debugtutor.analysis.clike.edits import candidate_edits
from debugtutor.analysis.clike.repair import CompiledVerifier, arepair_compiled
from debugtutor.analysis.clike.syntax_tree import CompiledLanguage
from debugtutor.analysis.repair import RepairBudget
from debugtutor.analysis.static import Diagnostic
from debugtutor.sandbox import LeetCodeCall

SUM_CALLS = [
    LeetCodeCall(args={"nums": [1, 2, 3], "k": 2}, expected=8),
    LeetCodeCall(args={"nums": [5], "k": 0}, expected=5),
]
JOIN_CALLS = [LeetCodeCall(args={"nums": [1, 2, 3]}, expected="1-2-3"), LeetCodeCall(args={"nums": [7]}, expected="7")]

ARRAY_PARAMETER = """class Solution {
public:
    int total(Array<int>& nums, int k) {
        int sum = k;
        for (int x : nums) sum += x;
        return sum;
    }
};
"""
LIST_PARAMETER = """class Solution {
public:
    int total(list<int>& nums, int k) {
        int sum = k;
        for (int i = 0; i < nums.size(); i++) sum += nums[i];
        return sum;
    }
};
"""
OBJECT_PARAMETER = """class Solution {
    public int total(Object[] nums, int k) {
        int sum = k;
        for (int x : nums) sum += x;
        return sum;
    }
}
"""
FOREIGN_RETURN = """class Solution {
    public def join(int[] nums) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < nums.length; i++) {
            if (i > 0) out.append('-');
            out.append(nums[i]);
        }
        return out.toString();
    }
}
"""
SWALLOWED_PARAMETER = """class Solution {
    public String join(int[] nums, /* String sep) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i <= nums.length - 1; i++)
            if (i > 0) out.append(sep);
            out.append(nums[i]);
        return out.reverse().toString();
    }
}
"""
SEPARATOR_CALLS = [
    LeetCodeCall(args={"nums": [1, 2, 3], "sep": "-"}, expected="1-2-3"),
    LeetCodeCall(args={"nums": [4, 5], "sep": ", "}, expected="4, 5"),
]


def test_a_type_nothing_declares_may_be_any_type_the_program_writes_or_a_signature_type() -> None:
    undeclared = Diagnostic(category="reference", line=3, column=14, message="'Array' has not been declared",
                            code="undeclared-name", symbol="Array", bug_type="undefined objects")  # fmt: skip
    edits = list(candidate_edits(ARRAY_PARAMETER, "cpp", lines=[3], diagnostics=[undeclared]))
    renamed = [edit.description for edit in edits if edit.operator == "rename_reference"]
    assert "line 3: 'Array' -> 'vector'" in renamed
    assert not any("'Solution'" in description for description in renamed)  # the class itself is no stand-in


def test_a_header_the_judge_cannot_call_is_a_finding_on_the_header_line() -> None:
    verifier = CompiledVerifier("cpp", SUM_CALLS, "total", LIST_PARAMETER, 1.0)
    assert not verifier.signature_readable
    findings = verifier._uncallable(LIST_PARAMETER)
    assert [(finding.line, finding.symbol) for finding in findings] == [(3, "list")]
    assert verifier._uncallable(LIST_PARAMETER.replace("list<int>", "vector<int>")) == []


@pytest.mark.slow
@pytest.mark.parametrize(
    ("language", "code", "calls", "mended"),
    [
        ("cpp", ARRAY_PARAMETER, SUM_CALLS, "vector<int>& nums"),
        ("cpp", LIST_PARAMETER, SUM_CALLS, "vector<int>& nums"),
        ("java", OBJECT_PARAMETER, SUM_CALLS, "int[] nums"),
        ("java", FOREIGN_RETURN, JOIN_CALLS, "public String join"),
    ],
)
def test_repair_mends_the_type_in_the_header_then_runs_the_examples(
    language: CompiledLanguage, code: str, calls: list[LeetCodeCall], mended: str
) -> None:
    method = "join" if "join" in code else "total"
    budget = RepairBudget(max_seconds=60, batch_size=32, max_executions=500)
    found = asyncio.run(arepair_compiled(code, calls, language=language, method=method, budget=budget))
    assert found.repairs, "no repair found"
    assert mended in found.repairs[0].source


@pytest.mark.slow
def test_repair_reads_the_signature_once_the_comment_in_the_header_is_gone_and_fixes_what_follows() -> None:
    budget = RepairBudget(max_seconds=90, batch_size=32, max_executions=2000)
    found = asyncio.run(arepair_compiled(SWALLOWED_PARAMETER, SEPARATOR_CALLS, language="java", method="join",
                                         budget=budget))  # fmt: skip
    assert found.repairs, "no repair found"
    fixed = found.repairs[0].source
    assert "String sep)" in fixed and "/*" not in fixed
    assert "reverse" not in fixed
