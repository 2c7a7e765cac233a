"""How long an evaluation against a hung model server takes to give up, with the default settings and with
``--timeout 5 --max-retries 1``.

A loopback OpenAI-compatible server accepts every connection and never answers. ``debugtutor socratic eval`` with
a model-backed instructor runs on the built-in sample dialogues against it; each setting's wall time, exit code and
the run's status and stop reason are printed. The run must end ``failed`` (the circuit breaker stops it once every
recent call failed), never ``success``, and the command must exit 1.

Before these settings existed the client waited 120 s per attempt for 7 attempts (about 14 min per item, with no
message) and a run of failures could still be recorded as a success; that figure is computed, not measured here.

    python bench/model_failures.py [--skip-default]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from importlib import resources
from pathlib import Path

from debugtutor.llm.loopback_server import Fault, FaultPlan, LoopbackServer


def run_eval(base_url: str, flags: list[str], runs_dir: Path) -> tuple[float, int, dict[str, object]]:
    samples = resources.files("debugtutor.samples").joinpath("socratic")
    command = [
        sys.executable, "-m", "debugtutor.cli.main", "socratic", "eval", "--data", str(samples),
        "--instructor", "zero-shot", "--model", f"openai:stuck@{base_url}", "--metrics", "rougeL",
        "--runs-dir", str(runs_dir), "--json", *flags,
    ]  # fmt: skip
    env = {**os.environ, "DEBUGTUTOR_CACHE_DIR": str(runs_dir / "cache")}
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    elapsed = time.monotonic() - started
    result = json.loads(done.stdout) if done.stdout.strip() else {}
    retry_lines = sum(1 for line in done.stderr.splitlines() if "retrying in" in line)
    result["retry_notices"] = retry_lines
    return elapsed, done.returncode, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--skip-default", action="store_true", help="Only the short settings (the default takes ~4 min)."
    )
    args = parser.parse_args()
    settings = [("--timeout 5 --max-retries 1", ["--timeout", "5", "--max-retries", "1"])]
    if not args.skip_default:
        settings.insert(0, ("defaults (60 s, 3 retries)", []))
    hang = FaultPlan(by_model={"stuck": Fault(kind="hang", hang_s=3600)})
    failures = 0
    with LoopbackServer(faults=hang) as server, tempfile.TemporaryDirectory() as folder:
        print(f"{'settings':<30} {'wall':>8} {'exit':>5}  status   requests  retry notices  stop reason")
        for label, flags in settings:
            server.reset_stats()
            elapsed, code, result = run_eval(server.base_url, flags, Path(folder) / label.split()[0])
            status = result.get("status")
            reason = str(result.get("stop_reason") or "")[:70]
            print(
                f"{label:<30} {elapsed:>7.1f}s {code:>5}  {status!s:<8} {server.requests:>8}  "
                f"{result['retry_notices']:>13}  {reason}"
            )
            if code != 1 or status != "failed":
                failures += 1
    print("before: 7 attempts x 120 s = 14 min per item with no message (computed from the old client defaults)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
