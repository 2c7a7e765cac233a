"""Building DebugEval-style instances from DebugBench (all four tasks) and from the Socratic benchmark (Code Repair).

The rules follow the DebugEval paper's construction (``../reference/debugeval-format.md`` B3/B4):

* **Bug Localization**: single-error items only, up to ``localization_per_type`` per minor type and language. The
  golden option is the buggy side of the buggy-vs-oracle diff (one hunk of 1-3 code lines, not a brace or comment);
  the three distractors are other lines of the buggy code, sampled uniformly among lines that the oracle also has
  and that lie at least two lines away from the hunk. Gold letters are dealt out evenly and shuffled.
* **Bug Identification**: per language, every major category is sampled down to the smallest category's size,
  stratified by minor type in proportion.
* **Code Review**: up to ``review_per_category`` pairs (buggy, oracle) per major category and language; the scorer
  asks both orders.
* **Code Repair**: one buggy variant per problem whose tests come from running the oracle (twice, so only a
  deterministic oracle defines tests) on the parsed examples and on type-preserving perturbations of them; a variant
  is kept only when it fails at least one of those tests. Python only: the sandbox calls ``class Solution`` methods
  in Python.

Every random choice comes from ``random.Random`` seeded with the seed and a fixed label, and the pool is sorted by
content ids first, so the same data and seed give byte-identical files. Train/test membership is decided per
problem slug, so a problem's variants are on one side for every task.
"""

from __future__ import annotations

import difflib
import hashlib
import random
import re
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from debugtutor.console import progress
from debugtutor.debugeval.debugbench import DebugBenchItem
from debugtutor.debugeval.problem_tests import fails_tests, problem_tests
from debugtutor.debugeval.records import (
    CHOICE_BY_MAJOR,
    OPTION_LETTERS,
    TASK3_FILE,
    TASK124_FILE,
    DebugEvalRecord,
    LanguageName,
    render_options,
    write_records,
)


@dataclass
class BuildSettings:
    """The knobs of a build; defaults follow the paper's sizes."""

    seed: int = 0
    localization_per_type: int = 20
    review_per_category: int = 200
    train_fraction: float = 0.0
    """Share of problems (by slug) marked ``train``; the rest are ``test``."""
    repair_extra_tests: int = 10
    """Perturbed inputs per problem on top of its examples, for Code Repair tests."""
    repair_languages: tuple[LanguageName, ...] = ("python",)
    """Languages that get Code Repair instances. C++ and Java compile every oracle and buggy variant (seconds per
    problem), so they are opt-in: ``debugeval build --repair-languages python,cpp,java``."""
    compiled_repair_extra_tests: int = 4
    """Perturbed inputs per C++/Java problem (each test run compiles once, so fewer are needed)."""
    workers: int = 4


@dataclass
class BuildReport:
    """What a build produced, per task and language, and what it dropped and why."""

    counts: dict[str, dict[str, int]] = field(default_factory=dict)
    dropped: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    files: list[str] = field(default_factory=list)

    def drop(self, reason: str, count: int = 1) -> None:
        self.dropped[reason] = self.dropped.get(reason, 0) + count


def split_of(slug: str, seed: int, train_fraction: float) -> str:
    """``train`` or ``test`` for a problem, from a hash of the seed and its slug only."""
    if train_fraction <= 0:
        return "test"
    digest = hashlib.sha256(f"{seed}:{slug}".encode()).digest()
    return "train" if int.from_bytes(digest[:8], "big") / 2**64 < train_fraction else "test"


def _rng(seed: int, *labels: str) -> random.Random:
    return random.Random(":".join([str(seed), *labels]))


# ---------------------------------------------------------------------------------------------------------------
# Bug Identification and Code Review: balanced samples.


def stratified_sample(items: Sequence[DebugBenchItem], count: int, rng: random.Random) -> list[DebugBenchItem]:
    """``count`` items drawn so that each minor type keeps its share (largest remainders get the leftovers)."""
    if count >= len(items):
        return list(items)
    by_minor: dict[str, list[DebugBenchItem]] = defaultdict(list)
    for item in items:
        by_minor[item.minor_type].append(item)
    minors = sorted(by_minor)
    quotas = {minor: count * len(by_minor[minor]) / len(items) for minor in minors}
    taken = {minor: int(quotas[minor]) for minor in minors}
    leftover = count - sum(taken.values())
    for minor in sorted(minors, key=lambda m: (-(quotas[m] - taken[m]), m))[:leftover]:
        taken[minor] += 1
    chosen: list[DebugBenchItem] = []
    for minor in minors:
        group = list(by_minor[minor])
        rng.shuffle(group)
        chosen.extend(group[: taken[minor]])
    return chosen


def _normalized(code: str) -> str:
    return "\n".join(" ".join(line.split()) for line in code.splitlines() if line.strip())


# ---------------------------------------------------------------------------------------------------------------
# Bug Localization: options from the buggy-vs-oracle diff.

_BRACE_ONLY = re.compile(r"^[\s{}()\[\];,]*$")
_COMMENT = re.compile(r"^\s*(#|//|/\*|\*|\"\"\"|''')")


