"""Sandbox throughput: executions per second of a small Python test program, pool vs. naive subprocesses.

The program is a function plus five asserts (the shape of a Socratic-benchmark bug). The pool runs it through
a ``PythonTestsRequest``: one forked child per program (all five tests in it, each with its own alarm), inside
bubblewrap when available, with every limit applied. The baseline is what human-eval-style harnesses do: one new
``python3`` subprocess per program running the same code and asserts, with the same number of workers.

Both run in the same process, alternating in rounds (pool, baseline, pool, ...), so a change in the machine's load
affects both alike; the ratio is total programs over total time for each side. Prints the pool's rate, the baseline's,
their ratio (and its spread over the rounds), the CPU time each side spent per program (this process plus the
sandbox servers and programs, or plus the python3 subprocesses: a figure the machine's load barely moves), the pool's
peak resident memory (servers and running children, sampled) and the isolation level; exits 1 if a program failed or
the ratio is below the target.

    python bench/sandbox.py [--programs 1000] [--workers 2] [--rounds 5] [--target 3.0]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from debugtutor.sandbox import PythonTestsRequest, SandboxPool, Status, TestReport
from debugtutor.sandbox._isolation import system_python

CODE = """def count_vowels(text):
    total = 0
    for char in text.lower():
        if char in "aeiou":
            total += 1
    return total
"""
TESTS = [
    'assert count_vowels("") == 0',
    'assert count_vowels("abc") == 1',
    'assert count_vowels("AEIOU") == 5',
    'assert count_vowels("rhythm") == 0',
    'assert count_vowels("Hello World") == 3',
]


class PeakRss:
    """Samples the pool's resident memory in the background while a round runs."""

    def __init__(self, pool: SandboxPool) -> None:
        self.pool = pool
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, self.pool.rss_bytes())
            self._stop.wait(0.2)

    def __enter__(self) -> PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def own_cpu_seconds() -> float:
    """CPU time of this process (all threads) so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def reaped_cpu_seconds() -> float:
    """CPU time of the subprocesses this process has waited for."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def pool_round(pool: SandboxPool, programs: int) -> tuple[float, float, int]:
    """Seconds and CPU seconds to run ``programs`` programs through the pool, and how many passed."""
    requests = [PythonTestsRequest(code=CODE, tests=TESTS) for _ in range(programs)]
    cpu_before = own_cpu_seconds() + pool.cpu_seconds()
    started = time.perf_counter()
    results = pool.map(requests)
    elapsed = time.perf_counter() - started
    cpu = own_cpu_seconds() + pool.cpu_seconds() - cpu_before
    passed = sum(1 for result in results if isinstance(result, TestReport) and result.status is Status.passed)
    return elapsed, cpu, passed


def baseline_round(folder: str, programs: int, workers: int) -> tuple[float, float, int]:
    """Seconds and CPU seconds to run ``programs`` programs as one fresh ``python3`` each (timeout-guarded), and how
    many passed."""
    python = system_python()
    script = Path(folder) / "program.py"

    def one(_: int) -> bool:
        done = subprocess.run(
            [python, str(script)], capture_output=True, timeout=10, cwd=folder, env={"PATH": os.defpath}
        )
        return done.returncode == 0

    cpu_before = own_cpu_seconds() + reaped_cpu_seconds()
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=workers) as threads:
        passed = sum(threads.map(one, range(programs)))
    elapsed = time.perf_counter() - started
    return elapsed, own_cpu_seconds() + reaped_cpu_seconds() - cpu_before, passed


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--programs", type=int, default=1000, help="programs per side")
    parser.add_argument("--workers", type=int, default=2, help="parallel workers per side")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds the programs are split into")
    parser.add_argument("--target", type=float, default=3.0, help="the ratio below which the run fails")
    args = parser.parse_args()
    rounds = max(1, min(args.rounds, args.programs))
    sizes = [args.programs // rounds + (1 if index < args.programs % rounds else 0) for index in range(rounds)]
    load_before = os.getloadavg()
    pool_time = base_time = pool_cpu = base_cpu = 0.0
    pool_passed = base_passed = 0
    round_ratios: list[float] = []
    with SandboxPool(workers=args.workers) as pool, tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "program.py").write_text(CODE + "\n".join(TESTS) + "\n")
        pool.map([PythonTestsRequest(code=CODE, tests=TESTS)] * args.workers)  # start the servers outside the timing
        baseline_round(folder, args.workers, args.workers)  # and warm the page cache for the baseline
        with PeakRss(pool) as memory:
            for size in sizes:
                elapsed_pool, cpu, passed = pool_round(pool, size)
                pool_time, pool_cpu, pool_passed = pool_time + elapsed_pool, pool_cpu + cpu, pool_passed + passed
                elapsed_base, cpu, passed = baseline_round(folder, size, args.workers)
                base_time, base_cpu, base_passed = base_time + elapsed_base, base_cpu + cpu, base_passed + passed
                round_ratios.append(elapsed_base / elapsed_pool)
        isolation = pool.isolation
    pool_rate, base_rate = args.programs / pool_time, args.programs / base_time
    ratio = pool_rate / base_rate
    load_after = os.getloadavg()
    print(f"programs:  {args.programs} per side in {rounds} alternating rounds; workers: {args.workers} per side")
    print(f"machine:   {os.cpu_count()} cpus; load average {load_before[0]:.1f} before, {load_after[0]:.1f} after")
    print(f"isolation: {isolation} (pool); the baseline runs unisolated")
    print(f"pool:      {pool_rate:7.1f} programs/s ({pool_passed} passed; a forked child per program)")
    print(f"baseline:  {base_rate:7.1f} programs/s ({base_passed} passed; a new python3 per program)")
    spread = f"rounds {min(round_ratios):.2f}x to {max(round_ratios):.2f}x"
    print(f"ratio:     {ratio:7.2f}x ({spread}; target {args.target}x)")
    pool_ms, base_ms = pool_cpu / args.programs * 1000, base_cpu / args.programs * 1000
    print(f"cpu:       {pool_ms:.2f} ms per program (pool) vs {base_ms:.2f} ms (baseline): {base_ms / pool_ms:.2f}x")
    print(f"pool peak RSS: {memory.peak / 2**20:.1f} MiB (servers + running children, sampled)")
    if pool_passed != args.programs or base_passed != args.programs:
        print("FAIL: some programs did not pass", file=sys.stderr)
        return 1
    if ratio < args.target:
        print("FAIL: below the target ratio", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
