"""``symss-original``: the original SymSS's discriminative choice, re-implemented.

For the observed attempt, the type is the one whose grammar on the reference task scores it highest (the first type
on a tie, as ``numpy.argmax``); that type's grammar on the target task then scores every option and the best one is
chosen. A score is the log best-parse probability per token, ``-inf`` for an option the grammar cannot derive.

Ties between options: the original took the first of the tied options in the instance's random order; here the tie is
broken by :func:`~debugtutor.studentsyn.questions.choose` (by content), which is the same in distribution and does not
depend on option ids or order. Scores are cached per (task, type, program): the same few hundred codes recur.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from debugtutor.errors import DataError
from debugtutor.maze import Program
from debugtutor.studentsyn.questions import FamilyBrief, Question, TaskSheet, choose
from debugtutor.studentsyn.symss_original.generators import (
    basic_family_grammar,
    has_control,
    loop_family_grammar,
    scored_tokens,
)
from debugtutor.studentsyn.symss_original.grammar import Grammar

DISPLAY_NAME = "SymSS (original code)"


@dataclass(frozen=True)
class _Kind:
    loop: bool
    types: tuple[int, ...]


class SymSSOriginal:
    """The original SymSS (EDM 2022 code): per-type weighted grammars, type inferred on the reference task."""

    name = "symss-original"
    display_name = DISPLAY_NAME
    settings: tuple[str, ...] = ("default",)
    reads_true_type = False

    def __init__(self) -> None:
        self._kinds: dict[TaskSheet, _Kind] = {}
        self._grammars: dict[tuple[TaskSheet, int, bool], Grammar] = {}
        self._scores: dict[tuple[TaskSheet, int, bool, Program], float] = {}
        self._types: dict[tuple[TaskSheet, Program], int] = {}

    def prepare(self, brief: FamilyBrief) -> None:
        loop = has_control(brief.reference.solution)
        if loop:
            for sheet in brief.tasks:
                missing = [
                    what
                    for what, present in (
                        (f"{sheet.name}_code_solution_basic_actions.json", sheet.basic_solution is not None),
                        (f"{sheet.name}_code_distractors.json", bool(sheet.distractors)),
                    )
                    if not present
                ]
                if missing:
                    raise DataError(
                        f"SymSS (original code) needs {', '.join(missing)} for task '{sheet.name}'",
                        hint="a loop family needs solution_basic_actions/ and symss_<family>_distractor_paths/",
                    )
        kind = _Kind(loop, tuple(brief.behaviour_ids))
        for sheet in brief.tasks:
            self._kinds[sheet] = kind

    def _kind(self, sheet: TaskSheet) -> _Kind:
        kind = self._kinds.get(sheet)
        if kind is None:
            raise DataError(f"SymSS (original code) was not prepared for task '{sheet.name}'")
        return kind

    def grammar(self, sheet: TaskSheet, type_id: int) -> Grammar:
        """The grammar of ``type_id`` on the task of ``sheet`` (built once)."""
        kind = self._kind(sheet)
        key = (sheet, type_id, kind.loop)
        if key not in self._grammars:
            if kind.loop:
                assert sheet.basic_solution is not None  # checked in prepare
                rules = loop_family_grammar(type_id, sheet.solution, sheet.basic_solution, sheet.distractors)
            else:
                rules = basic_family_grammar(type_id, sheet.solution)
            self._grammars[key] = Grammar.build(rules)
        return self._grammars[key]

    def score(self, sheet: TaskSheet, type_id: int, program: Program) -> float:
        """The original's score of ``program`` under the type's grammar on this task."""
        key = (sheet, type_id, self._kind(sheet).loop, program)
        if key not in self._scores:
            self._scores[key] = self.grammar(sheet, type_id).score(scored_tokens(program))
        return self._scores[key]

    def infer_type(self, reference: TaskSheet, code_a: Program) -> int:
        """The type whose grammar on the reference task scores the observed attempt best (the first on a tie)."""
        key = (reference, code_a)
        if key not in self._types:
            types = self._kind(reference).types
            scores = [self.score(reference, type_id, code_a) for type_id in types]
            self._types[key] = types[max(range(len(types)), key=lambda i: (scores[i], -i))]
        return self._types[key]

    def option_scores(self, question: Question) -> list[float]:
        type_id = self.infer_type(question.reference, question.code_a)
        return [self.score(question.target, type_id, option.program) for option in question.options]

    def predict(self, question: Question) -> dict[str, str]:
        return {"default": choose(question, self.option_scores(question))}

    def synthesize(self, question: Question, top_k: int = 3, iterations: int = 1000, seed: int = 0) -> list[Program]:
        """The original's generation: sample derivations, keep distinct ones by their per-rule geometric mean."""
        from debugtutor.studentsyn.symss_original.sampling import top_derivations

        type_id = self.infer_type(question.reference, question.code_a)
        grammar = self.grammar(question.target, type_id)
        return top_derivations(grammar, top_k, iterations, random.Random(f"symss-original:{seed}"))
