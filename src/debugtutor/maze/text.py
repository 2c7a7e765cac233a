"""A readable text form of Maze programs and its parser, plus a parser for the compact notation.

Text form (what :func:`format_program` writes and :func:`parse_program` reads)::

    move();
    turnLeft();
    repeatUntil(goal) {
        if (pathAhead) {
            move();
        } else {
            turnLeft();
        }
    }

``repeat(3) { ... }`` is the counted loop and ``if (c) { ... }`` without ``else`` the plain If. Semicolons after
actions are optional, ``//`` and ``#`` start comments. The compact notation of the reference docs
(``M L RUG{IF(pathAhead){M}ELSE{L}}``, ``REP3{...}``) is read by :func:`parse_compact`. Syntax errors raise
:class:`ProgramSyntaxError`, which says ``line:col`` and what was expected.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from debugtutor.errors import InputError
from debugtutor.maze.ast import (
    Condition,
    If,
    IfElse,
    Move,
    Program,
    Repeat,
    RepeatUntilGoal,
    Stmt,
    TurnLeft,
    TurnRight,
)


class ProgramSyntaxError(InputError):
    """A program text that does not parse; names the source, line and column."""

    def __init__(self, message: str, *, source: str | None, line: int, col: int) -> None:
        super().__init__(f"{source or '<program>'}:{line}:{col}: {message}")
        self.path = source
        self.line = line
        self.col = col


@dataclass(frozen=True)
class _Token:
    kind: str  # "name", "number", "punct" or "end"
    text: str
    line: int
    col: int


_TOKEN_PATTERN = re.compile(
    r"(?P<space>\s+)|(?P<comment>(?://|#)[^\n]*)|(?P<number>\d+)|(?P<name>[A-Za-z_]\w*)"
    r"|(?P<punct>[(){};])"
)


def _tokenize(text: str, source: str | None) -> list[_Token]:
    tokens: list[_Token] = []
    position, line, line_start = 0, 1, 0
    while position < len(text):
        match = _TOKEN_PATTERN.match(text, position)
        if match is None:
            raise ProgramSyntaxError(
                f"unexpected character {text[position]!r}", source=source, line=line, col=position - line_start + 1
            )
        kind = match.lastgroup or "space"
        if kind not in ("space", "comment"):
            tokens.append(_Token(kind, match.group(), line, position - line_start + 1))
        for offset, char in enumerate(match.group()):
            if char == "\n":
                line, line_start = line + 1, position + offset + 1
        position = match.end()
    tokens.append(_Token("end", "", line, position - line_start + 1))
    return tokens


class _Parser:
    """Recursive descent over a token list; ``read_statement`` says how one statement of the notation reads."""

    def __init__(self, text: str, source: str | None, read_statement: Callable[[_Parser], Stmt]) -> None:
        self.read_statement = read_statement
        self.tokens = _tokenize(text, source)
        self.index = 0
        self.source = source

    @property
    def current(self) -> _Token:
        return self.tokens[self.index]

    def error(self, expected: str) -> ProgramSyntaxError:
        token = self.current
        found = "end of input" if token.kind == "end" else repr(token.text)
        return ProgramSyntaxError(
            f"expected {expected}, found {found}", source=self.source, line=token.line, col=token.col
        )

    def accept(self, text: str) -> bool:
        if self.current.text == text and self.current.kind != "end":
            self.index += 1
            return True
        return False

    def expect(self, text: str) -> None:
        if not self.accept(text):
            raise self.error(f"'{text}'")

    def number(self) -> int:
        if self.current.kind != "number":
            raise self.error("a repeat count")
        value = int(self.current.text)
        self.index += 1
        return value

    def condition(self) -> Condition:
        for cond in Condition:
            if self.accept(cond.value):
                return cond
        raise self.error("a condition (pathAhead, pathLeft, pathRight)")

    def block(self) -> tuple[Stmt, ...]:
        self.expect("{")
        body = self.statements(closing="}")
        self.expect("}")
        return body

    def statements(self, closing: str | None) -> tuple[Stmt, ...]:
        body: list[Stmt] = []
        while not (self.current.kind == "end" or (closing is not None and self.current.text == closing)):
            body.append(self.read_statement(self))
        return tuple(body)

    def program(self) -> Program:
        body = self.statements(closing=None)
        if self.current.kind != "end":
            raise self.error("a statement")
        return Program(body)


_TEXT_ACTIONS: dict[str, Stmt] = {"move": Move(), "turnLeft": TurnLeft(), "turnRight": TurnRight()}


def _text_statement(parser: _Parser) -> Stmt:
    token = parser.current
    if token.kind == "name" and token.text in _TEXT_ACTIONS:
        parser.index += 1
        parser.expect("(")
        parser.expect(")")
        parser.accept(";")
        return _TEXT_ACTIONS[token.text]
    if parser.accept("repeatUntil"):
        parser.expect("(")
        parser.expect("goal")
        parser.expect(")")
        return RepeatUntilGoal(parser.block())
    if parser.accept("repeat"):
        parser.expect("(")
        times = parser.number()
        parser.expect(")")
        return Repeat(times, parser.block())
    if parser.accept("if"):
        parser.expect("(")
        cond = parser.condition()
        parser.expect(")")
        then_body = parser.block()
        if parser.accept("else"):
            return IfElse(cond, then_body, parser.block())
        return If(cond, then_body)
    raise parser.error("a statement (move(), turnLeft(), turnRight(), repeatUntil, repeat, if)")


_COMPACT_ACTIONS: dict[str, Stmt] = {"M": Move(), "L": TurnLeft(), "R": TurnRight()}
_COMPACT_REPEAT = re.compile(r"REP(\d+)$")


def _compact_statement(parser: _Parser) -> Stmt:
    token = parser.current
    if token.kind == "name" and token.text in _COMPACT_ACTIONS:
        parser.index += 1
        return _COMPACT_ACTIONS[token.text]
    if parser.accept("RUG"):
        return RepeatUntilGoal(parser.block())
    repeat = _COMPACT_REPEAT.match(token.text) if token.kind == "name" else None
    if repeat:
        parser.index += 1
        return Repeat(int(repeat.group(1)), parser.block())
    if parser.accept("IF"):
        parser.expect("(")
        cond = parser.condition()
        parser.expect(")")
        then_body = parser.block()
        if parser.accept("ELSE"):
            return IfElse(cond, then_body, parser.block())
        return If(cond, then_body)
    raise parser.error("a block (M, L, R, RUG{...}, REPn{...}, IF(c){...})")


def parse_program(text: str, *, source: str | None = None) -> Program:
    """Parse the readable text form into a program; errors give ``source:line:col``."""
    return _Parser(text, source, _text_statement).program()


def parse_compact(text: str, *, source: str | None = None) -> Program:
    """Parse the compact notation (``M L RUG{IF(pathAhead){M}ELSE{L}}``) into a program."""
    return _Parser(text, source, _compact_statement).program()


_FORMAT_ACTIONS = {Move: "move();", TurnLeft: "turnLeft();", TurnRight: "turnRight();"}


def format_program(program: Program, *, indent: str = "    ") -> str:
    """The readable text form, one statement per line; ``parse_program(format_program(p)) == p``."""
    lines: list[str] = []

    def emit(body: tuple[Stmt, ...], depth: int) -> None:
        pad = indent * depth
        for stmt in body:
            if isinstance(stmt, (Move, TurnLeft, TurnRight)):
                lines.append(pad + _FORMAT_ACTIONS[type(stmt)])
                continue
            if isinstance(stmt, RepeatUntilGoal):
                lines.append(f"{pad}repeatUntil(goal) {{")
            elif isinstance(stmt, Repeat):
                lines.append(f"{pad}repeat({stmt.times}) {{")
            else:
                lines.append(f"{pad}if ({stmt.cond.value}) {{")
            if isinstance(stmt, IfElse):
                emit(stmt.then_body, depth + 1)
                lines.append(f"{pad}}} else {{")
                emit(stmt.else_body, depth + 1)
            else:
                emit(stmt.body, depth + 1)
            lines.append(f"{pad}}}")

    emit(program.body, 0)
    return "\n".join(lines) + ("\n" if lines else "")
