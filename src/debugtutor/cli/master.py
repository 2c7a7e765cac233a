"""``debugtutor master``: synthesize verified debugging SFT data (Quizzer -> Learner -> Teacher), fine-tune on it, and
compare strategies against the base model on DebugEval's test split."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.table import Table

from debugtutor.cli.options import ModelOptions, with_model_options
from debugtutor.cli.run_options import RunOptions, with_run_options
from debugtutor.cli.train_options import TrainOptions, with_train_options
from debugtutor.console import emit_json, log, state, stdout
from debugtutor.errors import InputError

app = typer.Typer(
    help="MASTER: synthesize verified debugging SFT data, fine-tune a model on it, and measure the gain.",
    no_args_is_help=True,
)

_ALL_TASKS = ("bug-localization", "bug-identification", "code-review", "code-repair")
_ALL_LANGUAGES = ("python", "cpp", "java")


def _choices(value: str, allowed: tuple[str, ...], field: str) -> list[str]:
    if value.strip() == "all":
        return list(allowed)
    chosen = [part.strip() for part in value.split(",") if part.strip()]
    unknown = [part for part in chosen if part not in allowed]
    if unknown or not chosen:
        raise InputError(f"unknown value(s) {unknown or [value]}", field=field, hint=", ".join((*allowed, "all")))
    return chosen


@app.command("synth")
@with_run_options
@with_model_options
def synth_command(
    run_options: RunOptions,
    model_options: ModelOptions,
    learner: Annotated[str, typer.Option("--learner", help="Model spec of the learner (the model to train).")],
    out: Annotated[Path, typer.Option("--out", help="Folder for the SFT data (replaced whole when done).")],
    source: Annotated[
        list[str],
        typer.Option(
            "--source",
            help="A DebugEval folder (its train split is used, its test split excluded), a "
            "Socratic benchmark folder, or 'samples'. Repeatable.",
        ),
    ],
    quizzer: Annotated[str, typer.Option("--quizzer", help="offline, or a model spec.")] = "offline",
    teacher: Annotated[str, typer.Option("--teacher", help="offline, or a model spec.")] = "offline",
    tasks: Annotated[str, typer.Option("--tasks", help="Comma-separated DebugEval tasks, or all.")] = "all",
    lang: Annotated[str, typer.Option("--lang", help="Comma-separated languages (python, cpp, java), or all.")] = "all",
    n: Annotated[int, typer.Option("--n", min=1, help="Problems to quiz per task and language.")] = 20,
    attempts: Annotated[int, typer.Option("--attempts", min=1, help="Learner attempts per problem.")] = 1,
    keep: Annotated[
        str, typer.Option("--keep", help="wrong (problems the learner failed, the paper's rule) or verified (all).")
    ] = "wrong",
    exclude: Annotated[
        Optional[list[Path]],  # noqa: UP045
        typer.Option("--exclude", help="An evaluation split (DebugEval or Socratic folder) to keep out. Repeatable."),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the slot plan and the mutations.")] = 0,
    json_output: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Quizzer -> Learner -> Teacher over the sources; writes answer/cot/mixed SFT data in several formats to --out."""
    from debugtutor.master.learner import Learner
    from debugtutor.master.quizzer import LLMQuizzer, OfflineQuizzer
    from debugtutor.master.sft import read_outcomes, write_sft_data
    from debugtutor.master.sources import load_sources
    from debugtutor.master.synth import latest_records, make_synth_task, plan_items
    from debugtutor.master.teacher import LLMTeacher, OfflineTeacher

    if keep not in ("wrong", "verified"):
        raise InputError(f"unknown --keep {keep!r}", field="--keep", hint="wrong or verified")
    task_list = _choices(tasks, _ALL_TASKS, "--tasks")
    languages = _choices(lang, _ALL_LANGUAGES, "--lang")
    sources = load_sources(source, exclude=list(exclude or []), languages=languages)
    if not sources.programs:
        raise InputError("no source programs left in the languages asked for (after excluding evaluation problems)",
                         field="--source")  # fmt: skip
    if "samples" in source:
        log("note: the built-in samples are also debugeval eval's default data; do not evaluate a model tuned on them "
            "there")  # fmt: skip
    items, missing = plan_items(sources.programs, task_list, languages, n, seed)  # type: ignore[arg-type]
    for pair in missing:
        log(f"no source program for {pair}: skipped")
    learner_model = model_options.resolve(learner)
    quiz = OfflineQuizzer(seed=seed) if quizzer == "offline" else LLMQuizzer(model_options.resolve(quizzer))
    teach = OfflineTeacher() if teacher == "offline" else LLMTeacher(model_options.resolve(teacher))
    config = {"quizzer": quizzer, "teacher": teacher, "learner": learner_model.describe(), "tasks": task_list,
              "languages": languages, "n": n, "attempts": attempts, "seed": seed, "sources": source,
              "exclude": [str(path) for path in exclude or []]}  # fmt: skip
    task = make_synth_task(items, quizzer=quiz, learner=Learner(learner_model, attempts=attempts), teacher=teach,
                           config=config, checksums={})  # fmt: skip
    result = run_options.run(task)
    outcomes = read_outcomes(latest_records(result.run_dir), keep=keep)  # type: ignore[arg-type]
    report = {"run_id": result.run_id, "run_dir": str(result.run_dir), "status": result.status, "config": config,
              "sources_read": sources.read, "sources_used": len(sources.programs),
              "sources_excluded_as_evaluation": sources.excluded,
              "verification": result.summary.get("task_metrics", {})}  # fmt: skip
    synthesis = write_sft_data(out, outcomes, sources.evaluation, report=report)
    payload = {"out": str(out), **synthesis}
    if json_output or state.json_mode:
        emit_json(payload)
        return
    _print_synthesis(payload)


