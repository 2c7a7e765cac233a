"""Loading the StudentSyn benchmark layout: one family per reference task, read from the original files.

A family folder (``hoc4/``, ``hoc18/`` ...) holds ``task/{T}_task.txt`` grids, ``solution/{T}_code_solution.json``,
optionally ``solution_basic_actions/``, ``stu/{T}_code_stu{k}.json`` attempts, ``rand/{T}_rand{i}.json`` random codes
and the three TSV indexes. The original SymSS also reads hand-written "distractor" programs per task (a list of ASTs in
``{T}_code_distractors.json``); they are looked for beside the family folder, in ``symss_{family}_distractor_paths/``
(the layout of ``debugtutor data fetch``), or in the original repository's ``symSS/{family}/distractor_paths/``.
Nothing here assumes how many target tasks, students or random codes there are: all of it is derived from the files,
so the same loader reads the shared copy, the held-back copy and the built-in sample.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from debugtutor.errors import DataError, InputError, read_text
from debugtutor.maze import MazeTask, Program, program_from_json, read_program, read_task


@dataclass(frozen=True)
class Behaviour:
    """One misconception type of a family, as ``behaviours.tsv`` names and explains it."""

    type_id: int
    key: str
    description: str


@dataclass(frozen=True)
class StudentAttempt:
    """One synthetic student's code on one task of the family, with the student's behaviour type."""

    student: str
    task: str
    behaviour: int
    program: Program


@dataclass(frozen=True)
class RandomCode:
    """A random edit of a task's solution; ``note`` says how it was made (``edit_2``, ``only_if`` ...)."""

    rand_id: int
    task: str
    note: str
    program: Program


