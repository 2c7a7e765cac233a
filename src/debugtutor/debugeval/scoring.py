"""Scoring as DebugEval scores: accuracy with the single-answer rule, Code Review correct only when both orders are
right, Code Repair pass@k (unbiased estimator) from running every repaired program in the sandbox.

The summary breaks accuracy down by task and language, and for Bug Identification adds per-class accuracy and the
distribution of the answers given, so a model that answers "logic error" to everything shows it.
"""

from __future__ import annotations

import asyncio
from collections import Counter, defaultdict
from collections.abc import Mapping
from typing import Any

from debugtutor.debugeval.problem_tests import (
    PER_TEST_TIMEOUT_S,
    REPAIR_LIMITS,
    Grade,
    failure_reason,
    grade,
    tests_of,
)
from debugtutor.debugeval.prompts import choice_correct, extract_choice, extract_code, extract_review, single_choice
from debugtutor.debugeval.records import TASKS, DebugEvalRecord, TaskName
from debugtutor.metrics import pass_at_k
from debugtutor.runs import EvalItem, SampleRecord
from debugtutor.sandbox import JudgeRequest, Limits, PythonTestsRequest, Status, arun

PASS_AT_K = (1, 5, 10)


async def repair_grade(record: DebugEvalRecord, program: str) -> Grade:
    """``program`` on every test of a Code Repair record (run in the sandbox), with a one-line reason.

    A program that cannot be run on the tests (a C++/Java method whose signature cannot be called, a class without
    the method) fails: the item stays in the denominator."""
    if record.tests_kind == "leetcode":
        return await asyncio.to_thread(grade, program, tests_of(record))
    if record.tests_kind == "asserts":
        request = PythonTestsRequest(
            code=program, tests=list(record.unit_tests), setup=record.test_setup,
            limits=REPAIR_LIMITS.model_copy(update={"per_test_s": PER_TEST_TIMEOUT_S}),
        )  # fmt: skip
        report = await arun(request)
        passed = report.status == Status.passed
        return Grade(passed, f"passed {len(report.tests)} tests" if passed else failure_reason(report), report)
    if record.tests_kind == "stdio" and record.private_test_cases:
        for index, case in enumerate(record.private_test_cases, start=1):
            # DebugEval's judge compares tokens, decimals with an absolute tolerance of 1e-4
            outcome = await arun(
                JudgeRequest(
                    source=program, lang=record.language, stdin=case.input, expected_stdout=case.output,
                    float_tol=1e-4, limits=Limits(wall_s=10.0),
                )
            )  # fmt: skip
            if outcome.status != Status.passed:
                return Grade(False, f"test {index}: {outcome.status.value}")
        return Grade(True, f"passed {len(record.private_test_cases)} tests")
    return Grade(False, "the record has no tests")


async def passes_tests(record: DebugEvalRecord, program: str) -> bool:
    """Whether ``program`` passes every test of a Code Repair record (an undecided grade is not a pass)."""
    return (await repair_grade(record, program)).passed is True


def record_of(item: EvalItem) -> DebugEvalRecord:
    return DebugEvalRecord.model_validate(item.input["record"])


def task_of(item: EvalItem) -> TaskName:
    return item.input["task"]


