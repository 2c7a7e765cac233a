"""Generative evaluation: the gallery, the proxy score, and expert ratings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from debugtutor.errors import InputError
from debugtutor.maze import parse_compact
from debugtutor.studentsyn import (
    BehaviourEdits,
    Question,
    TaskFamily,
    brief_of,
    proxy_score,
    score_ratings,
    sheets_of,
    write_gallery,
)
from debugtutor.studentsyn.generative import Rating, proxy_summary, read_ratings


def family(families: list[TaskFamily], reference: str) -> TaskFamily:
    return next(f for f in families if f.reference == reference)


def test_gallery_has_pictures_codes_and_scenarios(sample_families: list[TaskFamily], tmp_path: Path) -> None:
    loop = family(sample_families, "loop")
    edits = BehaviourEdits()
    edits.prepare(brief_of(loop))
    sheets = sheets_of(loop)
    scenarios = write_gallery(
        [loop],
        lambda fam, code, target, k: edits.synthesize(Question(sheets[fam.reference], code, sheets[target], ()), k),
        tmp_path,
        technique="behaviour-edits",
        students=["stu1"],
    )
    assert [s.id for s in scenarios] == ["loop-stu1-loopa", "loop-stu1-loopb"]
    assert all(len(s.synthesized) == 3 and len(s.proxy) == 3 for s in scenarios)
    html = (tmp_path / "index.html").read_text()
    assert 'src="loop-stu1-loopa/synth3.svg"' in html and "4-point" in html
    assert (tmp_path / "loop-stu1-loopa" / "reference.svg").stat().st_size > 500
    rows = [json.loads(line) for line in (tmp_path / "scenarios.jsonl").read_text().splitlines()]
    assert rows[0]["technique"] == "behaviour-edits"
    summary = proxy_summary(scenarios)
    assert 0.0 <= summary["proxy_top1"] <= 1.0 and summary["empty"] == 0


def test_proxy_prefers_the_students_own_misconception(sample_families: list[TaskFamily]) -> None:
    walk = family(sample_families, "walk")
    code_a = next(a.program for a in walk.students if a.task == "walk" and a.behaviour == 4)  # extra moves
    target = walk.solutions["walka"]
    stretched = parse_compact(" ".join("M M" if t == "M" else t for t in ["M", "L", "M", "M", "R", "M", "M", "M"]))
    assert proxy_score(walk, code_a, "walka", stretched) > proxy_score(walk, code_a, "walka", target)


def test_ratings_are_scored_and_validated(tmp_path: Path) -> None:
    ratings = [
        Rating(scenario="walk-stu1-walka", rank=r, rater=who, score=s, technique="behaviour-edits")
        for r, who, s in [(1, "a", 4), (2, "a", 2), (1, "b", 3)]
    ]
    scores = score_ratings(ratings)
    assert scores["overall"] == {"n": 3, "mean": 3.0, "good_share": round(2 / 3, 3)}
    assert scores["rank"]["1"]["mean"] == 3.5
    bad = tmp_path / "ratings.jsonl"
    bad.write_text(
        '{"scenario": "x", "rank": 1, "rater": "a", "score": 3}\n{"scenario": "x", "rank": 1, '
        '"rater": "a", "score": 7}\n'
    )
    with pytest.raises(InputError) as error:
        read_ratings(bad)
    assert f"{bad}:2" in str(error.value) and "score" in str(error.value)
