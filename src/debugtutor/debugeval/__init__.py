"""The DebugEval arena: Bug Localization, Bug Identification, Code Review and Code Repair in Python, C++ and Java.

Records in DebugEval's own JSONL format (:mod:`.records`), built from DebugBench or the Socratic benchmark
(:mod:`.build`), answered by a model, by a model grounded in program analysis, or by the offline analysis engine
(:mod:`.llm_solver`, :mod:`.offline`), each seeing only what its prompt shows (:mod:`.views`), and scored the way
DebugEval scores them (:mod:`.scoring`). Code Repair's tests come from the problem's oracles (:mod:`.problem_tests`);
the public judge (:mod:`.judge`) grades code written elsewhere with the same tests.
"""

from debugtutor.debugeval.build import BuildReport, BuildSettings, build_from_debugbench, write_build
from debugtutor.debugeval.debugbench import DebugBenchItem, load_debugbench
from debugtutor.debugeval.judge import JudgeResult, Prediction, judge, read_predictions
from debugtutor.debugeval.llm_solver import ModelSolver
from debugtutor.debugeval.offline import OfflineSolver
from debugtutor.debugeval.records import TASKS, DebugEvalRecord, load_records, write_records
from debugtutor.debugeval.scoring import score_item, summarize
from debugtutor.debugeval.socratic_bugs import keep_failing, read_socratic_bugs
from debugtutor.debugeval.tasks import TABLE_IV, build_eval_task, build_items
from debugtutor.debugeval.views import TaskView, ViewAnswer, ViewSolver

__all__ = [
    "TABLE_IV",
    "TASKS",
    "BuildReport",
    "BuildSettings",
    "DebugBenchItem",
    "DebugEvalRecord",
    "JudgeResult",
    "ModelSolver",
    "OfflineSolver",
    "Prediction",
    "TaskView",
    "ViewAnswer",
    "ViewSolver",
    "build_eval_task",
    "build_from_debugbench",
    "build_items",
    "judge",
    "keep_failing",
    "load_debugbench",
    "load_records",
    "read_predictions",
    "read_socratic_bugs",
    "score_item",
    "summarize",
    "write_build",
    "write_records",
]
