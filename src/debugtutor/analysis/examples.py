"""Tests from examples: LeetCode example blocks -> sandbox calls, more inputs by perturbation, oracle expectations.

A DebugBench item has no test cases, only the problem's example blocks (``Input: nums = [2,7,11,15], target = 9``
newline ``Output: [0,1]``) and the correct (oracle) solution. This module parses the blocks into
:class:`debugtutor.sandbox.LeetCodeCall` s, derives more inputs by type-preserving perturbation of the examples
(numbers nudged, list elements changed, shuffled, dropped or repeated, strings re-lettered, tree shapes kept), and
takes the expected value of every call from the oracle run in the sandbox — twice, keeping only calls where both
runs succeed and agree, so a non-deterministic oracle never defines a test.
"""

from __future__ import annotations

import itertools
import json
import random
import re
import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from debugtutor import python_ast
from debugtutor.analysis.leetcode import MethodSignature, TreeNode, entry_method, list_to_tree, solution_methods
from debugtutor.sandbox import Language, LeetCodeCall, LeetCodeRequest, Limits, Status, run

_NAME_VALUE = re.compile(r"\s*([A-Za-z_]\w*)\s*=\s*(.*)", re.S)


class ParsedExample(BaseModel):
    """One example block: argument values by name (or ``_0``, ``_1`` ... when unnamed) and the stated output."""

    args: dict[str, Any]
    expected: Any | None
    text: str


def _split_top_level(text: str, separator: str = ",") -> list[str]:
    parts: list[str] = []
    depth = 0
    quote: str | None = None
    current: list[str] = []
    escaped = False
    for ch in text:
        if quote is not None:
            current.append(ch)
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = None
            continue
        if ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == separator and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return [p for p in parts if p.strip()]


def parse_value(text: str) -> Any:
    """A value in LeetCode notation (JSON with ``null``/``true``/``false``, or a Python literal)."""
    text = text.strip().rstrip(".").strip()
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass

    swapped = re.sub(r"\bnull\b", "None", re.sub(r"\btrue\b", "True", re.sub(r"\bfalse\b", "False", text)))
    try:
        return python_ast.literal_eval(swapped)
    except (ValueError, SyntaxError, MemoryError, RecursionError) as exc:
        raise ValueError(f"not a LeetCode value: {text[:80]!r}") from exc


def parse_example(text: str) -> ParsedExample | None:
    """Parse one ``Input: ... / Output: ...`` block; ``None`` when it has no parsable input or output."""
    match = re.search(r"Input\s*:?\s*(.*?)\s*\n\s*Output\s*:?\s*(.*?)(?:\n\s*Explanation|\n\s*\n|$)", text, re.S)
    if match is None:
        return None
    raw_input, raw_output = match.group(1).strip(), match.group(2).strip()
    raw_output = raw_output.splitlines()[0] if raw_output else raw_output
    args: dict[str, Any] = {}
    try:
        pieces = _split_top_level(raw_input)
        for index, piece in enumerate(pieces):
            named = _NAME_VALUE.fullmatch(piece)
            if named and not named.group(2).startswith("="):
                args[named.group(1)] = parse_value(named.group(2))
            else:
                args[f"_{index}"] = parse_value(piece)
        expected = parse_value(raw_output)
    except ValueError:
        return None
    return ParsedExample(args=args, expected=expected, text=text)


def _bind(example: ParsedExample, method: MethodSignature | None) -> dict[str, Any] | None:
    """The example's arguments keyed by the method's parameter names (positional when the names differ)."""
    if method is None:
        return dict(example.args)
    names = [p.name for p in method.parameters]
    if set(example.args) == set(names):
        return {name: example.args[name] for name in names}
    if len(example.args) == len(names):
        return dict(zip(names, example.args.values()))
    return None


def _fits(returns: str, value: Any) -> bool:
    """Whether a declared C++/Java return type can hold an example's output (no type: it may)."""
    if not returns or value is None:
        return True
    text = returns.replace(" ", "")
    listy = text.startswith(("vector", "List", "ArrayList", "ListNode", "TreeNode")) or text.endswith(("[]", "*"))
    if isinstance(value, list):
        return listy
    if isinstance(value, bool):
        return text in ("bool", "boolean", "Boolean")
    if isinstance(value, str):
        return text in ("string", "String", "char", "Character", "std::string")
    if isinstance(value, (int, float)):
        return not listy and text not in ("bool", "boolean", "string", "String", "void")
    return True


