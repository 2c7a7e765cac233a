"""Fixtures for the analysis tests: a tiny edit proposer that stands in for the real operators where a test needs
full control over which candidates exist."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass
from typing import Literal

import pytest


@dataclass(frozen=True)
class ScriptedEdit:
    operator: str
    category: Literal["syntax", "reference", "logic"]
    line: int
    description: str
    source: str


@dataclass(frozen=True)
class Replacement:
    """Replace ``old`` by ``new`` on ``line`` (1-based) when the line contains ``old``."""

    line: int
    old: str
    new: str
    category: Literal["syntax", "reference", "logic"] = "logic"


class ScriptedProposer:
    """Proposes the given replacements wherever they apply, in order, and records what it was asked for."""

    def __init__(self, replacements: list[Replacement]) -> None:
        self.replacements = replacements
        self.calls: list[tuple[str, tuple[int, ...] | None]] = []

    def __call__(
        self,
        source: str,
        *,
        lines: Collection[int] | None = None,
        categories: Collection[str] = ("syntax", "reference", "logic"),
        direction: Literal["mutate", "repair"] = "repair",
    ) -> Iterator[ScriptedEdit]:
        self.calls.append((source, tuple(sorted(lines)) if lines is not None else None))
        text_lines = source.split("\n")
        for item in self.replacements:
            if lines is not None and item.line not in lines:
                continue
            if item.category not in categories or item.line > len(text_lines):
                continue
            if item.old not in text_lines[item.line - 1]:
                continue
            edited = list(text_lines)
            edited[item.line - 1] = edited[item.line - 1].replace(item.old, item.new, 1)
            yield ScriptedEdit(
                operator="scripted",
                category=item.category,
                line=item.line,
                description=f"line {item.line}: {item.old} -> {item.new}",
                source="\n".join(edited),
            )


@pytest.fixture
def scripted_proposer() -> type[ScriptedProposer]:
    return ScriptedProposer


@pytest.fixture
def replacement() -> type[Replacement]:
    return Replacement