def _print_synthesis(payload: dict[str, Any]) -> None:
    verification = payload["verification"]
    table = Table(title="MASTER synthesis: problems per task and language (quizzed / verified / kept)")
    for column in ("task/language", "quizzed", "verified", "verification %", "learner acc. %", "kept"):
        table.add_column(column, justify="left" if column == "task/language" else "right")
    for key, cell in verification.get("per_task_language", {}).items():
        rate, accuracy = cell["verification_rate"], cell["learner_accuracy"]
        rate_text = f"{100 * rate:.1f}" if rate is not None else "-"
        accuracy_text = f"{100 * accuracy:.1f}" if accuracy is not None else "-"
        table.add_row(key, str(cell["quizzed"]), str(cell["verified"]), rate_text, accuracy_text, str(cell["kept"]))
    stdout.print(table)
    counts = payload["table_iii"]
    paper = counts["paper_table_iii"]
    iii = Table(title="SFT examples per task (Table III layout)")
    for column in ("task", "ours", "paper (MASTER)"):
        iii.add_column(column, justify="left" if column == "task" else "right")
    for task, count in counts["per_task"].items():
        iii.add_row(task, str(count), f"{paper[task]:,}")
    stdout.print(iii)
    for reason, count in verification.get("rejections", {}).items():
        log(f"rejected {count}: {reason}")
    dedup, contamination = payload["deduplication"], payload["decontamination"]
    log(f"duplicates removed: {dedup['exact']} exact, {dedup['near']} near; evaluation matches dropped: "
        f"{contamination['dropped']} of {contamination['checked']}")  # fmt: skip
    log(f"wrote {payload['out']} (run {payload['run_id']})")


