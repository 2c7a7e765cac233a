"""Dialogues in the web app's database: import, versioned saves, conflicts, undo, threads and byte-exact export."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from debugtutor.errors import InputError
from debugtutor.samples import sample_dir
from debugtutor.socratic.dialogue import read_dialogue_file
from debugtutor.web.dialogues import (
    NEW_DIALOGUE_TEMPLATE,
    DialogueStore,
    ImportedFile,
    VersionConflict,
    files_from_folder,
    files_from_zip,
    validate,
)
from debugtutor.web.store import Database


@pytest.fixture
def store(tmp_path: Path) -> DialogueStore:
    return DialogueStore(Database(tmp_path / "web.sqlite3"))


def _sample_collection(store: DialogueStore) -> int:
    collection = store.create_collection("sample")
    store.import_files(collection, files_from_folder(sample_dir("socratic")), "ann")
    return collection


def test_unchanged_import_exports_the_same_bytes(store: DialogueStore, tmp_path: Path) -> None:
    collection = _sample_collection(store)
    out = tmp_path / "out"
    written = store.export_folder(collection, out)
    originals = sorted(sample_dir("socratic").glob("*.txt"))
    assert [p.name for p in written] == [p.name for p in originals]
    for path in originals:
        assert (out / path.name).read_bytes() == path.read_bytes()


def test_byte_order_mark_survives_an_unchanged_round_trip(store: DialogueStore, tmp_path: Path) -> None:
    original = sorted(sample_dir("socratic").glob("*.txt"))[0]
    data = b"\xef\xbb\xbf" + original.read_bytes()
    collection = store.create_collection("bom")
    store.import_files(collection, [ImportedFile(original.name, data)], "ann")
    [(name, exported)] = store.export_files(collection)
    assert name == original.name and exported == data


def test_edit_conflict_undo_and_export(store: DialogueStore, tmp_path: Path) -> None:
    collection = _sample_collection(store)
    tree = store.tree(collection)
    first = tree[0]["bugs"][0]["dialogues"][0]
    dialogue = store.get(first["id"])
    assert dialogue["version"] == 1
    edited = dialogue["text"].replace("</dialogue>", "Assistant: What does the last test check?\n</dialogue>")

    assert store.save(first["id"], dialogue["text"], 1, "ann") == {"version": 1, "changed": False}
    assert store.save(first["id"], edited, 1, "ann") == {"version": 2, "changed": True}
    # bob still holds version 1: his save is refused and names who changed it
    with pytest.raises(VersionConflict, match="changed by ann") as conflict:
        store.save(first["id"], edited + "", 1, "bob")
    assert conflict.value.current == 2
    assert store.get(first["id"])["text"] == edited

    # a save that does not parse is refused with the line
    with pytest.raises(InputError, match=r"\.txt:\d+"):
        store.save(first["id"], edited.replace("Assistant: What", "Tutor?? What"), 2, "ann")

    undone = store.undo(first["id"], 2, "bob")
    assert undone["version"] == 3 and undone["text"] == dialogue["text"]
    with pytest.raises(InputError, match="nothing to undo"):
        store.undo(first["id"], 3, "bob")  # version 3 restores version 1, which has no parent
    history = store.history(first["id"])
    assert [v["version"] for v in history] == [3, 2, 1]

    store.save(first["id"], edited, 3, "ann")
    files = dict(store.export_files(collection))
    assert files[f"{first['name']}.txt"] == edited.encode()
    out = tmp_path / "edited"
    store.export_folder(collection, out)
    parsed = read_dialogue_file(out / f"{first['name']}.txt")
    assert parsed.turns[-1].text == "What does the last test check?"


def test_new_dialogue_thread_and_tree(store: DialogueStore) -> None:
    collection = store.create_collection("written")
    dialogue_id = store.create(collection, "3_7_count_down_socratic_dialogue", NEW_DIALOGUE_TEMPLATE, "ann")
    text = store.get(dialogue_id)["text"]
    line = text.split("\n").index("Assistant: Hello! What did you expect it to do, and what happens instead?") + 1
    thread_id = store.new_thread(dialogue_id, line, "ann")
    thread = store.get(thread_id)
    assert thread["name"] == "3_7_count_down_conversational_thread_1"
    assert validate(thread["text"], thread["name"])["ok"]
    assert store.get(store.new_thread(dialogue_id, line, "ann"))["name"].endswith("_thread_2")
    [problem] = store.tree(collection)
    assert problem["id"] == "3" and problem["title"] == "Describe the problem here."
    kinds = [d["kind"] for d in problem["bugs"][0]["dialogues"]]
    assert kinds[0] == "socratic_dialogue" and len(kinds) == 3


def test_malformed_imports_name_the_file_and_line(store: DialogueStore) -> None:
    collection = store.create_collection("bad")
    good = sorted(sample_dir("socratic").glob("*.txt"))[0]
    broken = good.read_text().replace("Assistant: Which numbers", "Assistent: Which numbers")
    line = broken.split("\n").index(next(ln for ln in broken.split("\n") if ln.startswith("Assistent"))) + 1
    with pytest.raises(InputError, match=rf"1_1_broken_socratic_dialogue\.txt:{line}: unexpected line"):
        files = [
            ImportedFile(good.name, good.read_bytes()),
            ImportedFile("1_1_broken_socratic_dialogue.txt", broken.encode()),
        ]
        store.import_files(collection, files, "ann")
    assert store.tree(collection) == []  # all or nothing
    with pytest.raises(InputError, match=r"notes\.txt.*does not follow"):
        store.import_files(collection, [ImportedFile("notes.txt", b"hello")], "ann")
    with pytest.raises(InputError, match=r"2_2_x_socratic_dialogue\.txt:3: not UTF-8"):
        store.import_files(collection, [ImportedFile("2_2_x_socratic_dialogue.txt", b"<problem>\nok\n\xff\n")], "ann")
    with pytest.raises(InputError, match="not a zip archive"):
        files_from_zip(b"not a zip", "upload.zip")


def test_zip_import_reads_txt_files_at_any_depth(store: DialogueStore) -> None:
    buffer = io.BytesIO()
    originals = sorted(sample_dir("socratic").glob("*.txt"))[:2]
    with zipfile.ZipFile(buffer, "w") as bundle:
        for path in originals:
            bundle.writestr(f"folder/{path.name}", path.read_bytes())
        bundle.writestr("README.md", "ignored")
    files = files_from_zip(buffer.getvalue(), "upload.zip")
    assert sorted(f.name for f in files) == [p.name for p in originals]
    collection = store.create_collection("zipped")
    assert store.import_files(collection, files, "ann") == 2


def test_validate_reports_the_line_and_the_structure() -> None:
    text = NEW_DIALOGUE_TEMPLATE.replace("Assistant: Hello!", "\t<alt>Hi, my code fails.\nAssistant: Hello!")
    result = validate(text, "0_0_x_socratic_dialogue")
    assert result["ok"] and result["alternatives"] == 1 and result["instructor_turns"] == 1
    assert result["latest_code"].startswith("1. def solution():")
    broken = validate(text.replace("<alt>Hi", "<alt Hi"), "0_0_x_socratic_dialogue")
    assert not broken["ok"] and broken["line"] == text.split("\n").index("\t<alt>Hi, my code fails.") + 1
    assert not validate(NEW_DIALOGUE_TEMPLATE, "bad name")["ok"]
