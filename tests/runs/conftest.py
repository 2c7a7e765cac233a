"""Fixtures for the runner tests: toy tasks with known scores and a child-process script for crash tests."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from debugtutor.runs import EvalItem, EvalTask

# A task run in a child process so that tests can kill it (SIGKILL) or interrupt it (SIGINT, SIGTERM) at any moment.
CHILD_SCRIPT = textwrap.dedent(
    """
    import asyncio, sys
    from pathlib import Path
    from debugtutor.runs import EvalItem, EvalTask, run_task

    runs_dir, mode, run = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    count, sleep_ms = int(sys.argv[4]), float(sys.argv[5])

    async def solve(item):
        await asyncio.sleep(sleep_ms / 1000)
        return item.input["n"] * 2

    def score(item, output):
        return {"correct": output == item.target}

    task = EvalTask(
        name="crashable",
        items=[EvalItem(id=f"item-{n:04d}", input={"n": n}, target=2 * n) for n in range(count)],
        solver=solve,
        scorer=score,
    )
    if mode == "new":
        run_task(task, runs_dir=runs_dir, run_id=run, concurrency=4)
    else:
        run_task(task, runs_dir=runs_dir, resume=run, concurrency=4)
    """
)


@pytest.fixture
def child_script(tmp_path: Path) -> list[str]:
    """The command prefix that runs :data:`CHILD_SCRIPT`; append runs_dir, new|resume, run id, items, sleep ms."""
    script = tmp_path / "child_run.py"
    script.write_text(CHILD_SCRIPT, encoding="utf-8")
    return [sys.executable, str(script)]


def _golden_items() -> list[EvalItem]:
    # Four items whose "correct" scores are 1, 0, 1, 1: mean exactly 0.75.
    return [
        EvalItem(id="a", input={"question": "1+1"}, target="2"),
        EvalItem(id="b", input={"question": "2+2"}, target="5"),
        EvalItem(id="c", input={"question": "3+3"}, target="6"),
        EvalItem(id="d", input={"question": "4+4"}, target="8"),
    ]


def _answer(item: EvalItem) -> str:
    left, right = item.input["question"].split("+")
    return str(int(left) + int(right))


def _exact_match(item: EvalItem, output: str) -> dict[str, float | int | bool | str]:
    return {"correct": float(output == item.target), "length": len(output)}


@pytest.fixture
def golden_task() -> Callable[..., EvalTask]:
    """A factory for the golden toy task (scores 1, 0, 1, 1); keyword arguments override EvalTask fields."""

    def make(**overrides: object) -> EvalTask:
        fields: dict[str, object] = {
            "name": "golden-arith",
            "version": "2",
            "items": _golden_items(),
            "solver": _answer,
            "scorer": _exact_match,
            "summarize": lambda records: {"answered": sum(1 for r in records if r.output is not None)},
            "config": {"prompt": "none"},
            "dataset_checksums": {"arith.jsonl": "sha256:abc"},
            "model_spec": "scripted:golden",
            "published": {
                "Accuracy (%)": {"ours": "correct", "paper": {"GPT-4": 80.0, "Llama-2": 41.5}, "ours_scale": 100}
            },
        }
        fields.update(overrides)
        return EvalTask(**fields)  # type: ignore[arg-type]

    return make
