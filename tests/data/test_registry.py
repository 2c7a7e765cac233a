"""The registry: pinned entries, archive URLs (GitHub or a mirror) and validation of names and digests."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from debugtutor.data import MIRROR_ENV_VAR, REGISTRY, DatasetEntry, LayoutPart, get_entry
from debugtutor.data.registry import normalize_sha256
from debugtutor.errors import InputError


def test_registry_pins_the_three_public_datasets() -> None:
    assert set(REGISTRY) == {"socratic", "studentsyn", "debugbench"}
    assert REGISTRY["socratic"].repo == "taisazero/socratic-debugging-benchmark"
    assert REGISTRY["studentsyn"].repo == "machine-teaching-group/edm2022_studentsyn"
    assert REGISTRY["debugbench"].repo == "thunlp/DebugBench"
    targets = {part.target for part in REGISTRY["studentsyn"].layout}
    assert targets == {"", "symss_hoc18_distractor_paths", "tutorSS"}


def test_archive_url_uses_github_unless_a_mirror_is_set(monkeypatch: pytest.MonkeyPatch) -> None:
    entry = REGISTRY["debugbench"]
    monkeypatch.delenv(MIRROR_ENV_VAR, raising=False)
    assert entry.archive_url() == f"https://codeload.github.com/thunlp/DebugBench/tar.gz/{entry.commit}"
    monkeypatch.setenv(MIRROR_ENV_VAR, "http://127.0.0.1:9/m/")
    assert entry.archive_url() == f"http://127.0.0.1:9/m/thunlp/DebugBench/tar.gz/{entry.commit}"
    assert entry.archive_url("http://example.invalid").startswith("http://example.invalid/thunlp/")


def test_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(InputError) as info:
        get_entry("debug-bench")
    assert "debugbench" in str(info.value) and "socratic" in str(info.value)
    assert info.value.exit_code == 2


@pytest.mark.parametrize(
    "update",
    [{"commit": "df2ecf1"}, {"repo": "no-owner"}, {"sha256": "xyz"}],
)
def test_entries_reject_short_commits_bad_repos_and_bad_digests(update: dict[str, str]) -> None:
    fields = {**REGISTRY["debugbench"].model_dump(), **update}
    with pytest.raises((ValidationError, InputError)):
        DatasetEntry.model_validate(fields)


def test_layout_paths_cannot_leave_the_archive() -> None:
    with pytest.raises(ValidationError):
        LayoutPart(source="../etc")
    assert LayoutPart(source="./data/benchmark/").source == "data/benchmark"


def test_sha256_is_normalized() -> None:
    assert normalize_sha256(" " + "AB" * 32 + "\n") == "ab" * 32
    with pytest.raises(InputError, match="64 hex"):
        normalize_sha256("ab" * 31)
