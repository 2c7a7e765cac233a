"""The public judge: grade LeetCode solutions written elsewhere with the tests Code Repair uses.

Each prediction names a DebugBench problem (``slug``, ``language``) and carries a program (``code``). The judge
derives the problem's tests once (:func:`debugtutor.debugeval.problem_tests.derive_problem_tests`, the same
derivation and settings Code Repair uses), optionally keeps them in a cache folder (one JSON file per problem, keyed by
everything the derivation reads and its version, so a changed derivation never reuses stale tests), and grades every
program in the sandbox. A verdict is ``pass``, ``fail`` or ``ungradable`` (the problem is unknown, or no tests could
be derived for it), always with a one-line reason.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ValidationError, field_validator

from debugtutor.debugeval.build import BuildSettings
from debugtutor.debugeval.problem_tests import (
    Grade,
    Problem,
    ProblemTests,
    TestsCache,
    grade,
)
from debugtutor.debugeval.records import LanguageName, normalize_language
from debugtutor.errors import InputError
from debugtutor.formats.jsonl import read_jsonl

Verdict = Literal["pass", "fail", "ungradable"]


class Prediction(BaseModel):
    """One program to grade: an id of the caller's choosing, the problem it solves and its code."""

    id: str
    slug: str
    language: LanguageName
    code: str

    @field_validator("language", mode="before")
    @classmethod
    def _language(cls, value: Any) -> Any:
        return normalize_language(value) if isinstance(value, str) else value

    @field_validator("id", mode="before")
    @classmethod
    def _id(cls, value: Any) -> Any:
        return str(value) if isinstance(value, int) else value


class JudgeResult(BaseModel):
    """The verdict on one prediction."""

    id: str
    slug: str
    language: LanguageName
    verdict: Verdict
    reason: str


def read_predictions(path: Path) -> list[Prediction]:
    """Every line of a predictions JSONL file, or :class:`InputError` naming the file, line and field."""
    if not path.is_file():
        raise InputError("no such file", path=str(path))
    predictions = []
    for number, value in read_jsonl(path):
        try:
            predictions.append(Prediction.model_validate(value))
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(part) for part in first["loc"]) or None
            raise InputError(str(first["msg"]), path=str(path), line=number, field=field) from exc
    seen: set[str] = set()
    for prediction in predictions:
        if prediction.id in seen:
            raise InputError(f"id {prediction.id!r} occurs twice", path=str(path), field="id")
        seen.add(prediction.id)
    return predictions


def _result(prediction: Prediction, verdict: Verdict, reason: str) -> JudgeResult:
    return JudgeResult(
        id=prediction.id, slug=prediction.slug, language=prediction.language, verdict=verdict, reason=reason
    )


def verdict_of(graded: Grade) -> Verdict:
    return "ungradable" if graded.passed is None else "pass" if graded.passed else "fail"


def judge(
    predictions: Sequence[Prediction],
    problems: dict[tuple[str, str], Problem],
    *,
    cache: TestsCache | None = None,
    settings: BuildSettings | None = None,
    workers: int = 2,
    on_result: Callable[[JudgeResult, Grade | None], None] | None = None,
) -> list[JudgeResult]:
    """A verdict for every prediction, in input order; each problem's tests are derived once."""
    settings = settings or BuildSettings()
    cache = cache or TestsCache()
    by_problem: dict[tuple[str, str], list[int]] = defaultdict(list)
    for position, prediction in enumerate(predictions):
        by_problem[(prediction.language, prediction.slug)].append(position)
    results: list[JudgeResult | None] = [None] * len(predictions)

    def one_problem(key: tuple[str, str]) -> None:
        problem = problems.get(key)
        tests: ProblemTests | None = None
        reason = f"no {key[0]} problem {key[1]!r} in the data"
        if problem is not None:
            tests, reason = cache.get(
                problem, extra=settings.repair_extra_tests, compiled_extra=settings.compiled_repair_extra_tests,
                seed=settings.seed,
            )  # fmt: skip
        for position in by_problem[key]:
            prediction = predictions[position]
            graded: Grade | None = None
            if tests is None:
                result = _result(prediction, "ungradable", reason)
            else:
                graded = grade(prediction.code, tests)
                result = _result(prediction, verdict_of(graded), graded.reason)
            results[position] = result
            if on_result is not None:
                on_result(result, graded)

    with ThreadPoolExecutor(max(1, workers)) as threads:
        list(threads.map(one_problem, sorted(by_problem)))
    return [result for result in results if result is not None]


def summarize_verdicts(results: Sequence[JudgeResult]) -> dict[str, Any]:
    """Counts of each verdict, overall and per language."""
    overall: Counter[str] = Counter(result.verdict for result in results)
    per_language: dict[str, Counter[str]] = defaultdict(Counter)
    for result in results:
        per_language[result.language][result.verdict] += 1
    names = ("pass", "fail", "ungradable")
    return {
        "counts": {name: overall.get(name, 0) for name in names},
        "per_language": {
            language: {name: counts.get(name, 0) for name in names} for language, counts in sorted(per_language.items())
        },
        "predictions": len(results),
    }


def wilson(successes: int, total: int, z: float = 1.96) -> list[float]:
    """95% Wilson interval of a proportion, in percent."""
    if total == 0:
        return [0.0, 0.0]
    p = successes / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return [round(100 * (centre - half), 2), round(100 * (centre + half), 2)]


def agreement_figures(pairs: list[tuple[bool, str]]) -> dict[str, Any]:
    """(reference verdict passed, our verdict) pairs -> agreement on the gradable ones, false-fail rate (of the
    reference's passes, the share we fail), false-pass rate (of its failures, the share we pass) and the share we
    could not grade; percentages, with counts and a 95% interval for the agreement."""
    gradable = [(truth, ours == "pass") for truth, ours in pairs if ours != "ungradable"]
    agree = sum(1 for truth, ours in gradable if truth == ours)
    accepted = [ours for truth, ours in gradable if truth]
    rejected = [ours for truth, ours in gradable if not truth]

    def percent(part: int, whole: int) -> float:
        return round(100.0 * part / whole, 2) if whole else 0.0

    return {
        "fixes": len(pairs),
        "gradable": len(gradable),
        "agreement": percent(agree, len(gradable)),
        "agreement_ci95": wilson(agree, len(gradable)),
        "false_fail_rate": percent(sum(1 for ours in accepted if not ours), len(accepted)),
        "false_pass_rate": percent(sum(1 for ours in rejected if ours), len(rejected)),
        "ungradable_share": percent(len(pairs) - len(gradable), len(pairs)),
    }