def _line_key(line: str, language: LanguageName) -> str:
    # indentation is syntax in Python, so it stays in the key there; elsewhere only the tokens count
    collapsed = " ".join(line.split())
    if language == "python":
        return line[: len(line) - len(line.lstrip())].replace("\t", "    ") + collapsed
    return collapsed


def _eligible(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not _BRACE_ONLY.match(stripped) and not _COMMENT.match(stripped)


@dataclass
class LocalizationOptions:
    """The four snippets (gold at ``answer``) for one buggy program."""

    snippets: list[str]
    answer: str


def golden_snippet(buggy: str, oracle: str, language: LanguageName) -> tuple[str, list[int]] | None:
    """The buggy side of the only diff hunk (1-3 code lines, dedented) and its 0-based line indexes, else None."""
    buggy_lines = buggy.splitlines()
    oracle_lines = oracle.splitlines()
    code_b = [i for i, line in enumerate(buggy_lines) if line.strip()]
    code_o = [i for i, line in enumerate(oracle_lines) if line.strip()]
    keys_b = [_line_key(buggy_lines[i], language) for i in code_b]
    keys_o = [_line_key(oracle_lines[i], language) for i in code_o]
    hunks = [op for op in difflib.SequenceMatcher(a=keys_b, b=keys_o, autojunk=False).get_opcodes() if op[0] != "equal"]
    if len(hunks) != 1:
        return None
    _, i1, i2, _, _ = hunks[0]
    if not 1 <= i2 - i1 <= 3:
        return None
    indexes = [code_b[i] for i in range(i1, i2)]
    lines = [buggy_lines[i].rstrip() for i in indexes]
    if not any(_eligible(line) for line in lines):
        return None
    stripped = [line.strip() for line in lines]
    oracle_code_lines = [line.rstrip() for line in oracle_lines if line.strip()]
    if not _contains_run([line.strip() for line in oracle_code_lines], stripped):
        return "\n".join(stripped), indexes
    # only the layout differs (an indentation bug): the snippet keeps its indentation, which must be unique
    if language != "python" or _contains_run(oracle_code_lines, lines):
        return None
    indent = min(len(line) - len(line.lstrip()) for line in lines) if len(lines) > 1 else 0
    snippet = "\n".join(line[indent:] for line in lines)
    return snippet, indexes


def _contains_run(haystack: list[str], needle: list[str]) -> bool:
    size = len(needle)
    return any(haystack[i : i + size] == needle for i in range(len(haystack) - size + 1))


def localization_options(item: DebugBenchItem, rng: random.Random, answer: str) -> LocalizationOptions | None:
    """Gold snippet plus three distractor lines placed around letter ``answer``; None when the item is unusable."""
    found = golden_snippet(item.buggy_code, item.oracle_code, item.language)
    if found is None:
        return None
    snippet, indexes = found
    oracle_keys = {" ".join(line.split()) for line in item.oracle_code.splitlines()}
    seen = {" ".join(snippet.split())}
    pool: list[str] = []
    for index, line in enumerate(item.buggy_code.splitlines()):
        text = line.strip()
        key = " ".join(text.split())
        if not _eligible(line) or min(abs(index - i) for i in indexes) < 2:
            continue
        if key in seen or key not in oracle_keys:
            continue
        seen.add(key)
        pool.append(text)
    if len(pool) < 3:
        return None
    distractors = rng.sample(pool, 3)
    position = OPTION_LETTERS.index(answer)
    snippets = [*distractors[:position], snippet, *distractors[position:]]
    return LocalizationOptions(snippets=snippets, answer=f"({answer})")


def balanced_letters(count: int, rng: random.Random) -> list[str]:
    """``count`` answer letters with A-D as even as possible, in random order."""
    letters = [OPTION_LETTERS[i % 4] for i in range(count)]
    rng.shuffle(letters)
    return letters


# ---------------------------------------------------------------------------------------------------------------
# The build.


def _record(item: DebugBenchItem, split: str) -> DebugEvalRecord:
    return DebugEvalRecord(
        question_id=item.uid,
        platform="leetcode",
        language=item.language,
        question_content=item.question_content,
        buggy_code=item.buggy_code,
        correct_code=item.oracle_code,
        major_error_type=item.major_type,
        source="debugbench",
        slug=item.slug,
        minor_error_type=item.minor_type,
        examples=item.examples,
        split=split,  # type: ignore[arg-type]
    )


def _count(report: BuildReport, task: str, language: str) -> None:
    report.counts.setdefault(task, {}).setdefault(language, 0)
    report.counts[task][language] += 1


def build_from_debugbench(
    items: Iterable[DebugBenchItem], settings: BuildSettings | None = None
) -> tuple[list[DebugEvalRecord], list[DebugEvalRecord], BuildReport]:
    """(task-124 records, task-3 records, report) built from a DebugBench pool."""
    settings = settings or BuildSettings()
    started = time.perf_counter()
    report = BuildReport()
    unique: dict[str, DebugBenchItem] = {}
    for item in items:
        unique.setdefault(item.uid, item)
    pool = [unique[uid] for uid in sorted(unique)]
    records: dict[str, DebugEvalRecord] = {}
    seed = settings.seed

    def record_for(item: DebugBenchItem) -> DebugEvalRecord:
        if item.uid not in records:
            records[item.uid] = _record(item, split_of(item.slug, seed, settings.train_fraction))
        return records[item.uid]

    by_language: dict[str, list[DebugBenchItem]] = defaultdict(list)
    for item in pool:
        by_language[item.language].append(item)

    for language in sorted(by_language):
        items_here = by_language[language]
        by_major: dict[str, list[DebugBenchItem]] = defaultdict(list)
        for item in items_here:
            by_major[item.major_type].append(item)

        # Bug Identification: every category down to the smallest one's size
        if len(by_major) == len(CHOICE_BY_MAJOR):
            smallest = min(len(group) for group in by_major.values())
            for major in sorted(by_major):
                for item in stratified_sample(by_major[major], smallest, _rng(seed, language, "identification", major)):
                    record_for(item).task2_choice = CHOICE_BY_MAJOR[major]
                    _count(report, "bug-identification", language)
        else:
            report.drop(f"bug-identification {language}: not all four categories present")

        # Code Review: buggy and correct must really differ
        for major in sorted(by_major):
            usable = [
                i for i in by_major[major] if i.oracle_code and _normalized(i.oracle_code) != _normalized(i.buggy_code)
            ]
            report.drop("code-review: buggy equals correct", len(by_major[major]) - len(usable))
            rng = _rng(seed, language, "review", major)
            for item in stratified_sample(usable, settings.review_per_category, rng):
                record_for(item).task4 = "True"
                _count(report, "code-review", language)

        # Bug Localization: single-error types, up to N usable items each
        chosen: list[DebugBenchItem] = []
        by_minor: dict[str, list[DebugBenchItem]] = defaultdict(list)
        for item in items_here:
            if item.major_type != "multiple error":
                by_minor[item.minor_type].append(item)
        for minor in sorted(by_minor):
            group = list(by_minor[minor])
            _rng(seed, language, "localization", minor).shuffle(group)
            usable = [i for i in group if golden_snippet(i.buggy_code, i.oracle_code, i.language) is not None]
            report.drop("bug-localization: no single short diff hunk", len(group) - len(usable))
            chosen.extend(usable[: settings.localization_per_type])
        letters = balanced_letters(len(chosen), _rng(seed, language, "letters"))
        for item, letter in zip(chosen, letters):
            options = localization_options(item, _rng(seed, item.uid, "distractors"), letter)
            if options is None:
                report.drop("bug-localization: fewer than three distractor lines")
                continue
            record = record_for(item)
            record.task1_option_texts = options.snippets
            record.task1_options = render_options(options.snippets)
            record.task1_answer = options.answer
            _count(report, "bug-localization", language)

    repair_records = _build_repairs(pool, settings, report)
    task124 = [records[uid] for uid in sorted(records)]
    report.seconds = time.perf_counter() - started
    return task124, repair_records, report


def _build_repairs(pool: list[DebugBenchItem], settings: BuildSettings, report: BuildReport) -> list[DebugEvalRecord]:
    by_problem: dict[tuple[str, str], list[DebugBenchItem]] = defaultdict(list)
    for item in pool:
        if item.language in settings.repair_languages and item.examples and item.oracle_code:
            by_problem[(item.language, item.slug)].append(item)
    problems = sorted(by_problem)

    def one(key: tuple[str, str]) -> DebugEvalRecord | str:
        candidates = list(by_problem[key])
        _rng(settings.seed, *key, "repair").shuffle(candidates)
        extra = settings.repair_extra_tests if key[0] == "python" else settings.compiled_repair_extra_tests
        tests = problem_tests(candidates[0], extra=extra, seed=settings.seed)
        if tests is None:
            return "code-repair: no deterministic oracle tests"
        for item in candidates[:4]:
            if fails_tests(item.buggy_code, tests):
                record = _record(item, split_of(item.slug, settings.seed, settings.train_fraction))
                return record.model_copy(
                    update={"tests_kind": "leetcode", "leetcode_calls": tests.calls, "method": tests.method}
                )
        return "code-repair: buggy variants pass every derived test"

    results: list[DebugEvalRecord | str] = []
    with progress("deriving repair tests", len(problems)) as bar, ThreadPoolExecutor(settings.workers) as threads:
        for result in threads.map(one, problems):
            results.append(result)
            bar.advance()
    records = []
    for result in results:
        if isinstance(result, str):
            report.drop(result)
        else:
            records.append(result)
            _count(report, "code-repair", result.language)
    return records


def write_build(out: Path, task124: list[DebugEvalRecord], task3: list[DebugEvalRecord], report: BuildReport) -> None:
    """Write the two record files DebugEval uses into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    write_records(out / TASK124_FILE, task124)
    write_records(out / TASK3_FILE, task3)
    report.files = [str(out / TASK124_FILE), str(out / TASK3_FILE)]
