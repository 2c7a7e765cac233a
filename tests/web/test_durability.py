"""Every write the server acknowledged survives ``kill -9``: a real server, annotators posting, SIGKILL, restart."""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
import threading
import time
from pathlib import Path

import httpx
import pytest

from debugtutor.samples import sample_dir

from .conftest import Server, csrf_client

pytestmark = [pytest.mark.web, pytest.mark.slow]

ITEMS = 30
ANNOTATORS = 3


def _login(client: httpx.Client, name: str) -> None:
    response = client.post("/login", data={"name": name, "csrf_token": client.cookies["dt_csrf"]})
    assert response.status_code == 303, response.text


def test_acknowledged_writes_survive_kill_9(tmp_path: Path) -> None:
    server = Server(tmp_path / "data", tmp_path / "runs").start()
    try:
        admin = csrf_client(server.base)
        upload = "\n".join(
            json.dumps({"id": f"e{i}", "predictions": [f"p{i}", "q"], "references": [f"r{i}"]}) for i in range(ITEMS)
        )
        created = admin.post("/evaluate/new", data={"name": "durable", "csrf_token": admin.cookies["dt_csrf"]},
                             files={"predictions": ("p.jsonl", upload)})  # fmt: skip
        assert created.status_code == 303, created.text
        study = created.headers["location"]
        dialogue_file = sorted(sample_dir("socratic").glob("*.txt"))[0]
        imported = admin.post("/annotate/collections", data={"name": "d", "csrf_token": admin.cookies["dt_csrf"]},
                              files=[("files", (dialogue_file.name, dialogue_file.read_bytes()))])  # fmt: skip
        assert imported.status_code == 303
        original = dialogue_file.read_text()

        acknowledged: list[tuple[str, str, list[list[int]]]] = []
        saved_versions: list[tuple[int, str]] = []
        lock = threading.Lock()
        stop = threading.Event()

        def annotate(name: str) -> None:
            client = csrf_client(server.base)
            _login(client, name)
            try:
                for position in range(ITEMS):
                    page = client.get(f"{study}/item/{position}")
                    item_id = re.search(r'name="item_id" value="([^"]+)"', page.text)
                    assert item_id is not None
                    matches = [[0], []] if (position + len(name)) % 2 else [[], [0]]
                    form = {"item_id": item_id.group(1), "csrf_token": client.cookies["dt_csrf"]}
                    form.update({f"m-{p}-{r}": "on" for p, refs in enumerate(matches) for r in refs})
                    response = client.post(f"{study}/item/{position}", data=form)
                    if response.status_code == 303:
                        with lock:
                            acknowledged.append((name, item_id.group(1), matches))
                    if stop.is_set():
                        return
            except httpx.HTTPError:
                return  # the server is gone

        def edit() -> None:
            client = csrf_client(server.base)
            version = 1
            try:
                for n in range(1000):
                    text = original.replace("</dialogue>", f"Assistant: Question number {n}?\n</dialogue>")
                    response = client.post("/annotate/d/1/save", json={"text": text, "version": version})
                    if response.status_code != 200:
                        return
                    version = response.json()["version"]
                    with lock:
                        saved_versions.append((version, text))
                    if stop.is_set():
                        return
            except httpx.HTTPError:
                return

        workers = [threading.Thread(target=annotate, args=(f"annotator{i}",)) for i in range(ANNOTATORS)]
        workers.append(threading.Thread(target=edit))
        for worker in workers:
            worker.start()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # kill while writes are in flight, after enough were acknowledged
            with lock:
                if len(acknowledged) >= ITEMS and len(saved_versions) >= 10:
                    break
            time.sleep(0.05)
        server.stop(kill=True)
        stop.set()
        for worker in workers:
            worker.join(timeout=60)
        assert len(acknowledged) >= ITEMS and len(saved_versions) >= 10

        database = tmp_path / "data" / "debugtutor-web.sqlite3"
        with sqlite3.connect(database) as conn:  # the file as the killed server left it, before any restart
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"

        server.start()
        admin = csrf_client(server.base)
        rows = list(csv.DictReader(io.StringIO(admin.get(f"{study}/export.csv").text)))
        stored: dict[tuple[str, str], dict[int, str]] = {}
        for row in rows:
            stored.setdefault((row["annotator"], row["item"]), {})[int(row["prediction_index"])] = row[
                "matched_references"
            ]
        for name, item_id, matches in acknowledged:
            assert (name, item_id) in stored, f"acknowledged answer of {name} to {item_id} was lost"
            assert stored[(name, item_id)] == {p: " ".join(map(str, refs)) for p, refs in enumerate(matches)}
        last_version, last_text = saved_versions[-1]
        dialogue = admin.get("/annotate/d/1").text
        version = int(re.search(r'data-version="(\d+)"', dialogue).group(1))  # type: ignore[union-attr]
        assert version >= last_version
        if version == last_version:
            assert "Question number" in dialogue and last_text.split("Question number ")[1].split("?")[0] in dialogue
    finally:
        server.stop()
