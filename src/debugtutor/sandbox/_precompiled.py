"""A precompiled ``<bits/stdc++.h>`` for the C++ compiles the sandbox runs.

Every LeetCode-style C++ program here starts with that header, and reading it is most of a small program's compile
time (about 3 of 3.5 CPU seconds; a batch of 32 variants compiles in half the time with it). The header is the
system's own, the same for every program, so it is compiled once per compiler version and flag set, on the host
(its input is the system header, no code from a program), into ``precompiled_headers_dir()/<key>/bits/``.

bubblewrap shows that folder read-only at :data:`PCH_INSIDE` to servers that run as us or as root; without
bubblewrap the programs see the host folder itself, when every folder above it lets any user pass. g++ uses a
precompiled header only when it was built with the same options and the header is the first thing the file
includes, and otherwise reads the plain header next to it: a missing, stale or unreadable one costs time, never a
wrong compile.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path

from debugtutor.userdirs import precompiled_headers_dir

PCH_INSIDE = "/dt-pch"
HEADER = "bits/stdc++.h"
BUILD_TIMEOUT_S = 300.0
_lock = threading.Lock()


def pch_root() -> Path:
    """The host folder that holds one sub-folder per compiler and flag set."""
    return precompiled_headers_dir()


@functools.lru_cache(maxsize=1)
def _compiler() -> tuple[str, str, Path] | None:
    """(g++ path, its full version, the system ``bits/stdc++.h``), or None without g++ or that header."""
    gpp = shutil.which("g++")
    if gpp is None:
        return None
    try:
        version = subprocess.run([gpp, "-dumpfullversion", "-dumpversion"], capture_output=True, text=True,
                                 timeout=30, check=True).stdout.strip()  # fmt: skip
        search = subprocess.run([gpp, "-x", "c++", "-E", "-v", os.devnull], capture_output=True, text=True,
                                timeout=30, check=True).stderr  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    listed = re.search(r"#include <\.\.\.> search starts here:\n(.*?)End of search list", search, re.S)
    for folder in listed.group(1).split() if listed else []:
        header = Path(folder) / HEADER
        if header.is_file():
            return gpp, version, header
    return None


@functools.cache
def _built(root: Path, flags: tuple[str, ...]) -> str | None:
    """The sub-folder of ``root`` (a key of compiler, header and flags) holding a header built with ``flags``; None
    when it cannot be built here."""
    found = _compiler()
    if found is None:
        return None
    gpp, version, header = found
    key = hashlib.sha256(repr((gpp, version, str(header), flags)).encode()).hexdigest()[:16]
    if (root / key / f"{HEADER}.gch").is_file():
        return key
    with _lock:
        if (root / key / f"{HEADER}.gch").is_file():
            return key
        try:
            root.mkdir(parents=True, exist_ok=True)
            os.chmod(root, 0o755)
            building = Path(tempfile.mkdtemp(prefix=f".{key}-", dir=root))
            (building / "bits").mkdir()
            shutil.copyfile(header, building / HEADER)
            subprocess.run(
                [gpp, *flags, "-x", "c++-header", str(building / HEADER), "-o", str(building / f"{HEADER}.gch")],
                capture_output=True, timeout=BUILD_TIMEOUT_S, check=True,
            )  # fmt: skip
            for path in (building, building / "bits"):
                os.chmod(path, 0o755)
            for path in (building / HEADER, building / f"{HEADER}.gch"):
                os.chmod(path, 0o644)
            try:
                # another process may have built the same one meanwhile: either copy is as good
                os.rename(building, root / key)
            except OSError:
                shutil.rmtree(building, ignore_errors=True)
        except (OSError, subprocess.SubprocessError):
            return None
    return key if (root / key / f"{HEADER}.gch").is_file() else None


def header_flags(options: Sequence[str], *, inside_bubblewrap: bool) -> list[str]:
    """The ``-I`` arguments that give a sandboxed g++ run with ``options`` (no program name) the precompiled header
    (built here on first use, which takes a few seconds), or none when it cannot be built. Warning options do not
    matter to a precompiled header and are best left out, so that compiles with and without warnings share one."""
    key = _built(pch_root(), tuple(options))
    if key is None:
        return []
    if inside_bubblewrap:
        return ["-I", f"{PCH_INSIDE}/{key}"]
    # programs see the host's files as an unprivileged user does: g++ refuses a folder it may not enter
    folder = pch_root() / key
    return ["-I", str(folder)] if _open_to_everyone(folder) else []


def _open_to_everyone(folder: Path) -> bool:
    """Whether any user may enter ``folder`` (every folder above it lets others pass)."""
    try:
        return all(path.stat().st_mode & 0o001 for path in (folder, *folder.parents))
    except OSError:
        return False
