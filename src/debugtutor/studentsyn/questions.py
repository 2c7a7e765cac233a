"""What a StudentSyn technique is allowed to see, and how the scorer shows it: leak-proof by construction.

The scorer keeps a :class:`~debugtutor.studentsyn.instances.DiscriminativeInstance` (label, where each option came
from, the student's behaviour type, the instance id) and hands a technique only a :class:`Question`: the reference task,
the student's attempt on it, the target task and the ten options under opaque ids, in an order shuffled afresh for the
question. A technique answers with option ids; only the scorer can map an id back to a position and a label.

A task is shown as a :class:`TaskSheet`: its grid, its expert solution and the other per-task inputs a technique may
use (the basic-action solution, the original SymSS's hand-written distractor programs), never a student's code.
``prepare`` gets a :class:`FamilyBrief`: the sheets of the family's tasks, which one students are observed on, and the
catalogue of behaviour types (their descriptions), again without any student attempt.

One named channel carries a hidden fact: ``Question.revealed_type`` holds the observed student's true behaviour type,
and the scorer fills it only for a technique whose class sets ``reads_true_type = True`` (the ``-oracle-type``
variants). Everything else hidden never leaves the scorer.

Techniques break ties between equally scored options by :func:`choose`, which ranks tied options by a hash of their
content (the question's visible content and the option's code), so a choice does not depend on option ids or order:
the original code took the first in a random shuffle, which is the same thing in distribution.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from debugtutor.maze import MazeTask, Program, compact
from debugtutor.studentsyn.dataset import Behaviour, TaskFamily

__all__ = [
    "FamilyBrief",
    "Option",
    "Presented",
    "Question",
    "TaskSheet",
    "brief_of",
    "choose",
    "sheets_of",
]


@dataclass(frozen=True)
class TaskSheet:
    """One task as a technique sees it: grid, expert solution, and the per-task inputs the original SymSS reads."""

    name: str
    task: MazeTask
    solution: Program
    basic_solution: Program | None = None
    distractors: tuple[Program, ...] = ()

    def renamed(self, name: str) -> TaskSheet:
        """The same task under another name (the invariance test hides task names too)."""
        grid = MazeTask(
            name=name, grid=self.task.grid, start=self.task.start, heading=self.task.heading, goal=self.task.goal
        )
        return TaskSheet(name, grid, self.solution, self.basic_solution, self.distractors)


@dataclass(frozen=True)
class FamilyBrief:
    """What ``prepare`` sees: every task of the family as a sheet, the observed (reference) task, the type catalogue."""

    reference: TaskSheet
    tasks: tuple[TaskSheet, ...]
    behaviours: tuple[Behaviour, ...]

    @property
    def behaviour_ids(self) -> list[int]:
        return sorted(b.type_id for b in self.behaviours)

    def behaviour(self, type_id: int) -> Behaviour:
        return next(b for b in self.behaviours if b.type_id == type_id)


@dataclass(frozen=True)
class Option:
    """One of the ten candidate attempts, under an id that says nothing about where it came from."""

    id: str
    program: Program


@dataclass(frozen=True)
class Question:
    """Everything ``predict`` receives: pick the option that is the observed student's attempt on ``target``."""

    reference: TaskSheet
    code_a: Program
    target: TaskSheet
    options: tuple[Option, ...]
    # The named oracle channel: the observed student's true type, set only for a technique with reads_true_type.
    revealed_type: int | None = None


@dataclass(frozen=True)
class Presented:
    """A question and, on the scorer's side only, the instance position behind each option id."""

    question: Question
    positions: dict[str, int]


def sheets_of(family: TaskFamily) -> dict[str, TaskSheet]:
    """Every task of the family as a sheet, by name."""
    return {
        name: TaskSheet(
            name,
            task,
            family.solutions[name],
            family.basic_solutions.get(name),
            family.distractors.get(name, ()),
        )
        for name, task in family.tasks.items()
    }


def brief_of(family: TaskFamily, reference: str | None = None) -> FamilyBrief:
    """The brief ``prepare`` gets for a family observed on ``reference`` (default: the family's reference task)."""
    sheets = sheets_of(family)
    observed = reference or family.reference
    return FamilyBrief(
        reference=sheets[observed],
        tasks=tuple(sheets[name] for name in sorted(sheets)),
        behaviours=tuple(family.behaviours[b] for b in family.behaviour_ids),
    )


def _content_rank(question: Question, tied: Sequence[Program], program: Program, salt: str) -> str:
    # The whole tie (as a sorted set of codes) goes into the key, so each distinct tie is an independent draw.
    key = "|".join(
        (
            salt,
            compact(question.code_a),
            "/".join(question.target.task.grid),
            str(question.target.task.start),
            ";".join(sorted(compact(p) for p in tied)),
            compact(program),
        )
    )
    return hashlib.sha256(key.encode()).hexdigest()


def choose(question: Question, scores: Sequence[float], *, lowest: bool = False, salt: str = "") -> str:
    """The id of the best option (highest score, or lowest with ``lowest``); ties broken by content, not position.

    Tied options are ranked by a hash of the question's visible content, the set of tied codes and the option's own
    code: a pseudo-random pick that is the same whatever the ids and the order, and independent from one tie to
    another (as the original's first-in-a-random-shuffle was).
    """
    if len(scores) != len(question.options):
        raise ValueError(f"{len(scores)} scores for {len(question.options)} options")
    signed = [-s if lowest else s for s in scores]
    best = max(signed)
    tied = [option for option, s in zip(question.options, signed) if s == best]
    if len(tied) == 1:
        return tied[0].id
    programs = [option.program for option in tied]
    return min(tied, key=lambda option: _content_rank(question, programs, option.program, salt)).id


def opaque_ids(count: int, rng: random.Random) -> list[str]:
    """``count`` distinct random ids (``o`` + 8 hex digits)."""
    ids: list[str] = []
    while len(ids) < count:
        candidate = f"o{rng.getrandbits(32):08x}"
        if candidate not in ids:
            ids.append(candidate)
    return ids


# ---- what a technique implements ---------------------------------------------------------------------------------

DEFAULT_SETTING = "default"


@runtime_checkable
class Technique(Protocol):
    """A discriminative technique: ``prepare`` once per family brief, then ``predict`` per question."""

    name: str
    settings: tuple[str, ...]
    reads_true_type: bool

    def prepare(self, brief: FamilyBrief) -> None: ...

    def predict(self, question: Question) -> dict[str, str]: ...


@runtime_checkable
class GenerativeTechnique(Technique, Protocol):
    """A technique that can also write the student's attempt on a target task (best first)."""

    def synthesize(self, question: Question, top_k: int = 3) -> list[Program]: ...
