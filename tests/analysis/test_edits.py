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


# Novice-bug inverses: each program below has the one mistake the operator undoes.
NOVICE_FIXES = [
    ("def area(w, h):\n    w * h\n", "def area(w, h):\n    return w * h\n", "return_discarded_value"),
    (
        "def shout(s):\n    s.upper()\n    return s\n",
        "def shout(s):\n    s = s.upper()\n    return s\n",
        "assign_back_result",
    ),
    (
        "def clean(s):\n    s.strip()\n    s.lower()\n    return s\n",
        "def clean(s):\n    s = s.strip()\n    s = s.lower()\n    return s\n",
        "assign_back_result",
    ),
    (
        "def order(xs):\n    sorted(xs)\n    return xs\n",
        "def order(xs):\n    xs = sorted(xs)\n    return xs\n",
        "assign_back_result",
    ),
    ("def backwards(xs):\n    return xs[-1:]\n", "def backwards(xs):\n    return xs[::-1]\n", "change_slice"),
    ("def head(xs):\n    return xs[2:]\n", "def head(xs):\n    return xs[:2]\n", "change_slice"),
    ("def odds(xs):\n    return xs[::2]\n", "def odds(xs):\n    return xs[::-2]\n", "change_slice"),
    ("def mean(a, b):\n    return a + b / 2\n", "def mean(a, b):\n    return (a + b) / 2\n", "regroup_operations"),
    ("def f(a, b, c):\n    return a - b - c\n", "def f(a, b, c):\n    return a - (b - c)\n", "regroup_operations"),
    (
        "def countdown(n):\n    return list(range(n, 0))\n",
        "def countdown(n):\n    return list(range(n, 0, -1))\n",
        "change_range",
    ),
    (
        "def pairs(xs):\n    for i in range(2, len(xs)):\n        print(i)\n",
        "def pairs(xs):\n    for i in range(len(xs)):\n        print(i)\n",
        "change_range",
    ),
    (
        "def fact(n):\n    if n <= 1:\n        return 1\n    return n * fact(n)\n",
        "def fact(n):\n    if n <= 1:\n        return 1\n    return n * fact(n - 1)\n",
        "shrink_recursive_argument",
    ),
    (
        "def fib(n):\n    if n < 2:\n        return n\n    return fib(n) + fib(n - 1)\n",
        "def fib(n):\n    if n < 2:\n        return n\n    return fib(n - 1) + fib(n - 2)\n",
        "shift_recursive_arguments",
    ),
    ("def unique(xs):\n    return sorted(xs)\n", "def unique(xs):\n    return sorted(set(xs))\n", "wrap_in_conversion"),
    (
        "def score(a):\n    total = a * 0.5\n    return total\n",
        "def score(a):\n    total = round(a * 0.5)\n    return total\n",
        "wrap_in_conversion",
    ),
    (
        "def ok(n, flag):\n    if n > 0 and flag:\n        return 1\n    elif n < 5:\n        return 2\n    return 0\n",
        "def ok(n, flag):\n    if n > 0 and flag:\n        return 1\n"
        "    elif n > 0 and n < 5:\n        return 2\n    return 0\n",
        "add_condition_clause",
    ),
    (
        "def biggest(xs):\n    best = 0\n    for x in xs:\n        best = max(best, x)\n    return best\n",
        "def biggest(xs):\n    best = xs[0]\n    for x in xs:\n        best = max(best, x)\n    return best\n",
        "constant_from_scope",
    ),
    (
        "def pad(n, k):\n    total = n - n % k\n    return total\n",
        "def pad(n, k):\n    total = n - n % k + k\n    return total\n",
        "add_missing_term",
    ),
    (
        "def total(xs):\n    for x in xs:\n        acc += x\n    return acc\n",
        "def total(xs):\n    acc = 0\n    for x in xs:\n        acc += x\n    return acc\n",
        "initialise_accumulator",
    ),
    (
        "def count(n):\n    i = 0\n    while i < n:\n        print(i)\n    return i\n",
        "def count(n):\n    i = 0\n    while i < n:\n        print(i)\n        i += 1\n    return i\n",
        "advance_loop_state",
    ),
    (
        "def hits(s, t):\n    start = 0\n    n = 0\n    pos = s.find(t, start)\n    while pos != -1:\n"
        "        n += 1\n        pos = s.find(t, start)\n    return n\n",
        "def hits(s, t):\n    start = 0\n    n = 0\n    pos = s.find(t, start)\n    while pos != -1:\n"
        "        n += 1\n        start = pos + len(t)\n        pos = s.find(t, start)\n    return n\n",
        "advance_loop_state",
    ),
    (
        "def weigh(a, b, c):\n    parts = [a, b, c]\n    return parts\n",
        "def weigh(a, b, c):\n    parts = [c, b, a]\n    return parts\n",
        "reorder_list",
    ),
    (
        "def grid(a, b, c, d):\n    rows = [a, b, c, d]\n    return rows\n",
        "def grid(a, b, c, d):\n    rows = [[a, b], [c, d]]\n    return rows\n",
        "reshape_list",
    ),
    (
        "def grid(a, b):\n    rows = [a, b], [b, a]\n    return rows\n",
        "def grid(a, b):\n    rows = [[a, b], [b, a]]\n    return rows\n",
        "reshape_list",
    ),
    (
        "def insert(node, value):\n    new = Node(value)\n    node.next = new\n",
        "def insert(node, value):\n    new = Node(value)\n    new.next = node.next\n    node.next = new\n",
        "link_tail",
    ),
    (
        "def total(xs):\n    s = 0\n    for x in xs:\n        s += xs[i]\n    return s\n",
        "def total(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s\n",
        "use_loop_variable",
    ),
    (
        "def double(xs):\n    return list(map(def twice(x): x * 2, xs))\n",
        "def double(xs):\n    return list(map(lambda x: x * 2, xs))\n",
        "def_to_lambda",
    ),
]


