"""Discriminative evaluation: leak-proof scoring, held-out tasks both ways, cross-validated tuning, significance.

Every instance is scored the same way (:func:`answer`): the scorer presents it as a
:class:`~debugtutor.studentsyn.questions.Question` (options under fresh opaque ids, freshly shuffled), the technique
answers with option ids, and only the scorer maps them back to positions and the label. A choice counts as right when
it is the answer or an option with the same program (identical codes do occur among options).

Three ways to score a technique:

- :func:`held_out_tasks` (the headline): every ordered pair of tasks of a family is a *direction* A -> B (the student
  observed on A, asked about B), the paper's direction (A = the family's reference task) and the swapped ones (the
  student observed on a task that was a target in the paper). A technique with settings gets, for A -> B, the setting
  that is best on the directions that neither observe on A nor ask about B. Reported per direction and per target
  task; the headline is the worst direction, not a mean.
- :func:`leave_one_target_out`: the paper's direction only, each target scored with the setting chosen on the other
  targets.
- :func:`evaluate_in_process` / :func:`evaluate_with_runner` (the task of :func:`build_eval_task`): the paper's
  protocol (rounds of freshly drawn instances, 10-fold cross-validation with the roles of the folds swapped as in its
  code). Between techniques, Tukey's HSD
  compares per-round accuracies and a chi-squared test compares pooled correct/incorrect counts.

Numbers from the paper's code stand beside a technique only for the same method (:func:`comparable_paper_numbers`):
the original SymSS beside ``symss-original``, RandD and the experts (TutorSS) beside everything.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, Field
from scipy import stats

from debugtutor.errors import InputError
from debugtutor.maze import Program
from debugtutor.runs import EvalItem, EvalTask, ReportWriter, run_task
from debugtutor.studentsyn.dataset import TaskFamily
from debugtutor.studentsyn.instances import (
    DEFAULT_SAMPLES,
    DiscriminativeInstance,
    build_instances,
    option_slots,
    present,
)
from debugtutor.studentsyn.questions import TaskSheet, brief_of, sheets_of
from debugtutor.studentsyn.techniques import DEFAULT_SETTING, DISPLAY_NAMES, Technique

DEFAULT_ROUNDS = 5
DEFAULT_FOLDS = 10
# The original code's accuracies on all three targets per reference task (hoc4c / hoc18c are held back from the
# shared copy, so these are never the same instances as ours): ../reference/studentsyn-format.md section 7.
PAPER_NUMBERS: dict[str, dict[str, float]] = {
    "hoc4": {"symss-original": 87.5, "randd": 9.9, "editd": 31.1, "tutorss": 89.8},
    "hoc18": {"symss-original": 66.9, "randd": 10.3, "editd": 46.9, "tutorss": 85.2},
}
PAPER_LABEL = "(paper, 3 targets)"


def comparable_paper_numbers(technique: str, reference: str) -> dict[str, float]:
    """The paper-code numbers that may stand beside ``technique``'s on ``reference``: its own (only when it is the
    same method), RandD's and the experts'. No other method is ever printed under another's name."""
    paper = PAPER_NUMBERS.get(reference, {})
    out: dict[str, float] = {}
    if technique in paper and technique != "tutorss":
        out[f"{DISPLAY_NAMES.get(technique, technique)} {PAPER_LABEL}"] = paper[technique]
    for baseline, label in (("randd", "RandD"), ("tutorss", "TutorSS (experts)")):
        if baseline in paper and baseline != technique:
            out[f"{label} {PAPER_LABEL}"] = paper[baseline]
    return out


def answer(
    technique: Technique, instance: DiscriminativeInstance, sheets: Mapping[str, TaskSheet], seed: int | str = 0
) -> dict[str, bool]:
    """Present ``instance`` to ``technique`` and say, per setting, whether its choice was right."""
    presented = present(instance, dict(sheets), seed=seed, reveal_type=technique.reads_true_type)
    return _judge(technique, instance, presented.positions, technique.predict(presented.question))


def _judge(
    technique: Technique, instance: DiscriminativeInstance, positions: Mapping[str, int], choices: Mapping[str, str]
) -> dict[str, bool]:
    unknown = [c for c in choices.values() if c not in positions]
    if unknown:
        raise InputError(f"{technique.name} answered with an unknown option id '{unknown[0]}'")
    return {setting: instance.is_correct(positions[choice]) for setting, choice in choices.items()}


