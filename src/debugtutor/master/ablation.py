"""The Table V ablation: train one adapter per strategy, evaluate the base and every tuned model on the same
held-out DebugEval instances, and put the numbers beside a trivial baseline and the paper's rows.

The evaluation is ``debugtutor debugeval eval`` itself, run as a subprocess and read through its ``--json`` output
and its run records, so this arena depends on the debugeval arena only through its public command. To evaluate
exactly the chosen instances, the test split is copied into ``OUT/eval_subset/`` first: up to ``eval_limit``
instances per task and language, drawn in a seeded order, with the membership fields of tasks not chosen blanked.
The same subset gives the trivial baseline: the best constant answer (the majority letter or class; either snippet
for review, which is asked in both orders, so 50%; and 0% for repair, whose buggy programs fail their tests by
construction).

Intervals are seeded percentile-bootstrap intervals over the per-item scores of the run records (95%); the change
against the base model is a paired bootstrap over the same items.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from debugtutor.atomic_files import write_json_atomic, write_text_atomic
from debugtutor.console import log, stdout
from debugtutor.errors import DebugtutorError, InputError
from debugtutor.master.sft import strategy_examples
from debugtutor.master.sources import TASK3_FILE, TASK124_FILE, read_record_lines, record_files
from debugtutor.master.synth import latest_records
from debugtutor.metrics import bootstrap_mean
from debugtutor.tune import TrainSettings, read_manifest, read_sft_file, train_lora
from debugtutor.tune.examples import examples_checksum

# DebugEval Table V (arXiv 2408.05006v1): average over the four tasks, from ../reference/anchors.md
PAPER_TABLE_V = {
    "DeepSeek-Coder-6.7B-Ins": {"zero-shot": 28.7, "vanilla SFT": 23.6, "MASTER (Answer)": 39.0, "MASTER (CoT)": 44.8,
                                "NeuDebugger": 56.4},
    "Llama3-8B-Ins": {"zero-shot": 49.7, "vanilla SFT": 35.6, "MASTER (Answer)": 41.9, "MASTER (CoT)": 52.4,
                      "NeuDebugger": 53.8},
}  # fmt: skip
ROW_LABELS = {"answer": "MASTER (Answer)", "cot": "MASTER (CoT)", "mixed": "NeuDebugger"}
_MEMBERSHIP = {"bug-localization": ("task1_options", "task1_answer", "task1_option_texts"),
               "bug-identification": ("task2_choice",), "code-review": ("task4",)}  # fmt: skip


@dataclass
class AblationPlan:
    base: str
    data: Path
    eval_data: Path
    out: Path
    strategies: list[str]
    tasks: list[str]
    languages: list[str]
    eval_limit: int | None = None
    runs_dir: Path = field(default_factory=lambda: Path("runs"))
    seed: int = 0
    eval_max_tokens: int | None = None
    """Passed to ``debugeval eval --max-tokens`` (where that command takes the shared model options)."""


def _in_task(record: dict[str, Any], task: str, from_task3: bool) -> bool:
    if task == "code-repair":
        return from_task3
    if task == "bug-localization":
        return bool(record.get("task1_options"))
    if task == "bug-identification":
        return bool(record.get("task2_choice"))
    return record.get("task4") in ("True", True) and bool(record.get("correct_code"))


def build_eval_subset(plan: AblationPlan) -> tuple[Path, dict[str, dict[str, list[dict[str, Any]]]]]:
    """Write the chosen test instances to ``OUT/eval_subset``; returns it and the instances per task and language."""
    files = record_files(plan.eval_data)
    if not files:
        raise InputError(f"no {TASK124_FILE} or {TASK3_FILE} here", path=str(plan.eval_data), field="--eval-data")
    chosen: dict[str, dict[str, list[dict[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    selected: dict[tuple[str, str], set[str]] = defaultdict(set)  # (file, question_id) -> tasks
    records: dict[tuple[str, str], dict[str, Any]] = {}
    for file in files:
        from_task3 = file.name == TASK3_FILE
        lines = [r for r in read_record_lines(file) if r.get("split", "test") == "test"]
        for task in plan.tasks:
            for language in plan.languages:
                pool = [r for r in lines if r["language"] == language and _in_task(r, task, from_task3)]
                pool.sort(key=lambda r: str(r.get("question_id")))
                random.Random(f"{plan.seed}:{task}:{language}").shuffle(pool)
                for record in pool[: plan.eval_limit] if plan.eval_limit else pool:
                    key = (file.name, str(record.get("question_id")))
                    selected[key].add(task)
                    records[key] = record
                    chosen[task][language].append(record)
    if not records:
        raise InputError("the test split holds no instances of the tasks and languages asked for",
                         path=str(plan.eval_data), hint="build it with 'debugeval build --train-fraction'")  # fmt: skip
    subset = plan.out / "eval_subset"
    by_file: dict[str, list[str]] = defaultdict(list)
    for (name, _), record in sorted(records.items()):
        kept = dict(record)
        for task, fields in _MEMBERSHIP.items():
            if task not in selected[(name, str(record.get("question_id")))]:
                for name_ in fields:
                    kept[name_] = [] if name_.endswith("texts") else ""
        by_file[name].append(json.dumps(kept, ensure_ascii=False, sort_keys=True))
    for name in (TASK124_FILE, TASK3_FILE):
        write_text_atomic(subset / name, "".join(line + "\n" for line in by_file.get(name, [])))
    source_folder = files[0].parent
    for extra in ("atcoder_private_test_cases.jsonl", "test_cases"):
        if (source_folder / extra).exists() and not (subset / extra).exists():
            (subset / extra).symlink_to((source_folder / extra).resolve())
    return subset, chosen


def trivial_baseline(task: str, records: list[dict[str, Any]]) -> tuple[float | None, str]:
    """The best constant answer's accuracy (percent) on these instances, and what the constant is."""
    if not records:
        return None, ""
    if task in ("bug-localization", "bug-identification"):
        field_name = "task1_answer" if task == "bug-localization" else "task2_choice"
        counts = Counter(str(r.get(field_name)) for r in records)
        answer, count = counts.most_common(1)[0]
        return 100.0 * count / len(records), f"always {answer}"
    if task == "code-review":
        return 50.0, "always Code-A (asked in both orders)"
    return 0.0, "the buggy program unchanged (fails by construction)"


