"""The ``debugtutor data`` commands: one JSON object under --json, one error line with a hint otherwise."""

from __future__ import annotations

import hashlib
import io
import json
import socket
import sys
import tarfile
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from debugtutor.cli import main as cli_main
from debugtutor.data import MIRROR_ENV_VAR, REGISTRY

SOCRATIC = REGISTRY["socratic"]
DIALOGUE = b"<problem>\nfibonacci\n</problem>\n"


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        cli_main.main(args)
        sys.exit(0)
    out, err = capsys.readouterr()
    code = info.value.code
    return (code if isinstance(code, int) else 0), out, err


def one_json_object(out: str) -> dict[str, object]:
    lines = out.splitlines()
    assert len(lines) == 1, out
    value = json.loads(lines[0])
    assert isinstance(value, dict)
    return value


def socratic_archive() -> bytes:
    buffer = io.BytesIO()
    top = f"socratic-debugging-benchmark-{SOCRATIC.commit}"
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, body in {
            f"{top}/socratic_debugging_benchmark/v2_sigcse/train/0_0_fibonacci_socratic_dialogue.txt": DIALOGUE,
            f"{top}/socratic_debugging_benchmark/v1_bea/final_dataset/0_0_fibonacci_socratic_dialogue.txt": DIALOGUE,
            f"{top}/README.md": b"readme",
        }.items():
            info = tarfile.TarInfo(name)
            info.size = len(body)
            tar.addfile(info, io.BytesIO(body))
    return buffer.getvalue()


@pytest.fixture
def socratic_mirror(monkeypatch: pytest.MonkeyPatch) -> Iterator[bytes]:
    """A loopback server holding a small socratic archive, set as the dataset mirror; yields the archive bytes."""
    archive = socratic_archive()
    route = f"/{SOCRATIC.repo}/tar.gz/{SOCRATIC.commit}"

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path != route:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Length", str(len(archive)))
            self.end_headers()
            self.wfile.write(archive)

        def log_message(self, format: str, *args: object) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    monkeypatch.setenv(MIRROR_ENV_VAR, f"http://127.0.0.1:{server.server_address[1]}")
    try:
        yield archive
    finally:
        server.shutdown()
        server.server_close()


def test_list_json_reports_every_dataset_unfetched(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["data", "list", "--json"], capsys)
    assert code == 0
    rows = {row["name"]: row for row in one_json_object(out)["datasets"]}  # type: ignore[attr-defined]
    assert set(rows) == set(REGISTRY)
    assert rows["debugbench"]["repo"] == "thunlp/DebugBench"
    assert rows["debugbench"]["commit"] == REGISTRY["debugbench"].commit
    assert all(row["fetched"] is False and row["path"] is None for row in rows.values())


def test_list_for_people_is_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["data", "list"], capsys)
    assert code == 0
    assert "socratic" in out and "not fetched" in out


def test_fetch_then_path_and_list(socratic_mirror: bytes, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["data", "fetch", "socratic", "--json"], capsys)
    assert code == 0, err
    result = one_json_object(out)
    assert result["sha256"] == hashlib.sha256(socratic_mirror).hexdigest()
    assert result["verification"] == "first-use" and result["downloaded"] is True
    assert "NO PINNED CHECKSUM" in " ".join(err.split())  # warned even under --json
    fetched = Path(str(result["path"]))
    assert sorted(p.name for p in fetched.iterdir()) == ["v1_bea", "v2_sigcse"]

    code, out, _ = run_cli(["data", "path", "socratic", "--json"], capsys)
    assert code == 0 and one_json_object(out) == {"name": "socratic", "path": str(fetched)}
    code, out, _ = run_cli(["data", "path", "socratic"], capsys)
    assert code == 0 and out.strip() == str(fetched)

    code, out, _ = run_cli(["data", "list", "--json"], capsys)
    rows = {row["name"]: row for row in one_json_object(out)["datasets"]}  # type: ignore[attr-defined]
    assert rows["socratic"]["fetched"] is True and rows["socratic"]["path"] == str(fetched)
    assert rows["socratic"]["recorded_sha256"] == result["sha256"]


def test_fetch_to_dest_with_wrong_sha256_fails_and_keeps_nothing(
    socratic_mirror: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dest = tmp_path / "socratic"
    code, out, err = run_cli(["data", "fetch", "socratic", "--dest", str(dest), "--sha256", "f" * 64], capsys)
    assert code == 1 and out == ""
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "sha256 mismatch" in errors[0] and "f" * 64 in errors[0]
    assert not dest.exists() and list(tmp_path.iterdir()) == []

    right = hashlib.sha256(socratic_mirror).hexdigest()
    code, out, err = run_cli(["data", "fetch", "socratic", "--dest", str(dest), "--sha256", right], capsys)
    assert code == 0, err
    assert out.strip() == str(dest.resolve())
    assert (dest / "v2_sigcse" / "train" / "0_0_fibonacci_socratic_dialogue.txt").read_bytes() == DIALOGUE


def test_fetch_offline_fails_fast_with_one_line_and_the_data_hint(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv(MIRROR_ENV_VAR, f"http://127.0.0.1:{port}")
    started = time.monotonic()
    code, out, err = run_cli(["data", "fetch", "debugbench", "--json"], capsys)
    assert time.monotonic() - started < 5
    assert code == 1 and out == ""
    assert len(err.strip().splitlines()) == 1 and "--data PATH" in err


def test_path_of_an_unfetched_dataset_says_how_to_get_it(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["data", "path", "studentsyn", "--json"], capsys)
    assert code == 1 and out == ""
    assert "debugtutor data fetch studentsyn" in err and "--data PATH" in err


def test_unknown_dataset_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["data", "fetch", "debug-bench"], capsys)
    assert code == 2 and "debugbench" in err


def test_checksum_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.txt").write_text("a")
    code, out, _ = run_cli(["data", "checksum", str(tmp_path), "--json"], capsys)
    first = one_json_object(out)
    assert code == 0 and first["path"] == str(tmp_path) and len(str(first["sha256"])) == 64
    (tmp_path / "a.txt").write_text("b")
    code, out, _ = run_cli(["data", "checksum", str(tmp_path)], capsys)
    assert code == 0 and out.strip() != first["sha256"] and len(out.strip()) == 64
