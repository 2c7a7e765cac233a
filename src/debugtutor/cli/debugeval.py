"""``debugtutor debugeval``: build DebugEval-style instances and evaluate a model or the offline engine on them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer
from rich.table import Table

from debugtutor.cli.options import ModelOptions, one_of, with_model_options
from debugtutor.cli.run_options import RunOptions, with_run_options
from debugtutor.console import emit_json, log, state, stdout
from debugtutor.errors import InputError

if TYPE_CHECKING:
    from debugtutor.debugeval.records import LanguageName

app = typer.Typer(
    help="DebugEval: bug localization, identification, code review and code repair.", no_args_is_help=True
)

_DEFAULT_MODEL_OPTIONS = ModelOptions()  # (replaced by the user's options: see with_model_options)


def _sample_dir() -> Path:
    from importlib import resources

    return Path(str(resources.files("debugtutor") / "samples" / "debugeval"))


@app.command("build")
def build_command(
    source: Annotated[str, typer.Option("--source", help="debugbench or socratic.")],
    data: Annotated[Path, typer.Option("--data", help="Folder of the source dataset.")],
    out: Annotated[Path, typer.Option("--out", help="Folder to write the JSONL record files to.")],
    seed: Annotated[int, typer.Option("--seed", help="Seed of every sampling choice.")] = 0,
    train_fraction: Annotated[
        float, typer.Option("--train-fraction", min=0.0, max=1.0, help="Share of problems (by slug) marked train.")
    ] = 0.0,
    repair_languages: Annotated[
        str,
        typer.Option(
            "--repair-languages",
            help="Languages that get Code Repair instances (comma-separated; C++/Java compile every test run).",
        ),
    ] = "python",
    tests_cache: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(
            "--tests-cache",
            help="Folder keeping each problem's derived tests, so a stopped build resumes where it was "
            "\\[default: OUT/.tests-cache].",
            show_default=False,
        ),
    ] = None,
    skip_invalid: Annotated[
        bool, typer.Option("--skip-invalid", help="Leave out source records that lack a field (they are counted).")
    ] = False,
    json_output: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Write DebugEval record files (debugevalsuite_task124.jsonl, debugevalsuite_task3.jsonl) built from a dataset.

    Progress shows on stderr; Ctrl-C or a kill loses nothing derived so far: the same command resumes."""
    from debugtutor.debugeval.build import BuildReport, BuildSettings, build_from_debugbench, split_of, write_build
    from debugtutor.debugeval.records import LANGUAGES

    languages = tuple(
        one_of(part.strip(), LANGUAGES, option="--repair-languages")
        for part in repair_languages.split(",")
        if part.strip()
    )
    settings = BuildSettings(
        seed=seed,
        train_fraction=train_fraction,
        repair_languages=languages,
        tests_cache=tests_cache if tests_cache is not None else out / ".tests-cache",
    )
    if source == "debugbench":
        from debugtutor.debugeval.debugbench import load_debugbench

        invalid: list[str] = []
        items = load_debugbench(data, skip_invalid=skip_invalid, invalid=invalid)
        task124, task3, report = build_from_debugbench(items, settings)
        for description in invalid:
            report.drop("invalid source record (left out by --skip-invalid)")
            log(f"left out: {description}")
    elif source == "socratic":
        from debugtutor.debugeval.socratic_bugs import keep_failing, read_socratic_bugs

        report = BuildReport()
        task3, dropped = keep_failing(read_socratic_bugs(data))
        task3 = [r.model_copy(update={"split": split_of(r.slug, seed, train_fraction)}) for r in task3]
        task124 = []
        report.drop("code-repair: the bug passes its own unit tests", dropped)
        report.counts["code-repair"] = {"python": len(task3)}
    else:
        raise InputError(f"unknown source {source!r}", field="--source", hint="debugbench or socratic")
    write_build(out, task124, task3, report)
    result = {"out": str(out), "counts": report.counts, "dropped": report.dropped, "seconds": round(report.seconds, 2)}
    if json_output:
        emit_json(result)
        return
    table = Table(title=f"DebugEval instances from {source}")
    table.add_column("task")
    for language in ("python", "cpp", "java"):
        table.add_column(language, justify="right")
    for task, counts in report.counts.items():
        table.add_row(task, *(str(counts.get(language, 0)) for language in ("python", "cpp", "java")))
    stdout.print(table)
    for reason, count in report.dropped.items():
        log(f"dropped {count}: {reason}")
    log(f"wrote {out}")


