"""Read the tagged sections of a Socratic Debugging Benchmark ``.txt`` file.

A file holds ``<problem>``, ``<bug_code>``, ``<bug_desc>``, ``<bug_fixes>``, ``<unit_tests>``, ``<stu_desc>`` and
``<dialogue>`` sections, each tag alone on its line. The buggy code carries an ``N.`` prefix on every line; it is
stripped here (with the single space the annotation tool may have put after it) so the code runs as the student
wrote it, indentation mistakes included. The dialogue itself is parsed by the Socratic arena
(:mod:`debugtutor.socratic.dialogue`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from debugtutor.console import log
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


_NUMBER_PREFIX = re.compile(r"^(\d+\.)")


def _strip_one_space(code: str) -> str:
    return "\n".join(_LINE_NUMBER.sub("", line, count=1) for line in code.splitlines())


def _strip_gutter(code: str) -> str:
    """Some files were pasted from an editor whose line-number gutter is right-aligned ("9. " and "10." both take
    three columns), so the number's padding must go too or the indentation of lines 1-9 is one space off."""
    lines = code.splitlines()
    width = max((len(m.group(1)) for line in lines if (m := _NUMBER_PREFIX.match(line))), default=0)
    out = []
    for line in lines:
        match = _NUMBER_PREFIX.match(line)
        if not match:
            out.append(line)
            continue
        rest = line[match.end() :]
        pad = width - len(match.group(1)) + 1
        out.append(rest[min(pad, len(rest) - len(rest.lstrip(" "))) :])
    return "\n".join(out)


def _snap_indentation(code: str) -> str:
    """Re-indent lines whose indentation matches no open block to the nearest open level (tabs as 4 spaces).

    Hand-edited code blocks in the benchmark sometimes shift a line by one column; Python rejects that, although a
    reader sees at once which block the line belongs to."""
    stack = [0]
    opens_block = False
    out = []
    for raw in code.expandtabs(4).splitlines():
        if not raw.strip():
            out.append("")
            continue
        indent = len(raw) - len(raw.lstrip(" "))
        if opens_block and indent > stack[-1]:
            stack.append(indent)
        elif indent >= stack[-1]:
            indent = stack[-1]
        else:
            popped = stack[-1]
            while len(stack) > 1 and stack[-1] > indent:
                popped = stack.pop()
            if stack[-1] != indent and popped - indent <= indent - stack[-1]:
                stack.append(popped)  # one column short of the block it was in: noise, not a dedent
            indent = stack[-1]
        text = raw.strip()
        out.append(" " * indent + text)
        opens_block = text.split("#", 1)[0].rstrip().endswith(":")
    return "\n".join(out)


def _compiles(code: str) -> bool:
    try:
        compile(code, "<student>", "exec")
    except (SyntaxError, ValueError):
        return False
    return True


def strip_line_numbers(code: str) -> str:
    """Remove ``N.`` prefixes (and one following space) from every line; lines without a prefix stay as they are."""
    return _strip_one_space(code)


def recover_numbered_code(code: str) -> str:
    """Strip the ``N.`` prefixes of a numbered block and recover indentation the annotation tool garbled.

    The usual layout is ``N.`` plus one space; blocks pasted from a right-aligned gutter pad short numbers instead,
    and some hand-edited blocks shift a line by a column. The first reading that compiles wins (the plain one when
    it does); when none compiles the plain reading is returned. Callers use this only where a garbled indentation
    cannot be the student's bug (the dialogue reader checks the bug description first).
    """
    plain = _strip_one_space(code)
    if _compiles(plain):
        return plain
    gutter = _strip_gutter(code)
    for candidate in (gutter, _snap_indentation(plain), _snap_indentation(gutter)):
        if _compiles(candidate):
            return candidate
    return plain


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


# Some benchmark bugs lack <bug_code> and <stu_desc>; a dialogue needs every other section.
DIALOGUE_SECTIONS = ("problem", "bug_desc", "bug_fixes", "unit_tests")


def parse_sections(
    text: str, *, path: str = "<string>", required: tuple[str, ...] = DIALOGUE_SECTIONS
) -> SocraticSections:
    """Parse the sections of one benchmark file's text; ``path`` names the file in errors, a section in ``required``
    that is missing is an error and any other missing section reads as empty."""
    lines = text.lstrip("\ufeff").split("\n")
    contents: dict[str, str] = {}
    for tag in _SECTION_NAMES:
        span = _section_span(lines, tag, path=path, last_close=tag == "bug_fixes")
        if span is None:
            if tag in required:
                raise InputError(f"missing section <{tag}>", path=path)
            contents[tag] = ""
            continue
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


def read_sections(path: str | Path, *, required: tuple[str, ...] = DIALOGUE_SECTIONS) -> SocraticSections:
    """Read and parse one benchmark file (UTF-8, with or without a byte-order mark)."""
    file_path = Path(path)
    try:
        text = file_path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise InputError(f"cannot read Socratic benchmark file: {exc.strerror}", path=str(file_path)) from exc
    return parse_sections(text, path=str(file_path), required=required)


# Where a copy of the benchmark keeps its splits, in the order a bare dataset root is resolved: the paper's version
# (v2) and the data its automatic evaluation used, else the released dataset.
_SPLITS_OF_A_ROOT = (
    "v2_sigcse/evaluation_dataset",
    "v2_sigcse/final_dataset",
    "socratic_debugging_benchmark/v2_sigcse/evaluation_dataset",
    "socratic_debugging_benchmark/v2_sigcse/final_dataset",
)


def resolve_split(folder: str | Path) -> Path:
    """The folder of benchmark files ``folder`` names: itself when it holds ``.txt`` files, else, for the root of a
    copy of the benchmark, the split the paper evaluated on (``v2_sigcse/evaluation_dataset``, else its
    ``final_dataset``), said on stderr."""
    root = Path(folder)
    if not root.is_dir() or any(root.glob("*.txt")):
        return root
    for split in _SPLITS_OF_A_ROOT:
        candidate = root / split
        if candidate.is_dir() and any(candidate.glob("*.txt")):
            log(f"{root} is a copy of the benchmark: using its split {split}")
            return candidate
    return root
