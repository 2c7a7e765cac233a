"""The one runner behind every evaluation: items -> solver -> scorer -> records, with bounded concurrency.

:func:`run_task` creates (or resumes) ``runs/<run-id>/``, runs every item that still needs running with at most
``concurrency`` in flight, appends one record per finished item to ``samples.jsonl`` and, however the run ends,
leaves a manifest with the final status plus ``summary.json`` and ``report.html``. A failure inside one item (the
solver or scorer raising) is recorded on that item and the run goes on, and the run ends ``partial`` (some items
failed) or ``failed`` (all did), never ``success``. An item that raises :class:`~debugtutor.errors.StopRunError`
(a model whose calls all fail) stops the run: no further item starts, and it ends ``failed`` with the reason. Only a
failure of the runner itself ends the run with status ``error``. Ctrl-C and SIGTERM end it with status
``interrupted``; the records stay resumable.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import inspect
import multiprocessing
import os
import shutil
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol

from debugtutor import __version__
from debugtutor.console import log, progress, warn
from debugtutor.errors import InputError, StopRunError
from debugtutor.runs._records import (
    REPORT_FILE,
    SAMPLES_FILE,
    ErrorInfo,
    RunAttempt,
    RunCounts,
    RunManifest,
    RunStatus,
    SampleRecord,
    SamplesWriter,
    Timings,
    default_runs_dir,
    git_commit,
    input_hash,
    new_run_id,
    read_manifest,
    read_samples,
    resolve_run_dir,
    rewrite_samples,
    run_lock,
    to_jsonable,
    truncate_torn_tail,
    utc_now,
    write_manifest,
)
from debugtutor.runs._summary import latest_records, write_summary
from debugtutor.runs._task import EvalItem, EvalTask, SolverOutput

TRACEBACK_TAIL_LINES = 15


class ReportWriter(Protocol):
    """Writes a run's report from its folder and summary, as :func:`debugtutor.report.write_report` does."""

    def __call__(self, run_dir: Path, /, *, summary: dict[str, Any]) -> object: ...


@dataclasses.dataclass
class RunResult:
    """Where a run's records are and what its summary says."""

    run_dir: Path
    summary: dict[str, Any]

    @property
    def run_id(self) -> str:
        return self.run_dir.name

    @property
    def status(self) -> str:
        return str(self.summary.get("status"))


@dataclasses.dataclass
class _Plan:
    """The items this invocation has to run, decided from the task and any records already on disk."""

    todo: list[EvalItem]
    hashes: dict[str, str]
    already_done: int
    completed: int = 0
    stop_reason: str | None = None


def run_task(
    task: EvalTask,
    *,
    runs_dir: Path | None = None,
    run_id: str | None = None,
    resume: str | Path | None = None,
    retry_errors: bool = False,
    concurrency: int = 8,
    limit: int | None = None,
    argv: list[str] | None = None,
    force: bool = False,
    fsync_each: bool = False,
    report: ReportWriter | None = None,
) -> RunResult:
    """Run ``task`` and record it; see :func:`run_task_async` for the arguments.

    Interrupts (Ctrl-C, SIGTERM) leave the run marked ``interrupted`` and raise :class:`KeyboardInterrupt`.
    """
    coroutine = run_task_async(
        task,
        runs_dir=runs_dir,
        run_id=run_id,
        resume=resume,
        retry_errors=retry_errors,
        concurrency=concurrency,
        limit=limit,
        argv=argv,
        force=force,
        fsync_each=fsync_each,
        report=report,
    )
    try:
        # On Ctrl-C asyncio.run cancels the run's task (which records the interruption) and raises KeyboardInterrupt.
        return asyncio.run(coroutine)
    except asyncio.CancelledError as exc:  # SIGTERM cancels the run the way Ctrl-C does; report it the same way
        raise KeyboardInterrupt from exc


