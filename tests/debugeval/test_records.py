"""DebugEval record files: options blocks, membership rules, DebugEval's own fields and errors with line numbers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from debugtutor.debugeval.records import (
    TASK3_FILE,
    TASK124_FILE,
    DebugEvalRecord,
    load_records,
    normalize_language,
    parse_options,
    read_records,
    render_options,
    write_records,
)
from debugtutor.errors import InputError
from debugtutor.sandbox import LeetCodeCall


def test_options_round_trip_with_a_multi_line_snippet() -> None:
    snippets = ["x = 1", "if a:\n    b()", "(y) = 2", "return z"]
    block = render_options(snippets)
    assert block.splitlines()[0] == "(A) x = 1"
    assert parse_options(block) == snippets


def test_parse_options_accepts_letter_dot_layout() -> None:
    assert parse_options("A. one\nB. two\nC. three\nD. four") == ["one", "two", "three", "four"]


def test_language_aliases() -> None:
    assert normalize_language("python3") == "python"
    assert normalize_language("C++") == "cpp"
    with pytest.raises(ValueError):
        normalize_language("rust")


def test_debugeval_own_records_load_with_their_quirks(tmp_path: Path) -> None:
    task124 = {
        "question_id": "q1", "platform": "leetcode", "language": "python3", "question_content": "t",
        "buggy_code": "x", "correct_code": "y", "task1_options": "", "task1_answer": "", "task2_choice": "(C)",
        "task4": "True", "major_error_type": "logic error", "private_test_cases": "", "responses": ["ignored"],
    }  # fmt: skip
    task3 = {"question_id": "abc331_a", "platform": "atcoder", "language": "cpp", "buggy_code": "int main(){}"}
    (tmp_path / TASK124_FILE).write_text(json.dumps(task124) + "\n")
    (tmp_path / TASK3_FILE).write_text(json.dumps(task3) + "\n")
    (tmp_path / "atcoder_private_test_cases.jsonl").write_text(
        json.dumps({"question_id": "abc331_a", "private_test_cases": json.dumps([{"input": "1\n", "output": "2\n"}])})
        + "\n"
    )
    first, repair = load_records(tmp_path)
    assert first.language == "python"
    assert first.in_task("bug-identification") and first.in_task("code-review")
    assert not first.in_task("bug-localization") and not first.in_task("code-repair")
    assert repair.tests_kind == "stdio" and repair.private_test_cases[0].output == "2\n"
    assert repair.in_task("code-repair")


def test_write_then_load_is_identity(tmp_path: Path) -> None:
    record = DebugEvalRecord(
        question_id="a", language="java", buggy_code="class A {}", task1_options=render_options(["1", "2", "3", "4"]),
        task1_answer="(B)", task1_option_texts=["1", "2", "3", "4"], slug="s", split="train",
    )  # fmt: skip
    write_records(tmp_path / TASK124_FILE, [record])
    assert load_records(tmp_path) == [record]


def test_bad_line_names_file_and_line(tmp_path: Path) -> None:
    (tmp_path / TASK124_FILE).write_text('{"question_id": "a", "language": "python", "buggy_code": "x"}\nnot json\n')
    with pytest.raises(InputError) as info:
        load_records(tmp_path)
    assert info.value.line == 2


def test_folder_without_records_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="debugeval build"):
        load_records(tmp_path)


def test_written_calls_keep_the_argument_order(tmp_path: Path) -> None:
    # a program whose parameter names differ from the statement's is called by position: the order must survive
    call = LeetCodeCall(args={"n": 3, "edges": [[0, 1]]}, expected=[])
    record = DebugEvalRecord(question_id="q", language="python", buggy_code="x", leetcode_calls=[call])
    write_records(tmp_path / "r.jsonl", [record])
    (again,) = read_records(tmp_path / "r.jsonl")
    assert list(again.leetcode_calls[0].args) == ["n", "edges"]
