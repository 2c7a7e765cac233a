"""The knobs of a LoRA fine-tuning run, with the DebugEval/MASTER paper's values as defaults.

The paper fine-tuned NeuDebugger with LLaMA-Factory: LoRA on every linear layer (LLaMA-Factory's ``lora_target
all``, rank 8, alpha 16 = twice the rank, no dropout), learning rate 2e-5 with a cosine schedule and 30 warm-up
steps, one epoch, AdamW, batch 8 per device with 4 gradient-accumulation steps, sequences cut at 2,048 tokens
(``../reference/debugeval-format.md`` A6). Checkpoints are ours: every ``save_steps`` optimizer steps, so a killed
run resumes close to where it stopped.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

Precision = Literal["auto", "fp32", "bf16", "fp16"]


class TrainSettings(BaseModel):
    """Hyper-parameters of one run; every field is recorded in the adapter's manifest."""

    model_config = ConfigDict(frozen=True)

    learning_rate: float = Field(default=2e-5, gt=0)
    epochs: float = Field(default=1.0, gt=0)
    batch_size: int = Field(default=8, ge=1, description="Examples per device per forward pass.")
    grad_accumulation: int = Field(default=4, ge=1)
    optimizer: str = "adamw_torch"
    scheduler: str = "cosine"
    warmup_steps: int = Field(default=30, ge=0)
    weight_decay: float = Field(default=0.0, ge=0)
    max_length: int = Field(default=2048, ge=16, description="Tokens per example; longer examples are left out.")
    lora_rank: int = Field(default=8, ge=1)
    lora_alpha: int = Field(default=16, ge=1)
    lora_dropout: float = Field(default=0.0, ge=0, lt=1)
    lora_targets: str = Field(default="all-linear", description="'all-linear' or comma-separated module names.")
    seed: int = 42
    save_steps: int = Field(default=10, ge=1, description="Optimizer steps between checkpoints.")
    precision: Precision = "auto"
    gradient_checkpointing: bool = False
    group_by_length: bool = Field(default=False, description="Batch examples of similar length (less padding).")

    @field_validator("lora_targets")
    @classmethod
    def _targets(cls, value: str) -> str:
        names = [part.strip() for part in value.split(",") if part.strip()]
        if not names:
            raise ValueError("name at least one module, or all-linear")
        return ",".join(names)

    def target_modules(self) -> str | list[str]:
        return "all-linear" if self.lora_targets == "all-linear" else self.lora_targets.split(",")

    @property
    def effective_batch(self) -> int:
        """Examples per optimizer step on one device."""
        return self.batch_size * self.grad_accumulation
