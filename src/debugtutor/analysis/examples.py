"""Tests from examples: LeetCode example blocks -> sandbox calls, more inputs by perturbation, oracle expectations.

A DebugBench item has no test cases, only the problem's example blocks (``Input: nums = [2,7,11,15], target = 9``
newline ``Output: [0,1]``) and the correct (oracle) solution. This module parses the blocks into
:class:`debugtutor.sandbox.LeetCodeCall` s, derives more inputs by type-preserving perturbation of the examples
(numbers nudged, list elements changed, shuffled, dropped or repeated, strings re-lettered, tree shapes kept), and
takes the expected value of every call from the oracle run in the sandbox — twice, keeping only calls where both
runs succeed and agree, so a non-deterministic oracle never defines a test.
"""

from __future__ import annotations

import json
import random
import re
import string
from typing import Any

from pydantic import BaseModel

from debugtutor.analysis.leetcode import MethodSignature, entry_method, solution_methods
from debugtutor.sandbox import Language, LeetCodeCall, Limits, Status, run_leetcode

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
    import ast

    swapped = re.sub(r"\bnull\b", "None", re.sub(r"\btrue\b", "True", re.sub(r"\bfalse\b", "False", text)))
    try:
        return ast.literal_eval(swapped)
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


def entry_method_for(example: ParsedExample, code: str, language: Language) -> MethodSignature | None:
    """The method an example calls: by argument names, then (C++/Java) by a return type that fits its output."""
    if language == "python":
        return entry_method(code, set(example.args), language)
    methods = solution_methods(code, language)
    names = set(example.args)
    for pool in (
        [m for m in methods if {p.name for p in m.parameters} == names],
        [m for m in methods if len(m.parameters) == len(names)],
    ):
        fitting = [m for m in pool if _fits(m.returns, example.expected)]
        if fitting or pool:
            return (fitting or pool)[-1]
    return entry_method(code, names, language)


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


def perturb_calls(calls: list[LeetCodeCall], *, count: int, seed: int = 0) -> list[LeetCodeCall]:
    """Up to ``count`` new calls, each an example with one or two arguments perturbed (expected left unset)."""
    if not calls:
        return []
    rng = random.Random(seed)
    seen = {json.dumps(c.args, sort_keys=True) for c in calls}
    found: list[LeetCodeCall] = []
    for _ in range(count * 10):
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
    first = run_leetcode(oracle_code, unset, method=method, limits=limits, lang=lang)
    second = run_leetcode(oracle_code, unset, method=method, limits=limits, lang=lang)
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


def example_method(examples: list[str], code: str, language: Language = "python") -> str | None:
    """The name of the ``Solution`` method the examples call (pass it as ``method=`` to ``run_leetcode``)."""
    for text in examples:
        example = parse_example(text)
        if example is not None:
            method = entry_method_for(example, code, language)
            return method.name if method else None
    method = entry_method(code, None, language)
    return method.name if method else None