COMMENT_MARK = re.compile(r"/\*|\*/|//")
"""A C++/Java comment's opening or closing mark."""


def entry_method_for(example: ParsedExample, code: str, language: Language = "python") -> MethodSignature | None:
    """The method an example calls: by argument names, then (C++/Java) by a return type that fits its output."""
    if language == "python":
        return entry_method(code, set(example.args))
    # (a method a comment wraps whole is still the one the examples call: the repair must give it back)
    methods = solution_methods(code, language) or solution_methods(COMMENT_MARK.sub("  ", code), language)
    names = set(example.args)
    for pool in (
        [m for m in methods if {p.name for p in m.parameters} == names],
        [m for m in methods if len(m.parameters) == len(names)],
    ):
        fitting = [m for m in pool if _fits(m.returns, example.expected)] or pool
        if len(fitting) > 1:
            return _likeliest_entry(fitting, code, language)
        if fitting:
            return fitting[0]
    return entry_method(code, names, language)


def _likeliest_entry(methods: list[MethodSignature], code: str, language: Language) -> MethodSignature:
    """Of several methods an example could call, the one LeetCode calls: a public one, not a helper another method
    calls, and of those the longest (a method added beside the solution, as a planted "undefined method" bug adds
    one, is a line or two); the last declared among equals, and when the program does not parse cleanly."""
    from debugtutor.analysis.clike.syntax_tree import method_extents

    extents = method_extents(code, language)  # type: ignore[arg-type]
    if extents is None:
        return methods[-1]
    public = [method for method in methods if method.name in extents and not extents[method.name].private]
    called = {
        method.name
        for method in public
        for other, extent in extents.items()
        if other != method.name and re.search(rf"\b{re.escape(method.name)}\s*\(", extent.body)
    }
    entries = [method for method in public if method.name not in called] or public or methods
    return max(reversed(entries), key=lambda method: extents[method.name].lines if method.name in extents else 0)


def example_calls(examples: list[str], code: str | None = None, language: Language = "python") -> list[LeetCodeCall]:
    """Calls for every parsable example block, argument names bound to ``code``'s solution method when given
    (``language`` says how to read it)."""
    calls: list[LeetCodeCall] = []
    for text in examples:
        example = parse_example(text)
        if example is None:
            continue
        method = entry_method_for(example, code, language) if code else None
        args = _bind(example, method)
        if args is not None:
            calls.append(LeetCodeCall(args=args, expected=example.expected))
    return calls


# ---------------------------------------------------------------------------------------------------------------
# Design problems: the example names a class, then the methods called on one object of it, in order.

_DESIGN = re.compile(
    r"Input\s*:?\s*\n\s*(\[.*?\])\s*\n\s*(\[.*?\])\s*\n\s*Output\s*:?\s*\n\s*(\[.*?\])\s*(?:\n|$)", re.S
)


def parse_design_example(text: str) -> dict[str, Any] | None:
    """A design example (``Input`` / operation names / their arguments / ``Output``) as a sequence, else None."""
    match = _DESIGN.search(text)
    return None if match is None else _design_sequence(match)


def _design_sequence(match: re.Match[str]) -> dict[str, Any] | None:
    try:
        operations, arguments, outputs = (parse_value(group) for group in match.groups())
    except ValueError:
        return None
    if not (isinstance(operations, list) and isinstance(arguments, list) and isinstance(outputs, list)):
        return None
    if not operations or len(operations) != len(arguments) or len(outputs) != len(operations):
        return None
    if not all(isinstance(name, str) and name.isidentifier() for name in operations):
        return None
    if not all(isinstance(args, list) for args in arguments):
        return None
    return {"operations": operations, "arguments": arguments, "expected": outputs}


def design_calls(examples: list[str]) -> list[LeetCodeCall]:
    """One call per parsable design example (a text may hold several): ``args`` holds the ``operations`` (the class
    name, then the methods) and their ``arguments``; ``expected`` is the answer of each operation (``null`` for the
    constructor and for a method that returns nothing)."""
    calls = []
    for match in (found for text in examples for found in _DESIGN.finditer(text)):
        sequence = _design_sequence(match)
        if sequence is not None:
            args = {"operations": sequence["operations"], "arguments": sequence["arguments"]}
            calls.append(LeetCodeCall(args=args, expected=sequence["expected"]))
    return calls


