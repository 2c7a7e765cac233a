"""NeurSS: a small neural student synthesizer, conditioned on the student's reference attempt, trained on CPU.

What it is trained on. The paper's NeurSS fine-tunes a program synthesizer on real code.org attempts, which are not
public. This one is trained only on data we generate, per task family:

- **tasks**: random mazes of the family's kind (a carved corridor with one path for a basic-action family; a
  corridor that a one-IfElse RepeatUntil loop follows, with dead-end side branches, for a loop family), each with a
  verified solution, plus the family's *reference* task itself. The benchmark's target tasks are never used.
- **students**: synthetic students. Each has one of the family's behaviour types (the descriptions in
  ``behaviours.tsv``, turned into a probability model of attempts by the behaviour edit families of
  :mod:`debugtutor.studentsyn.behaviour_edits`), draws its attempts from that model, and has a chance of one random
  slip.
  The same student writes an attempt on task A and on task B. No benchmark student code is read.
- **groups**: like the benchmark's instances, 10 options on task B: the same student's attempt, one attempt of a
  student of each other type, the solution, and random edits of the solution.

The model: a convolutional encoder over each code's EditD token sequence, joined with features of running the code on
its grid (outcome, distance left to the goal, share of the solution's path covered, cells off that path, counts of
moves / turns / blocks relative to the solution, left/right mismatches). The student is represented by how their
attempt differs from task A's solution in that space, a candidate by how it differs from task B's solution, and an
MLP scores the pair; training is a softmax over each group's 10 options (seeded, full CPU, about 10-20 s per family).

Discriminative use scores the options. Generative use ranks proposals: every behaviour's most likely attempts on the
target (and the solution), all valid ASTs by construction. Trained weights are cached under the user cache folder (or
``$DEBUGTUTOR_CACHE_DIR``) in ``neurss/<hash>.pt``, the hash taken over the training configuration, the reference
task's content (not its name) and the behaviour models, so an evaluation trains once per seed and reference task.
Needs torch (the ``hf`` extra).
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from debugtutor.errors import InputError, require
from debugtutor.maze import (
    BASIC_BLOCKS,
    Condition,
    Heading,
    IfElse,
    MazeTask,
    Program,
    RepeatUntilGoal,
    Stmt,
    compact,
    execute,
    program_size,
    solve,
)
from debugtutor.studentsyn.behaviour_edits import (
    LEFT,
    MOVE,
    RIGHT,
    BehaviourModel,
    TaskContext,
    behaviour_model,
    count_sites,
    has_control,
    is_turn,
    loop_templates,
    mirror_sites,
    side_mismatch,
    task_context,
)
from debugtutor.studentsyn.distances import token_edit_distance, tokens_of
from debugtutor.studentsyn.embedding import generate_codes
from debugtutor.studentsyn.questions import FamilyBrief, Question, TaskSheet, choose
from debugtutor.userdirs import cache_dir

MODEL_VERSION = "neurss-4"
MAX_TOKENS = 64
VOCABULARY = 12  # EditD tokens are 1..9; 0 pads
OPTIONS_PER_GROUP = 10
FEATURES = 24


@dataclass(frozen=True)
class NeurSSConfig:
    """Everything that decides the trained weights; its hash names the cache file."""

    seed: int = 0
    synthetic_tasks: int = 40
    groups: int = 2000
    steps: int = 350
    batch: int = 48
    learning_rate: float = 3e-3
    hidden: int = 32
    slip: float = 0.25

    def key(self, brief: FamilyBrief) -> str:
        """The cache name of the weights trained with this configuration for a family observed on its reference."""
        reference = brief.reference
        context = reference_context(reference)
        grid = reference.task
        payload = {
            "version": MODEL_VERSION,
            "config": asdict(self),
            # The task's content, not its name: a renamed task is the same task.
            "grid": list(grid.grid),
            "start": [*grid.start, grid.heading.value],
            "goal": list(grid.goal),
            "solution": compact(reference.solution),
            "behaviours": {b.key: b.description for b in brief.behaviours},
            # The students come from the behaviour models: weights trained under other rules must not be reused.
            "rules": {b.key: _model_fingerprint(behaviour_model(context, b.description)) for b in brief.behaviours},
        }
        return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:20]


def _model_fingerprint(model: BehaviourModel) -> list[object]:
    return [
        model.family.name,
        asdict(model.family.profile),
        [[compact(p), round(w, 6)] for p, w in model.bases],
    ]


def reference_context(sheet: TaskSheet) -> TaskContext:
    return task_context(sheet.task, sheet.solution, sheet.basic_solution)


def default_cache_dir() -> Path:
    """``neurss/`` in the debugtutor cache folder (see :mod:`debugtutor.userdirs`)."""
    return cache_dir("neurss")


# ------------------------------------------------------------------------------------------ synthetic tasks

_INNER = range(1, 11)  # rows/cols 0 and 11 are the outer wall ring


def _grid(free: set[tuple[int, int]]) -> tuple[str, ...]:
    return tuple("".join("." if (r, c) in free else "#" for c in range(12)) for r in range(12))


def _walk(actions: Sequence[Stmt], start: tuple[int, int], heading: Heading) -> list[tuple[int, int]] | None:
    """The cells a sequence of actions visits, or None when it leaves the inside or touches its own path."""
    cells = [start]
    row, col, facing = start[0], start[1], heading
    for action in actions:
        if action == LEFT:
            facing = facing.left()
        elif action == RIGHT:
            facing = facing.right()
        else:
            row, col = row + facing.delta[0], col + facing.delta[1]
            if row not in _INNER or col not in _INNER or (row, col) in cells:
                return None
            # A new cell next to an older one (not the one just left) would open a shortcut through the wall.
            if any(abs(row - r) + abs(col - c) == 1 for r, c in cells[:-1]):
                return None
            cells.append((row, col))
    return cells


def _segments(rng: random.Random, turns: Sequence[Stmt], shortest: int, longest: int) -> list[Stmt]:
    actions: list[Stmt] = [MOVE] * rng.randint(shortest, longest)
    for turn in turns:
        actions += [turn, *[MOVE] * rng.randint(shortest, longest)]
    return actions


def _basic_task(rng: random.Random, name: str) -> TaskContext | None:
    turns = [rng.choice((LEFT, RIGHT)) for _ in range(rng.randint(1, 4))]
    actions = _segments(rng, turns, 1, 3)
    if rng.random() < 0.3:
        actions.insert(0, rng.choice((LEFT, RIGHT)))  # the avatar first has to face the corridor
    start = (rng.choice(_INNER), rng.choice(_INNER))
    heading = rng.choice(list(Heading))
    cells = _walk(actions, start, heading)
    if cells is None or len(cells) < 3:
        return None
    task = MazeTask(name=name, grid=_grid(set(cells)), start=start, heading=heading, goal=cells[-1])
    solution = solve(task, blocks=BASIC_BLOCKS, max_size=20)
    if solution is None:
        return None
    return task_context(task, solution)


def _loop_task(rng: random.Random, name: str) -> TaskContext | None:
    template = rng.choice(loop_templates())
    turn = next(s for s in (*template.then_body, *template.else_body) if is_turn(s))
    prefix: tuple[Stmt, ...] = ()
    if rng.random() < 0.35:
        prefix = (*[MOVE] * rng.randint(1, 3), rng.choice((LEFT, RIGHT)))
    corridor = _segments(rng, [turn] * rng.randint(1, 3), 2, 4)
    start = (rng.choice(_INNER), rng.choice(_INNER))
    heading = rng.choice(list(Heading))
    cells = _walk([*prefix, *corridor], start, heading)
    if cells is None:
        return None
    free = set(cells)
    # Dead-end side branches off the corridor: the wrong path segments some students follow.
    for _ in range(rng.randint(1, 3)):
        r, c = rng.choice(cells[1:-1])
        dr, dc = rng.choice(((0, 1), (0, -1), (1, 0), (-1, 0)))
        for step in range(1, rng.randint(1, 3) + 1):
            cell = (r + dr * step, c + dc * step)
            if cell[0] in _INNER and cell[1] in _INNER:
                free.add(cell)
    end = cells[-1]
    task = MazeTask(name=name, grid=_grid(free), start=start, heading=heading, goal=end)
    solution = Program((*prefix, RepeatUntilGoal((template,))))
    if not execute(task, solution).success:
        return None
    return task_context(task, solution)


def synthetic_tasks(reference: TaskContext, count: int, seed: int) -> list[TaskContext]:
    """``count`` random tasks of the reference task's kind (loop or basic actions), each with a verified solution."""
    rng = random.Random(f"neurss-tasks:{seed}")
    make = _loop_task if has_control(reference.solution) else _basic_task
    tasks: list[TaskContext] = []
    attempts = 0
    while len(tasks) < count and attempts < 200 * count:
        attempts += 1
        ctx = make(rng, f"synthetic{len(tasks)}")
        if ctx is not None:
            tasks.append(ctx)
    return tasks


