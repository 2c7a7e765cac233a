"""Generative evaluation: a gallery of synthesized attempts for expert rating, the ratings, and an automatic proxy.

``write_gallery`` synthesizes each scenario's top-k codes (scenario = a reference-task student and a target task)
and writes ``index.html`` with pictures (SVG files beside it, referenced relatively) of the reference task with the
student's attempt, the target task, and each synthesized code running on the target, plus ``scenarios.jsonl``.
Experts rate each code on the paper's 4-point scale (1 = does not match the student's behaviour at all ... 4 = exactly
what this student would write); ``score_ratings`` reads their JSONL and computes the scores.

The proxy score needs no expert: it compares misconception features of the student's reference attempt (relative to
the reference solution) with those of the synthesized code (relative to the target's solution) and checks that the
code keeps the target's structure. It is a sanity signal, not a substitute for ratings.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, cast

import jinja2
from pydantic import BaseModel, Field, ValidationError

from debugtutor.console import progress
from debugtutor.errors import InputError
from debugtutor.formats.jsonl import read_jsonl
from debugtutor.maze import (
    IfElse,
    MazeTask,
    Move,
    Program,
    RepeatUntilGoal,
    TurnLeft,
    TurnRight,
    compact,
    execute,
    program_size,
    render_svg,
)
from debugtutor.studentsyn.dataset import TaskFamily

RATING_SCALE = {1: "not this student's behaviour", 2: "some of it", 3: "mostly", 4: "exactly this student"}
Synthesizer = Callable[[TaskFamily, Program, str, int], list[Program]]


class Scenario(BaseModel):
    """One generative scenario: a student seen on the reference task, asked about on a target task."""

    id: str
    reference: str
    target: str
    student: str
    behaviour: int
    behaviour_text: str
    code_a: str
    ground_truth: str | None = None
    synthesized: list[str] = Field(default_factory=list)
    proxy: list[float] = Field(default_factory=list)
    ground_truth_proxy: float | None = None


class Rating(BaseModel):
    """One expert's rating of one synthesized code (``rank`` 1 = the technique's best)."""

    scenario: str
    rank: int = Field(ge=1)
    rater: str
    score: int = Field(ge=1, le=4)
    technique: str | None = None


def _walk(body: Sequence[object]) -> list[object]:
    out: list[object] = []
    for stmt in body:
        out.append(stmt)
        if isinstance(stmt, RepeatUntilGoal):
            out.extend(_walk(stmt.body))
        elif isinstance(stmt, IfElse):
            out.extend(_walk(stmt.then_body) + _walk(stmt.else_body))
    return out


def misconception_features(task: MazeTask, solution: Program, code: Program) -> dict[str, object]:
    """Features of a code relative to its task's solution that the behaviour types leave their marks on."""
    stmts, reference = _walk(code.body), _walk(solution.body)
    ratio = program_size(code) / max(program_size(solution), 1)
    turns = [s for s in stmts if isinstance(s, (TurnLeft, TurnRight))]
    moves = [s for s in stmts if isinstance(s, Move)]
    flat = [type(s).__name__ for s in stmts]
    return {
        "outcome": execute(task, code).outcome,
        "keeps_loop": any(isinstance(s, RepeatUntilGoal) for s in stmts)
        == any(isinstance(s, RepeatUntilGoal) for s in reference),
        "keeps_ifelse": any(isinstance(s, IfElse) for s in stmts) == any(isinstance(s, IfElse) for s in reference),
        "size": "shorter" if ratio < 0.85 else "same" if ratio <= 1.2 else "longer" if ratio <= 2.5 else "much longer",
        "repeated_turns": any(
            a in ("TurnLeft", "TurnRight") and b in ("TurnLeft", "TurnRight") for a, b in itertools.pairwise(flat)
        ),
        "same_branches": any(isinstance(s, IfElse) and s.then_body == s.else_body for s in stmts),
        "more_moves": len(moves) > sum(isinstance(s, Move) for s in reference),
        "fewer_turns": len(turns) < sum(isinstance(s, (TurnLeft, TurnRight)) for s in reference),
    }


