"""Edit operators: each repair operator produces the fix it names; edits keep the rest of the source intact."""

from __future__ import annotations

import pytest

from debugtutor.analysis.edits import candidate_edits

FIB_BUGGY = """def fibonacci(n):
    if n <= 0:
        return "OOPS"  # keep this comment
    a, b = 0, 1
    for i in range(0, n):
        a, b = b, a + b
    return a
"""


def sources(source: str, **kwargs: object) -> list[str]:
    return [e.source for e in candidate_edits(source, **kwargs)]  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("buggy", "fixed", "operator"),
    [
        ("def f(x)\n    return x\n", "def f(x):\n    return x\n", "insert_missing_colon"),
        ("def f(x):\n    y = [x, 1\n    return y\n", "def f(x):\n    y = [x, 1]\n    return y\n", "close_parenthesis"),
        ("def f(x):\n    return 'ab\n", "def f(x):\n    return 'ab'\n", "close_string"),
        (
            "def f(x):\n    if x = 1:\n        return 2\n",
            "def f(x):\n    if x == 1:\n        return 2\n",
            "assignment_to_comparison",
        ),
        ("def f(x):\n    y = 1\n      return y\n", "def f(x):\n    y = 1\n    return y\n", "fix_indentation"),
        (
            "def f(x):\n    if x && x > 1:\n        return 1\n",
            "def f(x):\n    if x and x > 1:\n        return 1\n",
            "translate_foreign_keyword",
        ),
        (
            "def f(x):\n    total = x\n    return totl\n",
            "def f(x):\n    total = x\n    return total\n",
            "rename_undefined_name",
        ),
        (
            "def f(x):\n    out = []\n    out.push(x)\n    return out\n",
            "def f(x):\n    out = []\n    out.append(x)\n    return out\n",
            "rename_undefined_method",
        ),
        ("def f(x):\n    return null\n", "def f(x):\n    return None\n", "translate_foreign_name"),
        ("def f(x):\n    print(x * 2)\n", "def f(x):\n    return x * 2\n", "print_to_return"),
        ("def f(x):\n    x == 3\n    return x\n", "def f(x):\n    x = 3\n    return x\n", "comparison_to_assignment"),
        ("def f(x):\n    return x < 3\n", "def f(x):\n    return x <= 3\n", "swap_comparison"),
        ("def f(x):\n    return x - 3\n", "def f(x):\n    return x + 3\n", "swap_arithmetic"),
        ("def f(x):\n    return x and 3\n", "def f(x):\n    return x or 3\n", "swap_boolean_operator"),
        ("def f(x):\n    return x[len(x)]\n", "def f(x):\n    return x[len(x) - 1]\n", "index_off_by_one"),
        ("def f(x):\n    return x * 10\n", "def f(x):\n    return x * 11\n", "change_constant"),
        (
            "def f(xs):\n    for x in xs:\n        return x\n",
            "def f(xs):\n    for x in xs:\n        pass\n    return x\n",
            None,
        ),
    ],
)
def test_repair_operator_reaches_the_fix(buggy: str, fixed: str, operator: str | None) -> None:
    edits = list(candidate_edits(buggy))
    if operator is None:  # a statement move: any operator may produce it, checked by the shape below
        assert any("return x" in e.source.splitlines()[-1] and e.source.count("return") == 1 for e in edits)
        return
    matching = [e for e in edits if e.source == fixed]
    assert matching, [e.description for e in edits][:20]
    assert matching[0].operator == operator


def test_range_bound_fix_keeps_comments_and_is_early() -> None:
    edits = list(candidate_edits(FIB_BUGGY))
    fixed = FIB_BUGGY.replace("range(0, n)", "range(1, n)")
    index = next(i for i, e in enumerate(edits) if e.source == fixed)
    assert index < 15
    assert edits[index].operator == "range_bound_off_by_one" and edits[index].line == 5
    assert "# keep this comment" in edits[index].source


def test_lines_filter_and_categories() -> None:
    edits = list(candidate_edits(FIB_BUGGY, lines=[5]))
    assert edits and all(e.line == 5 for e in edits)
    assert all(e.category == "logic" for e in candidate_edits(FIB_BUGGY, categories=["logic"]))
    assert not list(candidate_edits(FIB_BUGGY, categories=["syntax"]))


def test_every_edit_is_distinct_and_changes_the_source() -> None:
    produced = sources(FIB_BUGGY)
    assert FIB_BUGGY not in produced
    assert len(produced) == len(set(produced))


def test_unparsable_source_gets_only_syntax_level_repairs() -> None:
    edits = list(candidate_edits("def f(x)\n    return x +\n"))
    assert edits and all(e.category in ("syntax", "reference") for e in edits)


def test_mutate_direction_covers_every_category() -> None:
    program = FIB_BUGGY.replace("    return a\n", "    seen = []\n    seen.append(a)\n    return seen[0]\n")
    edits = list(candidate_edits(program, direction="mutate"))
    categories = {e.category for e in edits}
    assert categories == {"syntax", "reference", "logic"}
    bug_types = {e.bug_type for e in edits}
    for expected in (
        "missing colons",
        "unclosed parentheses",
        "unclosed string",
        "illegal indentation",
        "illegal comment",
        "misused == or =",
        "undefined objects",
        "undefined methods",
        "illegal keywords",
        "condition error",
        "operation error",
        "variable error",
        "faulty indexing",
    ):
        assert expected in bug_types, expected
    for edit in edits:
        compiles = True
        try:
            compile(edit.source, "<m>", "exec")
        except SyntaxError:
            compiles = False
        if edit.category == "syntax":
            assert not compiles, edit.description
