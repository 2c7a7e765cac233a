"""The original SymSS's generation: random top-down derivations of a type's grammar, best distinct ones first.

A derivation picks each production with its (renormalised) probability; its value is the geometric mean of the
probabilities of the productions it used. A branch that reaches depth 100 is cut and contributes nothing (the
original's "empty" marker), so a very deep derivation yields a shortened sequence. The distinct token sequences keep
the value of their first derivation and are ranked by value (then by their text, as the original's heap does); a
sequence that is not a well-formed program is skipped here (the original's parser would stop on it).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from debugtutor.maze import Condition, IfElse, Move, Program, RepeatUntilGoal, Stmt, TurnLeft, TurnRight
from debugtutor.studentsyn.symss_original.grammar import START, Grammar, Production, is_terminal

MAX_DEPTH = 100
_CUT = "<cut>"


def _by_lhs(grammar: Grammar) -> dict[str, list[Production]]:
    table: dict[str, list[Production]] = {}
    for production in grammar.productions:
        table.setdefault(production.lhs, []).append(production)
    return table


def sample_derivation(
    grammar: Grammar, rng: random.Random, table: dict[str, list[Production]] | None = None
) -> tuple[list[str], float]:
    """One random derivation from ``S``: (terminal tokens, geometric mean of the production probabilities)."""
    table = table if table is not None else _by_lhs(grammar)
    chosen: list[float] = []

    def expand(symbol: str, depth: int) -> list[str]:
        if depth == MAX_DEPTH:
            chosen.append(1.0)
            return [_CUT]
        if is_terminal(symbol):
            return [symbol.strip('"').strip("'")]
        productions = table.get(symbol)
        if not productions:
            raise ValueError(f"no production for {symbol}")
        total = sum(p.probability for p in productions)
        weights = [p.probability / total for p in productions]
        production = rng.choices(productions, weights=weights)[0]
        chosen.append(weights[productions.index(production)])
        out: list[str] = []
        for child in production.rhs:
            out.extend(expand(child, depth + 1))
        return out

    tokens = [t for t in expand(START, 0) if t != _CUT]
    value = math.exp(sum(math.log(p) for p in chosen) / len(chosen)) if chosen and min(chosen) > 0 else 0.0
    return tokens, value


_CONDITIONS = {
    "bool_path_ahead": Condition.PATH_AHEAD,
    "bool_path_left": Condition.PATH_LEFT,
    "bool_path_right": Condition.PATH_RIGHT,
}
_ACTIONS: dict[str, Stmt] = {"move": Move(), "turn_left": TurnLeft(), "turn_right": TurnRight()}


def parse_tokens(tokens: Sequence[str]) -> Program | None:
    """The program written by the original's token form (without ``DEF run m( m)``), or None if malformed."""
    position = 0

    def expect(token: str) -> bool:
        nonlocal position
        if position < len(tokens) and tokens[position] == token:
            position += 1
            return True
        return False

    def body(closing: str | None) -> list[Stmt] | None:
        nonlocal position
        statements: list[Stmt] = []
        while position < len(tokens) and tokens[position] != closing:
            token = tokens[position]
            position += 1
            if token in _ACTIONS:
                statements.append(_ACTIONS[token])
            elif token == "WHILE":
                if not (expect("c(") and expect("bool_no_marker") and expect("c)") and expect("w(")):
                    return None
                inner = body("w)")
                if inner is None or not expect("w)"):
                    return None
                statements.append(RepeatUntilGoal(tuple(inner)))
            elif token == "IFELSE":
                if not expect("c(") or position >= len(tokens) or tokens[position] not in _CONDITIONS:
                    return None
                condition = _CONDITIONS[tokens[position]]
                position += 1
                if not (expect("c)") and expect("i(")):
                    return None
                then_body = body("i)")
                if then_body is None or not (expect("i)") and expect("ELSE") and expect("e(")):
                    return None
                else_body = body("e)")
                if else_body is None or not expect("e)"):
                    return None
                statements.append(IfElse(condition, tuple(then_body), tuple(else_body)))
            else:
                return None
        return statements

    statements = body(None)
    if statements is None or position != len(tokens):
        return None
    return Program(tuple(statements))


def top_derivations(grammar: Grammar, top_k: int, iterations: int, rng: random.Random) -> list[Program]:
    """The ``top_k`` best distinct programs among ``iterations`` random derivations."""
    first_value: dict[str, float] = {}
    table = _by_lhs(grammar)
    for _ in range(iterations):
        tokens, value = sample_derivation(grammar, rng, table)
        text = " ".join(tokens)
        first_value.setdefault(text, value)
    ranked = sorted(first_value.items(), key=lambda item: (-item[1], item[0]))
    programs: list[Program] = []
    for text, _ in ranked:
        program = parse_tokens(text.split())
        if program is not None and program.body and program not in programs:
            programs.append(program)
        if len(programs) == top_k:
            break
    return programs
