"""Static checks: syntax errors (several per program), reference errors, suspicious logic, the category rule."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from debugtutor.analysis.static import LEETCODE_PREAMBLE, check, classify, syntax_issues


def codes(source: str, **kwargs: object) -> set[tuple[str, int]]:
    return {(d.code, d.line) for d in check(source, **kwargs)}  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("def f(x)\n    return x\n", ("missing-colon", 1)),
        ("def f(x):\n    y = [1, 2\n    return y\n", ("unclosed-bracket", 2)),
        ("def f(x):\n    return 'abc\n", ("unclosed-string", 2)),
        ("def f(x):\n    if x = 1:\n        return 2\n", ("assignment-in-condition", 2)),
        ("def f(x):\n    // a comment here\n    return x\n", ("illegal-comment", 2)),
        ("def f(x):\n    y = 1\n      return y\n", ("unexpected-indent", 3)),
        ("def f(x):\n    if x && x:\n        return 1\n", ("foreign-keyword", 2)),
    ],
)
def test_each_syntax_shape_is_found_on_its_line(source: str, expected: tuple[str, int]) -> None:
    assert expected in codes(source)


def test_several_syntax_errors_are_all_reported() -> None:
    source = "def f(x)\n    y = [1, 2\n    if y = 3:\n        return 'a\n    return y\n"
    found = codes(source)
    assert {
        ("missing-colon", 1),
        ("unclosed-bracket", 2),
        ("assignment-in-condition", 3),
        ("unclosed-string", 4),
    } <= found


def test_syntax_fixes_compile() -> None:
    issues, neutralised = syntax_issues("def f(x)\n    return x\n")
    assert neutralised is not None
    assert issues[0].fixes and compile(issues[0].fixes[0], "<t>", "exec")


def test_clean_code_has_no_diagnostics() -> None:
    source = "def add(a, b):\n    total = a + b\n    return total\n"
    assert check(source) == []


def test_undefined_names_and_methods() -> None:
    source = "def f(nums: list, s: str):\n    out = []\n    out.push(1)\n    s.length()\n    return totl\n"
    found = codes(source)
    assert ("undefined-method", 3) in found
    assert ("undefined-method", 4) in found
    assert ("undefined-name", 5) in found


def test_self_method_missing_from_class() -> None:
    source = "class Solution:\n    def a(self):\n        return self.b()\n"
    assert ("undefined-method", 3) in codes(source)
    assert ("undefined-method", 3) not in codes(source.replace("self.b()", "self.a()"))


def test_preamble_names_are_not_flagged() -> None:
    source = "class Solution:\n    def f(self, nums: List[int]) -> int:\n        return heappop(nums) + inf\n"
    assert not [d for d in check(source, preamble=LEETCODE_PREAMBLE) if d.category == "reference"]
    assert [d for d in check(source) if d.code == "undefined-name"]


@pytest.mark.parametrize(
    ("source", "code", "line"),
    [
        ("def f(x):\n    print(x * 2)\n", "print-instead-of-return", 2),
        ("def f(xs):\n    for x in xs:\n        return x\n        x += 1\n", "unreachable-code", 4),
        (
            "def f(xs):\n    for x in xs:\n        if x:\n            return 1\n        else:\n            return 2\n",
            "loop-exits-first-iteration",
            3,
        ),
        ("def f(list):\n    return list\n", "shadowed-builtin", 1),
        ("def f(xs):\n    return xs[len(xs) / 2]\n", "float-division-index", 2),
        ("def f(x):\n    x == 3\n    return x\n", "comparison-statement", 2),
    ],
)
def test_suspicious_patterns(source: str, code: str, line: int) -> None:
    diagnostics = [d for d in check(source) if d.code == code]
    assert diagnostics and diagnostics[0].line == line
    assert diagnostics[0].category == "suspicious-logic"


def test_classify_rule() -> None:
    assert classify("class Solution:\n    def f(self, x):\n        return x + 1\n") == "logic"
    assert classify("class Solution:\n    def f(self, x)\n        return x + 1\n") == "syntax"
    assert classify("class Solution:\n    def f(self, x):\n        return y + 1\n") == "reference"
    assert classify("class Solution:\n    def f(self, x)\n        return y + 1\n") == "multiple"


MAJOR = {
    "missing colons": "syntax",
    "unclosed parentheses": "syntax",
    "undefined objects": "reference",
    "condition error": "logic",
}


@pytest.mark.shared_data
def test_debugbench_items_mostly_land_in_their_category(shared_data: Path) -> None:
    hits = total = 0
    for minor, major in MAJOR.items():
        items = json.loads((shared_data / "debugbench" / f"python3_{minor}.json").read_text())[:15]
        for item in items:
            total += 1
            hits += classify(item["buggy_code"]) == major
    assert hits / total >= 0.7
