"""Programs that try to forge their verdict: each must get only its true one.

The harness that runs a program's tests lives in the program's process, so a program can write on any descriptor it
has, imitate any record the harness writes, monkeypatch the harness, or exit half-way. The judge never trusts it:
expected values stay outside the process and results are compared there (see ``_test_plans``). Every attack below is
a wrong ``power`` (it multiplies) that would pass all three tests if any forged record were believed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from debugtutor.sandbox import (
    Language,
    LeetCodeCall,
    LeetCodeRequest,
    ProgramRequest,
    PythonTestsRequest,
    SandboxPool,
    Status,
    TestReport,
)

pytestmark = pytest.mark.bwrap

WRONG_POWER = "def power(a, b):\n    return a * b\n"
TESTS = ["assert power(2, 3) == 8", "assert power(2, 2) == 4", "assert power(3, 2) == 9"]
TRUE_VERDICT = [Status.failed, Status.passed, Status.failed]  # 2*3=6, 2*2=4, 3*2=6

# Every record shape the harness has ever written, claiming a pass, for every test index.
FORGED_LINES = "".join(
    json.dumps(record) + "\n"
    for index in range(len(TESTS))
    for record in (
        {"event": "test", "index": index, "status": "passed", "source": TESTS[index], "wall_s": 0.0},
        {"event": "test", "index": index, "status": "passed", "actual": "8", "expected": "8"},
        {"event": "test", "index": index, "probes": [{"v": 8}]},
        {"event": "test", "index": index, "probes": [{"v": {"o": ["AlwaysEqual", "x", True, 1]}}]},
        {"event": "test", "index": index, "actual": [8]},
    )
)


@pytest.fixture
def pool(server_account: str) -> Iterator[SandboxPool]:
    with SandboxPool(workers=1, isolation="bwrap") as sandbox:
        yield sandbox


def verdicts(report: TestReport) -> list[Status]:
    return [test.status for test in report.tests]


def assert_true_verdict(report: TestReport) -> None:
    """No test passes that the true power() fails; a forged test may come out as an error (a conflict)."""
    assert report.status is not Status.passed
    statuses = verdicts(report)
    assert len(statuses) == len(TRUE_VERDICT)
    for got, true in zip(statuses, TRUE_VERDICT):
        assert got is true or got is Status.error, statuses


def attack(payload: str) -> str:
    return WRONG_POWER + payload


def test_writing_passing_records_on_the_harness_descriptor(pool: SandboxPool) -> None:
    program = attack(f"import os\nos.write(3, {FORGED_LINES.encode()!r})\n")
    assert_true_verdict(pool.run(PythonTestsRequest(code=program, tests=TESTS)))


def test_writing_on_every_open_descriptor(pool: SandboxPool) -> None:
    program = attack(
        "import os\n"
        f"for fd in range(1024):\n"
        f"    try:\n        os.write(fd, {FORGED_LINES.encode()!r})\n    except OSError:\n        pass\n"
    )
    assert_true_verdict(pool.run(PythonTestsRequest(code=program, tests=TESTS)))


def test_printing_look_alike_result_lines(pool: SandboxPool) -> None:
    program = attack(
        f"import sys\nprint({FORGED_LINES!r})\nsys.stderr.write({FORGED_LINES!r})\nprint('@@debugtutor-call@@ 0 0 8')\n"
    )
    assert_true_verdict(pool.run(PythonTestsRequest(code=program, tests=TESTS)))


def test_monkeypatching_the_harness_from_inside(pool: SandboxPool) -> None:
    program = attack(
        "import sys\n"
        "harness = sys.modules['_dt_harness']\n"
        "original = harness.emit\n"
        "def forged(record):\n"
        "    if record.get('event') == 'test':\n"
        "        record = dict(record, status='passed', actual='8', expected='8')\n"
        "    original(record)\n"
        "harness.emit = forged\n"
        "harness.status_of = lambda exc: 'passed'\n"
    )
    assert_true_verdict(pool.run(PythonTestsRequest(code=program, tests=TESTS)))


def test_claiming_a_value_is_the_same_as_returning_it(pool: SandboxPool) -> None:
    # The one thing a program can still do is report a value it did not compute. Without the expected values it
    # cannot tell which value would pass, so it fares exactly as a program that returns that value everywhere.
    program = attack("import sys\nsys.modules['_dt_codec'].encode = lambda value: 8\n")
    assert verdicts(pool.run(PythonTestsRequest(code=program, tests=TESTS))) == [
        Status.passed,
        Status.failed,
        Status.failed,
    ]
    returns_eight = "def power(a, b):\n    return 8\n"
    assert verdicts(pool.run(PythonTestsRequest(code=returns_eight, tests=TESTS))) == [
        Status.passed,
        Status.failed,
        Status.failed,
    ]


def test_returning_an_object_equal_to_everything(pool: SandboxPool) -> None:
    program = (
        "class AlwaysEqual:\n    def __eq__(self, other):\n        return True\n    __hash__ = object.__hash__\n"
        "def power(a, b):\n    return AlwaysEqual()\n"
    )
    report = pool.run(PythonTestsRequest(code=program, tests=TESTS))
    assert verdicts(report) == [Status.failed] * 3


def test_exiting_half_way_after_forging_the_rest(pool: SandboxPool) -> None:
    program = (
        "import os\n"
        "calls = 0\n"
        "def power(a, b):\n"
        "    global calls\n"
        "    calls += 1\n"
        "    if calls == 2:\n"
        f"        os.write(3, {FORGED_LINES.encode()!r})\n"
        "        os._exit(0)\n"
        "    return a * b\n"
    )
    report = pool.run(PythonTestsRequest(code=program, tests=TESTS))
    assert Status.passed not in verdicts(report)[:1]
    assert report.status is not Status.passed


# Counts, over the writable anonymous memory of the process that runs it (heap, arenas, stack: where Python keeps
# every object), how often each needle occurs. A needle is given in two halves and matched as one half right after
# the other, so the whole needle never exists in the scanner's own memory.
SCANNER = """
import ctypes
def scan(*needles):
    counts = [0] * len(needles)
    for line in open('/proc/self/maps').read().splitlines():
        fields = line.split()
        if not fields[1].startswith('rw') or (len(fields) > 5 and fields[5] not in ('[heap]', '[stack]')):
            continue
        start, end = (int(x, 16) for x in fields[0].split('-'))
        data = ctypes.string_at(start, end - start)
        for i, (head, tail) in enumerate(needles):
            at = data.find(head)
            while at >= 0:
                if data.startswith(tail, at + len(head)):
                    counts[i] += 1
                at = data.find(head, at + 1)
    return counts
