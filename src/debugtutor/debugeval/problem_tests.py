"""Executable tests for a LeetCode problem, derived from its oracle, and grading of any program against them.

A DebugBench problem has no test cases, only the statement's example blocks, its constraints and correct (oracle)
solutions. Its tests are the examples plus perturbations of them that respect the constraints (see
:func:`debugtutor.analysis.examples.input_rules`), each expected value taken from an oracle run twice in the sandbox.
Code Repair (build and scoring) and the public judge (:mod:`.judge`) use these functions and nothing else, so a
program gets the same verdict from both.

How the tests are derived, in general terms (nothing here knows a problem by name):

* **The oracle.** Expected values are language-independent, so any correct solution of the problem will do:
  a Python oracle first (fast, no compile), then one in the target language, then any other. An oracle is used only
  if its code is in the language it claims (DebugBench has Java items whose oracle is Python) and it agrees with the
  stated example outputs; otherwise the next one is tried.
* **The entry method** is the oracle's method whose parameter names are the example's argument names, else the one
  method of that arity no other method calls; never a guess. Arguments keep the statement's names.
* **Expected values** must be plain data (a generator's ``repr`` is not an answer) and equal over two runs; when the
  runs differ only in order, or the statement says "any order", answers are compared as multisets at that depth.
  Floats are compared with LeetCode's 1e-5 tolerance.
* **Time**: a program's limit per call is a multiple of the oracle's slowest call (with a floor for start-up noise).
* **Arguments** are built from the oracle's signature: a Python program is called with the oracle's parameter
  annotations, so a fix without type hints still receives a tree, not a list.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from debugtutor import python_ast
from debugtutor.analysis.clike.design import UnsupportedType, run_compiled_design, sequence_results
from debugtutor.analysis.examples import (
    ParsedExample,
    boundary_calls,
    entry_point,
    input_rules,
    parse_design_example,
    parse_example,
    perturb_calls,
)
from debugtutor.debugeval.debugbench import DebugBenchItem
from debugtutor.debugeval.records import CallSpec, DebugEvalRecord, LanguageName
from debugtutor.errors import InputError
from debugtutor.sandbox import (
    LeetCodeCall,
    LeetCodeRequest,
    Limits,
    ProgramRequest,
    Status,
    TestReport,
    run,
    solution_signatures,
)

DERIVATION_VERSION = "5"
"""Changes whenever the derivation could give different tests, so cached tests of an older version are not reused."""

# Limits of oracle runs while deriving tests (a call that overruns is dropped, not the problem).
ORACLE_LIMITS = Limits(wall_s=1.5, memory_mb=512)
COMPILED_ORACLE_LIMITS = Limits(wall_s=20.0, memory_mb=256)  # the JVM needs headroom, several may start at once
# Limits of a graded program. The JVM is given a 512 MB heap: with a 1 GB one it cannot reserve its own memory
# inside the sandbox's address-space limit and crashes before the first call.
GRADE_LIMITS: dict[str, Limits] = {
    "python": Limits(wall_s=60.0, memory_mb=1024),
    "cpp": Limits(wall_s=60.0, memory_mb=1024),
    "java": Limits(wall_s=60.0, memory_mb=512),
}
REPAIR_LIMITS = GRADE_LIMITS["python"]
DESIGN_LIMITS = Limits(wall_s=20.0, memory_mb=1024)
PER_TEST_TIMEOUT_S = 2.0
"""The floor of a call's time limit; above it the limit is ``TIME_FACTOR`` times the oracle's slowest call."""
TIME_FACTOR = 10.0
FLOAT_TOLERANCE = 1e-5

# "any order" about the answer ("You may return the answer in any order"), not about an input ("order the deck in
# any order you want")
_ANY_ORDER = re.compile(r"\b(?:return|returned|answer|answers|output)\b[^.]*?\bany order\b", re.IGNORECASE)


def answer_in_any_order(statement: str) -> bool:
    """Whether a problem statement accepts the answer in any order ("return the answer in any order")."""
    return bool(_ANY_ORDER.search(statement))


# "If there are multiple answers, return any of them", "return the index to any of the peaks", "any valid answer":
# the problem accepts several answers. It has to be said of the answer: "delete any of them" is about the process, and
# "if there are multiple answers, return the smallest" is a tie-break that keeps one answer.
_ANY_ANSWER = re.compile(r"\bany (?:one )?of (?:them|the \w+)\b|\bany (?:valid|possible|such|correct)\b|\bany\b\W*$")
_ABOUT_ANSWER = re.compile(r"\b(?:return|returned|answer|answers|output|print)\b", re.IGNORECASE)


def several_answers_stated(description: str) -> bool:
    """Whether a sentence of the statement says that any of several answers is accepted."""
    for sentence in re.split(r"(?<=[.!?])\s+|\n+", description):
        if _ABOUT_ANSWER.search(sentence) and (
            _ANY_ANSWER.search(sentence) or re.search(r"\b(?:return|output|print) any\b", sentence, re.IGNORECASE)
        ):
            return True
    return False


class ProblemTests(BaseModel):
    """The derived calls of one problem, the ``Solution`` method they call and how answers are compared.

    A design problem ("implement the class LRUCache") has ``spec.kind == "design"``: each call's ``args`` hold one of
    the statement's operation sequences (``operations``: the class name then method names; ``arguments``: one list
    per operation) and ``expected`` the answers in order (``None`` for the constructor)."""

    calls: list[LeetCodeCall]
    method: str | None
    language: LanguageName = "python"
    example_calls: int = 0
    """How many of the calls (the first ones) are the statement's own examples."""
    spec: CallSpec = Field(default_factory=CallSpec)
    oracle_language: LanguageName = "python"
    stated_outputs: list[Any] = Field(default_factory=list)
    """The statement's own answers to the example calls (None where it gives none): where a problem accepts
    several answers, a program may give either the oracle's or the statement's."""
    confirmed_by: str = ""
    """The second oracle the perturbed inputs were checked against ("" when there was none)."""


