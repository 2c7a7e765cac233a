"""Tests for ``debugtutor analyze``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from debugtutor.cli.analyze import load_inputs, program_text
from debugtutor.cli.main import main
from debugtutor.errors import InputError

NUMBERED = "1. def triple(x):\n2.    return x * 2\n"
TESTS = "assert triple(1) == 3\nassert triple(0) == 0\n"


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(args)
        raise SystemExit(0)
    captured = capsys.readouterr()
    return int(exit_info.value.code or 0), captured.out, captured.err


def test_program_text_strips_numbers_only_when_every_line_is_numbered() -> None:
    assert program_text(NUMBERED) == "def triple(x):\n   return x * 2"
    mixed = "1. x = 1\ny = 2\n"
    assert program_text(mixed) == mixed


def test_load_inputs_reads_a_socratic_file(tmp_path: Path) -> None:
    path = tmp_path / "bug.txt"
    path.write_text(
        "<problem>\np\n</problem>\n<bug_code>\n1. def f():\n2.   return 1\n</bug_code>\n<bug_desc>\nd\n</bug_desc>\n"
        "<bug_fixes>\nx\n</bug_fixes>\n<unit_tests>\nassert f() == 2\n</unit_tests>\n<stu_desc>\n</stu_desc>\n"
        "<dialogue>\nUser: hi\n</dialogue>",
        encoding="utf-8",
    )
    code, tests = load_inputs(path, None)
    assert code == "def f():\n  return 1"
    assert tests == "assert f() == 2"


def test_tests_file_without_asserts_is_an_input_error(tmp_path: Path) -> None:
    program = tmp_path / "p.py"
    program.write_text("x = 1\n")
    tests = tmp_path / "t.py"
    tests.write_text("print(1)\n")
    with pytest.raises(InputError, match="no assert statements"):
        load_inputs(program, tests)


def test_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["analyze", str(tmp_path / "absent.py"), "--json"], capsys)
    assert code == 2
    assert out == ""
    assert "absent.py" in err


@pytest.mark.slow
def test_analyze_json_reports_failures_and_a_repair(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    program = tmp_path / "triple.py"
    program.write_text(NUMBERED.replace("   return", "    return"), encoding="utf-8")
    tests = tmp_path / "tests.py"
    tests.write_text(TESTS, encoding="utf-8")
    code, out, _ = run_cli(["analyze", str(program), "--tests", str(tests), "--json", "--budget-s", "20"], capsys)
    assert code == 0
    payload = json.loads(out)
    assert len(out.strip().splitlines()) == 1
    assert payload["failing_tests"] == [0]
    assert payload["tests"][0]["actual"] == "2" and payload["tests"][0]["expected"] == "3"
    assert payload["suspicious_lines"][0]["line"] == 2
    assert payload["repair"] is not None
    assert "+    return x * 3" in payload["repair"]["diff"]


@pytest.mark.slow
def test_analyze_human_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    program = tmp_path / "triple.py"
    program.write_text("def triple(x):\n    return x * 2\n", encoding="utf-8")
    tests = tmp_path / "tests.py"
    tests.write_text(TESTS, encoding="utf-8")
    code, out, _ = run_cli(["analyze", str(program), "--tests", str(tests), "--budget-s", "20"], capsys)
    assert code == 0
    assert "Tests: 1 of 2 pass." in out
    assert "Failing tests" in out and "Suspicious lines" in out
    assert "Repair found" in out


@pytest.mark.slow
def test_analyze_java_with_examples(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    program = tmp_path / "Solution.java"
    program.write_text(
        "class Solution {\n    public int triple(int x) {\n        return x * 2;\n    }\n}\n", encoding="utf-8"
    )
    examples = tmp_path / "examples.txt"
    examples.write_text("Input: x = 1\nOutput: 3\n\nInput: x = 0\nOutput: 0\n", encoding="utf-8")
    # (a generous per-call budget: the JVM shares two cores with the rest of the suite; timing is not under test)
    args = ["analyze", str(program), "--tests", str(examples), "--json", "--budget-s", "60", "--per-test-s", "5"]
    code, out, _ = run_cli(args, capsys)
    assert code == 0
    payload = json.loads(out)
    assert payload["failing_tests"] == [0], payload["tests"]
    assert payload["tests"][0]["actual"] == "2" and payload["tests"][0]["expected"] == "3"
    assert payload["suspicious_lines"][0]["line"] == 3
    assert payload["repair"] is not None and "+        return x * 3;" in payload["repair"]["diff"]


@pytest.mark.slow
def test_analyze_a_cpp_design_class_with_its_operation_examples(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program = tmp_path / "counter.cpp"
    program.write_text(
        "class HitCounter {\n    int hits = 0;\npublic:\n    HitCounter() {}\n"
        "    void hit() {\n        hits += 2;\n    }\n    int count() {\n        return hits;\n    }\n};\n",
        encoding="utf-8",
    )
    examples = tmp_path / "examples.txt"
    examples.write_text(
        'Input\n["HitCounter", "hit", "hit", "count"]\n[[], [], [], []]\nOutput\n[null, null, null, 2]\n\n'
        'Input\n["HitCounter", "count", "hit", "count"]\n[[], [], [], []]\nOutput\n[null, 0, null, 1]\n',
        encoding="utf-8",
    )
    args = ["analyze", str(program), "--tests", str(examples), "--json", "--budget-s", "60", "--per-test-s", "5"]
    code, out, _ = run_cli(args, capsys)
    assert code == 0
    payload = json.loads(out)
    assert payload["failing_tests"] == [0, 1], payload["tests"]
    assert payload["tests"][0]["actual"] == "[null, null, null, 4]"
    assert payload["repair"] is not None and "+        hits += 1;" in payload["repair"]["diff"]


@pytest.mark.parametrize(("name", "seconds"), [("f.py", 10.0), ("Solution.java", 60.0), ("solution.cpp", 60.0)])
def test_the_default_search_budget_allows_for_a_compiler(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, name: str, seconds: float
) -> None:
    import debugtutor.cli.analyze as analyze_cli

    budgets: list[float] = []

    def record(*args: object, budget: analyze_cli.AnalysisBudget, **kwargs: object) -> object:
        budgets.append(budget.repair_seconds)
        raise SystemExit(0)  # the search itself is not under test

    monkeypatch.setattr(analyze_cli, "analyze", record)
    program = tmp_path / name
    program.write_text(
        "def f(x):\n    return x\n" if name.endswith(".py") else "class Solution {};\n", encoding="utf-8"
    )
    tests = tmp_path / "tests.txt"
    tests.write_text("assert f(1) == 1\n" if name.endswith(".py") else "Input: x = 1\nOutput: 1\n", encoding="utf-8")
    run_cli(["analyze", str(program), "--tests", str(tests)], capsys)
    assert budgets == [seconds]
