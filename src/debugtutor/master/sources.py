"""Where MASTER's correct programs come from, and which problems it must never touch (the evaluation splits).

Sources, each read by a small reader of its own format (this arena imports no other arena):

* a DebugEval-format folder (``debugtutor debugeval build`` output, or DebugEval's own data): the correct programs
  of records in the **train** split, with their tests (LeetCode calls or assert lines) or example blocks. The
  folder's **test** split is an evaluation split: its problems are excluded automatically;
* the Socratic Debugging Benchmark (a folder of its ``.txt`` files): the student's last program of each dialogue,
  with the problem's unit tests (kept later only if it passes them: the fixed program);
* ``samples``: debugtutor's own built-in DebugEval sample, every record (it is our own data, with no split).

:class:`EvaluationKeys` hold what identifies an evaluation problem: its slug, its statement (normalized) and its
programs (normalized). A source program matching any of them is left out; the finished SFT data is checked again.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from debugtutor.analysis.execution import split_unit_tests
from debugtutor.errors import InputError, read_text
from debugtutor.master.records import (
    LanguageName,
    ProgramTests,
    SourceProgram,
    normalized_code,
    normalized_text,
    short_hash,
)
from debugtutor.sandbox import LeetCodeCall

TASK124_FILE = "debugevalsuite_task124.jsonl"
TASK3_FILE = "debugevalsuite_task3.jsonl"
_LANGUAGES: dict[str, LanguageName] = {"python": "python", "python3": "python", "py": "python", "cpp": "cpp",
                                       "c++": "cpp", "java": "java"}  # fmt: skip


@dataclass
class EvaluationKeys:
    """Identifiers of evaluation problems: slugs, normalized statements and normalized programs."""

    slugs: set[str] = field(default_factory=set)
    questions: set[str] = field(default_factory=set)
    programs: set[str] = field(default_factory=set)
    sources: list[str] = field(default_factory=list)

    def add(self, *, slug: str, question: str, programs: Iterable[str]) -> None:
        if slug:
            self.slugs.add(slug)
        if question.strip():
            self.questions.add(short_hash(normalized_text(question)))
        for program in programs:
            if program.strip():
                self.programs.add(short_hash(normalized_code(program)))

    def reason(self, *, slug: str, question: str, programs: Iterable[str]) -> str | None:
        """Why a problem counts as an evaluation problem (``slug``, ``statement``, ``program``), or None."""
        if slug and slug in self.slugs:
            return "slug"
        if question.strip() and short_hash(normalized_text(question)) in self.questions:
            return "statement"
        if any(program.strip() and short_hash(normalized_code(program)) in self.programs for program in programs):
            return "program"
        return None

    def summary(self) -> dict[str, Any]:
        return {"sources": list(self.sources), "slugs": len(self.slugs), "statements": len(self.questions),
                "programs": len(self.programs)}  # fmt: skip


@dataclass
class SourceSet:
    programs: list[SourceProgram]
    evaluation: EvaluationKeys
    excluded: dict[str, int] = field(default_factory=dict)
    """Source programs left out because they belong to an evaluation split, by reason."""
    read: dict[str, int] = field(default_factory=dict)
    """Programs read per source name."""


# ---------------------------------------------------------------------------------------------------------------
# DebugEval-format folders


def record_files(folder: Path) -> list[Path]:
    if folder.is_file():
        return [folder]
    for candidate in (folder, folder / "eval", folder / "Data" / "eval"):
        found = [candidate / name for name in (TASK124_FILE, TASK3_FILE) if (candidate / name).is_file()]
        if found:
            return found
    return []


def read_record_lines(path: Path) -> list[dict[str, Any]]:
    """The JSON objects of a DebugEval JSONL file; a bad line is an :class:`InputError` naming file and line."""
    records = []
    for number, line in enumerate(read_text(path).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"not valid JSON: {exc.msg}", path=str(path), line=number) from exc
        if not isinstance(value, dict):
            raise InputError("a record must be a JSON object", path=str(path), line=number)
        language = _LANGUAGES.get(str(value.get("language", "")).strip().lower())
        if language is None:
            raise InputError(f"unknown language {value.get('language')!r}", path=str(path), line=number,
                             field="language")  # fmt: skip
        value["language"] = language
        records.append(value)
    return records


def _tests_of(record: dict[str, Any]) -> ProgramTests | None:
    if record.get("leetcode_calls"):
        calls = [LeetCodeCall.model_validate(call) for call in record["leetcode_calls"]]
        return ProgramTests(kind="leetcode", calls=calls, method=record.get("method"))
    if record.get("unit_tests"):
        return ProgramTests(kind="asserts", asserts=list(record["unit_tests"]), setup=record.get("test_setup", ""))
    if record.get("examples"):
        return ProgramTests(kind="examples", examples=list(record["examples"]))
    return None


def _slug(record: dict[str, Any]) -> str:
    return str(record.get("slug") or record.get("question_id") or "")


def read_debugeval_folder(path: Path, *, all_splits: bool, origin: str) -> tuple[list[SourceProgram], EvaluationKeys]:
    """Correct programs of the train split (every record with ``all_splits``) and the keys of the test split."""
    files = record_files(path)
    if not files:
        raise InputError(f"no {TASK124_FILE} or {TASK3_FILE} here", path=str(path),
                         hint="build one with 'debugtutor debugeval build --train-fraction 0.5'")  # fmt: skip
    programs: dict[str, SourceProgram] = {}
    keys = EvaluationKeys(sources=[str(path)])
    for file in files:
        for record in read_record_lines(file):
            split = record.get("split", "test")
            if split != "train" and not all_splits:
                keys.add(slug=_slug(record), question=str(record.get("question_content", "")),
                         programs=[str(record.get("buggy_code", "")), str(record.get("correct_code", ""))])  # fmt: skip
                continue
            code = str(record.get("correct_code", ""))
            tests = _tests_of(record)
            if not code.strip() or tests is None:
                continue
            slug = _slug(record)
            program_id = f"{origin}-{record['language']}-{short_hash(slug, normalized_code(code))}"
            existing = programs.get(program_id)
            # a record with executable tests beats one with example blocks only
            if existing is None or (existing.tests.kind == "examples" and tests.kind != "examples"):
                programs[program_id] = SourceProgram(
                    id=program_id, origin=str(record.get("source") or origin), language=record["language"],
                    slug=slug, question=str(record.get("question_content", "")), code=code, tests=tests,
                )  # fmt: skip
    return [programs[key] for key in sorted(programs)], keys


# ---------------------------------------------------------------------------------------------------------------
# The Socratic Debugging Benchmark


_LINE_NUMBER = re.compile(r"^\d+\.( ?)")


def _section(text: str, tag: str) -> str | None:
    start = text.find(f"<{tag}>")
    end = text.rfind(f"</{tag}>")
    if start < 0 or end < start:
        return None
    return text[start + len(tag) + 2 : end].strip("\n")


def _strip_numbers(lines: list[str]) -> str:
    return "\n".join(_LINE_NUMBER.sub("", line) for line in lines).strip("\n") + "\n"


def _code_blocks(dialogue: str) -> list[str]:
    blocks: list[str] = []
    current: list[str] | None = None
    for line in dialogue.splitlines():
        if line.strip() == "<code>":
            current = []
        elif line.strip() == "</code>" and current is not None:
            blocks.append(_strip_numbers(current))
            current = None
        elif current is not None:
            current.append(line)
    return blocks


def socratic_files(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    return sorted(p for p in path.rglob("*.txt") if "<problem>" in read_text(p)[:2000])


def socratic_problem_key(problem: str) -> str:
    return f"socratic-{short_hash(normalized_text(problem), size=10)}"


def read_socratic_folder(path: Path) -> tuple[list[SourceProgram], EvaluationKeys]:
    """The last program of each dialogue with its problem's unit tests, and the keys of every problem read."""
    files = socratic_files(path)
    if not files:
        raise InputError("no Socratic benchmark files (.txt with a <problem> section) here", path=str(path))
    programs: dict[str, SourceProgram] = {}
    keys = EvaluationKeys(sources=[str(path)])
    for file in files:
        text = read_text(file)
        problem, tests_text, dialogue = (
            _section(text, "problem"),
            _section(text, "unit_tests"),
            _section(text, "dialogue"),
        )
        if not problem:
            continue
        bug_code = _section(text, "bug_code")
        keys.add(slug=socratic_problem_key(problem), question=problem,
                 programs=[_strip_numbers(bug_code.splitlines())] if bug_code else [])  # fmt: skip
        blocks = _code_blocks(dialogue or "")
        tests = split_unit_tests(tests_text or "")
        if not blocks or not tests.tests:
            continue
        code = blocks[-1]
        program_id = f"socratic-python-{short_hash(problem, normalized_code(code))}"
        programs[program_id] = SourceProgram(
            id=program_id, origin="socratic", language="python", slug=socratic_problem_key(problem),
            question=problem.strip(), code=code,
            tests=ProgramTests(kind="asserts", asserts=list(tests.tests), setup=tests.setup),
        )  # fmt: skip
    return [programs[key] for key in sorted(programs)], keys