@app.command("train")
@with_train_options
def train_command(
    train_options: TrainOptions,
    base: Annotated[str, typer.Option("--base", help="Model spec to fine-tune (hf:PATH, hf:PATH#F.gguf, local:...).")],
    data: Annotated[Path, typer.Option("--data", help="A 'master synth' output folder.")],
    out: Annotated[Path, typer.Option("--out", help="Adapter folder to write (written whole when training ends).")],
    strategy: Annotated[str, typer.Option("--strategy", help="answer, cot or mixed.")] = "mixed",
    limit: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option("--limit", min=1, help="Train on the first N examples only."),
    ] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Fine-tune --base with LoRA on one strategy's examples; the result is the model spec BASE+lora:OUT."""
    from debugtutor.master.sft import strategy_examples
    from debugtutor.tune import read_sft_file, train_lora

    settings, run_kwargs = train_options.settings(), train_options.run_kwargs()
    path = strategy_examples(data, strategy)
    examples = read_sft_file(path)[:limit] if limit else read_sft_file(path)
    manifest = train_lora(base, examples, out, settings, data_label=f"{path}", **run_kwargs)
    payload = {"adapter": str(out), "model_spec": f"{base}+lora:{out}", "manifest": manifest.model_dump(mode="json")}
    if json_output or state.json_mode:
        emit_json(payload)
        return
    _print_training(payload)


def _print_training(payload: dict[str, Any]) -> None:
    facts = payload["manifest"]["training"]
    table = Table(title=f"LoRA fine-tuning -> {payload['adapter']}")
    table.add_column("figure")
    table.add_column("value", justify="right")
    for label, value in (
        ("examples", facts["examples"]), ("optimizer steps", facts["steps"]),
        ("tokens per epoch", facts["tokens_per_epoch"]), ("answer tokens per epoch", facts["answer_tokens_per_epoch"]),
        ("wall time (s)", facts["session_wall_s"]), ("throughput (tokens/s)", facts["tokens_per_s"]),
        ("loss: first step -> last step", f"{facts['first_loss']:.4f} -> {facts['last_loss']:.4f}"
         if facts["first_loss"] is not None else "-"), ("device", facts["device"]),
    ):  # fmt: skip
        table.add_row(label, str(value))
    stdout.print(table)
    log(f"evaluate it as the model {payload['model_spec']}")


@app.command("ablation")
@with_train_options
def ablation_command(
    train_options: TrainOptions,
    base: Annotated[str, typer.Option("--base", help="Model spec to fine-tune and compare.")],
    data: Annotated[Path, typer.Option("--data", help="A 'master synth' output folder.")],
    eval_data: Annotated[Path, typer.Option("--eval-data", help="DebugEval folder whose test split is evaluated.")],
    out: Annotated[Path, typer.Option("--out", help="Folder for the adapters and the comparison.")],
    strategies: Annotated[str, typer.Option("--strategies", help="Comma-separated: answer, cot, mixed.")] = "answer,"
    "cot,mixed",
    tasks: Annotated[str, typer.Option("--tasks", help="DebugEval tasks to evaluate, or all.")] = "all",
    lang: Annotated[str, typer.Option("--lang", help="Languages to evaluate, or all.")] = "all",
    eval_limit: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option("--eval-limit", min=1, help="Evaluate the first N test instances per task and language."),
    ] = None,
    runs_dir: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option("--runs-dir", help="Where the evaluation runs are recorded \\[default: OUT/runs]."),
    ] = None,
    eval_max_tokens: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option(
            "--eval-max-tokens",
            min=1,
            help="Cap on generated tokens per evaluation answer (passed to debugeval eval --max-tokens).",
        ),
    ] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Train each strategy, evaluate base and tuned models with 'debugeval eval' on the test split, and print the
    comparison in Table V's layout beside the paper's rows and a trivial baseline."""
    from debugtutor.master.ablation import AblationPlan, print_ablation, run_ablation

    plan = AblationPlan(
        base=base, data=data, eval_data=eval_data, out=out,
        strategies=_choices(strategies, ("answer", "cot", "mixed"), "--strategies"),
        tasks=_choices(tasks, _ALL_TASKS, "--tasks"), languages=_choices(lang, _ALL_LANGUAGES, "--lang"),
        eval_limit=eval_limit, runs_dir=runs_dir or out / "runs", eval_max_tokens=eval_max_tokens,
    )  # fmt: skip
    result = run_ablation(plan, train_options.settings(), train_options.run_kwargs())
    if json_output or state.json_mode:
        emit_json(result)
        return
    print_ablation(result)
