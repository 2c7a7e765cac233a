"""The generic runner every arena evaluates through, and the records it leaves in ``runs/<run-id>/``.

An arena builds an :class:`EvalTask` (items, a solver, a scorer, optional ``summarize`` and published numbers) and
calls :func:`run_task`. The run folder then holds ``manifest.json``, ``samples.jsonl`` (one line per item, appended as
items finish), ``summary.json`` and ``report.html``; ``resume=`` continues a crashed or interrupted run.

This package imports neither matplotlib nor numpy at import time; they load when a summary or report is built.
"""

from debugtutor.runs._records import (
    MANIFEST_FILE,
    REPORT_FILE,
    SAMPLES_FILE,
    SUMMARY_FILE,
    ErrorInfo,
    RunAttempt,
    RunCounts,
    RunManifest,
    RunStatus,
    SampleRecord,
    Timings,
    canonical_json,
    default_runs_dir,
    input_hash,
    list_run_dirs,
    new_run_id,
    read_manifest,
    read_samples,
    resolve_run_dir,
)
from debugtutor.runs._registry import Registry, RegistryEntry
from debugtutor.runs._runner import ReportWriter, RunResult, run_task, run_task_async
from debugtutor.runs._summary import bootstrap_mean_ci, summarize_records, write_summary
from debugtutor.runs._task import EvalItem, EvalTask, Executor, PublishedMetric, Scorer, Solver, SolverOutput

__all__ = [
    "MANIFEST_FILE",
    "REPORT_FILE",
    "SAMPLES_FILE",
    "SUMMARY_FILE",
    "ErrorInfo",
    "EvalItem",
    "EvalTask",
    "Executor",
    "PublishedMetric",
    "Registry",
    "RegistryEntry",
    "ReportWriter",
    "RunAttempt",
    "RunCounts",
    "RunManifest",
    "RunResult",
    "RunStatus",
    "SampleRecord",
    "Scorer",
    "Solver",
    "SolverOutput",
    "Timings",
    "bootstrap_mean_ci",
    "canonical_json",
    "default_runs_dir",
    "input_hash",
    "list_run_dirs",
    "new_run_id",
    "read_manifest",
    "read_samples",
    "resolve_run_dir",
    "run_task",
    "run_task_async",
    "summarize_records",
    "write_summary",
]
