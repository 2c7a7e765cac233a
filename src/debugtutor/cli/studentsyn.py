"""``debugtutor studentsyn``: evaluate student-attempt synthesis on the StudentSyn benchmark.

- ``eval``: discriminative accuracy of one technique per reference task (mean and per round), through the resumable
  runner; ``--technique all`` evaluates every non-LLM technique in process and adds the significance tests;
  ``--holdout target`` is the unseen-target check (each target scored with settings chosen on the other targets).
- ``generate``: a technique's top-3 codes per scenario in an HTML gallery for expert rating, with the proxy score.
- ``rate``: score expert ratings (JSONL) on the 4-point scale.

``--data`` defaults to the built-in sample (``samples/studentsyn``, of the project's own making).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import typer
from rich.table import Table

from debugtutor.console import emit_json, log, state, stdout
from debugtutor.errors import InputError
from debugtutor.maze import Program
from debugtutor.samples import sample_dir
from debugtutor.studentsyn.dataset import TaskFamily, load_benchmark
from debugtutor.studentsyn.evaluation import (
    DEFAULT_FOLDS,
    DEFAULT_ROUNDS,
    PUBLISHED,
    LeaveOneTargetOut,
    TechniqueAccuracy,
    evaluate_in_process,
    evaluate_with_runner,
    leave_one_target_out,
    significance,
)
from debugtutor.studentsyn.generative import Scenario, proxy_summary, read_ratings, score_ratings, write_gallery
from debugtutor.studentsyn.instances import DEFAULT_SAMPLES
from debugtutor.studentsyn.techniques import NON_LLM_TECHNIQUES, TECHNIQUES, SymSS, make_technique

app = typer.Typer(
    help="Student-attempt synthesis (StudentSyn, EDM 2022): evaluate, generate, rate.", no_args_is_help=True
)

GENERATIVE = ("symss", "symss-infer", "neurss", "llmss")


def _families(data: Path | None, reference: list[str] | None) -> list[TaskFamily]:
    return load_benchmark(data if data is not None else sample_dir("studentsyn"), reference or None)


def _print_accuracies(results: list[TechniqueAccuracy]) -> None:
    table = Table(title="StudentSyn discriminative accuracy (%)")
    table.add_column("technique")
    table.add_column("reference")
    table.add_column("mean", justify="right")
    table.add_column("per round", justify="left")
    table.add_column("published", justify="left")
    for result in results:
        for reference, accuracy in result.references.items():
            published = ", ".join(f"{k} {v}" for k, v in PUBLISHED.get(reference, {}).items())
            table.add_row(
                result.technique,
                reference,
                f"{accuracy.mean:.1f}",
                " ".join(f"{r:.1f}" for r in accuracy.rounds),
                published,
            )
    stdout.print(table)


@app.command("eval")
def eval_command(
    technique: str = typer.Option(..., "--technique", "-t", help=f"{', '.join(TECHNIQUES)}, or 'all' (non-LLM)."),
    data: Path | None = typer.Option(None, "--data", help="Benchmark folder (default: the built-in sample)."),
    reference: list[str] | None = typer.Option(None, "--reference", help="Only these reference tasks."),
    model: str | None = typer.Option(None, "--model", help="Model spec for llmss (e.g. scripted:FILE.json)."),
    rounds: int = typer.Option(DEFAULT_ROUNDS, "--rounds", min=1, help="Independent draws of the benchmark."),
    samples: int = typer.Option(
        DEFAULT_SAMPLES,
        "--samples",
        min=1,
        help="Samples per round; each gives targets x types instances (20 x 18 = 360).",
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the draws (and of RandD / the embedding)."),
    folds: int = typer.Option(DEFAULT_FOLDS, "--folds", min=2, help="Cross-validation folds for tuned techniques."),
    distance: str = typer.Option("tokens", "--distance", help="EditD distance: tokens (the paper's) or tree."),
    runs_dir: Path | None = typer.Option(None, "--runs-dir", help="Where run records go (default: the runs dir)."),
    resume: str | None = typer.Option(None, "--resume", help="Run id or folder of an interrupted run to finish."),
    concurrency: int = typer.Option(8, "--concurrency", min=1, help="Items in flight (model calls)."),
    holdout: str | None = typer.Option(
        None, "--holdout", help="'target': leave each target task out, choosing settings on the other targets."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Discriminative accuracy per reference task: mean over rounds and each round's value."""
    state.json_mode = as_json or state.json_mode
    if distance not in ("tokens", "tree"):
        raise InputError(f"unknown distance '{distance}'", field="--distance", hint="tokens or tree")
    if holdout not in (None, "target"):
        raise InputError(f"unknown holdout '{holdout}'", field="--holdout", hint="target")
    families = _families(data, reference)
    names = list(NON_LLM_TECHNIQUES) if technique == "all" else [technique]
    for name in names:
        if name not in TECHNIQUES:
            raise InputError(f"unknown technique '{name}'", field="--technique", hint=", ".join(TECHNIQUES))
    if holdout == "target":
        _eval_held_out(names, families, model, rounds, samples, seed, distance, as_json)
        return
    results: list[TechniqueAccuracy] = []
    run_dirs: dict[str, str] = {}
    started = time.perf_counter()
    for name in names:
        instance = make_technique(name, seed=seed, model=model, distance=distance)  # type: ignore[arg-type]
        if technique == "all":
            accuracy, _ = evaluate_in_process(
                instance, families, rounds=rounds, samples=samples, seed=seed, folds=folds
            )
        else:
            log(f"evaluating {name} on {', '.join(f.reference for f in families)} ({rounds} round(s))")
            accuracy, run_dirs[name] = evaluate_with_runner(
                instance,
                families,
                rounds=rounds,
                samples=samples,
                seed=seed,
                folds=folds,
                runs_dir=runs_dir,
                resume=resume,
                concurrency=concurrency,
                model_spec=model,
                config={"data": str(data) if data else "built-in sample", "distance": distance},
            )
        results.append(accuracy)
    tests = [significance(results, f.reference) for f in families] if len(results) > 1 else []
    payload = {
        "techniques": {r.technique: {ref: a.model_dump() for ref, a in r.references.items()} for r in results},
        "significance": [t.model_dump() for t in tests],
        "published": PUBLISHED,
        "config": {
            "rounds": rounds,
            "samples": samples,
            "seed": seed,
            "folds": folds,
            "targets": {f.reference: f.targets for f in families},
        },
        "runs": run_dirs,
        "seconds": round(time.perf_counter() - started, 2),
    }
    if as_json:
        emit_json(payload)
        return
    _print_accuracies(results)
    for test in tests:
        if test.chi2_pvalue is not None:
            stdout.print(
                f"{test.reference}: chi-squared p = {test.chi2_pvalue:.3g}"
                + (f"; Tukey HSD p-values {test.tukey_pvalues}" if test.tukey_pvalues else "")
            )
    for name, run_dir in run_dirs.items():
        stdout.print(f"{name}: records and report in {run_dir}")


