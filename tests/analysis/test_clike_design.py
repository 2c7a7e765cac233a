"""Design problems (a class driven through operation sequences) in the C++/Java harness, facts and repair search."""

from __future__ import annotations

import asyncio

import pytest

from debugtutor.analysis.clike.design import Signature, class_signatures, unmatched_operations
from debugtutor.analysis.clike.execution import CompiledFacts, collect_compiled_facts
from debugtutor.analysis.clike.harness import Variant, call_plan, run_variants
from debugtutor.analysis.clike.repair import arepair_compiled
from debugtutor.analysis.examples import design_calls, stated_calls
from debugtutor.analysis.repair import RepairBudget, RepairSearch
from debugtutor.errors import InputError
from debugtutor.sandbox import Status

CPP = """class Ledger {
    int balance;
    vector<int> moves;
public:
    Ledger(int opening) {
        balance = opening;
    }
    void deposit(int amount) {
        balance += amount;
        moves.push_back(amount);
    }
    int total() {
        return balance;
    }
    vector<int> history(int last) {
        vector<int> out;
        for (int i = max(0, (int)moves.size() - last); i < (int)moves.size(); i++) out.push_back(moves[i]);
        return out;
    }
};
"""
JAVA = """class Ledger {
    private int balance;
    private List<Integer> moves = new ArrayList<>();

    public Ledger(int opening) {
        balance = opening;
    }
    public void deposit(int amount) {
        balance += amount;
        moves.add(amount);
    }
    public int total() {
        return balance;
    }
    public List<Integer> history(int last) {
        List<Integer> out = new ArrayList<>();
        for (int i = Math.max(0, moves.size() - last); i < moves.size(); i++) out.add(moves.get(i));
        return out;
    }
}
"""
EXAMPLES = [
    'Input\n["Ledger", "deposit", "deposit", "total", "history"]\n[[10], [5], [7], [], [1]]\n'
    "Output\n[null, null, null, 22, [7]]\nExplanation\nTwo deposits on an opening balance of 10.",
    'Input\n["Ledger", "deposit", "total", "history"]\n[[0], [3], [], [4]]\nOutput\n[null, null, 3, [3]]',
]


def test_design_examples_become_operation_sequences() -> None:
    calls = design_calls(EXAMPLES)
    assert [call.args["operations"][-1] for call in calls] == ["history", "history"]
    assert calls[0].args["arguments"][0] == [10] and calls[0].expected == [None, None, None, 22, [7]]
    found, name = stated_calls(EXAMPLES, CPP, "cpp")
    assert name == "Ledger" and found == calls


def test_a_sequence_the_class_cannot_take_is_an_input_error() -> None:
    calls = design_calls(['Input\n["Ledger", "withdraw"]\n[[1], [2]]\nOutput\n[null, null]'])
    with pytest.raises(InputError, match="withdraw"):
        call_plan(CPP, "cpp", "Ledger", calls)


@pytest.mark.slow
@pytest.mark.parametrize("language,code", [("cpp", CPP), ("java", JAVA)])
def test_variants_of_a_design_class_run_the_sequences(language: str, code: str) -> None:
    calls = design_calls(EXAMPLES)
    wrong = code.replace("balance += amount", "balance -= amount")
    batch = run_variants(
        language,  # type: ignore[arg-type]
        [Variant(code), Variant(wrong), Variant(code, instrument=True)],
        calls,
        method="Ledger",
    )
    correct, wrong_result, probed = batch.variants
    assert correct.compiled and correct.passed == 2
    assert [call.status for call in wrong_result.calls] == [Status.failed, Status.failed]
    assert wrong_result.calls[0].actual == "[null, null, null, -2, [7]]"
    # the probes see which lines each sequence ran: the deposit's body in the first one
    deposit_line = next(n for n, text in enumerate(code.splitlines(), 1) if "balance += amount" in text)
    assert probed.passed == 2 and deposit_line in probed.calls[0].covered


@pytest.mark.slow
@pytest.mark.parametrize("language,code", [("cpp", CPP), ("java", JAVA)])
def test_a_design_class_gets_execution_facts_and_a_verified_repair(language: str, code: str) -> None:
    facts, search = _facts_and_repair(code.replace("balance += amount", "balance -= amount"), language, 400)
    assert facts.compiled and [t.status for t in facts.facts.tests] == [Status.failed, Status.failed]
    assert "deposit(5)" in facts.facts.tests[0].source
    assert search.best is not None and "balance += amount" in search.best.source


