"""``with_run_options`` works on commands whose module uses postponed annotations (``from __future__``)."""

from __future__ import annotations

from pathlib import Path

import typer
from typer.testing import CliRunner

from debugtutor.cli.run_options import RunOptions, with_run_options


def test_options_survive_postponed_annotations(tmp_path: Path) -> None:
    app = typer.Typer()
    seen: dict[str, object] = {}

    @app.command()
    @with_run_options
    def evaluate(name: str, as_json: bool = typer.Option(False, "--json"), *, run_options: RunOptions) -> None:
        seen.update(name=name, as_json=as_json, limit=run_options.limit, runs_dir=run_options.runs_dir)

    result = CliRunner().invoke(app, ["x", "--json", "--limit", "3", "--runs-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert seen == {"name": "x", "as_json": True, "limit": 3, "runs_dir": tmp_path}