def _eval_held_out(
    names: list[str],
    families: list[TaskFamily],
    model: str | None,
    rounds: int,
    samples: int,
    seed: int,
    distance: str,
    as_json: bool,
) -> None:
    started = time.perf_counter()
    results: list[LeaveOneTargetOut] = []
    for name in names:
        log(f"leaving one target out: {name}")
        instance = make_technique(name, seed=seed, model=model, distance=distance)  # type: ignore[arg-type]
        results.append(leave_one_target_out(instance, families, rounds=rounds, samples=samples, seed=seed))
    payload = {
        "holdout": "target",
        "techniques": {r.technique: r.model_dump() for r in results},
        "published": PUBLISHED,
        "config": {"rounds": rounds, "samples": samples, "seed": seed},
        "seconds": round(time.perf_counter() - started, 2),
    }
    if as_json:
        emit_json(payload)
        return
    table = Table(title="StudentSyn accuracy (%) on held-out target tasks")
    for column in ("technique", "target", "mean", "setting (chosen on)", "per round"):
        table.add_column(column)
    for result in results:
        for held in result.targets:
            table.add_row(
                result.technique,
                f"{held.reference} -> {held.target}",
                f"{held.mean:.1f}",
                f"{held.setting} ({', '.join(held.tuned_on) or '-'})",
                " ".join(f"{r:.1f}" for r in held.rounds),
            )
        for ref, mean in result.references.items():
            published = ", ".join(f"{k} {v}" for k, v in PUBLISHED.get(ref, {}).items())
            table.add_row(result.technique, f"{ref} (mean of held-out)", f"{mean:.1f}", published, "")
    stdout.print(table)


