"""``debugtutor demo``: the main job on a fresh machine — the offline engine on the built-in sample data.

Each step runs one of debugtutor's own commands (no model, no network, no ../shared) and the demo prints one
table: what ran, its headline numbers and where its report is. Steps run as separate processes so that the demo
exercises the installed command exactly as a user would call it; a step that fails is reported and the others run.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape
from rich.table import Table

from debugtutor.console import emit_json, log, progress, state, stdout
from debugtutor.debugeval.prompts import LANGUAGE_NAMES
from debugtutor.samples import sample_dir
from debugtutor.sandbox import missing_toolchain

Headline = Callable[[dict[str, Any]], str]

# DebugEval's built-in instances the demo runs, one step per language (each runs only where its compiler is installed)
DEMO_LANGUAGES = ("python", "cpp")


@dataclass(frozen=True)
class DemoStep:
    """One command of the demo and how to summarise its JSON answer in a line."""

    title: str
    args: list[str]
    headline: Headline


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}"


def _socratic(result: dict[str, Any]) -> str:
    rouge = result.get("rougeL", {}).get("f1", {}).get("mean")
    bleu = result.get("bleu4", {}).get("f1", {}).get("mean")
    return (
        f"{result.get('examples')} instructor turns; ROUGE-L F1 {_pct(rouge)}, BLEU-4 F1 {_pct(bleu)}; "
        f"leak rate {_pct(result.get('leak_rate'))}%"
    )


def _analyze(result: dict[str, Any]) -> str:
    failing = len(result.get("failing_tests", []))
    repair = result.get("repair")
    fixed = f"repaired ({repair['edits'][0]['description']})" if repair and repair.get("edits") else "no repair"
    return f"{failing} failing tests; {fixed}"


def _maze(result: dict[str, Any]) -> str:
    solution = result.get("solution") or {}
    return f"smallest program: {solution.get('size')} blocks, {solution.get('compact')}"


def _studentsyn(result: dict[str, Any]) -> str:
    scores = result.get("techniques", {}).get("behaviour-edits", {})
    parts = [f"{family} {facts.get('mean', 0):.1f}%" for family, facts in sorted(scores.items())]
    runs = result.get("runs", {})
    report = f"  [{runs['behaviour-edits']}/report.html]" if runs.get("behaviour-edits") else ""
    return "discriminative accuracy (pick 1 of 10), type inferred: " + ", ".join(parts) + report


def _debugeval(result: dict[str, Any]) -> str:
    accuracy = result.get("accuracy", {})
    parts = [f"{task} {scores.get('all', 0):.1f}" for task, scores in accuracy.items() if task != "code-repair"]
    repair = accuracy.get("code-repair", {}).get("all")
    if repair is not None:
        parts.append(f"code-repair pass@1 {repair:.1f}")
    return "accuracy %: " + ", ".join(parts)


def demo_steps(runs_dir: Path, work: Path) -> list[DemoStep]:
    """The demo's commands over the built-in samples."""
    steps = [
        DemoStep(
            "Socratic instructor (offline) on the built-in dialogues",
            ["socratic", "eval", "--instructor", "offline", "--metrics", "rougeL,bleu4", "--runs-dir", str(runs_dir)],
            _socratic,
        )
    ]
    from debugtutor.socratic.dialogue import read_dialogue_file

    for path in sorted(sample_dir("socratic").glob("*.txt"))[:3]:
        dialogue = read_dialogue_file(path)
        program = work / f"{path.stem.split('_', 2)[2].rsplit('_socratic', 1)[0]}.py"
        tests = program.with_suffix(".tests.py")
        program.write_text(dialogue.bug_code + "\n", encoding="utf-8")
        tests.write_text(dialogue.unit_tests + "\n", encoding="utf-8")
        steps.append(
            DemoStep(f"Analysis engine on {program.name}", ["analyze", str(program), "--tests", str(tests)], _analyze)
        )
    for task in sorted(sample_dir("maze").glob("*/task/*_task.txt"))[:2]:
        steps.append(DemoStep(f"Maze solver on {task.stem}", ["maze", "solve", str(task)], _maze))
    steps.append(
        DemoStep(
            "StudentSyn: synthesize students' attempts (behaviour edits, type inferred) on the built-in maze families",
            ["studentsyn", "eval", "--technique", "behaviour-edits", "--rounds", "2", "--runs-dir", str(runs_dir)],
            _studentsyn,
        )
    )
    for language in DEMO_LANGUAGES:
        if missing_toolchain(language):
            continue
        args = ["debugeval", "eval", "--solver", "offline", "--task", "all", "--lang", language, "--runs-dir"]
        steps.append(
            DemoStep(
                f"DebugEval (offline solver) on the built-in {LANGUAGE_NAMES[language]} instances of all four tasks",
                [*args, str(runs_dir)],
                _debugeval,
            )
        )
    return steps