# ------------------------------------------------------------------------------------------ synthetic students


@dataclass(frozen=True)
class SyntheticStudent:
    """A behaviour type and how often the student slips (one extra random block edit)."""

    behaviour: int
    slip: float
    seed: int

    def attempt(self, model: BehaviourModel, task_key: str) -> Program:
        """This student's attempt on a task (drawn from the behaviour's model, seeded by student and task)."""
        rng = random.Random(f"student:{self.seed}:{task_key}")
        chosen = model.sample(rng)
        if rng.random() < self.slip:
            chosen = generate_codes([chosen], 1, seed=rng.randrange(10**9), max_edits=1)[0]
        return chosen


@dataclass
class _Table:
    """The unique (task, code) items seen so far, as padded token rows and feature rows."""

    index: dict[tuple[TaskContext, Program], int] = field(default_factory=dict)
    tokens: list[list[int]] = field(default_factory=list)
    features: list[list[float]] = field(default_factory=list)

    def add(self, ctx: TaskContext, code: Program) -> int:
        key = (ctx, code)
        found = self.index.get(key)
        if found is not None:
            return found
        sequence = list(tokens_of(code))[:MAX_TOKENS]
        self.tokens.append(sequence + [0] * (MAX_TOKENS - len(sequence)))
        self.features.append(_cached_features(ctx, code))
        self.index[key] = len(self.tokens) - 1
        return self.index[key]


