"""StudentSyn benchmark: discriminative accuracy of every non-LLM technique, the unseen-target check, synthesis latency.

Reads ``../shared/data/studentsyn`` relative to the repository root (or ``--data``). Prints one JSON object on stdout
and a readable table on stderr:

- each technique's accuracy per reference task (mean over rounds, per round; tuned techniques cross-validated), beside
  the original SymSS code and the human experts (TutorSS);
- leave-one-target-out per target for SymSS, SymSS-infer and NeurSS: each target is scored with the setting chosen
  on the family's other target(s), so the figure is for a target nothing was tuned on (NeurSS never sees any target
  task in training; the SymSS rules' last changes were driven by hoc18a's errors and the reference-task type
  inference, so hoc18b is the one target no rule work looked at);
- wall time per technique (NeurSS trains once per family and caches its weights; ``neurss_from_cache`` says whether
  this run trained) and the total, which must stay under two minutes;
- p50/p95 latency of synthesizing one scenario's top-3 codes with SymSS-infer and NeurSS.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict
from pathlib import Path

from debugtutor.studentsyn import NON_LLM_TECHNIQUES, SymSS, TaskFamily, evaluate_in_process, load_benchmark
from debugtutor.studentsyn.evaluation import PUBLISHED, leave_one_target_out, significance
from debugtutor.studentsyn.neurss import NeurSS, NeurSSConfig
from debugtutor.studentsyn.techniques import Technique, make_technique

REPO = Path(__file__).resolve().parents[1]
HELD_OUT = ("symss", "symss-infer", "neurss")


def _latencies(families: list[TaskFamily], synthesize: object) -> dict[str, float]:
    values = []
    for family in families:
        for attempt in (a for a in family.students if a.task == family.reference):
            for target in family.targets:
                began = time.perf_counter()
                synthesize(family.reference, attempt.program, target, 3)  # type: ignore[operator]
                values.append(1000 * (time.perf_counter() - began))
    values.sort()
    return {
        "p50": round(values[len(values) // 2], 3),
        "p95": round(values[int(0.95 * (len(values) - 1))], 3),
        "max": round(values[-1], 3),
        "scenarios": len(values),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data" / "studentsyn")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    families = load_benchmark(args.data)

    started = time.perf_counter()
    techniques: dict[str, Technique] = {}
    results, seconds = [], {}
    for name in NON_LLM_TECHNIQUES:
        began = time.perf_counter()
        technique = techniques[name] = make_technique(name, seed=args.seed)
        accuracy, _ = evaluate_in_process(technique, families, rounds=args.rounds, seed=args.seed)
        seconds[name] = round(time.perf_counter() - began, 2)
        results.append(accuracy)
    total = round(time.perf_counter() - started, 2)
    neurss = techniques["neurss"]
    assert isinstance(neurss, NeurSS)

    held_out = {
        name: leave_one_target_out(techniques[name], families, rounds=args.rounds, seed=args.seed).model_dump()
        for name in HELD_OUT
    }
    symss_infer = techniques["symss-infer"]
    assert isinstance(symss_infer, SymSS)
    latency = {"symss-infer": _latencies(families, symss_infer.synthesize_for)}
    latency["neurss"] = _latencies(families, neurss.synthesize_for)

    comparison = {
        family.reference: {
            **{r.technique: r.references[family.reference].mean for r in results},
            **{f"{name} (held-out targets)": held_out[name]["references"][family.reference] for name in HELD_OUT},
            **PUBLISHED.get(family.reference, {}),
        }
        for family in families
    }
    payload = {
        "accuracy": {r.technique: {ref: a.model_dump() for ref, a in r.references.items()} for r in results},
        "comparison": comparison,
        "held_out_targets": held_out,
        "published": PUBLISHED,
        "significance": [significance(results, f.reference).model_dump() for f in families],
        "seconds_per_technique": seconds,
        "seconds_total": total,
        "neurss_from_cache": neurss.from_cache,
        "neurss_config": asdict(NeurSSConfig(seed=args.seed)),
        "synthesis_latency_ms": latency,
    }
    print(json.dumps(payload, indent=1))

    for reference, row in comparison.items():
        print(f"\n{reference} discriminative accuracy (%), {args.rounds} rounds, seed {args.seed}", file=sys.stderr)
        for name, value in row.items():
            print(f"  {name:<32} {value:6.2f}", file=sys.stderr)
    print("\nper held-out target (setting chosen on the other targets):", file=sys.stderr)
    for name, result in held_out.items():
        cells = ", ".join(f"{h['target']} {h['mean']:.2f} [{h['setting']}]" for h in result["targets"])
        print(f"  {name:<12} {cells}", file=sys.stderr)
    print(f"\nall non-LLM techniques: {total} s {seconds}; NeurSS from cache: {neurss.from_cache}", file=sys.stderr)


if __name__ == "__main__":
    main()
