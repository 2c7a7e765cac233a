"""Source programs: the train split of a DebugEval folder, Socratic fixed programs, and what evaluation excludes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from debugtutor.errors import InputError
from debugtutor.master.sources import (
    TASK3_FILE,
    EvaluationKeys,
    load_sources,
    read_debugeval_folder,
    read_socratic_folder,
)

from .conftest import TRAIN_SLUGS

SOCRATIC = """<problem>
Write `double(x)` that returns twice `x`.
</problem>
<bug_code>
1. def double(x):
2.    return x + 2
</bug_code>
<bug_desc>
adds 2
</bug_desc>
<bug_fixes>
multiply
</bug_fixes>
<unit_tests>
assert double(2) == 4
assert double(3) == 6
</unit_tests>
<stu_desc>
</stu_desc>
<dialogue>
User: it fails
<code>
1. def double(x):
2.    return x + 2
</code>
Assistant: What does `+ 2` do?
User: fixed it
<code>
1. def double(x):
2.    return x * 2
</code>
</dialogue>
"""


def test_train_split_is_the_source_and_test_split_is_excluded(split_folder: Path) -> None:
    programs, keys = read_debugeval_folder(split_folder, all_splits=False, origin="debugeval")
    assert {p.slug for p in programs} == set(TRAIN_SLUGS)
    every = {json.loads(line)["slug"] for line in (split_folder / TASK3_FILE).read_text().splitlines()}
    assert keys.slugs == every - set(TRAIN_SLUGS) and keys.slugs
    # records with executable tests win over example-only ones for the same program
    assert all(p.tests.kind == "leetcode" for p in programs)


def test_load_sources_reports_reads_and_checks_every_program(split_folder: Path) -> None:
    found = load_sources([str(split_folder)], exclude=[])
    assert {p.slug for p in found.programs} == set(TRAIN_SLUGS) and found.excluded == {}
    # the same folder named as an evaluation split as a whole: its test split is already excluded; samples add all
    both = load_sources([str(split_folder), "samples"], exclude=[split_folder])
    assert {p.slug for p in both.programs} == set(TRAIN_SLUGS)
    assert sum(both.excluded.values()) >= 2 and set(both.excluded) <= {"slug", "statement", "program"}


def test_socratic_folder_gives_the_last_program_and_its_tests(tmp_path: Path) -> None:
    (tmp_path / "0_1_double_socratic_dialogue.txt").write_text(SOCRATIC)
    programs, keys = read_socratic_folder(tmp_path)
    (program,) = programs
    assert program.code == "def double(x):\n   return x * 2\n"
    assert program.tests.asserts == ["assert double(2) == 4", "assert double(3) == 6"]
    assert program.slug in keys.slugs
    # the same problem under evaluation is excluded, whatever folder it comes from
    found = load_sources([str(tmp_path)], exclude=[tmp_path])
    assert not found.programs and found.excluded == {"slug": 1}


def test_evaluation_keys_match_by_slug_statement_or_program() -> None:
    keys = EvaluationKeys()
    keys.add(slug="two-sum", question="Find Two  numbers.", programs=["def f():\n    return 1\n"])
    assert keys.reason(slug="two-sum", question="", programs=[]) == "slug"
    assert keys.reason(slug="other", question="find two numbers.", programs=[]) == "statement"
    assert keys.reason(slug="other", question="", programs=["def f():\n\n    return   1"]) == "program"
    assert keys.reason(slug="other", question="else", programs=["def g(): pass"]) is None


def test_bad_sources_are_input_errors(tmp_path: Path, split_folder: Path) -> None:
    with pytest.raises(InputError, match="at least one --source"):
        load_sources([], exclude=[])
    with pytest.raises(InputError, match="does not exist"):
        load_sources([str(tmp_path / "absent")], exclude=[])
    only_test = tmp_path / "only_test"
    only_test.mkdir()
    for file in split_folder.iterdir():
        (only_test / file.name).write_text(file.read_text().replace('"split": "train"', '"split": "test"'))
    with pytest.raises(InputError, match="no records of the train split"):
        load_sources([str(only_test)], exclude=[])
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "debugevalsuite_task124.jsonl").write_text('{"language": "python"}\n{oops\n')
    with pytest.raises(InputError, match=r"debugevalsuite_task124\.jsonl:2: not valid JSON"):
        load_sources([str(broken)], exclude=[])