@dataclass(frozen=True)
class InstanceOutcome:
    """Whether each setting of a technique got one instance right, kept in draw order for the folds."""

    reference: str
    round_index: int
    order: int
    correct: Mapping[str, bool]


class ReferenceAccuracy(BaseModel):
    """Accuracy (percent) on one reference task: the mean over rounds and each round's value."""

    mean: float
    rounds: list[float]
    instances_per_round: int
    settings_chosen: dict[str, int] = Field(default_factory=dict)


class TechniqueAccuracy(BaseModel):
    technique: str
    references: dict[str, ReferenceAccuracy]


class HeldOutTarget(BaseModel):
    """Accuracy (percent) on one target task with the setting chosen on the family's other targets."""

    reference: str
    target: str
    mean: float
    rounds: list[float]
    instances_per_round: int
    setting: str
    tuned_on: list[str]
    tuning_accuracy: float


class LeaveOneTargetOut(BaseModel):
    """Every target of every family held out once; ``references`` averages the held-out accuracies per family, and
    ``worst`` is the lowest held-out target accuracy per family."""

    technique: str
    targets: list[HeldOutTarget]
    references: dict[str, float]
    worst: dict[str, float]


class DirectionAccuracy(BaseModel):
    """Accuracy (percent) with the student observed on ``observed`` and asked about ``target``."""

    family: str
    observed: str
    target: str
    paper_direction: bool
    mean: float
    rounds: list[float]
    instances_per_round: int
    setting: str
    tuned_on: list[str]
    tuning_accuracy: float | None = None


class TargetSummary(BaseModel):
    """One target task over every direction that asks about it."""

    worst: float
    mean: float
    by_observed: dict[str, float]


class HeldOutTasks(BaseModel):
    """Every direction of every family; the headline is ``worst`` (the lowest direction)."""

    technique: str
    directions: list[DirectionAccuracy]
    targets: dict[str, dict[str, TargetSummary]]
    worst: DirectionAccuracy
    worst_paper_direction: DirectionAccuracy | None
    worst_swapped: DirectionAccuracy | None


def round_accuracy(rows: Sequence[Mapping[str, bool]], settings: Sequence[str], folds: int) -> tuple[float, list[str]]:
    """(accuracy in [0, 1], settings chosen per fold); cross-validated when there is more than one setting."""
    if not rows:
        return 0.0, []
    table = np.array([[bool(row.get(s, False)) for s in settings] for row in rows], dtype=float)
    if len(settings) == 1:
        return float(table[:, 0].mean()), [settings[0]]
    folds = max(2, min(folds, len(rows)))
    accuracies, chosen = [], []
    for tune in np.array_split(np.arange(len(rows)), folds):
        test = np.setdiff1d(np.arange(len(rows)), tune)
        best = int(np.argmax(table[tune].mean(axis=0)))  # ties go to the first setting listed
        chosen.append(settings[best])
        accuracies.append(float(table[test, best].mean()))
    return float(np.mean(accuracies)), chosen


def summarize_outcomes(
    technique: str, outcomes: Sequence[InstanceOutcome], settings: Sequence[str], folds: int = DEFAULT_FOLDS
) -> TechniqueAccuracy:
    grouped: dict[str, dict[int, list[InstanceOutcome]]] = {}
    for outcome in outcomes:
        grouped.setdefault(outcome.reference, {}).setdefault(outcome.round_index, []).append(outcome)
    references: dict[str, ReferenceAccuracy] = {}
    for reference, rounds in sorted(grouped.items()):
        per_round: list[float] = []
        chosen_count: dict[str, int] = {}
        sizes = []
        for round_index in sorted(rounds):
            rows = [o.correct for o in sorted(rounds[round_index], key=lambda o: o.order)]
            accuracy, chosen = round_accuracy(rows, settings, folds)
            per_round.append(round(100 * accuracy, 2))
            sizes.append(len(rows))
            for setting in chosen:
                chosen_count[setting] = chosen_count.get(setting, 0) + 1
        references[reference] = ReferenceAccuracy(
            mean=round(float(np.mean(per_round)), 2),
            rounds=per_round,
            instances_per_round=max(sizes),
            settings_chosen=chosen_count if len(settings) > 1 else {},
        )
    return TechniqueAccuracy(technique=technique, references=references)


