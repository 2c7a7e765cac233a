"""StudentSyn: model a student from one attempt on a reference Maze task and synthesize their attempt on a new one.

Re-implements the benchmark of Singla & Theodoropoulos (EDM 2022) on top of :mod:`debugtutor.maze`: the data layout
(:func:`load_benchmark`), seeded discriminative instances in every direction (:func:`build_instances`), the leak-proof
view a technique gets (:mod:`.questions`), the techniques (RandD, EditD, EditEmbD, the original SymSS re-implemented
from its code, this project's behaviour edit families with the type inferred or, as an upper bound, told, NeurSS
trained on synthetic students, LLM-SS), the experts' TutorSS answers scored from their files (:mod:`.tutorss`),
evaluation held out both ways (:func:`held_out_tasks`) beside the paper's cross-validated protocol, and the
generative gallery with expert ratings and an automatic proxy score.
"""

from __future__ import annotations

from debugtutor.studentsyn.behaviour_edits import BehaviourModel, rule_for, task_context
from debugtutor.studentsyn.dataset import Behaviour, RandomCode, StudentAttempt, TaskFamily, load_benchmark, load_family
from debugtutor.studentsyn.distances import token_edit_distance, tree_edit_distance
from debugtutor.studentsyn.evaluation import (
    DEFAULT_ROUNDS,
    PAPER_NUMBERS,
    DirectionAccuracy,
    HeldOutTarget,
    HeldOutTasks,
    LeaveOneTargetOut,
    ReferenceAccuracy,
    SignificanceResult,
    TechniqueAccuracy,
    answer,
    build_eval_task,
    comparable_paper_numbers,
    evaluate_in_process,
    evaluate_on_instances,
    evaluate_with_runner,
    expected_accuracy,
    held_out_tasks,
    leave_one_target_out,
    significance,
)
from debugtutor.studentsyn.generative import Rating, Scenario, proxy_score, score_ratings, write_gallery
from debugtutor.studentsyn.instances import DEFAULT_SAMPLES, DiscriminativeInstance, build_instances, present
from debugtutor.studentsyn.questions import FamilyBrief, Option, Question, TaskSheet, brief_of, choose, sheets_of
from debugtutor.studentsyn.symss_original import SymSSOriginal
from debugtutor.studentsyn.techniques import (
    DISPLAY_NAMES,
    NON_LLM_TECHNIQUES,
    TECHNIQUES,
    BehaviourEdits,
    BehaviourEditsOracleType,
    EditD,
    EditEmbD,
    RandD,
    Technique,
    make_technique,
)
from debugtutor.studentsyn.tutorss import TutorSSResult, expert_instances, score_tutorss

__all__ = [
    "DEFAULT_ROUNDS",
    "DEFAULT_SAMPLES",
    "DISPLAY_NAMES",
    "NON_LLM_TECHNIQUES",
    "PAPER_NUMBERS",
    "TECHNIQUES",
    "Behaviour",
    "BehaviourEdits",
    "BehaviourEditsOracleType",
    "BehaviourModel",
    "DirectionAccuracy",
    "DiscriminativeInstance",
    "EditD",
    "EditEmbD",
    "FamilyBrief",
    "HeldOutTarget",
    "HeldOutTasks",
    "LeaveOneTargetOut",
    "Option",
    "Question",
    "RandD",
    "RandomCode",
    "Rating",
    "ReferenceAccuracy",
    "Scenario",
    "SignificanceResult",
    "StudentAttempt",
    "SymSSOriginal",
    "TaskFamily",
    "TaskSheet",
    "Technique",
    "TechniqueAccuracy",
    "TutorSSResult",
    "answer",
    "brief_of",
    "build_eval_task",
    "build_instances",
    "choose",
    "comparable_paper_numbers",
    "evaluate_in_process",
    "evaluate_on_instances",
    "evaluate_with_runner",
    "expected_accuracy",
    "expert_instances",
    "held_out_tasks",
    "leave_one_target_out",
    "load_benchmark",
    "load_family",
    "make_technique",
    "present",
    "proxy_score",
    "rule_for",
    "score_ratings",
    "score_tutorss",
    "sheets_of",
    "significance",
    "task_context",
    "token_edit_distance",
    "tree_edit_distance",
    "write_gallery",
]
