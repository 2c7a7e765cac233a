"""StudentSyn benchmark: discriminative accuracy of every non-LLM technique, per target task, and synthesis latency.

Reads ``../shared/data/studentsyn`` relative to the repository root (or ``--data``). Prints one JSON object: each
technique's accuracy per reference task (mean over rounds, per round), SymSS / SymSS-infer accuracy per target task
(the rules were developed looking at the first target of each family; the others are the unseen check), the wall
time of the whole evaluation, and the p50/p95 latency of synthesizing one scenario's top-3 codes.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from pathlib import Path

from debugtutor.studentsyn import NON_LLM_TECHNIQUES, SymSS, evaluate_in_process, load_benchmark, make_technique
from debugtutor.studentsyn.evaluation import PUBLISHED, draw_rounds, significance

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data" / "studentsyn")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    families = load_benchmark(args.data)

    started = time.perf_counter()
    results, seconds = [], {}
    for name in NON_LLM_TECHNIQUES:
        began = time.perf_counter()
        accuracy, _ = evaluate_in_process(
            make_technique(name, seed=args.seed), families, rounds=args.rounds, seed=args.seed
        )
        seconds[name] = round(time.perf_counter() - began, 2)
        results.append(accuracy)
    total = round(time.perf_counter() - started, 2)

    per_target: dict[str, dict[str, float]] = {}
    for name in ("symss", "symss-infer"):
        technique = SymSS(infer_type=name == "symss-infer")
        hits: dict[str, list[bool]] = defaultdict(list)
        for family in families:
            technique.prepare(family)
        for _, instance in draw_rounds(families, rounds=args.rounds, samples=20, seed=args.seed):
            hits[instance.target_task].append(instance.is_correct(technique.predict(instance)["default"]))
        per_target[name] = {t: round(100 * sum(v) / len(v), 2) for t, v in sorted(hits.items())}

    latencies = []
    synthesizer = SymSS(infer_type=True)
    for family in families:
        synthesizer.prepare(family)
        for attempt in (a for a in family.students if a.task == family.reference):
            for target in family.targets:
                began = time.perf_counter()
                synthesizer.synthesize_for(family.reference, attempt.program, target, 3)
                latencies.append(1000 * (time.perf_counter() - began))
    latencies.sort()

    print(
        json.dumps(
            {
                "accuracy": {r.technique: {ref: a.model_dump() for ref, a in r.references.items()} for r in results},
                "symss_per_target": per_target,
                "published": PUBLISHED,
                "significance": [significance(results, f.reference).model_dump() for f in families],
                "seconds_per_technique": seconds,
                "seconds_total": total,
                "synthesis_latency_ms": {
                    "p50": round(latencies[len(latencies) // 2], 3),
                    "p95": round(latencies[int(0.95 * (len(latencies) - 1))], 3),
                    "max": round(latencies[-1], 3),
                    "scenarios": len(latencies),
                },
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