def draw_rounds(
    families: Sequence[TaskFamily], *, rounds: int, samples: int, seed: int
) -> list[tuple[int, DiscriminativeInstance]]:
    """(round, instance) for every round of every family in the paper's direction, deterministic in ``seed``."""
    return [
        (round_index, instance)
        for family in families
        for round_index in range(rounds)
        for instance in build_instances(family, samples=samples, seed=seed, round_index=round_index)
    ]


def _sheets(families: Sequence[TaskFamily]) -> dict[str, dict[str, TaskSheet]]:
    return {family.reference: sheets_of(family) for family in families}


def evaluate_in_process(
    technique: Technique,
    families: Sequence[TaskFamily],
    *,
    rounds: int = DEFAULT_ROUNDS,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    folds: int = DEFAULT_FOLDS,
) -> tuple[TechniqueAccuracy, list[InstanceOutcome]]:
    """The paper's protocol without the runner (no records written); the numbers equal a runner evaluation's."""
    for family in families:
        technique.prepare(brief_of(family))
    sheets = _sheets(families)
    family_of = {family.reference: family.reference for family in families}
    outcomes: list[InstanceOutcome] = []
    orders: dict[tuple[str, int], int] = {}
    for round_index, instance in draw_rounds(families, rounds=rounds, samples=samples, seed=seed):
        key = (instance.reference_task, round_index)
        order = orders[key] = orders.get(key, -1) + 1
        correct = answer(technique, instance, sheets[family_of[instance.reference_task]], seed)
        outcomes.append(InstanceOutcome(instance.reference_task, round_index, order, correct))
    return summarize_outcomes(technique.name, outcomes, technique.settings, folds), outcomes


def _percent(values: Sequence[bool]) -> float:
    return round(100 * float(np.mean(values)), 2) if values else 0.0


def leave_one_target_out(
    technique: Technique,
    families: Sequence[TaskFamily],
    *,
    rounds: int = DEFAULT_ROUNDS,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
) -> LeaveOneTargetOut:
    """Hold out each target in turn: pick the setting on the other targets' instances, score the held-out ones.

    A family with a single target has nothing to tune on; its target is then scored with the first setting.
    """
    for family in families:
        technique.prepare(brief_of(family))
    sheets = _sheets(families)
    settings = list(technique.settings)
    rows: list[tuple[str, str, int, dict[str, bool]]] = []
    for round_index, instance in draw_rounds(families, rounds=rounds, samples=samples, seed=seed):
        correct = answer(technique, instance, sheets[instance.reference_task], seed)
        rows.append((instance.reference_task, instance.target_task, round_index, correct))
    held_out: list[HeldOutTarget] = []
    for family in families:
        for target in family.targets:
            tuning = [c for ref, t, _, c in rows if ref == family.reference and t != target]
            scores = [float(np.mean([c[s] for c in tuning])) if tuning else 0.0 for s in settings]
            best = int(np.argmax(scores))  # ties go to the first setting listed
            per_round = [
                _percent(
                    [c[settings[best]] for ref, t, r, c in rows if ref == family.reference and t == target and r == k]
                )
                for k in range(rounds)
            ]
            held_out.append(
                HeldOutTarget(
                    reference=family.reference,
                    target=target,
                    mean=round(float(np.mean(per_round)), 2),
                    rounds=per_round,
                    instances_per_round=sum(
                        1 for ref, t, r, _ in rows if ref == family.reference and t == target and r == 0
                    ),
                    setting=settings[best],
                    tuned_on=[t for t in family.targets if t != target],
                    tuning_accuracy=round(100 * scores[best], 2),
                )
            )
    references, worst = {}, {}
    for family in families:
        means = [h.mean for h in held_out if h.reference == family.reference]
        if means:
            references[family.reference] = round(float(np.mean(means)), 2)
            worst[family.reference] = min(means)
    return LeaveOneTargetOut(technique=technique.name, targets=held_out, references=references, worst=worst)


