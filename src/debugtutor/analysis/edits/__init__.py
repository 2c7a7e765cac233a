"""Single-edit program transformations shared by bug injection (mutation) and fix search (repair).

``candidate_edits(source, lines=..., direction="repair")`` yields fix-oriented edits, most plausible first: the
syntax fixes that :mod:`debugtutor.analysis.static` proposes for each syntax issue (add a colon, close a bracket or
string, re-indent a block, ``=`` -> ``==``, translate a foreign keyword), reference fixes (rename an undefined name
or method to the closest defined one, unwrap a call to an undefined foreign function) and logic edits on the AST
(comparison and arithmetic operator swaps, +-1 on range bounds, indices and constants, ``and``/``or``, negated
conditions, swapped variables, ``print`` -> ``return``, a missing ``return``, moving, dropping or swapping
statements), and, in repair direction only, the inverses of common novice mistakes that no single swap undoes: a
discarded value returned or assigned back (``s.strip()`` -> ``s = s.strip()``), slice shapes (``[-1:]`` ->
``[::-1]``), regrouped operator chains (``x + y / 2`` -> ``(x + y) / 2``), range steps and starts, recursive calls
that do not shrink their argument, a missing conversion (``set()``, ``round()``, ...), a clause borrowed from another
condition, a constant replaced by a value of the input, a missing term, and inserted statements (an accumulator's
initialisation, the step of a stuck while loop, the tail link of a spliced node). ``direction="mutate"`` yields the
bug-injecting counterparts for the DebugBench taxonomy.

Every edit is a text substitution located by AST positions (or by the line scanner when the source does not
parse), so comments and layout outside the changed span survive byte for byte.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Collection, Iterator

from debugtutor.analysis.edits._base import ALL_CATEGORIES, Direction, Edit, EditCategory, _Candidate, _Context, _Text
from debugtutor.analysis.edits._logic import (
    _arithmetic_edits,
    _assignment_comparison_edits,
    _call_swap_edits,
    _comparison_edits,
    _condition_edits,
    _constant_edits,
    _index_edits,
    _print_return_edits,
    _range_edits,
    _statement_edits,
    _variable_edits,
)
from debugtutor.analysis.edits._novice import (
    _accumulator_edits,
    _conjunct_edits,
    _discarded_value_edits,
    _link_tail_edits,
    _list_display_edits,
    _loop_advance_edits,
    _missing_term_edits,
    _range_repair_edits,
    _recursion_edits,
    _regroup_edits,
    _scope_constant_edits,
    _slice_edits,
    _wrap_edits,
)
from debugtutor.analysis.edits._reference import _reference_mutations, _reference_repairs
from debugtutor.analysis.edits._syntax import _compiles, _syntax_mutations, _syntax_repairs, _uncomment_repairs
from debugtutor.analysis.static import LEETCODE_PREAMBLE

__all__ = ["ALL_CATEGORIES", "Direction", "Edit", "EditCategory", "candidate_edits"]

# ---------------------------------------------------------------------------------------------------------------
# Entry point.

_LOGIC_OPERATORS: tuple[Callable[[_Context], Iterator[_Candidate]], ...] = (
    _assignment_comparison_edits,
    _print_return_edits,
    _comparison_edits,
    _range_edits,
    _arithmetic_edits,
    _condition_edits,
    _constant_edits,
    _index_edits,
    _call_swap_edits,
    _statement_edits,
    _variable_edits,
    _discarded_value_edits,
    _slice_edits,
    _regroup_edits,
    _range_repair_edits,
    _recursion_edits,
    _wrap_edits,
    _conjunct_edits,
    _scope_constant_edits,
    _missing_term_edits,
    _accumulator_edits,
    _loop_advance_edits,
    _list_display_edits,
    _link_tail_edits,
)


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def candidate_edits(
    source: str,
    *,
    lines: Collection[int] | None = None,
    categories: Collection[str] = ALL_CATEGORIES,
    direction: Direction = "repair",
    preamble: Collection[str] | None = None,
) -> Iterator[Edit]:
    """All single edits of ``source`` at ``lines`` (every line when ``None``), most plausible first.

    ``direction="repair"`` yields fix-oriented edits, ``"mutate"`` bug-injecting ones (see the module docstring).
    ``preamble`` lists names the run environment provides; by default LeetCode's names when the source defines
    ``class Solution``, else none. Works on source that does not parse: only syntax repairs are possible there.
    Each yielded program differs from ``source`` and from every earlier one.
    """
    if preamble is None:
        preamble = LEETCODE_PREAMBLE if re.search(r"^\s*class\s+Solution\b", source, flags=re.M) else ()
    wanted_lines = None if lines is None else set(lines)
    candidates: list[_Candidate] = []
    try:
        tree: ast.Module | None = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        tree = None
    # some errors only the compiler reports (`return` outside a function after a bad dedent): they parse
    compiles = tree is not None and _compiles(source)
    if direction == "repair" and not compiles:
        candidates.extend(c for c in _syntax_repairs(source, wanted_lines) if c[1].category in categories)
    if direction == "repair" and compiles and "syntax" in categories:
        candidates.extend(_uncomment_repairs(source, wanted_lines))
    if direction == "mutate" and "syntax" in categories:
        # a syntax mutant must really break compilation (an over-indented sole statement, `x // note`, still parse)
        candidates.extend(c for c in _syntax_mutations(source, wanted_lines) if not _compiles(c[1].source))
    if tree is not None:
        ctx = _Context(_Text(source), tree, wanted_lines, direction, preamble, _parents(tree))
        if "reference" in categories:
            if direction == "repair":
                candidates.extend(_reference_repairs(ctx))
            else:
                candidates.extend(c for c in _reference_mutations(ctx) if c[1].category == "reference")
        if "logic" in categories:
            for operator in _LOGIC_OPERATORS:
                candidates.extend(operator(ctx))
            if direction == "mutate":
                candidates.extend(c for c in _reference_mutations(ctx) if c[1].category == "logic")
    candidates.sort(key=lambda c: (c[0], c[1].line))
    seen = {source}
    for _, edit in candidates:
        if edit.source not in seen:
            seen.add(edit.source)
            yield edit