@dataclass
class Grade:
    """A program's verdict on a problem's tests, with a one-line reason (and the sandbox's report when it ran).

    ``passed`` is None when the tests cannot decide: the problem accepts several answers and the program gave one
    that is neither the oracle's nor the statement's (it ran and returned data of the right shape)."""

    passed: bool | None
    reason: str
    report: TestReport | None = None


@dataclass
class Problem:
    """What tests are derived from: the statement's parts and the problem's correct solutions, best first."""

    language: LanguageName
    """The language of the programs to be graded."""
    slug: str
    description: str
    examples: list[str]
    constraints: str
    oracles: list[tuple[LanguageName, str]] = field(default_factory=list)


def code_language(code: str) -> LanguageName | None:
    """``python`` when the code parses as Python with a class, else the C++/Java reading that finds the methods of
    its ``class Solution``, else None."""
    try:
        tree = python_ast.parse(code)
        if any(isinstance(node, ast.ClassDef) for node in tree.body):
            return "python"  # a Solution class, or the class a design problem asks for
    except (SyntaxError, ValueError):
        pass
    stripped = strip_comments(code)
    cpp_like = bool(re.search(r"\bpublic\s*:|#include|\bstd::|\bvector\s*<", stripped))
    if cpp_like:
        return "cpp" if solution_signatures(stripped, "cpp") or _declares_class(stripped) else None
    languages: tuple[LanguageName, ...] = ("java", "cpp")
    for language in languages:
        if solution_signatures(stripped, language):
            return language
    if _declares_class(stripped) and re.search(
        r"\b(?:public|private)\s+(?:static\s+)?[\w<>\[\]]+\s+\w+\s*\(", stripped
    ):
        return "java"  # a design problem's class (no Solution)
    return None


def _declares_class(code: str) -> bool:
    return bool(re.search(r"^\s*(?:public\s+)?(?:class|struct)\s+[A-Za-z_]\w*", code, re.M))


def problems_from(items: Iterable[DebugBenchItem]) -> dict[tuple[str, str], Problem]:
    """One :class:`Problem` per (language, slug) present, with every distinct oracle of the slug in any language:
    Python ones first, then the target language's, then the rest, each group most frequent first."""
    by_slug: dict[str, list[DebugBenchItem]] = defaultdict(list)
    for item in items:
        by_slug[item.slug].append(item)
    problems: dict[tuple[str, str], Problem] = {}
    for slug, group in by_slug.items():
        counts = Counter(item.oracle_code for item in group if item.oracle_code.strip())
        oracles: list[tuple[LanguageName, str, int]] = []
        for code, count in counts.items():
            language = code_language(code)
            if language is not None:
                oracles.append((language, code, count))
        for language in sorted({item.language for item in group}):
            here = [item for item in group if item.language == language]
            first = min(here, key=lambda item: item.uid)

            def rank(entry: tuple[LanguageName, str, int], target: str = language) -> tuple[int, int, str]:
                order = 0 if entry[0] == "python" else 1 if entry[0] == target else 2
                return order, -entry[2], entry[1]

            problems[(language, slug)] = Problem(
                language=language,
                slug=slug,
                description=first.description,
                examples=list(first.examples),
                constraints=first.constraints,
                oracles=[(lang, code) for lang, code, _ in sorted(oracles, key=rank)],
            )
    return problems


