"""How test lines are split between the program's process (probes) and the judge: decided from syntax alone."""

from __future__ import annotations

import pytest

from debugtutor.sandbox._test_plans import Bindings, bindings, plan_test

CODE = """import math
from collections import Counter
import numpy_like_package as np

def power(a, b):
    return a ** b

class Node:
    pass

LIMIT = 3

def reset():
    global counter
    counter = 0
"""


@pytest.fixture
def binds() -> Bindings:
    return bindings(CODE, "head = Node()", ("import heapq", "value = power(2, 2)"))


def test_bindings_separate_program_names_from_standard_imports(binds: Bindings) -> None:
    assert {"power", "Node", "LIMIT", "reset", "counter", "np", "head", "value"} <= binds.program
    assert {"math", "Counter", "heapq"} <= binds.imported
    assert not binds.imported & binds.program
    assert "import math" in binds.imports and "from collections import Counter" in binds.imports


def test_a_name_the_program_rebinds_is_the_programs_even_if_imported_too() -> None:
    binds = bindings("import math\nmath = 'mine'\n")
    assert "math" in binds.program and "math" not in binds.imported


@pytest.mark.parametrize(
    ("line", "probes", "judge"),
    [
        ("assert power(2, 3) == 8", ("power(2, 3)",), "__dt_probe__(0) == 8"),
        ("assert 8 == power(2, 3)", ("power(2, 3)",), "8 == __dt_probe__(0)"),
        (
            "assert math.isclose(power(1.5, 2), 2.25, abs_tol=0.001)",
            ("power(1.5, 2)",),
            "math.isclose(__dt_probe__(0), 2.25, abs_tol=0.001)",
        ),
        ("assert abs(power(2, 2) - 4.0) < 1e-9", ("power(2, 2)",), "abs(__dt_probe__(0) - 4.0) < 1e-09"),
        ("assert power(1, 2) is None or power(1, 3) == 2", ("power(1, 2)", "power(1, 3)"), None),
        ("assert sorted(power(1, 1), key=lambda t: -t) == [3, 2]", ("power(1, 1)",), None),
        ("assert [power(i, 2) for i in range(3)] == [0, 1, 4]", ("[power(i, 2) for i in range(3)]",), None),
        ("assert all(t > 0 for t in power(1, 1))", ("all((t > 0 for t in power(1, 1)))",), "__dt_probe__(0)"),
        ("assert head.val == LIMIT", ("head.val", "LIMIT"), "__dt_probe__(0) == __dt_probe__(1)"),
        ("assert np.sum(power(1, 2)) == 3", ("np.sum(power(1, 2))",), "__dt_probe__(0) == 3"),
    ],
)
def test_probes_are_the_smallest_parts_that_call_into_the_program(
    binds: Bindings, line: str, probes: tuple[str, ...], judge: str | None
) -> None:
    plan = plan_test(line, binds)
    assert plan.kind == "assert"
    assert plan.probes == probes
    if judge is not None:
        assert plan.judge == judge
    # the expected side never travels to the program's process
    assert "expr" not in plan.program_payload() and plan.program_payload() == {"kind": "probes", "probes": list(probes)}


def test_literal_comparisons_are_judged_by_the_host(binds: Bindings) -> None:
    fast = plan_test("assert power(2, 3) == [8, (1, 2)]", binds).fast
    assert fast is not None and (fast.op, fast.probe_on_left, fast.literal) == ("Eq", True, [8, (1, 2)])
    assert plan_test("assert not power(1, 1)", binds).fast.op == "falsity"  # type: ignore[union-attr]
    assert plan_test("assert power(1, 1)", binds).fast.op == "truth"  # type: ignore[union-attr]
    # a computed expected side goes to the judge process
    assert plan_test("assert power(2, 2) == float('4')", binds).fast is None
    assert plan_test("assert power(2, 2) == 2 ** 2", binds).fast is None


def test_statements_and_broken_lines(binds: Bindings) -> None:
    assert plan_test("value = power(2, 2)", binds).kind == "statement"
    assert plan_test("print(power(1, 2))", binds).kind == "statement"
    broken = plan_test("assert power(", binds)
    assert broken.kind == "invalid" and "SyntaxError" in broken.error
    assert broken.program_payload() == {"kind": "skip"}


def test_an_assertion_without_program_names_runs_wholly_in_the_judge(binds: Bindings) -> None:
    plan = plan_test("assert math.floor(2.5) == 2", binds)
    assert plan.probes == () and plan.judge == "math.floor(2.5) == 2"
