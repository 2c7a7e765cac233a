"""The discriminative (and, where they can, generative) techniques of the StudentSyn arena.

Every technique sees a family once (``prepare``: the reference task and all tasks it may be asked about), then answers
instances: ``predict(instance)`` returns the chosen option for each of its hyperparameter settings (one setting,
``"default"``, for techniques with nothing to tune), so cross-validation can pick a setting on a tuning fold without
asking again. Generative techniques also ``synthesize`` a ranked list of codes for a target task.

- ``randd``: a uniformly random option (seeded per instance).
- ``editd``: the option nearest to the observed attempt in EditD token edit distance (or tree edit distance).
- ``editembd``: alpha * embedding distance + (1 - alpha) * EditD distance, alpha tuned by cross-validation.
- ``symss``: the rules of :mod:`debugtutor.studentsyn.rules` for the observed student's labelled type.
- ``symss-infer``: the same with the type inferred from the reference attempt (no labels used).
- ``neurss``: a small neural scorer trained on synthetic students and tasks, see :mod:`debugtutor.studentsyn.neurss`.
- ``llmss``: see :mod:`debugtutor.studentsyn.llmss`.
"""

from __future__ import annotations

import math
import random
from typing import Protocol, runtime_checkable

from debugtutor.errors import InputError
from debugtutor.maze import Program
from debugtutor.studentsyn.dataset import TaskFamily
from debugtutor.studentsyn.distances import DistanceKind, program_distance, token_edit_distance
from debugtutor.studentsyn.instances import DiscriminativeInstance
from debugtutor.studentsyn.rules import BehaviourModel, TaskContext, behaviour_model, task_context

DEFAULT_SETTING = "default"


@runtime_checkable
class Technique(Protocol):
    """A discriminative technique: ``prepare`` once per family, then ``predict`` per instance."""

    name: str
    settings: tuple[str, ...]

    def prepare(self, family: TaskFamily) -> None: ...

    def predict(self, instance: DiscriminativeInstance) -> dict[str, int]: ...


@runtime_checkable
class GenerativeTechnique(Technique, Protocol):
    """A technique that can also write the student's attempt on a target task (best first)."""

    def synthesize(self, code_a: Program, target_task: str, top_k: int = 3) -> list[Program]: ...


def _argmin(values: list[float]) -> int:
    return min(range(len(values)), key=lambda i: (values[i], i))


class RandD:
    """A uniformly random option; the draw is seeded by the instance id, so reruns agree."""

    name = "randd"
    settings: tuple[str, ...] = (DEFAULT_SETTING,)

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def prepare(self, family: TaskFamily) -> None:
        """Nothing to learn."""

    def predict(self, instance: DiscriminativeInstance) -> dict[str, int]:
        rng = random.Random(f"randd:{self.seed}:{instance.id}")
        return {DEFAULT_SETTING: rng.randrange(len(instance.options))}


class EditD:
    """The option nearest to the observed attempt (ties to the lowest position), as the paper's EditD."""

    name = "editd"
    settings: tuple[str, ...] = (DEFAULT_SETTING,)

    def __init__(self, distance: DistanceKind = "tokens") -> None:
        self.distance = distance

    def prepare(self, family: TaskFamily) -> None:
        """Nothing to learn."""

    def predict(self, instance: DiscriminativeInstance) -> dict[str, int]:
        distances = [float(program_distance(instance.code_a, option, self.distance)) for option in instance.options]
        return {DEFAULT_SETTING: _argmin(distances)}


