"""Finding the benchmark files: a split folder, or the root of a copy of the benchmark."""

from __future__ import annotations

from pathlib import Path

import pytest

from debugtutor.errors import InputError
from debugtutor.socratic.dataset import load_dialogues, resolve_split


@pytest.mark.shared_data
def test_a_copy_of_the_benchmark_resolves_to_the_split_the_paper_evaluated(shared_data: Path) -> None:
    root = shared_data / "socratic"
    assert resolve_split(root) == root / "v2_sigcse" / "final_dataset"  # (no evaluation_dataset in this copy)
    assert resolve_split(root / "v2_sigcse" / "train") == root / "v2_sigcse" / "train"
    assert len(load_dialogues(root)) == len(load_dialogues(root / "v2_sigcse" / "final_dataset"))


def test_an_evaluation_dataset_is_preferred_and_an_empty_folder_is_an_error(tmp_path: Path) -> None:
    for split in ("evaluation_dataset", "final_dataset"):
        (tmp_path / "v2_sigcse" / split).mkdir(parents=True)
        (tmp_path / "v2_sigcse" / split / "0_0_x_socratic_dialogue.txt").write_text("<problem>\n</problem>\n")
    assert resolve_split(tmp_path) == tmp_path / "v2_sigcse" / "evaluation_dataset"
    with pytest.raises(InputError, match="nor a v2_sigcse split"):
        load_dialogues(tmp_path / "v2_sigcse")
