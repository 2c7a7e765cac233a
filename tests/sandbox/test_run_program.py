"""Whole programs in Python, C++ and Java: statuses, stdin, files, limits and stdout judging, both isolations."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Callable

import pytest

from debugtutor.errors import InputError
from debugtutor.sandbox import JudgeRequest, Limits, ProgramRequest, SandboxPool, Status, run

CPP_DOUBLE = "#include <iostream>\nint main(){ long a; std::cin >> a; std::cout << a * 2 << std::endl; }\n"
JAVA_DOUBLE = (
    "import java.util.*;\npublic class Main { public static void main(String[] args) {"
    " Scanner in = new Scanner(System.in); System.out.println(in.nextLong() * 2); } }\n"
)


def test_python_program_reads_stdin_and_passes(isolation: str) -> None:
    outcome = run(ProgramRequest(source="name = input()\nprint('hello', name)\n", stdin="ada\n"))
    assert outcome.status is Status.passed
    assert outcome.stdout == "hello ada\n"
    assert outcome.returncode == 0
    assert outcome.isolation == isolation
    assert outcome.wall_s > 0


def test_python_uncaught_exception_reports_type_message_and_line(isolation: str) -> None:
    outcome = run(ProgramRequest(source="x = 1\n\ndef f(d):\n    return d['missing']\n\nf({})\n"))
    assert outcome.status is Status.error
    assert outcome.returncode == 1
    assert outcome.exception is not None
    assert outcome.exception.type == "KeyError"
    assert outcome.exception.line == 4
    assert "KeyError" in outcome.stderr


def test_python_syntax_error_has_line(isolation: str) -> None:
    outcome = run(ProgramRequest(source="print('ok')\nif True print(1)\n"))
    assert outcome.status is Status.error
    assert outcome.exception is not None and outcome.exception.type == "SyntaxError"
    assert outcome.exception.line == 2


def test_sys_exit_codes(isolation: str) -> None:
    assert run(ProgramRequest(source="import sys\nsys.exit(0)")).status is Status.passed
    failing = run(ProgramRequest(source="import sys\nsys.exit(3)"))
    assert failing.status is Status.error and failing.returncode == 3


def test_files_are_in_the_work_dir_and_importable(isolation: str) -> None:
    harness = "import json, helper\nprint(json.dumps({'value': helper.VALUE, 'data': open('data/in.txt').read()}))\n"
    outcome = run(ProgramRequest(source=harness, files={"helper.py": "VALUE = 42\n", "data/in.txt": "payload"}))
    assert outcome.status is Status.passed, outcome.stderr
    assert outcome.stdout.strip() == '{"value": 42, "data": "payload"}'


def test_every_run_starts_in_an_empty_work_dir_of_its_own(isolation: str) -> None:
    # One server (so the same work directory path) for all runs: nothing a run writes reaches the next one.
    program = (
        "import json, os\nbefore = sorted(os.listdir('.'))\nos.makedirs('made/deep')\n"
        "open('made/deep/left.txt', 'w').write('x')\nos.chmod('made', 0)\n"
        "print(json.dumps([before, os.getcwd() == os.environ['HOME'] == os.environ['TMPDIR']]))\n"
    )
    with SandboxPool(workers=1) as pool:
        outcomes = [pool.run(ProgramRequest(source=program, files={"given.txt": "y"})) for _ in range(3)]
    for outcome in outcomes:
        assert outcome.status is Status.passed, outcome.stderr
        assert json.loads(outcome.stdout) == [["given.txt", "main.py"], True]


def test_empty_stdin_is_at_its_end(isolation: str) -> None:
    outcome = run(ProgramRequest(source="import sys\nprint(repr(sys.stdin.read()))\ninput()\n"))
    assert outcome.stdout == "''\n"
    assert outcome.exception is not None and outcome.exception.type == "EOFError"


def test_a_detached_background_process_dies_with_the_run(
    isolation: str, find_processes: Callable[[str], list[int]], sleep_seconds: str
) -> None:
    program = (
        f"import subprocess\nsubprocess.Popen(['sleep', '{sleep_seconds}'], start_new_session=True)\nprint('started')\n"
    )
    with SandboxPool(workers=1) as pool:
        first = pool.run(ProgramRequest(source=program))
        assert first.status is Status.passed and first.stdout == "started\n"
        assert find_processes(f"sleep {sleep_seconds}") == []
        assert pool.run(ProgramRequest(source="print(1)")).stdout == "1\n"


def test_only_loopback_network_interface(isolation: str) -> None:
    if isolation == "rlimits" and os.getuid() != 0:
        pytest.skip("without root the rlimits fallback cannot give programs a network namespace of their own")
    outcome = run(
        ProgramRequest(source="print([line.split(':')[0].strip() for line in open('/proc/net/dev').readlines()[2:]])")
    )
    assert outcome.stdout == "['lo']\n"


def test_reserved_main_py_is_rejected() -> None:
    with pytest.raises(InputError):
        run(ProgramRequest(source="print(1)", files={"main.py": "x"}))


def test_environment_is_empty_of_parent_secrets(isolation: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEBUGTUTOR_TEST_SECRET", "s3cr3t")
    outcome = run(
        ProgramRequest(source="import os\nprint(sorted(os.environ))\nprint(os.environ.get('DEBUGTUTOR_TEST_SECRET'))")
    )
    assert outcome.status is Status.passed
    assert "s3cr3t" not in outcome.stdout
    assert outcome.stdout.splitlines()[-1] == "None"


def test_timeout(isolation: str) -> None:
    outcome = run(ProgramRequest(source="while True:\n    pass\n", limits=Limits(wall_s=0.5)))
    assert outcome.status is Status.timeout
    assert outcome.wall_s < 3


def test_cpu_limit_below_wall(isolation: str) -> None:
    outcome = run(ProgramRequest(source="while True:\n    pass\n", limits=Limits(wall_s=30, cpu_s=1)))
    assert outcome.status is Status.timeout
    assert outcome.returncode == -signal.SIGXCPU  # the kernel's CPU limit ended it, not the wall clock
    assert outcome.wall_s < 29
    # the reported CPU time is the child's rusage, which a loaded VM reports below what the kernel charged against
    # the limit (0.73 s of a 1 s limit seen in CI with the two cores shared)
    assert outcome.cpu_s is not None and outcome.cpu_s >= 0.5


def test_output_limit_truncates(isolation: str) -> None:
    outcome = run(
        ProgramRequest(source="while True:\n    print('x' * 1000)\n", limits=Limits(output_bytes=10_000, wall_s=5))
    )
    assert outcome.status is Status.output_limit
    assert outcome.stdout_truncated
    assert len(outcome.stdout) == 10_000


def test_memory_error_is_memory_status(isolation: str) -> None:
    outcome = run(ProgramRequest(source="x = bytearray(2 * 1024 ** 3)\n", limits=Limits(memory_mb=256)))
    assert outcome.status is Status.memory
    assert outcome.exception is not None and outcome.exception.type == "MemoryError"


def test_cpp_program_runs_with_stdin(isolation: str) -> None:
    outcome = run(ProgramRequest(source=CPP_DOUBLE, lang="cpp", stdin="21\n"))
    assert outcome.status is Status.passed, outcome.compile_output
    assert outcome.stdout.strip() == "42"


def test_cpp_compile_error_carries_compiler_message(isolation: str) -> None:
    outcome = run(ProgramRequest(source="int main() { return undefined_name; }\n", lang="cpp"))
    assert outcome.status is Status.compile_error
    assert outcome.compile_output is not None and "undefined_name" in outcome.compile_output


def test_stderr_with_exit_zero_is_not_a_compile_error(isolation: str) -> None:
    source = "#include <iostream>\nint main(){ std::cerr << \"warning\\n\"; std::cout << 7 << '\\n'; }\n"
    outcome = run(JudgeRequest(source=source, lang="cpp", expected_stdout="7\n"))
    assert outcome.status is Status.passed
    assert outcome.stderr == "warning\n"


def test_cpp_nonzero_exit_is_error(isolation: str) -> None:
    outcome = run(ProgramRequest(source="int main(){ return 3; }", lang="cpp"))
    assert outcome.status is Status.error and outcome.returncode == 3


def test_java_program_runs_and_is_judged(isolation: str) -> None:
    outcome = run(JudgeRequest(source=JAVA_DOUBLE, lang="java", stdin="21\n", expected_stdout="42"))
    assert outcome.status is Status.passed, outcome.stdout + outcome.stderr
    wrong = run(JudgeRequest(source=JAVA_DOUBLE, lang="java", stdin="20\n", expected_stdout="42"))
    assert wrong.status is Status.failed


def test_a_jvm_starts_with_few_malloc_arenas_and_nothing_else_of_the_hosts_environment(isolation: str) -> None:
    # a JVM's start-up threads may each open a 64 MB malloc arena: inside RLIMIT_AS that failed a start now and then
    probe = (
        "public class Main { public static void main(String[] a) {"
        ' System.out.println(System.getenv("MALLOC_ARENA_MAX") + " " + System.getenv("VIRTUAL_ENV")); } }'
    )
    outcome = run(ProgramRequest(source=probe, lang="java"))
    assert outcome.status is Status.passed, outcome.stdout + outcome.stderr
    assert outcome.stdout.split() == ["2", "null"]


def test_java_compile_error(isolation: str) -> None:
    outcome = run(
        ProgramRequest(source="public class Main { public static void main(String[] a) { int x = ; } }", lang="java")
    )
    assert outcome.status is Status.compile_error
    assert outcome.compile_output is not None and "error" in outcome.compile_output


def test_judge_exact_ignores_trailing_whitespace_only(isolation: str) -> None:
    source = "print('1 2  ')\nprint('3')\nprint()\n"
    assert run(JudgeRequest(source=source, expected_stdout="1 2\n3")).status is Status.passed
    assert run(JudgeRequest(source=source, expected_stdout="1  2\n3")).status is Status.failed


def test_judge_float_tolerance(isolation: str) -> None:
    source = "print(1/3, 2)\n"
    assert run(JudgeRequest(source=source, expected_stdout="0.333333 2", float_tol=1e-5)).status is Status.passed
    assert run(JudgeRequest(source=source, expected_stdout="0.3334 2", float_tol=1e-5)).status is Status.failed
    assert run(JudgeRequest(source=source, expected_stdout="0.333333 2")).status is Status.failed


def test_judge_reference_time_scales_the_limit(isolation: str) -> None:
    slow = "import time\ntime.sleep(1.5)\nprint('done')\n"
    outcome = run(JudgeRequest(source=slow, expected_stdout="done", limits=Limits(reference_s=0.01)))
    assert outcome.status is Status.timeout  # max(1 s floor, 4 x 0.01 s) < 1.5 s


CPP_RECORDS = r"""#include <string>
#include <unistd.h>
#include <iostream>
static void report(const std::string& line) { if (write(3, line.data(), line.size()) < 0) return; }
int main() {
    std::cout << "{\"event\": \"test\", \"index\": 1, \"actual\": 9}" << std::endl;
    report("{\"event\": \"test\", \"index\": 0, \"actual\": [1, 2]}\n");
    report("{\"event\": \"test\", \"index\": 2, \"actual\": 3}\n");
}
"""


def test_owed_results_come_from_the_judges_channel_only(isolation: str) -> None:
    # index 1 is only on stdout, so the record for index 2 lies past a gap and is not believed either
    outcome = run(ProgramRequest(source=CPP_RECORDS, lang="cpp", results=3))
    assert outcome.status is Status.passed, outcome.stderr
    assert outcome.results == [{"event": "test", "index": 0, "actual": [1, 2]}]
    assert run(ProgramRequest(source=CPP_RECORDS, lang="cpp")).results == []


def test_an_owed_result_written_twice_is_a_conflict(isolation: str) -> None:
    source = (
        "import json, os\n"
        "for value in (1, 2):\n"
        "    os.write(3, (json.dumps({'event': 'test', 'index': 0, 'actual': value}) + '\\n').encode())\n"
    )
    outcome = run(ProgramRequest(source=source, results=1))
    assert outcome.results == [{"status": "error", "conflict": True}]
