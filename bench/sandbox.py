"""Sandbox throughput: executions per second of a small Python test program, pool vs. naive subprocesses.

The program is a function plus five asserts (the shape of a Socratic-benchmark bug). The pool runs it through
``run_python_tests`` (a forked child per program and per test, inside bubblewrap when available). The baseline is what
human-eval-style harnesses do: one new ``python3`` subprocess per program, with the same number of workers. Prints
both rates, their ratio and the pool's peak resident memory (servers + workers); exits 1 if the ratio is below the
target.

    python bench/sandbox.py [--programs 1000] [--workers 2] [--target 3.0]
"""

from __future__ import annotations

import argparse
import os
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


def run_pool(programs: int, workers: int) -> tuple[float, int, int]:
    """Programs per second through the pool, its peak RSS in bytes, and how many programs passed."""
    peak = 0
    stop = threading.Event()
    with SandboxPool(workers=workers) as pool:
        pool.map([PythonTestsRequest(code=CODE, tests=TESTS)] * workers)  # start the servers outside the timing

        def sample() -> None:
            nonlocal peak
            while not stop.is_set():
                peak = max(peak, pool.rss_bytes())
                stop.wait(0.25)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        requests = [PythonTestsRequest(code=CODE, tests=TESTS) for _ in range(programs)]
        started = time.perf_counter()
        results = pool.map(requests)
        elapsed = time.perf_counter() - started
        stop.set()
        sampler.join()
        print(f"isolation: {pool.isolation}")
    passed = sum(1 for result in results if isinstance(result, TestReport) and result.status is Status.passed)
    return programs / elapsed, peak, passed


def run_baseline(programs: int, workers: int) -> tuple[float, int]:
    """Programs per second with one fresh interpreter per program (timeout-guarded, in a temp dir)."""
    python = system_python()
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "program.py"
        script.write_text(CODE + "\n".join(TESTS) + "\n")

        def one(_: int) -> bool:
            done = subprocess.run(
                [python, str(script)], capture_output=True, timeout=10, cwd=folder, env={"PATH": os.defpath}
            )
            return done.returncode == 0

        started = time.perf_counter()
        with ThreadPoolExecutor(max_workers=workers) as threads:
            passed = sum(threads.map(one, range(programs)))
        elapsed = time.perf_counter() - started
    return programs / elapsed, passed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--target", type=float, default=3.0)
    args = parser.parse_args()
    pool_rate, peak_rss, pool_passed = run_pool(args.programs, args.workers)
    base_rate, base_passed = run_baseline(args.programs, args.workers)
    ratio = pool_rate / base_rate
    print(f"programs: {args.programs}, workers: {args.workers}, cpus: {os.cpu_count()}")
    print(f"pool:     {pool_rate:8.1f} programs/s ({pool_passed} passed)")
    print(f"baseline: {base_rate:8.1f} programs/s ({base_passed} passed; a new python3 per program)")
    print(f"ratio:    {ratio:8.2f}x (target {args.target}x)")
    print(f"pool peak RSS: {peak_rss / 2**20:.1f} MiB (servers + running children)")
    if pool_passed != args.programs or base_passed != args.programs:
        print("FAIL: some programs did not pass", file=sys.stderr)
        return 1
    if ratio < args.target:
        print("FAIL: below the target ratio", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
