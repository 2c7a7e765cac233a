"""``debugtutor socratic``: count a Socratic benchmark folder, evaluate an instructor on it, score outside predictions.

- ``stats``: problems, bugs, dialogues, instructor/student turns and utterances, with both counting methods.
- ``eval``: run an instructor (offline or model-backed) through the runner and score every example as the paper
  does; prints P/R/F1 with intervals beside two reference baselines on the same examples (a constant generic answer
  and the instructor's predictions against another problem's references), the leak rate and utterances per turn,
  and the paper's numbers. ``--prompt paper`` uses the benchmark code's prompt layout; ``--show-prompt`` prints the
  prompts without calling a model.
- ``score``: the same for predictions made elsewhere (JSONL of ``{"id", "predictions"}``, or a run's samples.jsonl).
- ``leak-check``: does each instructor utterance of a file give a bug's fix away (buggy and fixed program given)?
- ``finetune``: LoRA fine-tuning of a model on a folder's dialogues (dialogue so far -> the instructor's next
  utterances); the result is the model spec ``BASE+lora:OUT`` for ``eval --model``.

``--data`` defaults to the built-in sample dialogues.
"""

# No ``from __future__ import annotations`` here: @with_run_options copies the command's annotations onto a wrapper
# in another module, where Typer could not resolve them as strings.
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.markup import escape
from rich.table import Table

from debugtutor.cli.options import ModelOptions, one_of, with_model_options
from debugtutor.cli.run_options import RunOptions, with_run_options
from debugtutor.cli.train_options import TrainOptions, with_train_options
from debugtutor.console import emit_json, log, state, stdout, warn
from debugtutor.errors import InputError
from debugtutor.samples import sample_dir
from debugtutor.socratic.dataset import compute_stats, load_dialogues, resolve_split
from debugtutor.socratic.evaluation import (
    METRIC_NAMES,
    examples_from_folder,
    paper_rows,
    parse_metric_names,
    read_predictions,
    score_predictions,
)
from debugtutor.socratic.instructors import INSTRUCTOR_NAMES, PARSE_MODES, get_instructor
from debugtutor.socratic.prompts import PROMPT_STYLES, PromptStyle

app = typer.Typer(help="The Socratic Debugging Benchmark: statistics, evaluation and scoring.", no_args_is_help=True)

# Optional[...] rather than "X | None": Typer evaluates these annotations at run time, on Python 3.10 too.
DataOption = Annotated[
    Optional[Path],  # noqa: UP045
    typer.Option("--data", help="Folder of benchmark .txt files \\[default: the built-in sample].", show_default=False),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")]
MetricsOption = Annotated[
    str, typer.Option("--metrics", help=f"Comma-separated pair metrics: {', '.join(METRIC_NAMES)}.")
]
DedupOption = Annotated[bool, typer.Option("--dedup", help="Drop examples whose context and references repeat.")]
ParserOption = Annotated[
    str, typer.Option("--parser", help="Turn records by the benchmark's own reader (original) or robust.")
]
BertModelOption = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option("--bertscore-model", help="Local model path for BERTScore \\[default: the bundled MiniLM]."),
]


def _data_folder(data: Path | None) -> Path:
    """The benchmark files: ``--data`` (a split, or a copy's root: see ``resolve_split``), else the samples."""
    return resolve_split(data) if data is not None else sample_dir("socratic")


def _scorer_options(bertscore_model: str | None) -> dict[str, dict[str, Any]]:
    return {"bertscore": {"model": bertscore_model}} if bertscore_model else {}


def _check_parser(parser: str) -> None:
    if parser not in ("original", "robust"):
        raise InputError(f"unknown parser {parser!r}", field="parser", hint="original or robust")