def stated_calls(examples: list[str], code: str, language: Language) -> tuple[list[LeetCodeCall], str | None]:
    """The examples' calls that state their answer, and what they call: a ``Solution`` method (its name), or, for a
    design problem, operation sequences on a class (the class's name)."""
    calls = [call for call in example_calls(examples, code, language) if call.expected is not None]
    if calls:
        return calls, example_method(examples, code, language)
    sequences = design_calls(examples)
    return sequences, (str(sequences[0].args["operations"][0]) if sequences else None)


def is_design_call(call: LeetCodeCall) -> bool:
    """Whether ``call`` is an operation sequence on a class (see :func:`design_calls`), not one method call."""
    return set(call.args) == {"operations", "arguments"}


def is_design(calls: Sequence[LeetCodeCall]) -> bool:
    """Whether the calls are operation sequences on a design problem's class."""
    return bool(calls) and all(is_design_call(call) for call in calls)


# ---------------------------------------------------------------------------------------------------------------
# Type-preserving perturbation.


def _perturb_scalar(value: Any, rng: random.Random) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        new = value + rng.choice((-2, -1, 1, 2, 3))
        return abs(new) if value >= 0 else new  # keep the sign: constraints are usually about it
    if isinstance(value, float):
        return round(value * rng.choice((0.5, 0.9, 1.1, 2.0)), 5)
    if isinstance(value, str):
        return _perturb_string(value, rng)
    return value


def _perturb_string(value: str, rng: random.Random) -> str:
    if not value:
        return value
    chars = list(value)
    # letters are replaced from the string's own alphabet class so that "only lowercase" style constraints hold
    index = rng.randrange(len(chars))
    ch = chars[index]
    if ch.isdigit():
        pool = string.digits
    elif ch.islower():
        pool = "".join(sorted(set(value) & set(string.ascii_lowercase))) or string.ascii_lowercase
        pool = pool if len(pool) > 1 else pool + string.ascii_lowercase[:3]
    elif ch.isupper():
        pool = string.ascii_uppercase
    else:
        pool = "".join(sorted(set(value)))
    chars[index] = rng.choice(pool)
    if rng.random() < 0.3:
        rng.shuffle(chars)
    return "".join(chars)


def _perturb(value: Any, rng: random.Random) -> Any:
    if not isinstance(value, list):
        return _perturb_scalar(value, rng)
    if not value:
        return value
    if any(v is None for v in value) or any(isinstance(v, list) for v in value):
        # trees (with holes) and matrices keep their shape: only values change
        copy = list(value)
        positions = [i for i, v in enumerate(copy) if v is not None]
        i = rng.choice(positions)
        copy[i] = _perturb(copy[i], rng)
        return copy
    copy = list(value)
    operation = rng.choice(("change", "shuffle", "drop", "repeat") if len(copy) > 1 else ("change", "repeat"))
    if operation == "change":
        i = rng.randrange(len(copy))
        copy[i] = _perturb_scalar(copy[i], rng)
    elif operation == "shuffle":
        rng.shuffle(copy)
    elif operation == "drop":
        del copy[rng.randrange(len(copy))]
    else:
        copy.insert(rng.randrange(len(copy) + 1), rng.choice(copy))
    return copy


def perturb_calls(
    calls: list[LeetCodeCall], *, count: int, seed: int = 0, rules: InputRules | None = None
) -> list[LeetCodeCall]:
    """Up to ``count`` new calls, each an example with one or two arguments perturbed (expected left unset); with
    ``rules``, only inputs the rules allow (the problem's constraints and the examples' invariants)."""
    if not calls:
        return []
    rng = random.Random(seed)
    seen = {json.dumps(c.args, sort_keys=True) for c in calls}
    found: list[LeetCodeCall] = []
    for _ in range(count * (40 if rules else 10)):
        if len(found) >= count:
            break
        base = rng.choice(calls)
        args = json.loads(json.dumps(base.args))
        names = list(args)
        for name in rng.sample(names, k=min(len(names), rng.choice((1, 2)))):
            args[name] = _perturb(args[name], rng)
        key = json.dumps(args, sort_keys=True)
        if key not in seen:
            seen.add(key)
            if rules is None or rules.allows(args):
                found.append(LeetCodeCall(args=args))
    return found


# ---------------------------------------------------------------------------------------------------------------
# Expected values from the oracle.


