"""Load a folder of Socratic benchmark files, count it, and build evaluation examples.

Counting comes two ways. ``original`` reproduces the benchmark repository's own routine (turns are occurrences of
``User:`` / ``Assistant:`` anywhere in the dialogue; alternatives are TAB-``<alt>`` lines credited to the last line
that starts with a speaker word), which gives the SIGCSE'24 paper's Table 1. ``robust`` counts the parsed records
(``Instructor:`` is an instructor, ``<alt>`` with any indentation).

Evaluation examples follow the original procedure: the dialogue becomes a list of (student line, instructor reply)
records by the original's line-driven state machine, every record up to the first one without an instructor reply is
one example, and its references are the instructor's main utterance followed by its alternatives (duplicates kept).
The context is the problem, buggy code, bug description, fixes and unit tests, the earlier records and the current
student line (with their code). ``dedup`` drops examples whose context and references repeat, as conversational
threads repeat the opening turns of their main dialogue.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from debugtutor.console import warn
from debugtutor.errors import InputError
from debugtutor.formats.socratic_sections import recover_numbered_code, resolve_split, strip_line_numbers
from debugtutor.socratic.dialogue import FILE_NAME, SocraticDialogue, format_dialogue_file, read_dialogue_file

_MARKERS = ("User:", "Assistant:", "<alt>", "<code>", "</code>")


def load_dialogues(folder: str | Path, *, lenient: bool = False) -> list[SocraticDialogue]:
    """Every ``.txt`` benchmark file of ``folder`` (or of the split :func:`resolve_split` finds under it), sorted
    by name; ``lenient`` skips malformed files, warning."""
    root = resolve_split(folder)
    if not root.is_dir():
        raise InputError("not a folder of Socratic benchmark files", path=str(root))
    files = sorted(root.glob("*.txt"))
    if not files:
        raise InputError(
            "no .txt benchmark files in this folder, nor a v2_sigcse split under it",
            path=str(root),
            hint="pass a split folder, e.g. .../v2_sigcse/train",
        )
    dialogues: list[SocraticDialogue] = []
    for path in files:
        if not FILE_NAME.match(path.stem):
            if lenient:
                warn(f"{path}: file name does not follow <problem>_<bug>_<name>_<kind>.txt; skipped")
                continue
            raise InputError(
                "file name does not follow <problem>_<bug>_<name>_<kind>.txt", path=str(path), hint="use --lenient"
            )
        try:
            dialogues.append(read_dialogue_file(path))
        except InputError as exc:
            if not lenient:
                raise
            warn(f"{exc}; skipped")
    return dialogues


@dataclass(frozen=True)
class DatasetStats:
    """Counts of a folder, as in the SIGCSE'24 paper's Table 1."""

    method: str
    problems: int
    bugs: int
    dialogues: int
    instructor_turns: int
    instructor_utterances: int
    student_turns: int
    student_utterances: int
    code_blocks: int


def _raw_dialogue(d: SocraticDialogue) -> str:
    """The dialogue text as read, or as written out for a record built in code."""
    if d.raw_dialogue:
        return d.raw_dialogue
    return format_dialogue_file(d).split("<dialogue>\n", 1)[1].rsplit("</dialogue>", 1)[0]


def compute_stats(dialogues: list[SocraticDialogue], *, method: str = "robust") -> DatasetStats:
    """Count problems, bugs, dialogues, turns and utterances; ``method`` is ``robust`` or ``original``."""
    problems = {d.problem_id for d in dialogues}
    bugs = {d.bug_id for d in dialogues}
    if method == "robust":
        i_turns = sum(len(d.instructor_turns()) for d in dialogues)
        s_turns = sum(len(d.student_turns()) for d in dialogues)
        i_utts = sum(len(t.utterances) for d in dialogues for t in d.instructor_turns())
        s_utts = sum(len(t.utterances) for d in dialogues for t in d.student_turns())
        blocks = sum(
            (t.code is not None) + sum(a.code is not None for a in t.alternatives) for d in dialogues for t in d.turns
        )
        return DatasetStats(method, len(problems), len(bugs), len(dialogues), i_turns, i_utts, s_turns, s_utts, blocks)
    if method != "original":
        raise InputError(f"unknown counting method {method!r}", hint="use 'robust' or 'original'")
    i_turns = s_turns = i_alts = s_alts = blocks = 0
    for d in dialogues:
        raw = _raw_dialogue(d)
        i_turns += raw.count("Assistant:")
        s_turns += raw.count("User:")
        blocks += raw.count("<code>")
        speaker = ""
        for line in raw.split("\n"):
            if line.startswith("User:"):
                speaker = "student"
            elif line.startswith("Assistant:"):
                speaker = "instructor"
            alts = line.count("\t<alt>")
            if speaker == "instructor":
                i_alts += alts
            elif speaker == "student":
                s_alts += alts
    return DatasetStats(
        "original",
        len(problems),
        len(bugs),
        len(dialogues),
        i_turns,
        i_turns + i_alts,
        s_turns,
        s_turns + s_alts,
        blocks,
    )


@dataclass
class TurnRecord:
    """One (student line, instructor reply) record as the original reader builds it."""

    user_text: str
    assistant_text: str
    code_text: str = ""
    cumulative_code_text: str = ""
    user_alternatives: list[dict[str, str]] = field(default_factory=list)
    assistant_alternatives: list[str] = field(default_factory=list)


def original_turn_records(raw_dialogue: str) -> list[TurnRecord]:
    """The original reader's state machine over the dialogue's lines, quirks included (see module docstring)."""
    lines = [ln.strip() if ln.strip().startswith(_MARKERS) else ln for ln in raw_dialogue.split("\n")]
    lines = [ln for ln in lines if ln.strip()]
    records: list[TurnRecord] = []
    user: str | None = None
    assistant: str | None = None
    code = ""
    cumulative = ""
    user_alts: list[dict[str, str]] = []
    assistant_alts: list[str] = []
    active = ""

    def read_block(start: int) -> tuple[str, int]:
        body: list[str] = []
        j = start + 1
        while j < len(lines) and not lines[j].startswith("</code>"):
            body.append(lines[j])
            j += 1
        return "\n".join(body).strip(), j

    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("User:"):
            user, active = line[6:].strip(), "user"
        elif line.startswith("Assistant:"):
            assistant, active = line[11:].strip(), "assistant"
        elif line.startswith("<code>"):
            code, i = read_block(i)
            if code:
                cumulative = code
        elif line.startswith("<alt>"):
            alt_text, alt_code = line[5:].strip(), ""
            if i + 1 < len(lines) and lines[i + 1].startswith("<code>"):
                alt_code, i = read_block(i + 1)
            if active == "user":
                user_alts.append({"alt_text": alt_text, "alt_code": alt_code})
            elif active == "assistant":
                assistant_alts.append(alt_text)
        last = i >= len(lines) - 1
        next_is_speaker = not last and lines[i + 1].startswith(("User:", "Assistant:"))
        if (user is not None and assistant is not None and next_is_speaker) or (last and user is not None):
            records.append(TurnRecord(user, assistant or "", code, cumulative, list(user_alts), list(assistant_alts)))
            user = assistant = None
            code = ""
            user_alts, assistant_alts = [], []
        i += 1
    return records


def robust_turn_records(dialogue: SocraticDialogue) -> list[TurnRecord]:
    """(student, instructor) records from the parsed turns: ``Instructor:`` counts, repeated speakers are kept."""
    records: list[TurnRecord] = []
    cumulative = ""
    pending: TurnRecord | None = None
    for turn in dialogue.turns:
        codes = [turn.code] if turn.code else []
        codes += [a.code for a in turn.alternatives if a.code and turn.speaker == "instructor"]
        for code in codes:
            cumulative = code
        if turn.speaker == "student":
            if pending is not None:  # two student lines in a row: the first gets an empty instructor reply
                records.append(pending)
            pending = TurnRecord(
                turn.text,
                "",
                turn.code or "",
                cumulative,
                [{"alt_text": a.text, "alt_code": a.code or ""} for a in turn.alternatives],
            )
        else:
            if pending is None:  # an instructor line with no student line before it
                pending = TurnRecord("", "", "", cumulative)
            pending.assistant_text = turn.text
            pending.assistant_alternatives = [a.text for a in turn.alternatives]
            if codes:
                pending.code_text = codes[-1]
                pending.cumulative_code_text = cumulative
            records.append(pending)
            pending = None
    if pending is not None:
        records.append(pending)
    return records


@dataclass
class EvaluationExample:
    """One instructor turn to predict: the context before it and the reference utterances (main + alternatives)."""

    id: str
    dialogue: str
    problem_id: str
    bug_id: str
    turn_index: int
    problem: str
    bug_code: str
    bug_desc: str
    bug_fixes: list[str]
    unit_tests: str
    history: list[TurnRecord]
    student_text: str
    student_code: str
    current_code: str
    references: list[str]

    def context_key(self) -> str:
        """A hash of everything the instructor sees plus the references (the key ``dedup`` compares)."""
        payload = {k: v for k, v in asdict(self).items() if k not in ("id", "dialogue", "turn_index")}
        return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def build_examples(
    dialogues: Iterable[SocraticDialogue], *, parser: str = "original", dedup: bool = False
) -> list[EvaluationExample]:
    """Evaluation examples for every evaluated instructor turn (see the module docstring)."""
    examples: list[EvaluationExample] = []
    seen: set[str] = set()
    for d in dialogues:
        if parser == "original":
            records = original_turn_records(_raw_dialogue(d))
        elif parser == "robust":
            records = robust_turn_records(d)
        else:
            raise InputError(f"unknown parser {parser!r}", hint="use 'original' or 'robust'")
        # Code blocks get the same indentation recovery as the dialogue reader gives them (see dialogue.py).
        unnumber = strip_line_numbers if "indent" in d.bug_desc.lower() else recover_numbered_code
        for index, record in enumerate(records):
            if not record.assistant_text:
                if parser == "original":
                    break  # the original stops at the first record without an instructor reply
                continue
            references = [record.assistant_text, *record.assistant_alternatives]
            example = EvaluationExample(
                id=f"{d.name}#{index}",
                dialogue=d.name,
                problem_id=d.problem_id,
                bug_id=d.bug_id,
                turn_index=index,
                problem=d.problem,
                bug_code=d.bug_code,
                bug_desc=d.bug_desc,
                bug_fixes=list(d.bug_fixes),
                unit_tests=d.unit_tests,
                history=records[:index],
                student_text=record.user_text,
                student_code=unnumber(record.code_text) if record.code_text else "",
                current_code=unnumber(record.cumulative_code_text) if record.cumulative_code_text else d.bug_code,
                references=references,
            )
            if dedup:
                key = example.context_key()
                if key in seen:
                    continue
                seen.add(key)
            examples.append(example)
    return examples
