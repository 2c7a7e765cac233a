"""Unpack a downloaded dataset archive (tar or zip) safely and lay its folders out the way arenas read them.

An archive is refused as a whole, before anything is written, when any member would land outside the destination:
an absolute path, a ``..`` component, a link pointing outside, or a device or fifo. Tar members are then extracted
with the standard library's ``data`` filter where Python has it, which repeats those checks and drops unsafe modes.
GitHub archives wrap everything in one top-level folder (``REPO-COMMIT/``); the layout parts name folders below it.
"""

from __future__ import annotations

import os
import posixpath
import shutil
import tarfile
import zipfile
from collections.abc import Sequence
from pathlib import Path

from debugtutor.data.registry import LayoutPart
from debugtutor.errors import DataError


def _unsafe_name_reason(name: str) -> str | None:
    """Why a member name could escape the destination, or None when it is safe."""
    if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        return "absolute path"
    if ".." in name.replace("\\", "/").split("/"):
        return "'..' in path"
    return None


def _unsafe_tar_member_reason(member: tarfile.TarInfo) -> str | None:
    reason = _unsafe_name_reason(member.name)
    if reason:
        return reason
    if member.ischr() or member.isblk() or member.isfifo():
        return "device or fifo"
    if member.issym():
        if member.linkname.startswith("/"):
            return "symlink to an absolute path"
        # A symlink's target is relative to the folder holding the link.
        target = posixpath.normpath(posixpath.join(posixpath.dirname(member.name), member.linkname))
        if target == ".." or target.startswith("../"):
            return "symlink pointing outside the archive"
    if member.islnk():
        # A hard link's target is relative to the archive root.
        target = posixpath.normpath(member.linkname)
        if member.linkname.startswith("/") or target == ".." or target.startswith("../"):
            return "hard link pointing outside the archive"
    return None


def _clean(name: str) -> str:
    """A member name without leading ``./`` and surrounding slashes, as tar tools may write them."""
    while name.startswith("./"):
        name = name[2:]
    return name.strip("/")


def _link_leaves_folder(member: tarfile.TarInfo, folder: str) -> bool:
    """Whether a link inside ``folder`` points outside it: once the folder is moved into place it would dangle,
    or worse, reach files of the user's that happen to sit at that relative path."""
    if member.issym():
        target = posixpath.normpath(posixpath.join(posixpath.dirname(_clean(member.name)), member.linkname))
    elif member.islnk():
        target = posixpath.normpath(_clean(member.linkname))
    else:
        return False
    return bool(folder) and not (target == folder or target.startswith(folder + "/"))


def _top_folder(names: Sequence[str]) -> str:
    """The single top-level folder that wraps every member (GitHub archives have one), or '' when there is none."""
    cleaned = [_clean(name) for name in names if _clean(name) not in ("", ".")]
    tops = {name.split("/", 1)[0] for name in cleaned}
    nested = any("/" in name for name in cleaned)
    return tops.pop() if len(tops) == 1 and nested else ""


def _under(name: str, folder: str) -> bool:
    clean = _clean(name)
    return not folder or clean == folder or clean.startswith(folder + "/")


def _wanted_prefixes(top: str, layout: Sequence[LayoutPart]) -> list[str]:
    return [posixpath.join(top, part.source) if top else part.source for part in layout]


def _extract_tar(archive: Path, raw: Path, layout: Sequence[LayoutPart]) -> str:
    try:
        with tarfile.open(archive, "r:*") as tar:
            members = tar.getmembers()
            for member in members:
                reason = _unsafe_tar_member_reason(member)
                if reason:
                    raise DataError(f"{archive.name}: refusing to unpack member {member.name!r} ({reason})")
            top = _top_folder([member.name for member in members])
            prefixes = _wanted_prefixes(top, layout)
            selected = []
            for member in members:
                prefix = next((prefix for prefix in prefixes if _under(member.name, prefix)), None)
                if prefix is None:
                    continue
                if _link_leaves_folder(member, prefix):
                    raise DataError(
                        f"{archive.name}: refusing to unpack member {member.name!r} "
                        f"(link to {member.linkname!r} outside the dataset folder {prefix!r})"
                    )
                selected.append(member)
            if hasattr(tarfile, "data_filter"):
                tar.extractall(raw, members=selected, filter="data")
            else:  # Python without the PEP 706 filters: the checks above are all there is
                tar.extractall(raw, members=selected)
    except tarfile.FilterError as exc:
        raise DataError(f"{archive.name}: refusing to unpack an unsafe member ({exc})") from exc
    except (tarfile.TarError, EOFError, OSError) as exc:
        raise DataError(f"{archive.name}: not a readable tar archive ({exc})") from exc
    return top


def _extract_zip(archive: Path, raw: Path, layout: Sequence[LayoutPart]) -> str:
    try:
        with zipfile.ZipFile(archive) as zipped:
            infos = zipped.infolist()
            for info in infos:
                reason = _unsafe_name_reason(info.filename)
                if reason:
                    raise DataError(f"{archive.name}: refusing to unpack member {info.filename!r} ({reason})")
            top = _top_folder([info.filename for info in infos])
            prefixes = _wanted_prefixes(top, layout)
            for info in infos:
                if any(_under(info.filename, prefix) for prefix in prefixes):
                    zipped.extract(info, raw)
    except (zipfile.BadZipFile, OSError) as exc:
        raise DataError(f"{archive.name}: not a readable zip archive ({exc})") from exc
    return top


def _place(source: Path, target: Path) -> None:
    """Move ``source`` to ``target``; when ``target`` already exists (two parts share it), move its entries in."""
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(source, target)
        return
    for child in source.iterdir():
        if (target / child.name).exists():
            raise DataError(f"layout conflict: {child.name!r} comes from two parts of the archive")
        os.replace(child, target / child.name)


def unpack_layout(archive: Path, layout: Sequence[LayoutPart], dest: Path, *, workdir: Path) -> None:
    """Unpack the layout parts of ``archive`` into the new folder ``dest``.

    ``workdir`` is a scratch folder on the same file system as ``dest`` (so the final moves are renames); ``dest``
    must not exist yet. Raises :class:`DataError` for an unsafe or unreadable archive or a missing part.
    """
    raw = workdir / "raw"
    raw.mkdir(parents=True)
    if tarfile.is_tarfile(archive):
        top = _extract_tar(archive, raw, layout)
    elif zipfile.is_zipfile(archive):
        top = _extract_zip(archive, raw, layout)
    else:
        raise DataError(f"{archive.name}: neither a tar nor a zip archive")
    root = raw / top if top else raw
    for part in layout:
        source = root / part.source if part.source else root
        if not source.is_dir():
            raise DataError(
                f"{archive.name}: the archive has no folder {part.source or '.'!r}",
                hint="the registry entry's layout does not match this archive",
            )
        _place(source, dest / part.target if part.target else dest)
    shutil.rmtree(raw, ignore_errors=True)
