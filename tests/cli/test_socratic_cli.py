"""``debugtutor socratic stats | eval | score`` through the CLI entry point, including a loopback OpenAI server."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from debugtutor.cli import main as cli_main
from debugtutor.llm.loopback_server import LoopbackServer
from debugtutor.samples import sample_dir
from debugtutor.socratic.evaluation import load_examples

SHARED_TRAIN = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "socratic" / "v2_sigcse" / "train"


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        cli_main.main(args)
        sys.exit(0)
    out, err = capsys.readouterr()
    code = info.value.code
    return (code if isinstance(code, int) else 0), out, err


def json_of(out: str) -> dict[str, Any]:
    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) == 1, out
    result = json.loads(lines[0])
    assert isinstance(result, dict)
    return result


def test_stats_counts_the_sample_both_ways(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["socratic", "stats", "--json"], capsys)
    result = json_of(out)
    assert code == 0
    assert result["robust"]["dialogues"] == 6 and result["original"]["dialogues"] == 6
    assert result["robust"]["instructor_turns"] == 24 and result["robust"]["instructor_utterances"] == 54
    assert result["robust"]["student_turns"] == 30


def test_stats_table_for_a_person(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["socratic", "stats"], capsys)
    assert code == 0 and "instructor utterances" in out and "robust" in out


def test_eval_offline_on_the_sample(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    args = ["socratic", "eval", "--metrics", "rougeL,bleu4", "--limit", "6", "--runs-dir", str(tmp_path), "--json"]
    code, out, _ = run_cli(args, capsys)
    result = json_of(out)
    assert code == 0 and result["status"] == "success" and result["instructor"] == "offline"
    assert result["examples"] == 6
    for metric in ("rougeL", "bleu4"):
        for part in ("precision", "recall", "f1"):
            interval = result[metric][part]
            assert interval["low"] <= interval["mean"] <= interval["high"]
    assert result["rougeL"]["f1"]["mean"] > 0
    assert 0 <= result["leak_rate"] <= 1 and result["utterances_per_turn"] > 0
    assert {row["label"] for row in result["paper"]} == {"ROUGE-L F1", "BLEU-4 F1"}
    assert (Path(result["run_dir"]) / "samples.jsonl").is_file()
    for baseline in ("constant", "mismatched"):
        for metric in ("rougeL", "bleu4"):
            interval = result["baselines"][baseline][metric]["f1"]
            assert interval["low"] <= interval["mean"] <= interval["high"] and interval["n"] == 6
            margin = result["margins"][metric][baseline]
            assert margin["mean"] == pytest.approx(result[metric]["f1"]["mean"] - interval["mean"])
    assert "three generic questions" in result["baseline_definitions"]["constant"]


def test_eval_table_shows_the_baselines_beside_the_instructor(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    args = ["socratic", "eval", "--metrics", "rougeL", "--limit", "4", "--runs-dir", str(tmp_path)]
    code, out, _ = run_cli(args, capsys)
    assert code == 0
    assert "reference baselines" in out and "constant" in out and "mismatched" in out and "margin" in out
    assert "on its own test split" in out


def test_score_re_scores_a_runs_own_records(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    args = ["socratic", "eval", "--metrics", "rougeL", "--limit", "5", "--runs-dir", str(tmp_path), "--json"]
    code, out, _ = run_cli(args, capsys)
    run = json_of(out)
    samples = Path(run["run_dir"]) / "samples.jsonl"
    code, out, _ = run_cli(
        ["socratic", "score", "--predictions", str(samples), "--metrics", "rougeL", "--json"], capsys
    )
    rescored = json_of(out)
    assert code == 0 and rescored["examples"] == 5
    assert rescored["rougeL"]["f1"]["mean"] == pytest.approx(run["rougeL"]["f1"]["mean"])
    assert rescored["baselines"]["mismatched"]["rougeL"]["f1"]["mean"] == pytest.approx(
        run["baselines"]["mismatched"]["rougeL"]["f1"]["mean"]
    )


def test_eval_needs_a_model_for_model_backed_instructors(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["socratic", "eval", "--instructor", "zero-shot", "--json"], capsys)
    assert code == 2 and out == "" and "needs a model" in err


def test_eval_zero_shot_against_the_loopback_openai_server(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    def reply(body: dict[str, Any], index: int) -> str:
        return " What does your loop do on its first pass?\n2. Which test fails first?"

    with LoopbackServer(reply=reply) as server:
        spec = f"openai:tiny@{server.base_url}"
        args = ["socratic", "eval", "--instructor", "zero-shot", "--model", spec, "--metrics", "rougeL"]
        code, out, err = run_cli([*args, "--limit", "3", "--runs-dir", str(tmp_path), "--json"], capsys)
        assert code == 0, err
        assert server.requests == 3
        body = server.bodies[0]
    result = json_of(out)
    assert result["examples"] == 3 and result["utterances_per_turn"] == pytest.approx(2.0)
    assert result["model"] == spec
    assert body["temperature"] == 0 and body["max_tokens"] == 1024
    assert body["messages"][0]["role"] == "system" and body["messages"][1]["content"].endswith("1.")
    records = [json.loads(line) for line in (Path(result["run_dir"]) / "samples.jsonl").read_text().splitlines()]
    assert records[0]["output"]["raw"] == [reply({}, 0)]


def write_predictions(path: Path, rows: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))


def test_score_with_the_references_as_predictions_is_perfect(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    examples = load_examples(sample_dir("socratic"))
    path = tmp_path / "preds.jsonl"
    write_predictions(path, [{"id": e.id, "predictions": e.references} for e in examples])
    code, out, _ = run_cli(["socratic", "score", "--predictions", str(path), "--metrics", "rougeL", "--json"], capsys)
    result = json_of(out)
    assert code == 0 and result["examples"] == len(examples) and result["missing"] == 0
    assert result["rougeL"]["f1"]["mean"] == pytest.approx(1.0)


def test_score_reports_a_bad_line_with_file_and_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "preds.jsonl"
    path.write_text('{"id": "nope#0", "predictions": []}\n')
    code, out, err = run_cli(["socratic", "score", "--predictions", str(path), "--json"], capsys)
    assert code == 2 and out == "" and "preds.jsonl:1" in err and "unknown example id" in err


@pytest.mark.shared_data
@pytest.mark.slow
def test_score_a_real_folder_with_shifted_references(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, shared_data: Path
) -> None:
    examples = load_examples(SHARED_TRAIN)
    # each example's predictions are the next example's references: similar questions, not the same ones
    rows = [{"id": e.id, "predictions": examples[(i + 1) % len(examples)].references} for i, e in enumerate(examples)]
    path = tmp_path / "shifted.jsonl"
    write_predictions(path, rows)
    args = ["socratic", "score", "--data", str(SHARED_TRAIN), "--predictions", str(path), "--metrics", "rougeL,bleu4"]
    code, out, _ = run_cli([*args, "--json"], capsys)
    result = json_of(out)
    assert code == 0 and result["examples"] == len(examples) > 800
    assert 0.05 < result["rougeL"]["f1"]["mean"] < 0.9


def test_leak_check_gives_one_verdict_per_utterance(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "buggy.py").write_text("def half(n):\n    return n / 2\n")
    (tmp_path / "fixed.py").write_text("def half(n):\n    return n // 2\n")
    (tmp_path / "problem.md").write_text("Return n halved, rounded down. `half(5) == 2`")
    lines = ["Use integer division.", "", "What does `half(5)` return?", "Shouldn't line 2 use `//`?"]
    (tmp_path / "said.txt").write_text("\n".join(lines) + "\n")
    args = ["socratic", "leak-check", "--code", str(tmp_path / "buggy.py"), "--fix", str(tmp_path / "fixed.py")]
    args += ["--problem", str(tmp_path / "problem.md"), "--utterances", str(tmp_path / "said.txt"), "--json"]
    code, out, _ = run_cli(args, capsys)
    result = json_of(out)
    assert code == 0
    verdicts = result["utterances"]
    assert [v["utterance"] for v in verdicts] == [line for line in lines if line]
    assert [v["leak"] for v in verdicts] == [True, False, True]
    assert verdicts[0]["reasons"] and verdicts[1]["reasons"] == []
    code, out, _ = run_cli(args[:-1], capsys)
    assert code == 0 and "2 of 3 utterance(s) give the fix away" in out


def test_leak_check_names_a_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "said.txt").write_text("What is n?\n")
    args = ["socratic", "leak-check", "--code", str(tmp_path / "nope.py"), "--fix", str(tmp_path / "nope.py")]
    code, out, err = run_cli([*args, "--utterances", str(tmp_path / "said.txt"), "--json"], capsys)
    assert code == 2 and out == "" and "nope.py" in err


@pytest.mark.parametrize(("instructor", "steps"), [("zero-shot", 1), ("cot", 2), ("cot-as-coded", 2), ("single", 1)])
def test_show_prompt_is_a_dry_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, instructor: str, steps: int
) -> None:
    args = ["socratic", "eval", "--instructor", instructor, "--show-prompt", "--limit", "2"]
    code, out, _ = run_cli([*args, "--runs-dir", str(tmp_path), "--json"], capsys)
    result = json_of(out)
    assert code == 0 and list(tmp_path.iterdir()) == []  # no model, no run recorded
    prompts = result["prompts"]
    assert len(prompts) == 2 * steps and len({p["id"] for p in prompts}) == 2
    user = prompts[-1]["messages"][1]["content"]
    if instructor.startswith("cot"):
        assert prompts[0]["step"].startswith("step 1") and "<the introspection step's answer goes here>" in user
    if instructor == "cot-as-coded":  # the second example's introspection is its dialogue's first turn's
        assert "first turn" in prompts[2]["step"] and "Assistant:" not in prompts[2]["messages"][1]["content"]
    code, out, _ = run_cli([*args, "--prompt", "paper"], capsys)
    assert code == 0 and "----- user -----" in out and "<bug_code>\n1. " in out


def test_show_prompt_refuses_the_offline_instructor(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["socratic", "eval", "--show-prompt", "--json"], capsys)
    assert code == 2 and out == "" and "sends no prompt" in err


def test_paper_prompt_reaches_the_model(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with LoopbackServer(reply=lambda body, index: " Which line runs first?") as server:
        spec = f"openai:tiny@{server.base_url}"
        args = ["socratic", "eval", "--instructor", "zero-shot", "--model", spec, "--metrics", "rougeL"]
        code, _, err = run_cli([*args, "--prompt", "paper", "--limit", "1", "--runs-dir", str(tmp_path)], capsys)
        assert code == 0, err
        user = server.bodies[0]["messages"][1]["content"]
    assert "<bug_code>\n1. " in user and user.endswith("test cases.\n1.")