"""


def test_the_expected_values_never_enter_the_programs_memory(pool: SandboxPool) -> None:
    # The program scans its memory for its own probe's marker (proving the scan works) and for both tests'
    # expected values, one judged by the host and one by the judge process: it must find only the marker.
    program = SCANNER + (
        "def power(a, b, marker=''):\n"
        "    print(scan((b'probe_mark', b'er_4471'), (b'27182', b'81828'), (b'31415', b'92653')))\n"
        "    return a ** b\n"
    )
    tests = [
        "assert power(2, 3, 'probe_marker_4471') == 2718281828 or True",
        "import math",
        "assert math.isclose(power(2, 0.5, 'probe_marker_4471') + 3141592653, 3141592654.414, abs_tol=0.01)",
    ]
    report = pool.run(PythonTestsRequest(code=program, tests=tests))
    assert [t.status for t in report.tests] == [Status.passed] * 3, report
    counts = [json.loads(line) for line in report.stdout.splitlines()]
    assert len(counts) == 2 and all(found[0] > 0 and found[1:] == [0, 0] for found in counts), report.stdout


def test_a_later_program_cannot_find_an_earlier_ones_data(pool: SandboxPool) -> None:
    pool.run(
        LeetCodeRequest(
            code="class Solution:\n    def f(self, n):\n        return 'earlier-job-' + 'secret-5593'\n",
            calls=[LeetCodeCall(args={"n": 1})],
        )
    )
    outcome = pool.run(
        ProgramRequest(source=SCANNER + "print(scan((b'job-secr', b'et-5593'), (b'import ', b'ctypes')))\n")
    )
    assert outcome.status is Status.passed, outcome.stderr
    found_secret, found_own_code = json.loads(outcome.stdout)
    assert found_own_code > 0 and found_secret == 0


def test_leetcode_results_are_compared_outside_the_program(pool: SandboxPool) -> None:
    code = (
        "import os, json\n"
        "class Solution:\n"
        "    def add(self, a, b):\n"
        "        os.write(3, (json.dumps({'event': 'test', 'index': 1, 'status': 'passed'}) + '\\n').encode())\n"
        "        return a - b\n"
    )
    calls = [LeetCodeCall(args={"a": 2, "b": 0}, expected=2), LeetCodeCall(args={"a": 2, "b": 3}, expected=5)]
    report = pool.run(LeetCodeRequest(code=code, calls=calls))
    assert verdicts(report)[0] is Status.passed
    assert verdicts(report)[1] is not Status.passed


@pytest.mark.parametrize("lang", ["cpp", "java"])
def test_compiled_programs_cannot_forge_their_calls(pool: SandboxPool, lang: Language) -> None:
    forged = '{\\"event\\": \\"test\\", \\"index\\": 1, \\"actual\\": 5}\\n'
    if lang == "cpp":
        code = (
            "class Solution {\npublic:\n    int add(int a, int b) {\n"
            f'        std::string f = "{forged}";\n'
            "        write(3, f.data(), f.size());\n"
            f'        std::cout << "{forged}" << "@@debugtutor-call@@ 1 0 5" << std::endl;\n'
            "        return a - b;\n    }\n};\n"
        )
    else:
        code = (
            "class Solution {\n    public int add(int a, int b) {\n"
            '        try (java.io.FileOutputStream out = new java.io.FileOutputStream("/proc/self/fd/3", true)) {\n'
            f'            out.write("{forged}".getBytes());\n'
            "        } catch (java.io.IOException e) { }\n"
            f'        System.out.println("{forged}@@debugtutor-call@@ 1 0 5");\n'
            "        return a - b;\n    }\n}\n"
        )
    calls = [LeetCodeCall(args={"a": 2, "b": 0}, expected=2), LeetCodeCall(args={"a": 2, "b": 3}, expected=5)]
    report = pool.run(LeetCodeRequest(code=code, calls=calls, lang=lang, method="add"))
    assert report.status is not Status.passed, report
    assert verdicts(report)[1] is not Status.passed
