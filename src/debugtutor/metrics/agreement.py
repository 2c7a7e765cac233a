"""Agreement between human annotators: Cohen's kappa for two, Fleiss' kappa for any fixed number, and the
chi-squared test of independence that rating studies report.

Labels are any hashable values (``True``/``False`` for "this prediction matches a reference", 1..4 for a Likert
rating). Kappa is undefined when chance agreement is already total (every label the same category): the functions
return NaN then, and callers show "n/a" rather than a number that means nothing.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

ItemT = TypeVar("ItemT", bound=Hashable)  # what is labelled: any hashable id


@dataclass(frozen=True)
class KappaResult:
    """A kappa value with what it was computed from: ``units`` rated, ``observed`` and ``expected`` agreement."""

    kappa: float
    units: int
    observed: float
    expected: float

    def as_dict(self) -> dict[str, float | int | None]:
        def clean(value: float) -> float | None:
            return None if math.isnan(value) else round(value, 6)

        return {
            "kappa": clean(self.kappa),
            "units": self.units,
            "observed_agreement": clean(self.observed),
            "expected_agreement": clean(self.expected),
        }


def cohen_kappa(first: Sequence[Hashable], second: Sequence[Hashable]) -> KappaResult:
    """Cohen's kappa of two annotators' labels of the same units (position i of each list is unit i)."""
    if len(first) != len(second):
        raise ValueError(f"cohen_kappa: {len(first)} labels against {len(second)}")
    n = len(first)
    if n == 0:
        return KappaResult(float("nan"), 0, float("nan"), float("nan"))
    observed = sum(a == b for a, b in zip(first, second)) / n
    counts_a, counts_b = Counter(first), Counter(second)
    expected = sum(counts_a[label] * counts_b[label] for label in counts_a) / (n * n)
    kappa = (observed - expected) / (1 - expected) if expected < 1 else float("nan")
    return KappaResult(kappa, n, observed, expected)


def fleiss_kappa(units: Sequence[Sequence[Hashable]]) -> KappaResult:
    """Fleiss' kappa: ``units[i]`` holds the labels every annotator gave unit i (the same number for every unit)."""
    rated = [list(labels) for labels in units]
    if not rated:
        return KappaResult(float("nan"), 0, float("nan"), float("nan"))
    raters = len(rated[0])
    if raters < 2 or any(len(labels) != raters for labels in rated):
        raise ValueError("fleiss_kappa: every unit needs the labels of the same two or more annotators")
    total: Counter[Hashable] = Counter()
    per_unit = []
    for labels in rated:
        counts = Counter(labels)
        total.update(counts)
        per_unit.append((sum(c * c for c in counts.values()) - raters) / (raters * (raters - 1)))
    observed = sum(per_unit) / len(rated)
    expected = sum((count / (len(rated) * raters)) ** 2 for count in total.values())
    kappa = (observed - expected) / (1 - expected) if expected < 1 else float("nan")
    return KappaResult(kappa, len(rated), observed, expected)


def pairwise_cohen(labels: Mapping[str, Mapping[ItemT, Hashable]]) -> dict[tuple[str, str], KappaResult]:
    """Cohen's kappa of every pair of annotators over the units both labelled; ``labels[annotator][unit]``."""
    names = sorted(labels)
    out: dict[tuple[str, str], KappaResult] = {}
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            shared = sorted(set(labels[a]) & set(labels[b]), key=str)
            out[(a, b)] = cohen_kappa([labels[a][u] for u in shared], [labels[b][u] for u in shared])
    return out


def fleiss_over_common(labels: Mapping[str, Mapping[ItemT, Hashable]]) -> KappaResult:
    """Fleiss' kappa over the units every annotator labelled (NaN with fewer than two annotators)."""
    names = sorted(labels)
    if len(names) < 2:
        return KappaResult(float("nan"), 0, float("nan"), float("nan"))
    common = set.intersection(*(set(labels[name]) for name in names))
    units = [[labels[name][unit] for name in names] for unit in sorted(common, key=str)]
    return fleiss_kappa(units)


@dataclass(frozen=True)
class ChiSquared:
    """A chi-squared test of independence of a contingency table (rows groups, columns categories)."""

    statistic: float
    dof: int
    p_value: float
    table: tuple[tuple[int, ...], ...]

    def as_dict(self) -> dict[str, object]:
        return {
            "chi2": round(self.statistic, 6),
            "dof": self.dof,
            "p_value": self.p_value,
            "table": [list(row) for row in self.table],
        }


def chi_squared(table: Sequence[Sequence[int]]) -> ChiSquared | None:
    """scipy's test of independence on ``table``; columns that are empty in every row are dropped first, and None
    is returned when fewer than two rows or columns remain (no test is possible)."""
    rows = [list(row) for row in table if sum(row) > 0]
    if len(rows) < 2:
        return None
    keep = [j for j in range(len(rows[0])) if any(row[j] for row in rows)]
    if len(keep) < 2:
        return None
    reduced = [[row[j] for j in keep] for row in rows]
    from scipy.stats import chi2_contingency  # scipy is slow to import; only tests need it

    result = chi2_contingency(reduced, correction=False)
    return ChiSquared(
        float(result[0]), int(result[2]), float(result[1]), tuple(tuple(int(v) for v in row) for row in reduced)
    )
