"""StudentSyn: model a student from one attempt on a reference Maze task and synthesize their attempt on a new one.

Re-implements the benchmark of Singla & Theodoropoulos (EDM 2022) on top of :mod:`debugtutor.maze`: the data layout
(:func:`load_benchmark`), seeded discriminative instances (:func:`build_instances`), the techniques (RandD, EditD,
EditEmbD, SymSS with the type labelled or inferred, NeurSS trained on synthetic students, LLM-SS), cross-validated
evaluation with significance tests, the leave-one-target-out check (:func:`leave_one_target_out`), and the
generative gallery with expert ratings and an automatic proxy score.
"""

from __future__ import annotations

from debugtutor.studentsyn.dataset import Behaviour, RandomCode, StudentAttempt, TaskFamily, load_benchmark, load_family
from debugtutor.studentsyn.distances import token_edit_distance, tree_edit_distance
from debugtutor.studentsyn.evaluation import (
    DEFAULT_ROUNDS,
    HeldOutTarget,
    LeaveOneTargetOut,
    ReferenceAccuracy,
    SignificanceResult,
    TechniqueAccuracy,
    evaluate_in_process,
    evaluate_with_runner,
    leave_one_target_out,
    significance,
)
from debugtutor.studentsyn.generative import Rating, Scenario, proxy_score, score_ratings, write_gallery
from debugtutor.studentsyn.instances import DEFAULT_SAMPLES, DiscriminativeInstance, build_instances
from debugtutor.studentsyn.neurss import NeurSS, NeurSSConfig
from debugtutor.studentsyn.rules import BehaviourModel, rule_for, task_context
from debugtutor.studentsyn.techniques import (
    NON_LLM_TECHNIQUES,
    TECHNIQUES,
    EditD,
    EditEmbD,
    RandD,
    SymSS,
    Technique,
    make_technique,
)

__all__ = [
    "DEFAULT_ROUNDS",
    "DEFAULT_SAMPLES",
    "NON_LLM_TECHNIQUES",
    "TECHNIQUES",
    "Behaviour",
    "BehaviourModel",
    "DiscriminativeInstance",
    "EditD",
    "EditEmbD",
    "HeldOutTarget",
    "LeaveOneTargetOut",
    "NeurSS",
    "NeurSSConfig",
    "RandD",
    "RandomCode",
    "Rating",
    "ReferenceAccuracy",
    "Scenario",
    "SignificanceResult",
    "StudentAttempt",
    "SymSS",
    "TaskFamily",
    "Technique",
    "TechniqueAccuracy",
    "build_instances",
    "evaluate_in_process",
    "evaluate_with_runner",
    "leave_one_target_out",
    "load_benchmark",
    "load_family",
    "make_technique",
    "proxy_score",
    "rule_for",
    "score_ratings",
    "significance",
    "task_context",
    "token_edit_distance",
    "tree_edit_distance",
    "write_gallery",
]