@app.command("stats")
def stats_command(data: DataOption = None, lenient: bool = False, json_output: JsonOption = False) -> None:
    """Problems, bugs, dialogues, turns and utterances, counted the benchmark's way and the robust way."""
    folder = _data_folder(data)
    dialogues = load_dialogues(folder, lenient=lenient)
    by_method = {method: compute_stats(dialogues, method=method) for method in ("original", "robust")}
    fields = [
        "problems",
        "bugs",
        "dialogues",
        "instructor_turns",
        "instructor_utterances",
        "student_turns",
        "student_utterances",
        "code_blocks",
    ]
    if json_output:
        emit_json(
            {
                "data": str(folder),
                "original": {name: getattr(by_method["original"], name) for name in fields},
                "robust": {name: getattr(by_method["robust"], name) for name in fields},
            }
        )
        return
    table = Table(title=f"Socratic benchmark folder {escape(str(folder))}")
    table.add_column("count")
    table.add_column("original (benchmark's routine)", justify="right")
    table.add_column("robust (parsed records)", justify="right")
    for name in fields:
        table.add_row(
            name.replace("_", " "), str(getattr(by_method["original"], name)), str(getattr(by_method["robust"], name))
        )
    stdout.print(table)


def _interval(values: dict[str, Any]) -> str:
    if not values or values.get("mean") is None:
        return "n/a"
    return f"{values['mean'] * 100:.1f} [{values['low'] * 100:.1f}, {values['high'] * 100:.1f}]"


def _print_result(title: str, result: dict[str, Any], metrics: list[str], data_name: str) -> None:
    table = Table(title=title)
    table.add_column("metric")
    for column in ("precision", "recall", "F1"):
        table.add_column(f"{column} % [95% CI]", justify="right")
    for name in metrics:
        scores = result[name]
        table.add_row(name, _interval(scores["precision"]), _interval(scores["recall"]), _interval(scores["f1"]))
    stdout.print(table)
    baselines = result.get("baselines") or {}
    margins = result.get("margins") or {}
    base = Table(title="Beside two reference baselines on the same examples (F1 %; margin = instructor - baseline)")
    base.add_column("metric")
    base.add_column("instructor", justify="right")
    for baseline in baselines:
        base.add_column(baseline, justify="right")
    for baseline in baselines:
        base.add_column(f"margin over {baseline}", justify="right")
    for name in metrics:
        cells = [name, _interval(result[name]["f1"])]
        cells += ["n/a" if b is None else _interval(b[name]["f1"]) for b in baselines.values()]
        cells += ["n/a" if baselines[b] is None else _interval(margins.get(name, {}).get(b) or {}) for b in baselines]
        base.add_row(*cells)
    stdout.print(base)
    definitions = result.get("baseline_definitions") or {}
    for baseline, text in definitions.items():
        stdout.print(f"  {baseline}: {escape(text)}", highlight=False)
    stdout.print(
        f"examples: {result['examples']}   utterances per turn: {result['utterances_per_turn']:.2f}   "
        f"leak rate: {result['leak_rate'] * 100:.1f}% ({result['leaked_utterances']} of {result['utterances']})",
        highlight=False,
    )
    rows = result.get("paper", [])
    if rows:
        paper = Table(
            title=f"Beside the paper (ours on {escape(data_name)}; the paper's on its own test split, which is not "
            "in the shared data; its BERTScore uses deberta-xlarge-mnli)"
        )
        paper.add_column("metric")
        paper.add_column("ours F1 %", justify="right")
        paper.add_column("paper F1 %", justify="right")
        paper.add_column("paper system")
        for row in rows:
            ours = "-" if row["ours"] is None else f"{row['ours']:.1f}"
            for system, number in row["paper"].items():
                paper.add_row(escape(row["label"]), ours, f"{number:.1f}", escape(system))
        stdout.print(paper)


