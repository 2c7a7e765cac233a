"""The built-in StudentSyn sample (``samples/studentsyn``), of the project's own making, and how it was made.

Two small families in the benchmark layout, so ``debugtutor studentsyn`` runs on a fresh offline machine:

- ``walk`` (basic actions): reference ``walk`` and targets ``walka``, ``walkb``; grids carved along a path.
- ``loop`` (RepeatUntil + IfElse): reference ``loop`` and targets ``loopa``, ``loopb``; a corridor the loop
  ``RUG{IF(pathAhead){M}ELSE{turn}}`` follows, with a dead-end side branch.

Students (2 per behaviour type) are drawn from this project's own behaviour edit families (:mod:`.rules`, seeded per
student and task), random codes are seeded random block edits of the solutions, and the loop family's SymSS
distractor files (``symss_loop_distractor_paths/``) hold, per task, the likeliest small corridor-following loop that
walks into the dead end. Accuracies on the sample demonstrate the pipeline; they are not benchmark figures (the
rule-based technique is scored on students its own models wrote). ``write_sample`` regenerates the files exactly.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from debugtutor.maze import Heading, MazeTask, Program, execute, parse_compact, program_to_json
from debugtutor.studentsyn.behaviour_edits import TaskContext, behaviour_model, task_context, wrong_path_programs
from debugtutor.studentsyn.embedding import generate_codes

BASIC_BEHAVIOURS = [
    "confusing left/right directions when turning",
    "partially solving the task, stopping before the goal",
    "misunderstanding of turning functionality and writing repetitive turn commands",
    "adding more than the correct number of required move commands",
    "forgetting to include some turns needed in the solution",
    "attempting to randomly solve the task by adding lots of blocks",
]
LOOP_BEHAVIOURS = [
    "confusing left/right directions when turning or checking conditionals",
    "following one of the wrong path segments",
    "writing the same blocks in both the execution branches of the IfElse",
    "ignoring the IfElse structure when solving the task",
    "ignoring the While structure when solving the task",
    "attempting to solve the task by using only the basic action blocks",
]

# (name, start row, start col, heading, path in compact notation, dead-end branches as (row, col) cells)
TaskSpec = tuple[str, int, int, Heading, str, list[tuple[int, int]]]
_WALK: list[TaskSpec] = [
    ("walk", 6, 3, Heading.EAST, "M M L M M R M", []),
    ("walka", 7, 2, Heading.EAST, "M L M M R M M M", []),
    ("walkb", 3, 4, Heading.SOUTH, "M M M L M M L M", []),
]
_LOOP: list[TaskSpec] = [
    ("loop", 9, 2, Heading.EAST, "M M M L M M M M L M M", [(7, 6), (7, 7)]),
    ("loopa", 2, 3, Heading.SOUTH, "M M M M L M M M M M", [(4, 2), (4, 1)]),
    ("loopb", 9, 9, Heading.NORTH, "M M M M L M M M M M", [(7, 10)]),
]
_LOOP_SOLUTIONS = {
    "loop": "RUG{IF(pathAhead){M}ELSE{L}}",
    "loopa": "RUG{IF(pathAhead){M}ELSE{L}}",
    "loopb": "RUG{IF(pathAhead){M}ELSE{L}}",
}


def _carve(name: str, row: int, col: int, heading: Heading, path: str, branches: list[tuple[int, int]]) -> MazeTask:
    free = {(row, col)}
    r, c, h = row, col, heading
    for token in path.split():
        if token == "M":
            r, c = r + h.delta[0], c + h.delta[1]
            free.add((r, c))
        else:
            h = h.left() if token == "L" else h.right()
    free.update(branches)
    grid = tuple("".join("." if (y, x) in free else "#" for x in range(12)) for y in range(12))
    return MazeTask(name=name, grid=grid, start=(row, col), heading=heading, goal=(r, c))


def _write_json(path: Path, program: Program) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(program_to_json(program), indent=2) + "\n", encoding="utf-8")


def _write_family(
    root: Path,
    specs: list[TaskSpec],
    behaviours: list[str],
    solutions: dict[str, str],
    notes: list[str],
) -> None:
    rng = random.Random(f"sample:{root.name}")
    tasks = {spec[0]: _carve(*spec) for spec in specs}
    (root / "task").mkdir(parents=True, exist_ok=True)
    info = ["stu\ttask\tmis\tnotes"]
    rand_info = ["rand_id\ttask\tnotes"]
    rand_id = 0
    for name, task in tasks.items():
        (root / "task" / f"{name}_task.txt").write_text(task.to_text() + "\n", encoding="utf-8")
        path = next(spec[4] for spec in specs if spec[0] == name)
        solution = parse_compact(solutions.get(name, path))
        if not execute(task, solution).success:
            raise RuntimeError(f"sample task {name}: its solution does not reach the goal")
        _write_json(root / "solution" / f"{name}_code_solution.json", solution)
        if name in solutions:
            _write_json(
                root / "solution_basic_actions" / f"{name}_code_solution_basic_actions.json", parse_compact(path)
            )
        context = task_context(task, solution)
        if name in solutions:
            distractor = _distractor(context)
            folder = root.parent / f"symss_{root.name}_distractor_paths"
            folder.mkdir(parents=True, exist_ok=True)
            text = json.dumps([program_to_json(distractor)], indent=2) + "\n"
            (folder / f"{name}_code_distractors.json").write_text(text, encoding="utf-8")
        for student in range(1, 2 * len(behaviours) + 1):
            behaviour = (student - 1) % len(behaviours) + 1
            model = behaviour_model(context, behaviours[behaviour - 1])
            pick = model.sample(random.Random(f"sample:{root.name}:{name}:stu{student}"))
            _write_json(root / "stu" / f"{name}_code_stu{student}.json", pick)
            info.append(f"{name}_code_stu{student}\t{name}\t{behaviour}\tstu")
        for note_index, note in enumerate(notes):
            edits = (2, 5, 10)[note_index % 3]
            for code in generate_codes([solution], 4, seed=rng.randint(0, 10**6), max_edits=edits):
                rand_id += 1
                _write_json(root / "rand" / f"{name}_rand{rand_id}.json", code)
                rand_info.append(f"{rand_id}\t{name}\t{note}")
    (root / "info.tsv").write_text("\n".join(info) + "\n", encoding="utf-8")
    (root / "rand_info.tsv").write_text("\n".join(rand_info) + "\n", encoding="utf-8")
    table = ["misconceptions\texplanations"] + [f"mis_{i}\t{text}" for i, text in enumerate(behaviours, start=1)]
    (root / "behaviours.tsv").write_text("\n".join(table) + "\n", encoding="utf-8")


def _distractor(context: TaskContext) -> Program:
    """The likeliest small corridor-following loop that walks into a segment off the solution's path."""
    ranked = sorted(wrong_path_programs(context), key=lambda item: -item[1])
    if not ranked:
        raise RuntimeError(f"sample task {context.task.name}: no loop leads into a wrong path segment")
    return ranked[0][0]


def write_sample(out_dir: Path) -> None:
    """(Re)write the built-in sample under ``out_dir`` (``walk/`` and ``loop/``)."""
    _write_family(out_dir / "walk", _WALK, BASIC_BEHAVIOURS, {}, ["edit_2", "edit_5", "edit_10"])
    _write_family(out_dir / "loop", _LOOP, LOOP_BEHAVIOURS, _LOOP_SOLUTIONS, ["edit_2", "only_if", "basic_actions"])
