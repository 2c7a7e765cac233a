"""The original SymSS's grammar for each behaviour type on a task, for both kinds of family it was written for.

Re-implemented from the StudentSyn repository's ``symbolic_gen`` code; the constants (start weights, per-symbol
probabilities) and the string operations that shape the grammars are the original's, because they decide its scores.

- **Basic-action families** (the hoc4 kind: the solution is a sequence of moves and turns). The solution becomes a
  sequence of intention symbols ``M``/``L``/``R``; each type mixes the whole solution, its prefixes and versions
  with turns skipped, and says how an intention becomes blocks (the right one, a wrong one, or runs of extras).
- **Loop families** (the hoc18 kind: RepeatUntil and IfElse). The solution's full token string is the skeleton;
  optional extra-action slots (``A_ADD``) are spliced in around the structure. Type 2 builds on the task's
  hand-written distractor programs, type 6 on the task's basic-action solution.

Which kind a family is follows from its reference task's solution (any control structure: a loop family), where the
original dispatched on the task name.
"""

from __future__ import annotations

from collections.abc import Callable

from debugtutor.maze import If, IfElse, Move, Program, Repeat, RepeatUntilGoal, Stmt, TurnLeft, TurnRight
from debugtutor.studentsyn.symss_original.grammar import START, GrammarError, RuleList, is_terminal

# The original token form of a program (``DEF run m( ... m)`` around the body).
_CONDITION_TOKENS = {"pathAhead": "bool_path_ahead", "pathLeft": "bool_path_left", "pathRight": "bool_path_right"}
_ACTION_TOKENS = {Move: "move", TurnLeft: "turn_left", TurnRight: "turn_right"}
WRAPPER_TOKENS = frozenset({"DEF", "run", "m(", "m)", "<s>", "<pad>"})


def program_tokens(program: Program) -> list[str]:
    """The original's token list of a program, ``DEF run m( ... m)`` included."""

    def body(statements: tuple[Stmt, ...]) -> list[str]:
        out: list[str] = []
        for stmt in statements:
            out.extend(statement(stmt))
        return out

    def statement(stmt: Stmt) -> list[str]:
        if isinstance(stmt, (Move, TurnLeft, TurnRight)):
            return [_ACTION_TOKENS[type(stmt)]]
        if isinstance(stmt, RepeatUntilGoal):
            return ["WHILE", "c(", "bool_no_marker", "c)", "w(", *body(stmt.body), "w)"]
        if isinstance(stmt, IfElse):
            condition = _CONDITION_TOKENS[stmt.cond.value]
            return [
                "IFELSE",
                "c(",
                condition,
                "c)",
                "i(",
                *body(stmt.then_body),
                "i)",
                "ELSE",
                "e(",
                *body(stmt.else_body),
                "e)",
            ]
        if isinstance(stmt, If):
            return ["IFELSE", "c(", _CONDITION_TOKENS[stmt.cond.value], "c)", "i(", *body(stmt.body), "i)"]
        if isinstance(stmt, Repeat):
            return body(stmt.body)  # the original's converter keeps only the children of a node it does not know
        raise TypeError(f"not a Maze statement: {stmt!r}")

    return ["DEF", "run", "m(", *body(program.body), "m)"]


def scored_tokens(program: Program) -> list[str]:
    """The tokens a grammar scores: the program's tokens without the ``DEF run m( ... m)`` wrapper."""
    return [token for token in program_tokens(program) if token not in WRAPPER_TOKENS]


def has_control(program: Program) -> bool:
    return any(not isinstance(stmt, (Move, TurnLeft, TurnRight)) for stmt in program.body)


# ------------------------------------------------------------------------------------ basic-action families

_INTENTION = {"move": "M", "turn_left": "L", "turn_right": "R"}


def _intentions(solution: Program) -> str:
    return " ".join(_INTENTION[t] for t in program_tokens(solution) if t in _INTENTION)


def _turn_positions(path: str) -> list[int]:
    return [i for i, token in enumerate(path.split()) if token in ("L", "R")]


def _extra_runs(rules: RuleList) -> None:
    rules.add("RepM", ["RepM RepM", '"move"', '"turn_left"', '"turn_right"'], [0.4, 0.4, 0.1, 0.1])
    rules.add("RepL", ["RepL RepL", '"turn_left"', '"turn_right"', '"move"'], [0.4, 0.4, 0.1, 0.1])
    rules.add("RepR", ["RepR RepR", '"turn_right"', '"turn_left"', '"move"'], [0.4, 0.4, 0.1, 0.1])