async def run_task_async(
    task: EvalTask,
    *,
    runs_dir: Path | None = None,
    run_id: str | None = None,
    resume: str | Path | None = None,
    retry_errors: bool = False,
    concurrency: int = 8,
    limit: int | None = None,
    argv: list[str] | None = None,
    force: bool = False,
    fsync_each: bool = False,
    report: ReportWriter | None = None,
) -> RunResult:
    """Run ``task`` inside a running event loop.

    Args:
        task: the items, solver, scorer and provenance.
        runs_dir: where run folders live (default ``$DEBUGTUTOR_RUNS_DIR`` or ``./runs``).
        run_id: the id of a new run (default: a sortable timestamp plus a random suffix).
        resume: an earlier run (id, id prefix, ``latest`` or path) to continue: items recorded without error are
            skipped, failed and missing items run again.
        retry_errors: with ``resume``, run only the items whose records show an error.
        concurrency: how many items are in flight at once.
        limit: only the first ``limit`` items of the task.
        argv: the command line to record (default ``sys.argv``).
        force: resume even though the task name differs or items' inputs changed (changed items run again).
        fsync_each: fsync ``samples.jsonl`` after every record (durable against power loss, slower).
        report: what writes the human-readable report at the end, e.g. :func:`debugtutor.report.write_report`
            (called with the run folder and the summary; the runner itself knows no report format).
    """
    if concurrency < 1:
        raise InputError(f"concurrency must be at least 1, not {concurrency}", field="concurrency")
    if retry_errors and resume is None:
        raise InputError("--retry-errors needs --resume RUN: it redoes the failed items of an earlier run")
    if limit is not None and limit < 0:
        raise InputError(f"limit must not be negative, not {limit}", field="limit")
    runs_dir = runs_dir or default_runs_dir()
    items = list(task.items)[:limit] if limit is not None else list(task.items)
    argv = list(sys.argv if argv is None else argv)

    if resume is not None:
        run_dir = resolve_run_dir(resume, runs_dir)
    else:
        run_dir = runs_dir / (run_id or new_run_id())
        try:
            run_dir.mkdir(parents=True, exist_ok=False)
        except FileExistsError as exc:
            raise InputError("a run with this id exists already", path=str(run_dir), hint="resume it instead") from exc

    with run_lock(run_dir):
        try:
            manifest = _start_manifest(task, run_dir, argv=argv, resuming=resume is not None, force=force)
            plan = _plan(task, items, run_dir, resuming=resume is not None, retry_errors=retry_errors, force=force)
            manifest.counts.items = max(manifest.counts.items, len(items))
            write_manifest(run_dir, manifest)
        except BaseException:
            if resume is None:  # a new run that never started leaves no empty folder behind
                shutil.rmtree(run_dir, ignore_errors=True)
            raise
        log(
            f"run {run_dir.name}: {len(plan.todo)} item(s) to run"
            + (f", {plan.already_done} already recorded" if plan.already_done else "")
            + f" -> {run_dir}"
        )
        status: RunStatus = "error"
        try:
            await _execute(task, plan, run_dir, concurrency=concurrency, fsync_each=fsync_each)
            status = "success"  # (until the records say otherwise: see _finish)
        except asyncio.CancelledError:
            status = "interrupted"
            raise
        except KeyboardInterrupt:
            status = "interrupted"
            raise
        finally:
            summary = _finish(
                task, run_dir, manifest, status=status, items_run=plan.completed, report=report,
                stop_reason=plan.stop_reason,
            )  # fmt: skip
    return RunResult(run_dir=run_dir, summary=summary)


def _start_manifest(task: EvalTask, run_dir: Path, *, argv: list[str], resuming: bool, force: bool) -> RunManifest:
    now = utc_now().isoformat()
    published = {label: spec.model_dump(mode="json") for label, spec in task.published_metrics().items()}
    if not resuming:
        manifest = RunManifest(
            run_id=run_dir.name,
            task=task.name,
            task_version=task.version,
            model=task.model_spec,
            argv=argv,
            config=to_jsonable(task.config),
            model_settings=to_jsonable(task.model_settings),
            package_version=__version__,
            git_commit=git_commit(),
            dataset_checksums=dict(task.dataset_checksums),
            published=published,
            started_at=now,
        )
    else:
        manifest = read_manifest(run_dir)
        if manifest.task != task.name and not force:
            raise InputError(
                f"run {run_dir.name} is of task '{manifest.task}', not '{task.name}'",
                path=str(run_dir),
                hint="resume a run of this task, or pass --force",
            )
        if manifest.model != task.model_spec or manifest.config != to_jsonable(task.config):
            warn(f"resuming {run_dir.name} with a different model or config than it started with")
        if (
            manifest.dataset_checksums
            and task.dataset_checksums
            and manifest.dataset_checksums != task.dataset_checksums
        ):
            warn(f"resuming {run_dir.name} with different dataset checksums than it started with")
        manifest.published = published or manifest.published
    manifest.status = "started"
    manifest.finished_at = None
    manifest.stop_reason = None
    if task.model_settings:
        manifest.model_settings = to_jsonable(task.model_settings)
    manifest.attempts.append(RunAttempt(started_at=now, argv=argv))
    return manifest


