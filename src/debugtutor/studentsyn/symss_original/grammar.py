"""The weighted grammars of the original SymSS: building them, normalising them, and the best-parse probability.

Re-implemented from the StudentSyn repository's code (``code/symSS``), keeping every behaviour that changes a number:

- A grammar is built as an ordered list of productions ``lhs -> rhs [weight]``. A production whose left side and
  right-hand symbols, written one after the other without separators, equal an earlier one's is dropped (the earlier
  weight stays; weights are not added).
- Weights are normalised per left side (negative weights count as 0; a left side whose weights sum to 0 keeps them)
  and then rounded to 6 decimals, as the original writes them to text and reads them back; the rounded values are
  not renormalised.
- Every rule is binary (``A -> B C``) or emits one terminal (``A -> "t"``).
- The score of a token sequence is the probability of its single best parse from ``S`` (a max-product CYK), computed
  in float64 in the same order of multiplication as the original (rule weight, then left child, then right child), so
  products small enough to underflow do so here too.

Building blocks, named after what they derive: :meth:`RuleList.chain` (exactly one symbol sequence),
:meth:`RuleList.prefixes` (its proper prefixes of two or more symbols), :meth:`RuleList.skippable` (the sequence with
optional positions). Their nonterminal names follow the original's scheme exactly, so any accidental name sharing in
the original happens here too.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from debugtutor.errors import InputError

START = "S"


class GrammarError(InputError):
    """A grammar the original SymSS code could not build either (it stops with an error on the same input)."""


def is_terminal(symbol: str) -> bool:
    return len(symbol) >= 2 and symbol[0] in "'\"" and symbol[-1] in "'\""


@dataclass
class RuleList:
    """Productions in the order they were added; ``rules`` holds ``(lhs, rhs symbols, weight)``."""

    rules: list[tuple[str, tuple[str, ...], float]] = field(default_factory=list)

    def add(self, lhs: str, alternatives: Sequence[str], weights: Sequence[float] | None = None) -> None:
        """``lhs -> alt1 [w1] | alt2 [w2] ...``; missing weights are 1, surplus ones ignored (as in the original)."""
        chosen = list(weights) if weights else [1.0] * len(alternatives)
        for rhs, weight in zip(alternatives, chosen):
            self.rules.append((lhs, tuple(rhs.split()), float(weight)))

    def chain(self, lhs: str, sequence: str, symbol: str, start_weight: float | None = None) -> list[str]:
        """Rules deriving exactly the symbols of ``sequence`` from ``lhs``, branching right through ``_{symbol}{i}``.

        The first rule weighs ``start_weight`` (default 1), the others 1. Returns the intermediate nonterminals, the
        i-th of which derives the sequence from position i + 1 on.
        """
        tokens = sequence.split()
        weights = [1.0] * len(tokens)
        if start_weight is not None:
            weights[0] = start_weight
        head, following = lhs, f"_{symbol}0"
        created: list[str] = []
        for index, token in enumerate(tokens):
            if index == len(tokens) - 2:
                self.rules.append((head, (token, tokens[-1]), weights[index]))
                break
            self.rules.append((head, (token, following), weights[index]))
            head = following
            created.append(following)
            following = f"_{symbol}{index + 1}"
        return created

    def prefixes(self, sequence: str, start_weight: float | None) -> None:
        """A chain from ``S`` for each proper prefix of two or more symbols, each weighing ``start_weight / count``
        (``None``: weight 1 each)."""
        tokens = sequence.split()
        middle = tokens[1:-1]
        prefix = tokens[0]
        for index, token in enumerate(middle):
            prefix += " " + token + " "
            weight = None if start_weight is None else start_weight / len(middle)
            self.chain(START, prefix, f"S_{index}", start_weight=weight)

    def skippable(
        self,
        sequence: str,
        skip_positions: Sequence[int],
        start_weight: float,
        skip_weight: float = 2.0,
        name: str = "S_SKIP",
    ) -> None:
        """A chain from ``S`` for ``sequence`` in which each symbol at ``skip_positions`` may be left out.

        An inner position gets a rule (weight ``skip_weight``) that jumps over it; position 0 gets a second start rule
        (``skip_weight * start_weight``); when the last skippable position is one of the last two symbols, the whole
        construction is repeated without that symbol (start weight ``start_weight * skip_weight``). Positions must
        not be adjacent, and there must be at least one, as in the original.
        """
        positions = [int(p) for p in skip_positions]
        if not positions:
            raise GrammarError(f"no position to skip in '{sequence.strip()}'", field="symss-original")
        ordered = sorted(positions)
        if any(b == a + 1 for a, b in itertools.pairwise(ordered)):
            raise GrammarError(f"adjacent positions to skip in '{sequence.strip()}'", field="symss-original")
        suffix_of = [START, *self.chain(START, sequence, name, start_weight=start_weight)]
        tokens = sequence.split()
        count = len(tokens)
        for position in positions:
            if position in (0, count - 1, count - 2):
                continue
            if position == count - 3:
                self.rules.append((suffix_of[position], (tokens[position + 1], tokens[position + 2]), skip_weight))
            else:
                self.rules.append((suffix_of[position], (tokens[position + 1], suffix_of[position + 2]), skip_weight))
        if 0 in positions:
            self.rules.append((suffix_of[0], (tokens[1], suffix_of[2]), skip_weight * start_weight))
        last = positions[-1]
        if last in (count - 2, count - 1):
            shorter = " ".join(tokens[:last] + tokens[last + 1 :])
            self.skippable(shorter, positions[:-1], start_weight * skip_weight, skip_weight, f"{name}_REM_LAST")


@dataclass(frozen=True)
class Production:
    lhs: str
    rhs: tuple[str, ...]
    probability: float


def normalise(rules: RuleList) -> list[Production]:
    """Drop repeated productions (first kept), normalise per left side, round to 6 decimals."""
    seen: set[str] = set()
    kept: list[tuple[str, tuple[str, ...], float]] = []
    for lhs, rhs, weight in rules.rules:
        if not rhs:
            raise GrammarError(f"empty right-hand side for {lhs}", field="symss-original")
        key = lhs + "".join(rhs)
        if key in seen:
            continue
        seen.add(key)
        kept.append((lhs, rhs, weight))
    totals: dict[str, float] = {}
    for lhs, _, weight in kept:
        totals[lhs] = totals.get(lhs, 0.0) + max(weight, 0.0)
    out = []
    for lhs, rhs, weight in kept:
        total = totals[lhs] or 1.0
        out.append(Production(lhs, rhs, round(max(weight, 0.0) / total, 6)))
    return out


class Grammar:
    """A normalised grammar in binary/terminal form, ready to score token sequences."""

    def __init__(self, productions: list[Production]) -> None:
        self.productions = productions
        symbols = {START}
        for production in productions:
            symbols.add(production.lhs)
            if len(production.rhs) == 2:
                symbols.update(production.rhs)
            elif len(production.rhs) != 1:
                raise GrammarError(f"not a binary or terminal rule: {production}", field="symss-original")
        ordered = [START, *sorted(symbols - {START})]
        self.index = {symbol: i for i, symbol in enumerate(ordered)}
        # Terminal rules fill a span of one token; a later rule for the same (lhs, terminal) would overwrite.
        self.emit: dict[str, list[tuple[int, float]]] = {}
        binary = []
        for production in productions:
            if len(production.rhs) == 1:
                terminal = production.rhs[0].strip('"').strip("'")
                self.emit.setdefault(terminal, []).append((self.index[production.lhs], production.probability))
            else:
                left, right = production.rhs
                binary.append((self.index[production.lhs], self.index[left], self.index[right], production.probability))
        table = np.array(binary, dtype=float).reshape(-1, 4)
        self._lhs = table[:, 0].astype(np.int64)
        self._left = table[:, 1].astype(np.int64)
        self._right = table[:, 2].astype(np.int64)
        self._weight = table[:, 3]

    @classmethod
    def build(cls, rules: RuleList) -> Grammar:
        return cls(normalise(rules))

    def best_parse_probability(self, tokens: Sequence[str]) -> float:
        """The probability of the most probable derivation of ``tokens`` from ``S`` (0 when there is none)."""
        n = len(tokens)
        if n == 0:
            return 0.0
        symbols = len(self.index)
        chart = np.zeros((symbols, n, n))
        for position, token in enumerate(tokens):
            for lhs, probability in self.emit.get(token, ()):
                chart[lhs, position, position] = probability
        if len(self._weight) == 0:
            return float(chart[0, 0, n - 1]) if n == 1 else 0.0
        weights = self._weight[:, None, None]
        left_symbol = self._left[:, None, None]
        right_symbol = self._right[:, None, None]
        lhs_of = self._lhs
        for width in range(2, n + 1):
            starts = np.arange(n - width + 1)[:, None]
            splits = np.arange(width - 1)[None, :]
            ends = starts + width - 1
            left = chart[left_symbol, starts, starts + splits]
            right = chart[right_symbol, starts + splits + 1, ends]
            best_per_rule = (weights * left * right).max(axis=2)
            best = np.zeros((symbols, best_per_rule.shape[1]))
            np.maximum.at(best, lhs_of, best_per_rule)
            span_starts = starts[:, 0]
            chart[:, span_starts, span_starts + width - 1] = best
        return float(chart[0, 0, n - 1])

    def score(self, tokens: Sequence[str]) -> float:
        """The original's option score: log of the best-parse probability per token (-inf when underivable)."""
        probability = self.best_parse_probability(tokens)
        if probability == 0.0:
            return float("-inf")
        return math.log(probability) / max(len(tokens), 1)