def _show_prompts(instructor: str, examples: list[Any], style: PromptStyle, json_output: bool) -> None:
    """Print the prompts ``instructor`` would send for ``examples``; no model is called."""
    import asyncio

    from debugtutor.socratic.instructors import preview_prompts

    planned = asyncio.run(preview_prompts(instructor, examples, style=style))
    if json_output or state.json_mode:
        emit_json(
            {
                "instructor": instructor,
                "prompt": style,
                "prompts": [
                    {"id": example_id, "step": p.step, "messages": [m.model_dump() for m in p.messages]}
                    for example_id, p in planned
                ],
            }
        )
        return
    for example_id, p in planned:
        # soft_wrap: the prompt is printed exactly as it would be sent, never re-wrapped to the terminal.
        header = f"===== {example_id}: {p.step} ({instructor}, prompt layout {style}) ====="
        stdout.print(header, markup=False, highlight=False, soft_wrap=True)
        for message in p.messages:
            stdout.print(f"----- {message.role} -----", markup=False, highlight=False, soft_wrap=True)
            stdout.print(message.content, markup=False, highlight=False, soft_wrap=True)


@app.command("eval")
@with_run_options
@with_model_options
def eval_command(
    run_options: RunOptions,
    model_options: ModelOptions,
    data: DataOption = None,
    instructor: Annotated[
        str, typer.Option("--instructor", help=f"One of: {', '.join(INSTRUCTOR_NAMES)}.")
    ] = "offline",
    model: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--model", help="Model spec for model-backed instructors (openai:..., scripted:FILE)."),
    ] = None,
    metrics: MetricsOption = "rougeL,bleu4,bertscore",
    dedup: DedupOption = False,
    parser: ParserOption = "original",
    list_parser: Annotated[
        str, typer.Option("--list-parser", help="Numbered-list parser for model answers: robust or original.")
    ] = "robust",
    bertscore_model: BertModelOption = None,
    prompt: Annotated[
        str,
        typer.Option(
            "--prompt", help="Prompt layout of model-backed instructors: ours, or paper (the benchmark code's own)."
        ),
    ] = "ours",
    show_prompt: Annotated[
        bool,
        typer.Option(
            "--show-prompt",
            help="Dry run: print the prompt(s) the instructor would send for the first example (--limit N for N), "
            "call no model, record no run.",
        ),
    ] = False,
    json_output: JsonOption = False,
) -> None:
    """Evaluate an instructor on every instructor turn of a folder and score it as the paper does."""
    from debugtutor.socratic.evaluation import build_eval_task

    _check_parser(parser)
    parse_mode = one_of(list_parser, PARSE_MODES, option="--list-parser")
    if prompt not in PROMPT_STYLES:
        raise InputError(f"unknown prompt layout {prompt!r}", field="prompt", hint=" or ".join(PROMPT_STYLES))
    metric_names = parse_metric_names(metrics)
    folder = _data_folder(data)
    examples = examples_from_folder(folder, dedup=dedup, parser=parser)
    if show_prompt:
        _show_prompts(instructor, examples[: run_options.limit or 1], prompt, json_output)
        return
    if model is not None and instructor == "offline":
        warn("--model is ignored by the offline instructor")
    if prompt != "ours" and instructor == "offline":
        warn("--prompt is ignored by the offline instructor")
    backend = model_options.resolve(model) if model is not None and instructor != "offline" else None
    chosen = get_instructor(
        instructor,
        backend,
        parse_mode=parse_mode,
        style=prompt,
    )
    task = build_eval_task(
        examples,
        chosen,
        metrics=metric_names,
        model_spec=backend.spec if backend is not None else None,
        data=folder,
        config={
            "dedup": dedup,
            "parser": parser,
            "list_parser": list_parser,
            "bertscore_model": bertscore_model,
            "prompt": prompt if instructor != "offline" else None,
        },
        scorer_options=_scorer_options(bertscore_model),
    )
    if backend is not None:
        task.model_settings = backend.describe()
    run = run_options.run(task)
    task_metrics: dict[str, Any] = dict(run.summary.get("task_metrics") or {})
    if not task_metrics and run.status in ("failed", "partial"):
        # nothing to score: say how the run ended (the CLI then exits 1, see --allow-errors)
        ended = {"run_id": run.run_id, "run_dir": str(run.run_dir), "status": run.status, **run.summary["counts"]}
        if json_output:
            emit_json({**ended, "stop_reason": run.summary.get("stop_reason")})
        return
    if "summarize_error" in task_metrics:
        raise InputError(f"scoring the run failed: {task_metrics['summarize_error']}", path=str(run.run_dir))
    if not task_metrics:
        raise InputError("the run recorded no examples", path=str(run.run_dir))
    result: dict[str, Any] = {
        "run_id": run.run_id,
        "run_dir": str(run.run_dir),
        "status": run.status,
        "stop_reason": run.summary.get("stop_reason"),
        "instructor": chosen.name,
        "model": task.model_spec,
        "data": str(folder),
        **task_metrics,
    }
    result["paper"] = paper_rows(result, metric_names)
    if json_output:
        emit_json(result)
        return
    log(f"records: {run.run_dir}")
    _print_result(f"Socratic eval: {chosen.name} on {escape(folder.name)}", result, metric_names, folder.name)