def oracle_outputs(
    oracle_code: str,
    calls: list[LeetCodeCall],
    *,
    limits: Limits | None = None,
    method: str | None = None,
    lang: Language = "python",
) -> list[LeetCodeCall]:
    """``calls`` with ``expected`` set to the oracle's output, keeping only calls on which two runs agree."""
    if not calls:
        return []
    unset = [LeetCodeCall(args=c.args) for c in calls]
    request = LeetCodeRequest(code=oracle_code, calls=unset, method=method, limits=limits or Limits(), lang=lang)
    first, second = run(request), run(request)
    kept: list[LeetCodeCall] = []
    for call, a, b in zip(calls, first.tests, second.tests):
        if a.status != Status.passed or b.status != Status.passed or a.actual is None or a.actual != b.actual:
            continue
        kept.append(LeetCodeCall(args=call.args, expected=json.loads(a.actual)))
    return kept


def oracle_tests(
    examples: list[str],
    oracle_code: str,
    *,
    extra: int = 10,
    seed: int = 0,
    limits: Limits | None = None,
) -> list[LeetCodeCall]:
    """The example calls plus ``extra`` perturbed ones, every expected value taken from the (deterministic) oracle."""
    base = example_calls(examples, oracle_code)
    candidates = base + perturb_calls(base, count=extra, seed=seed)
    return oracle_outputs(oracle_code, candidates, limits=limits, method=example_method(examples, oracle_code))


def entry_point(code: str, names: Sequence[str], title: str = "") -> MethodSignature | None:
    """The ``Solution`` method a LeetCode test with these argument names calls, from the code's real signatures.

    The method whose parameters are exactly ``names`` (ignoring case, and parameters with defaults after them);
    else the one method that can take that many arguments and that no other method calls (a helper is called by
    the entry point); else, among those, the one whose name shares the most words with the problem's ``title``
    (LeetCode names the method after the problem); None when that does not single one out, rather than a guess."""
    latest = {method.name: method for method in solution_methods(code)}  # a redefinition replaces the first one
    methods = list(latest.values())
    optional = _defaults(code)
    wanted = [name.lower() for name in names]

    def takes(method: MethodSignature) -> bool:
        required = len(method.parameters) - optional.get(method.name, 0)
        return required <= len(wanted) <= len(method.parameters)

    exact = [
        m for m in methods if takes(m) and sorted(p.name.lower() for p in m.parameters[: len(wanted)]) == sorted(wanted)
    ]
    if len(exact) == 1:
        return _first(exact[0], len(wanted))
    called = _called_by_others(code)
    pool = exact or [method for method in methods if takes(method)]
    entries = [method for method in pool if method.name not in called] or pool
    if len(entries) > 1 and title:
        scores = {method.name: _title_words(method.name, title) for method in entries}
        best = max(scores.values())
        entries = [method for method in entries if scores[method.name] == best] if best else entries
    return _first(entries[0], len(wanted)) if len(entries) == 1 else None


def _title_words(name: str, title: str) -> int:
    """How many words of a camelCase method name start a word of the problem's title (``add`` ~ ``adding``)."""
    words = [word.lower() for word in re.findall(r"[A-Z]?[a-z]+|\d+", name)]
    title_words = re.split(r"[^a-z0-9]+", title.lower())
    return sum(1 for word in words if any(part.startswith(word) for part in title_words if part))


def _first(method: MethodSignature, count: int) -> MethodSignature:
    """The method with only its first ``count`` parameters (those a test passes)."""
    return MethodSignature(method.name, method.parameters[:count], method.returns)


def _defaults(code: str) -> dict[str, int]:
    """How many trailing parameters of each ``Solution`` method have a default value."""
    import ast

    try:
        tree = python_ast.parse(code)
    except (SyntaxError, ValueError):
        return {}
    found: dict[str, int] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "Solution":
            for function in node.body:
                if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    found[function.name] = len(function.args.defaults)
    return found


def _called_by_others(code: str) -> set[str]:
    """Names of ``Solution`` methods that another method of the class refers to (``self.name``)."""
    import ast

    try:
        tree = python_ast.parse(code)
    except (SyntaxError, ValueError):
        return set()
    called: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "Solution":
            for function in node.body:
                if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    for inner in ast.walk(function):
                        if (
                            isinstance(inner, ast.Attribute)
                            and isinstance(inner.value, ast.Name)
                            and inner.value.id in ("self", "Solution")
                            and inner.attr != function.name
                        ):
                            called.add(inner.attr)
    return called


def example_method(examples: list[str], code: str, language: Language = "python") -> str | None:
    """The name of the ``Solution`` method the examples call (the ``method`` of a ``LeetCodeRequest``)."""
    for text in examples:
        example = parse_example(text)
        if example is not None:
            method = entry_method_for(example, code, language)
            return method.name if method else None
    method = entry_method(code, None, language)
    return method.name if method else None


