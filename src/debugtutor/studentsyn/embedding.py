"""A small learned code embedding for EditEmbD, trained in seconds on CPU on codes we generate ourselves.

The paper's embedding nets were trained on real code.org attempts, which are not public. We have no real student
data, so we train on programs we generate: random single-block edits (insert, delete, replace an action, change a
condition, wrap in or unwrap a loop) applied repeatedly to the family's task solutions.
The network (bag-of-n-gram features of the token sequence, a two-layer perceptron) is fitted so that the
Euclidean distance between two codes' embeddings predicts their Zhang-Shasha tree edit distance, a structural
distance that the token-sequence Levenshtein of EditD only approximates. Needs torch (the ``hf`` extra).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from debugtutor.errors import require
from debugtutor.maze import Condition, IfElse, Move, Program, RepeatUntilGoal, TurnLeft, TurnRight
from debugtutor.studentsyn.distances import tokens_of, tree_edit_distance

_ACTIONS = (Move(), TurnLeft(), TurnRight())
_CONDITIONS = tuple(Condition)
VOCABULARY = 16  # EditD tokens are small integers (lists 1/7, actions, loop and condition markers)


def _mutate_body(body: tuple[Any, ...], rng: random.Random) -> tuple[Any, ...]:
    items = list(body)
    # Descend into a compound statement now and then, so edits reach loop bodies and branches too.
    compound = [i for i, stmt in enumerate(items) if isinstance(stmt, (RepeatUntilGoal, IfElse))]
    if compound and rng.random() < 0.4:
        i = rng.choice(compound)
        stmt = items[i]
        if isinstance(stmt, RepeatUntilGoal):
            items[i] = RepeatUntilGoal(_mutate_body(stmt.body, rng) or (Move(),))
        elif rng.random() < 0.2:
            items[i] = IfElse(rng.choice(_CONDITIONS), stmt.then_body, stmt.else_body)
        elif rng.random() < 0.5:
            items[i] = IfElse(stmt.cond, _mutate_body(stmt.then_body, rng) or (Move(),), stmt.else_body)
        else:
            items[i] = IfElse(stmt.cond, stmt.then_body, _mutate_body(stmt.else_body, rng) or (Move(),))
        return tuple(items)
    op = rng.random()
    if op < 0.4 or not items:
        items.insert(rng.randint(0, len(items)), rng.choice(_ACTIONS))
    elif op < 0.7:
        del items[rng.randrange(len(items))]
    elif op < 0.95:
        items[rng.randrange(len(items))] = rng.choice(_ACTIONS)
    else:
        cut = rng.randint(0, len(items))
        items = [*items[:cut], RepeatUntilGoal(tuple(items[cut:]) or (Move(),))]
    return tuple(items)


def generate_codes(seeds: Sequence[Program], count: int, *, seed: int = 0, max_edits: int = 8) -> list[Program]:
    """``count`` programs, each a seed program after 0..max_edits random block edits."""
    rng = random.Random(seed)
    codes: list[Program] = []
    for _ in range(count):
        body = rng.choice(list(seeds)).body
        for _ in range(rng.randint(0, max_edits)):
            body = _mutate_body(body, rng)
        codes.append(Program(body or (Move(),)))
    return codes


FEATURES = VOCABULARY + VOCABULARY * VOCABULARY + VOCABULARY * 8


def code_features(code: Program) -> np.ndarray:
    """Counts of EditD tokens, of adjacent token pairs, and of tokens by nesting depth (bag of n-grams)."""
    tokens = [min(t, VOCABULARY - 1) for t in tokens_of(code)]
    vector = np.zeros(FEATURES, dtype=np.float32)
    depth = 0
    for i, token in enumerate(tokens):
        vector[token] += 1
        if i:
            vector[VOCABULARY + tokens[i - 1] * VOCABULARY + token] += 1
        depth += 1 if token == 1 else 0
        vector[VOCABULARY + VOCABULARY * VOCABULARY + token * 8 + min(depth, 7)] += 1
        depth -= 1 if token == 7 else 0
    return vector


class CodeEmbedder:
    """Embeds programs into R^dim; trained so that embedding distance tracks tree edit distance.

    A two-layer network over bag-of-n-gram features of the EditD token sequence: small enough to train full-batch in
    a couple of seconds on two CPU cores.
    """

    def __init__(self, dim: int = 32, hidden: int = 128, seed: int = 0) -> None:
        torch: Any = require("torch", feature="EditEmbD's code embedding", extra="hf")
        self._torch: Any = torch
        torch.manual_seed(seed)
        nn = torch.nn
        self.seed = seed
        self.net = nn.Sequential(nn.Linear(FEATURES, hidden), nn.ReLU(), nn.Linear(hidden, dim))
        self._cache: dict[Program, np.ndarray] = {}

    def _inputs(self, codes: Sequence[Program]) -> Any:
        return self._torch.from_numpy(np.stack([code_features(code) for code in codes]))

    def fit(self, codes: Sequence[Program], *, pairs: int = 1500, steps: int = 150) -> list[float]:
        """Fit on random pairs of ``codes`` (full batch); returns the loss every 10 steps (it should fall)."""
        torch = self._torch
        # One thread: the model is tiny, and more threads only fight with the rest of the machine for cores.
        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            return self._fit(codes, pairs, steps)
        finally:
            torch.set_num_threads(threads)

    def _fit(self, codes: Sequence[Program], pairs: int, steps: int) -> list[float]:
        torch = self._torch
        rng = random.Random(self.seed)
        pool = list(codes)
        left = [rng.choice(pool) for _ in range(pairs)]
        right = [rng.choice(pool) for _ in range(pairs)]
        target = torch.tensor([float(tree_edit_distance(a, b)) for a, b in zip(left, right)])
        x_left, x_right = self._inputs(left), self._inputs(right)
        optimizer = torch.optim.Adam(self.net.parameters(), lr=1e-2)
        losses: list[float] = []
        self.net.train()
        for step in range(steps):
            distance = (self.net(x_left) - self.net(x_right)).pow(2).sum(-1).add(1e-8).sqrt()
            loss = torch.nn.functional.mse_loss(distance, target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if step % 10 == 0:
                losses.append(float(loss.detach()))
        self.net.eval()
        self._cache.clear()
        return losses

    def embed(self, codes: Sequence[Program]) -> np.ndarray:
        missing = [code for code in dict.fromkeys(codes) if code not in self._cache]
        if missing:
            with self._torch.no_grad():
                vectors = self.net(self._inputs(missing)).numpy()
            for code, vector in zip(missing, vectors):
                self._cache[code] = vector
        return np.stack([self._cache[code] for code in codes])

    def distance(self, a: Program, b: Program) -> float:
        vectors = self.embed([a, b])
        return float(np.linalg.norm(vectors[0] - vectors[1]))
