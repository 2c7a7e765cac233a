"""Bug Localization options: can the gold option be told by its form alone?

Builds DebugBench instances (every language, a few seeds) and lets form-only guessers pick an option without reading
the code or what the snippets mean: the longest option, the shortest, the one with most lines, the one with the most
leading whitespace, and a conditional-logit model over form features (length, length rank, lines, tokens,
indentation) fitted on half the problems and scored on the other half (split by problem slug, both ways). With
options indistinguishable by form, every guesser sits at chance (25%). A second model adds character classes
(symbols, digits, capitals), which already read content (an unclosed quote is the bug), as an upper reference.
Prints one JSON object with each guesser's accuracy, its 95% interval and the number of items, overall and per
language.

    python bench/debugeval_options.py [--data ../shared/data] [--seeds 3]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import minimize

from debugtutor.debugeval.build import BuildSettings, build_from_debugbench
from debugtutor.debugeval.debugbench import load_debugbench

REPO = Path(__file__).resolve().parents[1]


def form_features(option: str, options: list[str]) -> list[float]:
    """What a snippet looks like, never what it says: its size and layout, relative to its peers."""
    lengths = [len(text) for text in options]
    mean, spread = float(np.mean(lengths)), float(np.std(lengths)) or 1.0
    lines = option.splitlines() or [""]
    return [
        (len(option) - mean) / spread,
        sum(1 for length in lengths if length < len(option)) / 3.0,
        float(len(lines)),
        float(len(option.split())),
        float(sum(len(line) - len(line.lstrip()) for line in lines)),
    ]


def surface_features(option: str, options: list[str]) -> list[float]:
    """Form plus character classes (symbols, digits, capitals): these already read content (an unclosed bracket
    or quote is the bug itself), so this model is an upper reference, not the form-only test."""
    return [
        *form_features(option, options),
        float(sum(1 for ch in option if not ch.isalnum() and not ch.isspace())),
        float(sum(1 for ch in option if ch.isdigit())),
        float(sum(1 for ch in option if ch.isupper())),
    ]


def fit_conditional_logit(items: list[tuple[np.ndarray, int]], l2: float = 1.0) -> np.ndarray:
    """Weights of a softmax-over-options model (one score per option, the gold should score highest)."""
    size = items[0][0].shape[1]

    def loss(weights: np.ndarray) -> float:
        total = l2 * float(weights @ weights)
        for features, gold in items:
            scores = features @ weights
            top = scores.max()
            total -= scores[gold] - top - math.log(float(np.exp(scores - top).sum()))
        return total

    return np.asarray(minimize(loss, np.zeros(size), method="L-BFGS-B").x)


def wilson(successes: int, total: int, z: float = 1.96) -> list[float]:
    if total == 0:
        return [0.0, 0.0]
    p = successes / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return [round(100 * (centre - half), 2), round(100 * (centre + half), 2)]


def accuracy(hits: list[bool]) -> dict[str, Any]:
    return {"accuracy": round(100 * sum(hits) / len(hits), 2) if hits else 0.0, "ci95": wilson(sum(hits), len(hits))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()

    started = time.perf_counter()
    pool = load_debugbench(args.data / "debugbench")
    items: list[dict[str, Any]] = []
    for seed in range(args.seeds):
        task124, _, _ = build_from_debugbench(pool, BuildSettings(seed=seed, repair_languages=()))
        for record in task124:
            if record.task1_options:
                options = record.option_texts()
                gold = "ABCD".index(record.task1_answer.strip("()"))
                items.append({"options": options, "gold": gold, "language": record.language, "slug": record.slug})
    build_s = time.perf_counter() - started

    def pick(options: list[str], key: Any) -> int:
        values = [key(text) for text in options]
        return values.index(max(values))  # ties go to the first, as a guesser without other cues would

    guessers = {
        "longest": lambda o: pick(o, len),
        "shortest": lambda o: pick(o, lambda text: -len(text)),
        "most lines": lambda o: pick(o, lambda text: len(text.splitlines())),
        "most indentation": lambda o: pick(o, lambda text: len(text) - len(text.lstrip())),
    }
    models = {"form model (cross-fitted)": form_features, "surface model (cross-fitted)": surface_features}
    hits: dict[str, dict[str, list[bool]]] = {name: {} for name in [*guessers, *models]}
    for item in items:
        for name, guess in guessers.items():
            for key in (item["language"], "all"):
                hits[name].setdefault(key, []).append(guess(item["options"]) == item["gold"])
    # the model: fitted on one half of the problems, scored on the other, both ways
    halves = [
        [i for i in items if int(hashlib.sha256(i["slug"].encode()).hexdigest(), 16) % 2 == half] for half in (0, 1)
    ]
    for name, features in models.items():
        for train, test in ((halves[0], halves[1]), (halves[1], halves[0])):
            data = [(np.array([features(o, i["options"]) for o in i["options"]]), i["gold"]) for i in train]
            if not data:
                continue
            weights = fit_conditional_logit(data)
            for item in test:
                scores = np.array([features(o, item["options"]) for o in item["options"]]) @ weights
                for key in (item["language"], "all"):
                    hits[name].setdefault(key, []).append(int(scores.argmax()) == item["gold"])
    gold_longest = [
        len(i["options"][i["gold"]]) == max(len(o) for o in i["options"]) for i in items
    ]  # ties count: a length-reader cannot rule the gold out
    report = {
        "items": len(items),
        "seeds": args.seeds,
        "chance": 25.0,
        "gold_is_longest_or_tied_share": round(100 * sum(gold_longest) / len(items), 2) if items else 0.0,
        "guessers": {
            name: {key: {**accuracy(values), "items": len(values)} for key, values in sorted(by_key.items())}
            for name, by_key in hits.items()
        },
        "seconds": round(time.perf_counter() - started, 1),
        "build_seconds": round(build_s, 1),
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