# ---------------------------------------------------------------------------------------------------------------
# What a valid input is: the problem's stated constraints and the properties every example input shares.
#
# A perturbed input outside the problem's constraints can have several right answers or none (next-greater-element-i
# with a value of nums1 missing from nums2), so a correct solution may legitimately differ from the oracle there.
# Perturbations must therefore pass two kinds of checks, both general: the numeric bounds the constraints text
# states (``1 <= nums.length <= 10^4``, ``0 <= k < n``), and invariants every example input satisfies (sorted,
# distinct, a subset of another argument, an index within a list's length, a closed alphabet or value domain).
# A check that some example input fails (a misread constraint) is dropped, so the checks never reject the examples.

Check = Callable[[dict[str, Any]], bool]


@dataclass
class InputRules:
    """Named checks an input must pass; ``allows`` is False when any check fails or cannot be evaluated."""

    checks: list[tuple[str, Check]] = field(default_factory=list)

    def allows(self, args: dict[str, Any]) -> bool:
        for _, check in self.checks:
            try:
                if not check(args):
                    return False
            except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError):
                return False
        return True

    def allows_all(self, examples: list[dict[str, Any]]) -> bool:
        return all(self.allows(args) for args in examples)

    @property
    def names(self) -> list[str]:
        return [name for name, _ in self.checks]


def input_rules(calls: list[LeetCodeCall], constraints: str = "", node_args: Sequence[str] = ()) -> InputRules:
    """The checks a perturbed input of these example calls must pass (each one passed by every example)."""
    examples = [call.args for call in calls]
    if not examples:
        return InputRules()
    candidates = constraint_checks(constraints, list(examples[0]), node_args) + invariant_checks(examples)
    return InputRules([(name, check) for name, check in candidates if InputRules([(name, check)]).allows_all(examples)])


def _scalars(value: Any) -> list[Any]:
    """Every non-list leaf of a (nested) list, holes (None) left out."""
    if isinstance(value, list):
        return [leaf for item in value for leaf in _scalars(item)]
    return [] if value is None else [value]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int_list(value: Any) -> bool:
    return isinstance(value, list) and all(_is_int(v) for v in value)


def _is_bst(values: list[Any]) -> bool:
    """Whether a level-order tree (None for holes) is a binary search tree with distinct values."""
    root = list_to_tree(values)
    previous: list[Any] = []

    def walk(node: TreeNode | None) -> bool:
        if node is None:
            return True
        if not walk(node.left):
            return False
        if previous and not previous[-1] < node.val:
            return False
        previous.append(node.val)
        return walk(node.right)

    return walk(root)


def _on(name: str, predicate: Callable[[Any], bool]) -> Check:
    """A check of one argument's value."""

    def check(args: dict[str, Any]) -> bool:
        return predicate(args[name])

    return check


def _non_empty(value: Any) -> bool:
    return len(value) > 0


def _within(domain: frozenset[Any]) -> Callable[[Any], bool]:
    return lambda value: set(_scalars(value)) <= domain


def _characters_within(alphabet: frozenset[str]) -> Callable[[Any], bool]:
    return lambda value: set("".join(_scalars(value)) if isinstance(value, list) else value) <= alphabet


def _pairwise(relation: Callable[[Any, Any], bool]) -> Callable[[Any], bool]:
    return lambda values: all(relation(x, y) for x, y in itertools.pairwise(values))


_LIST_PROPERTIES: list[tuple[str, Callable[[Any], bool]]] = [
    ("non-decreasing", _pairwise(lambda x, y: x <= y)),
    ("increasing", _pairwise(lambda x, y: x < y)),
    ("non-increasing", _pairwise(lambda x, y: x >= y)),
    (">= 0 each", lambda values: all(x >= 0 for x in values)),
    (">= 1 each", lambda values: all(x >= 1 for x in values)),
    ("a permutation of 0..n-1", lambda values: sorted(values) == list(range(len(values)))),
    ("a permutation of 1..n", lambda values: sorted(values) == list(range(1, len(values) + 1))),
]


