"""Runs inside the sandbox (as ``main.py``, system Python, no debugtutor): compiles a batch of C++ or Java program
variants with as few compiler starts as it can, runs the ones that compiled on every call, prints one JSON line.

``job.json`` (written by ``harness.py``) holds the pieces. C++: one translation unit; each variant is a block in its
own namespace whose lines the compiler reports under the variant's own file name (``#line``), so a failed compile
names the variants at fault; they are dropped and the rest compiled again. Java: each variant is a package of its
own; one ``javac`` run compiles them all, variants with errors are dropped and the rest compiled again. The compiled
batch then runs every variant's calls (C++: one forked child per variant, restarted after a crash; Java: one JVM
whose worker thread is stopped when a call overruns its time, and restarted only when the thread would not stop) and
reports the calls' results in ``dt_results.txt``.
"""

from __future__ import annotations

import json
import os
import re
import resource
import subprocess
import sys
import time
from typing import Any

MARKER = "@@debugtutor-clike@@"
# 64 MB holds any recursion the stated examples need, and a recursion that never ends fills it in milliseconds; at
# 512 MB the page faults took about the per-test CPU budget, so the same program was a crash on an idle machine and
# a timeout on a loaded one, and the repair search took a different path (one development item fixed or not by load)
STACK_BYTES = 64 * 1024 * 1024
CPP_MESSAGE = re.compile(r"^(dt_[cr](\d+)):(\d+):(?:(\d+):)? (error|warning|fatal error): (.*)$")
JAVA_MESSAGE = re.compile(r"^(?:\./)?dt_c(\d+)/(Solution|DtCalls)\.java:(\d+): (error|warning): (.*)$")
GLOBAL_MESSAGE = re.compile(r"^(\S+?):(\d+):(?:(\d+):)? (error|fatal error): (.*)$")
# "dt_c3:12:9:   required from here": the variant's line that instantiated a library template
REQUIRED_FROM = re.compile(r"^(dt_[cr](\d+)):(\d+):(?:(\d+):)?\s+required from")
# "x.h: In instantiation of ...", "dt_c3: In member function ...", "In file included from ...": a new context
NEW_CONTEXT = re.compile(r"^(?:In file included from |\S+: In )")


def big_stack() -> None:
    # deep recursion is normal in these solutions; the stack only costs what it uses
    try:
        _, hard = resource.getrlimit(resource.RLIMIT_STACK)
        want = STACK_BYTES if hard == resource.RLIM_INFINITY else min(hard, STACK_BYTES)
        resource.setrlimit(resource.RLIMIT_STACK, (want, hard))
    except (ValueError, OSError):
        pass


def run(argv: list[str], timeout: float) -> tuple[int, str, float]:
    started = time.monotonic()
    try:
        done = subprocess.run(
            argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, timeout=timeout
        )
        output = done.stdout.decode("utf-8", "replace")
        code = done.returncode
    except subprocess.TimeoutExpired as expired:
        output = (expired.stdout or b"").decode("utf-8", "replace") + "\n(compiler timed out)"
        code = -1
    return code, output, time.monotonic() - started


def cpp_messages(output: str) -> tuple[dict[int, list[dict[str, Any]]], list[str]]:
    """{variant id: [message]} and the errors no variant owns."""
    owned: dict[int, list[dict[str, Any]]] = {}
    loose: list[str] = []
    current: dict[str, Any] | None = None
    # An error inside a library header belongs to the variant whose line instantiated the template (the
    # "required from" line before it): a variant writing ``s.rbegin() - 1`` on a set must fail alone, not fail
    # the whole batch as an error of no variant.
    instantiated_by: re.Match[str] | None = None
    for line in output.splitlines():
        if NEW_CONTEXT.match(line):
            instantiated_by = None
        required = REQUIRED_FROM.match(line)
        if required:
            instantiated_by = required
            continue
        found = CPP_MESSAGE.match(line)
        other = None if found else GLOBAL_MESSAGE.match(line)
        owner = found if found else instantiated_by if other else None
        if owner is not None:
            ident = int(owner.group(2))
            message = found.group(6) if found else other.group(5) if other else ""
            current = {
                "line": int(owner.group(3)),
                "column": int(owner.group(4) or 0),
                "severity": "warning" if found and found.group(5) == "warning" else "error",
                "message": message.strip(),
                "detail": "",
                "in_harness": owner.group(1).startswith("dt_r"),
            }
            owned.setdefault(ident, []).append(current)
            continue
        if other:
            loose.append(line.strip())
            current = None
            continue
        if current is not None and ": note: " in line and len(current["detail"]) < 600:
            current["detail"] += line.split(": note: ", 1)[1].strip() + "\n"
    return owned, loose


