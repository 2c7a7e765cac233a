"""Code Repair instances from the Socratic Debugging Benchmark: each buggy program with its unit tests.

Only the three sections a repair task needs are read (``<problem>``, ``<bug_code>`` with its ``N.`` line-number
prefixes, ``<unit_tests>``), so this arena does not depend on the Socratic arena. Dialogue threads repeat their main
dialogue's bug, so programs are deduplicated by code and tests; a bug is kept only when its code fails at least one
of its tests.
"""

from __future__ import annotations

import hashlib
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from debugtutor.analysis.execution import split_unit_tests
from debugtutor.debugeval.records import DebugEvalRecord
from debugtutor.errors import InputError
from debugtutor.sandbox import Limits, Status, run_python_tests

_LINE_NUMBER = re.compile(r"^\d+\.( ?)")
# the preferred folder inside a full copy of the benchmark (the paper's final dataset)
_PREFERRED = ("v2_sigcse/final_dataset", "final_dataset")


def section(text: str, tag: str) -> str | None:
    """The text between ``<tag>`` and the last ``</tag>`` before the next section, or None when absent."""
    start = text.find(f"<{tag}>")
    if start < 0:
        return None
    start += len(tag) + 2
    end = text.find(f"</{tag}>", start)
    if end < 0:
        return None
    # a duplicated closing tag (a fix line after the first one) still belongs to the section
    following = re.search(r"^<(?!/)\w+>", text[end:], re.M)
    limit = end + following.start() if following else len(text)
    last = text.rfind(f"</{tag}>", start, limit)
    return text[start : max(end, last)].strip("\n")


def strip_line_numbers(code: str) -> str:
    """Drop the ``N.`` prefix of every line and one space after it when present."""
    return "\n".join(_LINE_NUMBER.sub("", line) for line in code.splitlines())


def _files(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    for preferred in _PREFERRED:
        if (path / preferred).is_dir():
            return sorted((path / preferred).glob("*.txt"))
    return sorted(path.rglob("*.txt"))


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
        text = file.read_text(encoding="utf-8-sig")
        problem, bug_code, unit_tests = section(text, "problem"), section(text, "bug_code"), section(text, "unit_tests")
        if not problem or not bug_code or not unit_tests:
            continue  # some files lack their bug code section; nothing to repair there
        code = strip_line_numbers(bug_code)
        tests = split_unit_tests(unit_tests)
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
        report = run_python_tests(
            record.buggy_code, record.unit_tests, setup=record.test_setup, limits=Limits(wall_s=30.0),
            per_test_timeout_s=3.0,
        )  # fmt: skip
        return report.status != Status.passed

    with ThreadPoolExecutor(workers) as threads:
        verdicts = list(threads.map(fails, records))
    kept = [record for record, failing in zip(records, verdicts) if failing]
    return kept, len(records) - len(kept)
