"""SFT data: the three strategies, every output format, duplicates and evaluation problems removed and reported,
and clear errors for a strategy with no data."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from debugtutor.errors import InputError
from debugtutor.master.prompts import answer_text
from debugtutor.master.quizzer import OfflineQuizzer
from debugtutor.master.records import TASKS, QuizProblem, SynthOutcome
from debugtutor.master.sft import (
    STRATEGIES,
    decontaminate,
    deduplicate,
    strategy_examples,
    table_iii,
    target_for,
    write_sft_data,
)
from debugtutor.master.sources import EvaluationKeys, load_sources
from debugtutor.master.teacher import OfflineTeacher
from debugtutor.tune import read_sft_file


def _outcomes(folder: Path) -> list[SynthOutcome]:
    programs = load_sources([str(folder)], exclude=[]).programs

    async def build() -> list[SynthOutcome]:
        found = []
        for task in TASKS:
            for slot in range(4):
                problem = await OfflineQuizzer().quiz(programs[slot % len(programs)], task, slot)
                if isinstance(problem, QuizProblem):
                    solution, _ = await OfflineTeacher().solve(problem)
                    found.append(SynthOutcome(status="kept", task=task, language="python", problem=problem,
                                              solution=solution))  # fmt: skip
        return found

    return asyncio.run(build())


def test_strategies_pick_the_targets_of_table_v(split_folder: Path) -> None:
    outcomes = _outcomes(split_folder)
    for outcome in outcomes:
        assert outcome.problem is not None and outcome.solution is not None
        assert target_for(outcome, "answer") == answer_text(outcome.problem)
        assert target_for(outcome, "cot") == outcome.solution.text
        expected = "answer" if outcome.problem.task == "code-repair" else "cot"
        assert target_for(outcome, "mixed") == target_for(outcome, expected)  # type: ignore[arg-type]


def test_exact_and_near_duplicates_are_removed(split_folder: Path) -> None:
    outcomes = _outcomes(split_folder)
    first = outcomes[0]
    assert first.problem is not None
    spaced = first.problem.model_copy(update={"id": "copy", "buggy_code": first.problem.buggy_code + "\n\n"})
    # the same bug in a program that differs a little elsewhere (both versions carry the extra line)
    tail = "# note\n"
    renamed = first.problem.model_copy(update={"id": "near", "buggy_code": first.problem.buggy_code + tail,
                                               "correct_code": first.problem.correct_code + tail})  # fmt: skip
    extra = [first.model_copy(update={"problem": spaced}), first.model_copy(update={"problem": renamed})]
    kept, dropped = deduplicate([*outcomes, *extra])
    assert dropped == {"exact": 1, "near": 1} and len(kept) == len(outcomes)


def test_problems_of_evaluation_splits_are_dropped(split_folder: Path) -> None:
    outcomes = _outcomes(split_folder)
    assert outcomes[0].problem is not None
    keys = EvaluationKeys()
    keys.add(slug=outcomes[0].problem.slug, question="", programs=[])
    kept, report = decontaminate(outcomes, keys)
    same_slug = sum(1 for o in outcomes if o.problem and o.problem.slug == outcomes[0].problem.slug)
    assert report["dropped"] == same_slug == len(outcomes) - len(kept) and report["dropped_by_match"] == {
        "slug": same_slug}  # fmt: skip


def test_the_data_folder_holds_every_format(split_folder: Path, tmp_path: Path) -> None:
    outcomes = _outcomes(split_folder)
    out = tmp_path / "data"
    synthesis = write_sft_data(out, outcomes, EvaluationKeys(), report={"run_id": "r"})
    assert synthesis["table_iii"]["total"] == len(outcomes) == synthesis["examples"]["mixed"]
    assert synthesis["table_iii"]["per_task"] == table_iii(outcomes)["per_task"]
    info = json.loads((out / "dataset_info.json").read_text())
    for strategy in STRATEGIES:
        examples = read_sft_file(strategy_examples(out, strategy))
        alpaca = json.loads((out / f"alpaca_{strategy}.json").read_text())
        sharegpt = json.loads((out / f"sharegpt_{strategy}.json").read_text())
        assert len(examples) == len(alpaca) == len(sharegpt) == len(outcomes)
        assert alpaca[0] == {"instruction": examples[0].prompt[0].content, "input": "",
                             "output": examples[0].completion[0].content}  # fmt: skip
        assert [turn["from"] for turn in sharegpt[0]["conversations"]] == ["human", "gpt"]
        assert info[f"master_{strategy}"]["file_name"] == f"alpaca_{strategy}.json"
        assert info[f"master_{strategy}_sharegpt"]["formatting"] == "sharegpt"
        yaml = (out / f"llamafactory_{strategy}.yaml").read_text()
        assert f"dataset: master_{strategy}" in yaml and "learning_rate: 2.0e-05" in yaml
        assert "gradient_accumulation_steps: 4" in yaml and "per_device_train_batch_size: 8" in yaml
    assert len((out / "problems.jsonl").read_text().splitlines()) == len(outcomes)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # nothing half-written left beside it


def test_a_strategy_with_no_data_is_a_clear_error(tmp_path: Path) -> None:
    out = tmp_path / "empty"
    write_sft_data(out, [], EvaluationKeys(), report={})
    with pytest.raises(InputError, match="strategy 'cot' has no training examples"):
        strategy_examples(out, "cot")
    with pytest.raises(InputError, match="unknown strategy"):
        strategy_examples(out, "both")
    with pytest.raises(InputError, match="not a 'master synth' output folder"):
        strategy_examples(tmp_path, "answer")