def held_out_tasks(
    technique: Technique,
    families: Sequence[TaskFamily],
    *,
    rounds: int = DEFAULT_ROUNDS,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
) -> HeldOutTasks:
    """Every direction A -> B of every family, each with the setting chosen on directions sharing neither A as the
    observed task nor B as the target (see the module docstring)."""
    settings = list(technique.settings)
    # (family, observed, target, round) -> per-instance correctness per setting
    rows: dict[tuple[str, str, str, int], list[dict[str, bool]]] = {}
    for family in families:
        sheets = sheets_of(family)
        for observed in sorted(family.tasks):
            technique.prepare(brief_of(family, observed))
            for round_index in range(rounds):
                for instance in build_instances(
                    family, samples=samples, seed=seed, round_index=round_index, observed=observed
                ):
                    key = (family.reference, observed, instance.target_task, round_index)
                    rows.setdefault(key, []).append(answer(technique, instance, sheets, seed))
    directions: list[DirectionAccuracy] = []
    for family in families:
        pairs = sorted({(o, t) for f, o, t, _ in rows if f == family.reference})
        for observed, target in pairs:
            tuning_pairs = [(o, t) for o, t in pairs if o != observed and t != target]
            setting, tuning_accuracy = settings[0], None
            if len(settings) > 1 and tuning_pairs:
                pooled = [
                    c for (o, t) in tuning_pairs for k in range(rounds) for c in rows[(family.reference, o, t, k)]
                ]
                scores = [float(np.mean([c[s] for c in pooled])) for s in settings]
                best = int(np.argmax(scores))
                setting, tuning_accuracy = settings[best], round(100 * scores[best], 2)
            per_round = [
                _percent([c[setting] for c in rows[(family.reference, observed, target, k)]]) for k in range(rounds)
            ]
            directions.append(
                DirectionAccuracy(
                    family=family.reference,
                    observed=observed,
                    target=target,
                    paper_direction=observed == family.reference,
                    mean=round(float(np.mean(per_round)), 2),
                    rounds=per_round,
                    instances_per_round=len(rows[(family.reference, observed, target, 0)]),
                    setting=setting,
                    tuned_on=[f"{o}->{t}" for o, t in tuning_pairs] if len(settings) > 1 else [],
                    tuning_accuracy=tuning_accuracy,
                )
            )
    if not directions:
        raise InputError("no direction to evaluate: each family needs at least two tasks")
    targets: dict[str, dict[str, TargetSummary]] = {}
    for d in directions:
        targets.setdefault(d.family, {})
    for family_name, per_family in targets.items():
        for target in sorted({d.target for d in directions if d.family == family_name}):
            into = {d.observed: d.mean for d in directions if d.family == family_name and d.target == target}
            per_family[target] = TargetSummary(
                worst=min(into.values()), mean=round(float(np.mean(list(into.values()))), 2), by_observed=into
            )
    paper = [d for d in directions if d.paper_direction]
    swapped = [d for d in directions if not d.paper_direction]
    return HeldOutTasks(
        technique=technique.name,
        directions=directions,
        targets=targets,
        worst=min(directions, key=lambda d: d.mean),
        worst_paper_direction=min(paper, key=lambda d: d.mean) if paper else None,
        worst_swapped=min(swapped, key=lambda d: d.mean) if swapped else None,
    )


def evaluate_on_instances(
    technique: Technique, family: TaskFamily, instances: Sequence[DiscriminativeInstance], seed: int = 0
) -> dict[str, dict[str, float]]:
    """Accuracy (percent) per setting, overall and per target, on given instances (e.g. the ones experts answered)."""
    technique.prepare(brief_of(family))
    sheets = sheets_of(family)
    results: dict[str, dict[str, list[bool]]] = {}
    for instance in instances:
        for setting, ok in answer(technique, instance, sheets, seed).items():
            per = results.setdefault(setting, {})
            per.setdefault("all", []).append(ok)
            per.setdefault(instance.target_task, []).append(ok)
    return {s: {k: _percent(v) for k, v in per.items()} for s, per in results.items()}


@dataclass(frozen=True)
class _Judge:
    """Where one option stands against the answer: (beats it, ties with the answer's code, ties with another code)."""

    score: Callable[[Program, Program], float]
    code_a: Program
    answer: Program
    best: float

    def category(self, program: Program) -> tuple[int, int, int]:
        if program == self.answer:
            return (0, 1, 0)
        value = self.score(self.code_a, program)
        if value > self.best:
            return (1, 0, 0)
        return (0, 0, 1) if value == self.best else (0, 0, 0)