def problem_of(item: DebugBenchItem, pool: Iterable[DebugBenchItem] = ()) -> Problem:
    """The item's problem, with the oracles of every item of the same slug in ``pool`` (and the item's own)."""
    same = [other for other in pool if other.slug == item.slug]
    return problems_from([item, *same])[(item.language, item.slug)]


# ---------------------------------------------------------------------------------------------------------------
# Comparison.


def _canonical(value: Any, depth: int) -> Any:
    if isinstance(value, list) and depth > 0:
        return sorted((_canonical(item, depth - 1) for item in value), key=lambda item: json.dumps(item))
    return value


def _close(actual: Any, expected: Any) -> bool:
    if (actual is None and expected == []) or (expected is None and actual == []):
        return True  # LeetCode prints a list-typed answer of None as []
    if isinstance(actual, bool) or isinstance(expected, bool):
        return actual is expected or (isinstance(actual, bool) and isinstance(expected, bool) and actual == expected)
    if isinstance(actual, (int, float)) and isinstance(expected, (int, float)):
        return abs(actual - expected) <= FLOAT_TOLERANCE * max(1.0, abs(expected))
    if isinstance(actual, list) and isinstance(expected, list):
        return len(actual) == len(expected) and all(_close(a, e) for a, e in zip(actual, expected))
    if isinstance(actual, dict) and isinstance(expected, dict):
        return actual.keys() == expected.keys() and all(_close(actual[k], expected[k]) for k in actual)
    return bool(actual == expected)


def same_answer(actual: Any, expected: Any, unordered_depth: int = 0) -> bool:
    """Whether two answers agree: floats within 1e-5, lists as multisets down to ``unordered_depth`` levels."""
    return _close(_canonical(actual, unordered_depth), _canonical(expected, unordered_depth))


def order_depth(first: Any, second: Any, limit: int = 3) -> int | None:
    """The fewest unordered list levels that make two answers agree (0 when they agree as they are), else None."""
    for depth in range(limit + 1):
        if same_answer(first, second, depth):
            return depth
    return None


_NOT_DATA = re.compile(
    r"^<[\w. ]+ (?:object|at 0x)|^<(?:generator|map|filter|zip|enumerate|itertools|[\w.]*iterator)\b"
    r"|^(?:deque|Counter|defaultdict|OrderedDict|array|Fraction|Decimal|SortedList|SortedDict)\("
)


def plain_data(value: Any) -> bool:
    """False for a value that is an object's ``repr`` (a generator, a deque, ...) rather than LeetCode data."""
    if isinstance(value, str):
        return _NOT_DATA.search(value) is None
    if isinstance(value, list):
        return all(plain_data(item) for item in value)
    if isinstance(value, dict):
        return all(plain_data(item) for item in value.values())
    return True


# ---------------------------------------------------------------------------------------------------------------
# Derivation.


def strip_comments(code: str) -> str:
    """C++/Java code with ``//`` and ``/* */`` comments blanked (newlines kept), string and char literals intact."""
    out: list[str] = []
    index, size = 0, len(code)
    while index < size:
        ch = code[index]
        if ch in "\"'":
            end = index + 1
            while end < size and code[end] != ch and code[end] != "\n":
                end += 2 if code[end] == "\\" else 1
            out.append(code[index : end + 1])
            index = end + 1
        elif code.startswith("//", index):
            end = code.find("\n", index)
            end = size if end < 0 else end
            out.append(" " * (end - index))
            index = end
        elif code.startswith("/*", index):
            end = code.find("*/", index + 2)
            end = size if end < 0 else end + 2
            out.append("".join("\n" if c == "\n" else " " for c in code[index:end]))
            index = end
        else:
            out.append(ch)
            index += 1
    return "".join(out)


