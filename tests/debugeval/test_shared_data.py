"""Instances built from the shared DebugBench and Socratic copies keep the paper's construction rules."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from debugtutor.debugeval.build import BuildSettings, build_from_debugbench
from debugtutor.debugeval.debugbench import load_debugbench
from debugtutor.debugeval.socratic_bugs import read_socratic_bugs

pytestmark = pytest.mark.shared_data


def test_debugbench_build_rules(shared_data: Path) -> None:
    items = load_debugbench(shared_data / "debugbench")
    assert {item.language for item in items} == {"python", "cpp", "java"}
    settings = BuildSettings(seed=0, repair_languages=())
    task124, _, report = build_from_debugbench(items, settings)
    for language in ("python", "cpp", "java"):
        here = [r for r in task124 if r.language == language]
        classes = Counter(r.task2_choice for r in here if r.task2_choice)
        assert len(classes) == 4 and len(set(classes.values())) == 1  # balanced to the smallest class
        per_type = Counter(r.minor_error_type for r in here if r.task1_options)
        assert per_type and max(per_type.values()) <= settings.localization_per_type
        letters = Counter(r.task1_answer for r in here if r.task1_answer)
        assert max(letters.values()) - min(letters.values()) <= max(3, sum(letters.values()) // 20)
        assert all(r.correct_code != r.buggy_code for r in here if r.task4 == "True")
        assert report.counts["code-review"][language] > 0
    again, _, _ = build_from_debugbench(items, settings)
    assert [r.model_dump() for r in again] == [r.model_dump() for r in task124]


def test_socratic_bugs(shared_data: Path) -> None:
    records = read_socratic_bugs(shared_data / "socratic")
    assert records and all(r.unit_tests and "1. " not in r.buggy_code.splitlines()[0] for r in records)
    assert len({r.question_id for r in records}) == len(records)
