"""The discriminative (and, where they can, generative) techniques of the StudentSyn arena.

Every technique is told about a family once (``prepare(brief)``: the tasks as
:class:`~debugtutor.studentsyn.questions.TaskSheet` s, the observed task, the behaviour catalogue; no student code)
and then answers :class:`~debugtutor.studentsyn.questions.Question` s: ``predict(question)`` returns the chosen option
id for each of its hyperparameter settings (one setting, ``"default"``, for techniques with nothing to tune), so a
setting can be chosen on tuning data without asking again. Generative techniques also ``synthesize(question, k)`` (a
question without options).

The baselines live in :mod:`debugtutor.studentsyn.baselines`, the protocols in :mod:`debugtutor.studentsyn.questions`.

- ``randd``: a pseudo-random option, fixed by the question's content and the seed.
- ``editd``: the option nearest to the observed attempt in EditD token edit distance (or tree edit distance).
- ``editembd``: alpha * embedding distance + (1 - alpha) * EditD distance, alpha a setting.
- ``symss-original``: the original SymSS, see :mod:`debugtutor.studentsyn.symss_original`.
- ``behaviour-edits``: this project's rule-based model (:mod:`debugtutor.studentsyn.behaviour_edits`), the student's
  type inferred from the reference attempt.
- ``behaviour-edits-oracle-type``: the same, told the student's true type through ``Question.revealed_type`` (an
  upper bound on what type inference can give, not a fair comparison).
- ``neurss``: a small neural scorer trained on synthetic students and tasks, see :mod:`debugtutor.studentsyn.neurss`.
- ``llmss``: see :mod:`debugtutor.studentsyn.llmss`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from debugtutor.errors import InputError
from debugtutor.maze import Program
from debugtutor.runs import Registry
from debugtutor.studentsyn.baselines import EditD, EditEmbD, RandD
from debugtutor.studentsyn.behaviour_edits import (
    BehaviourModel,
    TaskContext,
    background_model,
    behaviour_model,
    task_context,
)
from debugtutor.studentsyn.distances import DistanceKind
from debugtutor.studentsyn.questions import (
    DEFAULT_SETTING,
    FamilyBrief,
    Question,
    TaskSheet,
    Technique,
    choose,
)

if TYPE_CHECKING:  # (the llm package is loaded only for llmss)
    from debugtutor.llm import ModelBackend


def _logsumexp(values: list[float]) -> float:
    top = max(values)
    if top == float("-inf"):
        return top
    return top + math.log(sum(math.exp(v - top) for v in values))


class BehaviourEdits:
    """This project's rule-based technique: per-type edit families on the target task, the type inferred.

    Discriminative choice: the option with the highest posterior of the student's type among all types and a
    background of "random edits of the solution" (so an option every type explains equally well, such as the solution
    itself, is not preferred for being likely under all of them). The background's prior weight is the one setting
    (``background=w``), chosen on tuning data.
    """

    name = "behaviour-edits"
    reads_true_type = False
    BACKGROUND_WEIGHTS = (0.01, 0.1, 1.0, 10.0, 100.0)

    def __init__(self, background_weights: tuple[float, ...] = BACKGROUND_WEIGHTS) -> None:
        if not background_weights:
            raise InputError("behaviour-edits needs at least one background weight", field="background_weights")
        self.background_weights = background_weights
        self.settings: tuple[str, ...] = (
            tuple(f"background={w:g}" for w in background_weights)
            if len(background_weights) > 1
            else (DEFAULT_SETTING,)
        )
        self._descriptions: dict[TaskSheet, dict[int, str]] = {}
        self._contexts: dict[TaskSheet, TaskContext] = {}
        self._models: dict[tuple[TaskSheet, int], BehaviourModel] = {}
        self._background: dict[TaskSheet, BehaviourModel] = {}
        self._types: dict[tuple[TaskSheet, Program], int] = {}

    def prepare(self, brief: FamilyBrief) -> None:
        descriptions = {b.type_id: b.description for b in brief.behaviours}
        for sheet in brief.tasks:
            self._descriptions[sheet] = descriptions

    def _context(self, sheet: TaskSheet) -> TaskContext:
        if sheet not in self._contexts:
            self._contexts[sheet] = task_context(sheet.task, sheet.solution, sheet.basic_solution)
        return self._contexts[sheet]

    def _types_of(self, sheet: TaskSheet) -> dict[int, str]:
        try:
            return self._descriptions[sheet]
        except KeyError:
            raise InputError(f"{self.name} was not prepared for task '{sheet.name}'") from None

    def model(self, sheet: TaskSheet, behaviour: int) -> BehaviourModel:
        key = (sheet, behaviour)
        if key not in self._models:
            self._models[key] = behaviour_model(self._context(sheet), self._types_of(sheet)[behaviour])
        return self._models[key]

    def background(self, sheet: TaskSheet) -> BehaviourModel:
        if sheet not in self._background:
            self._background[sheet] = background_model(self._context(sheet))
        return self._background[sheet]

    def type_scores(self, reference: TaskSheet, code_a: Program) -> dict[int, float]:
        """Log-likelihood of the reference attempt under each type's model on the reference task."""
        return {b: self.model(reference, b).log_likelihood(code_a) for b in self._types_of(reference)}

    def infer_type(self, reference: TaskSheet, code_a: Program) -> int:
        key = (reference, code_a)
        if key not in self._types:
            scores = self.type_scores(reference, code_a)
            self._types[key] = max(sorted(scores), key=lambda b: scores[b])
        return self._types[key]

    def _type_for(self, question: Question) -> int:
        return self.infer_type(question.reference, question.code_a)

    def posteriors(self, target: TaskSheet, behaviour: int, programs: list[Program]) -> list[list[float]]:
        """Per background weight, the log-posterior of ``behaviour`` for each program."""
        types = sorted(self._types_of(target))
        own = [self.model(target, behaviour).log_likelihood(p) for p in programs]
        rivals = [[self.model(target, b).log_likelihood(p) for b in types] for p in programs]
        background = [self.background(target).log_likelihood(p) for p in programs]
        return [
            [own[i] - _logsumexp([*rivals[i], math.log(w) + background[i]]) for i in range(len(programs))]
            for w in self.background_weights
        ]

    def predict(self, question: Question) -> dict[str, str]:
        behaviour = self._type_for(question)
        per_weight = self.posteriors(question.target, behaviour, [o.program for o in question.options])
        return {setting: choose(question, scores) for setting, scores in zip(self.settings, per_weight)}

    def synthesize(self, question: Question, top_k: int = 3) -> list[Program]:
        return self.model(question.target, self._type_for(question)).top(top_k)