@dataclass
class _Entry:
    method: str
    parameters: list[str]
    returns: str
    node_args: list[str]


def _python_entry(code: str, names: list[str], title: str) -> _Entry | None:
    method = entry_point(code, names, title)
    if method is None:
        return None
    annotations = [p.annotation for p in method.parameters]
    node_args = [name for name, p in zip(names, method.parameters) if p.kind]
    return _Entry(method.name, annotations, method.returns, node_args)


def _compiled_entry(code: str, language: LanguageName, names: list[str]) -> _Entry | None:
    signatures = solution_signatures(code, language)
    exact = [(name, params) for name, params in signatures if set(params) == set(names)]
    pool = exact or [(name, params) for name, params in signatures if len(params) == len(names)]
    if len(pool) > 1:
        # a helper is called by the entry point: keep the methods whose name occurs once (their definition)
        pool = [(name, params) for name, params in pool if len(re.findall(rf"\b{re.escape(name)}\s*\(", code)) == 1]
    if len(pool) != 1:
        return None
    method = pool[0][0]
    declared = re.search(rf"\b{re.escape(method)}\s*\(([^()]*)\)", code)
    pieces = declared.group(1).split(",") if declared else []
    node_args = [name for name, piece in zip(names, pieces) if re.search(r"\b(?:TreeNode|ListNode)\b", piece)]
    return _Entry(method, [], "", node_args)


def _bound_examples(problem: Problem) -> list[ParsedExample]:
    """The parsable examples that name the same arguments as the first one."""
    parsed = [example for example in (parse_example(text) for text in problem.examples) if example is not None]
    if not parsed:
        return []
    names = list(parsed[0].args)
    return [example for example in parsed if list(example.args) == names]


@dataclass
class _Attempt:
    tests: ProblemTests | None
    reason: str
    disagreements: int = 0
    oracle: tuple[LanguageName, str] | None = None


def _attempt(
    problem: Problem, language: LanguageName, code: str, examples: list[ParsedExample], *, extra: int, seed: int
) -> _Attempt:
    names = list(examples[0].args)
    source = code if language == "python" else strip_comments(code)
    title = problem.slug.replace("-", " ")
    entry = _python_entry(source, names, title) if language == "python" else _compiled_entry(source, language, names)
    if entry is None:
        return _Attempt(None, f"no {language} oracle method takes the examples' arguments {names}")
    if all(name.startswith("_") for name in names):
        # unnamed example arguments take the oracle's parameter names
        signature = dict(solution_signatures(source, language)).get(entry.method, [])
        if len(signature) == len(names):
            examples = [
                ParsedExample(args=dict(zip(signature, e.args.values())), expected=e.expected, text=e.text)
                for e in examples
            ]
            entry.node_args = [signature[names.index(name)] for name in entry.node_args]
    base = [LeetCodeCall(args=example.args) for example in examples]
    rules = input_rules(base, problem.constraints, entry.node_args)
    candidates = base + perturb_calls(base, count=extra, seed=seed, rules=rules)
    candidates += boundary_calls(base, problem.constraints, rules, known=candidates)
    limits = ORACLE_LIMITS if language == "python" else COMPILED_ORACLE_LIMITS
    try:
        request = LeetCodeRequest(code=source, calls=candidates, lang=language, method=entry.method, limits=limits)
        runs = [run(request) for _ in range(2)]
    except InputError as exc:
        return _Attempt(None, f"the {language} oracle cannot be called: {exc}")
    any_order = answer_in_any_order(problem.description)
    depth = 1 if any_order else 0
    varies = False
    kept: list[tuple[int, LeetCodeCall]] = []
    reference_s = 0.0
    for index, (call, first, second) in enumerate(zip(candidates, runs[0].tests, runs[1].tests)):
        if first.status != Status.passed or second.status != Status.passed:
            continue
        if first.actual is None or second.actual is None:
            continue
        value, again = json.loads(first.actual), json.loads(second.actual)
        if not plain_data(value):
            continue
        needed = order_depth(value, again)
        if needed is None:
            varies = True
            continue  # the oracle's answer varies beyond order: not a test
        # two right answers that differ in order: comparing as multisets is right only where order is free
        varies = varies or (needed > 0 and not any_order)
        depth = max(depth, needed)
        reference_s = max(reference_s, first.wall_s, second.wall_s)
        kept.append((index, LeetCodeCall(args=call.args, expected=value)))
    if not kept:
        return _Attempt(None, f"the {language} oracle gave no deterministic plain answer")
    disagreements = 0
    for index, call in kept:
        if index < len(examples) and examples[index].expected is not None:
            needed = order_depth(call.expected, examples[index].expected)
            if needed is None or (needed > 0 and not any_order):
                disagreements += 1
            else:
                depth = max(depth, needed)
    spec = CallSpec(
        unordered_depth=depth,
        parameters=entry.parameters if problem.language == "python" == language else [],
        returns=entry.returns if problem.language == "python" == language else "",
        reference_s=reference_s,
        several_answers=disagreements > 0 or varies or several_answers_stated(problem.description),
    )
    tests = ProblemTests(
        calls=[call for _, call in kept],
        method=entry.method,
        language=problem.language,
        example_calls=sum(1 for index, _ in kept if index < len(examples)),
        spec=spec,
        oracle_language=language,
        stated_outputs=[examples[index].expected for index, _ in kept if index < len(examples)],
    )
    return _Attempt(tests, "", disagreements, (language, code))