def proxy_score(family: TaskFamily, code_a: Program, target: str, code: Program) -> float:
    """Share of the reference attempt's misconception features the code shows on ``target`` (0..1), averaged with
    whether it stays within the target's block vocabulary and size range."""
    observed = misconception_features(family.tasks[family.reference], family.solutions[family.reference], code_a)
    produced = misconception_features(family.tasks[target], family.solutions[target], code)
    behaviour = sum(observed[k] == produced[k] for k in observed) / len(observed)
    allowed = {type(s).__name__ for s in _walk(family.solutions[target].body) + _walk(code_a.body)}
    allowed |= {"Move", "TurnLeft", "TurnRight"}
    kinds_ok = {type(s).__name__ for s in _walk(code.body)} <= allowed
    size_ok = program_size(code) <= 3 * max(program_size(family.solutions[target]), program_size(code_a))
    return round(0.5 * behaviour + 0.25 * kinds_ok + 0.25 * size_ok, 4)


def scenarios_of(family: TaskFamily, students: Sequence[str] | None = None) -> list[tuple[str, int, Program, str]]:
    """(student, behaviour, reference attempt, target) for every reference-task student and target task."""
    chosen = [a for a in family.students if a.task == family.reference and (not students or a.student in students)]
    return [(a.student, a.behaviour, a.program, target) for a in chosen for target in family.targets]


_TEMPLATE = jinja2.Template(
    """<!doctype html><html><head><meta charset="utf-8"><title>StudentSyn gallery: {{ technique }}</title>
<style>body{font-family:sans-serif;margin:2em}section{border-top:1px solid #ccc;padding:1em 0}
figure{display:inline-block;margin:0 1em 1em 0;vertical-align:top}img{width:260px}
pre{background:#f6f6f6;padding:.4em;max-width:260px;white-space:pre-wrap}</style></head><body>
<h1>Synthesized student attempts: {{ technique }}</h1>
<p>Rate each synthesized code on a 4-point scale:
{% for k, v in scale.items() %}<b>{{ k }}</b> = {{ v }}{% if not loop.last %}, {% endif %}{% endfor %}.
Record one JSON line per code: <code>{"scenario": "...", "rank": 1, "rater": "you", "score": 3}</code>,
then run <code>debugtutor studentsyn rate --ratings FILE.jsonl --gallery THIS_FOLDER</code>.</p>
{% for s in scenarios %}<section id="{{ s.id }}"><h2>{{ s.id }}</h2>
<p>Behaviour (hidden from the technique when it infers the type): {{ s.behaviour_text }}</p>
<figure><img src="{{ s.id }}/reference.svg" alt="reference task with the student's attempt"><figcaption>reference
{{ s.reference }}, the student's attempt</figcaption><pre>{{ s.code_a }}</pre></figure>
<figure><img src="{{ s.id }}/target.svg" alt="target task"><figcaption>target {{ s.target }}</figcaption>
</figure>{% for code in s.synthesized %}<figure>
<img src="{{ s.id }}/synth{{ loop.index }}.svg" alt="synthesized code {{ loop.index }}">
<figcaption>rank {{ loop.index }} (proxy {{ s.proxy[loop.index0] }})</figcaption><pre>{{ code }}</pre>
</figure>{% endfor %}
{% if not s.synthesized %}<p>(the technique produced no code)</p>{% endif %}</section>{% endfor %}
</body></html>""",
    autoescape=True,
)


