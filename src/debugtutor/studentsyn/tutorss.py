"""TutorSS: the human experts' discriminative answers, scored from the original repository's response files.

Files (``tutorSS/{ref}/`` of the original repository, ``../shared/data/studentsyn/tutorSS/`` here):

- ``codes_{ref}.tsv``: ``code`` (a Python-literal AST), ``code_idx``, ``task``, ``mis``, ``notes``, ``stu_id``;
- ``res_discriminative_{ref}.tsv``: ``pred label taskA taskB codeA tutor instid codeBa ... codeBj``, one row per
  (expert, instance); blank separator lines are skipped.

Options are looked up by their ``code_idx`` value (the original used the row position, which is the same thing in
its complete file and wrong in a copy with rows left out). An answer counts three ways:

- ``strict``: the chosen position is the label;
- ``original``: the original code's rule, also right when the chosen option's code *text* equals the answer's;
- ``structural``: also right when the chosen option is the same program as the answer (how this project scores every
  technique).

Per expert and macro-averaged over experts (each expert answered the same instances). :func:`expert_instances`
rebuilds the instances the experts answered, so a technique can be scored on exactly those.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel

from debugtutor.errors import DataError, InputError, read_text
from debugtutor.maze import Program, parse_program_json
from debugtutor.studentsyn.instances import DiscriminativeInstance

OPTION_COLUMNS = tuple(f"codeB{letter}" for letter in "abcdefghij")
RESPONSE_COLUMNS = ("pred", "label", "taskA", "taskB", "codeA", "tutor", "instid", *OPTION_COLUMNS)
CODE_COLUMNS = ("code", "code_idx", "task", "mis", "notes", "stu_id")


@dataclass(frozen=True)
class ExpertCode:
    index: int
    text: str
    program: Program
    task: str
    behaviour: int | None
    student: str


@dataclass(frozen=True)
class ExpertAnswer:
    """One expert's answer to one instance (options are ``code_idx`` values)."""

    tutor: str
    instance: int
    task_a: str
    task_b: str
    code_a: int
    options: tuple[int, ...]
    label: int
    prediction: int


class ExpertScore(BaseModel):
    """Accuracy (percent) of one expert, or the macro average, under the three counting rules."""

    n: int
    strict: float
    original: float
    structural: float
    per_target: dict[str, float]


class TutorSSResult(BaseModel):
    """TutorSS on one reference task: per expert and the macro average over experts (``structural`` is headline)."""

    reference: str
    instances: int
    targets: list[str]
    experts: dict[str, ExpertScore]
    macro: ExpertScore
    source: str


def _rows(path: Path, columns: tuple[str, ...]) -> list[tuple[int, dict[str, str]]]:
    lines = read_text(path).splitlines()
    if not lines:
        raise InputError("empty table", path=str(path))
    header = lines[0].split("\t")
    missing = [c for c in columns if c not in header]
    if missing:
        raise InputError(f"missing column(s) {', '.join(missing)}", path=str(path), line=1, field=missing[0])
    rows = []
    for number, values in enumerate(csv.reader(lines[1:], delimiter="\t"), start=2):
        if not any(v.strip() for v in values):
            continue  # the original files separate blocks with blank lines
        if len(values) < len(header):
            raise InputError(f"expected {len(header)} cells, found {len(values)}", path=str(path), line=number)
        rows.append((number, dict(zip(header, values))))
    return rows


def _int(value: str, path: Path, line: int, column: str) -> int:
    try:
        return int(float(value))
    except ValueError:
        raise InputError(f"'{value}' is not a number", path=str(path), line=line, field=column) from None


def read_codes(path: Path) -> dict[int, ExpertCode]:
    codes: dict[int, ExpertCode] = {}
    for line, row in _rows(path, CODE_COLUMNS):
        index = _int(row["code_idx"], path, line, "code_idx")
        mis = row["mis"].strip()
        codes[index] = ExpertCode(
            index=index,
            text=row["code"],
            program=parse_program_json(row["code"], source=f"{path}:{line}"),
            task=row["task"].strip(),
            behaviour=_int(mis, path, line, "mis") if mis else None,
            student=row["stu_id"].strip(),
        )
    return codes