def derive_problem_tests(
    problem: Problem, *, extra: int = 10, compiled_extra: int = 4, seed: int = 0
) -> tuple[ProblemTests | None, str]:
    """Tests for programs in ``problem.language``, or None with the reason nothing could be derived.

    Oracles are tried in order until one agrees with every stated example output; if none does, the one with the
    fewest disagreements is used and its tests are marked ``several_answers``."""
    examples = _bound_examples(problem)
    if not examples:
        sequences = [sequence for sequence in map(parse_design_example, problem.examples) if sequence is not None]
        if sequences:
            return derive_design_tests(problem, sequences)
        return None, "no example of the statement could be parsed"
    attempts: list[_Attempt] = []
    chosen: _Attempt | None = None
    for language, code in problem.oracles:
        attempt = _attempt(
            problem, language, code, examples, extra=extra if language == "python" else compiled_extra, seed=seed
        )
        attempts.append(attempt)
        if attempt.tests is not None and attempt.disagreements == 0:
            chosen = attempt
            break
    usable = [attempt for attempt in attempts if attempt.tests is not None]
    if chosen is None and usable:
        chosen = min(usable, key=lambda attempt: (attempt.disagreements, -len(attempt.tests.calls)))  # type: ignore[union-attr]
    if chosen is None or chosen.tests is None or chosen.oracle is None:
        return None, attempts[0].reason if attempts else "no oracle in a known language"
    second = next(((lang, code) for lang, code in problem.oracles if code != chosen.oracle[1]), None)
    if second is not None and not chosen.tests.spec.several_answers:
        _confirm(chosen.tests, second, problem.slug)
    return chosen.tests, ""


def _confirm(tests: ProblemTests, oracle: tuple[LanguageName, str], slug: str) -> None:
    """Keep only the perturbed calls a second, independent oracle answers the same way.

    A perturbation can leave the problem's constraints in ways no check of the inputs sees (an inorder and a
    postorder traversal that no longer describe one tree); two correct solutions then tend to part ways (one
    raises, one returns something), and a third program could legitimately differ from either. The examples stay;
    a second oracle that cannot be called, or fails the examples itself, is ignored."""
    language, code = oracle
    names = list(tests.calls[0].args)
    source = code if language == "python" else strip_comments(code)
    title = slug.replace("-", " ")
    entry = _python_entry(source, names, title) if language == "python" else _compiled_entry(source, language, names)
    if entry is None:
        return
    limits = ORACLE_LIMITS if language == "python" else COMPILED_ORACLE_LIMITS
    unset = [LeetCodeCall(args=call.args) for call in tests.calls]
    try:
        report = run(LeetCodeRequest(code=source, calls=unset, lang=language, method=entry.method, limits=limits))
    except InputError:
        return
    if len(report.tests) != len(tests.calls):
        return
    answers: list[Any] = []
    for test in report.tests:
        answers.append(json.loads(test.actual) if test.status == Status.passed and test.actual is not None else None)
    depth = tests.spec.unordered_depth
    examples = range(tests.example_calls)
    if any(answers[i] is None or not same_answer(answers[i], tests.calls[i].expected, depth) for i in examples):
        return  # the second oracle does not even agree on the stated examples: not a witness
    kept = [
        call
        for index, call in enumerate(tests.calls)
        if index < tests.example_calls
        or (answers[index] is not None and same_answer(answers[index], call.expected, depth))
    ]
    tests.calls = kept
    tests.confirmed_by = language


