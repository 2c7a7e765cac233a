"""The fine-tuning options every training command offers, defined once (``master train``, ``master ablation``,
``socratic finetune``): the hyper-parameters of :class:`~debugtutor.tune.settings.TrainSettings` (the paper's values
as defaults) and how the run is carried out (device, chat template, restart, checkpoints).

Decorate a Typer command with :func:`with_train_options` and take ``train_options: TrainOptions``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Optional, TypeVar

import typer

from debugtutor.cli.run_options import with_option_group
from debugtutor.errors import InputError
from debugtutor.tune.settings import TrainSettings

_DEFAULTS = TrainSettings()


@dataclasses.dataclass
class TrainOptions:
    """The user's training settings and run choices."""

    learning_rate: float = _DEFAULTS.learning_rate
    epochs: float = _DEFAULTS.epochs
    batch_size: int = _DEFAULTS.batch_size
    grad_accumulation: int = _DEFAULTS.grad_accumulation
    warmup_steps: int = _DEFAULTS.warmup_steps
    max_length: int = _DEFAULTS.max_length
    lora_rank: int = _DEFAULTS.lora_rank
    lora_alpha: int = _DEFAULTS.lora_alpha
    lora_dropout: float = _DEFAULTS.lora_dropout
    lora_targets: str = _DEFAULTS.lora_targets
    save_steps: int = _DEFAULTS.save_steps
    seed: int = _DEFAULTS.seed
    precision: str = _DEFAULTS.precision
    group_by_length: bool = _DEFAULTS.group_by_length
    device: str | None = None
    chat_template: Path | None = None
    restart: bool = False
    keep_checkpoints: bool = False

    def settings(self) -> TrainSettings:
        from pydantic import ValidationError

        fields = {name: getattr(self, name) for name in TrainSettings.model_fields if hasattr(self, name)}
        try:
            return TrainSettings(**fields)
        except ValidationError as exc:
            first = exc.errors()[0]
            raise InputError(str(first["msg"]), field=f"--{str(first['loc'][0]).replace('_', '-')}") from exc

    def run_kwargs(self) -> dict[str, Any]:
        if self.device not in (None, "cpu", "cuda"):
            raise InputError(f"unknown device {self.device!r}", field="--device", hint="cpu or cuda")
        return {"chat_template": self.chat_template, "restart": self.restart,
                "keep_checkpoints": self.keep_checkpoints, "device": self.device}  # fmt: skip


def _option(flag: str, kind: Any, help_text: str, **extra: Any) -> Any:
    return Annotated[kind, typer.Option(flag, help=help_text, **extra)]


_OPTIONS: list[tuple[str, Any, Any]] = [
    ("learning_rate", _option("--lr", float, "Learning rate (paper: 2e-5).", min=0.0), _DEFAULTS.learning_rate),
    ("epochs", _option("--epochs", float, "Epochs (paper: 1).", min=0.0), _DEFAULTS.epochs),
    ("batch_size", _option("--batch-size", int, "Examples per device per step (paper: 8).", min=1),
     _DEFAULTS.batch_size),
    ("grad_accumulation", _option("--grad-accum", int, "Gradient accumulation steps (paper: 4).", min=1),
     _DEFAULTS.grad_accumulation),
    ("warmup_steps", _option("--warmup-steps", int, "Linear warm-up steps (paper: 30).", min=0),
     _DEFAULTS.warmup_steps),
    ("max_length", _option("--max-length", int, "Tokens per example; longer ones are left out (paper: 2048).",
                           min=16), _DEFAULTS.max_length),
    ("lora_rank", _option("--lora-rank", int, "LoRA rank.", min=1), _DEFAULTS.lora_rank),
    ("lora_alpha", _option("--lora-alpha", int, "LoRA alpha.", min=1), _DEFAULTS.lora_alpha),
    ("lora_dropout", _option("--lora-dropout", float, "LoRA dropout.", min=0.0, max=0.99), _DEFAULTS.lora_dropout),
    ("lora_targets", _option("--lora-targets", str, "all-linear, or comma-separated module names (q_proj,v_proj)."),
     _DEFAULTS.lora_targets),
    ("save_steps", _option("--save-steps", int, "Optimizer steps between checkpoints.", min=1), _DEFAULTS.save_steps),
    ("seed", _option("--seed", int, "Seed of data order, initialisation and dropout."), _DEFAULTS.seed),
    ("precision", _option("--precision", str, "auto (bf16/fp16 on a GPU, fp32 on a CPU), fp32, bf16 or fp16."),
     _DEFAULTS.precision),
    ("group_by_length", _option("--group-by-length", bool, "Batch examples of similar length (less padding)."),
     _DEFAULTS.group_by_length),
    ("device", _option("--device", Optional[str], "cpu or cuda \\[default: cuda when torch sees a GPU].",  # noqa: UP045
                       show_default=False), None),
    ("chat_template", _option("--chat-template", Optional[Path],  # noqa: UP045
                              "A Jinja chat template file, for a base model that has none."), None),
    ("restart", _option("--restart", bool, "Discard checkpoints of an earlier run into the same --out."), False),
    ("keep_checkpoints", _option("--keep-checkpoints", bool, "Keep OUT.checkpoints/ after training."), False),
]  # fmt: skip

CommandT = TypeVar("CommandT", bound=Callable[..., Any])


def with_train_options(command: CommandT) -> CommandT:
    """Add the training options to a Typer command taking ``train_options: TrainOptions``."""
    return with_option_group(command, "train_options", TrainOptions, _OPTIONS)
