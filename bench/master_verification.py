"""How many quizzed problems survive MASTER's execution checks: the offline Quizzer (verified mutation) per task
and language on DebugBench's training-split problems, and the model Quizzer on a scripted model whose answers carry
planted defects (the golden fixture ``tests/master/data/llm_quizzer_cases.json``: 5 of 14 answers are sound, and
each of the other 9 must be rejected for its planted reason).

    python bench/master_verification.py --data DEBUGEVAL_BUILD [--n-python 24] [--n-compiled 8] [--json]

``--data`` is a ``debugtutor debugeval build --train-fraction 0.5`` folder (its train split is quizzed). Exits
non-zero when a planted defect is not rejected for its reason.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from debugtutor.llm import ScriptedModel
from debugtutor.master.quizzer import LLMQuizzer, OfflineQuizzer, Rejection
from debugtutor.master.records import TASKS, QuizProblem
from debugtutor.master.sources import load_sources

REPO_ROOT = Path(__file__).resolve().parents[1]
CASES = REPO_ROOT / "tests" / "master" / "data" / "llm_quizzer_cases.json"


async def offline_rates(data: Path, language: str, n: int) -> dict[str, Any]:
    programs = load_sources([str(data)], exclude=[], languages=[language]).programs
    quizzer = OfflineQuizzer(seed=0)
    per_task: dict[str, Any] = {}
    for task in TASKS:
        started = time.perf_counter()
        verdicts = [await quizzer.quiz(programs[(slot * 7) % len(programs)], task, slot) for slot in range(n)]
        passed = sum(isinstance(v, QuizProblem) for v in verdicts)
        reasons = Counter(v.reason for v in verdicts if isinstance(v, Rejection))
        per_task[task] = {"quizzed": n, "verified": passed, "rate": passed / n, "rejections": dict(reasons),
                          "seconds": round(time.perf_counter() - started, 1)}  # fmt: skip
    return per_task


async def scripted_rates() -> dict[str, Any]:
    cases = json.loads(CASES.read_text())
    programs = load_sources(["samples"], exclude=[]).programs
    quizzer = LLMQuizzer(ScriptedModel([case["response"] for case in cases]))
    verdicts = [await quizzer.quiz(programs[0], case["task"], slot) for slot, case in enumerate(cases)]
    got = ["accepted" if isinstance(v, QuizProblem) else v.reason for v in verdicts]
    expected = [case["expected"] for case in cases]
    return {
        "answers": len(cases),
        "verified": got.count("accepted"),
        "rate": got.count("accepted") / len(cases),
        "expected_rate": expected.count("accepted") / len(cases),
        "rejections": dict(Counter(reason for reason in got if reason != "accepted")),
        "agreement_with_planted_verdicts": sum(a == b for a, b in zip(got, expected)),
        "mismatches": [{"task": c["task"], "expected": e, "got": g} for c, e, g in zip(cases, expected, got) if e != g],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--n-python", type=int, default=24, help="Slots per task for Python.")
    parser.add_argument("--n-compiled", type=int, default=8, help="Slots per task for C++ and for Java.")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    started = time.perf_counter()
    offline = {language: asyncio.run(offline_rates(args.data, language, n)) for language, n in
               (("python", args.n_python), ("cpp", args.n_compiled), ("java", args.n_compiled))}  # fmt: skip
    scripted = asyncio.run(scripted_rates())
    total = sum(cell["quizzed"] for by_task in offline.values() for cell in by_task.values())
    verified = sum(cell["verified"] for by_task in offline.values() for cell in by_task.values())
    result = {"offline": offline, "offline_total": {"quizzed": total, "verified": verified, "rate": verified / total},
              "scripted_llm": scripted, "seconds": round(time.perf_counter() - started, 1)}  # fmt: skip
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{'offline quizzer':16} {'task':20} {'verified':>10} {'rate %':>7}  rejections")
        for language, by_task in offline.items():
            for task, cell in by_task.items():
                print(f"{language:16} {task:20} {cell['verified']:>4}/{cell['quizzed']:<5} {100 * cell['rate']:>7.1f}"
                      f"  {cell['rejections'] or ''} ({cell['seconds']} s)")  # fmt: skip
        print(f"offline overall: {verified}/{total} = {100 * verified / total:.1f}% pass the checks")
        print(f"scripted LLM quizzer: {scripted['verified']}/{scripted['answers']} pass "
              f"({100 * scripted['rate']:.1f}%, expected {100 * scripted['expected_rate']:.1f}%); rejections "
              f"{scripted['rejections']}; agreement with the planted verdicts "
              f"{scripted['agreement_with_planted_verdicts']}/{scripted['answers']}")  # fmt: skip
        print(f"took {result['seconds']} s")
    if scripted["mismatches"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
