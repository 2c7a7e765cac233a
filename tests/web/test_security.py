"""The web app's guards, in process: tokens off loopback, roles, CSRF, the body limit, escaping, clear import errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from debugtutor.samples import sample_dir
from debugtutor.web.app import create_app
from debugtutor.web.auth import create_user, is_loopback, revoke_user
from debugtutor.web.context import WebConfig, open_database

pytestmark = pytest.mark.web


def _client(tmp_path: Path, **settings: Any) -> TestClient:
    config = WebConfig(data_dir=tmp_path / "data", runs_dir=tmp_path / "runs", **settings)
    client = TestClient(create_app(config), base_url="http://127.0.0.1:8000")
    client.get("/login")
    return client


def _csrf(client: TestClient) -> dict[str, str]:
    return {"X-CSRF-Token": client.cookies["dt_csrf"]}


def test_only_loopback_may_go_without_tokens() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost") and is_loopback("127.0.0.5")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.10") and not is_loopback("example.org")
    assert not WebConfig(data_dir=Path("x")).tokens_required
    assert WebConfig(data_dir=Path("x"), host="0.0.0.0").tokens_required
    assert WebConfig(data_dir=Path("x"), require_tokens=True).tokens_required


def test_public_bind_without_users_is_refused(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "debugtutor.cli.main", "serve", "--host", "0.0.0.0", "--data-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 2
    assert "needs per-user tokens" in result.stderr and "web-users add" in result.stderr


def test_users_cli_prints_a_token_once_and_revokes(tmp_path: Path) -> None:
    def cli(*args: str) -> dict[str, Any]:
        command = [
            sys.executable,
            "-m",
            "debugtutor.cli.main",
            "web-users",
            *args,
            "--data-dir",
            str(tmp_path),
            "--json",
        ]
        out = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)
        return dict(json.loads(out.stdout))

    added = cli("add", "alice", "--role", "admin")
    assert added["token"].startswith("dt_") and added["role"] == "admin"
    listed = cli("list")
    assert listed["users"][0]["name"] == "alice" and added["token"] not in json.dumps(listed)
    assert cli("revoke", "alice") == {"name": "alice", "revoked": True}


def test_tokens_roles_and_logout(tmp_path: Path) -> None:
    client = _client(tmp_path, require_tokens=True)
    db = open_database(WebConfig(data_dir=tmp_path / "data"))
    annotator, admin = create_user(db, "ann", "annotator"), create_user(db, "boss", "admin")

    page = client.get("/annotate", follow_redirects=False)
    assert page.status_code == 303 and page.headers["location"] == "/login?next=/annotate"
    assert client.post("/annotate/validate", json={"text": "", "name": "x"}, headers=_csrf(client)).status_code == 401
    bad = client.post("/login", data={"token": "dt_wrong", "csrf_token": client.cookies["dt_csrf"]})
    assert bad.status_code == 401 and "unknown or revoked token" in bad.text
    # a name alone is not enough when tokens are required
    assert client.post("/login", data={"name": "ann", "csrf_token": client.cookies["dt_csrf"]}).status_code == 401

    login = client.post("/login", data={"token": annotator, "csrf_token": client.cookies["dt_csrf"], "next": "/rate"},
                        follow_redirects=False)  # fmt: skip
    assert login.status_code == 303 and login.headers["location"] == "/rate"
    assert client.get("/evaluate").status_code == 200
    refused = client.post("/evaluate/new", data={"name": "x", "csrf_token": client.cookies["dt_csrf"]})
    assert refused.status_code == 403 and "only an admin" in refused.text
    assert client.get("/evaluate/1/results").status_code == 403

    revoke_user(db, "ann")
    assert client.get("/evaluate", follow_redirects=False).status_code == 303  # the session ended with the token

    client.post("/login", data={"token": admin, "csrf_token": client.cookies["dt_csrf"]})
    upload = "\n".join(json.dumps({"id": f"e{i}", "predictions": ["a"], "references": ["b"]}) for i in range(2))
    created = client.post("/evaluate/new", data={"name": "admin study", "csrf_token": client.cookies["dt_csrf"]},
                          files={"predictions": ("p.jsonl", upload)}, follow_redirects=False)  # fmt: skip
    assert created.status_code == 303
    assert client.get(created.headers["location"] + "/results").status_code == 200
    client.post("/logout", data={"csrf_token": client.cookies["dt_csrf"]})
    assert client.get("/evaluate", follow_redirects=False).status_code == 303


def test_csrf_origin_and_body_limit(tmp_path: Path) -> None:
    client = _client(tmp_path, max_upload_bytes=4096)
    body = {"text": "x", "name": "0_0_a_socratic_dialogue"}
    assert client.post("/annotate/validate", json=body).status_code == 403
    assert client.post("/annotate/validate", json=body, headers={"X-CSRF-Token": "forged"}).status_code == 403
    foreign = {**_csrf(client), "Origin": "http://evil.example"}
    assert client.post("/annotate/validate", json=body, headers=foreign).status_code == 403
    ok = client.post("/annotate/validate", json=body, headers=_csrf(client))
    assert ok.status_code == 200 and ok.json()["ok"] is False
    form = client.post("/annotate/collections", data={"name": "no token"})
    assert form.status_code == 403 and "security token" in form.text
    big = client.post("/annotate/validate", json={**body, "text": "x" * 10_000}, headers=_csrf(client))
    assert big.status_code == 413 and "4 KiB" in big.json()["detail"]
    page = client.get("/")
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-frame-options"] == "SAMEORIGIN"


def test_malformed_upload_names_the_line_and_leaves_nothing(tmp_path: Path) -> None:
    client = _client(tmp_path)
    good = sorted(sample_dir("socratic").glob("*.txt"))[0]
    lines = good.read_text().split("\n")
    bad_line = next(i for i, line in enumerate(lines) if line.startswith("Assistant:")) + 1
    lines[bad_line - 1] = "Tutor: hello"
    response = client.post(
        "/annotate/collections",
        data={"name": "broken", "csrf_token": client.cookies["dt_csrf"]},
        files=[
            ("files", (good.name, good.read_bytes())),
            ("files", ("5_5_bad_socratic_dialogue.txt", "\n".join(lines))),
        ],
    )
    assert response.status_code == 400
    assert f"5_5_bad_socratic_dialogue.txt:{bad_line}: unexpected line" in response.text
    assert "broken" not in client.get("/annotate").text
    upload = '{"id": "a", "predictions": [], "references": []}\nnope'
    jsonl = client.post("/evaluate/new", data={"name": "s", "csrf_token": client.cookies["dt_csrf"]},
                        files={"predictions": ("p.jsonl", upload)})  # fmt: skip
    assert jsonl.status_code == 400 and "p.jsonl:2: not a JSON object" in jsonl.text


def test_user_text_is_escaped(tmp_path: Path) -> None:
    client = _client(tmp_path)
    text = sorted(sample_dir("socratic").glob("*.txt"))[0].read_text()
    text = text.replace("<problem>\n", "<problem>\n<script>alert('x')</script>\n", 1)
    created = client.post("/annotate/collections", data={"name": "xss", "csrf_token": client.cookies["dt_csrf"]},
                          files=[("files", ("0_0_x_socratic_dialogue.txt", text))], follow_redirects=False)  # fmt: skip
    collection = client.get(created.headers["location"]).text
    assert "<script>alert" not in collection and "&lt;script&gt;alert" in collection
    editor = client.get("/annotate/d/1").text
    assert "<script>alert" not in editor and "&lt;script&gt;alert(&#39;x&#39;)" in editor
