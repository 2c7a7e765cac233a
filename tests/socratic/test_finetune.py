"""`socratic finetune`: instructor turns become SFT pairs in the exact prompt the model-backed instructor sends, the
adapter trains, and `socratic eval --model BASE+lora:OUT` evaluates the tuned model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from debugtutor.cli.main import main
from debugtutor.samples import sample_dir
from debugtutor.socratic.evaluation import examples_from_folder
from debugtutor.socratic.finetune import finetune_examples, target_text
from debugtutor.socratic.prompts import build_messages


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(args)
        raise SystemExit(0)
    captured = capsys.readouterr()
    code = exit_info.value.code
    return (code if isinstance(code, int) else 0), captured.out, captured.err


def test_pairs_are_the_instructor_prompt_and_the_next_utterances() -> None:
    examples = examples_from_folder(sample_dir("socratic"), dedup=True, parser="original")
    built = finetune_examples(examples)
    assert len(built.examples) == len(examples) and built.excluded == 0
    first, pair = examples[0], built.examples[0]
    messages = build_messages(first, "multiple")
    assert [(t.role, t.content) for t in pair.prompt] == [(m.role, m.content) for m in messages]
    assert pair.completion[0].content == target_text(first, "zero-shot")
    assert pair.completion[0].content.startswith(f"1. {first.references[0].strip()}")
    single = finetune_examples(examples, mode="single").examples[0]
    assert single.completion[0].content == first.references[0]
    held_out = finetune_examples(examples, exclude=examples[:1])
    same_problem = sum(1 for e in examples if e.problem == examples[0].problem)
    assert held_out.excluded == same_problem and len(held_out.examples) == len(examples) - same_problem


@pytest.mark.hf
@pytest.mark.slow
def test_finetune_then_eval_the_tuned_spec(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from debugtutor.tune.tiny import make_tiny_model

    base = f"hf:{make_tiny_model(tmp_path / 'tiny')}"
    out = tmp_path / "adapter"
    code, stdout, _ = run_cli(["socratic", "finetune", "--base", base, "--data", str(sample_dir("socratic")),
                               "--out", str(out), "--limit", "4", "--batch-size", "2", "--grad-accum", "1",
                               "--max-length", "8192", "--json"], capsys)  # fmt: skip
    assert code == 0
    payload = json.loads(stdout)
    assert payload["pairs"] == 4 and payload["model_spec"] == f"{base}+lora:{out}"
    code, stdout, _ = run_cli(["socratic", "eval", "--instructor", "zero-shot", "--model", payload["model_spec"],
                               "--metrics", "rougeL", "--limit", "1", "--max-tokens", "8", "--runs-dir",
                               str(tmp_path / "runs"), "--json"], capsys)  # fmt: skip
    assert code == 0 and json.loads(stdout)["model"].startswith(f"{base}+lora:{out}@")


def test_finetune_input_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sample = str(sample_dir("socratic"))
    for args, message in (
        (["--mode", "chat"], "unknown mode"),
        (["--exclude", sample], "every problem is in an --exclude folder"),
    ):
        code, stdout, stderr = run_cli(["socratic", "finetune", "--base", "hf:x", "--data", sample, "--out",
                                        str(tmp_path / "a"), *args], capsys)  # fmt: skip
        assert code == 2 and not stdout and message in stderr and stderr.count("\n") == 1, stderr
