"""A finished toy run to draw reports from: four items scored 1, 0, 1, 1, one failing item, published numbers."""

from __future__ import annotations

from pathlib import Path

import pytest

from debugtutor.report import write_report
from debugtutor.runs import EvalItem, EvalTask, RunResult, SolverOutput, run_task


def _solve(item: EvalItem) -> SolverOutput:
    if item.id == "broken":
        raise ZeroDivisionError("division by zero in the student's loop")
    return SolverOutput(output=f"answer-{item.input}", usage={"prompt_tokens": 100, "completion_tokens": 20})


def _score(item: EvalItem, output: str) -> dict[str, float | str]:
    return {"correct": float(item.target), "verdict": "fixed" if item.target else "not fixed"}


@pytest.fixture
def finished_run(tmp_path: Path) -> RunResult:
    items = [EvalItem(id=f"q{n}", input=n, target=flag) for n, flag in enumerate([True, False, True, True])]
    items.append(EvalItem(id="broken", input=99, target=True))
    task = EvalTask(
        name="report-toy",
        items=items,
        solver=_solve,
        scorer=_score,
        model_spec="scripted:toy",
        summarize=lambda records: {"fixed_share": 0.75},
        published={
            "Accuracy (%)": {
                "ours": "correct",
                "paper": {"GPT-4": 17.6, "CodeLlama-7B": 3.25},
                "ours_scale": 100,
                "source": "Toy et al. 2024, Table 3",
            }
        },
    )
    return run_task(task, runs_dir=tmp_path / "runs", argv=["debugtutor", "toy"], report=write_report)
