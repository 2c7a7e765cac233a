"""Building DebugEval-style instances from DebugBench (all four tasks) and from the Socratic benchmark (Code Repair).

The rules follow the DebugEval paper's construction (``../reference/debugeval-format.md`` B3/B4):

* **Bug Localization**: single-error items only, up to ``localization_per_type`` per minor type and language. The
  golden option is the buggy side of the buggy-vs-oracle diff (one hunk of 1-3 code lines, not a brace or comment);
  the three distractors are other runs of as many lines of the buggy code that the oracle also has, at least two
  lines away from the hunk. Options are indistinguishable by form: every option has the gold's line count, every
  line is written with the same spacing (:func:`~debugtutor.debugeval.records.option_text`: no indentation, a space
  only between two words), and the number of distractors shorter than the gold is drawn uniformly among items where
  every rank is possible, so neither length nor layout tells the gold. Gold letters are dealt out evenly and shuffled.
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
from debugtutor.debugeval.problem_tests import TestsCache, code_language, fails_tests, problems_from
from debugtutor.debugeval.records import (
    CHOICE_BY_MAJOR,
    OPTION_LETTERS,
    TASK3_FILE,
    TASK124_FILE,
    DebugEvalRecord,
    LanguageName,
    option_text,
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
    tests_cache: Path | None = None
    """A folder keeping each problem's derived tests: a build stopped part way (Ctrl-C, kill) and started again with
    the same folder derives only the problems it had not finished."""


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
_COMMENT = re.compile(r"^\s*(#|//|/\*|\*|\"\"\"|\'\'\')")
# lines a bug almost never sits on (a class header, an import, an access label): as distractors they would be ruled
# out at a glance, leaving the gold among fewer real options
_SCAFFOLD = re.compile(
    r"^\s*(?:(?:public|private|protected|final|abstract|static)\s+)*(?:class|struct|interface)\b"
    r"|^\s*(?:import|from|package|using|#include)\b|^\s*(?:public|private|protected)\s*:\s*$"
)


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
    """The gold snippet and three distractors for one buggy program, before the gold is placed at its letter."""

    gold: str
    distractors: list[str]

    def placed(self, letter: str) -> list[str]:
        """The four snippets in letter order with the gold at ``letter``."""
        position = OPTION_LETTERS.index(letter)
        return [*self.distractors[:position], self.gold, *self.distractors[position:]]


def golden_snippet(buggy: str, oracle: str, language: LanguageName) -> tuple[str, list[int]] | None:
    """The buggy side of the only diff hunk (1-3 code lines, whitespace-normalised) and its 0-based line indexes.

    None when there is not exactly one such hunk, or when the snippet's text does not point at one place in the
    buggy code (an indentation bug is shown as the line's text, like every option; the program shows the layout)."""
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
    lines = [option_text(buggy_lines[i]) for i in indexes]
    if not any(_eligible(line) for line in lines):
        return None
    if _count_runs([option_text(buggy_lines[i]) for i in code_b], lines) != 1:
        return None
    if _count_runs([option_text(oracle_lines[i]) for i in code_o], lines) and language != "python":
        return None  # only Python's layout is syntax: elsewhere the same text in the oracle means no visible bug
    return "\n".join(lines), indexes


def _count_runs(haystack: list[str], needle: list[str]) -> int:
    size = len(needle)
    return sum(1 for i in range(len(haystack) - size + 1) if haystack[i : i + size] == needle)


def _distractor_pool(item: DebugBenchItem, indexes: list[int], size: int, gold: str) -> list[str]:
    """Runs of ``size`` consecutive code lines of the buggy program that the oracle has too (as a run), at least two
    lines away from the bug, starting with a statement, each pointing at one place, all different."""
    buggy_lines = item.buggy_code.splitlines()
    code = [i for i, line in enumerate(buggy_lines) if line.strip()]
    texts = [option_text(buggy_lines[i]) for i in code]
    oracle_texts = [option_text(line) for line in item.oracle_code.splitlines() if line.strip()]
    pool: list[str] = []
    seen = {gold}
    for start in range(len(code) - size + 1):
        run = code[start : start + size]
        lines = texts[start : start + size]
        if min(abs(index - i) for index in run for i in indexes) < 2:
            continue
        if not _eligible(lines[0]) or any(_COMMENT.match(line) or _SCAFFOLD.match(line) for line in lines):
            continue
        text = "\n".join(lines)
        if text in seen or _count_runs(texts, lines) != 1 or not _count_runs(oracle_texts, lines):
            continue
        seen.add(text)
        pool.append(text)
    return pool


def localization_options(item: DebugBenchItem, rng: random.Random) -> LocalizationOptions | None:
    """Gold snippet plus three distractors of the same line count whose lengths hide the gold; None when unusable.

    The number of distractors shorter than the gold is drawn uniformly from 0-3 and each side takes, at random, among
    the runs nearest in shape (as many words, then the closest length). Only items with at least three candidates on
    each side are used, so the drawn rank is possible whatever the gold's length: the gold's length rank is uniform
    and independent of the item, and a guesser reading lengths is at chance."""
    found = golden_snippet(item.buggy_code, item.oracle_code, item.language)
    if found is None:
        return None
    gold, indexes = found
    pool = _distractor_pool(item, indexes, gold.count("\n") + 1, gold)

    # nearest first: the same number of words (spaces in the option's spacing), then the closest length
    def distance(text: str) -> tuple[int, int]:
        return abs(text.count(" ") - gold.count(" ")), abs(len(text) - len(gold))

    shorter = sorted((text for text in pool if len(text) < len(gold)), key=distance)
    longer = sorted((text for text in pool if len(text) > len(gold)), key=distance)
    same = [text for text in pool if len(text) == len(gold)]
    rng.shuffle(same)
    # a run of the gold's own length may stand on either side (a length guesser cannot tell it apart)
    while same and (len(shorter) < 3 or len(longer) < 3):
        (shorter if len(shorter) <= len(longer) else longer).insert(0, same.pop())
    if len(shorter) < 3 or len(longer) < 3:
        # only items where every rank is possible: the drawn rank must not depend on the gold's length
        return None
    shorter_count = rng.randrange(4)
    chosen = _nearest_at_random(shorter, shorter_count, rng) + _nearest_at_random(longer, 3 - shorter_count, rng)
    rng.shuffle(chosen)
    return LocalizationOptions(gold=gold, distractors=chosen)


def _nearest_at_random(candidates: list[str], count: int, rng: random.Random) -> list[str]:
    """``count`` of the candidates (sorted nearest first), drawn among the nearest ``2 * count`` or so."""
    return rng.sample(candidates[: max(count, 2 * count)], count) if count else []


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


def _localization_items(
    items: list[DebugBenchItem], language: str, settings: BuildSettings, report: BuildReport
) -> list[tuple[DebugBenchItem, LocalizationOptions]]:
    """Up to ``localization_per_type`` single-error items per minor type whose options can be built."""
    chosen: list[tuple[DebugBenchItem, LocalizationOptions]] = []
    by_minor: dict[str, list[DebugBenchItem]] = defaultdict(list)
    for item in items:
        if item.major_type != "multiple error":
            by_minor[item.minor_type].append(item)
    for minor in sorted(by_minor):
        group = list(by_minor[minor])
        _rng(settings.seed, language, "localization", minor).shuffle(group)
        taken = 0
        for item in group:
            if taken >= settings.localization_per_type:
                break
            if golden_snippet(item.buggy_code, item.oracle_code, item.language) is None:
                report.drop("bug-localization: no single short diff hunk pointing at one place")
                continue
            options = localization_options(item, _rng(settings.seed, item.uid, "distractors"))
            if options is None:
                report.drop("bug-localization: no distractors of the gold's line count and drawn length side")
                continue
            chosen.append((item, options))
            taken += 1
    return chosen


def build_from_debugbench(
    items: Iterable[DebugBenchItem], settings: BuildSettings | None = None
) -> tuple[list[DebugEvalRecord], list[DebugEvalRecord], BuildReport]:
    """(task-124 records, task-3 records, report) built from a DebugBench pool."""
    settings = settings or BuildSettings()
    started = time.perf_counter()
    report = BuildReport()
    unique: dict[str, DebugBenchItem] = {}
    for item in items:
        written_in = code_language(item.oracle_code)
        if written_in is not None and written_in != item.language:
            report.drop("the item's correct code is in another language")  # e.g. Python code filed as Java
            continue
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
        chosen = _localization_items(items_here, language, settings, report)
        letters = balanced_letters(len(chosen), _rng(seed, language, "letters"))
        for (item, options), letter in zip(chosen, letters):
            record = record_for(item)
            record.task1_option_texts = options.placed(letter)
            record.task1_options = render_options(record.task1_option_texts)
            record.task1_answer = f"({letter})"
            _count(report, "bug-localization", language)

    repair_records = _build_repairs(pool, settings, report)
    task124 = [records[uid] for uid in sorted(records)]
    report.seconds = time.perf_counter() - started
    return task124, repair_records, report


def _build_repairs(pool: list[DebugBenchItem], settings: BuildSettings, report: BuildReport) -> list[DebugEvalRecord]:
    by_problem: dict[tuple[str, str], list[DebugBenchItem]] = defaultdict(list)
    for item in pool:
        if item.language not in settings.repair_languages:
            continue
        if not item.examples:
            report.drop("code-repair: the problem statement has no examples to derive tests from")
            continue
        by_problem[(item.language, item.slug)].append(item)
    problems = sorted(by_problem)
    sources = problems_from(pool)  # every oracle of a slug, in any language, can give the expected answers
    cache = TestsCache(settings.tests_cache)

    def one(key: tuple[str, str]) -> DebugEvalRecord | str:
        candidates = list(by_problem[key])
        _rng(settings.seed, *key, "repair").shuffle(candidates)
        tests, _ = cache.get(
            sources[key], extra=settings.repair_extra_tests, compiled_extra=settings.compiled_repair_extra_tests,
            seed=settings.seed,
        )  # fmt: skip
        if tests is None:
            return "code-repair: no deterministic oracle tests"
        if tests.spec.several_answers:
            return "code-repair: the problem accepts several answers (no checker)"
        for item in candidates[:4]:
            if fails_tests(item.buggy_code, tests):
                record = _record(item, split_of(item.slug, settings.seed, settings.train_fraction))
                return record.model_copy(
                    update={
                        "tests_kind": "leetcode", "leetcode_calls": tests.calls, "method": tests.method,
                        # a measured time differs from run to run: instances keep the fixed floor per call, so the
                        # same data and seed still give byte-identical files (the judge scales with the oracle)
                        "call_spec": tests.spec.model_copy(update={"reference_s": 0.0}),
                    }
                )  # fmt: skip
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
