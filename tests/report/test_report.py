"""Tests for the HTML report: self-contained, figures inlined, the golden numbers and published table present."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from debugtutor.report import format_number, write_report
from debugtutor.runs import RunResult


def test_run_ends_with_a_self_contained_report(finished_run: RunResult) -> None:
    html = (finished_run.run_dir / "report.html").read_text(encoding="utf-8")
    images = re.findall(r'<img src="(data:image/png;base64,[A-Za-z0-9+/=]+)"', html)
    # correct histogram, latency, errors by type
    assert len(images) == 3
    assert all(len(uri) > 1000 for uri in images)
    assert not re.search(r'(src|href)="https?://', html)
    assert "<link" not in html and "<script" not in html


def test_report_tables_hold_the_run_numbers(finished_run: RunResult) -> None:
    html = (finished_run.run_dir / "report.html").read_text(encoding="utf-8")
    metrics = html[html.index('<table id="metrics">') : html.index("</table>", html.index('<table id="metrics">'))]
    assert "<td>correct</td>" in metrics
    assert '<td class="num">0.75</td>' in metrics  # mean of 1, 0, 1, 1
    published = html[html.index('<table id="published">') :]
    assert '<td class="num ours">75</td>' in published
    assert "17.6" in published and "3.25" in published and "CodeLlama-7B" in published
    assert "Toy et al. 2024, Table 3" in html
    assert "scripted:toy" in html and "report-toy" in html
    assert "fixed_share" in html
    assert "prompt_tokens" in html and "400" in html  # 4 successful items x 100 tokens


def test_failed_items_are_highlighted(finished_run: RunResult) -> None:
    html = (finished_run.run_dir / "report.html").read_text(encoding="utf-8")
    rows = re.findall(r"<tr( class=\"error-row\")?>\s*<td class=\"mono\">([^<]+)</td>", html)
    highlighted = {item_id for flag, item_id in rows if flag}
    assert highlighted == {"broken"}
    assert {item_id for _, item_id in rows} == {"q0", "q1", "q2", "q3", "broken"}
    assert "ZeroDivisionError: division by zero in the student&#39;s loop" in html


def test_report_is_rebuilt_from_the_records_alone(finished_run: RunResult, tmp_path: Path) -> None:
    (finished_run.run_dir / "report.html").unlink()
    out = write_report(finished_run.run_dir, out=tmp_path / "copy" / "again.html", max_samples=2)
    html = out.read_text(encoding="utf-8")
    assert '<td class="num">0.75</td>' in html
    assert "The first 2 of 5 recorded item(s)" in html
    assert html.count("data:image/png;base64,") == 3


def test_html_escapes_outputs(tmp_path: Path) -> None:
    from debugtutor.report import write_report
    from debugtutor.runs import EvalItem, EvalTask, run_task

    task = EvalTask(
        name="esc",
        items=[EvalItem(id="x", input=1)],
        solver=lambda item: "<script>alert(1)</script>",
        scorer=lambda i, o: 1,
    )
    html = (run_task(task, runs_dir=tmp_path, report=write_report).run_dir / "report.html").read_text(encoding="utf-8")
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_format_number() -> None:
    assert format_number(0.75) == "0.75"
    assert format_number(1 / 3) == "0.3333"
    assert format_number(12345) == "12,345"
    assert format_number(None) == "—"
    assert format_number(float("nan")) == "—"
    assert format_number(True) == "true"


def test_importing_runs_does_not_load_matplotlib() -> None:
    code = "import sys, debugtutor.runs, debugtutor.report; print('matplotlib' in sys.modules, 'numpy' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["False", "False"]
