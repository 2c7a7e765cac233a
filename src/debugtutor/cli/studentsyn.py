"""``debugtutor studentsyn``: evaluate student-attempt synthesis on the StudentSyn benchmark.

- ``eval``: discriminative accuracy of one technique per reference task (mean and per round), through the resumable
  runner; ``--technique all`` evaluates every non-LLM technique in process and adds the significance tests;
  ``--holdout target`` scores each target with settings chosen on the other targets; ``--holdout tasks`` scores every
  direction of every family (the student observed on each task in turn, the paper's targets included), each with
  settings chosen on directions that share neither task role, and heads the report with the worst direction.
  Every table has RandD on the same instances beside it, and the experts (TutorSS, scored from their response files
  when the data folder has a ``tutorSS/`` beside it, or ``--tutorss DIR``) per expert and macro-averaged.
- ``generate``: a technique's top-3 codes per scenario in an HTML gallery for expert rating, with the proxy score.
- ``rate``: score expert ratings (JSONL) on the 4-point scale.

``--data`` defaults to the built-in sample (``samples/studentsyn``, of the project's own making).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from debugtutor.cli.options import ModelOptions, one_of, with_model_options
from debugtutor.console import emit_json, log, state, stdout
from debugtutor.errors import DataError, InputError, read_text
from debugtutor.llm import ModelBackend
from debugtutor.maze import Program
from debugtutor.samples import sample_dir
from debugtutor.studentsyn.dataset import TaskFamily, load_benchmark
from debugtutor.studentsyn.distances import DISTANCE_KINDS, DistanceKind
from debugtutor.studentsyn.evaluation import (
    DEFAULT_FOLDS,
    DEFAULT_ROUNDS,
    HeldOutTasks,
    LeaveOneTargetOut,
    TechniqueAccuracy,
    comparable_paper_numbers,
    evaluate_in_process,
    evaluate_with_runner,
    held_out_tasks,
    leave_one_target_out,
    significance,
)
from debugtutor.studentsyn.generative import Scenario, proxy_summary, read_ratings, score_ratings, write_gallery
from debugtutor.studentsyn.instances import DEFAULT_SAMPLES
from debugtutor.studentsyn.questions import Question, brief_of, sheets_of
from debugtutor.studentsyn.techniques import DISPLAY_NAMES, NON_LLM_TECHNIQUES, TECHNIQUES, RandD, make_technique
from debugtutor.studentsyn.tutorss import TutorSSResult, find_tutor_folder, score_tutorss, tutor_files

_DEFAULT_MODEL_OPTIONS = ModelOptions()  # (replaced by the user's options: see with_model_options)

app = typer.Typer(
    help="Student-attempt synthesis (StudentSyn, EDM 2022): evaluate, generate, rate.", no_args_is_help=True
)

GENERATIVE = ("symss-original", "behaviour-edits", "neurss", "llmss")


def _families(data: Path | None, reference: list[str] | None) -> list[TaskFamily]:
    return load_benchmark(data if data is not None else sample_dir("studentsyn"), reference or None)


def _display(name: str) -> str:
    return DISPLAY_NAMES.get(name, name)


def _experts(data: Path | None, tutorss: Path | None, families: list[TaskFamily]) -> dict[str, TutorSSResult]:
    """TutorSS scored from the response files for every family that has them (none for the built-in sample)."""
    folder = tutorss or (find_tutor_folder(data) if data is not None else None)
    if folder is None:
        return {}
    results = {}
    for family in families:
        try:
            tutor_files(folder, family.reference)
        except DataError:
            if tutorss is not None:
                raise
            continue  # a family the experts did not answer (the built-in sample) has no TutorSS row
        results[family.reference] = score_tutorss(folder, family.reference)
    return results


def _print_experts(experts: dict[str, TutorSSResult]) -> None:
    if not experts:
        stdout.print("TutorSS: no expert response files for these families (pass --tutorss DIR)")
        return
    table = Table(title="TutorSS (human experts), scored from their response files (%)")
    for column in ("reference", "expert", "n", "same program", "label only", "per target"):
        table.add_column(column)
    for reference, result in experts.items():
        for name, score in [*result.experts.items(), ("macro", result.macro)]:
            per_target = " ".join(f"{t} {v:.1f}" for t, v in score.per_target.items())
            table.add_row(reference, name, str(score.n), f"{score.structural:.1f}", f"{score.strict:.1f}", per_target)
    stdout.print(table)


def _print_accuracies(results: list[TechniqueAccuracy], experts: dict[str, TutorSSResult]) -> None:
    table = Table(title="StudentSyn discriminative accuracy (%), the paper's direction, cross-validated")
    for column in ("technique", "reference", "mean", "per round", "beside it (same method or baseline)"):
        table.add_column(column)
    for result in results:
        for reference, accuracy in result.references.items():
            beside = comparable_paper_numbers(result.technique, reference)
            if reference in experts:
                beside["TutorSS macro, scored here"] = experts[reference].macro.structural
            table.add_row(
                _display(result.technique),
                reference,
                f"{accuracy.mean:.1f}",
                " ".join(f"{r:.1f}" for r in accuracy.rounds),
                ", ".join(f"{k} {v:.1f}" for k, v in beside.items()),
            )
    stdout.print(table)


@app.command("eval")
@with_model_options
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
    seed: int = typer.Option(0, "--seed", help="Seed of the draws (and of RandD / the embedding / NeurSS)."),
    folds: int = typer.Option(DEFAULT_FOLDS, "--folds", min=2, help="Cross-validation folds for tuned techniques."),
    distance: str = typer.Option("tokens", "--distance", help="EditD distance: tokens (the paper's) or tree."),
    runs_dir: Path | None = typer.Option(None, "--runs-dir", help="Where run records go (default: the runs dir)."),
    resume: str | None = typer.Option(None, "--resume", help="Run id or folder of an interrupted run to finish."),
    concurrency: int = typer.Option(8, "--concurrency", min=1, help="Items in flight (model calls)."),
    holdout: str | None = typer.Option(
        None,
        "--holdout",
        help="'target': each target held out; 'tasks': every direction, observed task and target held out.",
    ),
    tutorss: Path | None = typer.Option(
        None, "--tutorss", help="The experts' tutorSS/ folder (default: found beside --data)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    model_options: ModelOptions = _DEFAULT_MODEL_OPTIONS,
) -> None:
    """Discriminative accuracy per reference task, with RandD and the experts beside it."""
    state.json_mode = as_json or state.json_mode
    distance_kind = one_of(distance, DISTANCE_KINDS, option="--distance")
    if holdout not in (None, "target", "tasks"):
        raise InputError(f"unknown holdout '{holdout}'", field="--holdout", hint="target or tasks")
    families = _families(data, reference)
    backend = model_options.resolve(model) if model else None
    names = list(NON_LLM_TECHNIQUES) if technique == "all" else [technique]
    for name in names:
        if name not in TECHNIQUES:
            make_technique(name)  # raises the InputError with the hint
    experts = _experts(data, tutorss, families)
    if holdout is not None:
        _eval_held_out(holdout, names, families, backend, rounds, samples, seed, distance_kind, experts, as_json)
        return
    from debugtutor.report import write_report

    results: list[TechniqueAccuracy] = []
    run_dirs: dict[str, str] = {}
    started = time.perf_counter()
    for name in names:
        instance = make_technique(name, seed=seed, model=backend, distance=distance_kind)
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
                experts={ref: result.macro.structural for ref, result in experts.items()},
                report=write_report,
            )
        results.append(accuracy)
    if "randd" not in names:  # the trivial baseline on the same instances, beside every table
        baseline, _ = evaluate_in_process(RandD(seed), families, rounds=rounds, samples=samples, seed=seed)
        results.append(baseline)
    tests = [significance(results, f.reference) for f in families] if len(results) > 1 else []
    payload = {
        "techniques": {r.technique: {ref: a.model_dump() for ref, a in r.references.items()} for r in results},
        "display_names": {r.technique: _display(r.technique) for r in results},
        "tutorss": {ref: result.model_dump() for ref, result in experts.items()},
        "paper": {
            r.technique: {f.reference: comparable_paper_numbers(r.technique, f.reference) for f in families}
            for r in results
        },
        "significance": [t.model_dump() for t in tests],
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
    _print_accuracies(results, experts)
    _print_experts(experts)
    for test in tests:
        if test.chi2_pvalue is not None:
            stdout.print(
                f"{test.reference}: chi-squared p = {test.chi2_pvalue:.3g}"
                + (f"; Tukey HSD p-values {test.tukey_pvalues}" if test.tukey_pvalues else "")
            )
    for name, run_dir in run_dirs.items():
        stdout.print(f"{name}: records and report in {run_dir}")


def _eval_held_out(
    holdout: str,
    names: list[str],
    families: list[TaskFamily],
    model: ModelBackend | None,
    rounds: int,
    samples: int,
    seed: int,
    distance: DistanceKind,
    experts: dict[str, TutorSSResult],
    as_json: bool,
) -> None:
    started = time.perf_counter()
    compared = names if "randd" in names else [*names, "randd"]
    payload: dict[str, Any] = {"holdout": holdout, "techniques": {}}
    results: dict[str, LeaveOneTargetOut | HeldOutTasks] = {}
    for name in compared:
        log(f"held out ({holdout}): {name}")
        instance = make_technique(name, seed=seed, model=model, distance=distance)
        if holdout == "target":
            results[name] = leave_one_target_out(instance, families, rounds=rounds, samples=samples, seed=seed)
        else:
            results[name] = held_out_tasks(instance, families, rounds=rounds, samples=samples, seed=seed)
        payload["techniques"][name] = results[name].model_dump()
    payload.update(
        {
            "display_names": {name: _display(name) for name in compared},
            "tutorss": {ref: result.model_dump() for ref, result in experts.items()},
            "paper": {
                name: {f.reference: comparable_paper_numbers(name, f.reference) for f in families} for name in compared
            },
            "config": {"rounds": rounds, "samples": samples, "seed": seed},
            "seconds": round(time.perf_counter() - started, 2),
        }
    )
    if as_json:
        emit_json(payload)
        return
    baseline = results["randd"]
    if holdout == "target":
        assert isinstance(baseline, LeaveOneTargetOut)
        randd = {(h.reference, h.target): h.mean for h in baseline.targets}
        table = Table(title="StudentSyn accuracy (%) on held-out target tasks (the paper's direction)")
        for column in ("technique", "target", "mean", "RandD", "TutorSS macro", "setting (chosen on)", "per round"):
            table.add_column(column)
        for name in names:
            result = results[name]
            assert isinstance(result, LeaveOneTargetOut)
            for held in result.targets:
                expert = experts.get(held.reference)
                table.add_row(
                    _display(name),
                    f"{held.reference} -> {held.target}",
                    f"{held.mean:.1f}",
                    f"{randd[(held.reference, held.target)]:.1f}",
                    f"{expert.macro.per_target[held.target]:.1f}"
                    if expert and held.target in expert.macro.per_target
                    else "-",
                    f"{held.setting} ({', '.join(held.tuned_on) or '-'})",
                    " ".join(f"{r:.1f}" for r in held.rounds),
                )
            for ref, worst in result.worst.items():
                table.add_row(_display(name), f"{ref}: WORST held-out target", f"{worst:.1f}", "", "", "", "")
        stdout.print(table)
    else:
        assert isinstance(baseline, HeldOutTasks)
        randd_tasks = {(d.family, d.observed, d.target): d.mean for d in baseline.directions}
        table = Table(title="StudentSyn accuracy (%) per direction (observed task -> target task), held out both ways")
        for column in ("technique", "family", "direction", "mean", "RandD", "setting", "per round"):
            table.add_column(column)
        for name in names:
            result = results[name]
            assert isinstance(result, HeldOutTasks)
            for d in result.directions:
                marker = "" if d.paper_direction else " (swapped)"
                table.add_row(
                    _display(name),
                    d.family,
                    f"{d.observed} -> {d.target}{marker}",
                    f"{d.mean:.1f}",
                    f"{randd_tasks[(d.family, d.observed, d.target)]:.1f}",
                    d.setting,
                    " ".join(f"{r:.1f}" for r in d.rounds),
                )
            lowest = result.worst
            table.add_row(
                _display(name),
                lowest.family,
                f"WORST: {lowest.observed} -> {lowest.target}",
                f"{lowest.mean:.1f}",
                "",
                "",
                "",
            )
        stdout.print(table)
        per_target = Table(title="Per target task: worst and mean over the directions into it (%)")
        for column in ("technique", "family", "target", "worst", "mean", "by observed task"):
            per_target.add_column(column)
        for name in compared:
            result = results[name]
            assert isinstance(result, HeldOutTasks)
            for family_name, targets in result.targets.items():
                for target, summary in targets.items():
                    by = " ".join(f"{k} {v:.1f}" for k, v in summary.by_observed.items())
                    per_target.add_row(
                        _display(name), family_name, target, f"{summary.worst:.1f}", f"{summary.mean:.1f}", by
                    )
        stdout.print(per_target)
    _print_experts(experts)


@app.command("generate")
@with_model_options
def generate_command(
    technique: str = typer.Option("behaviour-edits", "--technique", "-t", help=", ".join(GENERATIVE)),
    data: Path | None = typer.Option(None, "--data", help="Benchmark folder (default: the built-in sample)."),
    reference: list[str] | None = typer.Option(None, "--reference", help="Only these reference tasks."),
    model: str | None = typer.Option(None, "--model", help="Model spec for llmss."),
    out: Path = typer.Option(Path("studentsyn-gallery"), "--out", help="Folder for index.html and pictures."),
    top_k: int = typer.Option(3, "--top-k", min=1, help="Codes per scenario."),
    student: list[str] | None = typer.Option(None, "--student", help="Only these reference students (stu1 ...)."),
    pictures: bool = typer.Option(True, "--pictures/--no-pictures", help="Render SVG pictures."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    model_options: ModelOptions = _DEFAULT_MODEL_OPTIONS,
) -> None:
    """Write each scenario's top-k synthesized codes with pictures into an HTML gallery for expert rating."""
    state.json_mode = as_json or state.json_mode
    if technique not in GENERATIVE:
        raise InputError(f"'{technique}' does not synthesize code", field="--technique", hint=", ".join(GENERATIVE))
    families = _families(data, reference)
    engine = make_technique(technique, model=model_options.resolve(model) if model else None)
    for family in families:
        engine.prepare(brief_of(family))
    sheets = {family.reference: sheets_of(family) for family in families}
    latencies: list[float] = []
    synthesize_question = getattr(engine, "synthesize")  # noqa: B009 - every GENERATIVE technique has it

    def synthesize(family: TaskFamily, code_a: Program, target: str, k: int) -> list[Program]:
        began = time.perf_counter()
        question = Question(sheets[family.reference][family.reference], code_a, sheets[family.reference][target], ())
        codes = synthesize_question(question, k)
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
    ratings: Path = typer.Option(..., "--ratings", help="JSONL: {scenario, rank, rater, score 1-4\\[, technique]}."),
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
        rows = [line for line in read_text(listing).splitlines() if line.strip()]
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
