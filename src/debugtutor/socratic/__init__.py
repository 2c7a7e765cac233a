"""The Socratic debugging arena: the Socratic Debugging Benchmark's files, tutoring and evaluation.

- Files and data: :mod:`~debugtutor.formats.socratic_sections`, :mod:`~debugtutor.socratic.dialogue`,
  :mod:`~debugtutor.socratic.dataset` (loading, both ways of counting, evaluation examples).
- Instructors: :func:`get_instructor` by name (``offline``, ``zero-shot``, ``single``, ``cot``, ``cot-as-coded``,
  ``grounded``, ``grounded-cot``), with prompts in :mod:`~debugtutor.socratic.prompts`.
- Evaluation: :func:`build_eval_task` for the runner, :func:`score_predictions` for predictions made elsewhere.
- The live tutor: :class:`TutorSession` and :func:`run_interactive`.

The file readers load eagerly; instructors, evaluation and the tutor (which pull in the analysis engine and the
metrics libraries) load on first use, so reading a benchmark file stays cheap.
"""

from __future__ import annotations

import importlib
from typing import Any

from debugtutor.formats.socratic_sections import (
    SocraticSections,
    parse_sections,
    read_sections,
    strip_line_numbers,
)

_LAZY: dict[str, str] = {
    "Alternative": "dialogue",
    "DialogueTurn": "dialogue",
    "SocraticDialogue": "dialogue",
    "format_dialogue_file": "dialogue",
    "parse_dialogue_file": "dialogue",
    "read_dialogue_file": "dialogue",
    "DatasetStats": "dataset",
    "EvaluationExample": "dataset",
    "TurnRecord": "dataset",
    "build_examples": "dataset",
    "compute_stats": "dataset",
    "load_dialogues": "dataset",
    "LeakGuard": "leak",
    "LeakVerdict": "leak",
    "read_labelled_set": "leak_labels",
    "parse_utterance_list": "utterances",
    "AnalysisQuestioner": "questioner",
    "TutoringState": "questioner",
    "GroundingFacts": "prompts",
    "build_messages": "prompts",
    "INSTRUCTOR_NAMES": "instructors",
    "Instructor": "instructors",
    "InstructorPrediction": "instructors",
    "ModelInstructor": "instructors",
    "OfflineInstructor": "instructors",
    "get_instructor": "instructors",
    "preview_prompts": "instructors",
    "grounding_facts": "instructors",
    "build_eval_task": "evaluation",
    "mismatched_partners": "evaluation",
    "load_examples": "evaluation",
    "read_predictions": "evaluation",
    "score_predictions": "evaluation",
    "TutorSession": "tutor",
    "run_interactive": "tutor",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


__all__ = ["SocraticSections", "parse_sections", "read_sections", "strip_line_numbers", *_LAZY]