# ---------------------------------------------------------------------------------------------------------------
# Design problems: a class whose methods are called in sequence.

# LeetCode's names in scope, on one line: the star imports first, so that ``bisect`` stays the module
_DESIGN_PRELUDE = (
    "from typing import *; from collections import *; from heapq import *; from bisect import *; "
    "from functools import *; from itertools import *; from math import *; "
    "import collections, heapq, bisect, functools, itertools, math, random, string, json\n"
)
_DESIGN_DRIVER = """

import os as _dt_os


def _dt_data(value):
    if isinstance(value, (list, tuple)):
        return [_dt_data(item) for item in value]
    if isinstance(value, (set, frozenset)):
        return sorted((_dt_data(item) for item in value), key=json.dumps)
    if isinstance(value, dict):
        return {str(key): _dt_data(item) for key, item in value.items()}
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if hasattr(value, "__iter__"):
        return [_dt_data(item) for item in value]
    return repr(value)


def _dt_report(record):
    # the judge's channel, never stdout: what the program prints there cannot stand for an answer
    data = (json.dumps(record) + "\\n").encode()
    while data:
        data = data[_dt_os.write(3, data):]


for _dt_index, _dt_sequence in enumerate(json.loads(_DT_SEQUENCES)):
    _dt_answers = []
    try:
        _dt_object = globals()[_dt_sequence["operations"][0]](*_dt_sequence["arguments"][0])
        _dt_answers.append(None)
        for _dt_name, _dt_args in zip(_dt_sequence["operations"][1:], _dt_sequence["arguments"][1:]):
            _dt_answers.append(_dt_data(getattr(_dt_object, _dt_name)(*_dt_args)))
        _dt_report({"event": "test", "index": _dt_index, "actual": _dt_answers})
    except Exception as _dt_error:
        _dt_message = type(_dt_error).__name__ + ": " + str(_dt_error)[:200]
        _dt_report({"event": "test", "index": _dt_index, "error": _dt_message})
"""


def run_design(code: str, sequences: list[dict[str, Any]], limits: Limits) -> list[Any]:
    """Each sequence run on a fresh object of the program's class: its answers, or a one-line error."""
    payload = [{"operations": s["operations"], "arguments": s["arguments"]} for s in sequences]
    driver = _DESIGN_DRIVER.replace("_DT_SEQUENCES", repr(json.dumps(payload)))
    source = _DESIGN_PRELUDE + code + driver
    outcome = run(ProgramRequest(source=source, lang="python", limits=limits, results=len(sequences)))
    return sequence_results(outcome, len(sequences))


def derive_design_tests(problem: Problem, sequences: list[dict[str, Any]]) -> tuple[ProblemTests | None, str]:
    """Tests for a design problem: the statement's operation sequences, answers from an oracle run twice (a Python
    one when there is one, whatever the language of the programs to grade)."""
    name = sequences[0]["operations"][0]
    reason = f"no oracle of the class {name} gave deterministic answers"
    for language, code in problem.oracles:
        if language != "python" and language != problem.language:
            continue
        if not re.search(rf"^\s*(?:public\s+)?(?:class|struct)\s+{re.escape(name)}\b", code, re.M):
            continue
        try:
            first, second = (_run_sequences(code, language, name, sequences) for _ in range(2))
        except UnsupportedType as exc:
            reason = f"the {language} oracle's class cannot be driven: {exc}"
            continue
        calls: list[LeetCodeCall] = []
        several = False
        for sequence, a, b in zip(sequences, first, second):
            if "answers" not in a or "answers" not in b or not plain_data(a["answers"]):
                continue
            if not same_answer(a["answers"], b["answers"]):
                several = True  # random or order-free answers: not a test
                continue
            if not same_answer(a["answers"], sequence["expected"]):
                several = True
            args = {"operations": sequence["operations"], "arguments": sequence["arguments"]}
            calls.append(LeetCodeCall(args=args, expected=a["answers"]))
        if calls:
            spec = CallSpec(kind="design", several_answers=several or several_answers_stated(problem.description))
            stated = [s["expected"] for s in sequences][: len(calls)]
            return ProblemTests(
                calls=calls, method=name, language=problem.language, example_calls=len(calls),
                spec=spec, stated_outputs=stated, oracle_language=language,
            ), ""  # fmt: skip
    return None, reason