def _intended(
    rules: RuleList, turn: tuple[float, float, float, float], move: tuple[float, float, float, float]
) -> None:
    """L, R and M: the intended block, the other turn (or the other blocks), or a run of extra blocks."""
    rules.add("L", ['"turn_left"', '"turn_right"', '"move"', "RepL RepL"], list(turn))
    rules.add("R", ['"turn_right"', '"turn_left"', '"move"', "RepR RepR"], list(turn))
    rules.add("M", ['"move"', '"turn_left"', '"turn_right"', "RepM RepM"], list(move))


def basic_lr_confusion(rules: RuleList, path: str) -> None:
    rules.chain(START, path, START, start_weight=9)
    rules.prefixes(path, 0.5)
    rules.skippable(path, _turn_positions(path), start_weight=0.5)
    _intended(rules, (0.2, 0.6, 0.1, 0.1), (0.7, 0.1, 0.1, 0.1))
    _extra_runs(rules)


def basic_partial(rules: RuleList, path: str) -> None:
    rules.chain(START, path, START, start_weight=0.1)
    rules.prefixes(path, 9.9)
    _intended(rules, (0.7, 0.1, 0.1, 0.1), (0.7, 0.1, 0.1, 0.1))
    _extra_runs(rules)


def basic_repetitive_turns(rules: RuleList, path: str) -> None:
    rules.chain(START, path, START, start_weight=9)
    rules.prefixes(path, 0.5)
    rules.skippable(path, _turn_positions(path), start_weight=0.5)
    rules.add("L", ['"turn_left"', "TT TT", '"turn_right"'], [0.05, 0.9, 0.05])
    rules.add("R", ['"turn_right"', "TT TT", '"turn_left"'], [0.05, 0.9, 0.05])
    rules.add("M", ['"move"', '"turn_left"', '"turn_right"', "RepM RepM"], [0.7, 0.1, 0.1, 0.1])
    rules.add("TT", ["TT T_TERM", '"turn_left"', '"turn_right"'])
    rules.add("T_TERM", ['"turn_left"', '"turn_right"'])
    rules.add("RepM", ["RepM RepM", '"move"', '"turn_left"', '"turn_right"'], [0.4, 0.4, 0.1, 0.1])


def basic_extra_moves(rules: RuleList, path: str) -> None:
    rules.chain(START, path, START, start_weight=9)
    rules.prefixes(path, 0.5)
    rules.skippable(path, _turn_positions(path), start_weight=0.5)
    _intended(rules, (0.85, 0.05, 0.05, 0.05), (0.10, 0.05, 0.05, 0.80))
    _extra_runs(rules)


def basic_forgotten_turns(rules: RuleList, path: str) -> None:
    rules.skippable(path, _turn_positions(path), start_weight=1)
    _intended(rules, (0.7, 0.1, 0.1, 0.1), (0.7, 0.1, 0.1, 0.1))
    _extra_runs(rules)


def basic_random_blocks(rules: RuleList, path: str) -> None:
    rules.chain(START, path, START, start_weight=1)
    rules.prefixes(path, 1)
    rules.skippable(path, _turn_positions(path), start_weight=1)
    # The original counts the characters of the space-separated string, not the symbols, for the number of extras.
    for size in range(len(path)):
        extended = path + " " + " ".join(["A"] * size)
        rules.chain(START, extended, f"S_A_{size}", start_weight=(size + 1) * (size + 1))
    rules.add("A", ['"turn_left"', '"turn_right"', '"move"', "A A"])
    rules.add("AL", ['"turn_left"', '"turn_right"', '"move"', "AL AL"], [0.1, 0.1, 0.5, 0.3])
    rules.add("AR", ['"turn_left"', '"turn_right"', '"move"', "AR AR"], [0.1, 0.1, 0.5, 0.3])
    rules.add("AM", ['"turn_left"', '"turn_right"', '"move"', "AM AM"], [0.3, 0.3, 0.1, 0.3])
    rules.add("L", ['"turn_left"', '"turn_right"', '"move"', "AL AL"], [0.1, 0.1, 0.1, 0.7])
    rules.add("R", ['"turn_left"', '"turn_right"', '"move"', "AR AR"], [0.1, 0.1, 0.1, 0.7])
    rules.add("M", ['"turn_left"', '"turn_right"', '"move"', "AM AM"], [0.1, 0.1, 0.1, 0.7])


BASIC_TYPES: dict[int, Callable[[RuleList, str], None]] = {
    1: basic_lr_confusion,
    2: basic_partial,
    3: basic_repetitive_turns,
    4: basic_extra_moves,
    5: basic_forgotten_turns,
    6: basic_random_blocks,
}


def basic_family_grammar(type_id: int, solution: Program) -> RuleList:
    """The original's hoc4-kind grammar for ``type_id`` on the task whose solution is ``solution``."""
    if type_id not in BASIC_TYPES:
        raise GrammarError(f"the original SymSS has no grammar for type {type_id}", field="behaviour")
    rules = RuleList()
    BASIC_TYPES[type_id](rules, _intentions(solution))
    return rules


