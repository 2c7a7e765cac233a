"""C++ and Java: the offline solver reads compile errors (in the sandbox) as syntax or reference evidence."""

from __future__ import annotations

import asyncio

import pytest

from debugtutor.debugeval.offline import compile_facts, identify_compiled

CPP = """class Solution {
public:
    int twice(int x) {
        return x * 2;
    }
};
"""
JAVA = """class Solution {
    public int twice(int x) {
        return x * 2;
    }
}
"""


@pytest.mark.slow
def test_cpp_compile_errors_name_lines_and_kinds() -> None:
    assert asyncio.run(compile_facts(CPP, "cpp")).errors == []
    undeclared = asyncio.run(compile_facts(CPP.replace("x * 2", "y * 2"), "cpp"))
    assert [(line, reference) for line, reference, _ in undeclared.errors] == [(4, True)]
    assert identify_compiled(undeclared) == "(B)"
    missing = asyncio.run(compile_facts(CPP.replace("x * 2;", "x * 2"), "cpp"))
    assert identify_compiled(missing) == "(A)"


@pytest.mark.slow
def test_java_compile_errors() -> None:
    facts = asyncio.run(compile_facts(JAVA.replace("x * 2", "y * 2"), "java"))
    assert facts.errors and facts.errors[0][:2] == (3, True)
