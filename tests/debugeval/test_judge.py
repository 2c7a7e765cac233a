"""The public judge: verdicts with reasons, predictions read with clear errors, tests cached per problem, and the
agreement figures bench/judge.py reports (a golden fixture with known values)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from debugtutor.debugeval.build import BuildSettings
from debugtutor.debugeval.debugbench import load_debugbench
from debugtutor.debugeval.judge import (
    Prediction,
    TestsCache,
    agreement_figures,
    judge,
    read_predictions,
    summarize_verdicts,
)
from debugtutor.debugeval.problem_tests import problems_from
from debugtutor.errors import InputError

ORACLE = "class Solution:\n    def addOne(self, nums: List[int]) -> List[int]:\n        return [x + 1 for x in nums]\n"


def write_shard(folder: Path) -> Path:
    """A one-problem DebugBench shard (the oracle and a buggy variant)."""
    folder.mkdir(parents=True, exist_ok=True)
    row = {
        "slug": "add-one", "description": "Add one to every number.", "constraints": "1 <= nums.length <= 10",
        "examples": ["Input: nums = [1,2]\nOutput: [2,3]", "Input: nums = [5]\nOutput: [6]"],
        "oracle_code": ORACLE, "buggy_code": ORACLE.replace("x + 1", "x + 2"), "level": "easy",
    }  # fmt: skip
    (folder / "python3_operation error.json").write_text(json.dumps([row]))
    return folder


def test_verdicts_with_reasons(tmp_path: Path) -> None:
    problems = problems_from(load_debugbench(write_shard(tmp_path / "bench")))
    predictions = [
        Prediction(id="right", slug="add-one", language="python", code=ORACLE),
        Prediction(id="wrong", slug="add-one", language="python3", code=ORACLE.replace("x + 1", "x - 1")),  # type: ignore[arg-type]  # (LeetCode's name is accepted)
        Prediction(id="elsewhere", slug="no-such-problem", language="python", code=ORACLE),
    ]
    results = judge(predictions, problems, cache=TestsCache(tmp_path / "cache"))
    assert [r.verdict for r in results] == ["pass", "fail", "ungradable"]
    assert "expected" in results[1].reason and "no-such-problem" in results[2].reason
    assert summarize_verdicts(results)["counts"] == {"pass": 1, "fail": 1, "ungradable": 1}
    cached = list((tmp_path / "cache" / "python").glob("*.json"))
    assert [path.name for path in cached] == ["add-one.json"]
    # a second run reads the cache, and a changed setting derives again
    cache = TestsCache(tmp_path / "cache")
    defaults = BuildSettings()
    derivation = {"extra": defaults.repair_extra_tests, "compiled_extra": defaults.compiled_repair_extra_tests}
    tests, _ = cache.get(problems[("python", "add-one")], **derivation, seed=0)
    assert tests is not None and tests.calls[0].expected == [2, 3]
    stored = json.loads(cached[0].read_text())
    assert stored["key"] == TestsCache.key(problems[("python", "add-one")], **derivation, seed=0)
    assert TestsCache.key(problems[("python", "add-one")], **derivation, seed=1) != stored["key"]


def test_predictions_file_errors_name_the_line_and_field(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text('{"id": 1, "slug": "a", "language": "python", "code": "x"}\n{"id": 2, "slug": "a", "code": "x"}\n')
    with pytest.raises(InputError, match=r"p.jsonl:2.*language"):
        read_predictions(path)
    path.write_text('{"id": 1, "slug": "a", "language": "cobol", "code": "x"}\n')
    with pytest.raises(InputError, match=r"p\.jsonl:1"):
        read_predictions(path)
    path.write_text('{"id": 1, "slug": "a", "language": "java", "code": "x"}\n' * 2)
    with pytest.raises(InputError, match="twice"):
        read_predictions(path)


def test_agreement_figures_golden() -> None:
    # LeetCode's verdict (passed?) and ours: 6 accepted (5 passed by us, 1 failed), 3 rejected (1 passed by us),
    # 1 we could not grade
    pairs = [(True, "pass")] * 5 + [(True, "fail")] + [(False, "fail")] * 2 + [(False, "pass"), (True, "ungradable")]
    figures = agreement_figures(pairs)
    assert figures["fixes"] == 10 and figures["gradable"] == 9
    assert figures["agreement"] == round(100 * 7 / 9, 2)
    assert figures["false_fail_rate"] == round(100 * 1 / 6, 2)
    assert figures["false_pass_rate"] == round(100 * 1 / 3, 2)
    assert figures["ungradable_share"] == 10.0
    low, high = figures["agreement_ci95"]
    assert low < figures["agreement"] < high
