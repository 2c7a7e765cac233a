"""The web app under load: page loads, tutor round trips (offline instructor) and "Run tests" at p50/p95 with N
concurrent browser-like clients, and a check that no acknowledged write was lost.

A real ``debugtutor serve`` runs on a free loopback port with a fresh data folder. Each client signs in under its own
name, starts a tutoring session on a built-in problem, and then, for a fixed number of rounds, does what a person
at the app does: loads the pages (the HTML and the stylesheet and script a browser would fetch, the tutor page with
CodeMirror too), writes to the tutor (every third message comes with an edit of the code, so the tutor re-diagnoses
it through the analysis engine and the sandbox), runs the tests, and labels one item of a shared manual evaluation
study. Every write the server acknowledged is then looked up: every label in the study's export, every tutor turn
in the session. The figures are wall times seen by the clients, on this machine, with everything on loopback.

    python bench/web_load.py [--clients 20] [--rounds 6] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import io
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

PAGES = ["/", "/tutor", "/annotate", "/evaluate", "/rate", "/runs"]
ASSETS = ["/static/app.css", "/static/app.js"]
EDITOR_ASSETS = ["/static/vendor/codemirror-5.65.21/codemirror.js", "/static/vendor/codemirror-5.65.21/codemirror.css"]
BUGGY = (
    "def sum_evens(numbers):\n    total = 0\n    for n in numbers:\n        if n % 2 == 1:\n            total += n\n"
    "    return total"
)


@dataclass
class Timings:
    page: list[float] = field(default_factory=list)
    page_html: list[float] = field(default_factory=list)
    tutor: list[float] = field(default_factory=list)
    tutor_edit: list[float] = field(default_factory=list)
    run_tests: list[float] = field(default_factory=list)
    label: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    position = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[position]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def timed(client: httpx.AsyncClient, method: str, url: str, **kwargs: object) -> tuple[float, httpx.Response]:
    started = time.perf_counter()
    response = await client.request(method, url, **kwargs)  # type: ignore[arg-type]
    return time.perf_counter() - started, response


async def new_client(base: str, name: str) -> httpx.AsyncClient:
    client = httpx.AsyncClient(base_url=base, timeout=120, follow_redirects=False)
    await client.get("/login")
    token = client.cookies["dt_csrf"]
    await client.post("/login", data={"name": name, "csrf_token": token})
    client.headers["X-CSRF-Token"] = token
    return client


async def load_page(client: httpx.AsyncClient, path: str, assets: list[str], timings: Timings) -> str:
    """The HTML, then its assets as a browser fetches them (in parallel, six at a time at most)."""
    started = time.perf_counter()
    response = await client.get(path)
    html_done = time.perf_counter()
    if response.status_code != 200:
        timings.errors.append(f"GET {path}: {response.status_code}")
    await asyncio.gather(*(client.get(asset) for asset in assets))
    timings.page_html.append(html_done - started)
    timings.page.append(time.perf_counter() - started)
    return response.text


async def person(base: str, index: int, rounds: int, study: str, items: int, timings: Timings) -> dict[str, object]:
    client = await new_client(base, f"client{index}")
    csrf = client.headers["X-CSRF-Token"]
    created = await client.post(
        "/tutor/new", data={"builtin": "0_0_sum_of_evens_socratic_dialogue", "model": "offline", "csrf_token": csrf}
    )
    session = created.headers["location"]
    said = 0
    labelled: list[tuple[str, list[int]]] = []
    code = BUGGY
    for round_index in range(rounds):
        for path in PAGES:
            await load_page(client, path, ASSETS, timings)
        await load_page(client, session, ASSETS + EDITOR_ASSETS, timings)
        edit = round_index % 3 == 2
        if edit:  # a visible edit: the tutor re-runs the tests and the analysis on it
            code = code + "\n# tried something" if not code.endswith("something") else BUGGY
        elapsed, response = await timed(client, "POST", f"{session}/say", json={"text": f"attempt {round_index}",
                                                                                 "code": code})  # fmt: skip
        if response.status_code == 200:
            said += 1
            (timings.tutor_edit if edit else timings.tutor).append(elapsed)
        else:
            timings.errors.append(f"say: {response.status_code} {response.text[:120]}")
        elapsed, response = await timed(client, "POST", f"{session}/run", json={"code": code})
        timings.run_tests.append(elapsed) if response.status_code == 200 else timings.errors.append("run")
        position = (index * rounds + round_index) % items
        page = await client.get(f"{study}/item/{position}")
        found = re.search(r'name="item_id" value="([^"]+)"', page.text)
        if found is None:
            timings.errors.append(f"item page {position}: {page.status_code}")
            continue
        matches = [0] if (index + round_index) % 2 else []
        form = {"item_id": found.group(1), "csrf_token": csrf, **{f"m-0-{r}": "on" for r in matches}}
        elapsed, response = await timed(client, "POST", f"{study}/item/{position}", data=form)
        if response.status_code == 303:
            labelled.append((found.group(1), matches))
            timings.label.append(elapsed)
        else:
            timings.errors.append(f"label: {response.status_code}")
    record = await client.get(session)
    await client.aclose()
    return {"name": f"client{index}", "said": said, "labelled": labelled, "session_html": record.text}


def start_server(data_dir: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    command = [sys.executable, "-m", "debugtutor.cli.main", "serve", "--data-dir", str(data_dir), "--port", str(port),
               "--runs-dir", str(data_dir / "runs")]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                return process, base
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start")


async def run(base: str, clients: int, rounds: int) -> tuple[Timings, list[dict[str, object]], str, float]:
    admin = await new_client(base, "admin")
    items = clients * rounds
    upload = "\n".join(json.dumps({"id": f"e{i}", "predictions": [f"p{i}"], "references": [f"r{i}"]})
                       for i in range(items))  # fmt: skip
    created = await admin.post("/evaluate/new", data={"name": "load", "csrf_token": admin.headers["X-CSRF-Token"]},
                               files={"predictions": ("load.jsonl", upload)})  # fmt: skip
    study = created.headers["location"]
    timings = Timings()
    started = time.perf_counter()
    people = await asyncio.gather(*(person(base, i, rounds, study, items, timings) for i in range(clients)))
    wall = time.perf_counter() - started
    export = (await admin.get(f"{study}/export.csv")).text
    await admin.aclose()
    return timings, list(people), export, wall


def lost_writes(people: list[dict[str, object]], export: str) -> dict[str, int]:
    stored = {(row["annotator"], row["item"]): row["matched_references"] for row in csv.DictReader(io.StringIO(export))}
    labels_lost = 0
    labels = 0
    turns_lost = 0
    for someone in people:
        for item_id, matches in someone["labelled"]:  # type: ignore[attr-defined]
            labels += 1
            if stored.get((someone["name"], item_id)) != " ".join(map(str, matches)):
                labels_lost += 1
        shown = str(someone["session_html"]).count('class="msg student"')
        turns_lost += max(0, int(someone["said"]) - shown)  # type: ignore[call-overload]
    return {"labels_acknowledged": labels, "labels_lost": labels_lost, "tutor_turns_lost": turns_lost}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=6, help="Rounds per client; every third message edits the code.")
    parser.add_argument("--json", action="store_true", help="Print one JSON object instead of a table.")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="web-load-"))
    process, base = start_server(folder / "data")
    try:
        timings, people, export, wall = asyncio.run(run(base, args.clients, args.rounds))
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
        shutil.rmtree(folder, ignore_errors=True)
    writes = lost_writes(people, export)
    figures = {
        name: {"n": len(values), "p50_ms": round(1000 * percentile(values, 0.5), 1),
               "p95_ms": round(1000 * percentile(values, 0.95), 1)}
        for name, values in [("page_load_html_and_assets", timings.page), ("page_html_only", timings.page_html),
                             ("tutor_round_trip", timings.tutor), ("tutor_round_trip_after_edit", timings.tutor_edit),
                             ("run_tests", timings.run_tests), ("label_write", timings.label)]
    }  # fmt: skip
    result = {"clients": args.clients, "rounds": args.rounds, "wall_s": round(wall, 1), "cpus": os.cpu_count(),
              "figures": figures, "writes": writes, "errors": timings.errors[:10],
              "error_count": len(timings.errors)}  # fmt: skip
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{args.clients} clients x {args.rounds} rounds in {wall:.1f} s on {os.cpu_count()} CPUs (loopback)")
        print(f"{'request':<30} {'n':>5} {'p50 ms':>9} {'p95 ms':>9}")
        for name, figure in figures.items():
            print(f"{name:<30} {figure['n']:>5} {figure['p50_ms']:>9} {figure['p95_ms']:>9}")
        print(f"writes: {writes}; errors: {len(timings.errors)} {timings.errors[:3]}")
    lost = writes["labels_lost"] + writes["tutor_turns_lost"]
    sys.exit(1 if lost or timings.errors else 0)


if __name__ == "__main__":
    main()
