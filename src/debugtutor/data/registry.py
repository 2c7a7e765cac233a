"""The public datasets debugtutor can fetch, each pinned to one commit of its GitHub repository.

An entry says where the archive comes from, which checksum it must have (when one is known) and how folders inside
the archive map onto the layout that arenas read with ``--data`` (the same layout as ``../shared/data/<name>``).

Archives are GitHub's source tarballs (``https://codeload.github.com/OWNER/REPO/tar.gz/COMMIT``). Setting
``DEBUGTUTOR_DATA_MIRROR`` to another base URL that serves the same paths (``BASE/OWNER/REPO/tar.gz/COMMIT``) makes
every fetch go there instead: a local mirror for offline labs, and a loopback server in tests.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict, field_validator

from debugtutor.errors import InputError

GITHUB_ARCHIVE_BASE = "https://codeload.github.com"
MIRROR_ENV_VAR = "DEBUGTUTOR_DATA_MIRROR"

_HEX40 = re.compile(r"[0-9a-f]{40}")
_HEX64 = re.compile(r"[0-9a-f]{64}")


def normalize_sha256(value: str, *, field: str = "sha256") -> str:
    """Lower-case a hex sha256 digest, or raise :class:`InputError` when it is not 64 hex digits."""
    digest = value.strip().lower()
    if not _HEX64.fullmatch(digest):
        raise InputError(f"not a sha256 digest: {value!r} (expected 64 hex digits)", field=field)
    return digest


class LayoutPart(BaseModel):
    """One folder of the unpacked archive and where it goes in the dataset folder users pass as ``--data``."""

    model_config = ConfigDict(frozen=True)

    source: str
    """Folder inside the archive's top-level directory, as a POSIX path (``benchmark``, ``data/benchmark``)."""
    target: str = ""
    """Folder inside the dataset folder; empty means the dataset folder itself."""

    @field_validator("source", "target")
    @classmethod
    def _relative_posix(cls, value: str) -> str:
        parts = [part for part in value.strip("/").split("/") if part not in ("", ".")]
        if ".." in parts or value.startswith("/"):
            raise ValueError(f"layout paths must stay inside the archive: {value!r}")
        return "/".join(parts)


class DatasetEntry(BaseModel):
    """A public dataset at a pinned commit: its archive, checksum and folder layout."""

    model_config = ConfigDict(frozen=True)

    name: str
    title: str
    repo: str
    """GitHub ``owner/name``."""
    commit: str
    sha256: str | None = None
    """sha256 of the archive; None when nobody could compute it yet (then the first fetch records it)."""
    layout: tuple[LayoutPart, ...]
    license: str

    @field_validator("repo")
    @classmethod
    def _owner_and_name(cls, value: str) -> str:
        if value.count("/") != 1 or not all(value.split("/")):
            raise ValueError(f"repo must be 'owner/name', got {value!r}")
        return value

    @field_validator("commit")
    @classmethod
    def _full_commit(cls, value: str) -> str:
        if not _HEX40.fullmatch(value):
            raise ValueError(f"commit must be a full 40-digit hex sha, got {value!r}")
        return value

    @field_validator("sha256")
    @classmethod
    def _digest(cls, value: str | None) -> str | None:
        return None if value is None else normalize_sha256(value)

    @property
    def short_commit(self) -> str:
        return self.commit[:7]

    def archive_url(self, mirror: str | None = None) -> str:
        """The tar.gz URL of this commit, on ``mirror`` or ``$DEBUGTUTOR_DATA_MIRROR`` when set, else on GitHub."""
        base = mirror or os.environ.get(MIRROR_ENV_VAR) or GITHUB_ARCHIVE_BASE
        return f"{base.rstrip('/')}/{self.repo}/tar.gz/{self.commit}"


# sha256 is None for all three: the archives could not be downloaded where this registry was written, so the first
# successful fetch on a user's machine records the digest it saw (trust on first use) and later fetches verify it.
REGISTRY: dict[str, DatasetEntry] = {
    entry.name: entry
    for entry in (
        DatasetEntry(
            name="socratic",
            title="Socratic Debugging Benchmark (BEA 2023, SIGCSE 2024)",
            repo="taisazero/socratic-debugging-benchmark",
            commit="981f79a4aeeaea62d0e5f6ae55a3da721e98c3d1",
            layout=(LayoutPart(source="socratic_debugging_benchmark"),),
            license="no license file; research use",
        ),
        DatasetEntry(
            name="studentsyn",
            title="StudentSyn benchmark (EDM 2022)",
            repo="machine-teaching-group/edm2022_studentsyn",
            commit="c819a230d0945a0383a08ffa4aebab5e25c344e9",
            layout=(
                LayoutPart(source="data/benchmark"),
                LayoutPart(source="data/symSS/hoc18/distractor_paths", target="symss_hoc18_distractor_paths"),
                # the experts' answers (TutorSS), scored beside every StudentSyn table
                LayoutPart(source="data/tutorSS", target="tutorSS"),
            ),
            license="no license file; research use",
        ),
        DatasetEntry(
            name="debugbench",
            title="DebugBench (ACL Findings 2024)",
            repo="thunlp/DebugBench",
            commit="df2ecf12beaf58e0a11791a1a01612a4d0ef1cb5",
            layout=(LayoutPart(source="benchmark"),),
            license="Apache-2.0",
        ),
    )
}


def get_entry(name: str, registry: Mapping[str, DatasetEntry] | None = None) -> DatasetEntry:
    """The registry entry called ``name``; :class:`InputError` listing the known names otherwise."""
    entries = REGISTRY if registry is None else registry
    try:
        return entries[name]
    except KeyError:
        raise InputError(
            f"unknown dataset {name!r}", field="name", hint=f"known datasets: {', '.join(sorted(entries))}"
        ) from None
