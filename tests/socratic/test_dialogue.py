"""The Socratic benchmark file parser, writer, counts and evaluation examples."""

from __future__ import annotations

from pathlib import Path

import pytest

from debugtutor.errors import InputError
from debugtutor.samples import sample_dir
from debugtutor.socratic.dataset import (
    build_examples,
    compute_stats,
    load_dialogues,
    original_turn_records,
)
from debugtutor.socratic.dialogue import format_dialogue_file, parse_dialogue_file, read_dialogue_file

HEADER = """<problem>
Write `f(x)`.
</problem>
<bug_code>
1. def f(x):
2.     return x + 1
</bug_code>
<bug_desc>
On line 2 it adds one.
</bug_desc>
<bug_fixes>
Return `x`.
</bug_fixes>
<unit_tests>
assert f(1) == 1
</unit_tests>
<stu_desc>
</stu_desc>
"""

TOY = (
    HEADER
    + """<dialogue>
User: Help, f is wrong.
Assistant: What does f(1) return?
\t<alt>Which line runs for f(1)?
User: It returns 2.
    <alt> I changed it and now it returns 1.
<code>
1. def f(x):
2.     return x
</code>
Assistant: Why 2?
User: Thanks!
</dialogue>"""
)


def test_toy_dialogue_parses_into_turns() -> None:
    d = parse_dialogue_file(TOY, path="toy.txt", name="1_2_toy_socratic_dialogue")
    assert [t.speaker for t in d.turns] == ["student", "instructor", "student", "instructor", "student"]
    assert d.turns[1].utterances == ["What does f(1) return?", "Which line runs for f(1)?"]
    # an alternative followed by a code block owns that code; the main line keeps none
    assert d.turns[2].alternatives[0].text == "I changed it and now it returns 1."
    assert d.turns[2].alternatives[0].code == "def f(x):\n    return x"
    assert d.turns[2].code is None
    assert d.bug_code == "def f(x):\n    return x + 1"
    assert (d.problem_id, d.bug_id, d.is_thread) == ("1", "2", False)


def test_original_records_match_the_reference_implementation_behaviour() -> None:
    d = parse_dialogue_file(TOY, path="toy.txt")
    raw = TOY.split("<dialogue>")[1].split("</dialogue>")[0]
    records = original_turn_records(raw)
    assert len(records) == 3
    assert records[-1].assistant_text == ""
    assert records[1].user_alternatives[0]["alt_code"].endswith("return x")
    assert records[0].assistant_alternatives == ["Which line runs for f(1)?"]
    assert len(d.turns) == 5


def test_write_then_parse_gives_the_same_record(tmp_path: Path) -> None:
    d = parse_dialogue_file(TOY, path="toy.txt", name="toy")
    again = parse_dialogue_file(format_dialogue_file(d), path="again.txt", name="toy")
    assert again == d


QUIRKS = (
    "\ufeff"
    + HEADER.replace("</bug_fixes>", "</bug_fixes>\nAlso fine: return x * 1.\n</bug_fixes>")
    + """<dialogue>
User: Hi.
Instructor:  What does line 2 do?
  <alt>What is returned?
User: Adds one.

User: Oh wait.
Assistant: Go on.
     <alt>And then?
<code>
1. def f(x):
2.     return x
</code>
</dialogue>"""
)


def test_quirks_are_handled() -> None:
    d = parse_dialogue_file(QUIRKS, path="quirks.txt")
    assert d.bug_fixes == ["Return `x`.", "Also fine: return x * 1."]
    assert d.turns[1].speaker == "instructor" and d.turns[1].label == "Instructor"
    assert d.turns[1].text == "What does line 2 do?"
    assert [t.speaker for t in d.turns] == ["student", "instructor", "student", "student", "instructor"]
    # a code block after an instructor alternative is kept on that alternative
    assert d.turns[-1].alternatives[0].code == "def f(x):\n    return x"
    assert parse_dialogue_file(format_dialogue_file(d), path="x") == d