# -------------------------------------------------------------------------------------------- loop families

_SYMBOL_OF = {
    "DEF": "",
    "m(": "",
    "m)": "",
    "run": "",
    "move": "M",
    "turn_left": "L",
    "turn_right": "R",
    "bool_path_ahead": "C_AHEAD",
    "bool_path_left": "C_LEFT",
    "bool_path_right": "C_RIGHT",
}
_IF_PARTS = ["IFELSE", "ELSE", "E(", "E)", "I(", "I)", "C( C_AHEAD C)", "C( C_LEFT C)", "C( C_RIGHT C)"]
_WHILE_PARTS = ["WHILE C( BOOL_NO_MARKER C)", "W(", "W)"]


class _LoopRules(RuleList):
    """A rule list that also turns structural terminals into single-terminal nonterminals (``"w("`` -> ``W(``)."""

    def __init__(self) -> None:
        super().__init__()
        self.structural: dict[str, str] = {}

    def skeleton(self, program: Program) -> str:
        """The program as a symbol string: actions M/L/R, conditions C_*, structure tokens as nonterminals."""
        raw = " ".join(_SYMBOL_OF.get(t, '"' + t + '"') for t in program_tokens(program)).strip()
        symbols = []
        for token in raw.split():
            if is_terminal(token):
                if token not in self.structural:
                    self.structural[token] = token[1:-1].upper()
                    self.add(self.structural[token], [token])
                symbols.append(self.structural[token])
            else:
                symbols.append(token)
        return " ".join(symbols)

    def condition_rules(self, skeleton: str, correct: float = 3, others: float = 1) -> None:
        # Only the first condition the skeleton mentions gets its rule, as in the original.
        if "C_AHEAD" in skeleton:
            self.add(
                "C_AHEAD", ['"bool_path_ahead"', '"bool_path_left"', '"bool_path_right"'], [correct, others, others]
            )
        elif "C_LEFT" in skeleton:
            self.add(
                "C_LEFT", ['"bool_path_ahead"', '"bool_path_left"', '"bool_path_right"'], [others, correct, others]
            )
        elif "C_RIGHT" in skeleton:
            self.add(
                "C_RIGHT", ['"bool_path_ahead"', '"bool_path_left"', '"bool_path_right"'], [others, others, correct]
            )
        else:
            raise GrammarError(f"no IfElse condition in '{skeleton}'", field="symss-original")

    def intended(self) -> None:
        self.add("L", ['"turn_left"', '"turn_right"', '"move"'], [0.8, 0.1, 0.1])
        self.add("R", ['"turn_right"', '"turn_left"', '"move"'], [0.8, 0.1, 0.1])
        self.add("M", ['"move"', '"turn_left"', '"turn_right"'], [0.8, 0.1, 0.1])

    def extra_actions(self) -> None:
        # Five weights for four alternatives in the original: the last is never used.
        self.add("A_ADD", ['"move"', '"turn_right"', '"turn_left"', "A_ADD  A_ADD"], [2, 1, 1, 1, 1])

    def with_slots(self, skeleton: str, name: str) -> None:
        spaced = add_extra_action_slots(skeleton)
        positions = [i for i, token in enumerate(spaced.split()) if token == "A_ADD"]
        self.skippable(spaced, positions, start_weight=1.0, name=name)


def add_extra_action_slots(skeleton: str) -> str:
    """Optional extra-action slots before WHILE, after W( I( E(, before I) E) W) (string edits, as the original)."""
    for old, new in (
        ("WHILE", "A_ADD WHILE"),
        ("W(", "W( A_ADD"),
        ("I(", "I( A_ADD"),
        ("E(", "E( A_ADD"),
        ("I)", "A_ADD I)"),
        ("E)", "A_ADD E)"),
        ("W)", "A_ADD W)"),
    ):
        skeleton = skeleton.replace(old, new)
    return skeleton


def loop_lr_confusion(rules: _LoopRules, solution: str, distractors: list[str], basic: str) -> None:
    rules.chain(START, solution, START)
    rules.add("L", ['"turn_left"', '"turn_right"', '"move"'], [0.3, 0.6, 0.1])
    rules.add("R", ['"turn_right"', '"turn_left"', '"move"'], [0.3, 0.6, 0.1])
    rules.add("M", ['"move"', '"turn_left"', '"turn_right"'], [0.8, 0.1, 0.1])
    rules.add("C_LEFT", ['"bool_path_ahead"', '"bool_path_left"', '"bool_path_right"'], [1, 2, 3])
    rules.add("C_AHEAD", ['"bool_path_ahead"', '"bool_path_left"', '"bool_path_right"'], [3, 1, 1])
    rules.add("C_RIGHT", ['"bool_path_ahead"', '"bool_path_left"', '"bool_path_right"'], [1, 3, 2])


