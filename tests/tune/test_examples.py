"""SFT example files: both JSONL layouts read, every kind of bad input named by file and line, atomic writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from debugtutor.errors import InputError
from debugtutor.tune import SFTExample, Turn, examples_checksum, read_sft_file, write_sft_file


def _write(path: Path, *objects: object) -> Path:
    path.write_text("".join(json.dumps(item) + "\n" for item in objects), encoding="utf-8")
    return path


def test_chat_layout_splits_at_the_trailing_assistant_turns(tmp_path: Path) -> None:
    path = _write(tmp_path / "a.jsonl", {"id": "x", "messages": [
        {"role": "system", "content": "be brief"}, {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "hello"}, {"role": "user", "content": "bug?"},
        {"role": "assistant", "content": "line 3"}, {"role": "assistant", "content": "and line 4"}]})  # fmt: skip
    (example,) = read_sft_file(path)
    assert [turn.role for turn in example.prompt] == ["system", "user", "assistant", "user"]
    assert [turn.content for turn in example.completion] == ["line 3", "and line 4"]


def test_prompt_completion_layout(tmp_path: Path) -> None:
    path = _write(tmp_path / "b.jsonl", {"prompt": [{"role": "user", "content": "q"}],
                                         "completion": [{"role": "assistant", "content": "a"}]})  # fmt: skip
    (example,) = read_sft_file(path)
    assert example.id == "b.jsonl:1" and example.completion[0].content == "a"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "empty"),
        ("\n\n", "empty"),
        ('{"messages": [{"role": "user", "content": "q"}]}\n', "last message must be the assistant"),
        ('{"messages": [{"role": "assistant", "content": "a"}]}\n', "no prompt"),
        ('{"messages": [{"role": "robot", "content": "q"}, {"role": "assistant", "content": "a"}]}\n', "role"),
        ('{"messages": [{"role": "user", "content": " "}, {"role": "assistant", "content": "a"}]}\n', "non-empty"),
        ('{"text": "plain"}\n', "needs 'messages'"),
        ('{"prompt": [{"role": "user", "content": "q"}], "completion": [{"role": "user", "content": "a"}]}\n',
         "assistant"),
        ("[1, 2]\n", "JSON object"),
    ],
)  # fmt: skip
def test_bad_files_are_one_line_input_errors(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=message) as info:
        read_sft_file(path)
    assert str(path) in str(info.value) and "\n" not in str(info.value)


def test_malformed_json_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    good = json.dumps({"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}]})
    path.write_text(good + "\n{not json\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"c\.jsonl:2: not valid JSON"):
        read_sft_file(path)


def test_non_utf8_file_and_duplicate_ids(tmp_path: Path) -> None:
    path = tmp_path / "d.jsonl"
    path.write_bytes(b'{"messages": "\xff"}\n')
    with pytest.raises(InputError, match="not valid UTF-8"):
        read_sft_file(path)
    item = {"id": "same", "messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}]}
    with pytest.raises(InputError, match="share the id"):
        read_sft_file(_write(tmp_path / "e.jsonl", item, item))


def test_write_then_read_round_trip_and_checksum_ignores_ids(tmp_path: Path) -> None:
    examples = [SFTExample(id=f"n{i}", prompt=[Turn(role="user", content=f"q{i}")],
                           completion=[Turn(role="assistant", content=f"a{i}")]) for i in range(3)]  # fmt: skip
    path = tmp_path / "out" / "data.jsonl"
    assert write_sft_file(path, examples) == 3
    again = read_sft_file(path)
    assert [e.model_dump() for e in again] == [e.model_dump() for e in examples]
    renamed = [e.model_copy(update={"id": "other" + e.id}) for e in examples]
    assert examples_checksum(renamed) == examples_checksum(examples)
    assert examples_checksum(examples[:2]) != examples_checksum(examples)
    assert not list(path.parent.glob(".*.tmp"))
