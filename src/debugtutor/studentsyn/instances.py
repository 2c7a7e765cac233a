"""Discriminative benchmark instances, drawn the way the StudentSyn paper draws them, but seeded.

One *sample* of a family holds one instance per (target task, behaviour type): an observed student of that type is
picked on the reference task, and the 10 options on the target task are that student's own attempt (the answer), one
attempt by a student of each other type, the target's solution and random edits of it. With the published data
(3 targets x 6 types) a sample has 18 instances, so the default 20 samples give the paper's 360 per reference task;
with fewer targets (the shared copy has 2) it is 20 x 12 = 240. Everything is derived from the loaded family.

Every student has an attempt on every task of the family, so the roles can also be swapped: ``observed=`` draws the
observed student on another task of the family (a target task of the paper) and asks about the others, including the
paper's reference task. That is how a technique is scored with the student observed on a task its rules were not
built around.

An instance is the scorer's record (it holds the label); :func:`present` turns it into the
:class:`~debugtutor.studentsyn.questions.Question` a technique sees.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from typing import Any

from debugtutor.maze import Program, program_from_json, program_to_json
from debugtutor.studentsyn.dataset import TaskFamily
from debugtutor.studentsyn.questions import Option, Presented, Question, TaskSheet, opaque_ids

DEFAULT_SAMPLES = 20
DEFAULT_RANDOM_OPTIONS = 3


@dataclass(frozen=True)
class DiscriminativeInstance:
    """Pick the observed student's attempt on ``target_task`` among ``options``; ``label`` is its position."""

    id: str
    reference_task: str
    target_task: str
    behaviour: int
    student: str
    code_a: Program
    options: tuple[Program, ...]
    option_sources: tuple[str, ...]
    label: int

    def is_correct(self, prediction: int) -> bool:
        """Right if it is the label or an option with the same code (identical codes do occur among options)."""
        if not 0 <= prediction < len(self.options):
            return False
        return prediction == self.label or self.options[prediction] == self.options[self.label]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "reference_task": self.reference_task,
            "target_task": self.target_task,
            "behaviour": self.behaviour,
            "student": self.student,
            "code_a": program_to_json(self.code_a),
            "options": [program_to_json(option) for option in self.options],
            "option_sources": list(self.option_sources),
            "label": self.label,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DiscriminativeInstance:
        return cls(
            id=data["id"],
            reference_task=data["reference_task"],
            target_task=data["target_task"],
            behaviour=int(data["behaviour"]),
            student=data["student"],
            code_a=program_from_json(data["code_a"]),
            options=tuple(program_from_json(option) for option in data["options"]),
            option_sources=tuple(data["option_sources"]),
            label=int(data["label"]),
        )


def _random_options(family: TaskFamily, target: str, count: int, rng: random.Random) -> list[tuple[str, Program]]:
    """``count`` random codes of ``target``: one per note when there are exactly ``count`` notes (the hoc4 layout);
    otherwise one from the first note (the small-edit pool) and the rest, distinct, from the other notes pooled (the
    hoc18 layout: 1 ``edit_2`` + 2 of ``only_if`` / ``only_while`` / ``basic_actions``)."""
    pool = family.random_pool(target)
    if not pool or count <= 0:
        return []
    notes = list(pool)
    chosen: list[tuple[str, Program]] = []
    if len(notes) == count:
        for note in notes:
            code = rng.choice(pool[note])
            chosen.append((f"rand{code.rand_id}:{note}", code.program))
        return chosen
    first = rng.choice(pool[notes[0]])
    chosen.append((f"rand{first.rand_id}:{notes[0]}", first.program))
    rest = [code for note in notes[1:] for code in pool[note]] or [c for c in pool[notes[0]] if c is not first]
    for code in rng.sample(rest, min(count - 1, len(rest))):
        chosen.append((f"rand{code.rand_id}:{code.note}", code.program))
    return chosen


OptionSlot = list[tuple[float, tuple[Program, ...]]]