def loop_wrong_path(rules: _LoopRules, solution: str, distractors: list[str], basic: str) -> None:
    if not distractors:
        raise GrammarError("type 2 needs the task's distractor programs", field="distractors")
    rules.extra_actions()
    for index, distractor in enumerate(distractors):
        rules.with_slots(distractor, f"S_{index}")
    rules.condition_rules(add_extra_action_slots(distractors[-1]))
    rules.intended()


def loop_same_branches(rules: _LoopRules, solution: str, distractors: list[str], basic: str) -> None:
    rules.extra_actions()
    tokens = solution.split()
    then_actions: list[tuple[str, int]] = []
    else_actions: list[tuple[str, int]] = []
    in_then = in_else = False
    for index, token in enumerate(tokens):
        if token in ("I(", "I)", "E(", "E)"):
            in_then = token == "I(" if token in ("I(", "I)") else in_then
            in_else = token == "E(" if token in ("E(", "E)") else in_else
            continue
        if token in ("C_AHEAD", "C_LEFT", "C_RIGHT"):
            continue
        if in_then:
            then_actions.append((token, index))
        if in_else:
            else_actions.append((token, index))
    if len(else_actions) != 1 or not then_actions:
        raise GrammarError("type 3 needs an IfElse with one else action", field="symss-original")
    # (a) the then-branch becomes the else action; (b) the else action becomes the first then-action. Either way
    # the other then-actions are dropped.
    first = tokens.copy()
    first[then_actions[0][1]] = else_actions[0][0]
    for _, index in then_actions[1:]:
        first[index] = ""
    second = tokens.copy()
    for _, index in then_actions[1:]:
        second[index] = ""
    second[else_actions[0][1]] = then_actions[0][0]
    rules.with_slots(" ".join(first), START)
    rules.with_slots(" ".join(second), "Z")
    rules.intended()
    rules.condition_rules(solution)


def loop_ignore_ifelse(rules: _LoopRules, solution: str, distractors: list[str], basic: str) -> None:
    rules.extra_actions()
    without_if = " ".join(solution.split())
    for part in _IF_PARTS:
        without_if = without_if.replace(part, "")
    rules.with_slots(without_if, START)
    rules.intended()


def loop_ignore_while(rules: _LoopRules, solution: str, distractors: list[str], basic: str) -> None:
    rules.extra_actions()
    without_while = " ".join(solution.split())
    for part in _WHILE_PARTS:
        without_while = without_while.replace(part, "")
    spaced = add_extra_action_slots(without_while)
    spaced = spaced.replace("IFELSE", "A_ADD IFELSE").replace("E)", "E) A_ADD")
    positions = [i for i, token in enumerate(spaced.split()) if token == "A_ADD"]
    rules.skippable(spaced, positions, start_weight=1.0, name=START)
    rules.intended()
    rules.condition_rules(solution)


def loop_basic_actions(rules: _LoopRules, solution: str, distractors: list[str], basic: str) -> None:
    rules.chain(START, basic, START)
    rules.prefixes(basic, None)
    rules.add("A", ['"turn_left"', '"turn_right"', '"move"', "A A"], [0.3, 0.3, 0.3, 0.1])
    rules.add("L", ['"turn_left"', '"turn_right"', '"move"', "A A"], [0.7, 0.1, 0.1, 0.1])
    rules.add("R", ['"turn_left"', '"turn_right"', '"move"', "A A"], [0.1, 0.7, 0.1, 0.1])
    rules.add("M", ['"turn_left"', '"turn_right"', '"move"', "A A"], [0.1, 0.1, 0.7, 0.1])


LOOP_TYPES: dict[int, Callable[[_LoopRules, str, list[str], str], None]] = {
    1: loop_lr_confusion,
    2: loop_wrong_path,
    3: loop_same_branches,
    4: loop_ignore_ifelse,
    5: loop_ignore_while,
    6: loop_basic_actions,
}


def loop_family_grammar(
    type_id: int, solution: Program, basic_solution: Program, distractors: tuple[Program, ...]
) -> RuleList:
    """The original's hoc18-kind grammar for ``type_id`` on a task (solution, basic-action solution, distractors)."""
    if type_id not in LOOP_TYPES:
        raise GrammarError(f"the original SymSS has no grammar for type {type_id}", field="behaviour")
    rules = _LoopRules()
    basic = _intentions(basic_solution)
    distractor_skeletons = [rules.skeleton(program) for program in distractors]
    skeleton = rules.skeleton(solution)
    LOOP_TYPES[type_id](rules, skeleton, distractor_skeletons, basic)
    return rules
