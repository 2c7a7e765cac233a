"""Tests for reading the sections of a Socratic Debugging Benchmark file."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from debugtutor.errors import InputError
from debugtutor.formats.socratic_sections import parse_sections, read_sections, strip_line_numbers

SAMPLE = """\ufeff<problem>
Write `double(x)`.
</problem>
<bug_code>
1. def double(x):
2.    y = x * 3
3.  \treturn y
</bug_code>
<bug_desc>
On line 2, `x` is tripled.
</bug_desc>
<bug_fixes>
Replace `3` with `2` on line 2.
</bug_fixes>
Change line 2 to `y = x + x`.
</bug_fixes>
<unit_tests>
import math
assert double(2) == 4
</unit_tests>
<stu_desc>
</stu_desc>
<dialogue>
User: help
</dialogue>"""


def test_strip_line_numbers_removes_prefix_and_one_space_only() -> None:
    assert strip_line_numbers("1. def f():\n2.    return 1\n10.\tpass\nno number") == (
        "def f():\n   return 1\n\tpass\nno number"
    )


def test_parse_sections_reads_every_section() -> None:
    sections = parse_sections(SAMPLE, path="sample.txt")
    assert sections.problem == "Write `double(x)`."
    assert sections.bug_code.splitlines() == ["def double(x):", "   y = x * 3", " \treturn y"]
    assert sections.bug_desc.startswith("On line 2")
    # the duplicated closing tag keeps both fixes
    assert sections.bug_fixes == ["Replace `3` with `2` on line 2.", "Change line 2 to `y = x + x`."]
    assert sections.unit_test_lines == ["import math", "assert double(2) == 4"]
    assert sections.stu_desc == ""
    assert sections.has_bug_code


def test_missing_bug_code_is_flagged_not_fatal() -> None:
    text = SAMPLE.replace("<bug_code>", "<not_code>").replace("</bug_code>", "</not_code>")
    sections = parse_sections(text, path="x.txt")
    assert sections.bug_code == ""
    assert not sections.has_bug_code


def test_missing_required_section_names_the_file() -> None:
    text = SAMPLE.replace("<unit_tests>", "").replace("</unit_tests>", "")
    with pytest.raises(InputError, match=r"x\.txt: missing section <unit_tests>"):
        parse_sections(text, path="x.txt")


def test_unclosed_section_names_file_and_line() -> None:
    text = SAMPLE.replace("</bug_desc>", "")
    with pytest.raises(InputError, match=r"y\.txt:9: section <bug_desc> is never closed"):
        parse_sections(text, path="y.txt")


def test_read_sections_missing_file_is_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot read"):
        read_sections(tmp_path / "absent.txt")


@pytest.mark.shared_data
def test_most_benchmark_bug_programs_parse_after_stripping(shared_data: Path) -> None:
    files = sorted((shared_data / "socratic" / "v2_sigcse" / "train").glob("*.txt"))
    assert files
    parsed = [read_sections(path) for path in files]
    with_code = [s for s in parsed if s.has_bug_code]
    compiles = 0
    for sections in with_code:
        assert not any(line[:1].isdigit() and ". " in line[:5] for line in sections.bug_code.splitlines())
        try:
            ast.parse(sections.bug_code)
            compiles += 1
        except SyntaxError:
            pass  # some student bugs are syntax errors on purpose
    assert compiles / len(with_code) > 0.8
    assert all(s.unit_test_lines for s in parsed)
