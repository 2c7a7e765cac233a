"""Trivial baselines for the DebugEval tasks, scored on the very items a run answers, so that every accuracy a run
reports stands beside what knowing nothing about the code would get:

* Bug Localization, Bug Identification: always the most frequent gold letter of the items (per language, and over
  all of them for ``all``).
* Code Review: a stable coin flip on the two texts (:func:`~debugtutor.debugeval.offline.tie_break`), asked in both
  presentation orders, as the offline solver answers when no evidence decides.
* Code Repair: the code returned unchanged, which passes nothing on an item whose buggy code fails its tests.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence

from debugtutor.debugeval.offline import tie_break
from debugtutor.runs import EvalItem

BASELINE_NAMES = {
    "bug-localization": "most frequent gold letter",
    "bug-identification": "most frequent gold letter",
    "code-review": "a coin flip on the two texts",
    "code-repair": "the code unchanged",
}


def baseline_scores(task: str, items: Sequence[EvalItem]) -> list[float]:
    """Each item's score (0 or 1) under ``task``'s trivial baseline; ``items`` are one task's items."""
    if task in ("bug-localization", "bug-identification"):
        if not items:
            return []
        common = Counter(str(item.target) for item in items).most_common(1)[0][0]
        return [float(str(item.target) == common) for item in items]
    if task == "code-review":
        scores = []
        for item in items:
            record = item.input["record"]
            buggy, correct = record["buggy_code"], record["correct_code"]
            scores.append(float(tie_break(buggy, correct) == "A" and tie_break(correct, buggy) == "B"))
        return scores
    return [0.0 for _ in items]


def baseline_by_item(items: Sequence[EvalItem]) -> dict[str, dict[str, float]]:
    """Each item's baseline score under its language's key and under ``all`` (where the most frequent letter is the
    pooled one), fixed before any answer is seen, so that a summary can average them over the items it has."""
    groups: dict[tuple[str, str], list[EvalItem]] = defaultdict(list)
    for item in items:
        task, language = str(item.input["task"]), str(item.metadata.get("language", ""))
        groups[(task, language)].append(item)
        groups[(task, "all")].append(item)
    found: dict[str, dict[str, float]] = defaultdict(dict)
    for (task, key), group in groups.items():
        for item, score in zip(group, baseline_scores(task, group), strict=True):
            found[item.id][key] = score
    return dict(found)


def baseline_percent(by_item: dict[str, dict[str, float]], item_ids: Iterable[str]) -> dict[str, dict[str, float]]:
    """Percent per task and language (and ``all``) over ``item_ids``, the way a run's accuracy is keyed (task from
    the item id's ``task:`` prefix)."""
    scores: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for item_id in item_ids:
        for key, score in by_item.get(item_id, {}).items():
            scores[item_id.split(":", 1)[0]][key].append(score)
    return {
        task: {key: round(100.0 * sum(values) / len(values), 2) for key, values in sorted(by_key.items())}
        for task, by_key in sorted(scores.items())
    }


def baseline_accuracy(items: Sequence[EvalItem]) -> dict[str, dict[str, float]]:
    """Percent per task and language (and ``all``) over all of ``items``."""
    return baseline_percent(baseline_by_item(items), [item.id for item in items])