@dataclass
class TaskFamily:
    """A reference task, its target tasks and every code the benchmark draws options from."""

    reference: str
    root: Path
    tasks: dict[str, MazeTask]
    solutions: dict[str, Program]
    basic_solutions: dict[str, Program]
    behaviours: dict[int, Behaviour]
    students: list[StudentAttempt]
    random_codes: list[RandomCode]
    distractors: dict[str, tuple[Program, ...]] = field(default_factory=dict)
    _by_task_type: dict[tuple[str, int], list[StudentAttempt]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for attempt in self.students:
            self._by_task_type.setdefault((attempt.task, attempt.behaviour), []).append(attempt)

    @property
    def targets(self) -> list[str]:
        """The target tasks, in name order (every task of the family but the reference)."""
        return sorted(name for name in self.tasks if name != self.reference)

    @property
    def behaviour_ids(self) -> list[int]:
        return sorted(self.behaviours)

    def attempts(self, task: str, behaviour: int) -> list[StudentAttempt]:
        """The attempts on ``task`` by students of ``behaviour``, in ``info.tsv`` order."""
        return self._by_task_type.get((task, behaviour), [])

    def attempt_of(self, student: str, task: str) -> StudentAttempt | None:
        for attempt in self.students:
            if attempt.student == student and attempt.task == task:
                return attempt
        return None

    def random_pool(self, task: str) -> dict[str, list[RandomCode]]:
        """The random codes of ``task`` grouped by note, notes in first-seen order of ``rand_info.tsv``."""
        pool: dict[str, list[RandomCode]] = {}
        for code in self.random_codes:
            if code.task == task:
                pool.setdefault(code.note, []).append(code)
        return pool


def _read_tsv(path: Path, columns: list[str]) -> list[dict[str, str]]:
    if not path.is_file():
        raise DataError(
            f"{path} is missing", hint="a StudentSyn family folder needs info.tsv, behaviours.tsv and rand_info.tsv"
        )
    rows: list[dict[str, str]] = []
    lines = read_text(path).splitlines()
    if not lines:
        raise InputError("empty table", path=str(path))
    header = re.split(r"\t+", lines[0].strip())
    missing = [name for name in columns if name not in header]
    if missing:
        raise InputError(f"missing column(s) {', '.join(missing)}", path=str(path), line=1, field=missing[0])
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        # The original reads these with a `\t+` separator; runs of tabs occur in hand-edited rows.
        cells = re.split(r"\t+", line.strip())
        if len(cells) < len(columns):
            raise InputError(f"expected {len(header)} cells, found {len(cells)}", path=str(path), line=number)
        rows.append(dict(zip(header, cells)))
    return rows


def _behaviours(path: Path) -> dict[int, Behaviour]:
    behaviours: dict[int, Behaviour] = {}
    for row in _read_tsv(path, ["misconceptions", "explanations"]):
        key = row["misconceptions"].strip()
        match = re.fullmatch(r"mis_(\d+)", key)
        if match is None:
            raise InputError(f"behaviour key '{key}' is not mis_<n>", path=str(path), field="misconceptions")
        behaviours[int(match.group(1))] = Behaviour(int(match.group(1)), key, row["explanations"].strip())
    return behaviours


def _student_name(stem: str) -> str:
    return stem.rsplit("_", 1)[-1]


def load_family(root: Path, reference: str | None = None) -> TaskFamily:
    """Read one family folder; ``reference`` defaults to the folder's name (``hoc4/`` holds reference task hoc4)."""
    root = Path(root)
    task_dir = root / "task"
    if not task_dir.is_dir():
        raise DataError(f"{task_dir} is missing", hint="expected the StudentSyn layout: task/, solution/, stu/, rand/")
    tasks = {path.name[: -len("_task.txt")]: read_task(path) for path in sorted(task_dir.glob("*_task.txt"))}
    reference = reference or root.name
    if reference not in tasks:
        raise DataError(f"{root}: no grid for reference task '{reference}'", hint=f"expected task/{reference}_task.txt")
    solutions: dict[str, Program] = {}
    basic_solutions: dict[str, Program] = {}
    for name in tasks:
        solution_path = root / "solution" / f"{name}_code_solution.json"
        if not solution_path.is_file():
            raise DataError(f"{solution_path} is missing", hint="every task needs its expert solution")
        solutions[name] = read_program(solution_path)
        basic_path = root / "solution_basic_actions" / f"{name}_code_solution_basic_actions.json"
        if basic_path.is_file():
            basic_solutions[name] = read_program(basic_path)
    behaviours = _behaviours(root / "behaviours.tsv")
    students: list[StudentAttempt] = []
    info_path = root / "info.tsv"
    for row in _read_tsv(info_path, ["stu", "task", "mis"]):
        stem, task = row["stu"].strip(), row["task"].strip()
        if task not in tasks:
            raise InputError(f"unknown task '{task}'", path=str(info_path), field="task")
        try:
            behaviour = int(float(row["mis"]))
        except ValueError as exc:
            raise InputError(f"behaviour '{row['mis']}' is not a number", path=str(info_path), field="mis") from exc
        students.append(
            StudentAttempt(_student_name(stem), task, behaviour, read_program(root / "stu" / f"{stem}.json"))
        )
    random_codes: list[RandomCode] = []
    rand_info = root / "rand_info.tsv"
    for row in _read_tsv(rand_info, ["rand_id", "task", "notes"]):
        task, rand_id = row["task"].strip(), int(row["rand_id"])
        path = root / "rand" / f"{task}_rand{rand_id}.json"
        random_codes.append(RandomCode(rand_id, task, row["notes"].strip(), read_program(path)))
    distractors = _distractors(root, tasks)
    return TaskFamily(
        reference, root, tasks, solutions, basic_solutions, behaviours, students, random_codes, distractors
    )


def distractor_folders(root: Path) -> list[Path]:
    """Where a family's SymSS distractor files may be, in the order they are looked for."""
    return [
        root.parent / f"symss_{root.name}_distractor_paths",
        root.parent.parent / "symSS" / root.name / "distractor_paths",
    ]


def read_distractors(path: Path) -> tuple[Program, ...]:
    """The programs of one ``{T}_code_distractors.json`` file (a JSON list of ASTs, or a single AST)."""
    try:
        tree = json.loads(read_text(path))
    except json.JSONDecodeError as exc:
        raise InputError(f"not JSON: {exc.msg}", path=str(path), line=exc.lineno) from None
    trees = tree if isinstance(tree, list) else [tree]
    if not trees or not all(isinstance(item, dict) for item in trees):
        raise InputError("expected a list of program ASTs", path=str(path))
    return tuple(program_from_json(item, source=str(path)) for item in trees)


def _distractors(root: Path, tasks: dict[str, MazeTask]) -> dict[str, tuple[Program, ...]]:
    folder = next((f for f in distractor_folders(root) if f.is_dir()), None)
    if folder is None:
        return {}
    found = {name: folder / f"{name}_code_distractors.json" for name in tasks}
    return {name: read_distractors(path) for name, path in found.items() if path.is_file()}


def load_benchmark(data_dir: Path, references: list[str] | None = None) -> list[TaskFamily]:
    """Every family under ``data_dir`` (a folder with ``info.tsv`` and ``task/``), or just ``references``."""
    data_dir = Path(data_dir)
    if (data_dir / "info.tsv").is_file():
        families = [data_dir]
    else:
        families = sorted(p for p in data_dir.iterdir() if (p / "info.tsv").is_file()) if data_dir.is_dir() else []
    if not families:
        raise DataError(f"no StudentSyn family under {data_dir}", hint="pass --data pointing at the benchmark folder")
    loaded = [load_family(path) for path in families]
    if references:
        unknown = sorted(set(references) - {family.reference for family in loaded})
        if unknown:
            raise InputError(f"unknown reference task(s) {', '.join(unknown)}", field="reference")
        loaded = [family for family in loaded if family.reference in references]
    return loaded
