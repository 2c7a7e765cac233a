"""The ``debugtutor models`` command group: list the model providers and try a model on one prompt."""

from __future__ import annotations

import typer
from rich.table import Table

from debugtutor import console
from debugtutor.cli.options import ModelOptions, with_model_options
from debugtutor.errors import InputError
from debugtutor.llm import CachePolicy, GenerationSettings, providers
from debugtutor.llm.hf_backend import SMOLLM2_INSTALL, smollm2_gguf_path

app = typer.Typer(help="Model back-ends: list providers and spec syntax, try a model.", no_args_is_help=True)

JSON_OPTION = typer.Option(False, "--json", help="Print exactly one JSON object on stdout.")


@app.command("list")
def list_models(json_output: bool = JSON_OPTION) -> None:
    """List the providers, how to write a spec for each, the aliases, and whether each can run here."""
    rows = []
    for provider in providers():
        reason = provider.unavailable_reason()
        rows.append(
            {
                "provider": provider.name,
                "syntax": provider.syntax,
                "description": provider.description,
                "available": reason is None,
                "reason": reason,
            }
        )
    smollm2 = smollm2_gguf_path()
    aliases = [
        {
            "alias": "local:smollm2",
            "target": f"hf:{smollm2.parent}#{smollm2.name}" if smollm2 else None,
            "installed": smollm2 is not None,
            "install": SMOLLM2_INSTALL,
        }
    ]
    if json_output:
        console.emit_json({"providers": rows, "aliases": aliases})
        return
    table = Table(title="model providers")
    for column in ("provider", "spec syntax", "available here", "what it is"):
        table.add_column(column, overflow="fold")
    for row in rows:
        available = "yes" if row["available"] else f"no: {row['reason']}"
        table.add_row(str(row["provider"]), str(row["syntax"]), available, str(row["description"]))
    console.stdout.print(table)
    for alias in aliases:
        where = alias["target"] if alias["installed"] else f"not installed ({alias['install']})"
        console.stdout.print(f"alias {alias['alias']} -> {where}", highlight=False, soft_wrap=True)


_DEFAULT_MODEL_OPTIONS = ModelOptions()  # (replaced by the user's options: see with_model_options)


@app.command("try")
@with_model_options
def try_model(
    spec: str = typer.Argument(..., help="Model spec, e.g. openai:gpt-4o-mini, hf:PATH, local:smollm2."),
    prompt: str = typer.Argument(..., help="The user message to send."),
    system: str | None = typer.Option(None, "--system", help="A system message sent before the prompt."),
    n: int = typer.Option(1, "--n", min=1, help="How many completions."),
    top_p: float = typer.Option(1.0, "--top-p", min=0.0, max=1.0),
    seed: int | None = typer.Option(None, "--seed"),
    stop: list[str] | None = typer.Option(None, "--stop", help="A stop string (repeat for several)."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Neither read nor write the response cache."),
    cache_only: bool = typer.Option(False, "--cache-only", help="Answer from the cache only; fail on a miss."),
    json_output: bool = JSON_OPTION,
    model_options: ModelOptions = _DEFAULT_MODEL_OPTIONS,
) -> None:
    """Send one prompt to a model and print its completions (with usage, latency and whether it was cached)."""
    if no_cache and cache_only:
        raise InputError("--no-cache and --cache-only exclude each other", field="--cache-only")
    policy = CachePolicy.NO_CACHE if no_cache else CachePolicy.CACHE_ONLY if cache_only else None
    settings = GenerationSettings(n=n, top_p=top_p, max_tokens=256, stop=tuple(stop) if stop else None, seed=seed)
    model = model_options.resolve(spec, cache=policy)
    response = model.generate_sync(prompt, settings, system=system)
    if json_output:
        console.emit_json(response.model_dump(mode="json"))
        return
    for index, text in enumerate(response.texts):
        if len(response.texts) > 1:
            console.stdout.print(f"[bold]#{index + 1}[/bold]")
        console.stdout.print(text, highlight=False, markup=False, soft_wrap=True)
    console.log(
        f"{response.model}: {response.usage.prompt_tokens} prompt + {response.usage.completion_tokens} completion "
        f"tokens, {response.latency_s:.2f} s{' (cached)' if response.cached else ''}"
    )