def _path_cells(ctx: TaskContext) -> set[tuple[int, int]]:
    return {(step.row, step.col) for step in execute(ctx.task, ctx.solution).trace}


_PATHS: dict[TaskContext, set[tuple[int, int]]] = {}
_MIRRORED: dict[TaskContext, Program] = {}


_FEATURES: dict[tuple[TaskContext, Program], list[float]] = {}


def _cached_features(ctx: TaskContext, code: Program) -> list[float]:
    # Evaluation meets the same few hundred options again and again; running each once is enough.
    key = (ctx, code)
    found = _FEATURES.get(key)
    if found is None:
        if len(_FEATURES) > 200_000:
            _FEATURES.clear()
        found = _FEATURES[key] = code_features(ctx, code)
    return found


def code_features(ctx: TaskContext, code: Program) -> list[float]:
    """How running ``code`` on the task compares with the task's solution (all relative, so tasks compare)."""
    if ctx not in _PATHS:
        _PATHS[ctx] = _path_cells(ctx)
        turns, conditions = count_sites(ctx.solution.body)
        _MIRRORED[ctx] = Program(mirror_sites(ctx.solution.body, frozenset(range(turns)), frozenset(range(conditions))))
    path = _PATHS[ctx]
    result = execute(ctx.task, code)
    visited = {(step.row, step.col) for step in result.trace}
    goal_row, goal_col = ctx.task.goal
    scale = len(path) + 1.0
    flat = _flatten(code.body)
    basic = ctx.basic
    turns = sum(1 for s in flat if is_turn(s))
    lefts = sum(1 for s in flat if s == LEFT)
    moves = sum(1 for s in flat if s == MOVE)
    base_turns = sum(1 for s in basic if is_turn(s))
    base_moves = sum(1 for s in basic if s == MOVE)
    solution_flat = _flatten(ctx.solution.body)
    balance = _side_balance([*solution_flat, *[s.cond for s in solution_flat if isinstance(s, IfElse)]])
    side = (balance > 0) - (balance < 0)  # the side the solution favours: +1 left, -1 right, 0 neither
    solution_tokens = len(tokens_of(ctx.solution))
    to_solution = token_edit_distance(code, ctx.solution)
    to_mirror = token_edit_distance(code, _MIRRORED[ctx])
    return [
        float(result.success),
        float(result.crashed),
        float(result.outcome in ("loop_cap", "visit_limit")),
        (abs(result.final.row - goal_row) + abs(result.final.col - goal_col)) / scale,
        len(visited & path) / len(path),
        len(visited - path) / scale,
        math.log(program_size(code) / max(program_size(ctx.solution), 1)),
        to_solution / solution_tokens,
        (to_mirror - to_solution) / solution_tokens,
        float(any(isinstance(s, RepeatUntilGoal) for s in flat)),
        float(any(isinstance(s, IfElse) for s in flat)),
        float(has_control(ctx.solution)),
        turns / (base_turns + 1.0),
        moves / (base_moves + 1.0),
        (lefts - (turns - lefts)) / (turns + 1.0),
        float(side_mismatch(code.body)),
        float(not has_control(code)),
        len(flat) / (len(basic) + 1.0),
        float(_same_branches(flat)),
        min(result.steps, 200) / (10.0 * scale),
        # Which side the code turns and checks, relative to the side the solution favours: mirroring shows here.
        side * _side_balance(flat) / (turns + 1.0),
        float(side * _side_balance([s.cond for s in flat if isinstance(s, IfElse)])),
        float(bool(_prefix(code))),
        token_edit_distance(Program(_prefix(code)), Program(_prefix(ctx.solution))) / solution_tokens,
    ]