def left_out_languages() -> list[str]:
    """Lines naming the built-in DebugEval languages the demo does not run here, and why."""
    lines = [
        f"DebugEval {LANGUAGE_NAMES[language]} left out: {', '.join(missing)} is not installed"
        for language in DEMO_LANGUAGES
        if (missing := missing_toolchain(language))
    ]
    # Java's built-in instances take minutes (every answer starts javac and JVMs), too long for a first run
    lines.append("the built-in Java instances: debugtutor debugeval eval --lang java (a few minutes)")
    return lines


def _run_step(step: DemoStep) -> tuple[str, str, float]:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "debugtutor.cli.main", "--quiet", *step.args, "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        message = (done.stderr.strip().splitlines() or [f"exit code {done.returncode}"])[-1]
        return "failed", message, seconds
    try:
        result = json.loads(done.stdout)
    except json.JSONDecodeError:
        return "failed", "the command did not print one JSON object", seconds
    line = step.headline(result)
    report = result.get("report") or (f"{result['run_dir']}/report.html" if result.get("run_dir") else "")
    return "ok", f"{line}  [{report}]" if report else line, seconds


def register(app: typer.Typer) -> None:
    @app.command("demo")
    def demo(
        runs_dir: Path = typer.Option(Path("runs"), "--runs-dir", help="Where the runs and their reports go."),
        as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of a table."),
    ) -> None:
        """Run the offline engine on the built-in sample data: no model, no network, no downloads."""
        runs_dir.mkdir(parents=True, exist_ok=True)
        work = runs_dir / "demo-inputs"
        work.mkdir(exist_ok=True)
        steps = demo_steps(runs_dir.resolve(), work.resolve())
        rows: list[dict[str, Any]] = []
        with progress("demo", len(steps)) as bar:
            for step in steps:
                log(f"[bold]{escape(step.title)}[/bold]: debugtutor {escape(' '.join(step.args))}")
                status, summary, seconds = _run_step(step)
                rows.append({"step": step.title, "status": status, "summary": summary, "seconds": round(seconds, 2)})
                bar.advance()
        failed = [row for row in rows if row["status"] != "ok"]
        if as_json or state.json_mode:
            emit_json({"steps": rows, "failed": len(failed), "runs_dir": str(runs_dir.resolve())})
        else:
            table = Table(title="debugtutor demo: the offline engine on the built-in samples")
            for column in ("step", "status", "result", "seconds"):
                table.add_column(column, overflow="fold")
            for row in rows:
                style = "green" if row["status"] == "ok" else "red"
                table.add_row(
                    escape(row["step"]),
                    f"[{style}]{row['status']}[/{style}]",
                    escape(row["summary"]),
                    str(row["seconds"]),
                )
            stdout.print(table)
        for line in left_out_languages():
            log(line)
        log(f"the web app: debugtutor serve --runs-dir {runs_dir} (the 'web' extra), then open http://127.0.0.1:8000/")
        if failed:
            raise typer.Exit(1)
