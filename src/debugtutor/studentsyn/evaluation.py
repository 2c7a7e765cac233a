"""Discriminative evaluation: rounds of freshly drawn instances, cross-validated tuning, accuracy and significance.

One round draws ``samples`` x (targets x types) instances per reference task (360 with the published 3 targets and
the default 20 samples). A technique with hyperparameters is scored with the paper's 10-fold scheme, roles swapped as
in its code: each contiguous tenth of the round tunes (the setting with the best accuracy there) and the other nine
tenths test; the round's accuracy is the mean test accuracy over the folds. A technique without settings is simply
scored on every instance. Between techniques, Tukey's HSD compares per-round accuracies and a chi-squared test
compares pooled correct/incorrect counts.

Leaving one target out (:func:`leave_one_target_out`) is the unseen-target check: for each target task, a technique's
setting is chosen on the instances of the family's *other* targets and its accuracy is measured on the held-out one,
so nothing about the held-out target informs the choice (with two targets that gives both directions, a -> b and
b -> a).

Runs go through :mod:`debugtutor.runs` (one record per instance, resumable, with a report); the in-process path
:func:`evaluate_in_process` computes the same numbers without writing records (benchmarks, tests).
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, Field
from scipy import stats

from debugtutor.runs import EvalItem, EvalTask, run_task
from debugtutor.studentsyn.dataset import TaskFamily
from debugtutor.studentsyn.instances import DEFAULT_SAMPLES, DiscriminativeInstance, build_instances
from debugtutor.studentsyn.techniques import DEFAULT_SETTING, Technique

DEFAULT_ROUNDS = 5
DEFAULT_FOLDS = 10
PUBLISHED = {
    "hoc4": {"SymSS (original code)": 87.5, "TutorSS (human experts)": 89.8, "RandD": 9.9, "EditD": 31.1},
    "hoc18": {"SymSS (original code)": 66.9, "TutorSS (human experts)": 85.2, "RandD": 10.3, "EditD": 46.9},
}


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
    """Every target of every family held out once; ``references`` averages the held-out accuracies per family."""

    technique: str
    targets: list[HeldOutTarget]
    references: dict[str, float]


def outcome_of(technique_predictions: Mapping[str, int], instance: DiscriminativeInstance) -> dict[str, bool]:
    return {setting: instance.is_correct(choice) for setting, choice in technique_predictions.items()}


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
    """(round, instance) for every round of every family, deterministic in ``seed``."""
    return [
        (round_index, instance)
        for family in families
        for round_index in range(rounds)
        for instance in build_instances(family, samples=samples, seed=seed, round_index=round_index)
    ]


def evaluate_in_process(
    technique: Technique,
    families: Sequence[TaskFamily],
    *,
    rounds: int = DEFAULT_ROUNDS,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    folds: int = DEFAULT_FOLDS,
) -> tuple[TechniqueAccuracy, list[InstanceOutcome]]:
    """Evaluate without the runner (no records written); the numbers equal a runner evaluation's."""
    for family in families:
        technique.prepare(family)
    outcomes: list[InstanceOutcome] = []
    orders: dict[tuple[str, int], int] = {}
    for round_index, instance in draw_rounds(families, rounds=rounds, samples=samples, seed=seed):
        key = (instance.reference_task, round_index)
        order = orders[key] = orders.get(key, -1) + 1
        correct = outcome_of(technique.predict(instance), instance)
        outcomes.append(InstanceOutcome(instance.reference_task, round_index, order, correct))
    return summarize_outcomes(technique.name, outcomes, technique.settings, folds), outcomes


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
        technique.prepare(family)
    settings = list(technique.settings)
    rows: list[tuple[str, str, int, dict[str, bool]]] = []
    for round_index, instance in draw_rounds(families, rounds=rounds, samples=samples, seed=seed):
        correct = outcome_of(technique.predict(instance), instance)
        rows.append((instance.reference_task, instance.target_task, round_index, correct))
    held_out: list[HeldOutTarget] = []
    for family in families:
        for target in family.targets:
            tuning = [c for ref, t, _, c in rows if ref == family.reference and t != target]
            scores = [float(np.mean([c[s] for c in tuning])) if tuning else 0.0 for s in settings]
            best = int(np.argmax(scores))  # ties go to the first setting listed
            per_round = []
            for round_index in range(rounds):
                tested = [
                    c[settings[best]]
                    for ref, t, r, c in rows
                    if ref == family.reference and t == target and r == round_index
                ]
                if tested:
                    per_round.append(round(100 * float(np.mean(tested)), 2))
            held_out.append(
                HeldOutTarget(
                    reference=family.reference,
                    target=target,
                    mean=round(float(np.mean(per_round)), 2) if per_round else 0.0,
                    rounds=per_round,
                    instances_per_round=sum(
                        1 for ref, t, r, _ in rows if ref == family.reference and t == target and r == 0
                    ),
                    setting=settings[best],
                    tuned_on=[t for t in family.targets if t != target],
                    tuning_accuracy=round(100 * scores[best], 2),
                )
            )
    references = {
        family.reference: round(float(np.mean([h.mean for h in held_out if h.reference == family.reference])), 2)
        for family in families
        if any(h.reference == family.reference for h in held_out)
    }
    return LeaveOneTargetOut(technique=technique.name, targets=held_out, references=references)


@dataclass
class _RunnerAdapter:
    """Solver and scorer of the runner's task for one technique; instances are rebuilt from their JSON."""

    technique: Technique
    instances: dict[str, DiscriminativeInstance] = field(default_factory=dict)

    async def solve(self, item: EvalItem) -> dict[str, Any]:
        instance = self.instances[item.id]
        apredict = getattr(self.technique, "apredict", None)
        if apredict is not None and inspect.iscoroutinefunction(apredict):
            predictions = await apredict(instance)
        else:
            predictions = self.technique.predict(instance)
        return {"predictions": predictions, "label": instance.label}

    def score(self, item: EvalItem, output: Any) -> dict[str, float]:
        instance = self.instances[item.id]
        predictions = output["predictions"]
        scores = {f"correct[{s}]": float(ok) for s, ok in outcome_of(predictions, instance).items()}
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
) -> tuple[TechniqueAccuracy, str]:
    """Evaluate through :func:`debugtutor.runs.run_task`; returns the accuracies and the run directory."""
    for family in families:
        technique.prepare(family)
    adapter = _RunnerAdapter(technique)
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
    published = {
        f"{reference} {system}": {"ours": f"{reference}.mean", "paper": {system: value}}
        for reference, systems in PUBLISHED.items()
        if any(f.reference == reference for f in families)
        for system, value in systems.items()
    }
    settings = technique.settings

    def summarize(records: list[Any]) -> dict[str, Any]:
        outcomes = [
            InstanceOutcome(*position[r.id], {s: bool(r.scores.get(f"correct[{s}]", 0.0)) for s in settings})
            for r in records
            if r.id in position and r.error is None
        ]
        result = summarize_outcomes(technique.name, outcomes, settings, folds)
        return {ref: acc.model_dump() for ref, acc in result.references.items()}

    task = EvalTask(
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
    result = run_task(task, runs_dir=runs_dir, resume=resume, concurrency=concurrency)
    task_metrics = result.summary.get("task_metrics") or {}
    accuracy = TechniqueAccuracy(
        technique=technique.name,
        references={ref: ReferenceAccuracy.model_validate(value) for ref, value in task_metrics.items()},
    )
    return accuracy, str(result.run_dir)


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