@pytest.mark.parametrize(("buggy", "fixed", "operator"), NOVICE_FIXES)
def test_novice_operator_reaches_the_fix(buggy: str, fixed: str, operator: str) -> None:
    edits = list(candidate_edits(buggy))
    matching = [e for e in edits if e.source == fixed]
    assert matching, [e.description for e in edits][:30]
    assert matching[0].operator == operator
    compile(fixed, "<fixed>", "exec")


# The Socratic benchmark's syntax bug shapes: each must be repaired by the first syntax-level edit that compiles.
SYNTAX_FIXES = [
    ("def f(x):\n    if x =! 3:\n        return 1\n    return 0\n", "    if x != 3:\n"),
    ("def f(xs):\n    for x in xs\n        print(x)\n", "    for x in xs:\n"),
    ("def f(xs):\n    n = 0\n    for x in xs:\n        n++\n    return n\n", "        n += 1\n"),
    ("def f(x):\n    if x = 3:\n        return 1\n    return 0\n", "    if x == 3:\n"),
    ("def f(x):\n    y = x * 2\nreturn y\n", "    return y\n"),
    ("def f(x):\n    for i in range(3):\n        x += i\nreturn x\n", "    return x\n"),
]


def _compiles(source: str) -> bool:
    try:
        compile(source, "<edit>", "exec")
    except SyntaxError:
        return False
    return True


@pytest.mark.parametrize(("buggy", "fixed_line"), SYNTAX_FIXES)
def test_socratic_syntax_bugs_get_a_compiling_fix_first(buggy: str, fixed_line: str) -> None:
    assert not _compiles(buggy)
    first = next(e for e in candidate_edits(buggy, categories=["syntax", "reference"]) if _compiles(e.source))
    assert fixed_line in first.source.splitlines(keepends=True), first.source
    assert first.category in ("syntax", "reference")


def test_novice_operators_are_repair_only() -> None:
    repair_only = {operator for _, _, operator in NOVICE_FIXES}
    for buggy, _, _ in NOVICE_FIXES:
        mutants = {e.operator for e in candidate_edits(buggy, direction="mutate")}
        assert not mutants & repair_only


def test_regrouping_skips_associative_chains_and_stays_bounded() -> None:
    assert not [
        e for e in candidate_edits("def f(a, b, c):\n    return a + b + c\n") if e.operator == "regroup_operations"
    ]
    long_chain = "def f(a, b, c, d, e, g):\n    return a - b * c / d + e % g\n"
    regroupings = [e for e in candidate_edits(long_chain) if e.operator == "regroup_operations"]
    assert not regroupings  # six operands: more groupings (42) than the search should pay for
    five = "def f(a, b, c, d, e):\n    return a - b * c / d + e\n"
    regroupings = [e for e in candidate_edits(five) if e.operator == "regroup_operations"]
    assert 0 < len(regroupings) <= 13
    for edit in regroupings:
        assert _compiles(edit.source)


def test_discarded_side_effect_calls_are_left_alone() -> None:
    program = "def f(xs):\n    xs.append(1)\n    return xs\n"
    operators = {e.operator for e in candidate_edits(program)}
    assert "assign_back_result" not in operators and "return_discarded_value" not in operators


def test_loop_advance_is_offered_only_for_stuck_loops() -> None:
    moving = "def f(n):\n    i = 0\n    while i < n:\n        i += 2\n    return i\n"
    assert not [e for e in candidate_edits(moving) if e.operator == "advance_loop_state"]