class BehaviourEditsOracleType(BehaviourEdits):
    """``behaviour-edits`` told the observed student's true type (through ``Question.revealed_type``)."""

    name = "behaviour-edits-oracle-type"
    reads_true_type = True

    def _type_for(self, question: Question) -> int:
        if question.revealed_type is None:
            raise InputError(f"{self.name} needs the scorer to reveal the student's type", field="revealed_type")
        return question.revealed_type


TECHNIQUES: Registry[Technique] = Registry("technique")
"""Every technique by name; :func:`make_technique` builds one (options: ``seed``, ``model``, ``distance``)."""


@TECHNIQUES.register("randd", help="a random option (the trivial baseline)", display="RandD")
def _randd(*, seed: int = 0, **_: Any) -> Technique:
    return RandD(seed)


@TECHNIQUES.register("editd", help="the option closest to the reference attempt by edit distance", display="EditD")
def _editd(*, distance: DistanceKind = "tokens", **_: Any) -> Technique:
    return EditD(distance)


@TECHNIQUES.register(
    "editembd",
    help="EditD in a learned embedding, trained on generated codes",
    display="EditEmbD (ours, synthetic codes)",
)
def _editembd(*, seed: int = 0, **_: Any) -> Technique:
    return EditEmbD(seed)


@TECHNIQUES.register(
    "symss-original", help="the paper's SymSS, re-implemented from its code", display="SymSS (original code)"
)
def _symss_original(**_: Any) -> Technique:
    from debugtutor.studentsyn.symss_original import SymSSOriginal

    return SymSSOriginal()


@TECHNIQUES.register(
    "behaviour-edits", help="this project's behaviour edit families, type inferred", display="Behaviour edits (ours)"
)
def _behaviour_edits(**_: Any) -> Technique:
    return BehaviourEdits()


@TECHNIQUES.register(
    "behaviour-edits-oracle-type",
    help="behaviour edits told the true student type (an upper bound, not a method)",
    display="Behaviour edits, oracle type (ours)",
)
def _behaviour_edits_oracle(**_: Any) -> Technique:
    return BehaviourEditsOracleType()


@TECHNIQUES.register(
    "neurss", help="a neural synthesizer trained on synthetic students", display="NeurSS (ours, synthetic students)"
)
def _neurss(*, seed: int = 0, **_: Any) -> Technique:
    from debugtutor.studentsyn.neurss import NeurSS, NeurSSConfig

    return NeurSS(NeurSSConfig(seed=seed))


@TECHNIQUES.register("llmss", help="a language model prompted with the student's attempt", display="LLM-SS")
def _llmss(*, model: ModelBackend | None = None, **_: Any) -> Technique:
    from debugtutor.studentsyn.llmss import LLMSS

    if not model:
        raise InputError("llmss needs a model", field="--model", hint="for example --model scripted:answers.json")
    return LLMSS(model)


TECHNIQUES.renamed("symss", "SymSS is now 'symss-original' (the paper's code); our rules are 'behaviour-edits'")
TECHNIQUES.renamed("symss-infer", "SymSS is now 'symss-original' (the paper's code); our rules are 'behaviour-edits'")
NON_LLM_TECHNIQUES = tuple(name for name in TECHNIQUES if name != "llmss")
DISPLAY_NAMES = {name: TECHNIQUES.display(name) for name in TECHNIQUES}


def make_technique(
    name: str, *, seed: int = 0, model: ModelBackend | None = None, distance: DistanceKind = "tokens"
) -> Technique:
    """The technique called ``name`` (see :data:`TECHNIQUES`); ``model`` is the back-end of ``llmss``."""
    return TECHNIQUES.create(name, seed=seed, model=model, distance=distance)
