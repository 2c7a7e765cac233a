"""Typed records of a Socratic Debugging Benchmark file, and its parser and writer.

A file is seven tagged sections (read by :mod:`debugtutor.formats.socratic_sections`) ending with a line-oriented
dialogue: ``User:`` (the student) and ``Assistant:`` (the instructor) lines, each followed by ``<alt>`` lines
(alternative utterances of the same speaker, with any indentation) and optionally a ``<code>`` block holding the
student's whole program, line-numbered. The parser is robust to every quirk the benchmark has: ``Instructor:`` as a
speaker, two consecutive lines of one speaker, code blocks placed after an instructor line or an instructor
alternative, blank lines, a byte-order mark, spaces after ``<alt>``. :func:`format_dialogue_file` writes a record
back out so that parsing the output gives the same record.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from debugtutor.errors import InputError
from debugtutor.formats.socratic_sections import (
    SocraticSections,
    parse_sections,
    recover_numbered_code,
    strip_line_numbers,
)

Speaker = Literal["student", "instructor"]

FILE_NAME = re.compile(
    r"^(?P<problem_id>\d+)_(?P<bug_id>\d+)_(?P<name>.+?)_"
    r"(?P<kind>socratic_dialogue|(?:conversational_thread|conversational_thead|socratic_thread)_(?P<thread>\d+))$"
)
_SPEAKERS: dict[str, Speaker] = {"User": "student", "Assistant": "instructor", "Instructor": "instructor"}
_SPEAKER_LINE = re.compile(r"^(User|Assistant|Instructor):(.*)$")


@dataclass
class Alternative:
    """Another utterance the same speaker could have said; a student alternative may come with its own code."""

    text: str
    code: str | None = None


@dataclass
class DialogueTurn:
    """One speaker line with its alternatives, and the student's program when a code block follows it."""

    speaker: Speaker
    text: str
    alternatives: list[Alternative] = field(default_factory=list)
    code: str | None = None
    label: str = "User"  # the speaker word as written (Instructor: is kept so a rewrite is faithful)
    line: int = field(default=0, compare=False)

    @property
    def utterances(self) -> list[str]:
        """The main utterance followed by the alternatives' texts."""
        return [self.text, *(alt.text for alt in self.alternatives)]


@dataclass
class SocraticDialogue:
    """A whole benchmark file: the problem, the bug, its fixes and tests, and the dialogue."""

    problem: str
    bug_code: str
    bug_desc: str
    bug_fixes: list[str]
    unit_tests: str
    stu_desc: str
    turns: list[DialogueTurn]
    has_bug_code: bool = True
    name: str = field(default="", compare=False)  # the file stem, e.g. 0_2_fibonacci_conversational_thread_1
    path: str = field(default="<string>", compare=False)
    raw_dialogue: str = field(default="", compare=False, repr=False)  # the text between the dialogue tags, as read

    @property
    def problem_id(self) -> str:
        return self.name.split("_", 1)[0] if self.name else ""

    @property
    def bug_id(self) -> str:
        parts = self.name.split("_", 2)
        return parts[1] if len(parts) > 1 else ""

    @property
    def kind(self) -> str:
        match = FILE_NAME.match(self.name)
        return match.group("kind") if match else ""

    @property
    def is_thread(self) -> bool:
        return self.kind != "socratic_dialogue"

    @property
    def unit_test_lines(self) -> list[str]:
        return [line for line in self.unit_tests.splitlines() if line.strip()]

    def instructor_turns(self) -> list[DialogueTurn]:
        return [t for t in self.turns if t.speaker == "instructor"]

    def student_turns(self) -> list[DialogueTurn]:
        return [t for t in self.turns if t.speaker == "student"]


def _dialogue_span(lines: list[str], path: str) -> tuple[int, int]:
    opens = [i for i, line in enumerate(lines) if line.strip() == "<dialogue>"]
    if not opens:
        raise InputError("missing section <dialogue>", path=path)
    closes = [i for i, line in enumerate(lines) if i > opens[0] and line.strip() == "</dialogue>"]
    if not closes:
        raise InputError("section <dialogue> is never closed", path=path, line=opens[0] + 1)
    return opens[0], closes[-1]


def _read_code_block(lines: list[str], start: int, end: int, path: str, *, recover: bool = True) -> tuple[str, int]:
    """The code between ``<code>`` at ``start`` and its ``</code>``; returns the code and the closing line index."""
    for i in range(start + 1, end):
        if lines[i].strip() == "</code>":
            body = lines[start + 1 : i]
            # Trailing blank lines belong to the block's layout, not the program.
            while body and not body[-1].strip():
                body.pop()
            while body and not body[0].strip():
                body.pop(0)
            numbered = "\n".join(body)
            return (recover_numbered_code(numbered) if recover else strip_line_numbers(numbered)), i
        if _SPEAKER_LINE.match(lines[i].strip()) and not lines[i].startswith((" ", "\t")):
            break
    raise InputError("<code> block is never closed", path=path, line=start + 1)


