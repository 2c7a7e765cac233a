"""Loading the StudentSyn layout: the built-in sample and the shared benchmark copy."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from debugtutor.errors import DataError, InputError
from debugtutor.maze import compact, execute
from debugtutor.samples import sample_dir
from debugtutor.studentsyn import TaskFamily, load_benchmark, load_family


def family(families: list[TaskFamily], reference: str) -> TaskFamily:
    return next(f for f in families if f.reference == reference)


def test_sample_families_load_with_everything_derived_from_files(sample_families: list[TaskFamily]) -> None:
    assert [f.reference for f in sample_families] == ["loop", "walk"]
    walk = family(sample_families, "walk")
    assert walk.targets == ["walka", "walkb"]
    assert walk.behaviour_ids == [1, 2, 3, 4, 5, 6]
    assert len(walk.attempts("walka", 3)) == 2
    assert set(walk.random_pool("walkb")) == {"edit_2", "edit_5", "edit_10"}
    for name, task in walk.tasks.items():
        assert execute(task, walk.solutions[name]).success


@pytest.mark.shared_data
def test_shared_copy_counts_come_from_the_files(shared_families: list[TaskFamily]) -> None:
    hoc4 = family(shared_families, "hoc4")
    assert hoc4.reference == "hoc4" and hoc4.reference not in hoc4.targets
    assert len(hoc4.targets) >= 1
    # 12 students per task, type ((k - 1) mod 6) + 1, whatever the number of tasks.
    assert len(hoc4.students) == 12 * len(hoc4.tasks)
    assert all(int(a.student[3:]) % 6 == a.behaviour % 6 for a in hoc4.students)
    assert compact(hoc4.solutions["hoc4"]) == "M L M R M"
    hoc18 = family(shared_families, "hoc18")
    assert set(hoc18.basic_solutions) == set(hoc18.tasks)
    assert "wrong path" in hoc18.behaviours[2].description


def test_missing_table_and_bad_behaviour_key_are_reported(tmp_path: Path) -> None:
    copy = tmp_path / "walk"
    shutil.copytree(sample_dir("studentsyn") / "walk", copy)
    (copy / "behaviours.tsv").write_text("misconceptions\texplanations\nkind_1\tsomething\n", encoding="utf-8")
    with pytest.raises(InputError, match="kind_1"):
        load_family(copy)
    shutil.copy(sample_dir("studentsyn") / "walk" / "behaviours.tsv", copy / "behaviours.tsv")
    (copy / "info.tsv").unlink()
    with pytest.raises(DataError, match=r"info\.tsv"):
        load_family(copy)


def test_no_family_under_folder(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="no StudentSyn family"):
        load_benchmark(tmp_path)


def test_the_built_in_sample_is_what_write_sample_makes(tmp_path: Path) -> None:
    # The sample's students come from the SymSS rules: a rule change must come with a regenerated sample.
    from debugtutor.studentsyn.sample import write_sample

    write_sample(tmp_path)
    shipped = sample_dir("studentsyn")
    written = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert written == sorted(
        p.relative_to(shipped) for p in shipped.rglob("*") if p.is_file() and "__pycache__" not in p.parts
    )
    for relative in written:
        assert (tmp_path / relative).read_bytes() == (shipped / relative).read_bytes(), str(relative)
