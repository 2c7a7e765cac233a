"""The built-in DebugEval sample: every task in every language, its C++/Java bugs real (the buggy program fails the
problem's examples, the correct one passes them, both compiled and run in the sandbox)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from debugtutor.analysis.clike.harness import Variant, run_variants
from debugtutor.analysis.clike.syntax_tree import CompiledLanguage
from debugtutor.analysis.examples import example_calls
from debugtutor.debugeval.make_sample import COMPILED_PROBLEMS
from debugtutor.debugeval.records import TASKS, load_records
from debugtutor.debugeval.tasks import build_items
from debugtutor.sandbox import Status

SAMPLE = Path(__file__).resolve().parents[2] / "src" / "debugtutor" / "samples" / "debugeval"


def test_every_task_has_instances_in_every_language() -> None:
    items = build_items(load_records(SAMPLE))
    counts = Counter((item.input["task"], item.input["record"]["language"]) for item in items)
    for task in TASKS:
        for language in ("python", "cpp", "java"):
            assert counts[(task, language)] > 0, (task, language)
    assert counts[("bug-identification", "cpp")] >= 8  # all four bug categories, two of each


@pytest.mark.parametrize("language", ["cpp", "java"])
def test_compiled_sample_bugs_fail_the_examples_the_correct_code_passes(language: CompiledLanguage) -> None:
    records = [record for record in load_records(SAMPLE) if record.language == language]
    (_, slug, _, examples, oracle) = next(problem for problem in COMPILED_PROBLEMS if problem[0] == language)
    assert records and all(record.slug == slug and record.correct_code == oracle for record in records)
    calls = example_calls(examples, oracle, language)
    method = next(record.method for record in records if record.method)  # the Code Repair record names it
    buggy = sorted({record.buggy_code for record in records})
    result = run_variants(language, [Variant(oracle), *(Variant(code) for code in buggy)], calls, method=method)
    correct, *mutants = result.variants
    assert correct.compiled and all(call.status == Status.passed for call in correct.calls)
    for code, mutant in zip(buggy, mutants):
        assert not mutant.compiled or any(call.status != Status.passed for call in mutant.calls), code
