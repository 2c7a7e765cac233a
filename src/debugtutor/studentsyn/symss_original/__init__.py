"""The original SymSS of the StudentSyn paper (EDM 2022), re-implemented from its repository's code.

Kept apart from this project's own rule-based technique (:mod:`debugtutor.studentsyn.behaviour_edits`): this package
reproduces the original's grammars (:mod:`.generators`), their normalisation and best-parse scoring
(:mod:`.grammar`), its type inference and option choice (:mod:`.technique`), and its generation (:mod:`.sampling`).
Reports print it as "SymSS (original code)"; no other method is printed under that name.
"""

from __future__ import annotations

from debugtutor.studentsyn.symss_original.generators import (
    basic_family_grammar,
    loop_family_grammar,
    program_tokens,
    scored_tokens,
)
from debugtutor.studentsyn.symss_original.grammar import Grammar, GrammarError, RuleList
from debugtutor.studentsyn.symss_original.technique import DISPLAY_NAME, SymSSOriginal

__all__ = [
    "DISPLAY_NAME",
    "Grammar",
    "GrammarError",
    "RuleList",
    "SymSSOriginal",
    "basic_family_grammar",
    "loop_family_grammar",
    "program_tokens",
    "scored_tokens",
]
