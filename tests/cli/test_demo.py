"""The main job: ``debugtutor demo`` runs every step on the built-in samples and reports each one."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.slow
def test_demo_runs_every_step_offline(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "debugtutor.cli.main", "demo", "--runs-dir", str(tmp_path), "--json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert result["failed"] == 0
    titles = [step["step"] for step in result["steps"]]
    assert any(title.startswith("Socratic") for title in titles)
    assert any(title.startswith("Analysis") for title in titles)
    assert all(step["status"] == "ok" for step in result["steps"])
    socratic = next(step for step in result["steps"] if step["step"].startswith("Socratic"))
    assert "leak rate 0.0%" in socratic["summary"]
    repaired = [step for step in result["steps"] if step["step"].startswith("Analysis")]
    assert all("repaired" in step["summary"] for step in repaired)
    assert list(tmp_path.glob("*/report.html")), "the runs write their HTML reports"
    debugeval = {step["step"]: step["summary"] for step in result["steps"] if step["step"].startswith("DebugEval")}
    assert any("Python" in title for title in debugeval)
    # the C++ instances run wherever g++ is installed (CI installs it), and all four tasks report
    assert any("C++" in title for title in debugeval) == (shutil.which("g++") is not None)
    assert all("code-repair pass@1" in summary and "bug-localization" in summary for summary in debugeval.values())