@app.command("generate")
def generate_command(
    technique: str = typer.Option("symss-infer", "--technique", "-t", help=", ".join(GENERATIVE)),
    data: Path | None = typer.Option(None, "--data", help="Benchmark folder (default: the built-in sample)."),
    reference: list[str] | None = typer.Option(None, "--reference", help="Only these reference tasks."),
    model: str | None = typer.Option(None, "--model", help="Model spec for llmss."),
    out: Path = typer.Option(Path("studentsyn-gallery"), "--out", help="Folder for index.html and pictures."),
    top_k: int = typer.Option(3, "--top-k", min=1, help="Codes per scenario."),
    student: list[str] | None = typer.Option(None, "--student", help="Only these reference students (stu1 ...)."),
    pictures: bool = typer.Option(True, "--pictures/--no-pictures", help="Render SVG pictures."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Write each scenario's top-k synthesized codes with pictures into an HTML gallery for expert rating."""
    state.json_mode = as_json or state.json_mode
    if technique not in GENERATIVE:
        raise InputError(f"'{technique}' does not synthesize code", field="--technique", hint=", ".join(GENERATIVE))
    families = _families(data, reference)
    engine = make_technique(technique, model=model)
    for family in families:
        engine.prepare(family)
    latencies: list[float] = []

    synthesize_for = engine.synthesize_for if isinstance(engine, SymSS) else getattr(engine, "synthesize_for")  # noqa: B009

    def synthesize(family: TaskFamily, code_a: Program, target: str, k: int) -> list[Program]:
        began = time.perf_counter()
        codes = synthesize_for(family.reference, code_a, target, k)
        latencies.append(time.perf_counter() - began)
        return list(codes)

    scenarios: list[Scenario] = write_gallery(
        families, synthesize, out, technique=technique, top_k=top_k, students=student, pictures=pictures
    )
    latencies.sort()
    payload = {
        "technique": technique,
        "gallery": str(out / "index.html"),
        "proxy": proxy_summary(scenarios),
        "latency_ms": {
            "p50": round(1000 * latencies[len(latencies) // 2], 2) if latencies else None,
            "p95": round(1000 * latencies[int(0.95 * (len(latencies) - 1))], 2) if latencies else None,
        },
    }
    if as_json:
        emit_json(payload)
        return
    stdout.print(f"gallery: {payload['gallery']} ({len(scenarios)} scenarios)")
    stdout.print(f"proxy score: {payload['proxy']}")
    stdout.print(f"synthesis latency: {payload['latency_ms']}")


@app.command("rate")
def rate_command(
    ratings: Path = typer.Option(..., "--ratings", help="JSONL: {scenario, rank, rater, score 1-4[, technique]}."),
    gallery: Path | None = typer.Option(None, "--gallery", help="Gallery folder, to check scenario ids."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Score expert ratings of synthesized codes on the paper's 4-point scale."""
    state.json_mode = as_json or state.json_mode
    known: list[Scenario] | None = None
    technique: str | None = None
    if gallery is not None:
        listing = gallery / "scenarios.jsonl"
        if not listing.is_file():
            raise InputError("not a gallery folder (no scenarios.jsonl)", path=str(gallery))
        rows = [line for line in listing.read_text(encoding="utf-8").splitlines() if line.strip()]
        known = [Scenario.model_validate_json(line) for line in rows]
        technique = json.loads(rows[0]).get("technique") if rows else None
    records = read_ratings(ratings)
    if technique:
        records = [r if r.technique else r.model_copy(update={"technique": technique}) for r in records]
    scores = score_ratings(records, known)
    if as_json:
        emit_json(scores)
        return
    table = Table(title="Expert ratings (1-4)")
    for column in ("group", "name", "n", "mean", "share rated 3-4"):
        table.add_column(column)
    overall = scores["overall"]
    table.add_row("overall", "", str(overall["n"]), f"{overall['mean']:.2f}", f"{overall['good_share']:.2f}")
    for group in ("technique", "reference", "rank", "rater"):
        for name, value in scores[group].items():
            table.add_row(group, name, str(value["n"]), f"{value['mean']:.2f}", f"{value['good_share']:.2f}")
    stdout.print(table)