async def score_item(item: EvalItem, output: dict[str, Any]) -> dict[str, float | int | bool | str]:
    """Scores of one answered item; ``score`` is accuracy (0/1) or pass@1."""
    task, record = task_of(item), record_of(item)
    base: dict[str, float | int | bool | str] = {"task": task, "language": record.language}
    if task in ("bug-localization", "bug-identification"):
        gold = str(item.target)
        response = output.get("prefill", "") + (output["responses"][0] if output.get("responses") else "")
        correct = choice_correct(response, gold)
        predicted = single_choice(extract_choice(response)) or "invalid"
        base.update({"score": float(correct), "predicted": predicted, "gold": gold})
        if record.major_error_type:
            base["major"] = record.major_error_type
        return base
    if task == "code-review":
        forward, reverse = _review_answer(output["forward"]), _review_answer(output["reverse"])
        forward_ok, reverse_ok = "Code-A" in forward, "Code-B" in reverse
        base.update({"score": float(forward_ok and reverse_ok), "forward": forward_ok, "reverse": reverse_ok})
        if record.major_error_type:
            base["major"] = record.major_error_type
        return base
    prefill = output.get("prefill", "")
    programs = [extract_code(prefill + response) for response in output.get("responses", [])]
    grades = [await repair_grade(record, program) for program in programs]
    n, c = len(grades), sum(graded.passed is True for graded in grades)
    base.update({"n": n, "c": c, "score": pass_at_k(n, c, 1) if n else 0.0})
    if grades:
        base["reason"] = grades[0].reason[:300]  # why the first sample passed or failed, for auditing
    for k in PASS_AT_K[1:]:
        if n >= k:
            base[f"pass@{k}"] = pass_at_k(n, c, k)
    return base


def _review_answer(order: dict[str, Any]) -> str:
    responses = order.get("responses") or []
    return extract_review(responses[0], prefill=order.get("prefill", "")) if responses else ""


def _percent(values: list[float]) -> float:
    return round(100.0 * sum(values) / len(values), 2) if values else 0.0


def summarize(records: list[SampleRecord], languages: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Per task and language: accuracy (percent) or pass@k; identification per class and answer distribution.

    Every item counts: one that errored (its solver or scorer raised) scores 0 in its task and language (found in
    ``languages``, item id -> language; "all" only when unknown) and is counted under ``errors``."""
    scores: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    per_class: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    answers: dict[str, Counter[str]] = defaultdict(Counter)
    orders: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    pass_k: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    errors: dict[str, Counter[str]] = defaultdict(Counter)
    for record in records:
        if record.error is not None or "task" not in record.scores:
            task = record.id.split(":", 1)[0]
            if task not in TASKS:
                continue
            language = (languages or {}).get(record.id)
            keys = (language, "all") if language else ("all",)
            for key in keys:
                scores[task][key].append(0.0)
                errors[task][key] += 1
                if task == "code-repair" and key != "all":
                    pass_k[key]["pass@1"].append(0.0)
            continue
        task, language = str(record.scores["task"]), str(record.scores["language"])
        value = float(record.scores.get("score", 0.0))
        for key in (language, "all"):
            scores[task][key].append(value)
        if task == "bug-identification":
            per_class[language][str(record.scores["gold"])].append(value)
            answers[language][str(record.scores["predicted"])] += 1
        elif task == "code-review":
            orders[language]["forward"].append(float(bool(record.scores["forward"])))
            orders[language]["reverse"].append(float(bool(record.scores["reverse"])))
        elif task == "code-repair":
            for name, number in record.scores.items():
                if name == "score":
                    pass_k[language]["pass@1"].append(float(number))
                elif name.startswith("pass@"):
                    pass_k[language][name].append(float(number))
    summary: dict[str, Any] = {
        "accuracy": {task: {key: _percent(values) for key, values in by.items()} for task, by in scores.items()},
        "items": {task: {key: len(values) for key, values in by.items()} for task, by in scores.items()},
        "errors": {task: dict(sorted(counts.items())) for task, counts in sorted(errors.items())},
    }
    if per_class:
        summary["identification"] = {
            language: {
                "per_class_accuracy": {gold: _percent(v) for gold, v in sorted(per_class[language].items())},
                "answer_distribution": dict(sorted(answers[language].items())),
            }
            for language in sorted(per_class)
        }
    if orders:
        summary["review_orders"] = {
            language: {name: _percent(values) for name, values in by.items()} for language, by in sorted(orders.items())
        }
    if pass_k:
        summary["pass_at_k"] = {
            language: {name: _percent(values) for name, values in by.items()} for language, by in sorted(pass_k.items())
        }
    return summary