def java_messages(output: str) -> tuple[dict[int, list[dict[str, Any]]], list[str]]:
    owned: dict[int, list[dict[str, Any]]] = {}
    loose: list[str] = []
    current: dict[str, Any] | None = None
    for line in output.splitlines():
        found = JAVA_MESSAGE.match(line)
        if found:
            ident = int(found.group(1))
            current = {
                "line": int(found.group(3)),
                "column": 0,
                "severity": found.group(4),
                "message": found.group(5).strip(),
                "detail": "",
                "in_harness": found.group(2) == "DtCalls",
            }
            owned.setdefault(ident, []).append(current)
            continue
        if re.match(r"^\S+\.java:\d+: error: ", line):
            loose.append(line.strip())
            current = None
            continue
        if current is not None:
            stripped = line.strip()
            if stripped.startswith(("symbol:", "location:", "required:", "found:", "reason:")):
                current["detail"] += stripped + "\n"
            elif stripped and set(stripped) == {"^"} and not current["column"]:
                current["column"] = len(line) - len(line.lstrip()) + 1
    return owned, loose


def settle_compile(
    job: dict[str, Any],
    alive: list[int],
    messages: dict[int, list[dict[str, Any]]],
    compiled: tuple[int, str, float],
    parsed: tuple[dict[int, list[dict[str, Any]]], list[str]],
) -> tuple[bool, list[int]]:
    """Book one compile of the ``alive`` variants: its cost, each variant's first messages. Returns (done, ids):
    done with every id when it compiled, done with none when the errors name no variant of ours, else the ids to
    compile again without the ones that failed."""
    code, output, seconds = compiled
    owned, loose = parsed
    job["compile_seconds"] += seconds
    job["compiles"] += 1
    for ident, found in owned.items():
        messages.setdefault(ident, found)
    failed = {ident for ident, found in owned.items() if any(m["severity"] == "error" for m in found)}
    if code == 0:
        return True, alive
    if not failed & set(alive):
        job["loose"] = (loose or [output.strip()[-1500:]])[:20]
        return True, []
    return False, [ident for ident in alive if ident not in failed]


def compile_cpp(
    job: dict[str, Any], alive: list[int], messages: dict[int, list[dict[str, Any]]], binary: str, header: str
) -> list[int]:
    """Compile the variants in ``alive`` into ``binary`` (dropping those that fail); returns the ids that compiled."""
    rounds = 0
    while alive and rounds < job["max_rounds"]:
        rounds += 1
        parts = [job["headers"][header]]
        parts += [job["blocks"][str(ident)] for ident in alive]
        table = ", ".join(f"dt_run_{ident}" for ident in alive)
        ids = ", ".join(str(ident) for ident in alive)
        parts.append(
            f"\nstatic std::string (*dt_table[])(int) = {{{table}}};\nstatic const int dt_ids[] = {{{ids}}};\n"
        )
        parts.append(job["main"])
        with open(binary + ".cpp", "w") as handle:
            handle.write("".join(parts))
        code, output, seconds = run(job["compile"] + ["-o", binary, binary + ".cpp"], job["compile_timeout_s"])
        done, alive = settle_compile(job, alive, messages, (code, output, seconds), cpp_messages(output))
        if done:
            return alive
    return []


def compile_java(job: dict[str, Any], alive: list[int], messages: dict[int, list[dict[str, Any]]]) -> list[int]:
    os.makedirs("classes", exist_ok=True)
    for path, text in job["files"].items():
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        with open(path, "w") as handle:
            handle.write(text)
    rounds = 0
    runtime = [path for path in job["files"] if path.startswith("debugtutor_rt/")]
    while alive and rounds < job["max_rounds"]:
        rounds += 1
        sources = list(runtime)
        for ident in alive:
            sources += [f"dt_c{ident}/Solution.java", f"dt_c{ident}/DtCalls.java"]
        code, output, seconds = run(job["compile"] + ["-d", "classes"] + sources, job["compile_timeout_s"])
        done, alive = settle_compile(job, alive, messages, (code, output, seconds), java_messages(output))
        if done:
            return alive
    return []


def read_results(path: str) -> list[tuple[str, int, int, str]]:
    """(kind, variant id, test index, rest of the line) for every well-formed line of the results file."""
    records: list[tuple[str, int, int, str]] = []
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return records
    for raw in data.decode("utf-8", "replace").splitlines():
        parts = raw.split(" ", 3)
        if len(parts) < 3 or parts[0] not in ("T", "C", "E", "X", "K"):
            continue
        if not (parts[1].isdigit() and parts[2].isdigit()):
            continue
        records.append((parts[0], int(parts[1]), int(parts[2]), parts[3] if len(parts) > 3 else ""))
    return records


def stderr_head(ident: int, start: int) -> str:
    try:
        with open(f"dt_err_{ident}_{start}", "rb") as handle:
            return handle.read(600).decode("utf-8", "replace")
    except OSError:
        return ""


