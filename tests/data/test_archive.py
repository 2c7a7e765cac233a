"""Safe unpacking: unsafe members refuse the whole archive, and layout parts land where the registry says."""

from __future__ import annotations

import io
import tarfile
import zipfile
from pathlib import Path

import pytest

from debugtutor.data import LayoutPart
from debugtutor.data.archive import unpack_layout
from debugtutor.errors import DataError

LAYOUT = (LayoutPart(source="data"),)


def _tar(path: Path, members: list[tarfile.TarInfo], contents: dict[str, bytes] | None = None) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for member in members:
            body = (contents or {}).get(member.name)
            if body is not None:
                member.size = len(body)
            tar.addfile(member, io.BytesIO(body) if body is not None else None)
    return path


def _file(name: str) -> tarfile.TarInfo:
    return tarfile.TarInfo(name)


def _link(name: str, target: str, kind: bytes = tarfile.SYMTYPE) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = target
    return info


@pytest.mark.parametrize(
    ("member", "reason"),
    [
        (_file("../evil"), "'..' in path"),
        (_file("repo-x/data/../../evil"), "'..' in path"),
        (_file("/etc/evil"), "absolute path"),
        (_link("repo-x/data/link", "../../../outside"), "symlink pointing outside"),
        (_link("repo-x/data/link", "../README"), "outside the dataset folder"),
        (_link("repo-x/data/link", "/etc/passwd"), "absolute path"),
        (_link("repo-x/data/hard", "../outside", tarfile.LNKTYPE), "hard link pointing outside"),
        (_link("repo-x/data/hard", "repo-x/README", tarfile.LNKTYPE), "outside the dataset folder"),
    ],
)
def test_unsafe_tar_members_refuse_the_archive(tmp_path: Path, member: tarfile.TarInfo, reason: str) -> None:
    archive = _tar(tmp_path / "a.tar.gz", [_file("repo-x/data/ok.txt"), member], {"repo-x/data/ok.txt": b"ok"})
    dest = tmp_path / "out" / "dataset"
    with pytest.raises(DataError, match=reason):
        unpack_layout(archive, LAYOUT, dest, workdir=tmp_path / "work")
    assert not dest.exists()
    assert not (tmp_path / "evil").exists() and not (tmp_path / "work" / "raw" / "repo-x").exists()


def test_links_inside_the_archive_are_kept(tmp_path: Path) -> None:
    archive = _tar(
        tmp_path / "a.tar.gz",
        [_file("repo-x/data/ok.txt"), _link("repo-x/data/alias.txt", "ok.txt")],
        {"repo-x/data/ok.txt": b"ok"},
    )
    dest = tmp_path / "dataset"
    unpack_layout(archive, LAYOUT, dest, workdir=tmp_path / "work")
    assert (dest / "alias.txt").read_bytes() == b"ok"


def test_device_members_are_refused(tmp_path: Path) -> None:
    device = tarfile.TarInfo("repo-x/data/dev")
    device.type = tarfile.CHRTYPE
    archive = _tar(tmp_path / "a.tar.gz", [_file("repo-x/data/ok.txt"), device], {"repo-x/data/ok.txt": b"ok"})
    with pytest.raises(DataError, match="device"):
        unpack_layout(archive, LAYOUT, tmp_path / "dataset", workdir=tmp_path / "work")


def test_zip_archives_unpack_and_refuse_parent_members(tmp_path: Path) -> None:
    good = tmp_path / "good.zip"
    with zipfile.ZipFile(good, "w") as zipped:
        zipped.writestr("repo-x/data/sub/a.json", "[]")
        zipped.writestr("repo-x/other.txt", "skip me")
    unpack_layout(good, LAYOUT, tmp_path / "dataset", workdir=tmp_path / "work1")
    assert [p.relative_to(tmp_path / "dataset").as_posix() for p in (tmp_path / "dataset").rglob("*.json")] == [
        "sub/a.json"
    ]

    evil = tmp_path / "evil.zip"
    with zipfile.ZipFile(evil, "w") as zipped:
        zipped.writestr("repo-x/data/a.json", "[]")
        zipped.writestr("../evil", "x")
    with pytest.raises(DataError, match=r"\.\./evil"):
        unpack_layout(evil, LAYOUT, tmp_path / "dataset2", workdir=tmp_path / "work2")
    assert not (tmp_path / "dataset2").exists() and not (tmp_path / "evil").exists()


def test_not_an_archive_is_an_error(tmp_path: Path) -> None:
    junk = tmp_path / "junk"
    junk.write_bytes(b"<html>rate limited</html>")
    with pytest.raises(DataError, match="neither a tar nor a zip"):
        unpack_layout(junk, LAYOUT, tmp_path / "dataset", workdir=tmp_path / "work")


def test_archive_without_a_top_folder_uses_its_root(tmp_path: Path) -> None:
    archive = _tar(tmp_path / "a.tar.gz", [_file("data/x.txt"), _file("README")], {"data/x.txt": b"x", "README": b""})
    unpack_layout(archive, LAYOUT, tmp_path / "dataset", workdir=tmp_path / "work")
    assert (tmp_path / "dataset" / "x.txt").read_bytes() == b"x"


def test_two_parts_into_one_folder_merge_and_conflicts_are_errors(tmp_path: Path) -> None:
    contents = {"repo-x/a/one.txt": b"1", "repo-x/b/two.txt": b"2", "repo-x/c/one.txt": b"3"}
    archive = _tar(tmp_path / "a.tar.gz", [_file(name) for name in contents], contents)
    unpack_layout(archive, (LayoutPart(source="a"), LayoutPart(source="b")), tmp_path / "ok", workdir=tmp_path / "w1")
    assert sorted(p.name for p in (tmp_path / "ok").iterdir()) == ["one.txt", "two.txt"]
    with pytest.raises(DataError, match="layout conflict"):
        unpack_layout(
            archive, (LayoutPart(source="a"), LayoutPart(source="c")), tmp_path / "bad", workdir=tmp_path / "w2"
        )