def expected_accuracy(
    family: TaskFamily, observed: str, target: str, score: Callable[[Program, Program], float]
) -> float:
    """The exact expected accuracy (percent) on ``observed -> target`` of a technique that scores each option on its own
    (``score(code_a, option)``) and picks the best, ties uniformly at random, under the paper's sampling scheme: every
    draw of observed student, other students and random codes is enumerated, none sampled."""
    total, types = 0.0, 0
    for behaviour in family.behaviour_ids:
        students = [a for a in family.attempts(observed, behaviour) if family.attempt_of(a.student, target)]
        if not students:
            continue
        types += 1
        for student in students:
            answer = family.attempt_of(student.student, target)
            assert answer is not None
            best = score(student.program, answer.program)
            judge = _Judge(score, student.program, answer.program, best)
            # Distribution of (some option beats the answer, options tied with its code, tied with another code).
            states: dict[tuple[int, int, int], float] = {(0, 1, 0): 1.0}  # the answer ties with itself
            for slot in option_slots(family, target, behaviour):
                following: dict[tuple[int, int, int], float] = {}
                for (greater, same, different), p in states.items():
                    for q, programs in slot:
                        g, s, d = greater, same, different
                        for program in programs:
                            dg, ds, dd = judge.category(program)
                            g, s, d = max(g, dg), s + ds, d + dd
                        following[(g, s, d)] = following.get((g, s, d), 0.0) + p * q
                states = following
            right = sum(
                p * same / (same + different) for (greater, same, different), p in states.items() if not greater
            )
            total += right / len(students)
    return round(100 * total / types, 2) if types else 0.0


@dataclass
class _RunnerAdapter:
    """Solver and scorer of the runner's task for one technique; the instances stay on this (the scorer's) side."""

    technique: Technique
    seed: int
    instances: dict[str, DiscriminativeInstance] = field(default_factory=dict)
    sheets: dict[str, dict[str, TaskSheet]] = field(default_factory=dict)

    async def solve(self, item: EvalItem) -> dict[str, Any]:
        instance = self.instances[item.id]
        presented = present(
            instance, self.sheets[instance.reference_task], seed=self.seed, reveal_type=self.technique.reads_true_type
        )
        apredict = getattr(self.technique, "apredict", None)
        if apredict is not None and inspect.iscoroutinefunction(apredict):
            choices = await apredict(presented.question)
        else:
            choices = self.technique.predict(presented.question)
        unknown = [c for c in choices.values() if c not in presented.positions]
        if unknown:
            raise InputError(f"{self.technique.name} answered with an unknown option id '{unknown[0]}'")
        return {"predictions": {s: presented.positions[c] for s, c in choices.items()}, "label": instance.label}

    def score(self, item: EvalItem, output: Any) -> dict[str, float]:
        instance = self.instances[item.id]
        predictions = output["predictions"]
        scores = {f"correct[{s}]": float(instance.is_correct(int(p))) for s, p in predictions.items()}
        scores["correct"] = scores.get(f"correct[{DEFAULT_SETTING}]", max(scores.values()))
        return scores


def evaluate_with_runner(
    technique: Technique,
    families: Sequence[TaskFamily],
    *,
    rounds: int = DEFAULT_ROUNDS,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    folds: int = DEFAULT_FOLDS,
    runs_dir: Path | None = None,
    resume: str | None = None,
    concurrency: int = 8,
    config: dict[str, Any] | None = None,
    model_spec: str | None = None,
    experts: Mapping[str, float] | None = None,
    report: ReportWriter | None = None,
) -> tuple[TechniqueAccuracy, str]:
    """Evaluate through :func:`debugtutor.runs.run_task` (the task of :func:`build_eval_task`); returns the accuracies
    and the run directory. ``report`` writes the run's report (the CLI passes :func:`debugtutor.report.write_report`).
    """
    task = build_eval_task(
        technique, families, rounds=rounds, samples=samples, seed=seed, folds=folds, config=config,
        model_spec=model_spec, experts=experts,
    )  # fmt: skip
    result = run_task(task, runs_dir=runs_dir, resume=resume, concurrency=concurrency, report=report)
    task_metrics = (result.summary.get("task_metrics") or {}).get("references") or {}
    accuracy = TechniqueAccuracy(
        technique=technique.name,
        references={ref: ReferenceAccuracy.model_validate(value) for ref, value in task_metrics.items()},
    )
    return accuracy, str(result.run_dir)