@app.command("score")
def score_command(
    predictions: Annotated[
        Path, typer.Option("--predictions", help='JSONL of {"id": example id, "predictions": \\[utterances]}.')
    ],
    data: DataOption = None,
    metrics: MetricsOption = "rougeL,bleu4,bertscore",
    dedup: DedupOption = False,
    parser: ParserOption = "original",
    bertscore_model: BertModelOption = None,
    json_output: JsonOption = False,
) -> None:
    """Score predictions made elsewhere against a folder's reference utterances."""
    _check_parser(parser)
    metric_names = parse_metric_names(metrics)
    folder = _data_folder(data)
    examples = examples_from_folder(folder, dedup=dedup, parser=parser)
    predicted = read_predictions(predictions, {example.id for example in examples})
    result = score_predictions(examples, predicted, metric_names, scorer_options=_scorer_options(bertscore_model))
    if result["missing"]:
        warn(f"{result['missing']} of {len(examples)} example(s) have no predictions and are not scored")
    result = {"predictions": str(predictions), "data": str(folder), **result}
    result["paper"] = paper_rows(result, metric_names)
    if json_output or state.json_mode:
        emit_json(result)
        return
    _print_result(f"Socratic scores of {escape(predictions.name)}", result, metric_names, folder.name)


@app.command("leak-check")
def leak_check_command(
    code: Annotated[Path, typer.Option("--code", help="The buggy program.")],
    fix: Annotated[Path, typer.Option("--fix", help="The fixed program.")],
    utterances: Annotated[Path, typer.Option("--utterances", help="Instructor utterances, one per line.")],
    problem: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option("--problem", help="Problem statement (and tests): code the student already sees."),
    ] = None,
    json_output: JsonOption = False,
) -> None:
    """Check instructor utterances for giving the fix away, one verdict per utterance (blank lines are skipped)."""
    from debugtutor.errors import read_text
    from debugtutor.socratic.leak import LeakGuard

    guard = LeakGuard(
        read_text(code),
        [],
        fixed_code=read_text(fix),
        context=read_text(problem) if problem is not None else "",
    )
    lines = [line.strip() for line in read_text(utterances).split("\n")]
    verdicts: list[dict[str, Any]] = []
    for line in lines:
        if not line:
            continue
        verdict = guard.check(line)
        verdicts.append({"utterance": line, "leak": verdict.leaked, "reasons": list(verdict.reasons)})
    if not verdicts:
        raise InputError("no utterances in this file", path=str(utterances), hint="one utterance per line")
    if json_output or state.json_mode:
        emit_json({"utterances": verdicts, "leaks": sum(v["leak"] for v in verdicts)})
        return
    table = Table(title=f"Leak check of {escape(utterances.name)}")
    table.add_column("leak")
    table.add_column("utterance")
    table.add_column("why")
    for v in verdicts:
        table.add_row("yes" if v["leak"] else "no", escape(str(v["utterance"])), escape("; ".join(v["reasons"])))
    stdout.print(table)
    stdout.print(
        f"{sum(v['leak'] for v in verdicts)} of {len(verdicts)} utterance(s) give the fix away", highlight=False
    )