def option_slots(family: TaskFamily, target: str, behaviour: int) -> list[OptionSlot]:
    """How :func:`build_instances` fills the options besides the answer, as independent slots: each slot is a list of
    (probability, programs drawn together). Used to compute exact expected accuracies."""
    slots: list[OptionSlot] = []
    for other in family.behaviour_ids:
        if other != behaviour:
            others = family.attempts(target, other)
            if others:
                slots.append([(1 / len(others), (a.program,)) for a in others])
    slots.append([(1.0, (family.solutions[target],))])
    pool = family.random_pool(target)
    notes = list(pool)
    if not pool:
        return slots
    if len(notes) == DEFAULT_RANDOM_OPTIONS:
        slots.extend([(1 / len(pool[note]), (c.program,)) for c in pool[note]] for note in notes)
        return slots
    first = pool[notes[0]]
    slots.append([(1 / len(first), (c.program,)) for c in first])
    rest = [c.program for note in notes[1:] for c in pool[note]]
    if rest:
        groups = list(itertools.combinations(rest, min(DEFAULT_RANDOM_OPTIONS - 1, len(rest))))
        slots.append([(1 / len(groups), group) for group in groups])
    else:  # one pool only: the draws are distinct codes of that pool
        slots.pop()
        groups = list(itertools.combinations([c.program for c in first], min(DEFAULT_RANDOM_OPTIONS, len(first))))
        slots.append([(1 / len(groups), group) for group in groups])
    return slots


def build_instances(
    family: TaskFamily,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    round_index: int = 0,
    random_options: int = DEFAULT_RANDOM_OPTIONS,
    observed: str | None = None,
    targets: list[str] | None = None,
) -> list[DiscriminativeInstance]:
    """``samples`` x (targets x types) instances for one round; the same (seed, round) always gives the same draw.

    ``observed`` is the task the student is observed on (default: the family's reference task) and ``targets`` the
    tasks asked about (default: every other task of the family, in name order).
    """
    reference = observed or family.reference
    if reference not in family.tasks:
        raise ValueError(f"unknown task '{reference}' in family '{family.reference}'")
    asked = targets if targets is not None else sorted(t for t in family.tasks if t != reference)
    if reference in asked:
        raise ValueError(f"task '{reference}' cannot be both observed and asked about")
    # The paper's direction keeps the seed string it always had, so its draws are comparable across versions.
    direction = family.reference if reference == family.reference else f"{family.reference}:{reference}"
    rng = random.Random(f"studentsyn:{direction}:{seed}:{round_index}")
    instances: list[DiscriminativeInstance] = []
    types = family.behaviour_ids
    for sample in range(samples):
        for target in asked:
            for behaviour in types:
                # Only students seen on both tasks can be observed on one and asked about on the other.
                candidates = [
                    attempt
                    for attempt in family.attempts(reference, behaviour)
                    if family.attempt_of(attempt.student, target) is not None
                ]
                if not candidates:
                    continue
                student = rng.choice(candidates)
                answer = family.attempt_of(student.student, target)
                assert answer is not None  # filtered above
                options: list[tuple[str, Program]] = [(f"{student.student}:answer", answer.program)]
                for other in types:
                    if other == behaviour:
                        continue
                    others = family.attempts(target, other)
                    if others:
                        pick = rng.choice(others)
                        options.append((f"{pick.student}:mis_{other}", pick.program))
                options.append(("solution", family.solutions[target]))
                options.extend(_random_options(family, target, random_options, rng))
                order = list(range(len(options)))
                rng.shuffle(order)
                shuffled = [options[i] for i in order]
                instances.append(
                    DiscriminativeInstance(
                        id=f"{reference}-r{round_index}-s{sample}-{target}-mis{behaviour}",
                        reference_task=reference,
                        target_task=target,
                        behaviour=behaviour,
                        student=student.student,
                        code_a=student.program,
                        options=tuple(program for _, program in shuffled),
                        option_sources=tuple(source for source, _ in shuffled),
                        label=order.index(0),
                    )
                )
    return instances


def present(
    instance: DiscriminativeInstance,
    sheets: dict[str, TaskSheet],
    *,
    seed: int | str = 0,
    reveal_type: bool = False,
) -> Presented:
    """The question a technique sees for ``instance``: options under fresh opaque ids, in a fresh shuffled order.

    The ids and the order are drawn from ``seed`` and the instance id (on the scorer's side); the behaviour type goes
    into ``revealed_type`` only when ``reveal_type`` is set (for a technique that declares ``reads_true_type``).
    """
    rng = random.Random(f"present:{seed}:{instance.id}")
    order = list(range(len(instance.options)))
    rng.shuffle(order)
    ids = opaque_ids(len(order), rng)
    options = tuple(Option(ids[k], instance.options[position]) for k, position in enumerate(order))
    question = Question(
        reference=sheets[instance.reference_task],
        code_a=instance.code_a,
        target=sheets[instance.target_task],
        options=options,
        revealed_type=instance.behaviour if reveal_type else None,
    )
    return Presented(question, {ids[k]: position for k, position in enumerate(order)})