def common_problems(plan: AblationPlan, settings: TrainSettings) -> tuple[set[str], int]:
    """The problems every strategy can train on (each strategy's example within ``max_length`` tokens), and how many
    problems are left out, so the strategies are compared on the same problems (CoT targets are longer)."""
    from debugtutor.tune.base_model import load_tokenizer, plain_folder, resolve_base
    from debugtutor.tune.trainer import tokenize_examples

    source = resolve_base(plan.base)
    tokenizer = load_tokenizer(plain_folder(source), source)
    fitting: set[str] | None = None
    every: set[str] = set()
    for strategy in plan.strategies:
        examples = read_sft_file(strategy_examples(plan.data, strategy))
        every |= {example.id for example in examples}
        _, too_long = tokenize_examples(tokenizer, examples, settings.max_length)
        fits = {example.id for example in examples} - set(too_long)
        fitting = fits if fitting is None else fitting & fits
    kept = fitting or set()
    return kept, len(every - kept)


def _train(
    plan: AblationPlan, strategy: str, settings: TrainSettings, run_kwargs: Mapping[str, Any], problems: set[str]
) -> dict[str, Any]:
    path = strategy_examples(plan.data, strategy)
    examples = [example for example in read_sft_file(path) if example.id in problems]
    target = plan.out / "adapters" / strategy
    if (target / "debugtutor-adapter.json").is_file():
        manifest = read_manifest(target)
        if (manifest.data.sha256 == examples_checksum(examples) and manifest.settings == settings
                and manifest.base == plan.base):  # fmt: skip
            log(f"{strategy}: the adapter in {target} was trained on the same data and settings; reusing it")
            return manifest.model_dump(mode="json")
    log(f"{strategy}: fine-tuning {plan.base} on {len(examples)} examples")
    return train_lora(plan.base, examples, target, settings, data_label=str(path), **run_kwargs).model_dump(mode="json")


