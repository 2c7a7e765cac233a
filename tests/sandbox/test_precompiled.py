"""The precompiled C++ standard header (sandbox/_precompiled.py): built once per flag set, used by g++."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from debugtutor.sandbox._precompiled import HEADER, header_flags, pch_root

OPTIONS = ["-std=c++17", "-O0"]


@pytest.mark.slow
def test_the_header_is_built_once_and_g_plus_plus_uses_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if shutil.which("g++") is None:
        pytest.fail("g++ is part of the toolchain the C++ tasks need")
    monkeypatch.setenv("DEBUGTUTOR_PCH_DIR", str(tmp_path / "pch"))
    flags = header_flags(OPTIONS, inside_bubblewrap=True)
    assert flags[0] == "-I" and flags[1].startswith("/dt-pch/")
    key = flags[1].rsplit("/", 1)[1]
    built = pch_root() / key / f"{HEADER}.gch"
    assert built.is_file() and (pch_root() / key / HEADER).is_file()
    stamp = built.stat().st_mtime_ns
    assert header_flags(OPTIONS, inside_bubblewrap=True) == flags and built.stat().st_mtime_ns == stamp
    # another flag set gets a header of its own
    assert header_flags([*OPTIONS, "-DNDEBUG"], inside_bubblewrap=True) != flags
    program = tmp_path / "a.cpp"
    program.write_text("#include <bits/stdc++.h>\nint main() { return std::vector<int>{1, 2}.size() == 2 ? 0 : 1; }\n")
    used = subprocess.run(["g++", *OPTIONS, "-I", str(pch_root() / key), "-H", "-fsyntax-only", str(program)],
                          capture_output=True, text=True, check=True)  # fmt: skip
    assert used.stderr.startswith(f"! {pch_root() / key / HEADER}.gch")


@pytest.mark.slow
def test_a_folder_others_may_not_enter_is_not_handed_to_programs_outside_bubblewrap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (pytest's temporary folders are private to their owner: an unprivileged program could not read the header)
    monkeypatch.setenv("DEBUGTUTOR_PCH_DIR", str(tmp_path / "pch"))
    if shutil.which("g++") is None:
        pytest.fail("g++ is part of the toolchain the C++ tasks need")
    assert header_flags(OPTIONS, inside_bubblewrap=False) == []
