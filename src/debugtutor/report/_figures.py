"""Plots for the run report, drawn with matplotlib's Agg renderer and returned as inline PNG data URIs.

Figures are built on :class:`matplotlib.figure.Figure` directly rather than through ``pyplot``, so no global backend
is switched and nothing is left open; matplotlib itself is imported only when a report is drawn.
"""

from __future__ import annotations

import base64
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from debugtutor.runs import SampleRecord

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

ACCENT = "#2563eb"
ERROR_RED = "#dc2626"
MUTED = "#64748b"


@dataclass
class ReportFigure:
    """One plot of the report: its title, a one-line caption and the PNG as a ``data:`` URI."""

    title: str
    caption: str
    data_uri: str


def _new_figure(width: float = 5.2, height: float = 3.0) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=110, layout="constrained")


def _style(axes: Axes) -> None:
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    axes.grid(axis="y", color="#e2e8f0", linewidth=0.8)
    axes.set_axisbelow(True)


def _to_data_uri(figure: Figure) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def score_histogram(name: str, values: Sequence[float]) -> ReportFigure:
    """The distribution of one numeric score over the items (a bar per value when the score is 0/1)."""
    figure = _new_figure()
    axes = figure.add_subplot()
    distinct = sorted(set(values))
    if set(distinct) <= {0.0, 1.0}:
        counts = [sum(1 for value in values if value == level) for level in (0.0, 1.0)]
        axes.bar(["0", "1"], counts, color=[MUTED, ACCENT], width=0.6)
    else:
        bins = max(1, min(30, len(distinct)))
        axes.hist(values, bins=bins, color=ACCENT, edgecolor="white")
    axes.set_xlabel(name)
    axes.set_ylabel("items")
    _style(axes)
    mean = sum(values) / len(values) if values else math.nan
    return ReportFigure(f"Score: {name}", f"{len(values)} item(s), mean {mean:.4g}", _to_data_uri(figure))


def latency_plot(records: Sequence[SampleRecord]) -> ReportFigure | None:
    """Solver time per item in record order (failed items in red) beside its distribution."""
    raw = [(index, r.timings.solve_s, r.error is not None) for index, r in enumerate(records) if r.timings.solve_s]
    if not raw:
        return None
    from matplotlib.ticker import MaxNLocator

    # Milliseconds read better than 0.0014 s on an axis; the unit follows the slowest item.
    scale, unit = (1.0, "s") if max(seconds for _, seconds, _ in raw) >= 1.0 else (1000.0, "ms")
    points = [(index, (seconds or 0.0) * scale, failed) for index, seconds, failed in raw]
    figure = _new_figure(width=9.0)
    by_item, spread = figure.subplots(1, 2, width_ratios=[2, 1])
    ok = [(index, value) for index, value, failed in points if not failed]
    bad = [(index, value) for index, value, failed in points if failed]
    if ok:
        by_item.scatter(*zip(*ok), s=8, color=ACCENT, label="ok")
    if bad:
        by_item.scatter(*zip(*bad), s=12, color=ERROR_RED, label="error")
        by_item.legend(frameon=False)
    by_item.xaxis.set_major_locator(MaxNLocator(integer=True))
    by_item.set_xlabel("item (record order)")
    by_item.set_ylabel(f"solve time ({unit})")
    values = [value for _, value, _ in points]
    spread.hist(values, bins=min(30, len(points)), color=ACCENT, edgecolor="white")
    spread.xaxis.set_major_locator(MaxNLocator(nbins=4))
    spread.set_xlabel(f"solve time ({unit})")
    spread.set_ylabel("items")
    for axes in (by_item, spread):
        _style(axes)
    ordered = sorted(values)
    caption = f"median {ordered[len(ordered) // 2]:.3g} {unit}, max {ordered[-1]:.3g} {unit}"
    return ReportFigure("Latency per item", caption, _to_data_uri(figure))


def error_plot(error_types: dict[str, int], total: int) -> ReportFigure | None:
    """How many items failed, by exception type."""
    if not error_types:
        return None
    figure = _new_figure()
    axes = figure.add_subplot()
    names = list(error_types)[:12]
    axes.barh(names[::-1], [error_types[name] for name in names][::-1], color=ERROR_RED)
    axes.set_xlabel("items")
    _style(axes)
    errors = sum(error_types.values())
    return ReportFigure("Errors by type", f"{errors} of {total} item(s) failed", _to_data_uri(figure))


def report_figures(records: Sequence[SampleRecord], summary: dict[str, Any]) -> list[ReportFigure]:
    """Every figure of the report, in display order: one histogram per numeric score, latency, errors."""
    figures: list[ReportFigure] = []
    for name in summary.get("metrics", {}):
        values: list[float] = []
        for record in records:
            value = record.scores.get(name)
            if (
                record.error is None
                and isinstance(value, (int, float))
                and not (isinstance(value, float) and math.isnan(value))
            ):
                values.append(float(value))
        if values:
            figures.append(score_histogram(name, values))
    latency = latency_plot(records)
    if latency is not None:
        figures.append(latency)
    errors = error_plot(summary.get("error_types", {}), len(records))
    if errors is not None:
        figures.append(errors)
    return figures
