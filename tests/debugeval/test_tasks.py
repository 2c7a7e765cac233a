"""Tests for the DebugEval tasks' published comparison rows."""

from __future__ import annotations

from debugtutor.debugeval.tasks import TABLE_IV, published_rows


def test_published_rows_keep_to_the_languages_asked_for() -> None:
    rows = published_rows(["code-repair"], {"cpp"})
    assert list(rows) == ["code-repair cpp"] and rows["code-repair cpp"].paper == {"GPT-4o-mini-0718": 67.2}
    assert set(published_rows(["code-repair"])) == {"code-repair python", "code-repair cpp", "code-repair java"}


def test_each_languages_best_agrees_with_the_papers_python_column_and_average() -> None:
    # the paper gives each system's Python figure and its three-language average: the C++ and Java entries must fit them
    averages = {("bug-localization", "DeepSeek-Coder-V2-0724"): 87.2, ("bug-identification", "DeepSeek-V2-0628"): 61.4,
                ("code-review", "DeepSeek-Coder-V2-0724"): 92.0, ("code-repair", "GPT-4o-mini-0718"): 66.6}  # fmt: skip
    for (task, system), average in averages.items():
        figures = [TABLE_IV[task][language][system] for language in ("python", "cpp", "java")]
        assert abs(sum(figures) / 3 - average) <= 0.05
