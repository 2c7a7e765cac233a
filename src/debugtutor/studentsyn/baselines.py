"""The baseline techniques of the StudentSyn arena: a random option (RandD), the option nearest the observed attempt
(EditD), and EditD mixed with a learned code embedding (EditEmbD)."""

from __future__ import annotations

from debugtutor.errors import InputError
from debugtutor.maze import compact
from debugtutor.studentsyn.distances import DistanceKind, program_distance, token_edit_distance
from debugtutor.studentsyn.questions import DEFAULT_SETTING, FamilyBrief, Question, TaskSheet, choose


class RandD:
    """A uniformly random option: the draw is fixed by the question's content and the seed, so reruns agree."""

    name = "randd"
    settings: tuple[str, ...] = (DEFAULT_SETTING,)
    reads_true_type = False

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def prepare(self, brief: FamilyBrief) -> None:
        """Nothing to learn."""

    def predict(self, question: Question) -> dict[str, str]:
        return {DEFAULT_SETTING: choose(question, [0.0] * len(question.options), salt=f"randd:{self.seed}")}


class EditD:
    """The option nearest to the observed attempt, as the paper's EditD."""

    name = "editd"
    settings: tuple[str, ...] = (DEFAULT_SETTING,)
    reads_true_type = False

    def __init__(self, distance: DistanceKind = "tokens") -> None:
        self.distance = distance

    def prepare(self, brief: FamilyBrief) -> None:
        """Nothing to learn."""

    def predict(self, question: Question) -> dict[str, str]:
        distances = [float(program_distance(question.code_a, o.program, self.distance)) for o in question.options]
        return {DEFAULT_SETTING: choose(question, distances, lowest=True)}


class EditEmbD:
    """EditD combined with a learned code embedding: alpha * embedding + (1 - alpha) * edit distance."""

    name = "editembd"
    alphas = (0.0, 0.25, 0.5, 0.75, 1.0)
    settings: tuple[str, ...] = tuple(f"alpha={alpha}" for alpha in alphas)
    reads_true_type = False

    def __init__(self, seed: int = 0, generated_codes: int = 600, pairs: int = 1500, steps: int = 150) -> None:
        self.seed = seed
        self.generated_codes = generated_codes
        self.pairs, self.steps = pairs, steps
        self._embedders: dict[TaskSheet, object] = {}

    def prepare(self, brief: FamilyBrief) -> None:
        from debugtutor.studentsyn.embedding import CodeEmbedder, generate_codes

        if brief.reference in self._embedders:
            return
        # Only the tasks' solutions seed the generated training codes: no student code is seen.
        seeds = [s.solution for s in brief.tasks] + [s.basic_solution for s in brief.tasks if s.basic_solution]
        seeds.sort(key=compact)  # by content, so the training codes do not depend on the tasks' names
        embedder = CodeEmbedder(seed=self.seed)
        embedder.fit(generate_codes(seeds, self.generated_codes, seed=self.seed), pairs=self.pairs, steps=self.steps)
        self._embedders[brief.reference] = embedder

    def predict(self, question: Question) -> dict[str, str]:
        from debugtutor.studentsyn.embedding import CodeEmbedder

        embedder = self._embedders.get(question.reference)
        if not isinstance(embedder, CodeEmbedder):
            raise InputError(f"EditEmbD was not prepared for task '{question.reference.name}'")
        programs = [o.program for o in question.options]
        vectors = embedder.embed([question.code_a, *programs])
        embedded = [float(((vectors[0] - vectors[i + 1]) ** 2).sum() ** 0.5) for i in range(len(programs))]
        edits = [float(token_edit_distance(question.code_a, p)) for p in programs]
        return {
            setting: choose(question, [alpha * e + (1 - alpha) * d for e, d in zip(embedded, edits)], lowest=True)
            for setting, alpha in zip(self.settings, self.alphas)
        }