@app.command("finetune")
@with_train_options
def finetune_command(
    train_options: TrainOptions,
    base: Annotated[str, typer.Option("--base", help="Model spec to fine-tune (hf:PATH, hf:PATH#F.gguf, local:...).")],
    data: Annotated[
        Path,
        typer.Option("--data", help="Training dialogues (a folder of .txt, or a copy's root: its v2_sigcse/train)."),
    ],
    out: Annotated[Path, typer.Option("--out", help="Adapter folder to write (written whole when training ends).")],
    mode: Annotated[
        str, typer.Option("--mode", help="zero-shot (target: every reference utterance, as a list) or single.")
    ] = "zero-shot",
    prompt: Annotated[str, typer.Option("--prompt", help="Prompt layout the model learns: ours or paper.")] = "ours",
    exclude: Annotated[
        Optional[list[Path]],  # noqa: UP045
        typer.Option("--exclude", help="An evaluation folder whose problems must not be trained on. Repeatable."),
    ] = None,
    dedup: Annotated[
        bool,
        typer.Option(
            "--dedup/--no-dedup",
            help="Drop turns whose context and references repeat (threads repeat their dialogue's opening).",
        ),
    ] = True,
    limit: Annotated[Optional[int], typer.Option("--limit", min=1, help="Train on the first N pairs only.")] = None,  # noqa: UP045
    json_output: JsonOption = False,
) -> None:
    """Fine-tune an instructor model with LoRA on Socratic dialogues; evaluate it with eval --model BASE+lora:OUT."""
    from debugtutor.socratic.finetune import finetune_examples, training_folder
    from debugtutor.tune import train_lora

    if mode not in ("zero-shot", "single"):
        raise InputError(f"unknown mode {mode!r}", field="mode", hint="zero-shot or single")
    if prompt not in PROMPT_STYLES:
        raise InputError(f"unknown prompt layout {prompt!r}", field="prompt", hint=" or ".join(PROMPT_STYLES))
    settings, run_kwargs = train_options.settings(), train_options.run_kwargs()
    folder = training_folder(data)
    examples = examples_from_folder(folder, dedup=dedup, parser="original")
    held_out = [
        example
        for path in exclude or []
        for example in examples_from_folder(resolve_split(path), dedup=False, parser="original")
    ]
    built = finetune_examples(examples, mode=mode, style=prompt, exclude=held_out)  # type: ignore[arg-type]
    if not built.examples:
        raise InputError("no training pairs left (every problem is in an --exclude folder)", path=str(folder))
    if built.excluded:
        log(f"left out {built.excluded} turn(s) of {len(built.excluded_problems)} problem(s) found in --exclude")
    pairs = built.examples[:limit] if limit else built.examples
    manifest = train_lora(base, pairs, out, settings, data_label=f"socratic {mode}/{prompt}: {folder}", **run_kwargs)
    instructor = "single" if mode == "single" else "zero-shot"
    spec = f"{base}+lora:{out}"
    payload = {
        "adapter": str(out),
        "model_spec": spec,
        "evaluate_with": f"debugtutor socratic eval --instructor {instructor} --prompt {prompt} --model {spec}",
        "pairs": len(pairs),
        "excluded_turns": built.excluded,
        "manifest": manifest.model_dump(mode="json"),
    }
    if json_output or state.json_mode:
        emit_json(payload)
        return
    facts = manifest.training
    stdout.print(
        f"trained {len(pairs)} pair(s) in {facts.steps} step(s), {facts.session_wall_s:.0f} s, "
        f"{facts.tokens_per_s:.0f} tokens/s; loss {facts.first_loss} -> {facts.last_loss}"
    )
    log(f"evaluate it with: {payload['evaluate_with']}")
