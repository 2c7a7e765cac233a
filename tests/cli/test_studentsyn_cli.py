"""``debugtutor studentsyn``: eval, generate and rate on the built-in sample, with --json."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

from debugtutor.cli import main as cli_main


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        cli_main.main(args)
        code = 0
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_eval_prints_one_json_object(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run_cli(
        [
            "studentsyn",
            "eval",
            "--technique",
            "behaviour-edits",
            "--rounds",
            "2",
            "--samples",
            "2",
            "--runs-dir",
            str(tmp_path),
            "--json",
        ],
        capsys,
    )
    assert code == 0
    payload = json.loads(out)
    walk = payload["techniques"]["behaviour-edits"]["walk"]
    assert len(walk["rounds"]) == 2 and walk["instances_per_round"] == 2 * 2 * 6
    assert 0 <= walk["mean"] <= 100
    assert Path(payload["runs"]["behaviour-edits"]).is_dir()
    # RandD on the same instances stands beside it; the sample has no expert answers.
    assert payload["techniques"]["randd"]["walk"]["instances_per_round"] == walk["instances_per_round"]
    assert payload["tutorss"] == {}
    assert payload["display_names"]["behaviour-edits"] == "Behaviour edits (ours)"


@pytest.mark.slow
@pytest.mark.hf
def test_eval_all_adds_significance(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from debugtutor.studentsyn import neurss

    # NeurSS trains on first use: keep the run small and its weights out of the user's cache.
    monkeypatch.setenv("DEBUGTUTOR_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(
        neurss, "NeurSSConfig", functools.partial(neurss.NeurSSConfig, synthetic_tasks=8, groups=200, steps=40)
    )
    code, out, _ = run_cli(
        [
            "studentsyn",
            "eval",
            "--technique",
            "all",
            "--rounds",
            "2",
            "--samples",
            "2",
            "--reference",
            "walk",
            "--json",
        ],
        capsys,
    )
    assert code == 0
    payload = json.loads(out)
    assert set(payload["techniques"]) == {
        "randd",
        "editd",
        "editembd",
        "symss-original",
        "behaviour-edits",
        "behaviour-edits-oracle-type",
        "neurss",
    }
    assert list((tmp_path / "neurss").glob("*.pt"))
    assert payload["significance"][0]["reference"] == "walk"


def test_eval_holding_out_each_target(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(
        [
            "studentsyn",
            "eval",
            "-t",
            "behaviour-edits",
            "--holdout",
            "target",
            "--rounds",
            "1",
            "--samples",
            "2",
            "--json",
        ],
        capsys,
    )
    assert code == 0
    result = json.loads(out)["techniques"]["behaviour-edits"]
    held = {h["target"]: h for h in result["targets"]}
    assert set(held) == {"walka", "walkb", "loopa", "loopb"}
    assert held["walka"]["tuned_on"] == ["walkb"] and held["loopb"]["tuned_on"] == ["loopa"]
    assert set(result["references"]) == {"walk", "loop"} and set(result["worst"]) == {"walk", "loop"}
    code, _, err = run_cli(["studentsyn", "eval", "-t", "randd", "--holdout", "student", "--json"], capsys)
    assert code == 2 and "holdout" in err


def test_eval_holding_out_tasks_both_ways(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["studentsyn", "eval", "-t", "symss-original", "--holdout", "tasks", "--rounds", "1", "--samples", "1"]
    code, out, _ = run_cli([*args, "--reference", "loop", "--json"], capsys)
    assert code == 0
    payload = json.loads(out)
    result = payload["techniques"]["symss-original"]
    assert {(d["observed"], d["target"]) for d in result["directions"]} == {
        (a, b) for a in ("loop", "loopa", "loopb") for b in ("loop", "loopa", "loopb") if a != b
    }
    assert result["worst"]["mean"] == min(d["mean"] for d in result["directions"])
    assert set(result["targets"]["loop"]) == {"loop", "loopa", "loopb"}
    assert "randd" in payload["techniques"]
    code, out, _ = run_cli([*args, "--reference", "loop"], capsys)
    assert code == 0 and "WORST" in out and "SymSS" in out


def test_eval_shows_the_experts_scored_from_their_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from tests.studentsyn.test_tutorss import CODES, RESPONSES

    folder = tmp_path / "tutorSS" / "walk"
    folder.mkdir(parents=True)
    (folder / "codes_walk.tsv").write_text(CODES, encoding="utf-8")
    (folder / "res_discriminative_walk.tsv").write_text(RESPONSES, encoding="utf-8")
    args = ["studentsyn", "eval", "-t", "editd", "--reference", "walk", "--rounds", "1", "--samples", "1"]
    code, out, _ = run_cli(
        [*args, "--runs-dir", str(tmp_path / "runs"), "--tutorss", str(tmp_path / "tutorSS")], capsys
    )
    assert code == 0 and "TutorSS2" in out and "macro" in out


@pytest.mark.slow
@pytest.mark.hf
def test_generate_with_neurss(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from debugtutor.studentsyn import neurss

    monkeypatch.setenv("DEBUGTUTOR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(
        neurss, "NeurSSConfig", functools.partial(neurss.NeurSSConfig, synthetic_tasks=8, groups=200, steps=40)
    )
    gallery = tmp_path / "gallery"
    args = ["studentsyn", "generate", "-t", "neurss", "--reference", "loop", "--student", "stu2"]
    code, out, _ = run_cli([*args, "--out", str(gallery), "--no-pictures", "--json"], capsys)
    assert code == 0
    payload = json.loads(out)
    assert payload["technique"] == "neurss" and payload["proxy"]["scenarios"] == 2
    scenarios = [json.loads(line) for line in (gallery / "scenarios.jsonl").read_text().splitlines()]
    assert all(len(s["synthesized"]) == 3 for s in scenarios)


def test_unknown_technique_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["studentsyn", "eval", "--technique", "magic", "--json"], capsys)
    assert code == 2 and "magic" in err


def test_generate_then_rate(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    gallery = tmp_path / "gallery"
    code, out, _ = run_cli(
        [
            "studentsyn",
            "generate",
            "--technique",
            "behaviour-edits",
            "--reference",
            "walk",
            "--student",
            "stu4",
            "--out",
            str(gallery),
            "--json",
        ],
        capsys,
    )
    assert code == 0
    payload = json.loads(out)
    assert payload["proxy"]["scenarios"] == 2 and payload["latency_ms"]["p95"] < 1000
    assert (gallery / "index.html").is_file()
    ratings = tmp_path / "ratings.jsonl"
    ratings.write_text(
        '{"scenario": "walk-stu4-walka", "rank": 1, "rater": "r1", "score": 4}\n'
        '{"scenario": "walk-stu4-walkb", "rank": 2, "rater": "r1", "score": 2}\n'
    )
    code, out, _ = run_cli(
        ["studentsyn", "rate", "--ratings", str(ratings), "--gallery", str(gallery), "--json"], capsys
    )
    assert code == 0
    scores = json.loads(out)
    assert scores["overall"]["mean"] == 3.0 and "behaviour-edits" in scores["technique"]
    ratings.write_text('{"scenario": "nope", "rank": 1, "rater": "r1", "score": 4}\n')
    code, _, err = run_cli(["studentsyn", "rate", "--ratings", str(ratings), "--gallery", str(gallery)], capsys)
    assert code == 2 and "nope" in err
