"""Scoring as DebugEval scores: accuracy with the single-answer rule, Code Review correct only when both orders are
right, Code Repair pass@k (unbiased estimator) from running every repaired program in the sandbox.

The summary breaks accuracy down by task and language, and for Bug Identification adds per-class accuracy and the
distribution of the answers given, so a model that answers "logic error" to everything shows it.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from debugtutor.debugeval.prompts import choice_correct, extract_choice, extract_code, extract_review, single_choice
from debugtutor.debugeval.records import DebugEvalRecord, TaskName
from debugtutor.metrics import pass_at_k
from debugtutor.runs import EvalItem, SampleRecord
from debugtutor.sandbox import Limits, Status, ajudge_program, arun_leetcode, arun_python_tests

REPAIR_LIMITS = Limits(wall_s=60.0, memory_mb=1024)
PER_TEST_TIMEOUT_S = 2.0
PASS_AT_K = (1, 5, 10)


async def passes_tests(record: DebugEvalRecord, program: str) -> bool:
    """Whether ``program`` passes every test of a Code Repair record (run in the sandbox)."""
    if record.tests_kind == "leetcode":
        report = await arun_leetcode(
            program, list(record.leetcode_calls), lang=record.language, method=record.method, limits=REPAIR_LIMITS,
            per_test_timeout_s=PER_TEST_TIMEOUT_S,
        )  # fmt: skip
        return report.status == Status.passed
    if record.tests_kind == "asserts":
        report = await arun_python_tests(
            program, list(record.unit_tests), setup=record.test_setup, limits=REPAIR_LIMITS,
            per_test_timeout_s=PER_TEST_TIMEOUT_S,
        )  # fmt: skip
        return report.status == Status.passed
    if record.tests_kind == "stdio" and record.private_test_cases:
        for case in record.private_test_cases:
            # DebugEval's judge compares tokens, decimals with an absolute tolerance of 1e-4
            outcome = await ajudge_program(
                program, lang=record.language, stdin=case.input, expected_stdout=case.output, float_tol=1e-4,
                limits=Limits(wall_s=10.0),
            )  # fmt: skip
            if outcome.status != Status.passed:
                return False
        return True
    return False


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
        response = output["responses"][0] if output.get("responses") else ""
        correct = choice_correct(response, gold)
        predicted = single_choice(extract_choice(response)) or "invalid"
        base.update({"score": float(correct), "predicted": predicted, "gold": gold})
        if record.major_error_type:
            base["major"] = record.major_error_type
        return base
    if task == "code-review":
        forward = extract_review(output["forward"]["responses"][0]) if output["forward"]["responses"] else ""
        reverse = extract_review(output["reverse"]["responses"][0]) if output["reverse"]["responses"] else ""
        forward_ok, reverse_ok = "Code-A" in forward, "Code-B" in reverse
        base.update({"score": float(forward_ok and reverse_ok), "forward": forward_ok, "reverse": reverse_ok})
        if record.major_error_type:
            base["major"] = record.major_error_type
        return base
    programs = [extract_code(response) for response in output.get("responses", [])]
    verdicts = [await passes_tests(record, program) for program in programs]
    n, c = len(verdicts), sum(verdicts)
    base.update({"n": n, "c": c, "score": pass_at_k(n, c, 1) if n else 0.0})
    for k in PASS_AT_K[1:]:
        if n >= k:
            base[f"pass@{k}"] = pass_at_k(n, c, k)
    return base


def _percent(values: list[float]) -> float:
    return round(100.0 * sum(values) / len(values), 2) if values else 0.0


def summarize(records: list[SampleRecord]) -> dict[str, Any]:
    """Per task and language: accuracy (percent) or pass@k; identification per class and answer distribution."""
    scores: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    per_class: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    answers: dict[str, Counter[str]] = defaultdict(Counter)
    orders: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    pass_k: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for record in records:
        if record.error is not None or "task" not in record.scores:
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
