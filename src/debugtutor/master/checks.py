"""Running programs against their tests in the sandbox, and reading what kind of bug the run shows.

Every check MASTER makes on a problem is an execution: the correct program must pass its tests, the buggy one must
fail them, and the way it fails tells the bug's class where execution can tell:

* **syntax**: Python does not compile; a C++/Java compiler error of the grammar kind (``expected ';'``, an
  unterminated string, ``illegal start of expression``);
* **reference**: Python raises ``NameError``, ``AttributeError``, ``UnboundLocalError``, ``IndexError`` or
  ``KeyError`` (or the static check finds an undefined name); a C++/Java compiler error about an unknown name
  (``was not declared``, ``cannot find symbol``, ``has no member``), or Java's index-out-of-bounds exceptions;
* **logic**: it compiles and runs, and some test gives a wrong answer, with no reference failure anywhere.

Other failures (a ``TypeError``, a timeout, a crash) show a bug but not its class: :func:`observed_class` returns
None for them, and a label that needs the class is then not taken on trust.
"""

from __future__ import annotations

import difflib
import re
import warnings
from typing import Literal

from debugtutor import python_ast
from debugtutor.analysis.examples import example_calls, example_method, oracle_outputs, oracle_tests, perturb_calls
from debugtutor.analysis.static import LEETCODE_PREAMBLE, reference_diagnostics
from debugtutor.errors import InputError
from debugtutor.master.records import BugClass, ExecutionFacts, LanguageName, ProgramTests, SourceProgram
from debugtutor.sandbox import (
    LeetCodeRequest,
    Limits,
    PythonTestsRequest,
    Status,
    TestReport,
    arun,
    run,
    solution_signatures,
)

PER_TEST_S = 2.0
# wall_s covers loading the program (the JVM's start included); each test or call then has PER_TEST_S
PYTHON_LIMITS = Limits(wall_s=20.0, per_test_s=PER_TEST_S, memory_mb=512)
COMPILED_LIMITS = Limits(wall_s=30.0, per_test_s=PER_TEST_S, memory_mb=512)
_PYTHON_REFERENCE = frozenset({"NameError", "AttributeError", "UnboundLocalError", "IndexError", "KeyError"})
_COMPILED_REFERENCE = re.compile(
    r"was not declared|cannot find symbol|has no member named|is not a member of|no member named|"
    r"does not name a type|undeclared identifier|cannot be resolved|no matching function|no suitable method",
    re.I,
)
_COMPILED_SYNTAX = re.compile(
    r"expected|missing terminating|unclosed|illegal start|not a statement|reached end of file|"
    r"unterminated|stray|empty character constant|illegal character|orphaned|else without if",
    re.I,
)
_COMPILED_INDEX = re.compile(r"IndexOutOfBounds|out_of_range|NegativeArraySize", re.I)


def _limits(language: LanguageName) -> Limits:
    return PYTHON_LIMITS if language == "python" else COMPILED_LIMITS


def _request(code: str, tests: ProgramTests, language: LanguageName) -> LeetCodeRequest | PythonTestsRequest:
    if tests.kind == "leetcode":
        return LeetCodeRequest(
            code=code, calls=tests.calls, lang=language, method=tests.method, limits=_limits(language)
        )
    if tests.kind == "asserts":
        return PythonTestsRequest(code=code, tests=tests.asserts, setup=tests.setup, limits=PYTHON_LIMITS)
    raise ValueError("example blocks must be turned into calls first (derive_tests)")


def run_tests_sync(code: str, tests: ProgramTests, language: LanguageName) -> TestReport:
    """Run ``code`` against ``tests`` (LeetCode calls or assert lines) in the sandbox."""
    return run(_request(code, tests, language))


async def run_tests(code: str, tests: ProgramTests, language: LanguageName) -> TestReport:
    """The async twin of :func:`run_tests_sync`."""
    return await arun(_request(code, tests, language))