class EditEmbD:
    """EditD combined with a learned code embedding: alpha * embedding + (1 - alpha) * edit distance."""

    name = "editembd"
    alphas = (0.0, 0.25, 0.5, 0.75, 1.0)
    settings: tuple[str, ...] = tuple(f"alpha={alpha}" for alpha in alphas)

    def __init__(self, seed: int = 0, generated_codes: int = 600) -> None:
        self.seed = seed
        self.generated_codes = generated_codes
        self._embedders: dict[str, object] = {}

    def prepare(self, family: TaskFamily) -> None:
        from debugtutor.studentsyn.embedding import CodeEmbedder, generate_codes

        if family.reference in self._embedders:
            return
        # Only solutions seed the generated training codes: the student attempts are what we are evaluated on.
        seeds = list(family.solutions.values()) + list(family.basic_solutions.values())
        embedder = CodeEmbedder(seed=self.seed)
        embedder.fit(generate_codes(seeds, self.generated_codes, seed=self.seed))
        self._embedders[family.reference] = embedder

    def predict(self, instance: DiscriminativeInstance) -> dict[str, int]:
        from debugtutor.studentsyn.embedding import CodeEmbedder

        embedder = self._embedders.get(instance.reference_task)
        if not isinstance(embedder, CodeEmbedder):
            raise InputError(f"EditEmbD was not prepared for family '{instance.reference_task}'")
        vectors = embedder.embed([instance.code_a, *instance.options])
        embedded = [float(((vectors[0] - vectors[i + 1]) ** 2).sum() ** 0.5) for i in range(len(instance.options))]
        edits = [float(token_edit_distance(instance.code_a, option)) for option in instance.options]
        return {
            setting: _argmin([alpha * e + (1 - alpha) * d for e, d in zip(embedded, edits)])
            for setting, alpha in zip(self.settings, self.alphas)
        }


def _logsumexp(values: list[float]) -> float:
    top = max(values)
    return top + math.log(sum(math.exp(v - top) for v in values))