def run_cpp(job: dict[str, Any], binary: str, deadline: float) -> None:
    remaining = max(1.0, deadline - time.monotonic())
    job["program_starts"] += 1
    argv = ["./" + binary, str(job["tests"]), str(int(job["per_test_s"] * 1e6)), str(job["wall_per_test_s"])]
    try:
        subprocess.run(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            timeout=remaining, preexec_fn=big_stack,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        job["run_timed_out"] = True


def run_java(job: dict[str, Any], alive: list[int], deadline: float) -> None:
    start_test = 0
    queue = list(alive)
    restarts = 0
    while queue and time.monotonic() < deadline and restarts <= job["max_restarts"]:
        remaining = max(1.0, deadline - time.monotonic())
        job["program_starts"] += 1
        argv = job["java"] + [
            "-cp", "classes", "debugtutor_rt.Runner", str(job["tests"]), str(int(job["per_test_s"] * 1e6)),
            str(job["wall_per_test_s"]), str(start_test), ",".join(str(ident) for ident in queue),
        ]  # fmt: skip
        try:
            subprocess.run(
                argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=remaining
            )
        except subprocess.TimeoutExpired:
            job["run_timed_out"] = True
            return
        # where did it stop? the last variant/test with a record
        reached: dict[int, int] = {}
        for _kind, ident, test, _rest in read_results("dt_results.txt"):
            reached[ident] = max(reached.get(ident, -1), test)
        finished = [ident for ident in queue if reached.get(ident, -1) >= job["tests"] - 1]
        if len(finished) == len(queue):
            return
        position = next(i for i, ident in enumerate(queue) if reached.get(ident, -1) < job["tests"] - 1)
        current = queue[position]
        last = reached.get(current, -1)
        if position == 0 and last < start_test and restarts > 0:
            # nothing came back at all: the JVM itself could not start or load the variant
            with open("dt_results.txt", "a") as handle:
                handle.write(f"K {current} {start_test} -1 jvm\n")
            last = start_test
        queue = queue[position:]
        if last + 1 >= job["tests"]:
            queue = queue[1:]
            start_test = 0
        else:
            start_test = last + 1
        restarts += 1


def main() -> None:
    with open("job.json") as handle:
        job = json.load(handle)
    started = time.monotonic()
    deadline = started + job["deadline_s"]
    job.update(compile_seconds=0.0, compiles=0, loose=[], run_timed_out=False, program_starts=0)
    messages: dict[int, list[dict[str, Any]]] = {}
    compiled: list[int] = []
    ran_seconds = 0.0
    runs = job["tests"] > 0 and job["run"]
    if job["language"] == "cpp":
        # each group is its own translation unit (a variant whose braces do not balance gets one alone)
        for number, group in enumerate(job["groups"]):
            binary = f"dt_batch{number}"
            done = compile_cpp(job, list(group["ids"]), messages, binary, group["header"])
            compiled += done
            if done and runs and time.monotonic() < deadline:
                run_started = time.monotonic()
                run_cpp(job, binary, deadline)
                ran_seconds += time.monotonic() - run_started
    else:
        compiled = compile_java(job, list(job["ids"]), messages)
        if compiled and runs and time.monotonic() < deadline:
            run_started = time.monotonic()
            run_java(job, compiled, deadline)
            ran_seconds = time.monotonic() - run_started
    results: dict[str, dict[str, dict[str, Any]]] = {}
    for kind, ident, test, rest in read_results("dt_results.txt"):
        record = results.setdefault(str(ident), {}).setdefault(str(test), {})
        fields = rest.split(" ", 2)
        if kind == "T":
            cpu, _, actual = rest.partition(" ")
            record["cpu_s"] = int(cpu) / 1e6 if cpu.isdigit() else 0.0
            record["actual"] = actual or "null"
        elif kind == "C":
            record["covered"] = [int(x) for x in rest.split(",") if x.isdigit()]
        elif kind == "E":
            record["error"] = {
                "type": fields[0],
                "line": fields[1] if len(fields) > 1 else "",
                "message": fields[2] if len(fields) > 2 else "",
            }
        elif kind in ("X", "K") and "crash" not in record:
            record["crash"] = {
                "signal": fields[0],
                "line": fields[1] if kind == "X" and len(fields) > 1 else "",
                "stderr": stderr_head(ident, test),
            }
    report = {
        "compiled": compiled,
        "messages": {str(k): v for k, v in messages.items()},
        "loose": job["loose"],
        "results": results,
        "compile_seconds": round(job["compile_seconds"], 3),
        "compiles": job["compiles"],
        "run_seconds": round(ran_seconds, 3),
        "run_timed_out": job["run_timed_out"],
        "program_starts": job["program_starts"],
    }
    sys.stdout.write(MARKER + json.dumps(report) + "\n")


main()
