"""The MASTER pipeline as a run: each item is one quiz slot (a task, a language, a source program and a slot number)
that goes Quizzer -> checks -> Learner -> Teacher, recorded by the runner (resumable, cached, concurrent, reported).

An item's output is a :class:`~debugtutor.master.records.SynthOutcome`: ``rejected`` (with the check that failed),
``learner-correct`` (verified, but the learner solved it, so the paper drops it), ``teacher-disagreed`` (the
teacher's final answer did not match the verified one) or ``kept``. Its scores feed the run summary: the share of
problems that pass verification, the rejection reasons, the learner's accuracy and the teacher's agreement, per task
and language. :mod:`debugtutor.master.sft` then turns the kept problems into training data.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from debugtutor.master.learner import Learner
from debugtutor.master.quizzer import LLMQuizzer, OfflineQuizzer, Quizzer, Rejection
from debugtutor.master.records import LanguageName, SourceProgram, SynthOutcome, TaskName
from debugtutor.master.teacher import LLMTeacher, OfflineTeacher
from debugtutor.runs import SAMPLES_FILE, EvalItem, EvalTask, SampleRecord, SolverOutput, read_samples

TASK_NAME = "master-synth"


def plan_items(
    programs: Sequence[SourceProgram], tasks: Sequence[TaskName], languages: Sequence[LanguageName], n: int, seed: int
) -> tuple[list[EvalItem], list[str]]:
    """``n`` quiz slots per task and language, each on a source program of that language (cycled in a seeded order),
    and the (task, language) pairs that have no source program at all."""
    by_language: dict[str, list[SourceProgram]] = defaultdict(list)
    for program in programs:
        by_language[program.language].append(program)
    items: list[EvalItem] = []
    missing: list[str] = []
    for language in languages:
        pool = sorted(by_language.get(language, []), key=lambda p: p.id)
        for task in tasks:
            if not pool:
                missing.append(f"{task}/{language}")
                continue
            order = list(pool)
            random.Random(f"{seed}:{task}:{language}").shuffle(order)
            for slot in range(n):
                program = order[slot % len(order)]
                items.append(
                    EvalItem(
                        id=f"{task}-{language}-{slot:05d}",
                        input={"task": task, "slot": slot, "program": program.model_dump(mode="json")},
                        metadata={"task": task, "language": language, "slug": program.slug, "origin": program.origin},
                    )
                )
    return items, missing


class SynthSolver:
    """Quizzer -> checks -> Learner -> Teacher for one slot."""

    def __init__(self, quizzer: Quizzer, learner: Learner, teacher: OfflineTeacher | LLMTeacher) -> None:
        self.quizzer = quizzer
        self.learner = learner
        self.teacher = teacher

    async def __call__(self, item: EvalItem) -> SolverOutput:
        program = SourceProgram.model_validate(item.input["program"])
        task: TaskName = item.input["task"]
        usage: Counter[str] = Counter()
        problem = await self.quizzer.quiz(program, task, int(item.input["slot"]), usage)
        where: dict[str, Any] = {"task": task, "language": program.language}
        if isinstance(problem, Rejection):
            reason = problem.reason + (f": {problem.detail}" if problem.detail else "")
            outcome = SynthOutcome(status="rejected", reason=reason, **where)
            return SolverOutput(output=outcome.model_dump(mode="json"), usage=dict(usage))
        attempts, spent = await self.learner.attempt(problem)
        usage.update(spent)
        if all(attempt.correct for attempt in attempts):
            outcome = SynthOutcome(status="learner-correct", problem=problem, attempts=attempts, **where)
            return SolverOutput(output=outcome.model_dump(mode="json"), usage=dict(usage))
        solution, spent = await self.teacher.solve(problem)
        usage.update({f"teacher_{key}": value for key, value in spent.items()})
        outcome = SynthOutcome(status="kept" if solution.agrees else "teacher-disagreed", problem=problem,
                               attempts=attempts, solution=solution, **where)  # fmt: skip
        return SolverOutput(output=outcome.model_dump(mode="json"), usage=dict(usage))


def score_outcome(item: EvalItem, output: Any) -> dict[str, float | bool | str]:
    outcome = SynthOutcome.model_validate(output)
    scores: dict[str, float | bool | str] = {"status": outcome.status, "verified": outcome.status != "rejected"}
    if outcome.status == "rejected":
        scores["rejection"] = outcome.reason.split(":", 1)[0]
        return scores
    scores["learner_accuracy"] = sum(a.correct for a in outcome.attempts) / max(len(outcome.attempts), 1)
    scores["kept"] = outcome.status == "kept"
    if outcome.solution is not None:
        scores["teacher_agrees"] = outcome.solution.agrees
    return scores


def _rate(numerator: int, denominator: int) -> float | None:
    return round(numerator / denominator, 4) if denominator else None


def summarize_synth(records: list[SampleRecord]) -> dict[str, Any]:
    """Verification and keep rates per task and language, rejections per reason, learner and teacher figures."""
    cells: dict[str, Counter[str]] = defaultdict(Counter)
    reasons: Counter[str] = Counter()
    reasons_by_task: dict[str, Counter[str]] = defaultdict(Counter)
    for record in records:
        if record.error is not None or record.output is None:
            continue
        outcome = SynthOutcome.model_validate(record.output)
        key = f"{outcome.task}/{outcome.language}"
        cell = cells[key]
        cell["quizzed"] += 1
        cell[outcome.status] += 1
        if outcome.status == "rejected":
            reason = outcome.reason.split(":", 1)[0]
            reasons[reason] += 1
            reasons_by_task[outcome.task][reason] += 1
        else:
            cell["verified"] += 1
            cell["attempts"] += len(outcome.attempts)
            cell["attempts_correct"] += sum(a.correct for a in outcome.attempts)
    per_cell = {}
    for key in sorted(cells):
        cell = cells[key]
        per_cell[key] = {
            "quizzed": cell["quizzed"],
            "verified": cell["verified"],
            "verification_rate": _rate(cell["verified"], cell["quizzed"]),
            "learner_accuracy": _rate(cell["attempts_correct"], cell["attempts"]),
            "learner_correct": cell["learner-correct"],
            "teacher_disagreed": cell["teacher-disagreed"],
            "kept": cell["kept"],
        }
    total = sum(cell["quizzed"] for cell in cells.values())
    verified = sum(cell["verified"] for cell in cells.values())
    return {
        "quizzed": total,
        "verified": verified,
        "verification_rate": _rate(verified, total),
        "kept": sum(cell["kept"] for cell in cells.values()),
        "rejections": dict(reasons.most_common()),
        "rejection_rates": {reason: _rate(count, total) for reason, count in reasons.most_common()},
        "rejections_by_task": {task: dict(counter.most_common()) for task, counter in sorted(reasons_by_task.items())},
        "per_task_language": per_cell,
    }


def latest_records(run_dir: Path) -> list[SampleRecord]:
    """The newest record of each item of a run (a resumed run appends a new line for an item it redid)."""
    latest: dict[str, SampleRecord] = {}
    for record in read_samples(run_dir / SAMPLES_FILE).records:
        latest[record.id] = record
    return list(latest.values())


def make_synth_task(
    items: list[EvalItem],
    *,
    quizzer: OfflineQuizzer | LLMQuizzer,
    learner: Learner,
    teacher: OfflineTeacher | LLMTeacher,
    config: dict[str, Any],
    checksums: dict[str, str],
) -> EvalTask:
    return EvalTask(
        name=TASK_NAME,
        items=items,
        solver=SynthSolver(quizzer, learner, teacher),
        scorer=score_outcome,
        version="1",
        summarize=summarize_synth,
        config=config,
        dataset_checksums=checksums,
        model_spec=learner.model.spec,
        executor="inline",
    )