def _eval_command() -> list[str]:
    return [sys.executable, "-m", "debugtutor.cli.main", "debugeval", "eval"]


def check_eval_options(plan: AblationPlan) -> None:
    """Fail before any training when ``debugeval eval`` here cannot take an option the plan needs."""
    if plan.eval_max_tokens is None:
        return
    shown = subprocess.run([*_eval_command(), "--help"], capture_output=True, text=True, check=False)
    if "--max-tokens" not in shown.stdout:
        raise InputError("'debugeval eval' in this installation does not take --max-tokens", field="--eval-max-tokens",
                         hint="leave --eval-max-tokens out (each answer may then run to 1,024 tokens)")  # fmt: skip


def _evaluate(plan: AblationPlan, subset: Path, spec: str) -> dict[str, Any]:
    command = [*_eval_command(), "--data", str(subset), "--split", "test", "--solver", "llm", "--model", spec,
               "--runs-dir", str(plan.runs_dir), "--json", "--allow-errors"]  # fmt: skip
    if plan.eval_max_tokens is not None:
        command += ["--max-tokens", str(plan.eval_max_tokens)]
    log(f"evaluating {spec}")
    completed = subprocess.run(command, capture_output=True, text=True, check=False)
    lines = [line for line in completed.stdout.splitlines() if line.strip().startswith("{")]
    if completed.returncode != 0 or not lines:
        tail = (completed.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise DebugtutorError(f"debugeval eval failed for {spec} (exit {completed.returncode}): {tail}")
    payload: dict[str, Any] = json.loads(lines[-1])
    payload["command"] = " ".join(command)
    return payload


def _per_item(run_dir: str) -> dict[tuple[str, str], dict[str, float]]:
    """Per-item scores of an evaluation run by (task, language), keyed by item id; empty when unreadable."""
    found: dict[tuple[str, str], dict[str, float]] = defaultdict(dict)
    try:
        records = latest_records(Path(run_dir))
    except (DebugtutorError, OSError):
        return {}
    for record in records:
        scores = record.scores
        if record.error is not None:
            continue
        if "task" in scores and "language" in scores and isinstance(scores.get("score"), (int, float)):
            found[(str(scores["task"]), str(scores["language"]))][record.id] = float(scores["score"])
    return found


def _interval(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    interval = bootstrap_mean(values, seed=0)
    return {"mean": 100 * interval.mean, "low": 100 * interval.low, "high": 100 * interval.high, "n": interval.n}


def run_ablation(plan: AblationPlan, settings: TrainSettings, run_kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """Train, evaluate and compare; every step's results are kept in ``OUT/ablation.json``.

    ``run_kwargs`` are :func:`~debugtutor.tune.train_lora`'s run choices (device, chat template, restart, checkpoints).
    """
    # missing data or an unusable eval command fail before hours of training
    for strategy in plan.strategies:
        strategy_examples(plan.data, strategy)
    check_eval_options(plan)
    subset, chosen = build_eval_subset(plan)
    problems, left_out = common_problems(plan, settings)
    if not problems:
        raise InputError(f"no problem fits in --max-length {settings.max_length} tokens for every strategy",
                         field="--max-length")  # fmt: skip
    if left_out:
        log(f"training every strategy on the same {len(problems)} problems; {left_out} are longer than "
            f"{settings.max_length} tokens in some strategy")  # fmt: skip
    training = {strategy: _train(plan, strategy, settings, run_kwargs, problems) for strategy in plan.strategies}
    models = {"zero-shot": plan.base}
    models.update({ROW_LABELS[s]: f"{plan.base}+lora:{plan.out / 'adapters' / s}" for s in plan.strategies})
    evaluations = {label: _evaluate(plan, subset, spec) for label, spec in models.items()}
    per_item = {label: _per_item(str(payload.get("run_dir", ""))) for label, payload in evaluations.items()}
    cells: dict[str, Any] = {}
    for task in plan.tasks:
        for language in plan.languages:
            key = f"{task}/{language}"
            baseline, constant = trivial_baseline(task, chosen[task][language])
            row: dict[str, Any] = {"instances": len(chosen[task][language]), "trivial": baseline,
                                   "trivial_answer": constant, "models": {}}  # fmt: skip
            base_scores = per_item["zero-shot"].get((task, language), {})
            for label in models:
                scores = per_item[label].get((task, language), {})
                accuracy = evaluations[label].get("accuracy", {}).get(task, {}).get(language)
                entry: dict[str, Any] = {"accuracy": accuracy, "interval": _interval(list(scores.values()))}
                shared = sorted(set(scores) & set(base_scores))
                if label != "zero-shot" and shared:
                    entry["change_vs_zero_shot"] = _interval([scores[i] - base_scores[i] for i in shared])
                row["models"][label] = entry
            cells[key] = row
    averages = {}
    for label in models:
        values = [cells[key]["models"][label]["accuracy"] for key in cells]
        numbers = [value for value in values if value is not None]
        averages[label] = sum(numbers) / len(numbers) if numbers else None
    trivial = [cell["trivial"] for cell in cells.values() if cell["trivial"] is not None]
    result = {
        "base": plan.base, "data": str(plan.data), "eval_data": str(plan.eval_data), "eval_subset": str(subset),
        "cells": cells, "average": averages, "trivial_average": sum(trivial) / len(trivial) if trivial else None,
        "training": training,
        "trained_problems": len(problems), "problems_left_out_too_long": left_out,
        "eval_limit": plan.eval_limit, "eval_max_tokens": plan.eval_max_tokens,
        "evaluations": {label: {"model": models[label], "run_id": payload.get("run_id"), "status": payload.get(
            "status"), "command": payload.get("command")} for label, payload in evaluations.items()},
        "paper_table_v": PAPER_TABLE_V,
        "comparison_note": "ours: the listed base, our synthesized data and held-out DebugEval-style instances built "
        "from DebugBench's test-split problems; the paper: 6.7B/8B models, its own data, DebugEval's test set. Only "
        "the layout and the recipe compare, not the numbers.",
    }  # fmt: skip
    write_json_atomic(plan.out / "ablation.json", result)
    return result


def print_ablation(result: dict[str, Any]) -> None:
    from rich.table import Table

    labels = list(result["average"])
    table = Table(
        title=f"Table V layout: accuracy % (95% bootstrap interval) on held-out instances, base {result['base']}"
    )
    table.add_column("task/language")
    table.add_column("n", justify="right")
    table.add_column("trivial", justify="right")
    for label in labels:
        table.add_column(label, justify="right")
    for key, cell in result["cells"].items():
        row = [key, str(cell["instances"]), "-" if cell["trivial"] is None else f"{cell['trivial']:.1f}"]
        for label in labels:
            entry = cell["models"][label]
            interval = entry["interval"]
            text = "-" if entry["accuracy"] is None else f"{entry['accuracy']:.1f}"
            if interval is not None:
                text += f" [{interval['low']:.0f}, {interval['high']:.0f}]"
            row.append(text)
        table.add_row(*row)
    average = result["average"]
    table.add_row("average", "", "-" if result["trivial_average"] is None else f"{result['trivial_average']:.1f}",
                  *("-" if average[label] is None else f"{average[label]:.1f}" for label in labels))  # fmt: skip
    stdout.print(table)
    paper = Table(title="DebugEval paper, Table V (average over 4 tasks; other models, data and test set)")
    paper.add_column("base model")
    columns = list(next(iter(result["paper_table_v"].values())))
    for column in columns:
        paper.add_column(column, justify="right")
    for model, row in result["paper_table_v"].items():
        paper.add_row(model, *(f"{row[column]:.1f}" for column in columns))
    stdout.print(paper)
    log(result["comparison_note"])