def write_gallery(
    families: Sequence[TaskFamily],
    synthesize: Synthesizer,
    out_dir: Path,
    *,
    technique: str,
    top_k: int = 3,
    students: Sequence[str] | None = None,
    pictures: bool = True,
) -> list[Scenario]:
    """Synthesize every scenario's top-k codes and write the HTML gallery; returns the scenarios."""
    out_dir.mkdir(parents=True, exist_ok=True)
    scenarios: list[Scenario] = []
    work = [(family, item) for family in families for item in scenarios_of(family, students)]
    with progress(f"synthesizing ({technique})", len(work)) as bar:
        for family, (student, behaviour, code_a, target) in work:
            codes = synthesize(family, code_a, target, top_k)
            truth = family.attempt_of(student, target)
            scenario = Scenario(
                id=f"{family.reference}-{student}-{target}",
                reference=family.reference,
                target=target,
                student=student,
                behaviour=behaviour,
                behaviour_text=family.behaviours[behaviour].description if behaviour in family.behaviours else "",
                code_a=compact(code_a),
                ground_truth=compact(truth.program) if truth else None,
                synthesized=[compact(code) for code in codes],
                proxy=[proxy_score(family, code_a, target, code) for code in codes],
                ground_truth_proxy=proxy_score(family, code_a, target, truth.program) if truth else None,
            )
            if pictures:
                draw = cast("Callable[..., Path]", render_svg)  # maze's typing of it is not visible to mypy here
                folder = out_dir / scenario.id
                draw(family.tasks[family.reference], program=code_a, out=folder / "reference.svg")
                draw(family.tasks[target], out=folder / "target.svg")
                for rank, code in enumerate(codes, start=1):
                    draw(family.tasks[target], program=code, out=folder / f"synth{rank}.svg")
            scenarios.append(scenario)
            bar.advance()
    rendered = _TEMPLATE.render(technique=technique, scenarios=scenarios, scale=RATING_SCALE)
    (out_dir / "index.html").write_text(rendered, encoding="utf-8")
    with (out_dir / "scenarios.jsonl").open("w", encoding="utf-8") as handle:
        for scenario in scenarios:
            handle.write(json.dumps({**scenario.model_dump(), "technique": technique}) + "\n")
    return scenarios


def proxy_summary(scenarios: Sequence[Scenario]) -> dict[str, Any]:
    """Mean proxy of the top-1 code, of all top-k codes, and of the real students' attempts (a ceiling)."""
    top1 = [s.proxy[0] for s in scenarios if s.proxy]
    every = [p for s in scenarios for p in s.proxy]
    truth = [s.ground_truth_proxy for s in scenarios if s.ground_truth_proxy is not None]
    return {
        "scenarios": len(scenarios),
        "proxy_top1": round(sum(top1) / len(top1), 4) if top1 else None,
        "proxy_topk": round(sum(every) / len(every), 4) if every else None,
        "proxy_real_students": round(sum(truth) / len(truth), 4) if truth else None,
        "empty": sum(1 for s in scenarios if not s.synthesized),
    }


def read_ratings(path: Path) -> list[Rating]:
    if not path.is_file():
        raise InputError("ratings file not found", path=str(path))
    ratings = []
    for number, row in read_jsonl(path):
        try:
            ratings.append(Rating.model_validate(row))
        except ValidationError as exc:
            error = exc.errors()[0]
            field = ".".join(str(part) for part in error["loc"]) or None
            raise InputError(error["msg"], path=str(path), line=number, field=field) from exc
    return ratings


def score_ratings(ratings: Sequence[Rating], scenarios: Sequence[Scenario] | None = None) -> dict[str, Any]:
    """Mean rating and share rated 3 or 4 (overall, per technique, per reference task, per rank, per rater)."""
    if not ratings:
        raise InputError("no ratings to score", field="ratings")
    known = {s.id: s for s in scenarios} if scenarios is not None else None
    groups: dict[str, dict[str, list[int]]] = {"technique": {}, "reference": {}, "rank": {}, "rater": {}}
    for rating in ratings:
        if known is not None and rating.scenario not in known:
            raise InputError(f"unknown scenario '{rating.scenario}'", field="scenario", hint="see scenarios.jsonl")
        reference = known[rating.scenario].reference if known else rating.scenario.split("-", 1)[0]
        for key, value in (
            ("technique", rating.technique or "?"),
            ("reference", reference),
            ("rank", str(rating.rank)),
            ("rater", rating.rater),
        ):
            groups[key].setdefault(value, []).append(rating.score)

    def stats(scores: list[int]) -> dict[str, float]:
        return {
            "n": len(scores),
            "mean": round(sum(scores) / len(scores), 3),
            "good_share": round(sum(s >= 3 for s in scores) / len(scores), 3),
        }

    every = [r.score for r in ratings]
    return {"overall": stats(every), **{k: {name: stats(v) for name, v in g.items()} for k, g in groups.items()}}
