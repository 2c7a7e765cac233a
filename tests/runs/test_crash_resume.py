"""Crash tests: runs killed (SIGKILL) or interrupted (SIGINT, SIGTERM) in a child process resume without loss."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import time
from pathlib import Path

import pytest

from debugtutor.runs import read_manifest

ITEMS = 400
SLEEP_MS = 5


def _line_count(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def _start(command: list[str], runs_dir: Path, mode: str, run_id: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [*command, str(runs_dir), mode, run_id, str(ITEMS), str(SLEEP_MS)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _wait_for_new_lines(process: subprocess.Popen[bytes], samples: Path, before: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process.poll() is None:
        if _line_count(samples) > before:
            return
        time.sleep(0.005)


@pytest.mark.slow
def test_sigkill_at_random_moments_then_resume_keeps_every_item_once(child_script: list[str], tmp_path: Path) -> None:
    runs_dir = tmp_path / "runs"
    run_id = "killed-run"
    samples = runs_dir / run_id / "samples.jsonl"
    rng = random.Random(7)
    kills = 0
    mode = "new"
    while kills < 6:
        before = _line_count(samples)
        process = _start(child_script, runs_dir, mode, run_id)
        _wait_for_new_lines(process, samples, before)
        time.sleep(rng.uniform(0.0, 0.06))  # somewhere inside the item loop: mid-solve or mid-write
        if process.poll() is not None:
            break  # the run finished before the kill; the final resume below checks it
        process.kill()
        process.wait(timeout=30)
        kills += 1
        mode = "resume"
        status = read_manifest(runs_dir / run_id).status
        if _line_count(samples) < ITEMS:  # killed mid-loop: SIGKILL leaves no chance to record an ending
            assert status == "started", process.stderr.read().decode() if process.stderr else ""
    assert kills >= 5, "the run finished too fast to be killed five times"
    final = subprocess.run(
        [*child_script, str(runs_dir), "resume", run_id, str(ITEMS), str(SLEEP_MS)], capture_output=True, timeout=120
    )
    assert final.returncode == 0, final.stderr.decode()
    raw = samples.read_bytes()
    assert raw.endswith(b"\n")
    ids = [json.loads(line)["id"] for line in raw.decode().splitlines()]  # every line parses: none is torn
    assert len(ids) == ITEMS
    assert sorted(ids) == [f"item-{n:04d}" for n in range(ITEMS)]
    manifest = read_manifest(runs_dir / run_id)
    assert manifest.status == "success"
    assert manifest.counts.done == ITEMS and manifest.counts.errors == 0
    assert len(manifest.attempts) == kills + 1


@pytest.mark.slow
@pytest.mark.parametrize("signal_number", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_interrupt_marks_the_run_interrupted_and_resumable(
    child_script: list[str], tmp_path: Path, signal_number: int
) -> None:
    runs_dir = tmp_path / "runs"
    samples = runs_dir / "stopped" / "samples.jsonl"
    process = _start(child_script, runs_dir, "new", "stopped")
    _wait_for_new_lines(process, samples, 10)
    process.send_signal(signal_number)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode != 0, stderr.decode()
    manifest = read_manifest(runs_dir / "stopped")
    assert manifest.status == "interrupted", stderr.decode()
    assert 0 < manifest.counts.done < ITEMS
    assert (runs_dir / "stopped" / "summary.json").is_file()
    final = subprocess.run(
        [*child_script, str(runs_dir), "resume", "stopped", str(ITEMS), str(SLEEP_MS)], capture_output=True, timeout=120
    )
    assert final.returncode == 0, final.stderr.decode()
    ids = [json.loads(line)["id"] for line in samples.read_text().splitlines()]
    assert sorted(ids) == [f"item-{n:04d}" for n in range(ITEMS)]
    assert read_manifest(runs_dir / "stopped").status == "success"
