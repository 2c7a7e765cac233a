"""`debugtutor master synth / train / ablation`: one JSON object on stdout, data folders and adapters written whole,
and one clear line (exit 2) for each kind of bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from debugtutor.cli.main import main
from debugtutor.master.sources import sample_folder


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(args)
        raise SystemExit(0)
    captured = capsys.readouterr()
    code = exit_info.value.code
    return (code if isinstance(code, int) else 0), captured.out, captured.err


@pytest.fixture
def split_folder(tmp_path: Path) -> Path:
    out = tmp_path / "debugeval"
    out.mkdir()
    for source in sample_folder().glob("*.jsonl"):
        lines = []
        for line in source.read_text().splitlines():
            record = json.loads(line)
            record["split"] = "train" if record["slug"] in ("count-evens-below", "reverse-words") else "test"
            lines.append(json.dumps(record))
        (out / source.name).write_text("\n".join(lines) + "\n")
    return out


@pytest.fixture
def always_a(tmp_path: Path) -> Path:
    script = tmp_path / "learner.json"
    script.write_text(json.dumps({"rules": [{"match": "(?s).*", "response": "<Answer>(A)</Answer>"}]}))
    return script


def test_synth_writes_the_data_folder_and_reports_in_json(
    split_folder: Path, always_a: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "data"
    code, stdout, _ = run_cli(["master", "synth", "--learner", f"scripted:{always_a}", "--source", str(split_folder),
                               "--lang", "python", "--n", "3", "--out", str(out), "--runs-dir",
                               str(tmp_path / "runs"), "--json"], capsys)  # fmt: skip
    assert code == 0
    payload = json.loads(stdout)
    assert payload["verification"]["quizzed"] == 12 and payload["status"] == "success"
    test_slugs = {json.loads(line)["slug"] for source in split_folder.glob("*.jsonl")
                  for line in source.read_text().splitlines() if json.loads(line)["split"] == "test"}  # fmt: skip
    assert payload["decontamination"]["evaluation_keys"]["slugs"] == len(test_slugs) > 0  # the folder's test split
    assert sum(payload["table_iii"]["per_task"].values()) == payload["examples"]["answer"] > 0
    assert {p.name for p in out.iterdir()} >= {"sft_answer.jsonl", "sft_cot.jsonl", "sft_mixed.jsonl",
                                               "dataset_info.json", "synthesis.json", "problems.jsonl"}  # fmt: skip


def test_synth_input_errors_are_one_line(
    split_folder: Path, always_a: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["master", "synth", "--learner", f"scripted:{always_a}", "--out", str(tmp_path / "o")]
    for extra, message in (
        (["--source", str(split_folder), "--tasks", "debugging"], "unknown value"),
        (["--source", str(split_folder), "--lang", "cpp"], "no source programs left"),
        (["--source", str(tmp_path / "absent")], "does not exist"),
        (["--source", str(split_folder), "--keep", "some"], "unknown --keep"),
    ):
        code, stdout, stderr = run_cli([*base, *extra], capsys)
        assert code == 2 and not stdout and message in stderr and stderr.count("\n") == 1, (extra, stderr)
    assert not (tmp_path / "o").exists()


def test_train_input_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "sft_answer.jsonl").write_text("")
    (data / "sft_cot.jsonl").write_text('{"messages": [{"role": "user", "content": "q"}]}\n')
    out = tmp_path / "adapter"
    for args, message in (
        (["--base", "hf:x", "--data", str(data), "--strategy", "answer"], "has no training examples"),
        (["--base", "hf:x", "--data", str(data), "--strategy", "cot"], "last message must be the assistant"),
        (["--base", "hf:x", "--data", str(data), "--strategy", "mixed"], "no sft_mixed.jsonl"),
        (["--base", "hf:x", "--data", str(tmp_path / "nope"), "--strategy", "answer"], "data folder not found"),
        (["--base", "openai:gpt-4o", "--data", str(data), "--strategy", "cot", "--lr", "0"], "greater than 0"),
    ):
        code, stdout, stderr = run_cli(["master", "train", *args, "--out", str(out)], capsys)
        assert code == 2 and not stdout and message in stderr and stderr.count("\n") == 1, (args, stderr)
    assert not out.exists()


@pytest.mark.hf
def test_train_refuses_bases_it_cannot_load(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "sft_answer.jsonl").write_text(
        '{"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}]}\n'
    )
    for base, message in (("openai:gpt-4o", "cannot fine-tune"), (f"hf:{tmp_path}", "no config.json")):
        code, _, stderr = run_cli(["master", "train", "--base", base, "--data", str(data), "--strategy", "answer",
                                   "--out", str(tmp_path / "a")], capsys)  # fmt: skip
        assert code == 2 and message in stderr and stderr.count("\n") == 1


@pytest.mark.hf
@pytest.mark.slow
def test_ablation_trains_each_strategy_and_compares_with_the_base(
    split_folder: Path, always_a: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from debugtutor.tune.tiny import make_tiny_model

    base = f"hf:{make_tiny_model(tmp_path / 'tiny')}"
    code, _, _ = run_cli(["master", "synth", "--learner", f"scripted:{always_a}", "--source", str(split_folder),
                          "--lang", "python", "--tasks", "bug-identification,code-review", "--n", "2", "--out",
                          str(tmp_path / "data"), "--runs-dir", str(tmp_path / "runs"), "--json"], capsys)  # fmt: skip
    assert code == 0
    code, stdout, _ = run_cli(["master", "ablation", "--base", base, "--data", str(tmp_path / "data"), "--eval-data",
                               str(split_folder), "--out", str(tmp_path / "ablation"), "--lang", "python",
                               "--tasks", "bug-identification,code-review", "--strategies", "answer,mixed",
                               "--eval-limit", "2", "--batch-size", "2", "--grad-accum", "1", "--max-length", "4096",
                               "--json"], capsys)  # fmt: skip
    assert code == 0
    result = json.loads(stdout)
    assert set(result["average"]) == {"zero-shot", "MASTER (Answer)", "NeuDebugger"}
    cell = result["cells"]["bug-identification/python"]
    assert cell["instances"] == 2 and cell["trivial"] in (50.0, 100.0)
    assert result["cells"]["code-review/python"]["trivial"] == 50.0
    for label, entry in cell["models"].items():
        assert entry["accuracy"] is not None and entry["interval"]["n"] == 2, label
    assert (tmp_path / "ablation" / "adapters" / "mixed" / "debugtutor-adapter.json").is_file()


def test_synth_with_model_quizzer_and_teacher_reports_each_check(
    split_folder: Path, always_a: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = json.loads((Path(__file__).parents[1] / "master" / "data" / "llm_quizzer_cases.json").read_text())
    by_verdict = {(case["task"], case["expected"]): case["response"] for case in cases}
    quizzer = tmp_path / "quizzer.json"
    quizzer.write_text(json.dumps({"rules": [
        {"match": "bug-localization exercise", "response": by_verdict[("bug-localization", "accepted")]},
        {"match": "bug-identification exercise",
         "response": by_verdict[("bug-identification", "label disagrees with execution")]},
        {"match": "code-review exercise", "response": by_verdict[("code-review", "accepted")]},
        {"match": "code-repair exercise", "response": by_verdict[("code-repair", "correct code fails its tests")]},
    ]}))  # fmt: skip
    teacher = tmp_path / "teacher.json"
    teacher.write_text(json.dumps({"rules": [
        {"match": "Code-A", "response": "Code-A returns 3 for [1, -1, 0].\n<Answer>Code-A</Answer>"},
        {"match": "pieces", "response": "Line 4 looks fine.\n<Answer>(A)</Answer>"},
    ]}))  # fmt: skip
    code, stdout, _ = run_cli(["master", "synth", "--quizzer", f"scripted:{quizzer}", "--teacher",
                               f"scripted:{teacher}", "--learner", f"scripted:{always_a}", "--source",
                               str(split_folder), "--lang", "python", "--n", "1", "--out", str(tmp_path / "data"),
                               "--runs-dir", str(tmp_path / "runs"), "-j", "1", "--json"], capsys)  # fmt: skip
    assert code == 0
    payload = json.loads(stdout)
    verification = payload["verification"]
    assert verification["quizzed"] == 4 and verification["verified"] == 2
    assert verification["rejections"] == {"label disagrees with execution": 1, "correct code fails its tests": 1}
    assert verification["rejection_rates"]["label disagrees with execution"] == 0.25
    cells = verification["per_task_language"]
    assert cells["bug-localization/python"]["teacher_disagreed"] == 1 and cells["code-review/python"]["kept"] == 1
    assert payload["table_iii"]["per_task"] == {"bug-localization": 0, "bug-identification": 0, "code-review": 1,
                                                "code-repair": 0}  # fmt: skip
    (line,) = (tmp_path / "data" / "sft_cot.jsonl").read_text().splitlines()
    assert json.loads(line)["messages"][-1]["content"].endswith("<Answer>Code-A</Answer>")