def _plan(
    task: EvalTask, items: list[EvalItem], run_dir: Path, *, resuming: bool, retry_errors: bool, force: bool
) -> _Plan:
    hashes = {item.id: input_hash(item.input) for item in items}
    samples_path = run_dir / SAMPLES_FILE
    if not resuming:
        return _Plan(todo=items, hashes=hashes, already_done=0)

    found = read_samples(samples_path)
    if found.torn_tail_bytes:
        warn(f"{samples_path}: dropping an incomplete last line ({found.torn_tail_bytes} bytes) left by a crash")
        truncate_torn_tail(samples_path, found.valid_size)
    recorded = {record.id: record for record in latest_records(found.records)}

    changed = [
        item_id for item_id, record in recorded.items() if item_id in hashes and record.input_hash != hashes[item_id]
    ]
    if changed and not force:
        raise InputError(
            f"the data changed since run {run_dir.name} recorded it: {len(changed)} item(s) now have a different "
            f"input (first: '{changed[0]}')",
            path=str(samples_path),
            hint="start a new run, or pass --force to rerun the changed items",
        )
    changed_ids = set(changed)

    def needs_run(item: EvalItem) -> bool:
        record = recorded.get(item.id)
        if item.id in changed_ids:
            return True
        if retry_errors:
            return record is not None and record.error is not None
        return record is None or record.error is not None

    todo = [item for item in items if needs_run(item)]
    rerun_ids = {item.id for item in todo}
    # Drop the records that are about to be redone (and any duplicate lines) so every id stays in the file once.
    kept = [record for record in recorded.values() if record.id not in rerun_ids]
    if len(kept) != len(found.records):
        rewrite_samples(samples_path, kept)
    return _Plan(todo=todo, hashes=hashes, already_done=len(kept))


def _is_async_callable(function: Callable[..., Any]) -> bool:
    return inspect.iscoroutinefunction(function) or inspect.iscoroutinefunction(type(function).__call__)


class _Caller:
    """Calls the solver and scorer the right way: awaited if async, else on the task's executor."""

    def __init__(self, task: EvalTask, concurrency: int) -> None:
        self.task = task
        self.solver_is_async = _is_async_callable(task.solver)
        self.scorer_is_async = _is_async_callable(task.scorer)
        self.pool: concurrent.futures.Executor | None = None
        if task.executor == "thread":
            self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="solver")
        elif task.executor == "process":
            # spawn, not fork: the event loop and the pool's threads must not be copied into the workers.
            self.pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=min(concurrency, os.cpu_count() or 1), mp_context=multiprocessing.get_context("spawn")
            )

    async def call(self, function: Callable[..., Any], is_async: bool, *args: Any) -> Any:
        if is_async:
            result = await function(*args)
        elif self.pool is None:
            result = function(*args)
        else:
            result = await asyncio.get_running_loop().run_in_executor(self.pool, function, *args)
        if inspect.isawaitable(result):  # e.g. a lambda or partial around an async function
            result = await result
        return result

    def close(self, *, wait: bool) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=wait, cancel_futures=True)


def _normalize_scores(raw: Any) -> dict[str, float | int | bool | str]:
    if isinstance(raw, (bool, int, float)):
        return {"score": raw}
    if not isinstance(raw, Mapping):
        raise TypeError(f"the scorer returned {type(raw).__name__}; expected a dict of name -> number/bool/str")
    scores: dict[str, float | int | bool | str] = {}
    for name, value in raw.items():
        plain = to_jsonable(value)  # numpy scalars become Python numbers here
        if not isinstance(plain, (bool, int, float, str)):
            raise TypeError(f"score '{name}' is {type(value).__name__}; expected a number, bool or str")
        scores[str(name)] = plain
    return scores


def _error_info(exc: BaseException) -> ErrorInfo:
    lines = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)).rstrip().splitlines()
    return ErrorInfo(type=type(exc).__name__, message=str(exc), traceback="\n".join(lines[-TRACEBACK_TAIL_LINES:]))


async def _run_item(caller: _Caller, item: EvalItem, item_hash: str) -> tuple[SampleRecord, StopRunError | None]:
    timings = Timings()
    output: Any = None
    usage: dict[str, Any] | None = None
    started = time.perf_counter()
    try:
        raw = await caller.call(caller.task.solver, caller.solver_is_async, item)
        timings.solve_s = time.perf_counter() - started
        if isinstance(raw, SolverOutput):
            raw, usage = raw.output, raw.usage
        output = to_jsonable(raw)
        scoring = time.perf_counter()
        scores = _normalize_scores(await caller.call(caller.task.scorer, caller.scorer_is_async, item, raw))
        timings.score_s = time.perf_counter() - scoring
    except Exception as exc:
        if timings.solve_s is None:
            timings.solve_s = time.perf_counter() - started
        failed = SampleRecord(
            id=item.id,
            input_hash=item_hash,
            output=output,
            error=_error_info(exc),
            usage=to_jsonable(usage) if usage else None,
            timings=timings,
        )
        return failed, exc if isinstance(exc, StopRunError) else None
    done = SampleRecord(
        id=item.id,
        input_hash=item_hash,
        output=output,
        scores=scores,
        usage=to_jsonable(usage) if usage else None,
        timings=timings,
    )
    return done, None


