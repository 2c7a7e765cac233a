"""Bootstrap confidence intervals for means of per-item scores.

Every reported mean carries a seeded percentile-bootstrap interval computed from the same per-item values, so a
number, its interval and the per-item records always agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class BootstrapInterval:
    """A mean with its percentile-bootstrap interval."""

    mean: float
    low: float
    high: float
    n: int
    confidence: float = 0.95
    resamples: int = 1000

    def as_dict(self) -> dict[str, float | int]:
        return {"mean": self.mean, "low": self.low, "high": self.high, "n": self.n}


def bootstrap_mean(
    values: Sequence[float], *, confidence: float = 0.95, resamples: int = 1000, seed: int = 0
) -> BootstrapInterval:
    """The mean of ``values`` with a seeded percentile-bootstrap interval (NaN bounds for an empty input)."""
    data = np.asarray(values, dtype=float)
    n = int(data.size)
    if n == 0:
        return BootstrapInterval(float("nan"), float("nan"), float("nan"), 0, confidence, resamples)
    mean = float(data.mean())
    if n == 1:
        return BootstrapInterval(mean, mean, mean, 1, confidence, resamples)
    rng = np.random.default_rng(seed)
    # Resample in chunks so memory stays bounded for large n.
    means = np.empty(resamples)
    chunk = max(1, 2_000_000 // n)
    for start in range(0, resamples, chunk):
        stop = min(resamples, start + chunk)
        idx = rng.integers(0, n, size=(stop - start, n))
        means[start:stop] = data[idx].mean(axis=1)
    alpha = (1.0 - confidence) / 2.0
    low, high = np.quantile(means, [alpha, 1.0 - alpha])
    return BootstrapInterval(mean, float(low), float(high), n, confidence, resamples)