def _facts_and_repair(buggy: str, language: str, candidates: int) -> tuple[CompiledFacts, RepairSearch]:
    """The Ledger examples' facts about ``buggy`` and the repair search's result."""
    calls = design_calls(EXAMPLES)
    facts = collect_compiled_facts(buggy, calls, language, method="Ledger")  # type: ignore[arg-type]
    budget = RepairBudget(max_seconds=60.0, batch_size=32, max_executions=candidates)
    search = asyncio.run(arepair_compiled(buggy, calls, language=language, method="Ledger", budget=budget))  # type: ignore[arg-type]
    return facts, search


def test_an_operation_the_class_lacks_is_found_on_the_header_of_the_method_nobody_calls() -> None:
    calls = design_calls(EXAMPLES)
    renamed = CPP.replace("void deposit(int amount)", "void add(int amount)")
    (finding,) = unmatched_operations(renamed, calls)
    assert (finding.line, finding.symbol, finding.code) == (8, "deposit", "unmatched-operation")
    # a method of the called name that lost a parameter: its own header
    (finding,) = unmatched_operations(CPP.replace("history(int last)", "history()"), calls)
    assert (finding.line, finding.symbol) == (15, "history")
    assert unmatched_operations(CPP, calls) == []


@pytest.mark.slow
@pytest.mark.parametrize("language,code", [("cpp", CPP), ("java", JAVA)])
def test_a_renamed_method_of_a_design_class_is_named_as_the_examples_call_it(language: str, code: str) -> None:
    facts, search = _facts_and_repair(code.replace("void deposit(int amount)", "void add(int amount)"), language, 100)
    # it compiles, and nothing can run: the finding is the one fact there is
    assert facts.compiled and facts.harness_error and not facts.facts.tests
    assert [(d.line, d.symbol) for d in facts.diagnostics if d.code == "unmatched-operation"] == [(8, "deposit")]
    assert search.best is not None and search.best.source == code


@pytest.mark.slow
@pytest.mark.parametrize("language", ["cpp", "java"])
def test_a_class_that_writes_no_constructor_is_built_with_the_implicit_one(language: str) -> None:
    fields = "unordered_map<int, int> seen;" if language == "cpp" else "Map<Integer, Integer> seen = new HashMap<>();"
    put = "seen[x]++;" if language == "cpp" else "seen.merge(x, 1, Integer::sum);"
    get = "return seen[x];" if language == "cpp" else "return seen.getOrDefault(x, 0);"
    visibility = "public:\n" if language == "cpp" else ""
    code = (
        f"class Tally {{\n{visibility}    {fields}\n    void add(int x) {{ {put} }}\n"
        f"    int count(int x) {{ {get} }}\n}}{';' if language == 'cpp' else ''}\n"
    )
    example = 'Input\n["Tally", "add", "add", "count"]\n[[], [4], [4], [4]]\nOutput\n[null, null, null, 2]'
    calls = design_calls([example])
    batch = run_variants(language, [Variant(code)], calls, method="Tally")  # type: ignore[arg-type]
    assert batch.variants[0].harness_error is None and batch.variants[0].passed == 1
    # a constructor that is written but takes arguments is not called with none
    with pytest.raises(InputError, match="Tally taking 0"):
        call_plan(code.replace("void add", "Tally(int start) {}\n    void add"), language, "Tally", calls)  # type: ignore[arg-type]


@pytest.mark.parametrize("language", ["cpp", "java"])
def test_a_class_that_makes_instances_of_itself_still_has_the_implicit_constructor(language: str) -> None:
    """``new Trie()`` in a method is a call of the implicit constructor, not a constructor written."""
    child = "Trie* next[26] = {};" if language == "cpp" else "Trie[] next = new Trie[26];"
    make = "next[c] = new Trie();"
    code = f"class Trie {{\n    {child}\n    void grow(int c) {{\n        {make}\n    }}\n}}\n"
    assert class_signatures(code, "Trie")["Trie"] == Signature((), "void")
    written = code.replace("    void grow", "    Trie(int depth) {}\n    void grow")
    assert class_signatures(written, "Trie")["Trie"] == Signature(("int",), "void")
