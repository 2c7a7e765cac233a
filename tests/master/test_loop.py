"""The whole MASTER loop on a tiny random model, in seconds: synthesize through the runner with the model as the
learner, write the data, fine-tune the model on it, and let the tuned model (a plain model spec) answer again."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from debugtutor.llm import get_model
from debugtutor.master.learner import Learner
from debugtutor.master.quizzer import OfflineQuizzer
from debugtutor.master.records import SynthOutcome
from debugtutor.master.sft import read_outcomes, strategy_examples, write_sft_data
from debugtutor.master.sources import load_sources
from debugtutor.master.synth import latest_records, make_synth_task, plan_items
from debugtutor.master.teacher import OfflineTeacher
from debugtutor.runs import run_task
from debugtutor.tune import TrainSettings, read_sft_file, train_lora

pytestmark = pytest.mark.hf


def test_synthesize_train_and_answer_again(split_folder: Path, tmp_path: Path) -> None:
    from debugtutor.tune.tiny import make_tiny_model

    base = f"hf:{make_tiny_model(tmp_path / 'tiny')}"
    sources = load_sources([str(split_folder)], exclude=[])
    items, missing = plan_items(sources.programs, ["bug-identification", "code-review"], ["python"], 3, seed=0)
    assert len(items) == 6 and not missing
    learner = Learner(get_model(base, cache="no-cache").configure(max_tokens=8))
    task = make_synth_task(items, quizzer=OfflineQuizzer(), learner=learner, teacher=OfflineTeacher(),
                           config={}, checksums={})  # fmt: skip
    result = run_task(task, runs_dir=tmp_path / "runs", concurrency=2)
    assert result.status == "success"
    metrics = result.summary["task_metrics"]
    assert metrics["quizzed"] == 6 and metrics["verified"] >= 5
    # a random model answers nothing in the format asked for, so every verified problem is kept
    assert metrics["kept"] == metrics["verified"]
    outcomes = read_outcomes(latest_records(result.run_dir), keep="wrong")
    assert all(isinstance(o, SynthOutcome) and o.solution and o.solution.agrees for o in outcomes)
    synthesis = write_sft_data(tmp_path / "data", outcomes, sources.evaluation, report={})
    assert synthesis["decontamination"]["dropped"] == 0 and synthesis["examples"]["mixed"] == len(outcomes)

    examples = read_sft_file(strategy_examples(tmp_path / "data", "mixed"))
    settings = TrainSettings(batch_size=2, grad_accumulation=1, learning_rate=5e-3, warmup_steps=0, max_length=4096)
    manifest = train_lora(base, examples, tmp_path / "adapter", settings)
    assert manifest.training.examples == len(examples) and manifest.training.steps >= 1

    tuned = Learner(get_model(f"{base}+lora:{tmp_path / 'adapter'}", cache="no-cache").configure(max_tokens=8))
    problem = outcomes[0].problem
    assert problem is not None
    attempts, _ = asyncio.run(tuned.attempt(problem))
    assert len(attempts) == 1 and isinstance(attempts[0].response, str)