def read_answers(path: Path, codes: dict[int, ExpertCode]) -> list[ExpertAnswer]:
    answers = []
    for line, row in _rows(path, RESPONSE_COLUMNS):
        options = tuple(_int(row[c], path, line, c) for c in OPTION_COLUMNS)
        unknown = [i for i in (*options, _int(row["codeA"], path, line, "codeA")) if i not in codes]
        if unknown:
            raise InputError(f"code_idx {unknown[0]} is not in the code table", path=str(path), line=line)
        answer = ExpertAnswer(
            tutor=row["tutor"].strip(),
            instance=_int(row["instid"], path, line, "instid"),
            task_a=row["taskA"].strip(),
            task_b=row["taskB"].strip(),
            code_a=_int(row["codeA"], path, line, "codeA"),
            options=options,
            label=_int(row["label"], path, line, "label"),
            prediction=_int(row["pred"], path, line, "pred"),
        )
        for value, column in ((answer.label, "label"), (answer.prediction, "pred")):
            if not 0 <= value < len(options):
                raise InputError(f"{column} {value} is not an option position", path=str(path), line=line)
        answers.append(answer)
    return answers


def tutor_files(folder: Path, reference: str) -> tuple[Path, Path]:
    """(codes table, discriminative responses) for ``reference`` under a ``tutorSS`` folder."""
    base = folder / reference
    codes, responses = base / f"codes_{reference}.tsv", base / f"res_discriminative_{reference}.tsv"
    for path in (codes, responses):
        if not path.is_file():
            raise DataError(f"{path} is missing", hint="pass the original repository's data/tutorSS folder")
    return codes, responses


def find_tutor_folder(data_dir: Path) -> Path | None:
    """The ``tutorSS`` folder inside or beside a StudentSyn data folder, if there is one."""
    for candidate in (data_dir / "tutorSS", data_dir.parent / "tutorSS", data_dir.parent.parent / "tutorSS"):
        if candidate.is_dir():
            return candidate
    return None


def _accuracy(flags: list[bool]) -> float:
    return round(100.0 * sum(flags) / len(flags), 2) if flags else 0.0


def _score(answers: list[ExpertAnswer], codes: dict[int, ExpertCode]) -> ExpertScore:
    strict, original, structural = [], [], []
    per_target: dict[str, list[bool]] = {}
    for a in answers:
        chosen, right = codes[a.options[a.prediction]], codes[a.options[a.label]]
        strict.append(a.prediction == a.label)
        original.append(a.prediction == a.label or chosen.text == right.text)
        same = a.prediction == a.label or chosen.program == right.program
        structural.append(same)
        per_target.setdefault(a.task_b, []).append(same)
    return ExpertScore(
        n=len(answers),
        strict=_accuracy(strict),
        original=_accuracy(original),
        structural=_accuracy(structural),
        per_target={t: _accuracy(v) for t, v in sorted(per_target.items())},
    )


def score_tutorss(folder: Path, reference: str) -> TutorSSResult:
    """Each expert's accuracy on ``reference`` and their macro average, from the response files."""
    codes_path, responses_path = tutor_files(folder, reference)
    codes = read_codes(codes_path)
    answers = read_answers(responses_path, codes)
    if not answers:
        raise DataError(f"{responses_path} has no answers")
    experts = {t: _score([a for a in answers if a.tutor == t], codes) for t in sorted({a.tutor for a in answers})}
    scores = list(experts.values())
    targets = sorted({a.task_b for a in answers})
    macro = ExpertScore(
        n=sum(s.n for s in scores),
        strict=round(sum(s.strict for s in scores) / len(scores), 2),
        original=round(sum(s.original for s in scores) / len(scores), 2),
        structural=round(sum(s.structural for s in scores) / len(scores), 2),
        per_target={t: round(sum(s.per_target.get(t, 0.0) for s in scores) / len(scores), 2) for t in targets},
    )
    return TutorSSResult(
        reference=reference,
        instances=len({(a.instance, a.task_b) for a in answers}),
        targets=targets,
        experts=experts,
        macro=macro,
        source=str(responses_path),
    )


def expert_instances(folder: Path, reference: str) -> list[DiscriminativeInstance]:
    """The instances the experts answered (one per instance id), as scorer-side records."""
    codes_path, responses_path = tutor_files(folder, reference)
    codes = read_codes(codes_path)
    seen: dict[tuple[int, str], DiscriminativeInstance] = {}
    for a in read_answers(responses_path, codes):
        key = (a.instance, a.task_b)
        if key in seen:
            continue
        observed = codes[a.code_a]
        if observed.behaviour is None:
            raise InputError(f"codeA {a.code_a} is not a student's code", path=str(codes_path), field="mis")
        seen[key] = DiscriminativeInstance(
            id=f"{a.task_a}-experts-{a.instance}-{a.task_b}",
            reference_task=a.task_a,
            target_task=a.task_b,
            behaviour=observed.behaviour,
            student=observed.student,
            code_a=observed.program,
            options=tuple(codes[i].program for i in a.options),
            option_sources=tuple(f"{codes[i].student}:{codes[i].task}" for i in a.options),
            label=a.label,
        )
    return [seen[key] for key in sorted(seen)]
