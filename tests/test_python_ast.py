"""Parsing Python on the host from several threads at once never fails on good code (python/cpython#106905)."""

from __future__ import annotations

import ast
import re
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import debugtutor
from debugtutor import python_ast

SOURCE = "\n".join(
    f"def f{i}(x):\n    if x > {i}:\n        return [y * {i} for y in range(x) if y % 2]\n    return {{'a': (1, [2])}}"
    for i in range(60)
)


class _CyclicGarbage:
    """Garbage whose finaliser runs Python code: collected in the middle of a parse, it lets another thread in."""

    def __init__(self) -> None:
        self.me = self

    def __del__(self) -> None:
        sum(range(50))


@pytest.fixture
def eager_thread_switches() -> Iterator[None]:
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(before)


def test_parses_from_many_threads_at_once_all_succeed(eager_thread_switches: None) -> None:
    expected = ast.dump(ast.parse(SOURCE))
    failures: list[str] = []
    wrong: list[str] = []

    def parse_repeatedly() -> None:
        for _ in range(60):
            for _ in range(20):
                _CyclicGarbage()
            try:
                if ast.dump(python_ast.parse(SOURCE)) != expected:
                    wrong.append("tree differs")
                python_ast.literal_eval("{'a': [1, 2, (3, 4)]}")
            except SystemError as error:  # what ast.parse itself raises here on CPython 3.11
                failures.append(str(error))

    threads = [threading.Thread(target=parse_repeatedly) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == [] and wrong == []


def test_host_code_parses_only_through_the_lock() -> None:
    # files named *harness* run inside the sandbox (one thread, standard library only)
    root = Path(debugtutor.__file__).parent
    direct = re.compile(r"\bast\.(parse|literal_eval)\(\s*(?!node\b)")
    offenders = [
        f"{path.relative_to(root)}:{number}"
        for path in sorted(root.rglob("*.py"))
        if "harness" not in path.name and path.name != "python_ast.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if direct.search(line)
    ]
    assert offenders == []