@pytest.mark.parametrize(
    ("dialogue", "line", "message"),
    [
        ("<alt>orphan\nUser: hi", 20, "<alt> line before any speaker"),
        ("User: hi\n<code>\n1. x = 1\n", 21, "never closed"),
        ("User: hi\nTeacher: hello", 21, "unexpected line"),
    ],
)
def test_malformed_files_name_file_and_line(dialogue: str, line: int, message: str) -> None:
    text = HEADER + "<dialogue>\n" + dialogue + "\n</dialogue>"
    with pytest.raises(InputError, match=message) as info:
        parse_dialogue_file(text, path="bad.txt")
    assert info.value.path == "bad.txt"
    assert info.value.line == line


def test_lenient_loading_skips_malformed_files(tmp_path: Path) -> None:
    (tmp_path / "1_1_good_socratic_dialogue.txt").write_text(TOY)
    (tmp_path / "2_2_bad_socratic_dialogue.txt").write_text(HEADER + "<dialogue>\nTeacher: x\n</dialogue>")
    with pytest.raises(InputError, match="2_2_bad"):
        load_dialogues(tmp_path)
    assert [d.name for d in load_dialogues(tmp_path, lenient=True)] == ["1_1_good_socratic_dialogue"]


def test_builtin_samples_load_and_give_examples() -> None:
    dialogues = load_dialogues(sample_dir("socratic"))
    assert len(dialogues) >= 5
    examples = build_examples(dialogues)
    assert len(examples) == compute_stats(dialogues).instructor_turns
    assert all(e.references and e.references[0] for e in examples)
    first = examples[0]
    assert first.history == [] and first.current_code == first.bug_code


def test_dedup_drops_repeated_contexts(tmp_path: Path) -> None:
    (tmp_path / "1_2_toy_socratic_dialogue.txt").write_text(TOY)
    (tmp_path / "1_2_toy_conversational_thread_1.txt").write_text(TOY)
    dialogues = load_dialogues(tmp_path)
    assert len(build_examples(dialogues)) == 4
    assert len(build_examples(dialogues, dedup=True)) == 2


@pytest.mark.shared_data
def test_v2_train_counts_and_round_trip(shared_data: Path) -> None:
    dialogues = load_dialogues(shared_data / "socratic" / "v2_sigcse" / "train")
    robust = compute_stats(dialogues, method="robust")
    original = compute_stats(dialogues, method="original")
    # The train split is whole in the shared copy; these are its robust counts (reference doc, section 4).
    assert (robust.dialogues, robust.instructor_turns, robust.instructor_utterances) == (134, 817, 1972)
    assert (robust.student_turns, robust.student_utterances, robust.code_blocks) == (897, 1159, 181)
    assert original.student_turns == robust.student_turns
    # The original reader loses the turns of the quirky files, so it yields fewer examples than turns it counts.
    assert len(build_examples(dialogues)) <= original.instructor_turns
    assert len(build_examples(dialogues, parser="robust")) == robust.instructor_turns
    assert len(build_examples(dialogues, dedup=True)) < len(build_examples(dialogues))
    for d in dialogues:
        assert parse_dialogue_file(format_dialogue_file(d), path=d.path, name=d.name) == d


@pytest.mark.shared_data
def test_every_shared_file_parses(shared_data: Path) -> None:
    files = sorted((shared_data / "socratic").rglob("*.txt"))
    assert files
    for path in files:
        assert read_dialogue_file(path).turns


def test_garbled_gutter_indentation_is_recovered_unless_the_bug_is_indentation() -> None:
    # A right-aligned gutter: "9. " and "10." both take three columns before the code.
    numbered = "1. def f(n):\n2.  if n:\n3.    return 1\n4.  else:\n9.     a = 0\n10.    b = 1\n11.    return a + b"
    text = HEADER.replace("1. def f(x):\n2.     return x + 1", numbered) + "<dialogue>\nUser: hi\n</dialogue>"
    code = parse_dialogue_file(text, path="g.txt").bug_code
    compile(code, "g", "exec")
    assert code.splitlines()[4:] == ["    a = 0", "    b = 1", "    return a + b"]
    about_indent = text.replace("On line 2 it adds one.", "Line 10 is indented wrongly.")
    kept = parse_dialogue_file(about_indent, path="g.txt").bug_code
    with pytest.raises(SyntaxError):
        compile(kept, "g", "exec")
