"""`debugtutor debugeval build` and `eval`: JSON output, the built-in sample, resumable runs and usage errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from debugtutor.cli.debugeval import best_published
from debugtutor.cli.main import main
from debugtutor.debugeval.records import TaskName
from debugtutor.debugeval.tasks import published_rows

SOCRATIC = """<problem>
Write `double(x)` that returns twice `x`.
</problem>
<bug_code>
1. def double(x):
2.    return x + 2
</bug_code>
<unit_tests>
assert double(2) == 4
assert double(3) == 6
</unit_tests>
"""


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(args)
        raise SystemExit(0)
    captured = capsys.readouterr()
    code = exit_info.value.code
    return (code if isinstance(code, int) else 0), captured.out, captured.err


def test_build_socratic_then_eval_offline(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "0_1_double_socratic_dialogue.txt").write_text(SOCRATIC)
    out = tmp_path / "built"
    code, stdout, _ = run_cli(
        ["debugeval", "build", "--source", "socratic", "--data", str(tmp_path / "data"), "--out", str(out), "--json"],
        capsys,
    )
    assert code == 0 and json.loads(stdout)["counts"] == {"code-repair": {"python": 1}}
    code, stdout, _ = run_cli(
        ["debugeval", "eval", "--data", str(out), "--task", "code-repair", "--json", "--runs-dir", str(tmp_path / "r")],
        capsys,
    )
    payload = json.loads(stdout)
    assert code == 0 and payload["accuracy"]["code-repair"]["python"] == 100.0
    assert payload["pass_at_k"]["python"]["pass@1"] == 100.0


def test_eval_on_the_built_in_sample_and_resume(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["debugeval", "eval", "--task", "bug-identification", "--lang", "python", "--runs-dir", str(tmp_path)]
    code, stdout, _ = run_cli([*args, "--json"], capsys)
    payload = json.loads(stdout)
    assert code == 0 and payload["items"]["bug-identification"]["python"] >= 8
    assert set(payload["identification"]["python"]["per_class_accuracy"]) == {"(A)", "(B)", "(C)", "(D)"}
    # the most frequent letter of four classes sampled alike: a quarter or a little more, never the solver's score
    baseline = payload["baseline"]["bug-identification"]
    assert set(baseline) == set(payload["accuracy"]["bug-identification"]) and 25.0 <= baseline["python"] < 50.0
    assert any(row["label"] == "bug-identification python" and row["ours"] is not None for row in payload["published"])
    code, stdout, _ = run_cli([*args, "--resume", payload["run_id"], "--json"], capsys)
    assert code == 0 and json.loads(stdout)["accuracy"] == payload["accuracy"]


def test_human_table_and_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, stdout, stderr = run_cli(
        ["debugeval", "eval", "--task", "code-review", "--lang", "python", "--runs-dir", str(tmp_path)], capsys
    )
    if code != 0:  # name the item that failed (its recorded error), not just the exit code
        errors = [line for path in tmp_path.glob("*/samples.jsonl") for line in path.read_text().splitlines()]
        pytest.fail(f"exit {code}: {stderr[-800:]}\n" + "\n".join(e for e in errors if '"error":null' not in e)[-3000:])
    assert "code-review" in stdout and "trivial" in stdout and "published" in stdout and "Table IV" in stderr
    code, _, stderr = run_cli(["debugeval", "eval", "--task", "sorting"], capsys)
    assert code == 2 and "unknown task" in stderr
    code, _, stderr = run_cli(["debugeval", "eval", "--solver", "llm"], capsys)
    assert code == 2 and "--model" in stderr
    code, _, stderr = run_cli(["debugeval", "build", "--source", "x", "--data", ".", "--out", str(tmp_path)], capsys)
    assert code == 2


def test_llm_solver_with_a_scripted_model(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"rules": [{"match": "error", "response": "(C)</Answer>"}]}))
    code, stdout, _ = run_cli(
        ["debugeval", "eval", "--task", "bug-identification", "--solver", "llm", "--model", f"scripted:{script}",
         "--json", "--runs-dir", str(tmp_path / "runs")],
        capsys,
    )  # fmt: skip
    payload = json.loads(stdout)
    distribution = payload["identification"]["python"]["answer_distribution"]
    assert code == 0 and set(distribution) == {"(C)"}  # a model that always says logic error shows it


def test_build_debugbench_from_a_shard(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # long enough for localization options: three shorter and three longer lines than the bug's, away from it
    body = ["a = 1", "bb = 22", "y = x + 1", "ccc = 333", "total_value = a + bb", "z = y * 2", "dddd = ccc + 4"]
    body += ["extra_long_name_here = dddd", "w = z - 3", "e = 5", "final_unused_sum = e + a + bb", "return w"]
    oracle = "class Solution:\n    def f(self, x: int) -> int:\n" + "".join(f"        {line}\n" for line in body)
    rows = [
        {"slug": f"p{i}", "description": "d", "examples": [f"Input: x = {i}\nOutput: {2 * i - 1}"], "constraints": "",
         "oracle_code": oracle, "buggy_code": oracle.replace("y * 2", "y * 3"), "level": "easy"}
        for i in range(3)
    ]  # fmt: skip
    data = tmp_path / "bench"
    data.mkdir()
    (data / "python3_operation error.json").write_text(json.dumps(rows))
    out = tmp_path / "out"
    code, stdout, _ = run_cli(
        [
            "debugeval",
            "build",
            "--source",
            "debugbench",
            "--data",
            str(data),
            "--out",
            str(out),
            "--seed",
            "1",
            "--json",
        ],
        capsys,
    )
    counts = json.loads(stdout)["counts"]
    assert code == 0 and counts["bug-localization"] == {"python": 3} and counts["code-review"] == {"python": 3}
    assert counts["code-repair"] == {"python": 3}
    first = (out / "debugevalsuite_task124.jsonl").read_bytes()
    run_cli(
        ["debugeval", "build", "--source", "debugbench", "--data", str(data), "--out", str(out), "--seed", "1"], capsys
    )
    assert (out / "debugevalsuite_task124.jsonl").read_bytes() == first


def test_paper_prompt_prefills_the_review_answer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a model that only continues the pre-filled "Code-" with a letter: the answer is read as "Code-" + letter
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"rules": [{"match": "Your response:Code-$", "response": "A"}]}))
    args = ["debugeval", "eval", "--task", "code-review", "--solver", "llm", "--model", f"scripted:{script}", "--json"]
    code, stdout, _ = run_cli([*args, "--prompt", "paper", "--runs-dir", str(tmp_path / "runs")], capsys)
    payload = json.loads(stdout)
    assert code == 0 and payload["items"]["code-review"]["python"] > 0
    run = next((tmp_path / "runs").glob("*/samples.jsonl"))
    outputs = [json.loads(line)["output"] for line in run.read_text().splitlines()]
    assert all(output["forward"]["prefill"] == "Code-" for output in outputs)
    scores = [json.loads(line)["scores"] for line in run.read_text().splitlines()]
    assert all(score["forward"] is True and score["reverse"] is False for score in scores)  # "A" read as Code-A
    code, _, stderr = run_cli([*args, "--prompt", "fancy"], capsys)
    assert code == 2 and "--prompt" in stderr


def test_languages_whose_compilers_are_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import debugtutor.sandbox

    # as on a machine with Python alone: the C++ and Java items cannot be compiled or run
    missing = {"cpp": ["g++"], "java": ["javac", "java"]}
    monkeypatch.setattr(debugtutor.sandbox, "missing_toolchain", lambda language: missing.get(language, []))
    args = ["debugeval", "eval", "--task", "bug-localization", "--runs-dir", str(tmp_path)]
    code, stdout, stderr = run_cli([*args, "--json"], capsys)
    assert code == 0 and set(json.loads(stdout)["items"]["bug-localization"]) == {"python", "all"}
    code, _, stderr = run_cli(args, capsys)  # the same, said to a person
    assert code == 0 and "left out cpp: its programs need g++" in stderr and "left out java" in stderr
    code, _, stderr = run_cli([*args, "--lang", "java"], capsys)
    assert code == 2 and "javac, java" in stderr and "--lang" in stderr
    # a model answering localization runs nothing: every language stays
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"rules": [{"match": "", "response": "<Answer>(A)</Answer>"}]}))
    code, stdout, _ = run_cli([*args, "--solver", "llm", "--model", f"scripted:{script}", "--json"], capsys)
    assert code == 0 and set(json.loads(stdout)["items"]["bug-localization"]) == {"python", "cpp", "java", "all"}


def test_a_runs_table_quotes_the_paper_in_the_languages_it_measured() -> None:
    tasks: list[TaskName] = ["bug-identification", "code-repair"]
    published = [{"label": label, "paper": dict(spec.paper)} for label, spec in published_rows(tasks).items()]
    assert best_published("bug-identification", {"cpp": 80.0, "all": 80.0}, published) == "cpp 61.0 (DeepSeek-V2-0628)"
    both = best_published("code-repair", {"python": 70.0, "java": 60.0, "all": 65.0}, published)
    assert both == "python 66.7 (DeepSeek-Coder-V2-0724); java 67.4 (GPT-4o-mini-0718)"
    assert best_published("code-review", {"cpp": 90.0}, published) == "-"  # a task with no published row here