def invariant_checks(examples: list[dict[str, Any]]) -> list[tuple[str, Check]]:
    """Properties of single arguments and of pairs of arguments that every example input may share."""
    names = list(examples[0])
    checks: list[tuple[str, Check]] = []
    for name in names:
        values = [args[name] for args in examples]
        if all(_is_int(v) for v in values):
            checks.append((f"{name} >= 0", _on(name, lambda v: v >= 0)))
            checks.append((f"{name} >= 1", _on(name, lambda v: v >= 1)))
        if all(isinstance(v, str) for v in values):
            checks.append(
                (f"{name} in the examples' alphabet", _on(name, _characters_within(frozenset("".join(values)))))
            )
            checks.append((f"{name} not empty", _on(name, _non_empty)))
        if all(isinstance(v, list) for v in values):
            checks.extend(_list_checks(name, values))
    for first in names:
        for second in names:
            if first != second:
                checks.extend(_pair_checks(first, second, examples))
    # a nudged value past a 32-bit boundary does not fit the parameter type in C++ or Java
    checks.append(("integers within 32 bits", lambda args: all(_fits_32_bits(value) for value in args.values())))
    return checks


def _fits_32_bits(value: Any) -> bool:
    return all(-(2**31) <= leaf <= 2**31 - 1 for leaf in _scalars(value) if _is_int(leaf))


def _list_checks(name: str, values: list[list[Any]]) -> list[tuple[str, Check]]:
    checks: list[tuple[str, Check]] = [
        (f"{name} not empty", _on(name, _non_empty)),
        (f"{name} distinct", _on(name, _distinct)),
    ]
    if len(values) >= 2 and all(values):
        # an end every example shares (a grid whose corners are open, a path that starts at node 0)
        for label, end in (("first", _first_leaf), ("last", _last_leaf)):
            ends = {json.dumps(end(value)) for value in values}
            if len(ends) == 1:
                wanted = next(iter(ends))
                checks.append((f"{name} {label} item {wanted}", _on(name, _end_is(end, wanted))))
    leaves = [leaf for value in values for leaf in _scalars(value)]
    if len(leaves) >= 6 and all(isinstance(x, (int, str)) for x in leaves) and len(set(leaves)) <= 3:
        checks.append((f"{name} values in {sorted(set(leaves), key=str)}", _on(name, _within(frozenset(leaves)))))
    if leaves and all(isinstance(x, str) for x in leaves):
        alphabet = frozenset("".join(leaves))
        checks.append((f"{name} in the examples' alphabet", _on(name, _characters_within(alphabet))))
    if all(_int_list(v) for v in values):
        checks.extend((f"{name} {label}", _on(name, predicate)) for label, predicate in _LIST_PROPERTIES)
    if all(v and all(isinstance(row, list) for row in v) for v in values):
        checks.append((f"{name} rectangular", _on(name, lambda v: len({len(row) for row in v}) <= 1)))
        checks.append((f"{name} square", _on(name, lambda v: all(len(row) == len(v) for row in v))))
    if any(None in v for v in values) and all(all(not isinstance(x, list) for x in v) for v in values):
        checks.append((f"{name} a search tree", _on(name, _is_bst)))  # level-order trees with holes
    return checks


def _first_leaf(value: Any) -> Any:
    while isinstance(value, list) and value:
        value = value[0]
    return value


def _last_leaf(value: Any) -> Any:
    while isinstance(value, list) and value:
        value = value[-1]
    return value


def _end_is(end: Callable[[Any], Any], wanted: str) -> Callable[[Any], bool]:
    return lambda value: bool(value) and json.dumps(end(value)) == wanted


def _distinct(value: list[Any]) -> bool:
    keys = [json.dumps(item, sort_keys=True) for item in value if item is not None]
    return len(keys) == len(set(keys))


def _pair_checks(first: str, second: str, examples: list[dict[str, Any]]) -> list[tuple[str, Check]]:
    a_values = [args[first] for args in examples]
    b_values = [args[second] for args in examples]
    checks: list[tuple[str, Check]] = []
    if all(_is_int(v) for v in a_values) and all(_is_int(v) for v in b_values):
        checks.append((f"{first} <= {second}", lambda a: a[first] <= a[second]))
        checks.append((f"{first} < {second}", lambda a: a[first] < a[second]))
    if all(_is_int(v) for v in a_values) and all(isinstance(v, (list, str)) for v in b_values):
        checks.append((f"{first} <= len({second})", lambda a: a[first] <= len(a[second])))
        checks.append((f"{first} < len({second})", lambda a: a[first] < len(a[second])))
        checks.append((f"{first} == len({second})", lambda a: a[first] == len(a[second])))
        checks.append((f"{first} in {second}", lambda a: a[first] in _scalars(a[second])))
        if all(isinstance(v, list) for v in b_values):
            checks.append((f"{second} values < {first}", lambda a: all(x < a[first] for x in _scalars(a[second]))))
            checks.append((f"{second} values <= {first}", lambda a: all(x <= a[first] for x in _scalars(a[second]))))
    if all(isinstance(v, (list, str)) for v in a_values) and all(isinstance(v, (list, str)) for v in b_values):
        checks.append((f"len({first}) == len({second})", lambda a: len(a[first]) == len(a[second])))
        checks.append((f"len({first}) <= len({second})", lambda a: len(a[first]) <= len(a[second])))
        checks.append((f"{first} values within {second}'s", lambda a: set(_keys(a[first])) <= set(_keys(a[second]))))
        checks.append(
            (f"{first} a rearrangement of {second}", lambda a: sorted(_keys(a[first])) == sorted(_keys(a[second])))
        )
    return checks


