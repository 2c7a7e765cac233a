"""The one order of precedence of the time budgets in ``Limits``."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from debugtutor.sandbox import Limits, RunBudget


def test_a_test_budget_comes_from_the_reference_then_per_test_then_wall() -> None:
    assert Limits(wall_s=7).test_s == 7
    assert Limits(wall_s=7, per_test_s=2).test_s == 2
    assert Limits(wall_s=7, per_test_s=2, reference_s=3).test_s == 12  # 4 x 3 s
    assert Limits(per_test_s=2, reference_s=0.01).test_s == 1.0  # the floor
    assert Limits(reference_s=0.5, reference_factor=10, reference_floor_s=2).test_s == 5.0
    assert Limits(reference_s=0.1, reference_factor=10, reference_floor_s=2).test_s == 2.0


def test_a_program_budget_ignores_the_per_test_budget() -> None:
    assert Limits(wall_s=7, per_test_s=2).program_budget() == RunBudget(7, 7)
    assert Limits(wall_s=7, reference_s=3).program_budget() == RunBudget(12, 12)
    assert Limits(wall_s=7, cpu_s=1).program_budget() == RunBudget(7, 1)


def test_a_suite_gets_its_load_time_and_every_tests_budget() -> None:
    limits = Limits(wall_s=3, per_test_s=2)
    assert limits.suite_budget(0) == RunBudget(3, 3)
    assert limits.suite_budget(4) == RunBudget(3 + 4 * 2.25, 3 + 4 * 2.25)
    assert Limits(wall_s=3, per_test_s=2, cpu_s=5).suite_budget(4).cpu_s == 5


def test_budgets_must_be_positive() -> None:
    with pytest.raises(ValidationError):
        Limits(per_test_s=0)
    with pytest.raises(ValidationError):
        Limits(reference_s=-1)
