"""The ``debugtutor data`` command group: list the registered datasets, fetch one, print where one is, checksum one."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from debugtutor import console
from debugtutor.data import REGISTRY, dataset_checksum, dataset_path, fetch_dataset, fetched_path, store

app = typer.Typer(help="Public datasets at pinned versions: list, fetch, locate.", no_args_is_help=True)

JSON_OPTION = typer.Option(False, "--json", help="Print exactly one JSON object on stdout.")


@app.command("list")
def list_datasets(json_output: bool = JSON_OPTION) -> None:
    """List the registered datasets, their pinned commits and whether they are fetched."""
    rows = []
    for entry in REGISTRY.values():
        location = fetched_path(entry.name)
        lock = store.read_record(store.checksum_lock_path(entry), store.ChecksumLock)
        rows.append(
            {
                "name": entry.name,
                "title": entry.title,
                "repo": entry.repo,
                "commit": entry.commit,
                "url": entry.archive_url(),
                "license": entry.license,
                "pinned_sha256": entry.sha256,
                "recorded_sha256": lock.sha256 if lock else None,
                "fetched": location is not None,
                "path": str(location) if location else None,
            }
        )
    if json_output:
        console.emit_json({"datasets": rows})
        return
    table = Table(title="datasets")
    for column in ("name", "source", "commit", "checksum", "fetched at"):
        table.add_column(column)
    for row in rows:
        checksum = "pinned" if row["pinned_sha256"] else ("recorded on first use" if row["recorded_sha256"] else "none")
        table.add_row(
            str(row["name"]),
            str(row["repo"]),
            str(row["commit"])[:12],
            checksum,
            str(row["path"]) if row["fetched"] else "not fetched",
        )
    console.stdout.print(table)


@app.command("fetch")
def fetch(
    name: str = typer.Argument(..., help="Dataset name (see `debugtutor data list`)."),
    dest: Path | None = typer.Option(None, "--dest", help="Put the dataset in this folder instead of the cache."),
    force: bool = typer.Option(False, "--force", help="Download again and replace what is there."),
    sha256: str | None = typer.Option(None, "--sha256", metavar="HEX", help="Pin the archive's sha256 digest."),
    json_output: bool = JSON_OPTION,
) -> None:
    """Download a dataset at its pinned commit, verify its checksum and unpack it."""
    result = fetch_dataset(name, dest=dest, force=force, sha256=sha256)
    if json_output:
        console.emit_json(result.model_dump(mode="json"))
    else:
        typer.echo(str(result.path))


@app.command("path")
def path(
    name: str = typer.Argument(..., help="Dataset name (see `debugtutor data list`)."),
    json_output: bool = JSON_OPTION,
) -> None:
    """Print the folder a fetched dataset is in (pass it as --data PATH)."""
    location = dataset_path(name)
    if json_output:
        console.emit_json({"name": name, "path": str(location)})
    else:
        typer.echo(str(location))


@app.command("checksum")
def checksum(
    folder: Path = typer.Argument(..., help="A dataset folder (or file)."),
    json_output: bool = JSON_OPTION,
) -> None:
    """Print the stable sha256 over a local dataset folder's files, as run manifests record it."""
    digest = dataset_checksum(folder)
    if json_output:
        console.emit_json({"path": str(folder), "sha256": digest})
    else:
        typer.echo(digest)
