"""C++ and Java in the offline solver: compile, run on the stated examples and repair, in the sandbox."""

from __future__ import annotations

import asyncio

import pytest

from debugtutor.debugeval.offline_compiled import (
    CompiledFactsCache,
    compiled_program,
    identify_compiled,
    line_evidence_compiled,
    review_facts,
    review_verdict,
)

CPP = """class Solution {
public:
    int twice(int x) {
        int y = x;
        return y * 2;
    }
};
"""
JAVA = """class Solution {
    public int twice(int x) {
        int y = x;
        return y * 2;
    }
}
"""
EXAMPLES = ["Input: x = 3\nOutput: 6", "Input: x = 0\nOutput: 0"]


@pytest.mark.slow
@pytest.mark.parametrize("language,code", [("cpp", CPP), ("java", JAVA)])
def test_identification_from_compiler_and_repair(language: str, code: str) -> None:
    undeclared = asyncio.run(compiled_program(code.replace("y * 2", "z * 2"), EXAMPLES, language, 0.0))
    assert not undeclared.compiled and identify_compiled(undeclared)[0] == "(B)"
    missing = asyncio.run(compiled_program(code.replace("x;", "x"), EXAMPLES, language, 0.0))
    assert identify_compiled(missing)[0] == "(A)"
    logic = asyncio.run(compiled_program(code.replace("y * 2", "y * 3"), EXAMPLES, language, 60.0))
    assert logic.compiled and logic.failing and logic.repair is not None
    assert identify_compiled(logic)[0] == "(C)"
    assert (
        max(line_evidence_compiled(logic), key=line_evidence_compiled(logic).__getitem__)
        == code.count("\n", 0, code.index("y * 2")) + 1
    )


@pytest.mark.slow
def test_review_sides_swap_with_the_programs() -> None:
    buggy = CPP.replace("y * 2", "y * 3")
    facts = asyncio.run(review_facts(buggy, CPP, EXAMPLES, "cpp"))
    assert review_verdict(facts) == "A"
    assert review_verdict(asyncio.run(review_facts(CPP, buggy, EXAMPLES, "cpp"))) == "B"


@pytest.mark.slow
def test_cache_shares_one_analysis() -> None:
    cache = CompiledFactsCache()

    async def twice() -> tuple[object, object]:
        return await asyncio.gather(cache.get(JAVA, EXAMPLES, "java", 0.0), cache.get(JAVA, EXAMPLES, "java", 0.0))

    first, second = asyncio.run(twice())
    assert first is second