def _keys(value: Any) -> list[str]:
    return [json.dumps(leaf) for leaf in _scalars(value)] if isinstance(value, list) else list(value)


# The constraints text: chains of comparisons over numbers and references to the arguments.
_COMPARISON = re.compile(r"(<=|>=|==|!=|<|>)")
_REFERENCE = re.compile(
    r"^(?:len\((?P<len_name>[A-Za-z_]\w*)\)|(?P<name>[A-Za-z_]\w*)(?P<path>(?:\[[a-z]\]|\[\d+\])*)"
    r"(?P<length>\.length|\.size\(\)|\.length\(\))?)$"
)
_NODES_RANGE = re.compile(
    r"number of nodes in the (?:tree|list|linked list)s? is in the range \[(\d+),\s*(\d+)\]", re.I
)


def _number(text: str) -> float | None:
    """A constant of the constraints text; ``10d`` stands for 10^d there (the scraped text lost the superscript)."""
    text = text.replace(" ", "")
    match = re.fullmatch(r"(-?)(\d+(?:\.\d+)?)(?:\*(\d+))?(?:\^(\d+)|\*\*(\d+))?", text)
    if match is None:
        return None
    sign = -1 if match.group(1) else 1
    base = match.group(2)
    multiplier = None
    if match.group(3):
        multiplier, base = float(base), match.group(3)
    exponent = match.group(4) or match.group(5)
    if exponent is not None:
        value = float(base) ** int(exponent)
    elif re.fullmatch(r"10[1-9]", base):
        value = 10.0 ** int(base[2])
    elif re.fullmatch(r"2(?:3[12]|6[34])", base):
        value = 2.0 ** int(base[1:])
    else:
        value = float(base)
    return sign * value * (multiplier or 1.0)


def _reference_values(term: str, args: dict[str, Any], aliases: dict[str, str], node_args: Sequence[str]) -> list[Any]:
    """The values a term stands for in one input (several for ``nums[i]``), or KeyError when it names nothing."""
    term = aliases.get(term, term)
    if term in ("Node.val", "node.val"):
        return [leaf for name in node_args for leaf in _scalars(args[name])]
    match = _REFERENCE.fullmatch(term)
    if match is None:
        raise KeyError(term)
    if match.group("len_name"):
        return [len(args[match.group("len_name")])]
    values = [args[match.group("name")]]
    for index in re.findall(r"\[([a-z]|\d+)\]", match.group("path") or ""):
        values = [v[int(index)] for v in values] if index.isdigit() else [item for v in values for item in v]
    if match.group("length"):
        return [len(v) for v in values]
    if any(isinstance(v, (list, str, dict)) for v in values):
        raise TypeError(term)
    return values


def _evaluate(expression: str, args: dict[str, Any], aliases: dict[str, str], node_args: Sequence[str]) -> list[Any]:
    """Values of ``a``, ``a + b``, ``a - b`` or ``a * b`` (one side may stand for several values)."""
    expression = expression.strip()
    constant = _number(expression)
    if constant is not None:
        return [constant]
    for operator in (" + ", " - ", " * "):
        if operator in expression:
            left, right = expression.rsplit(operator, 1)
            lefts = _evaluate(left, args, aliases, node_args)
            rights = _evaluate(right, args, aliases, node_args)
            combine = {" + ": float.__add__, " - ": float.__sub__, " * ": float.__mul__}[operator]
            return [combine(float(x), float(y)) for x in lefts for y in rights]
    return _reference_values(expression, args, aliases, node_args)


_OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    "<=": lambda x, y: x <= y,
    ">=": lambda x, y: x >= y,
    "<": lambda x, y: x < y,
    ">": lambda x, y: x > y,
    "==": lambda x, y: x == y,
    "!=": lambda x, y: x != y,
}


