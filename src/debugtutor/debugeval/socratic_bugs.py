"""Code Repair instances from the Socratic Debugging Benchmark: each buggy program with its unit tests.

The files are read with the shared reader of the benchmark's sections (:mod:`debugtutor.formats.socratic_sections`:
``<problem>``, the numbered ``<bug_code>``, ``<unit_tests>``), so this arena does not depend on the Socratic arena.
Dialogue threads repeat their main dialogue's bug, so programs are deduplicated by code and tests; a bug is kept only
when its code fails at least one of its tests.
"""

from __future__ import annotations

import hashlib
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from debugtutor.analysis.execution import split_unit_tests
from debugtutor.debugeval.records import DebugEvalRecord
from debugtutor.errors import InputError
from debugtutor.formats.socratic_sections import read_sections, resolve_split
from debugtutor.sandbox import Limits, PythonTestsRequest, Status, run


def _files(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    folder = resolve_split(path)
    return sorted(folder.glob("*.txt")) or sorted(path.rglob("*.txt"))


def _problem_slug(problem: str) -> str:
    signature = re.search(r"`([A-Za-z_]\w*)\s*\(", problem)
    digest = hashlib.sha1(problem.strip().encode("utf-8")).hexdigest()[:8]
    return f"{signature.group(1) if signature else 'problem'}-{digest}"


def read_socratic_bugs(path: Path) -> list[DebugEvalRecord]:
    """One Code Repair record per distinct (buggy code, unit tests) pair in the Socratic files under ``path``."""
    if not path.exists():
        raise InputError("does not exist", path=str(path))
    found: dict[str, DebugEvalRecord] = {}
    for file in _files(path):
        # A repair item needs only the problem, the code and its tests; the dialogue's own sections may be absent.
        sections = read_sections(file, required=("problem", "unit_tests"))
        if not sections.has_bug_code or not sections.bug_code.strip() or not sections.unit_tests.strip():
            continue  # some files lack their bug code section; nothing to repair there
        problem, code = sections.problem, sections.bug_code
        tests = split_unit_tests(sections.unit_tests)
        if not tests.tests:
            continue
        key = hashlib.sha1("\x00".join([code, tests.setup, *tests.tests]).encode("utf-8")).hexdigest()[:12]
        if key in found:
            continue
        slug = _problem_slug(problem)
        found[key] = DebugEvalRecord(
            question_id=f"socratic-{key}",
            platform="socratic",
            language="python",
            question_content=problem.strip(),
            buggy_code=code,
            source="socratic",
            slug=slug,
            tests_kind="asserts",
            unit_tests=tests.tests,
            test_setup=tests.setup,
        )
    if not found:
        raise InputError("no Socratic benchmark files with bug code and unit tests", path=str(path))
    return [found[key] for key in sorted(found)]


def keep_failing(records: list[DebugEvalRecord], *, workers: int = 4) -> tuple[list[DebugEvalRecord], int]:
    """The records whose code fails at least one of their tests, and how many were dropped."""

    def fails(record: DebugEvalRecord) -> bool:
        request = PythonTestsRequest(
            code=record.buggy_code, tests=list(record.unit_tests), setup=record.test_setup,
            limits=Limits(wall_s=30.0, per_test_s=3.0),
        )  # fmt: skip
        report = run(request)
        return report.status != Status.passed

    with ThreadPoolExecutor(workers) as threads:
        verdicts = list(threads.map(fails, records))
    kept = [record for record, failing in zip(records, verdicts) if failing]
    return kept, len(records) - len(kept)
