"""Evaluation: a golden fixture with hand-computed scores, the predictions reader, and runs through the runner."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path

import pytest

from debugtutor.errors import InputError
from debugtutor.llm import ScriptedModel
from debugtutor.metrics import get_pair_scorer
from debugtutor.runs import read_samples, run_task
from debugtutor.samples import sample_dir
from debugtutor.socratic.dataset import EvaluationExample
from debugtutor.socratic.evaluation import (
    GENERIC_QUESTIONS,
    PAPER_F1,
    build_eval_task,
    example_scores,
    load_examples,
    mismatched_partners,
    paper_rows,
    parse_metric_names,
    read_predictions,
    score_predictions,
    summarize_scores,
)
from debugtutor.socratic.instructors import ModelInstructor


def golden_example(example_id: str, references: list[str]) -> EvaluationExample:
    return EvaluationExample(
        id=example_id,
        dialogue=example_id.split("#")[0],
        problem_id="0",
        bug_id="0",
        turn_index=0,
        problem="p",
        bug_code="x = 1",
        bug_desc="",
        bug_fixes=[],
        unit_tests="assert x == 2",
        history=[],
        student_text="hi",
        student_code="",
        current_code="x = 1",
        references=references,
    )


GOLDEN_EXAMPLES = [
    golden_example("a#0", ["what does line 2 do", "what is x"]),
    golden_example("b#0", ["a b c d e"]),
    golden_example("c#0", ["anything at all"]),
]
GOLDEN_PREDICTIONS = {"a#0": ["what does line 2 do"], "b#0": ["a b c d", "x y"], "c#0": []}


def test_golden_fixture_rouge_l_and_bleu4() -> None:
    # Example a: the one prediction equals the first reference (pair score 1 under both metrics); it would score
    #   ROUGE-L 0.25 (LCS "what": P 1/5, R 1/3) and BLEU 0 against the second, so the matching takes the first.
    #   TP = 1, P = 1/1, R = 1/2, F1 = 2/3.
    # Example b: "a b c d" vs "a b c d e": ROUGE-L LCS 4, P = 1, R = 4/5, F = 8/9. BLEU-4: every n-gram precision
    #   is 1 and the brevity penalty is exp(1 - 5/4) = exp(-1/4) =: q. "x y" scores 0 under both.
    #   ROUGE-L: TP = 8/9, P = 4/9, R = 8/9, F1 = 16/27.  BLEU: TP = q, P = q/2, R = q, F1 = 2q/3.
    # Example c: no predictions: P = R = F1 = 0.
    # Dataset = mean over the three examples.
    result = score_predictions(GOLDEN_EXAMPLES, GOLDEN_PREDICTIONS, ["rougeL", "bleu4"])
    rouge, bleu = result["rougeL"], result["bleu4"]
    assert rouge["precision"]["mean"] == pytest.approx((1 + 4 / 9 + 0) / 3)  # 13/27
    assert rouge["recall"]["mean"] == pytest.approx((1 / 2 + 8 / 9 + 0) / 3)  # 25/54
    assert rouge["f1"]["mean"] == pytest.approx((2 / 3 + 16 / 27 + 0) / 3)  # 34/81
    q = math.exp(-0.25)
    assert bleu["precision"]["mean"] == pytest.approx((1 + q / 2) / 3, abs=1e-4)
    assert bleu["recall"]["mean"] == pytest.approx((1 / 2 + q) / 3, abs=1e-4)
    assert bleu["f1"]["mean"] == pytest.approx((2 / 3 + 2 * q / 3) / 3, abs=1e-4)
    assert rouge["f1"]["low"] <= rouge["f1"]["mean"] <= rouge["f1"]["high"]
    assert "bleu4" in bleu["signature"]
    assert result["examples"] == 3 and result["missing"] == 0
    assert result["utterances"] == 3 and result["utterances_per_turn"] == pytest.approx(1.0)


def test_missing_predictions_are_counted_not_scored() -> None:
    result = score_predictions(GOLDEN_EXAMPLES, {"a#0": ["what does line 2 do"]}, ["rougeL"])
    assert result["examples"] == 1 and result["missing"] == 2
    assert result["rougeL"]["f1"]["mean"] == pytest.approx(2 / 3)


def test_leak_rate_counts_flagged_utterances() -> None:
    example = golden_example("d#0", ["What is x?"])
    example.bug_fixes = ["Replace `x = 1` with `x = 2` on line 1."]
    result = score_predictions([example], {"d#0": ["You should write `x = 2`.", "What is x?"]}, ["rougeL"])
    assert result["leaked_utterances"] == 1 and result["leak_rate"] == pytest.approx(0.5)


def test_read_predictions_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "preds.jsonl"
    path.write_text('{"id": "a#0", "predictions": ["q"]}\n\n{"id": "zzz#1", "predictions": []}\n')
    with pytest.raises(InputError, match=r"preds\.jsonl:3: unknown example id 'zzz#1'"):
        read_predictions(path, {"a#0"})
    path.write_text('{"id": "a#0", "predictions": ["q"]}\nnot json\n')
    with pytest.raises(InputError, match=r"preds\.jsonl:2: not valid JSON"):
        read_predictions(path, {"a#0"})
    path.write_text('{"id": "a#0", "predictions": "q"}\n')
    with pytest.raises(InputError, match=r":1, field 'predictions'"):
        read_predictions(path, {"a#0"})
    path.write_text('{"id": "a#0", "predictions": ["q"]}\n{"id": "a#0", "predictions": []}\n')
    with pytest.raises(InputError, match="given twice"):
        read_predictions(path, {"a#0"})
    path.write_text('{"id": "a#0", "predictions": ["q", "r"]}\n')
    assert read_predictions(path, {"a#0", "b#0"}) == {"a#0": ["q", "r"]}


def test_metric_names_are_checked() -> None:
    assert parse_metric_names("rougeL, bleu4,rougeL") == ["rougeL", "bleu4"]
    with pytest.raises(InputError, match="unknown metric"):
        parse_metric_names("meteor")


def test_paper_rows_put_our_percent_beside_the_papers_number() -> None:
    rows = paper_rows({"rougeL": {"f1": {"mean": 0.2}}}, ["rougeL", "bleu4-smooth"])
    assert len(rows) == 1
    assert rows[0]["ours"] == pytest.approx(20.0)
    assert list(rows[0]["paper"].values()) == [PAPER_F1["rougeL"]]
    assert "test set" in rows[0]["source"] and "deberta-xlarge-mnli" in rows[0]["source"]


def test_a_run_records_predictions_raw_text_and_batched_metrics(tmp_path: Path) -> None:
    examples = load_examples(sample_dir("socratic"))[:5]
    model = ScriptedModel(rules=[], responses=[" What does line 2 do?\n2. Which test fails?"] * 5)
    task = build_eval_task(examples, ModelInstructor(model), metrics=["rougeL", "bleu4"], model_spec="scripted:x")
    result = run_task(task, runs_dir=tmp_path, concurrency=2)
    metrics = result.summary["task_metrics"]
    assert metrics["examples"] == 5 and metrics["utterances_per_turn"] == pytest.approx(2.0)
    assert 0 < metrics["rougeL"]["f1"]["mean"] < 1
    records = read_samples(result.run_dir / "samples.jsonl").records
    assert len(records) == 5
    assert records[0].output["predictions"] == ["What does line 2 do?", "Which test fails?"]
    assert records[0].output["raw"] == [" What does line 2 do?\n2. Which test fails?"]
    assert records[0].usage is not None and records[0].usage["model_calls"] == 1
    published = {row["label"]: row for row in result.summary["published"]}
    assert published["ROUGE-L F1"]["ours"] == pytest.approx(metrics["rougeL"]["f1"]["mean"] * 100)


def test_resume_skips_recorded_examples(tmp_path: Path) -> None:
    examples = load_examples(sample_dir("socratic"))[:4]
    first = ScriptedModel(responses=[" Q?"] * 2)
    task = build_eval_task(examples, ModelInstructor(first), metrics=["rougeL"])
    run = run_task(task, runs_dir=tmp_path, concurrency=1, limit=2)
    second = ScriptedModel(responses=[" R?"] * 2)
    resumed = run_task(
        build_eval_task(examples, ModelInstructor(second), metrics=["rougeL"]),
        runs_dir=tmp_path,
        resume=run.run_id,
    )
    assert second.calls == 2 and resumed.summary["task_metrics"]["examples"] == 4


def test_samples_output_is_plain_json(tmp_path: Path) -> None:
    examples = load_examples(sample_dir("socratic"))[:1]
    task = build_eval_task(examples, ModelInstructor(ScriptedModel([" Q?"])), metrics=["rougeL"])
    run = run_task(task, runs_dir=tmp_path)
    line = (run.run_dir / "samples.jsonl").read_text().splitlines()[0]
    assert json.loads(line)["output"]["leaks"] == [[]]


def problem_example(example_id: str, problem_id: str, references: list[str]) -> EvaluationExample:
    example = golden_example(example_id, references)
    example.problem_id = problem_id
    return example


def test_mismatched_partners_are_a_fixed_derangement_of_problems() -> None:
    examples = [problem_example(f"p{p}_{k}#0", str(p), [f"r{p}{k}"]) for p in range(6) for k in range(p % 3 + 1)]
    partners = mismatched_partners(examples)
    assert set(partners) == {e.id for e in examples}
    assert all(partners[e.id].problem_id != e.problem_id for e in examples)
    # one problem maps to one problem (a permutation), and the seed fixes it
    image = {e.problem_id: partners[e.id].problem_id for e in examples}
    assert sorted(image.values()) == sorted(image)
    assert {k: v.id for k, v in mismatched_partners(examples).items()} == {k: v.id for k, v in partners.items()}
    assert mismatched_partners([problem_example("a#0", "1", ["x"])]) == {}


def test_baselines_golden_scores_with_exact_match() -> None:
    # Pair score 1 for equal strings, else 0. Example 1: the references hold one of the three generic questions,
    # so the constant baseline matches 1 of its 3 utterances against 2 references: P = 1/3, R = 1/2, F1 = 2/5.
    # The mismatched baseline scores the instructor's predictions against the partner's references.
    rows = [
        (["q"], [GENERIC_QUESTIONS[1], "q"], ["z"]),
        (["z", "w"], ["q"], ["z"]),
    ]
    scores = example_scores(rows, ["exact"], {"exact": get_pair_scorer("exact")})
    first, second = scores
    assert (first["exact_precision"], first["exact_recall"], first["exact_f1"]) == (1.0, 0.5, pytest.approx(2 / 3))
    assert first["exact_precision@constant"] == pytest.approx(1 / 3)
    assert first["exact_recall@constant"] == pytest.approx(1 / 2)
    assert first["exact_f1@constant"] == pytest.approx(2 / 5)
    assert first["exact_f1@mismatched"] == 0.0
    assert second["exact_f1"] == 0.0 and second["exact_precision@mismatched"] == 0.5
    assert second["exact_recall@mismatched"] == 1.0
    assert list(first)[:1] == ["exact_f1"]  # the instructor's F1 comes first in reports
    summary = summarize_scores(scores, ["exact"])
    assert summary["baselines"]["constant"]["exact"]["f1"]["mean"] == pytest.approx(0.2)
    margin = summary["margins"]["exact"]["mismatched"]
    assert margin["mean"] == pytest.approx(((2 / 3 - 0) + (0 - 2 / 3)) / 2)


def test_records_carry_references_and_per_example_scores_and_rebuild(tmp_path: Path) -> None:
    from debugtutor.report import write_report
    from debugtutor.runs import write_summary
    from debugtutor.socratic.instructors import get_instructor

    examples = load_examples(sample_dir("socratic"))[:8]
    task = build_eval_task(examples, get_instructor("offline"), metrics=["rougeL", "bleu4"])
    run = run_task(task, runs_dir=tmp_path)
    records = read_samples(run.run_dir / "samples.jsonl").records
    assert len(records) == 8
    by_id = {e.id: e for e in examples}
    for record in records:
        assert record.output["references"] == by_id[record.id].references
        partner = record.output["mismatched"]
        assert by_id[record.id].problem_id != partner["id"].split("_")[0]
        for name in ("rougeL_precision", "rougeL_recall", "rougeL_f1", "rougeL_f1@constant", "bleu4_f1@mismatched"):
            score = record.scores[name]
            assert isinstance(score, float) and 0.0 <= score <= 1.0
    # re-scoring the recorded predictions alone gives the run's numbers
    rescored = score_predictions(
        examples, read_predictions(run.run_dir / "samples.jsonl", set(by_id)), ["rougeL", "bleu4"]
    )
    task_metrics = run.summary["task_metrics"]
    for name in ("rougeL", "bleu4"):
        assert rescored[name]["f1"] == pytest.approx(task_metrics[name]["f1"])  # mean and interval
        for baseline in ("constant", "mismatched"):
            assert rescored["baselines"][baseline][name]["f1"]["mean"] == pytest.approx(
                task_metrics["baselines"][baseline][name]["f1"]["mean"]
            )
    # the summary and report are rebuilt from the records, baselines beside the instructor
    (run.run_dir / "summary.json").unlink()
    summary = write_summary(run.run_dir)
    assert summary["metrics"]["rougeL_f1"]["mean"] == pytest.approx(task_metrics["rougeL"]["f1"]["mean"])
    assert summary["metrics"]["rougeL_f1@constant"]["mean"] == pytest.approx(
        task_metrics["baselines"]["constant"]["rougeL"]["f1"]["mean"]
    )
    html = write_report(run.run_dir, summary=summary).read_text()
    assert 'id="baselines"' in html and "margin over constant" in html and "mismatched" in html


def test_the_scorer_batches_concurrent_items_and_keeps_each_records_scores() -> None:
    import asyncio

    from debugtutor.runs import EvalItem
    from debugtutor.socratic.evaluation import ScorerCache, SocraticScorer

    exact = get_pair_scorer("exact")
    calls: list[int] = []

    class CountingScorer:
        name = "exact"
        signature = "exact|counting"

        def score_pairs(self, predictions: Sequence[str], references: Sequence[str]) -> list[float]:
            calls.append(len(predictions))
            return exact.score_pairs(predictions, references)

    scorer = SocraticScorer(["exact"], ScorerCache(ready={"exact": CountingScorer()}))
    outputs = [
        {"predictions": [f"q{i}"], "references": [f"q{i}", "other"], "leaks": [[]], "mismatched": {"references": ["z"]}}
        for i in range(12)
    ]

    async def score_all() -> list[dict[str, float | int]]:
        items = [EvalItem(id=str(i), input=None) for i in range(12)]
        return await asyncio.gather(*(scorer(item, output) for item, output in zip(items, outputs)))

    results = asyncio.run(score_all())
    assert len(calls) < 12  # the queued items were scored together
    for result in results:
        assert result["exact_precision"] == 1.0 and result["exact_recall"] == 0.5
        assert result["exact_f1@mismatched"] == 0.0 and result["utterances"] == 1


def test_an_empty_predictions_file_is_an_input_error(tmp_path: Path) -> None:
    from debugtutor.errors import InputError
    from debugtutor.socratic.evaluation import read_predictions

    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n")
    with pytest.raises(InputError, match="holds no predictions"):
        read_predictions(empty, {"a#1"})
    failed_only = tmp_path / "failed.jsonl"
    failed_only.write_text('{"id": "a#1", "input_hash": "x", "error": {"type": "ModelError"}, "output": null}\n')
    with pytest.raises(InputError, match="holds no predictions"):
        read_predictions(failed_only, {"a#1"})
