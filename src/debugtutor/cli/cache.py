"""The ``debugtutor cache`` command group: where the model response cache is, how big it is, and emptying it."""

from __future__ import annotations

import typer

from debugtutor import console
from debugtutor.llm import ResponseCache

app = typer.Typer(help="The persistent model response cache: info and clear.", no_args_is_help=True)

JSON_OPTION = typer.Option(False, "--json", help="Print exactly one JSON object on stdout.")


@app.command("info")
def info(json_output: bool = JSON_OPTION) -> None:
    """Print the cache's path, number of stored completions and size on disk."""
    details = ResponseCache().info()
    if json_output:
        console.emit_json(details.model_dump(mode="json"))
        return
    console.stdout.print(f"path     {details.path}", highlight=False, soft_wrap=True)
    console.stdout.print(f"entries  {details.entries}", highlight=False)
    size = f"{details.size_bytes / 1_048_576:.2f} MiB ({details.size_bytes} bytes)"
    console.stdout.print(f"size     {size}", highlight=False)


@app.command("clear")
def clear(json_output: bool = JSON_OPTION) -> None:
    """Delete every cached model response."""
    store = ResponseCache()
    removed = store.clear()
    if json_output:
        console.emit_json({"path": str(store.path), "removed": removed})
        return
    console.stdout.print(f"removed {removed} cached completion(s) from {store.path}", highlight=False, soft_wrap=True)