# ---------------------------------------------------------------------------------------------------------------
# Putting sources together


def sample_folder() -> Path:
    from importlib import resources

    return Path(str(resources.files("debugtutor") / "samples" / "debugeval"))


def _is_socratic(path: Path) -> bool:
    return not record_files(path) and bool(socratic_files(path))


def evaluation_keys(path: Path) -> EvaluationKeys:
    """The keys of an evaluation split: a DebugEval folder's test split, or every problem of a Socratic folder."""
    if _is_socratic(path):
        return read_socratic_folder(path)[1]
    return read_debugeval_folder(path, all_splits=False, origin="debugeval")[1]


def load_sources(sources: list[str], *, exclude: list[Path], languages: Iterable[str] | None = None) -> SourceSet:
    """Read every source, drop programs of evaluation problems, and return what is left with the keys used."""
    if not sources:
        raise InputError("name at least one --source (a DebugEval folder, a Socratic folder, or 'samples')",
                         field="--source")  # fmt: skip
    evaluation = EvaluationKeys()
    programs: list[SourceProgram] = []
    read: dict[str, int] = {}

    def merge(keys: EvaluationKeys) -> None:
        evaluation.slugs |= keys.slugs
        evaluation.questions |= keys.questions
        evaluation.programs |= keys.programs
        evaluation.sources.extend(keys.sources)

    for source in sources:
        if source == "samples":
            found, _ = read_debugeval_folder(sample_folder(), all_splits=True, origin="sample")
            read["samples"] = len(found)
        else:
            path = Path(source)
            if not path.exists():
                raise InputError("does not exist", path=source, field="--source")
            if _is_socratic(path):
                found, _ = read_socratic_folder(path)
            else:
                found, test_keys = read_debugeval_folder(path, all_splits=False, origin="debugeval")
                if test_keys.slugs or test_keys.questions:
                    merge(test_keys)
                if not found:
                    raise InputError("holds no records of the train split with a correct program", path=source,
                                     hint="build with 'debugtutor debugeval build --train-fraction 0.5'")  # fmt: skip
            read[source] = len(found)
        programs.extend(found)
    for path in exclude:
        if not path.exists():
            raise InputError("does not exist", path=str(path), field="--exclude")
        merge(evaluation_keys(path))
    wanted = set(languages) if languages is not None else None
    kept: list[SourceProgram] = []
    excluded: dict[str, int] = {}
    seen: set[str] = set()
    for program in programs:
        if wanted is not None and program.language not in wanted:
            continue
        if program.id in seen:
            continue
        seen.add(program.id)
        why = evaluation.reason(slug=program.slug, question=program.question, programs=[program.code])
        if why is not None:
            excluded[why] = excluded.get(why, 0) + 1
            continue
        kept.append(program)
    return SourceSet(programs=kept, evaluation=evaluation, excluded=excluded, read=read)
