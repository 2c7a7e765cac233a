"""The DebugEval solvers by name: the offline analysis engine, a model, and a model grounded in the engine's facts.

Each takes a :class:`~debugtutor.debugeval.views.TaskView` (what the prompt shows, nothing else) and answers it; the
CLI and other callers build them through :data:`SOLVERS` (options: ``model``, ``samples``, ``prompt_style``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from debugtutor.errors import InputError
from debugtutor.runs import Registry

if TYPE_CHECKING:
    from debugtutor.llm import ModelBackend

SOLVERS: Registry[Any] = Registry("solver")


@SOLVERS.register("offline", help="the analysis engine: localization, identification, review, repair; no model")
def _offline(**_: Any) -> Any:
    from debugtutor.debugeval.offline import OfflineSolver

    return OfflineSolver()


def _model_solver(name: str, model: ModelBackend | None, *, grounded: bool, **options: Any) -> Any:
    if model is None:
        raise InputError(f"--solver {name} needs --model SPEC", field="--model")
    from debugtutor.debugeval.llm_solver import ModelSolver

    return ModelSolver(
        model,
        samples=options.get("samples", 1),
        grounded=grounded,
        prompt_style=options.get("prompt_style", "ours"),
    )


@SOLVERS.register("llm", help="a model answering our prompts (or the paper's, --prompt paper)")
def _llm(*, model: ModelBackend | None = None, **options: Any) -> Any:
    return _model_solver("llm", model, grounded=False, **options)


@SOLVERS.register("grounded", help="a model whose prompt also holds the analysis engine's facts")
def _grounded(*, model: ModelBackend | None = None, **options: Any) -> Any:
    return _model_solver("grounded", model, grounded=True, **options)
