"""`debugtutor sandbox run` for Python (with and without tests), C++ and Java, human and JSON output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from debugtutor.cli.main import main


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(args)
        raise SystemExit(0)
    captured = capsys.readouterr()
    code = exit_info.value.code
    return (code if isinstance(code, int) else 0), captured.out, captured.err


def test_python_file_with_tests_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    program = tmp_path / "fib.py"
    program.write_text("def fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n")
    tests = tmp_path / "tests.txt"
    tests.write_text("# unit tests\nassert fib(5) == 5\nassert fib(6) == 9\n")
    code, out, _ = run_cli(["sandbox", "run", str(program), "--tests", str(tests), "--json"], capsys)
    payload = json.loads(out)
    assert code == 1  # the program failed a test: the command says so in its exit code too
    assert payload["status"] == "failed"
    assert [test["status"] for test in payload["tests"]] == ["passed", "failed"]
    assert payload["tests"][1]["actual"] == "8"


def test_python_stdin_expect_human_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    program = tmp_path / "echo.py"
    program.write_text("print(input().upper())\n")
    (tmp_path / "in.txt").write_text("hi\n")
    (tmp_path / "out.txt").write_text("HI\n")
    args = ["sandbox", "run", str(program), "--stdin", str(tmp_path / "in.txt"), "--expect", str(tmp_path / "out.txt")]
    code, out, _ = run_cli(args, capsys)
    assert code == 0
    assert "passed" in out and "HI" in out


def test_cpp_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    program = tmp_path / "main.cpp"
    program.write_text('#include <cstdio>\nint main(){ int a, b; scanf("%d %d", &a, &b); printf("%d\\n", a + b); }\n')
    (tmp_path / "in.txt").write_text("2 3\n")
    code, out, _ = run_cli(["sandbox", "run", str(program), "--stdin", str(tmp_path / "in.txt"), "--json"], capsys)
    payload = json.loads(out)
    assert code == 0 and payload["stdout"] == "5\n" and payload["lang"] == "cpp"


def test_java_file_compile_error_and_timeout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "Main.java"
    broken.write_text("public class Main { public static void main(String[] a) { int x = } }\n")
    code, out, _ = run_cli(["sandbox", "run", str(broken), "--json"], capsys)
    assert code == 1 and json.loads(out)["status"] == "compile_error"
    looping = tmp_path / "Loop.txt"
    looping.write_text("public class Loop { public static void main(String[] a) { while (true) {} } }\n")
    code, out, _ = run_cli(["sandbox", "run", str(looping), "--lang", "java", "--timeout", "1", "--json"], capsys)
    assert code == 1 and json.loads(out)["status"] == "timeout"


def test_input_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    unknown = tmp_path / "prog.rb"
    unknown.write_text("puts 1")
    code, _, err = run_cli(["sandbox", "run", str(unknown)], capsys)
    assert code == 2 and "--lang" in err
    code, _, err = run_cli(["sandbox", "run", str(tmp_path / "missing.py")], capsys)
    assert code == 2 and "missing.py" in err


def test_console_script_prints_one_json_object(tmp_path: Path) -> None:
    program = tmp_path / "hello.py"
    program.write_text("print('hello')\n")
    done = subprocess.run(
        [sys.executable, "-m", "debugtutor.cli.main", "sandbox", "run", str(program), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["stdout"] == "hello\n"
    assert done.stdout.count("\n") == 1
