"""C++ and Java Code Repair instances: tests from the oracle where the method can be called, graded by execution."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from debugtutor.debugeval.build import BuildReport, BuildSettings, _build_repairs
from debugtutor.debugeval.debugbench import load_debugbench
from debugtutor.debugeval.records import LanguageName
from debugtutor.debugeval.scoring import passes_tests


@pytest.mark.slow
@pytest.mark.shared_data
@pytest.mark.parametrize("language", ["cpp", "java"])
def test_compiled_repair_instances_separate_oracle_from_bug(
    shared_data: Path, tmp_path: Path, language: LanguageName
) -> None:
    shard = next(iter(sorted((shared_data / "debugbench").glob(f"{language}_*.json"))))
    shutil.copy(shard, tmp_path / shard.name)
    items = [item for item in load_debugbench(tmp_path) if item.language == language][:4]
    report = BuildReport()
    records = _build_repairs(items, BuildSettings(repair_languages=(language,), workers=2), report)
    assert records, report.dropped
    for record in records:
        assert record.language == language and record.method and record.leetcode_calls
        assert asyncio.run(passes_tests(record, record.correct_code))
        assert not asyncio.run(passes_tests(record, record.buggy_code))


def test_compiled_repair_is_opt_in() -> None:
    assert BuildSettings().repair_languages == ("python",)
