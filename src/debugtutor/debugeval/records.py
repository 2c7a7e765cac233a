"""DebugEval records: the original JSONL record format, read and written, with the few fields our builder adds.

DebugEval keeps the three multiple-choice tasks in one file (``debugevalsuite_task124.jsonl``, one record per buggy
program with per-task membership fields) and Code Repair in another (``debugevalsuite_task3.jsonl``). Our builder
writes the same two files with the same fields, so one loader reads both DebugEval's own data and ours. The extra
fields (problem slug, minor bug type, example blocks, train/test split, executable tests) are optional, and records
without them load exactly as DebugEval wrote them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from debugtutor.errors import InputError
from debugtutor.formats.jsonl import read_jsonl
from debugtutor.sandbox import LeetCodeCall

LanguageName = Literal["python", "cpp", "java"]
TaskName = Literal["bug-localization", "bug-identification", "code-review", "code-repair"]
TASKS: tuple[TaskName, ...] = ("bug-localization", "bug-identification", "code-review", "code-repair")
LANGUAGES: tuple[LanguageName, ...] = ("python", "cpp", "java")
TestsKind = Literal["none", "leetcode", "asserts", "stdio"]

MAJOR_TYPES = ("syntax error", "reference error", "logic error", "multiple error")
# The answer letter of each major category in Bug Identification, as DebugEval's prompt lists them.
CHOICE_BY_MAJOR = {"syntax error": "(A)", "reference error": "(B)", "logic error": "(C)", "multiple error": "(D)"}
MAJOR_BY_CHOICE = {choice: major for major, choice in CHOICE_BY_MAJOR.items()}
OPTION_LETTERS = ("A", "B", "C", "D")

TASK124_FILE = "debugevalsuite_task124.jsonl"
TASK3_FILE = "debugevalsuite_task3.jsonl"
ATCODER_TESTS_FILE = "atcoder_private_test_cases.jsonl"

_LANGUAGE_ALIASES = {
    "python": "python",
    "python3": "python",
    "py": "python",
    "cpp": "cpp",
    "c++": "cpp",
    "java": "java",
}


def normalize_language(value: str) -> LanguageName:
    """``python3`` (DebugBench), ``Python``, ``C++`` ... -> ``python``/``cpp``/``java``."""
    found = _LANGUAGE_ALIASES.get(value.strip().lower())
    if found is None:
        raise ValueError(f"unknown language {value!r} (python, cpp or java)")
    return found  # type: ignore[return-value]


class StdioTest(BaseModel):
    """One stdin/stdout test of a whole program (DebugEval's AtCoder tests)."""

    input: str
    output: str


class CallSpec(BaseModel):
    """How LeetCode calls are made and compared, as derived from the problem's oracle."""

    kind: Literal["method", "design"] = "method"
    """``method``: each call is one call of a ``Solution`` method; ``design``: each call is an operation sequence on
    an object of the problem's class (``args``: ``operations`` and ``arguments``; ``expected``: the answers)."""
    unordered_depth: int = 0
    """List levels compared as multisets (1: the answer's order does not matter; 2: nor its items' order)."""
    parameters: list[str] = Field(default_factory=list)
    """The oracle's parameter annotations in order (Python): arguments are built from them (a tree stays a tree
    for a program without type hints)."""
    returns: str = ""
    """The oracle's return annotation (Python)."""
    reference_s: float = 0.0
    """The oracle's slowest call: a program's time limit per call is a multiple of it."""
    several_answers: bool = False
    """The oracle's answer differs from a stated example's answer: the problem may accept several answers."""


class DebugEvalRecord(BaseModel):
    """One DebugEval record; the fields after ``major_error_type`` are ours and optional."""

    model_config = ConfigDict(extra="ignore")

    question_id: str
    platform: str = "leetcode"
    language: LanguageName
    question_content: str = ""
    buggy_code: str
    correct_code: str = ""
    task1_options: str = ""
    task1_answer: str = ""
    task2_choice: str = ""
    task4: str = ""
    major_error_type: str = ""

    source: str = ""
    """Where the record came from: ``debugbench``, ``socratic``, ``sample`` or ``""`` for DebugEval's own data."""
    slug: str = ""
    """The problem's id; train/test splits are made by it, so a problem never sits on both sides."""
    minor_error_type: str = ""
    examples: list[str] = Field(default_factory=list)
    """The problem's example blocks (``Input: ...`` newline ``Output: ...``), also part of ``question_content``."""
    split: Literal["train", "test"] = "test"
    task1_option_texts: list[str] = Field(default_factory=list)
    """The four option snippets in letter order (the same text ``task1_options`` renders)."""
    tests_kind: TestsKind = "none"
    leetcode_calls: list[LeetCodeCall] = Field(default_factory=list)
    method: str | None = None
    call_spec: CallSpec = Field(default_factory=CallSpec)
    unit_tests: list[str] = Field(default_factory=list)
    test_setup: str = ""
    private_test_cases: list[StdioTest] = Field(default_factory=list)

    @field_validator("language", mode="before")
    @classmethod
    def _language(cls, value: Any) -> Any:
        return normalize_language(value) if isinstance(value, str) else value

    @field_validator("private_test_cases", mode="before")
    @classmethod
    def _stdio_tests(cls, value: Any) -> Any:
        # DebugEval blanks this field in its outputs, and elsewhere stores it as a JSON string of a list
        if value in ("", None):
            return []
        if isinstance(value, str):
            return json.loads(value)
        return value

    @field_validator("task4", mode="before")
    @classmethod
    def _task4(cls, value: Any) -> Any:
        return "True" if value is True else ("" if value in (False, None) else value)

    def in_task(self, task: TaskName) -> bool:
        """Membership as DebugEval's scripts decide it (Code Repair records come from the task-3 file)."""
        if task == "bug-localization":
            return bool(self.task1_options)
        if task == "bug-identification":
            return bool(self.task2_choice)
        if task == "code-review":
            return self.task4 == "True" and bool(self.correct_code)
        return self.tests_kind != "none"

    def option_texts(self) -> list[str]:
        """The four localization options in letter order, from the structured field or parsed from the block."""
        if len(self.task1_option_texts) == 4:
            return list(self.task1_option_texts)
        return parse_options(self.task1_options)


_OPTION_TOKEN = re.compile(
    r"""(?P<string>"(?:\\.|[^"\\])*"?|'(?:\\.|[^'\\])*'?)|(?P<comment>(?:#|//).*)|(?P<word>\w+)|(?P<other>\S)"""
)


def option_text(line: str) -> str:
    """A code line as a Bug Localization option shows it: tokens with a space only between two words (``x=y+1``,
    ``return x``), string literals as written, comments with their whitespace collapsed.

    Every option gets the same spacing, so the spacing style of whoever wrote the buggy line (often not the author
    of the rest) does not tell it apart; the text still reads as the line it comes from."""
    parts: list[str] = []
    previous_word = False
    for match in _OPTION_TOKEN.finditer(line):
        kind = match.lastgroup
        text = " ".join(match.group().split()) if kind == "comment" else match.group()
        if kind == "comment":
            parts.append((" " if parts else "") + text)
            break
        is_word = kind == "word"
        if is_word and previous_word:
            parts.append(" ")
        parts.append(text)
        previous_word = is_word
    return "".join(parts)


_OPTION_START = re.compile(r"^\s*\(?([A-D])[).]\s?(.*)$")


def render_options(snippets: list[str]) -> str:
    """``(A) snippet`` ... ``(D) snippet``; continuation lines of a multi-line snippet are indented by four spaces."""
    blocks = []
    for letter, snippet in zip(OPTION_LETTERS, snippets):
        lines = snippet.splitlines() or [""]
        blocks.append("\n".join([f"({letter}) {lines[0]}", *("    " + line for line in lines[1:])]))
    return "\n".join(blocks)


def parse_options(block: str) -> list[str]:
    """The four snippets of an options block (``(A) ...`` or ``A. ...`` headed, in letter order)."""
    options: list[list[str]] = []
    for line in block.splitlines():
        match = _OPTION_START.match(line)
        expected = OPTION_LETTERS[len(options)] if len(options) < 4 else None
        if match and match.group(1) == expected:
            options.append([match.group(2)])
        elif options:
            options[-1].append(line[4:] if line.startswith("    ") else line)
    return ["\n".join(lines).rstrip() for lines in options]


def find_record_files(path: Path) -> tuple[Path | None, Path | None]:
    """The task-124 and task-3 files of a folder (or ``eval/`` under it, as in DebugEval's ``Data/``), or a file."""
    if path.is_file():
        return (None, path) if TASK3_FILE in path.name or "task3" in path.name else (path, None)
    for folder in (path, path / "eval", path / "Data" / "eval"):
        task124, task3 = folder / TASK124_FILE, folder / TASK3_FILE
        if task124.is_file() or task3.is_file():
            return (task124 if task124.is_file() else None, task3 if task3.is_file() else None)
    return None, None


def read_records(path: Path) -> list[DebugEvalRecord]:
    """Validate every line of one JSONL file as a :class:`DebugEvalRecord`."""
    records = []
    for number, value in read_jsonl(path):
        try:
            records.append(DebugEvalRecord.model_validate(value))
        except (ValidationError, ValueError) as exc:
            field = None
            if isinstance(exc, ValidationError) and exc.errors():
                field = ".".join(str(part) for part in exc.errors()[0]["loc"]) or None
            raise InputError(_first_error(exc), path=str(path), line=number, field=field) from exc
    return records


def _first_error(exc: Exception) -> str:
    if isinstance(exc, ValidationError) and exc.errors():
        return str(exc.errors()[0]["msg"])
    return str(exc)


def _atcoder_tests(folder: Path) -> dict[str, list[StdioTest]]:
    """DebugEval's Python judge file ``atcoder_private_test_cases.jsonl`` (question_id -> tests), when present."""
    found: dict[str, list[StdioTest]] = {}
    for candidate in (folder / ATCODER_TESTS_FILE, folder.parent / ATCODER_TESTS_FILE):
        if candidate.is_file():
            for _, value in read_jsonl(candidate):
                cases = value.get("private_test_cases", [])
                cases = json.loads(cases) if isinstance(cases, str) else cases
                found[str(value.get("question_id"))] = [StdioTest.model_validate(case) for case in cases]
            break
    return found


def _folder_tests(folder: Path, question_id: str) -> list[StdioTest]:
    """``test_cases/Input/<id>/<k>.in`` with ``Output/<id>/<k>.out`` (DebugEval's C++/Java judge layout)."""
    for root in (folder / "test_cases", folder.parent / "test_cases"):
        inputs = root / "Input" / question_id
        if inputs.is_dir():
            tests = []
            for input_file in sorted(inputs.glob("*.in"), key=lambda p: (len(p.stem), p.stem)):
                output_file = root / "Output" / question_id / f"{input_file.stem}.out"
                if output_file.is_file():
                    tests.append(StdioTest(input=input_file.read_text(), output=output_file.read_text()))
            return tests
    return []


def load_records(path: Path) -> list[DebugEvalRecord]:
    """Every record under ``path``: a folder written by ``debugeval build`` or DebugEval's own data, or one file.

    DebugEval's Code Repair records get their stdin/stdout tests from ``atcoder_private_test_cases.jsonl`` or the
    ``test_cases/`` folders beside them when the record itself carries none.
    """
    if not path.exists():
        raise InputError("does not exist", path=str(path))
    task124, task3 = find_record_files(path)
    if task124 is None and task3 is None:
        raise InputError(
            f"no {TASK124_FILE} or {TASK3_FILE} here",
            path=str(path),
            hint="build one with 'debugtutor debugeval build'",
        )
    records = read_records(task124) if task124 is not None else []
    if task3 is not None:
        atcoder = _atcoder_tests(task3.parent)
        for record in read_records(task3):
            if record.tests_kind == "none":
                cases = (
                    record.private_test_cases
                    or atcoder.get(record.question_id)
                    or _folder_tests(task3.parent, record.question_id)
                )
                record = record.model_copy(update={"private_test_cases": cases, "tests_kind": "stdio"})
            records.append(record)
    return records


def write_records(path: Path, records: Iterable[DebugEvalRecord]) -> int:
    """Write records as JSONL (fields in model order, so the same records give the same bytes); returns the count.

    Keys are not sorted: a LeetCode call's arguments keep the statement's order, which is the order a program whose
    parameter names differ from the statement's is called with."""
    path.parent.mkdir(parents=True, exist_ok=True)
    count = 0
    with path.open("w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record.model_dump(mode="json"), ensure_ascii=False) + "\n")
            count += 1
    return count