def _run_sequences(
    code: str, language: LanguageName, name: str, sequences: list[dict[str, Any]], limits: Limits | None = None
) -> list[Any]:
    if language == "python":
        return run_design(code, sequences, limits or DESIGN_LIMITS)
    return run_compiled_design(strip_comments(code), language, name, sequences, limits or GRADE_LIMITS[language])


def grade_design(code: str, tests: ProblemTests, limits: Limits | None = None) -> Grade:
    """A design program on the tests' operation sequences (the same verdicts as :func:`grade`)."""
    sequences = [{**call.args, "expected": call.expected} for call in tests.calls]
    try:
        results = _run_sequences(code, tests.language, tests.method or "", sequences, limits)
    except UnsupportedType as exc:
        return Grade(False, f"cannot be called: {exc}")
    for index, (result, call) in enumerate(zip(results, tests.calls), start=1):
        if "error" in result:
            return Grade(False, f"sequence {index}: {result['error']}")
        if not same_answer(result["answers"], call.expected):
            if tests.spec.several_answers and same_shape(result["answers"], call.expected):
                return Grade(None, f"sequence {index}: other answers than the oracle's, which the problem may accept")
            return Grade(False, f"sequence {index}: answered {json.dumps(result['answers'])[:80]}")
    return Grade(True, f"passed {len(tests.calls)} operation sequences")


def problem_tests(
    item: DebugBenchItem, *, extra: int, seed: int, pool: Iterable[DebugBenchItem] = (), compiled_extra: int = 4
) -> ProblemTests | None:
    """Tests for an item's problem (its oracles and those of ``pool`` items of the same slug), or None."""
    tests, _ = derive_problem_tests(problem_of(item, pool), extra=extra, compiled_extra=compiled_extra, seed=seed)
    return tests


# ---------------------------------------------------------------------------------------------------------------
# Grading.


def tests_of(record: DebugEvalRecord) -> ProblemTests:
    """The tests a Code Repair record carries (``tests_kind == "leetcode"``)."""
    return ProblemTests(
        calls=list(record.leetcode_calls), method=record.method, language=record.language, spec=record.call_spec
    )


def grade(code: str, tests: ProblemTests, *, limits: Limits | None = None) -> Grade:
    """Run ``code`` on the tests in the sandbox: it passes when every call returns the expected answer.

    Answers are compared on the host (multisets where the problem allows any order, floats within 1e-5). A program
    whose method cannot be called with the problem's arguments (a C++/Java signature the harness cannot bind, a
    missing method) fails, whether the sandbox raises or reports it."""
    if tests.spec.kind == "design":
        return grade_design(code, tests, limits)
    typed = tests.language == "python" and bool(tests.spec.parameters or tests.spec.returns)
    source = code if tests.language == "python" else strip_comments(code)
    unset = [LeetCodeCall(args=call.args) for call in tests.calls]
    base = limits or GRADE_LIMITS[tests.language]
    timed = base.model_copy(
        update={"reference_s": tests.spec.reference_s, "reference_factor": TIME_FACTOR,
                "reference_floor_s": PER_TEST_TIMEOUT_S}
    )  # fmt: skip
    try:
        # (the problem's own parameter types, so a program without hints still receives trees and lists)
        report = run(
            LeetCodeRequest(
                code=source, calls=unset, lang=tests.language, method=tests.method, limits=timed,
                parameter_types=list(tests.spec.parameters) if typed else None,
                return_type=tests.spec.returns if typed else None,
            )
        )  # fmt: skip
    except InputError as exc:
        return Grade(False, f"cannot be called: {exc}")
    if report.setup_error is not None or len(report.tests) != len(tests.calls):
        return Grade(False, failure_reason(report), report)
    undecided: str | None = None
    for position, (test, call) in enumerate(zip(report.tests, tests.calls)):
        if test.status != Status.passed:
            return Grade(False, failure_reason(report), report)
        actual = json.loads(test.actual) if test.actual is not None else None
        if same_answer(actual, call.expected, tests.spec.unordered_depth):
            continue
        stated = tests.stated_outputs[position] if position < len(tests.stated_outputs) else None
        wanted = json.dumps(call.expected)[:80]
        failed = f"test {test.index + 1}: returned {str(test.actual)[:80]}, expected {wanted}"
        if not tests.spec.several_answers or not same_shape(actual, call.expected):
            return Grade(False, failed, report)
        if stated is not None and same_answer(actual, stated, tests.spec.unordered_depth):
            continue
        undecided = undecided or f"{failed} or another of the answers the problem accepts (no checker to tell)"
    if undecided is not None:
        return Grade(None, undecided, report)
    return Grade(True, f"passed {len(tests.calls)} tests", report)