def build_eval_task(
    technique: Technique,
    families: Sequence[TaskFamily],
    *,
    rounds: int = DEFAULT_ROUNDS,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    folds: int = DEFAULT_FOLDS,
    config: dict[str, Any] | None = None,
    model_spec: str | None = None,
    experts: Mapping[str, float] | None = None,
) -> EvalTask:
    """The paper's protocol as a task for the runner: ``rounds`` of freshly drawn instances per reference task, the
    technique prepared on each family's brief, accuracies per reference (cross-validated settings) in the summary.

    ``experts`` maps a reference task to the experts' macro accuracy scored from their response files here (shown
    beside this run in the report).
    """
    for family in families:
        technique.prepare(brief_of(family))
    adapter = _RunnerAdapter(technique, seed, sheets=_sheets(families))
    items: list[EvalItem] = []
    position: dict[str, tuple[str, int, int]] = {}
    orders: dict[tuple[str, int], int] = {}
    for round_index, instance in draw_rounds(families, rounds=rounds, samples=samples, seed=seed):
        key = (instance.reference_task, round_index)
        order = orders[key] = orders.get(key, -1) + 1
        adapter.instances[instance.id] = instance
        position[instance.id] = (instance.reference_task, round_index, order)
        items.append(
            EvalItem(
                id=instance.id,
                input=instance.to_json(),
                target=instance.label,
                metadata={"reference": instance.reference_task, "round": round_index, "order": order},
            )
        )
    published: dict[str, Any] = {}
    for family in families:
        beside = comparable_paper_numbers(technique.name, family.reference)
        if experts and family.reference in experts:
            beside["TutorSS (experts, scored here on the same targets)"] = experts[family.reference]
        if beside:
            label = f"{family.reference} accuracy (%), {DISPLAY_NAMES.get(technique.name, technique.name)}"
            published[label] = {"ours": f"references.{family.reference}.mean", "paper": beside}
    settings = technique.settings

    def summarize(records: list[Any]) -> dict[str, Any]:
        outcomes = [
            InstanceOutcome(*position[r.id], {s: bool(r.scores.get(f"correct[{s}]", 0.0)) for s in settings})
            for r in records
            if r.id in position and r.error is None
        ]
        result = summarize_outcomes(technique.name, outcomes, settings, folds)
        summary: dict[str, Any] = {"references": {ref: acc.model_dump() for ref, acc in result.references.items()}}
        if experts:
            summary["tutorss_macro"] = dict(experts)
        return summary

    return EvalTask(
        name=f"studentsyn-{technique.name}",
        items=items,
        solver=adapter.solve,
        scorer=adapter.score,
        summarize=summarize,
        config={
            "technique": technique.name,
            "rounds": rounds,
            "samples": samples,
            "seed": seed,
            "folds": folds,
            **(config or {}),
        },
        model_spec=model_spec,
        published=published,
        executor="inline",
    )


class SignificanceResult(BaseModel):
    """Tukey HSD over per-round accuracies and chi-squared over pooled counts, for one reference task."""

    reference: str
    techniques: list[str]
    tukey_pvalues: list[list[float]] | None = None
    chi2: float | None = None
    chi2_pvalue: float | None = None
    note: str | None = None


def significance(results: Sequence[TechniqueAccuracy], reference: str) -> SignificanceResult:
    rows = [r for r in results if reference in r.references]
    names = [r.technique for r in rows]
    out = SignificanceResult(reference=reference, techniques=names)
    if len(rows) < 2:
        out.note = "needs at least two techniques"
        return out
    groups = [r.references[reference].rounds for r in rows]
    if all(len(g) >= 2 for g in groups) and any(np.std(g) > 0 for g in groups):
        out.tukey_pvalues = [[round(float(p), 6) for p in row] for row in stats.tukey_hsd(*groups).pvalue]
    else:
        out.note = "Tukey HSD needs at least two rounds with some spread"
    counts = []
    for r in rows:
        acc = r.references[reference]
        total = acc.instances_per_round * len(acc.rounds)
        correct = round(acc.mean / 100 * total)
        counts.append([correct, total - correct])
    table = np.array(counts)
    if (table.sum(axis=0) > 0).all():
        chi2, pvalue, _, _ = stats.chi2_contingency(table)
        out.chi2, out.chi2_pvalue = round(float(chi2), 4), float(pvalue)
    return out