@app.command("judge")
def judge_command(
    data: Annotated[Path, typer.Option("--data", help="DebugBench folder (the problems and their oracles).")],
    predictions: Annotated[
        Path, typer.Option("--predictions", help='JSONL file of {"id", "slug", "language", "code"} rows.')
    ],
    cache: Annotated[
        Optional[Path],  # noqa: UP045 - Typer reads this annotation at run time on Python 3.10
        typer.Option("--cache", help="Folder keeping the derived tests per problem between runs."),
    ] = None,
    workers: Annotated[int, typer.Option("--workers", min=1, help="Problems graded at once.")] = 2,
    json_output: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Grade programs written elsewhere with the tests Code Repair uses: pass, fail or ungradable, with a reason."""
    from debugtutor.debugeval.debugbench import load_debugbench
    from debugtutor.debugeval.judge import TestsCache, judge, read_predictions, summarize_verdicts
    from debugtutor.debugeval.problem_tests import problems_from

    rows = read_predictions(predictions)
    problems = problems_from(load_debugbench(data))
    results = judge(rows, problems, cache=TestsCache(cache), workers=workers)
    payload = {"results": [result.model_dump(mode="json") for result in results], **summarize_verdicts(results)}
    if json_output or state.json_mode:
        emit_json(payload)
        return
    table = Table(title=f"Judge verdicts on {predictions}")
    for column in ("language", "pass", "fail", "ungradable"):
        table.add_column(column, justify="left" if column == "language" else "right")
    for language, counts in payload["per_language"].items():
        table.add_row(language, *(str(counts[name]) for name in ("pass", "fail", "ungradable")))
    stdout.print(table)
    for result in results:
        if result.verdict != "pass":
            log(f"{result.id} ({result.language} {result.slug}): {result.verdict}: {result.reason}")


def _runnable_languages(lang: str, solver: str, tasks: Sequence[str]) -> list[LanguageName]:
    """The languages ``--lang`` asks for that can run here. C++/Java items compile and run programs (the offline and
    grounded solvers to find their answers, every solver to grade Code Repair): under ``all`` a language whose
    compiler is not installed is left out (and said so); asked for by name it is an error naming the missing
    commands. A model answering the other three tasks runs nothing, so it keeps every language."""
    from debugtutor.debugeval.records import LANGUAGES
    from debugtutor.sandbox import missing_toolchain

    asked = list(LANGUAGES) if lang == "all" else [one_of(lang, LANGUAGES, option="--lang")]
    if solver == "llm" and "code-repair" not in tasks:
        return asked
    runnable: list[LanguageName] = []
    for language in asked:
        missing = missing_toolchain(language)
        if not missing:
            runnable.append(language)
        elif lang == "all":
            log(f"left out {language}: its programs need {', '.join(missing)}, which is not installed")
        else:
            raise InputError(
                f"{language} programs need {', '.join(missing)} to compile and run, which is not installed",
                field="--lang",
                hint="install it (Debian: g++ for cpp, default-jdk-headless for java) or pick another --lang",
            )
    return runnable


@app.command("eval")
@with_run_options
@with_model_options
def eval_command(
    run_options: RunOptions,
    model_options: ModelOptions = _DEFAULT_MODEL_OPTIONS,
    data: Annotated[
        Optional[Path],  # noqa: UP045 - Typer reads this annotation at run time on Python 3.10
        typer.Option(
            "--data", help="A folder from 'debugeval build' or DebugEval's own data \\[default: built-in sample]."
        ),
    ] = None,
    task: Annotated[str, typer.Option("--task", help="A task name or all.")] = "all",
    solver: Annotated[str, typer.Option("--solver", help="offline, llm or grounded.")] = "offline",
    model: Annotated[Optional[str], typer.Option("--model", help="Model spec for llm/grounded.")] = None,  # noqa: UP045
    lang: Annotated[str, typer.Option("--lang", help="python, cpp, java or all.")] = "all",
    samples: Annotated[int, typer.Option("--n", min=1, help="Code Repair samples per problem (pass@k).")] = 1,
    split: Annotated[str, typer.Option("--split", help="train, test or all.")] = "all",
    prompt: Annotated[
        str,
        typer.Option(
            "--prompt", help="Prompt layout for llm/grounded: ours, or paper (DebugEval's layout and answer pre-fill)."
        ),
    ] = "ours",
    json_output: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Evaluate a solver; prints accuracy (pass@k for Code Repair) per task and language beside DebugEval Table IV."""
    from debugtutor.data import dataset_checksum
    from debugtutor.debugeval.prompts import PROMPT_STYLES
    from debugtutor.debugeval.records import TASKS, load_records
    from debugtutor.debugeval.solvers import SOLVERS
    from debugtutor.debugeval.tasks import SOLVER_NAMES, SPLITS, build_eval_task, build_items

    tasks = list(TASKS) if task == "all" else [one_of(task, TASKS, option="--task")]
    solver_name = one_of(solver, SOLVER_NAMES, option="--solver")
    languages = _runnable_languages(lang, solver_name, tasks)
    chosen_split = one_of(split, SPLITS, option="--split")
    style = one_of(prompt, PROMPT_STYLES, option="--prompt")
    folder = data if data is not None else _sample_dir()
    records = load_records(folder)
    items = build_items(records, tasks=tasks, languages=languages, split=chosen_split)
    if not items:
        raise InputError("no instances match the task, language and split asked for", path=str(folder))
    backend = model_options.resolve(model) if model and solver_name != "offline" else None
    solve = SOLVERS.create(solver_name, model=backend, samples=samples, prompt_style=style)
    eval_task = build_eval_task(
        items, solve.answer, solver_name=solver_name, tasks=tasks, data=data,
        model_spec=backend.spec if backend is not None else None,
        checksums={"debugeval": dataset_checksum(folder)},
        config={"lang": lang, "n": samples, "split": split, "prompt": prompt},
    )  # fmt: skip
    if backend is not None:
        eval_task.model_settings = backend.describe()
    result = run_options.run(eval_task)
    metrics = result.summary.get("task_metrics", {})
    payload = {
        "run_id": result.run_id,
        "run_dir": str(result.run_dir),
        "status": result.status,
        "accuracy": metrics.get("accuracy", {}),
        "baseline": metrics.get("baseline", {}),
        "items": metrics.get("items", {}),
        "identification": metrics.get("identification", {}),
        "pass_at_k": metrics.get("pass_at_k", {}),
        "errors": metrics.get("errors", {}),
        "published": result.summary.get("published", []),
    }
    if json_output or state.json_mode:
        emit_json(payload)
        return
    _print_table(payload)


def best_published(task: str, measured: dict[str, float], published: list[dict[str, Any]]) -> str:
    """The best published figure for ``task`` in each language the run measured: a C++ run beside the paper's C++
    column, not its Python one."""
    paper = {row["label"]: row["paper"] for row in published}
    best = []
    for language in ("python", "cpp", "java"):
        systems = paper.get(f"{task} {language}", {})
        if language in measured and systems:
            name = max(systems, key=lambda system: systems[system])
            best.append(f"{language} {systems[name]} ({name})")
    return "; ".join(best) or "-"


def _print_table(payload: dict[str, Any]) -> None:
    from debugtutor.debugeval.baselines import BASELINE_NAMES
    from debugtutor.debugeval.records import TASKS

    table = Table(title=f"DebugEval run {payload['run_id']} (accuracy %, Code Repair pass@1 %)")
    table.add_column("task")
    for language in ("python", "cpp", "java", "all"):
        table.add_column(language, justify="right")
    table.add_column("trivial baseline")
    table.add_column("best published, same language")
    accuracy = payload["accuracy"]
    for task in sorted(accuracy, key=lambda name: TASKS.index(name) if name in TASKS else len(TASKS)):
        by_language = accuracy[task]
        cells = [f"{by_language[key]:.1f}" if key in by_language else "-" for key in ("python", "cpp", "java", "all")]
        baseline = payload["baseline"].get(task, {})
        shown = [key for key in ("python", "cpp", "java") if key in baseline]
        trivial = "; ".join(f"{key} {baseline[key]:.1f}" for key in shown) or "-"
        table.add_row(task, *cells, trivial, best_published(task, by_language, payload["published"]))
    stdout.print(table)
    names = "; ".join(f"{task}: {BASELINE_NAMES[task]}" for task in payload["accuracy"] if task in BASELINE_NAMES)
    log(f"trivial baselines, scored on the same items: {names}")
    log("best published: DebugEval Table IV (arXiv 2408.05006v1), the paper's models on the paper's own test items")
    for language, facts in payload["identification"].items():
        per_class, answers = facts["per_class_accuracy"], facts["answer_distribution"]
        log(f"identification {language}: accuracy per class {per_class}, answers given {answers}")
    log(f"records in {payload['run_dir']}")
