"""The read-only run viewer, served over real HTTP on loopback."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from debugtutor.report import write_report
from debugtutor.runs import EvalItem, EvalTask, run_task


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


@pytest.mark.web
def test_viewer_lists_runs_and_serves_reports(tmp_path: Path) -> None:
    task = EvalTask(
        name="toy",
        items=[EvalItem(id=str(i), input={"x": i}) for i in range(3)],
        solver=lambda item: item.input["x"],
        scorer=lambda item, output: {"even": float(output % 2 == 0)},
    )
    result = run_task(task, runs_dir=tmp_path, report=write_report)
    port = _free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "debugtutor.cli.main",
            "runs",
            "serve",
            "--runs-dir",
            str(tmp_path),
            "--port",
            str(port),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                status, page = _get(base + "/")
                break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail("the viewer did not start: " + (server.stderr.read().decode() if server.stderr else ""))
        run_id = result.run_dir.name
        assert status == 200 and run_id in page and "toy" in page
        status, report = _get(f"{base}/runs/{run_id}")
        assert status == 200 and "<html" in report.lower()
        status, body = _get(f"{base}/api/runs/{run_id}")
        data = json.loads(body)
        assert data["manifest"]["task"] == "toy"
        assert data["summary"] is not None
        assert _get(f"{base}/runs/no-such-run")[0] == 404
    finally:
        server.terminate()
        server.wait(timeout=10)
