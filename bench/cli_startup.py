"""CLI start-up time: ``debugtutor --help`` and one subcommand's ``--help``, beside ``python -c pass`` in the same run.

Each command runs ``--rounds`` times, interleaved so that load on the machine falls on all of them alike; the
medians are printed with their ratio to bare interpreter start-up. ``--compare REV`` also times the same commands
from a checkout of git revision REV (a temporary worktree on PYTHONPATH), side by side.

    python bench/cli_startup.py --rounds 15 --compare 4637091
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
COMMANDS = {
    "python -c pass": ["-c", "pass"],
    "debugtutor --help": ["-m", "debugtutor.cli.main", "--help"],
    "debugtutor sandbox run --help": ["-m", "debugtutor.cli.main", "sandbox", "run", "--help"],
    "debugtutor socratic eval --help": ["-m", "debugtutor.cli.main", "socratic", "eval", "--help"],
}


def _time(argv: list[str], src: Path) -> float:
    env = {**os.environ, "PYTHONPATH": str(src), "COLUMNS": "120"}
    started = time.perf_counter()
    subprocess.run([sys.executable, *argv], env=env, check=True, capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--compare", metavar="REV", help="also time a checkout of this git revision")
    args = parser.parse_args()
    sources = {"now": REPO / "src"}
    with tempfile.TemporaryDirectory() as scratch:
        if args.compare:
            worktree = Path(scratch) / "before"
            subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", str(worktree), args.compare],
                           check=True, capture_output=True)  # fmt: skip
            sources[args.compare] = worktree / "src"
        try:
            times: dict[tuple[str, str], list[float]] = {}
            for _ in range(args.rounds):
                for label, src in sources.items():
                    for name, argv in COMMANDS.items():
                        times.setdefault((label, name), []).append(_time(argv, src))
        finally:
            if args.compare:
                subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(worktree)], check=False)
    print(f"median of {args.rounds} runs, load average {os.getloadavg()[0]:.1f}")
    print(f"{'command':34} " + " ".join(f"{label:>22}" for label in sources))
    for name in COMMANDS:
        cells = []
        for label in sources:
            median = statistics.median(times[(label, name)])
            base = statistics.median(times[(label, "python -c pass")])
            cells.append(f"{median * 1000:8.0f} ms ({median / base:5.1f}x)")
        print(f"{name:34} " + " ".join(f"{cell:>22}" for cell in cells))


if __name__ == "__main__":
    main()