class SymSS:
    """Symbolic student synthesis: per-type rules on the target task, the type labelled or inferred.

    Discriminative choice: the option with the highest posterior of the student's type among all types and a
    background class of "random edits of the solution" (so an option that every type explains equally well, such as
    the solution itself, is not preferred for being likely under all of them). How much that background explains,
    the cost per edit away from the solution, is the one hyperparameter: one setting per cost in
    ``background_costs``, chosen by cross-validation (or, leaving one target out, on the other targets).
    """

    BACKGROUND_COSTS = (0.5, 0.7, 0.9, 1.1, 1.3)

    def __init__(
        self, *, infer_type: bool, edit_cost: float = 1.5, background_costs: tuple[float, ...] = BACKGROUND_COSTS
    ) -> None:
        if not background_costs:
            raise InputError("SymSS needs at least one background cost", field="background_costs")
        self.infer_type = infer_type
        self.name = "symss-infer" if infer_type else "symss"
        self.background_costs = background_costs
        self.settings: tuple[str, ...] = (
            tuple(f"background={cost}" for cost in background_costs)
            if len(background_costs) > 1
            else (DEFAULT_SETTING,)
        )
        self.edit_cost = edit_cost
        self._families: dict[str, TaskFamily] = {}
        self._contexts: dict[tuple[str, str], TaskContext] = {}
        self._models: dict[tuple[str, str, int], BehaviourModel] = {}
        self._background: dict[tuple[str, str], BehaviourModel] = {}

    def prepare(self, family: TaskFamily) -> None:
        self._families[family.reference] = family

    def _family(self, reference: str) -> TaskFamily:
        try:
            return self._families[reference]
        except KeyError:
            raise InputError(f"SymSS was not prepared for family '{reference}'") from None

    def _context(self, reference: str, task: str) -> TaskContext:
        key = (reference, task)
        if key not in self._contexts:
            family = self._family(reference)
            if task not in family.tasks:
                raise InputError(f"unknown task '{task}' in family '{reference}'", field="target_task")
            self._contexts[key] = task_context(
                family.tasks[task], family.solutions[task], family.basic_solutions.get(task)
            )
        return self._contexts[key]

    def model(self, reference: str, task: str, behaviour: int) -> BehaviourModel:
        key = (reference, task, behaviour)
        if key not in self._models:
            description = self._family(reference).behaviours[behaviour].description
            self._models[key] = behaviour_model(self._context(reference, task), description, edit_cost=self.edit_cost)
        return self._models[key]

    def _background_model(self, reference: str, task: str) -> BehaviourModel:
        # Cost 1 per edit: its log-likelihood is minus the distance, so each setting's cost just scales it.
        key = (reference, task)
        if key not in self._background:
            context = self._context(reference, task)
            self._background[key] = BehaviourModel("solution_edits", context, [(context.solution, 1.0)], 1.0)
        return self._background[key]

    def type_scores(self, reference: str, code_a: Program) -> dict[int, float]:
        """Log-likelihood of the reference attempt under each type's synthesis on the reference task."""
        family = self._family(reference)
        return {b: self.model(reference, reference, b).log_likelihood(code_a) for b in family.behaviour_ids}

    def observe(self, reference: str, code_a: Program, behaviour: int | None = None) -> int:
        """The type to synthesize with: the labelled one, or the best-scoring one when inferring."""
        if behaviour is not None and not self.infer_type:
            return behaviour
        scores = self.type_scores(reference, code_a)
        return max(scores, key=lambda b: (scores[b], -b))

    def option_scores(
        self,
        reference: str,
        task: str,
        behaviour: int,
        options: tuple[Program, ...],
        background_cost: float | None = None,
    ) -> list[float]:
        """Log-posterior of ``behaviour`` for each option, against every type and the background of solution edits."""
        cost = self.background_costs[len(self.background_costs) // 2] if background_cost is None else background_cost
        return self._posteriors(reference, task, behaviour, options, (cost,))[0]

    def _posteriors(
        self, reference: str, task: str, behaviour: int, options: tuple[Program, ...], costs: tuple[float, ...]
    ) -> list[list[float]]:
        family = self._family(reference)
        own = [self.model(reference, task, behaviour).log_likelihood(option) for option in options]
        rivals = [[self.model(reference, task, b).log_likelihood(o) for b in family.behaviour_ids] for o in options]
        distance = [-self._background_model(reference, task).log_likelihood(option) for option in options]
        return [[own[i] - _logsumexp([*rivals[i], -cost * distance[i]]) for i in range(len(options))] for cost in costs]

    def predict(self, instance: DiscriminativeInstance) -> dict[str, int]:
        behaviour = self.observe(instance.reference_task, instance.code_a, instance.behaviour)
        per_cost = self._posteriors(
            instance.reference_task, instance.target_task, behaviour, instance.options, self.background_costs
        )
        return {setting: _argmin([-s for s in scores]) for setting, scores in zip(self.settings, per_cost)}

    def synthesize_for(
        self, reference: str, code_a: Program, target_task: str, top_k: int = 3, behaviour: int | None = None
    ) -> list[Program]:
        chosen = self.observe(reference, code_a, behaviour)
        return self.model(reference, target_task, chosen).top(top_k)


def make_technique(
    name: str, *, seed: int = 0, model: str | None = None, distance: DistanceKind = "tokens"
) -> Technique:
    """The technique called ``name`` (``randd editd editembd symss symss-infer neurss llmss``)."""
    if name == "randd":
        return RandD(seed)
    if name == "editd":
        return EditD(distance)
    if name == "editembd":
        return EditEmbD(seed)
    if name in ("symss", "symss-infer"):
        return SymSS(infer_type=name == "symss-infer")
    if name == "neurss":
        from debugtutor.studentsyn.neurss import NeurSS, NeurSSConfig

        return NeurSS(NeurSSConfig(seed=seed))
    if name == "llmss":
        from debugtutor.studentsyn.llmss import LLMSS

        if not model:
            raise InputError("llmss needs a model", field="--model", hint="for example --model scripted:answers.json")
        return LLMSS(model)
    raise InputError(f"unknown technique '{name}'", field="--technique", hint=", ".join(TECHNIQUES))


TECHNIQUES = ("randd", "editd", "editembd", "symss", "symss-infer", "neurss", "llmss")
NON_LLM_TECHNIQUES = ("randd", "editd", "editembd", "symss", "symss-infer", "neurss")