def _flatten(body: Sequence[Stmt]) -> list[Stmt]:
    out: list[Stmt] = []
    for stmt in body:
        out.append(stmt)
        if isinstance(stmt, RepeatUntilGoal):
            out.extend(_flatten(stmt.body))
        elif isinstance(stmt, IfElse):
            out.extend(_flatten(stmt.then_body))
            out.extend(_flatten(stmt.else_body))
    return out


def _side_balance(items: Sequence[object]) -> int:
    """Left turns and left checks minus right ones."""
    lefts = sum(1 for item in items if item == LEFT or item is Condition.PATH_LEFT)
    rights = sum(1 for item in items if item == RIGHT or item is Condition.PATH_RIGHT)
    return lefts - rights


def _prefix(code: Program) -> tuple[Stmt, ...]:
    """The statements before the first RepeatUntil (the whole program when it has none)."""
    for i, stmt in enumerate(code.body):
        if isinstance(stmt, RepeatUntilGoal):
            return code.body[:i]
    return code.body


def _same_branches(flat: Sequence[Stmt]) -> bool:
    return any(isinstance(s, IfElse) and s.then_body == s.else_body for s in flat)


@dataclass
class TrainingData:
    """Groups of 10 options as indices into the item table; ``label`` is the same student's option."""

    table: _Table
    code_a: list[int]
    solution_a: list[int]
    options: list[list[int]]
    solution_b: list[int]
    label: list[int]


