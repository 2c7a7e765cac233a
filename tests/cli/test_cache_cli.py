"""``debugtutor cache``: info and clear on the response cache the models commands fill."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from debugtutor.cli import main as cli_main
from debugtutor.llm.loopback_server import LoopbackServer


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        cli_main.main(args)
        sys.exit(0)
    out, err = capsys.readouterr()
    code = info.value.code
    return (code if isinstance(code, int) else 0), out, err


def test_info_and_clear(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["cache", "info", "--json"], capsys)
    empty = json.loads(out)
    assert code == 0 and empty["entries"] == 0
    assert Path(empty["path"]).parent == Path(os.environ["DEBUGTUTOR_CACHE_DIR"])
    with LoopbackServer() as server:
        for prompt in ("one", "two"):
            run_cli(["models", "try", f"openai:m@{server.base_url}", prompt, "--json"], capsys)
    code, out, _ = run_cli(["cache", "info", "--json"], capsys)
    filled = json.loads(out)
    assert filled["entries"] == 2 and filled["size_bytes"] > 0
    code, out, _ = run_cli(["cache", "info"], capsys)
    assert "entries  2" in out
    code, out, _ = run_cli(["cache", "clear", "--json"], capsys)
    assert code == 0 and json.loads(out)["removed"] == 2
    code, out, _ = run_cli(["cache", "info", "--json"], capsys)
    assert json.loads(out)["entries"] == 0
    code, out, _ = run_cli(["cache", "clear"], capsys)
    assert code == 0 and "removed 0" in out
