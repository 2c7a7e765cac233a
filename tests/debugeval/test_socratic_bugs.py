"""Reading Socratic benchmark files for Code Repair: line numbers stripped, setup split off, threads deduplicated."""

from __future__ import annotations

from pathlib import Path

import pytest

from debugtutor.debugeval.socratic_bugs import keep_failing, read_socratic_bugs
from debugtutor.errors import InputError
from debugtutor.formats.socratic_sections import parse_sections, strip_line_numbers

FILE = """<problem>
Write `double(x)` that returns twice `x`.
</problem>
<bug_code>
1. def double(x):
2.    return x + 2
</bug_code>
<bug_desc>
Adds instead of multiplying.
</bug_desc>
<bug_fixes>
Replace `+` with `*` on line 2.
</bug_fixes>
<unit_tests>
import math
assert double(2) == 4
assert double(3) == 6
</unit_tests>
<stu_desc>
</stu_desc>
<dialogue>
User: Help!
</dialogue>"""


def test_sections_and_line_numbers() -> None:
    # (the same reader as the Socratic arena's: formats.socratic_sections)
    sections = parse_sections(FILE)
    assert sections.bug_desc == "Adds instead of multiplying."
    assert sections.bug_code == "def double(x):\n   return x + 2"
    assert strip_line_numbers("1. def f():\n2.    return 1\n10.x = 2") == "def f():\n   return 1\nx = 2"


def test_threads_of_one_bug_give_one_record(tmp_path: Path) -> None:
    (tmp_path / "0_1_double_socratic_dialogue.txt").write_text(FILE)
    (tmp_path / "0_1_double_conversational_thread_1.txt").write_text(FILE.replace("Help!", "Hi"))
    (record,) = read_socratic_bugs(tmp_path)
    assert record.buggy_code == "def double(x):\n   return x + 2"
    assert record.test_setup == "import math" and len(record.unit_tests) == 2
    assert record.slug.startswith("double-") and record.in_task("code-repair")
    kept, dropped = keep_failing([record])
    assert kept == [record] and dropped == 0
    fixed = record.model_copy(update={"buggy_code": "def double(x):\n    return x * 2"})
    assert keep_failing([fixed]) == ([], 1)


def test_no_usable_files(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("<problem>\nx\n</problem>")
    with pytest.raises(InputError):
        read_socratic_bugs(tmp_path)
