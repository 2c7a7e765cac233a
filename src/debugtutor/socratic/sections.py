"""Read the tagged sections of a Socratic Debugging Benchmark ``.txt`` file.

A file holds ``<problem>``, ``<bug_code>``, ``<bug_desc>``, ``<bug_fixes>``, ``<unit_tests>``, ``<stu_desc>`` and
``<dialogue>`` sections, each tag alone on its line. The buggy code carries an ``N.`` prefix on every line; it is
stripped here (with the single space the annotation tool may have put after it) so the code runs as the student
wrote it, indentation mistakes included. The dialogue itself is parsed elsewhere in the arena.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from debugtutor.errors import InputError

_LINE_NUMBER = re.compile(r"^\d+\. ?")
_SECTION_NAMES = ("problem", "bug_code", "bug_desc", "bug_fixes", "unit_tests", "stu_desc")


@dataclass(frozen=True)
class SocraticSections:
    """The non-dialogue sections of one benchmark file; ``bug_code`` has its line numbers removed."""

    path: str
    problem: str
    bug_code: str
    bug_desc: str
    bug_fixes: list[str]
    unit_tests: str
    stu_desc: str
    has_bug_code: bool

    @property
    def unit_test_lines(self) -> list[str]:
        """The non-blank lines of the unit-test section, in order (asserts and any setup lines)."""
        return [line for line in self.unit_tests.splitlines() if line.strip()]


def strip_line_numbers(code: str) -> str:
    """Remove ``N.`` prefixes (and one following space) from every line; lines without a prefix stay as they are."""
    return "\n".join(_LINE_NUMBER.sub("", line, count=1) for line in code.splitlines())


def _section_span(lines: list[str], tag: str, *, path: str, last_close: bool = False) -> tuple[int, int] | None:
    """Line indexes (open tag, close tag) of a section; ``last_close`` takes the last closing tag before the next
    section, because one benchmark bug duplicates ``</bug_fixes>`` with a fix line between the two."""
    open_tag, close_tag = f"<{tag}>", f"</{tag}>"
    opens = [i for i, line in enumerate(lines) if line.strip() == open_tag]
    if not opens:
        return None
    start = opens[0]
    closes = [i for i, line in enumerate(lines) if i > start and line.strip() == close_tag]
    if not closes:
        raise InputError(f"section <{tag}> is never closed", path=path, line=start + 1)
    if last_close:
        next_opens = [i for i, line in enumerate(lines) if i > start and re.fullmatch(r"<[a-z_]+>", line.strip())]
        limit = next_opens[0] if next_opens else len(lines)
        in_range = [i for i in closes if i < limit]
        return start, (in_range[-1] if in_range else closes[0])
    return start, closes[0]


def parse_sections(text: str, *, path: str = "<string>") -> SocraticSections:
    """Parse the sections of one benchmark file's text; ``path`` names the file in errors."""
    lines = text.lstrip("\ufeff").split("\n")
    contents: dict[str, str] = {}
    for tag in _SECTION_NAMES:
        span = _section_span(lines, tag, path=path, last_close=tag == "bug_fixes")
        if span is None:
            # Some benchmark bugs lack <bug_code>; every other section is required.
            if tag in ("bug_code", "stu_desc"):
                contents[tag] = ""
                continue
            raise InputError(f"missing section <{tag}>", path=path)
        start, end = span
        body = [line for line in lines[start + 1 : end] if line.strip() != f"</{tag}>"]
        contents[tag] = "\n".join(body)
    has_bug_code = _section_span(lines, "bug_code", path=path) is not None
    return SocraticSections(
        path=path,
        problem=contents["problem"].strip(),
        bug_code=strip_line_numbers(contents["bug_code"].strip("\n")),
        bug_desc=contents["bug_desc"].strip(),
        bug_fixes=[line.strip() for line in contents["bug_fixes"].splitlines() if line.strip()],
        unit_tests=contents["unit_tests"].strip("\n"),
        stu_desc=contents["stu_desc"].strip(),
        has_bug_code=has_bug_code,
    )


def read_sections(path: str | Path) -> SocraticSections:
    """Read and parse one benchmark file (UTF-8, with or without a byte-order mark)."""
    file_path = Path(path)
    try:
        text = file_path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise InputError(f"cannot read Socratic benchmark file: {exc.strerror}", path=str(file_path)) from exc
    return parse_sections(text, path=str(file_path))