def derive_tests(program: SourceProgram, *, extra: int = 6, seed: int = 0) -> ProgramTests | None:
    """Executable tests for a program known only with example blocks: the examples' inputs plus perturbed ones,
    each expected value taken from the program itself (run twice; a call counts only when both runs agree)."""
    tests = program.tests
    if tests.kind != "examples":
        return tests
    if program.language == "python":
        calls = oracle_tests(tests.examples, program.code, extra=extra, seed=seed, limits=Limits(wall_s=2.0))
        if not calls:
            return None
        return ProgramTests(kind="leetcode", calls=calls, method=example_method(tests.examples, program.code))
    base = example_calls(tests.examples)
    if not base:
        return None
    names = set(base[0].args)
    signatures = solution_signatures(program.code, program.language)
    chosen = [name for name, params in signatures if set(params) == names] or [
        name for name, params in signatures if len(params) == len(names)
    ]
    if not chosen:
        return None
    try:
        calls = oracle_outputs(program.code, base + perturb_calls(base, count=extra // 2, seed=seed),
                               method=chosen[0], limits=COMPILED_LIMITS, lang=program.language)  # fmt: skip
    except InputError:  # a parameter type the compiled harness cannot build
        return None
    return ProgramTests(kind="leetcode", calls=calls, method=chosen[0]) if calls else None


def python_compiles(code: str) -> bool:
    try:
        with warnings.catch_warnings():  # a buggy program's SyntaxWarnings are not the user's concern
            warnings.simplefilter("ignore")
            compile(code, "<program>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return True


def _exception_types(report: TestReport) -> set[str]:
    types = {test.exception.type for test in report.tests if test.exception is not None}
    if report.setup_error is not None:
        types.add(report.setup_error.type)
    return types


def _messages(report: TestReport) -> str:
    parts = [report.setup_error.message] if report.setup_error is not None else []
    parts += [test.exception.message for test in report.tests if test.exception is not None]
    return "\n".join(parts)


def compile_error_class(message: str) -> Literal["syntax", "reference"] | None:
    """The class a C++/Java compiler message points to: an unknown name is a reference error; grammar, syntax."""
    errors = [line for line in message.splitlines() if "error" in line.lower()] or message.splitlines()
    first = errors[0] if errors else ""
    if _COMPILED_REFERENCE.search(first):
        return "reference"
    if _COMPILED_SYNTAX.search(first):
        return "syntax"
    return None


def observed_class(code: str, language: LanguageName, report: TestReport) -> BugClass | None:
    """The bug class a failing run shows, where execution can tell (see the module docstring); None otherwise."""
    if report.status == Status.passed:
        return None
    if language == "python":
        if not python_compiles(code):
            return "syntax"
        if _exception_types(report) & _PYTHON_REFERENCE:
            return "reference"
        try:
            tree = python_ast.parse(code)
        except (SyntaxError, ValueError, RecursionError):
            return "syntax"
        if any(d.category == "reference" for d in reference_diagnostics(tree, preamble=LEETCODE_PREAMBLE)):
            return "reference"
    else:
        if report.status == Status.compile_error:
            return compile_error_class(_messages(report))
        if _COMPILED_INDEX.search(_messages(report)):
            return "reference"
    statuses = {test.status for test in report.tests}
    if Status.failed in statuses and not _exception_types(report) and report.setup_error is None:
        return "logic"
    return None


def _short(text: str | None, size: int = 300) -> str | None:
    if text is None:
        return None
    text = text.strip()
    return text if len(text) <= size else text[: size - 3] + "..."


def failure_facts(report: TestReport) -> ExecutionFacts:
    """The evidence of a failing run: the compile error, or the first failing test's input, expectation and result."""
    failed = [test for test in report.tests if test.status != Status.passed]
    total = len(report.tests)
    if report.setup_error is not None:
        outcome = "compile_error" if report.status == Status.compile_error or "Syntax" in report.setup_error.type \
            else "exception"  # fmt: skip
        return ExecutionFacts(outcome=outcome, exception=report.setup_error.type,  # type: ignore[arg-type]
                              message=_short(report.setup_error.message) or "", failed_tests=len(failed),
                              total_tests=total)  # fmt: skip
    if not failed:
        return ExecutionFacts(outcome="static", total_tests=total)
    first = next((test for test in failed if test.status == Status.failed), failed[0])
    if first.exception is not None:
        outcome = "exception"
    elif first.status == Status.timeout:
        outcome = "timeout"
    else:
        outcome = "wrong_answer"
    return ExecutionFacts(
        outcome=outcome,  # type: ignore[arg-type]
        exception=first.exception.type if first.exception else None,
        message=_short(first.exception.message) or "" if first.exception else "",
        failing_input=_short(first.source), expected=_short(first.expected), actual=_short(first.actual),
        failed_tests=len(failed), total_tests=total,
    )  # fmt: skip


def _line_key(line: str, language: LanguageName) -> str:
    collapsed = " ".join(line.split())
    if language == "python":  # indentation is syntax in Python
        return line[: len(line) - len(line.lstrip())].replace("\t", "    ") + collapsed
    return collapsed


def changed_lines(buggy: str, correct: str, language: LanguageName) -> tuple[list[int], int]:
    """The 1-based lines of ``buggy`` that differ from ``correct`` (layout inside a line ignored), and how many
    separate hunks the differences form. A hunk that only deletes lines marks the buggy line after the gap."""
    buggy_lines = buggy.splitlines()
    keys_b = [_line_key(line, language) for line in buggy_lines]
    keys_c = [_line_key(line, language) for line in correct.splitlines()]
    matcher = difflib.SequenceMatcher(a=keys_b, b=keys_c, autojunk=False)
    lines: list[int] = []
    hunks = 0
    for tag, i1, i2, _, _ in matcher.get_opcodes():
        if tag == "equal":
            continue
        hunks += 1
        if i2 > i1:
            lines.extend(index + 1 for index in range(i1, i2) if buggy_lines[index].strip())
        elif buggy_lines:
            lines.append(min(i1, len(buggy_lines) - 1) + 1)
    return sorted(set(lines)), hunks


def fix_pairs(buggy: str, correct: str, language: LanguageName) -> list[tuple[int, str, str]]:
    """(buggy line number, buggy text, fixed text) for each changed region; a side with no lines gives ``""``."""
    buggy_lines, correct_lines = buggy.splitlines(), correct.splitlines()
    matcher = difflib.SequenceMatcher(
        a=[_line_key(line, language) for line in buggy_lines],
        b=[_line_key(line, language) for line in correct_lines],
        autojunk=False,
    )
    pairs = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        before = "\n".join(line.strip() if language != "python" else line.rstrip() for line in buggy_lines[i1:i2])
        after = "\n".join(line.strip() if language != "python" else line.rstrip() for line in correct_lines[j1:j2])
        pairs.append((i1 + 1, before, after))
    return pairs
