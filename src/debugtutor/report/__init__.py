"""HTML reports of runs: summary tables, published-number comparisons, plots and samples, in one self-contained file.

``write_report(run_dir)`` rebuilds ``report.html`` from a run's records at any time; the runner calls it at the end
of every run. Jinja2 and matplotlib are imported only while a report is being drawn.
"""

from debugtutor.report._html import format_number, render_report, write_report

__all__ = ["format_number", "render_report", "write_report"]