def constraint_checks(text: str, names: Sequence[str], node_args: Sequence[str] = ()) -> list[tuple[str, Check]]:
    """One check per comparison chain of the constraints text whose terms all name arguments (or aliases of them,
    such as ``n == nums.length``), and one per "number of nodes ... in the range [a, b]" sentence."""
    lines = [
        " ".join(line.replace("\u2264", "<=").replace("\u2265", ">=").replace("\xa0", " ").split())
        for line in text.splitlines()
    ]
    aliases: dict[str, str] = {}
    known = set(names)
    for line in lines:
        parts = [part.strip() for part in _COMPARISON.split(line)]
        # "n == nums.length": n names the length of an argument from here on
        if len(parts) == 3 and parts[1] == "==" and re.fullmatch(r"[A-Za-z_]\w*", parts[0]) and parts[0] not in known:
            target = _REFERENCE.fullmatch(parts[2])
            if target and (target.group("len_name") or target.group("name")) in known:
                aliases[parts[0]] = parts[2]
    checks: list[tuple[str, Check]] = []
    for line in lines:
        nodes = _NODES_RANGE.search(line)
        if nodes and node_args:
            low, high = int(nodes.group(1)), _number(nodes.group(2)) or 0.0
            checks.append((line, _node_count_check(node_args, low, high)))
            continue
        parts = [part.strip() for part in _COMPARISON.split(line)]
        if len(parts) < 3 or not all(parts):
            continue
        operands = [[term.strip() for term in part.split(",")] for part in parts[0::2]]
        operators = parts[1::2]
        checks.append((line, _chain_check(operands, operators, aliases, node_args)))
    return checks


def _node_count_check(node_args: Sequence[str], low: float, high: float) -> Check:
    def check(args: dict[str, Any]) -> bool:
        return all(low <= len(_scalars(args[name])) <= high for name in node_args)

    return check


def _chain_check(
    operands: list[list[str]], operators: list[str], aliases: dict[str, str], node_args: Sequence[str]
) -> Check:
    def check(args: dict[str, Any]) -> bool:
        for left_terms, operator, right_terms in zip(operands, operators, operands[1:]):
            compare = _OPERATORS[operator]
            for left in left_terms:
                for right in right_terms:
                    lefts = _evaluate(left, args, aliases, node_args)
                    rights = _evaluate(right, args, aliases, node_args)
                    if not all(compare(x, y) for x in lefts for y in rights):
                        return False
        return True

    return check


def scalar_bounds(constraints: str, names: Sequence[str]) -> dict[str, list[float]]:
    """The numeric bounds the constraints text puts right beside an argument (``0 <= n <= 37``: n -> [0, 37])."""
    bounds: dict[str, list[float]] = {}
    for raw in constraints.splitlines():
        parts = [part.strip() for part in _COMPARISON.split(" ".join(raw.split()))]
        for position in range(0, len(parts), 2):
            for term in (t.strip() for t in parts[position].split(",")):
                if term not in names:
                    continue
                for neighbour, operator in ((position - 2, position - 1), (position + 2, position + 1)):
                    if 0 <= neighbour < len(parts) and parts[operator] in ("<=", ">="):
                        value = _number(parts[neighbour])
                        if value is not None:
                            bounds.setdefault(term, []).append(value)
    return bounds


def boundary_calls(
    calls: list[LeetCodeCall],
    constraints: str,
    rules: InputRules,
    *,
    known: Sequence[LeetCodeCall] = (),
    limit: int = 1000,
    count: int = 4,
) -> list[LeetCodeCall]:
    """Example calls with one integer argument set to a bound the constraints state (up to ``limit``), where the
    rules allow it: the largest inputs a problem promises are where a slow solution shows (LeetCode's time limit)."""
    if not calls:
        return []
    names = [name for name in calls[0].args if all(_is_int(call.args.get(name)) for call in calls)]
    seen = {json.dumps(call.args, sort_keys=True) for call in [*calls, *known]}
    found: list[LeetCodeCall] = []
    for name, values in sorted(scalar_bounds(constraints, names).items()):
        for value in sorted(set(values), reverse=True):
            if not value.is_integer() or abs(value) > limit:
                continue
            for call in calls:
                args = {**call.args, name: int(value)}
                key = json.dumps(args, sort_keys=True)
                if key not in seen and rules.allows(args):
                    seen.add(key)
                    found.append(LeetCodeCall(args=args))
                    break
    return found[:count]