def same_shape(actual: Any, expected: Any) -> bool:
    """Whether two answers could both be right for one input: the same JSON type, and lists of the same length."""
    if isinstance(expected, bool) or isinstance(actual, bool):
        return isinstance(expected, bool) and isinstance(actual, bool)
    if isinstance(expected, (int, float)):
        return isinstance(actual, (int, float))
    if isinstance(expected, list):
        return isinstance(actual, list) and len(actual) == len(expected)
    return type(actual) is type(expected)


def failure_reason(report: TestReport) -> str:
    """The first thing that went wrong in a report, in one line."""
    if report.setup_error is not None:
        return f"{report.status.value}: {report.setup_error.type}: {report.setup_error.message[:200]}"
    for test in report.tests:
        if test.status != Status.passed:
            where = f"test {test.index + 1}: {test.status.value}"
            if test.exception is not None:
                return f"{where}: {test.exception.type}: {test.exception.message[:160]}"
            if test.status == Status.failed:
                return f"test {test.index + 1}: returned {str(test.actual)[:80]}, expected {str(test.expected)[:80]}"
            return where
    return report.status.value


def fails_tests(code: str, tests: ProblemTests) -> bool:
    """True when ``code`` fails at least one test (or does not load): a buggy variant worth repairing."""
    limits = ORACLE_LIMITS if tests.language == "python" else COMPILED_ORACLE_LIMITS
    return grade(code, tests, limits=limits).passed is False


class TestsCache:
    """Derived tests per problem in a folder (``<language>/<slug>.json``), or in memory when no folder is given."""

    __test__ = False  # not a pytest class

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder
        self.memory: dict[str, tuple[ProblemTests | None, str]] = {}

    @staticmethod
    def key(problem: Problem, *, extra: int, compiled_extra: int, seed: int) -> str:
        """Everything the derivation reads, hashed: a change to any of it (or to the derivation) derives again."""
        parts = [DERIVATION_VERSION, problem.language, problem.slug, problem.description, problem.constraints]
        parts += [*problem.examples, *(f"{language}:{code}" for language, code in problem.oracles)]
        parts += [str(extra), str(compiled_extra), str(seed)]
        return hashlib.sha256("\x00".join(parts).encode("utf-8")).hexdigest()

    def get(self, problem: Problem, *, extra: int, compiled_extra: int, seed: int) -> tuple[ProblemTests | None, str]:
        """The problem's tests (derived now, or read from the cache) and, when there are none, why."""
        key = self.key(problem, extra=extra, compiled_extra=compiled_extra, seed=seed)
        if key in self.memory:
            return self.memory[key]
        path = self.folder / problem.language / f"{problem.slug}.json" if self.folder is not None else None
        if path is not None and path.is_file():
            try:
                stored = json.loads(path.read_text(encoding="utf-8"))
                if stored.get("key") == key:
                    tests = ProblemTests.model_validate(stored["tests"]) if stored.get("tests") else None
                    self.memory[key] = (tests, str(stored.get("reason", "")))
                    return self.memory[key]
            except (ValueError, ValidationError, KeyError):
                pass  # a damaged cache entry is derived again
        tests, reason = derive_problem_tests(problem, extra=extra, compiled_extra=compiled_extra, seed=seed)
        reason = f"no tests: {reason}" if tests is None else ""
        self.memory[key] = (tests, reason)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            payload = {"key": key, "tests": tests.model_dump(mode="json") if tests else None, "reason": reason}
            # argument order is kept: a program whose parameter names differ is called by position
            partial = path.with_suffix(".json.partial")  # (a kill while writing leaves no half entry)
            partial.write_text(json.dumps(payload), encoding="utf-8")
            partial.replace(path)
        return self.memory[key]
