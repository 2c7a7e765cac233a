"""Program diffs: changed lines on both sides and the kind of each change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from debugtutor.analysis.diff import diff_programs

FIXED = """def fibonacci(n):
    if n <= 0:
        return "OOPS"
    a, b = 0, 1
    for i in range(1, n):
        a, b = b, a + b
    return b
"""


@pytest.mark.parametrize(
    ("buggy_line", "fixed_line", "kind"),
    [
        ("    for i in range(0, n):", "    for i in range(1, n):", "range_bound"),
        ("    if n < 0:", "    if n <= 0:", "condition"),
        ("        a, b = b, a - b", "        a, b = b, a + b", "operator"),
        ('        return "OOPS!"', '        return "OOPS"', "constant"),
        ("    return a", "    return b", "other"),
        ("      return b", "    return b", "indentation"),
    ],
)
def test_single_line_changes_are_named(buggy_line: str, fixed_line: str, kind: str) -> None:
    buggy = FIXED.replace(fixed_line, buggy_line)
    assert buggy != FIXED
    diff = diff_programs(buggy, FIXED)
    assert [c.kind for c in diff.changes] == [kind]
    line = FIXED.splitlines().index(fixed_line) + 1
    assert diff.changed_lines_before == [line] and diff.changed_lines_after == [line]


def test_missing_and_extra_statements() -> None:
    buggy = FIXED.replace("    a, b = 0, 1\n", "").replace("a + b\n", "a + b\n        print(a)\n")
    diff = diff_programs(buggy, FIXED)
    assert [(c.kind, c.line_before, c.line_after) for c in diff.changes] == [
        ("missing_statement", None, 4),
        ("extra_statement", 6, None),
    ]


def test_layout_and_comments_are_not_changes() -> None:
    reformatted = FIXED.replace("a, b = b, a + b", "a,b = b,a+b  # step").replace("    return b", "\n    return b")
    assert diff_programs(reformatted, FIXED).identical


@pytest.mark.shared_data
def test_debugbench_single_bug_items_differ_from_their_oracle(shared_data: Path) -> None:
    items = json.loads((shared_data / "debugbench" / "python3_operation error.json").read_text())[:20]
    for item in items:
        diff = diff_programs(item["buggy_code"], item["oracle_code"])
        assert diff.changes, item["slug"]
        assert all(1 <= n <= len(item["buggy_code"].splitlines()) for n in diff.changed_lines_before)
