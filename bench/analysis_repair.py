"""Benchmark of the offline analysis engine on the Socratic Debugging Benchmark's buggy programs.

Repair: the share of distinct bugs (deduplicated by buggy code and unit tests, since several dialogues share one bug)
for which the engine finds a fix that passes every unit test within the time budget, and the median / p90 time to
find it. Localization: on the bugs whose description names a line ("line 11", "lines 3 and 5"), top-1 (the
top-ranked line is one of the named lines) and top-3. Exits non-zero when a target is missed (repair >= 60% within
10 s each, top-1 >= 70%).

    python bench/analysis_repair.py [--data DIR] [--budget-s 10] [--max-items N] [--json]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from debugtutor.analysis.engine import AnalysisBudget, analyze
from debugtutor.analysis.execution import split_unit_tests
from debugtutor.formats.socratic_sections import SocraticSections, read_sections
from debugtutor.sandbox import PythonTestsRequest, Status, run

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO_ROOT.parent / "shared" / "data" / "socratic" / "v2_sigcse" / "train"
REPAIR_TARGET = 0.60
TIME_TARGET_S = 10.0
TOP1_TARGET = 0.70

_LINE_MENTION = re.compile(r"\blines?\s+(\d+(?:\s*(?:,|and|&|-|to|or)\s*(?:lines?\s+)?\d+)*)", re.IGNORECASE)


def named_lines(bug_desc: str) -> set[int]:
    """Line numbers a bug description names ("line 11", "lines 3 and 5", "lines 3-5")."""
    lines: set[int] = set()
    for match in _LINE_MENTION.finditer(bug_desc):
        text = match.group(1)
        numbers = [int(n) for n in re.findall(r"\d+", text)]
        if re.search(r"\d\s*(?:-|to)\s*\d", text) and len(numbers) == 2 and numbers[0] < numbers[1]:
            lines.update(range(numbers[0], numbers[1] + 1))
        else:
            lines.update(numbers)
    return lines


def distinct_bugs(folder: Path) -> list[SocraticSections]:
    bugs: dict[tuple[str, str], SocraticSections] = {}
    for path in sorted(folder.glob("*.txt")):
        sections = read_sections(path)
        if not sections.has_bug_code or not sections.bug_code.strip():
            continue
        bugs.setdefault((sections.bug_code, sections.unit_tests), sections)
    return list(bugs.values())


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--budget-s", type=float, default=TIME_TARGET_S)
    parser.add_argument("--max-items", type=int, default=None, help="only the first N bugs (a quick look)")
    parser.add_argument("--json", action="store_true", help="print one JSON object with every item")
    args = parser.parse_args()
    if not args.data.is_dir():
        print(f"error: {args.data} is not a directory", file=sys.stderr)
        return 2
    bugs = distinct_bugs(args.data)[: args.max_items]
    items: list[dict[str, Any]] = []
    for sections in bugs:
        split = split_unit_tests(sections.unit_tests)
        started = time.monotonic()
        report = analyze(
            sections.bug_code, split.tests, setup=split.setup, budget=AnalysisBudget(repair_seconds=args.budget_s)
        )
        wall = time.monotonic() - started
        fixed = False
        if report.repair is not None:
            # verified again, independently of the search's own bookkeeping
            check = run(PythonTestsRequest(code=report.repair.source, tests=split.tests, setup=split.setup))
            fixed = check.status == Status.passed and report.repair.seconds <= TIME_TARGET_S
        named = named_lines(sections.bug_desc)
        ranked = [item.line for item in report.suspicious_lines]
        item = {
            "file": Path(sections.path).name,
            "fixed": fixed,
            "repair_seconds": report.repair.seconds if report.repair else None,
            "wall_s": round(wall, 3),
            "edits": [edit.description for edit in report.repair.edits] if report.repair else [],
            "named_lines": sorted(named),
            "ranked": ranked[:5],
            "top1": bool(named) and bool(ranked) and ranked[0] in named,
            "top3": bool(named) and any(line in named for line in ranked[:3]),
        }
        items.append(item)
        mark = "fixed" if fixed else "-----"
        print(f"{mark} {wall:6.2f}s top1={item['top1']!s:5} {item['file']}", file=sys.stderr)

    fixed_times = [float(item["repair_seconds"]) for item in items if item["fixed"]]
    repair_share = len(fixed_times) / len(items) if items else 0.0
    located = [item for item in items if item["named_lines"]]
    top1 = sum(bool(item["top1"]) for item in located) / len(located) if located else 0.0
    top3 = sum(bool(item["top3"]) for item in located) / len(located) if located else 0.0
    summary = {
        "bugs": len(items),
        "repaired": len(fixed_times),
        "repair_share": round(repair_share, 4),
        "repair_median_s": round(statistics.median(fixed_times), 3) if fixed_times else None,
        "repair_p90_s": round(percentile(fixed_times, 0.9), 3) if fixed_times else None,
        "analysis_median_wall_s": round(statistics.median(float(i["wall_s"]) for i in items), 3) if items else None,
        "localization_bugs": len(located),
        "top1": round(top1, 4),
        "top3": round(top3, 4),
    }
    if args.json:
        print(json.dumps({"summary": summary, "items": items}))
    else:
        for key, value in summary.items():
            print(f"{key:24} {value}")
    missed = []
    if repair_share < REPAIR_TARGET:
        missed.append(f"repair share {repair_share:.0%} < {REPAIR_TARGET:.0%}")
    if top1 < TOP1_TARGET:
        missed.append(f"top-1 {top1:.0%} < {TOP1_TARGET:.0%}")
    for line in missed:
        print(f"target missed: {line}", file=sys.stderr)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
