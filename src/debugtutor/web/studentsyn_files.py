"""The one place the web app touches StudentSyn: the files it writes and the benchmark's loaders.

- A *gallery* folder (``debugtutor studentsyn generate --out DIR``) holds ``scenarios.jsonl``: per line a scenario
  (``id``, ``reference``, ``target``, ``student``, the observed attempt ``code_a``, the ``synthesized`` codes in rank
  order, the student's real attempt ``ground_truth``) and the ``technique`` that made it. Only those fields are read.
- The benchmark folder gives the task grids and solutions (``studentsyn.dataset.load_benchmark``) and the
  discriminative instances (``studentsyn.instances.build_instances``).
- Codes travel as the maze library's compact text (``RUG{IF(pathAhead){M}ELSE{L}}``) and are drawn with
  ``maze.render_png``.

Everything else in the web app sees plain dicts and strings, so a change of the StudentSyn arena is fixed here.
"""

from __future__ import annotations

import hashlib
import json
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any

from debugtutor.errors import InputError

SCENARIOS_FILE = "scenarios.jsonl"
_DRAW_LOCK = threading.Lock()  # matplotlib's pyplot is not thread-safe


def read_gallery(folder: Path) -> list[dict[str, Any]]:
    """The scenarios of one gallery folder; errors name the file and line."""
    path = Path(folder) / SCENARIOS_FILE
    if not path.is_file():
        raise InputError(
            f"no {SCENARIOS_FILE} here", path=str(folder), hint="make one with debugtutor studentsyn generate --out DIR"
        )
    scenarios = []
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"not a JSON object: {exc.msg}", path=str(path), line=number) from exc
        if not isinstance(record, dict):
            raise InputError("expected a JSON object", path=str(path), line=number)
        for field in ("id", "reference", "target", "student", "code_a", "technique"):
            if not isinstance(record.get(field), str) or not record[field]:
                raise InputError("missing or not a string", path=str(path), line=number, field=field)
        codes = record.get("synthesized")
        if not isinstance(codes, list) or not all(isinstance(code, str) for code in codes):
            raise InputError("must be a list of codes", path=str(path), line=number, field="synthesized")
        scenarios.append(
            {
                "id": record["id"],
                "reference": record["reference"],
                "target": record["target"],
                "student": record["student"],
                "code_a": record["code_a"],
                "synthesized": list(codes),
                "ground_truth": record.get("ground_truth") if isinstance(record.get("ground_truth"), str) else None,
                "technique": record["technique"],
            }
        )
    if not scenarios:
        raise InputError("holds no scenarios", path=str(path))
    return scenarios


@lru_cache(maxsize=8)
def _families(folder: str) -> dict[str, Any]:
    from debugtutor.studentsyn.dataset import load_benchmark

    return {family.reference: family for family in load_benchmark(Path(folder))}


def default_benchmark() -> Path:
    """The built-in sample of the benchmark (the project's own small families)."""
    from debugtutor.samples import sample_dir

    return sample_dir("studentsyn")


def check_benchmark(folder: Path) -> dict[str, list[str]]:
    """The reference tasks of a benchmark folder and their targets (raises when it cannot be read)."""
    return {reference: list(family.targets) for reference, family in _families(str(folder)).items()}


def solution_code(folder: Path, reference: str, task: str) -> str:
    """The expert solution of ``task`` (of the family of ``reference``), as compact text."""
    from debugtutor.maze import compact

    family = _family(folder, reference)
    if task not in family.solutions:
        raise InputError(f"no task {task!r} in family {reference!r}", path=str(folder))
    return str(compact(family.solutions[task]))


def _family(folder: Path, reference: str) -> Any:
    families = _families(str(folder))
    if reference not in families:
        raise InputError(f"no reference task {reference!r} in this benchmark", path=str(folder))
    return families[reference]


def discriminative_items(folder: Path, *, samples: int, seed: int) -> list[dict[str, Any]]:
    """One pick-1-of-10 item per drawn instance: the observed attempt, the options as compact codes, and the
    positions that count as correct (the student's attempt and any option with identical code)."""
    from debugtutor.maze import compact
    from debugtutor.studentsyn.instances import build_instances

    items = []
    for reference, family in sorted(_families(str(folder)).items()):
        for instance in build_instances(family, samples=samples, seed=seed):
            items.append(
                {
                    "instance": instance.id,
                    "reference": reference,
                    "target": instance.target_task,
                    "student": instance.student,
                    "code_a": str(compact(instance.code_a)),
                    "options": [str(compact(option)) for option in instance.options],
                    "correct": [i for i in range(len(instance.options)) if instance.is_correct(i)],
                }
            )
    return items


def picture(folder: Path, reference: str, task: str, code: str | None, cache_dir: Path) -> Path:
    """A PNG of ``task`` (of the family of ``reference``) with ``code`` run on it (None: the task alone), cached."""
    from debugtutor.maze import ProgramSyntaxError, parse_compact
    from debugtutor.maze.render import render_png

    family = _family(folder, reference)
    if task not in family.tasks:
        raise InputError(f"no task {task!r} in family {reference!r}", path=str(folder))
    key = hashlib.sha256(f"{Path(folder).resolve()}\0{reference}\0{task}\0{code}".encode()).hexdigest()[:32]
    out = cache_dir / f"{key}.png"
    if out.is_file():
        return out
    try:
        program = parse_compact(code) if code is not None else None
    except ProgramSyntaxError as exc:
        raise InputError(f"not a maze program: {exc}", field="code") from exc
    with _DRAW_LOCK:
        if not out.is_file():
            cache_dir.mkdir(parents=True, exist_ok=True)
            partial = out.with_suffix(".part.png")
            render_png(family.tasks[task], program=program, out=partial)
            partial.replace(out)
    return out