def parse_dialogue_lines(
    lines: list[str], start: int, end: int, path: str, *, recover: bool = True
) -> list[DialogueTurn]:
    """Parse the dialogue between line indexes ``start`` (<dialogue>) and ``end`` (</dialogue>); ``recover`` repairs
    indentation that line numbering garbled (see :func:`recover_numbered_code`)."""
    turns: list[DialogueTurn] = []
    last_alt: Alternative | None = None  # the alternative a following code block belongs to
    i = start + 1
    while i < end:
        raw = lines[i]
        stripped = raw.strip()
        if not stripped:
            i += 1
            continue
        speaker_match = _SPEAKER_LINE.match(stripped)
        if stripped.startswith("<alt>"):
            if not turns:
                raise InputError("<alt> line before any speaker line", path=path, line=i + 1)
            alt = Alternative(stripped[len("<alt>") :].strip())
            turns[-1].alternatives.append(alt)
            last_alt = alt
        elif stripped == "<code>":
            if not turns:
                raise InputError("<code> block before any speaker line", path=path, line=i + 1)
            code, i = _read_code_block(lines, i, end, path, recover=recover)
            if last_alt is not None:
                last_alt.code = code
            else:
                turns[-1].code = code
            last_alt = None
        elif speaker_match:
            label = speaker_match.group(1)
            turns.append(
                DialogueTurn(speaker=_SPEAKERS[label], text=speaker_match.group(2).strip(), label=label, line=i + 1)
            )
            last_alt = None
        elif stripped == "</code>":
            raise InputError("</code> without a matching <code>", path=path, line=i + 1)
        else:
            raise InputError(
                f"unexpected line in the dialogue: {stripped[:60]!r}",
                path=path,
                line=i + 1,
                hint="expected 'User:', 'Assistant:', an <alt> line or a <code> block",
            )
        i += 1
    return turns


def _numbered_bug_code(lines: list[str]) -> str:
    opens = [i for i, line in enumerate(lines) if line.strip() == "<bug_code>"]
    closes = [i for i, line in enumerate(lines) if opens and i > opens[0] and line.strip() == "</bug_code>"]
    return "\n".join(lines[opens[0] + 1 : closes[0]]).strip("\n") if opens and closes else ""


def parse_dialogue_file(text: str, *, path: str = "<string>", name: str | None = None) -> SocraticDialogue:
    """Parse the text of one benchmark file into a :class:`SocraticDialogue`."""
    text = text.lstrip("\ufeff")
    sections: SocraticSections = parse_sections(text, path=path)
    lines = text.split("\n")
    # Indentation garbled by the line numbering is recovered, unless indentation is what the bug is about.
    recover = "indent" not in sections.bug_desc.lower()
    bug_code = sections.bug_code
    if recover and sections.has_bug_code:
        bug_code = recover_numbered_code(_numbered_bug_code(lines))
    start, end = _dialogue_span(lines, path)
    turns = parse_dialogue_lines(lines, start, end, path, recover=recover)
    if not turns:
        raise InputError("the dialogue has no turns", path=path, line=start + 1)
    return SocraticDialogue(
        problem=sections.problem,
        bug_code=bug_code,
        bug_desc=sections.bug_desc,
        bug_fixes=sections.bug_fixes,
        unit_tests=sections.unit_tests,
        stu_desc=sections.stu_desc,
        turns=turns,
        has_bug_code=sections.has_bug_code,
        name=name if name is not None else Path(path).stem,
        path=path,
        raw_dialogue="\n".join(lines[start + 1 : end]),
    )


def read_dialogue_file(path: str | Path) -> SocraticDialogue:
    """Read one benchmark ``.txt`` file (UTF-8 with or without a byte-order mark)."""
    file_path = Path(path)
    try:
        text = file_path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise InputError(f"cannot read Socratic benchmark file: {exc.strerror}", path=str(file_path)) from exc
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", path=str(file_path)) from exc
    return parse_dialogue_file(text, path=str(file_path), name=file_path.stem)


def number_code(code: str) -> str:
    """Prefix every line with ``N. `` as the benchmark's annotation tool does."""
    return "\n".join(f"{n}. {line}" for n, line in enumerate(code.split("\n"), start=1))


def format_dialogue_file(dialogue: SocraticDialogue) -> str:
    """Write a dialogue in the benchmark's file format; parsing the result gives an equal record."""
    out: list[str] = []

    def section(tag: str, body: str) -> None:
        out.extend([f"<{tag}>", body, f"</{tag}>"] if body else [f"<{tag}>", f"</{tag}>"])

    section("problem", dialogue.problem)
    if dialogue.has_bug_code:
        section("bug_code", number_code(dialogue.bug_code) if dialogue.bug_code else "")
    section("bug_desc", dialogue.bug_desc)
    section("bug_fixes", "\n".join(dialogue.bug_fixes))
    section("unit_tests", dialogue.unit_tests)
    section("stu_desc", dialogue.stu_desc)
    out.append("<dialogue>")
    for turn in dialogue.turns:
        out.append(f"{turn.label}: {turn.text}")
        if turn.code is not None:
            out.extend(["<code>", number_code(turn.code), "</code>"])
        for alt in turn.alternatives:
            out.append(f"\t<alt>{alt.text}")
            if alt.code is not None:
                out.extend(["<code>", number_code(alt.code), "</code>"])
    out.append("</dialogue>")
    return "\n".join(out) + "\n"