def build_training_data(brief: FamilyBrief, config: NeurSSConfig) -> TrainingData:
    """Synthetic groups for a family: its behaviour descriptions, its reference task and random tasks of its kind."""
    reference = reference_context(brief.reference)
    tasks = synthetic_tasks(reference, config.synthetic_tasks, config.seed)
    if len(tasks) < 2:
        raise InputError(f"could not generate synthetic tasks like '{brief.reference.name}'", field="reference")
    behaviours = brief.behaviour_ids
    descriptions = {b.type_id: b.description for b in brief.behaviours}
    contexts = [reference, *tasks]
    models = {(i, b): behaviour_model(ctx, descriptions[b]) for i, ctx in enumerate(contexts) for b in behaviours}
    rng = random.Random(f"neurss-groups:{config.seed}")
    table = _Table()
    data = TrainingData(table, [], [], [], [], [])

    def student(behaviour: int) -> SyntheticStudent:
        return SyntheticStudent(behaviour, config.slip, rng.randrange(10**9))

    for _ in range(config.groups):
        # Half the time task A is the real reference task: that is where NeurSS will meet its students.
        a = 0 if rng.random() < 0.5 else rng.randrange(1, len(contexts))
        b = rng.choice([i for i in range(1, len(contexts)) if i != a])
        task_a, task_b = contexts[a], contexts[b]
        behaviour = rng.choice(behaviours)
        observed = student(behaviour)
        code_a = observed.attempt(models[(a, behaviour)], str(a))
        options = [observed.attempt(models[(b, behaviour)], str(b))]
        for other in behaviours:
            if other != behaviour:
                options.append(student(other).attempt(models[(b, other)], str(b)))
        options.append(task_b.solution)
        for edits in (2, 5, 10):
            options.append(generate_codes([task_b.solution], 1, seed=rng.randrange(10**9), max_edits=edits)[0])
        options = options[:OPTIONS_PER_GROUP]
        while len(options) < OPTIONS_PER_GROUP:
            options.append(generate_codes([task_b.solution], 1, seed=rng.randrange(10**9), max_edits=3)[0])
        order = list(range(len(options)))
        rng.shuffle(order)
        data.code_a.append(table.add(task_a, code_a))
        data.solution_a.append(table.add(task_a, task_a.solution))
        data.options.append([table.add(task_b, options[i]) for i in order])
        data.solution_b.append(table.add(task_b, task_b.solution))
        data.label.append(order.index(0))
    return data


# ------------------------------------------------------------------------------------------------ the model


def _build_net(torch: Any, hidden: int) -> Any:
    nn = torch.nn
    module_base: Any = nn.Module  # torch is imported lazily (an optional extra), so its classes are untyped here

    class StudentPairScorer(module_base):
        """Scores (student's deviation on task A, candidate's deviation on task B) pairs."""

        def __init__(self) -> None:
            super().__init__()
            self.embed = nn.Embedding(VOCABULARY, 16, padding_idx=0)
            self.conv1 = nn.Conv1d(16, hidden, 3, padding=1)
            self.conv2 = nn.Conv1d(hidden, hidden, 3, padding=1)
            self.code = nn.Sequential(nn.Linear(2 * hidden + FEATURES, hidden), nn.Tanh())
            self.head = nn.Sequential(nn.Linear(4 * hidden + FEATURES, 2 * hidden), nn.ReLU(), nn.Linear(2 * hidden, 1))

        def encode(self, tokens: Any, features: Any) -> Any:
            # Padding beyond the longest code in the batch changes nothing but costs convolution time.
            length = max(int((tokens > 0).sum(-1).max()), 1)
            tokens = tokens[:, :length]
            mask = (tokens > 0).float().unsqueeze(1)
            # Masking after each layer keeps padding out of the code's encoding, however long the batch's padding.
            hidden_states = torch.relu(self.conv1(self.embed(tokens).transpose(1, 2))) * mask
            hidden_states = torch.relu(self.conv2(hidden_states)) * mask
            mean = hidden_states.sum(-1) / mask.sum(-1).clamp(min=1.0)
            peak = (hidden_states - (1 - mask) * 1e4).max(-1).values
            return self.code(torch.cat([mean, peak, features], -1))

        def pair_scores(self, student: Any, candidate: Any, option_features: Any) -> Any:
            """student [groups, h]; candidate [groups, options, h]; one score per option."""
            student = student.unsqueeze(1).expand_as(candidate)
            joint = torch.cat(
                [student, candidate, student * candidate, (student - candidate).abs(), option_features], -1
            )
            return self.head(joint).squeeze(-1)

        def forward(self, code_a: Any, solution_a: Any, options: Any, solution_b: Any, option_features: Any) -> Any:
            # Each argument but option_features is an (tokens, features) pair; options are [groups, 10, ...].
            student = self.encode(*code_a) - self.encode(*solution_a)
            groups, count = options[0].shape[:2]
            encoded = self.encode(options[0].reshape(groups * count, -1), options[1].reshape(groups * count, -1))
            candidate = encoded.reshape(groups, count, -1) - self.encode(*solution_b).unsqueeze(1)
            return self.pair_scores(student, candidate, option_features)

    return StudentPairScorer()


