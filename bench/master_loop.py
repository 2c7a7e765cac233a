"""The whole MASTER loop on this machine, measured: synthesize verified SFT data with the offline Quizzer and
Teacher and a real learner, fine-tune one LoRA adapter per strategy, and evaluate the base and the tuned models with
``debugtutor debugeval eval`` on held-out DebugEval instances beside a trivial baseline.

Every step runs through the ``debugtutor`` command line, as a user would run it:

1. ``debugeval build --train-fraction 0.5`` from DebugBench (problems split by slug: train for synthesis, test for
   evaluation);
2. ``master synth`` (offline Quizzer and Teacher, the learner named by --learner);
3. ``master ablation`` (training per strategy, evaluation of base and tuned models, Table V layout).

It prints the verification rate, the SFT counts (Table III layout), the training throughput (tokens/s) and wall time
per strategy, and per task the accuracy of each model with its 95% bootstrap interval next to the best constant
answer; the numbers are kept in WORK/bench_result.json. ``--reuse-data`` skips steps 1 and 2 when WORK/debugeval and
WORK/data are already there (the synthesis' own figures are then read from WORK/data/synthesis.json).

Sizes are arguments. Training on this 2-core CPU runs at roughly 10 tokens/s when the machine is shared, and the SFT
examples are long (median 700-820 tokens: the problem statement and the code), so the defaults keep only the problems
whose example fits in 512 tokens for every strategy, and evaluate 4 held-out instances per task with answers capped at
128 tokens: enough for the loop to run end to end within an hour, far too little to measure a change reliably (the
intervals say so). Training departs from the paper's settings on purpose (lr 2e-4, batch 1 x 2, 1 warm-up step): with
a dozen examples the paper's effective batch of 32 and 30 warm-up steps would give no full optimizer step at all.

    python bench/master_loop.py --work DIR [--learner local:smollm2] [--n 140] [--eval-limit 4] [--reuse-data] [--json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DEBUGBENCH = REPO_ROOT.parent / "shared" / "data" / "debugbench"


def debugtutor(*args: str) -> tuple[dict[str, Any], float]:
    """Run one debugtutor command with --json; its JSON object and the wall seconds it took."""
    started = time.perf_counter()
    command = [sys.executable, "-m", "debugtutor.cli.main", *args, "--json"]
    print("$ debugtutor " + " ".join(args), file=sys.stderr, flush=True)
    completed = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=False)
    seconds = time.perf_counter() - started
    if completed.returncode != 0:
        raise SystemExit(f"debugtutor {args[0]} {args[1] if len(args) > 1 else ''} failed with exit "
                         f"{completed.returncode}")  # fmt: skip
    return json.loads(completed.stdout.strip().splitlines()[-1]), seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, required=True, help="Folder for everything the run writes.")
    parser.add_argument("--debugbench", type=Path, default=DEFAULT_DEBUGBENCH)
    parser.add_argument("--learner", default="local:smollm2", help="Learner and base model spec.")
    parser.add_argument("--lang", default="python")
    parser.add_argument("--n", type=int, default=140, help="Problems quizzed per task and language.")
    parser.add_argument(
        "--learner-max-tokens",
        type=int,
        default=24,
        help="Cap on the learner's answer tokens while synthesizing (a critic needs few).",
    )
    parser.add_argument("--eval-limit", type=int, default=4, help="Held-out instances per task and language.")
    parser.add_argument("--lr", default="2e-4")
    parser.add_argument("--eval-max-tokens", default="128", help="Cap on each evaluation answer's tokens.")
    parser.add_argument("--batch-size", default="1")
    parser.add_argument("--grad-accum", default="2")
    parser.add_argument("--warmup-steps", default="1")
    parser.add_argument("--max-length", default="512")
    parser.add_argument("--reuse-data", action="store_true", help="Reuse WORK/debugeval and WORK/data when present.")
    parser.add_argument("--json", action="store_true", help="Print one JSON object instead of tables.")
    args = parser.parse_args()
    work: Path = args.work
    work.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    eval_data = work / "debugeval"
    reuse = args.reuse_data and (eval_data / "debugevalsuite_task124.jsonl").is_file()
    reuse = reuse and (work / "data" / "synthesis.json").is_file()
    build: dict[str, Any] = {"counts": None}
    build_s = synth_s = 0.0
    if not reuse:
        build, build_s = debugtutor("debugeval", "build", "--source", "debugbench", "--data", str(args.debugbench),
                                    "--train-fraction", "0.5", "--out", str(eval_data))  # fmt: skip
        _, synth_s = debugtutor(
            "master", "synth", "--quizzer", "offline", "--teacher", "offline", "--learner", args.learner,
            "--source", str(eval_data), "--lang", args.lang, "--n", str(args.n), "--max-tokens",
            str(args.learner_max_tokens), "--out", str(work / "data"), "--runs-dir", str(work / "runs"),
            "--allow-errors",
        )  # fmt: skip
    synthesis = json.loads((work / "data" / "synthesis.json").read_text())
    ablation, ablation_s = debugtutor(
        "master", "ablation", "--base", args.learner, "--data", str(work / "data"), "--eval-data", str(eval_data),
        "--out", str(work / "ablation"), "--lang", args.lang, "--eval-limit", str(args.eval_limit), "--lr", args.lr,
        "--batch-size", args.batch_size, "--grad-accum", args.grad_accum, "--warmup-steps", args.warmup_steps,
        "--max-length", args.max_length, "--eval-max-tokens", args.eval_max_tokens, "--group-by-length",
    )  # fmt: skip
    result = {
        "settings": vars(args) | {"work": str(work), "debugbench": str(args.debugbench)},
        "reused_data": reuse,
        "wall_s": {"build": round(build_s, 1), "synth": round(synth_s, 1), "ablation": round(ablation_s, 1),
                   "total": round(time.perf_counter() - started, 1)},
        "build_counts": build["counts"],
        "verification": {key: synthesis["verification"].get(key) for key in ("quizzed", "verified",
                         "verification_rate", "rejections", "kept")},
        "sft_counts": synthesis["table_iii"],
        "deduplication": synthesis["deduplication"],
        "decontamination": synthesis["decontamination"],
        "training": {strategy: manifest["training"] for strategy, manifest in ablation["training"].items()},
        "trained_problems": ablation["trained_problems"],
        "problems_left_out_too_long": ablation["problems_left_out_too_long"],
        "ablation": {key: ablation[key] for key in ("cells", "average", "trivial_average", "comparison_note")},
    }  # fmt: skip
    (work / "bench_result.json").write_text(json.dumps(result, indent=2))
    if args.json:
        print(json.dumps(result))
        return
    report(result)


def report(result: dict[str, Any]) -> None:
    verification = result["verification"]
    print(f"wall time (s): {result['wall_s']}")
    print(
        f"verification: {verification['verified']}/{verification['quizzed']} quizzed problems pass the checks "
        f"({100 * (verification['verification_rate'] or 0):.1f}%); rejections {verification['rejections']}"
    )
    print(
        f"kept (learner wrong, teacher verified): {verification['kept']}; SFT examples per task "
        f"{result['sft_counts']['per_task']} (paper Table III: {result['sft_counts']['paper_table_iii']})"
    )
    print(
        f"duplicates removed {result['deduplication']}; decontamination {result['decontamination']['dropped']} of "
        f"{result['decontamination']['checked']} dropped"
    )
    print(
        f"trained every strategy on the same {result['trained_problems']} problems "
        f"({result['problems_left_out_too_long']} longer than --max-length in some strategy were left out)"
    )
    for strategy, facts in result["training"].items():
        print(
            f"train {strategy}: {facts['examples']} examples, {facts['steps']} steps, {facts['session_tokens']} "
            f"tokens in {facts['session_wall_s']:.0f} s = {facts['tokens_per_s']:.0f} tokens/s, loss "
            f"{facts['first_loss']:.3f} -> {facts['last_loss']:.3f}"
        )
    ablation = result["ablation"]
    labels = list(ablation["average"])
    print("\naccuracy % [95% bootstrap interval] on held-out instances; trivial = best constant answer")
    print(f"{'task/language':32} {'n':>3} {'trivial':>8} " + " ".join(f"{label:>22}" for label in labels))
    for key, cell in ablation["cells"].items():
        cells = []
        for label in labels:
            entry = cell["models"][label]
            interval = entry["interval"]
            text = "-" if entry["accuracy"] is None else f"{entry['accuracy']:.1f}"
            cells.append(text + (f" [{interval['low']:.0f},{interval['high']:.0f}]" if interval else ""))
        trivial = "-" if cell["trivial"] is None else f"{cell['trivial']:.1f}"
        print(f"{key:32} {cell['instances']:>3} {trivial:>8} " + " ".join(f"{text:>22}" for text in cells))
    averages = " ".join(f"{'-' if v is None else f'{v:.1f}':>22}" for v in ablation["average"].values())
    print(f"{'average':32} {'':>3} {ablation['trivial_average'] or 0:>8.1f} {averages}")
    print(ablation["comparison_note"])


if __name__ == "__main__":
    main()
