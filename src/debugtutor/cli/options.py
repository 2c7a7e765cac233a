"""The model options every command that calls a model offers, defined once: ``--timeout --max-retries
--max-tokens --temperature``, and the one place a model spec becomes a back-end for the CLI.

Decorate a command with :func:`with_model_options` and take ``model_options: ModelOptions``; then
``model_options.resolve(spec)`` gives the back-end with the user's settings applied (timeouts and retries for remote
models, generation overrides for all), and ``model_options.describe(backend)`` what a run's manifest records.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Annotated, Any, Optional, TypeVar

import typer

from debugtutor.cli.run_options import with_option_group
from debugtutor.errors import InputError
from debugtutor.llm import ModelBackend, get_model
from debugtutor.llm.cache import CachePolicy

# Optional[...] rather than "X | None": these aliases are evaluated at run time by Typer, on Python 3.10 too.
TimeoutOption = Annotated[
    Optional[float],  # noqa: UP045
    typer.Option(
        "--timeout",
        min=0.001,
        metavar="SECONDS",
        help="Seconds one model call may take before it counts as failed and is retried "
        "\\[default: $DEBUGTUTOR_MODEL_TIMEOUT or 60].",
        show_default=False,
    ),
]
MaxRetriesOption = Annotated[
    Optional[int],  # noqa: UP045
    typer.Option(
        "--max-retries",
        min=0,
        help="Retries of a failed model call (429, 5xx, timeouts, refused connections) "
        "\\[default: $DEBUGTUTOR_MODEL_MAX_RETRIES or 3].",
        show_default=False,
    ),
]
MaxTokensOption = Annotated[
    Optional[int],  # noqa: UP045
    typer.Option("--max-tokens", min=1, help="Upper bound on generated tokens per completion \\[default: the task's].",
                 show_default=False),
]  # fmt: skip
TemperatureOption = Annotated[
    Optional[float],  # noqa: UP045
    typer.Option("--temperature", min=0.0, max=2.0, help="Sampling temperature, 0 is greedy \\[default: the task's].",
                 show_default=False),
]  # fmt: skip


@dataclasses.dataclass
class ModelOptions:
    """The user's settings for every model a command calls."""

    timeout_s: float | None = None
    max_retries: int | None = None
    max_tokens: int | None = None
    temperature: float | None = None

    def resolve(self, spec: str, *, cache: CachePolicy | str | bool | None = None, **options: Any) -> ModelBackend:
        """The back-end ``spec`` names, with these settings applied."""
        return get_model(
            spec,
            cache=cache,
            timeout_s=self.timeout_s,
            max_retries=self.max_retries,
            max_tokens=self.max_tokens,
            temperature=self.temperature,
            **options,
        )


_MODEL_OPTIONS: list[tuple[str, Any, Any]] = [
    ("timeout_s", TimeoutOption, None),
    ("max_retries", MaxRetriesOption, None),
    ("max_tokens", MaxTokensOption, None),
    ("temperature", TemperatureOption, None),
]

CommandT = TypeVar("CommandT", bound=Callable[..., Any])
ChoiceT = TypeVar("ChoiceT", bound=str)


def one_of(value: str, choices: tuple[ChoiceT, ...], *, option: str) -> ChoiceT:
    """``value`` as one of ``choices`` (a tuple of literals, so the result keeps their type), or the one-line
    InputError naming the option and the choices."""
    for choice in choices:
        if value == choice:
            return choice
    noun = option.lstrip("-").replace("-", " ")
    raise InputError(f"unknown {noun} {value!r}", field=option, hint=" or ".join(choices))


def with_model_options(command: CommandT) -> CommandT:
    """Add ``--timeout --max-retries --max-tokens --temperature`` to a command taking ``model_options``."""
    return with_option_group(command, "model_options", ModelOptions, _MODEL_OPTIONS)