async def _execute(task: EvalTask, plan: _Plan, run_dir: Path, *, concurrency: int, fsync_each: bool) -> None:
    if not plan.todo:
        return
    writer = SamplesWriter(run_dir / SAMPLES_FILE, fsync_each=fsync_each)
    caller = _Caller(task, concurrency)
    pending = iter(plan.todo)
    restore_sigterm = _cancel_on_sigterm()
    finished_cleanly = False
    try:
        with progress(task.name, total=len(plan.todo)) as bar:

            async def worker() -> None:
                # All workers share one iterator; the event loop is single-threaded, so each item is taken once.
                for item in pending:
                    record, stop = await _run_item(caller, item, plan.hashes[item.id])
                    writer.append(record)
                    plan.completed += 1
                    bar.advance()
                    if stop is not None and plan.stop_reason is None:
                        plan.stop_reason = str(stop)
                        warn(f"stopping the run: {stop}")
                    if plan.stop_reason is not None:
                        return  # the items in flight finish; no new one starts

            workers = [asyncio.ensure_future(worker()) for _ in range(min(concurrency, len(plan.todo)))]
            try:
                done, _ = await asyncio.wait(workers, return_when=asyncio.FIRST_EXCEPTION)
                for future in done:
                    future.result()  # re-raise a failure of the runner itself (writing, progress)
                finished_cleanly = True
            finally:
                for future in workers:
                    future.cancel()
                await asyncio.gather(*workers, return_exceptions=True)
    finally:
        restore_sigterm()
        caller.close(wait=finished_cleanly)
        writer.close()


def _cancel_on_sigterm() -> Callable[[], None]:
    """Make SIGTERM cancel the running run (as Ctrl-C does) so it can be recorded as interrupted."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGTERM"):
        return lambda: None
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    previous = signal.getsignal(signal.SIGTERM)
    try:
        loop.add_signal_handler(signal.SIGTERM, lambda: task.cancel() if task is not None else None)
    except (NotImplementedError, RuntimeError):  # Windows event loops have no signal handlers
        return lambda: None

    def restore() -> None:
        loop.remove_signal_handler(signal.SIGTERM)
        signal.signal(signal.SIGTERM, previous)

    return restore


def _finish(
    task: EvalTask,
    run_dir: Path,
    manifest: RunManifest,
    *,
    status: RunStatus,
    items_run: int,
    report: ReportWriter | None,
    stop_reason: str | None = None,
) -> dict[str, Any]:
    """Record how the run ended, then write summary.json and report.html from the records."""
    records = latest_records(read_samples(run_dir / SAMPLES_FILE).records)
    if task.summarize is not None and records:
        try:
            manifest.task_summary = to_jsonable(dict(task.summarize(records)))
        except Exception as exc:  # the records are intact; a summarize bug must not hide them
            warn(f"the task's summarize() failed: {type(exc).__name__}: {exc}")
            manifest.task_summary = {"summarize_error": f"{type(exc).__name__}: {exc}"}
    finished = utc_now().isoformat()
    manifest.finished_at = finished
    manifest.counts = RunCounts(
        items=max(manifest.counts.items, len(records)),
        done=len(records),
        errors=sum(1 for record in records if record.error is not None),
    )
    manifest.stop_reason = stop_reason
    if status == "success":
        status = _ended_status(manifest.counts, stopped=stop_reason is not None)
    manifest.status = status
    attempt = manifest.attempts[-1]
    attempt.finished_at, attempt.status, attempt.items_run = finished, manifest.status, items_run
    write_manifest(run_dir, manifest)
    summary = write_summary(run_dir)
    if report is not None:
        try:
            report(run_dir, summary=summary)
        except Exception as exc:  # the summary and records are what matter; the report can be rebuilt later
            warn(f"could not write {run_dir / REPORT_FILE}: {type(exc).__name__}: {exc} (`debugtutor runs report`)")
    log(
        f"run {run_dir.name} {status}: {manifest.counts.done}/{manifest.counts.items} item(s), "
        f"{manifest.counts.errors} error(s)" + (f"; stopped: {stop_reason}" if stop_reason else "")
    )
    return summary


def _ended_status(counts: RunCounts, *, stopped: bool) -> RunStatus:
    """How a run that finished its loop ended, judged from its records."""
    if stopped or (counts.done > 0 and counts.errors == counts.done):
        return "failed"
    if counts.errors:
        return "partial"
    return "success"