class NeurSSModel:
    """The trained scorer for one family, with training, saving/loading and scoring."""

    def __init__(self, config: NeurSSConfig) -> None:
        self._torch: Any = require("torch", feature="NeurSS", extra="hf")
        self.config = config
        self._torch.manual_seed(config.seed)
        self.net = _build_net(self._torch, config.hidden)
        self.losses: list[float] = []
        self._encodings: dict[tuple[TaskContext, Program], tuple[Any, Any]] = {}

    def _tensors(self, table: _Table) -> tuple[Any, Any]:
        torch = self._torch
        return (
            torch.tensor(table.tokens, dtype=torch.long),
            torch.tensor(np.asarray(table.features, dtype=np.float32)),
        )

    def fit(self, data: TrainingData) -> list[float]:
        """Softmax over each group's options; returns the mean loss per tenth of training (it should fall)."""
        torch = self._torch
        threads = torch.get_num_threads()
        torch.set_num_threads(1)  # tiny model: one thread is as fast and leaves the other core alone
        try:
            tokens, features = self._tensors(data.table)
            code_a = torch.tensor(data.code_a)
            solution_a = torch.tensor(data.solution_a)
            options = torch.tensor(data.options)
            solution_b = torch.tensor(data.solution_b)
            label = torch.tensor(data.label)
            generator = torch.Generator().manual_seed(self.config.seed)
            optimizer = torch.optim.Adam(self.net.parameters(), lr=self.config.learning_rate)
            self.net.train()
            window: list[float] = []
            report_every = max(1, self.config.steps // 10)
            for step in range(self.config.steps):
                batch = torch.randint(0, len(label), (self.config.batch,), generator=generator)
                logits = self.net(
                    (tokens[code_a[batch]], features[code_a[batch]]),
                    (tokens[solution_a[batch]], features[solution_a[batch]]),
                    (tokens[options[batch]], features[options[batch]]),
                    (tokens[solution_b[batch]], features[solution_b[batch]]),
                    features[options[batch]],
                )
                loss = torch.nn.functional.cross_entropy(logits, label[batch])
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                window.append(float(loss.detach()))
                if (step + 1) % report_every == 0:
                    self.losses.append(round(sum(window) / len(window), 4))
                    window = []
            self.net.eval()
            self._encodings.clear()
        finally:
            torch.set_num_threads(threads)
        return self.losses

    def _encoded(self, items: Sequence[tuple[TaskContext, Program]]) -> tuple[Any, Any]:
        """(encodings, features) of the items, each encoded once and kept: options recur across instances."""
        torch = self._torch
        missing = list(dict.fromkeys(item for item in items if item not in self._encodings))
        if missing:
            table = _Table()
            for ctx, code in missing:
                table.add(ctx, code)
            tokens, features = self._tensors(table)
            with torch.no_grad():
                vectors = self.net.encode(tokens, features)
            if len(self._encodings) > 100_000:
                self._encodings.clear()
            for item, vector, row in zip(missing, vectors, features):
                self._encodings[item] = (vector, row)
        pairs = [self._encodings[item] for item in items]
        return torch.stack([v for v, _ in pairs]), torch.stack([f for _, f in pairs])

    def score(
        self, reference: TaskContext, code_a: Program, target: TaskContext, options: Sequence[Program]
    ) -> list[float]:
        """A score per option (higher = more likely the same student's attempt on ``target``)."""
        torch = self._torch
        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            items = [(reference, code_a), (reference, reference.solution), (target, target.solution)]
            vectors, _ = self._encoded(items)
            options_encoded, option_features = self._encoded([(target, option) for option in options])
            student = (vectors[0] - vectors[1]).unsqueeze(0)
            candidate = (options_encoded - vectors[2]).unsqueeze(0)
            with torch.no_grad():
                logits = self.net.pair_scores(student, candidate, option_features.unsqueeze(0))
        finally:
            torch.set_num_threads(threads)
        return [float(v) for v in logits[0]]

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".partial")
        self._torch.save(
            {"state": self.net.state_dict(), "config": asdict(self.config), "losses": self.losses}, partial
        )
        partial.replace(path)  # a crash mid-write never leaves a truncated cache file behind

    def load(self, path: Path) -> None:
        saved = self._torch.load(path, weights_only=True)
        self.net.load_state_dict(saved["state"])
        self._encodings.clear()
        self.losses = list(saved.get("losses", []))
        self.net.eval()


def trained_model(brief: FamilyBrief, config: NeurSSConfig, cache_dir: Path | None = None) -> tuple[NeurSSModel, bool]:
    """(the model for a family observed on ``brief.reference``, whether it came from the cache); trains when missing."""
    path = (cache_dir or default_cache_dir()) / f"{config.key(brief)}.pt"
    model = NeurSSModel(config)
    if path.is_file():
        model.load(path)
        return model, True
    model.fit(build_training_data(brief, config))
    model.save(path)
    return model, False


# -------------------------------------------------------------------------------------------- the technique


class NeurSS:
    """The technique ``neurss``: pick the option the trained scorer rates highest; generate by ranking proposals."""

    name = "neurss"
    settings: tuple[str, ...] = ("default",)
    reads_true_type = False

    def __init__(self, config: NeurSSConfig | None = None, cache_dir: Path | None = None) -> None:
        require("torch", feature="NeurSS", extra="hf")
        self.config = config or NeurSSConfig()
        self.cache_dir = cache_dir
        self._models: dict[TaskSheet, NeurSSModel] = {}
        self._descriptions: dict[TaskSheet, dict[int, str]] = {}
        self._contexts: dict[TaskSheet, TaskContext] = {}
        self._proposals: dict[TaskSheet, list[Program]] = {}
        self.from_cache: dict[str, bool] = {}

    def prepare(self, brief: FamilyBrief) -> None:
        descriptions = {b.type_id: b.description for b in brief.behaviours}
        for sheet in brief.tasks:
            self._descriptions[sheet] = descriptions
        if brief.reference in self._models:
            return
        model, cached = trained_model(brief, self.config, self.cache_dir)
        self._models[brief.reference] = model
        self.from_cache[brief.reference.name] = cached

    def _context(self, sheet: TaskSheet) -> TaskContext:
        if sheet not in self._contexts:
            self._contexts[sheet] = reference_context(sheet)
        return self._contexts[sheet]

    def option_scores(
        self, reference: TaskSheet, code_a: Program, target: TaskSheet, options: Sequence[Program]
    ) -> list[float]:
        model = self._models.get(reference)
        if model is None:
            raise InputError(f"NeurSS was not prepared for task '{reference.name}'")
        return model.score(self._context(reference), code_a, self._context(target), options)

    def predict(self, question: Question) -> dict[str, str]:
        programs = [o.program for o in question.options]
        return {
            "default": choose(
                question, self.option_scores(question.reference, question.code_a, question.target, programs)
            )
        }

    def synthesize(self, question: Question, top_k: int = 3) -> list[Program]:
        """The best of every behaviour's most likely attempts on the target (and its solution), by the scorer."""
        target = question.target
        descriptions = self._descriptions.get(target)
        if descriptions is None:
            raise InputError(f"NeurSS was not prepared for task '{target.name}'")
        if target not in self._proposals:
            ctx = self._context(target)
            proposals: dict[Program, None] = {ctx.solution: None}
            for behaviour in sorted(descriptions):
                for program in behaviour_model(ctx, descriptions[behaviour]).top(40):
                    proposals[program] = None
            self._proposals[target] = list(proposals)
        ranked = self._proposals[target]
        scores = self.option_scores(question.reference, question.code_a, target, ranked)
        order = sorted(range(len(ranked)), key=lambda i: -scores[i])
        return [ranked[i] for i in order[:top_k]]
