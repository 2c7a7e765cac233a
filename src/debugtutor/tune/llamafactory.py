"""A LLaMA-Factory training config for the same run, for users who train with LLaMA-Factory instead of debugtutor.

LLaMA-Factory (what the DebugEval/MASTER paper used) reads datasets registered in a ``dataset_info.json`` and a YAML
file of training arguments. :func:`llamafactory_yaml` writes that YAML with the settings of a
:class:`~debugtutor.tune.settings.TrainSettings`; the dataset names are those of the ``dataset_info.json`` beside it.
"""

from __future__ import annotations

from debugtutor.tune.settings import TrainSettings


def _number(value: float) -> str:
    return f"{value:.1e}" if 0 < abs(value) < 1e-3 else f"{value:g}"


def llamafactory_yaml(
    *,
    dataset: str,
    dataset_dir: str,
    output_dir: str,
    settings: TrainSettings | None = None,
    model: str = "PATH_OR_HUB_ID_OF_THE_BASE_MODEL",
    template: str = "TEMPLATE_OF_THE_BASE_MODEL",
) -> str:
    """The text of a LLaMA-Factory ``llamafactory-cli train`` config for LoRA SFT on ``dataset``."""
    settings = settings or TrainSettings()
    target = "all" if settings.lora_targets == "all-linear" else settings.lora_targets
    lines = [
        "# LoRA SFT with LLaMA-Factory: llamafactory-cli train THIS_FILE",
        "# Written by debugtutor with the same settings as `debugtutor master train` (the DebugEval/MASTER paper's).",
        "# Set model_name_or_path and template (LLaMA-Factory's name for the base model's chat format, e.g. llama3).",
        "",
        "### model",
        f"model_name_or_path: {model}",
        "",
        "### method",
        "stage: sft",
        "do_train: true",
        "finetuning_type: lora",
        f"lora_target: {target}",
        f"lora_rank: {settings.lora_rank}",
        f"lora_alpha: {settings.lora_alpha}",
        f"lora_dropout: {_number(settings.lora_dropout)}",
        "",
        "### dataset",
        f"dataset: {dataset}",
        f"dataset_dir: {dataset_dir}",
        f"template: {template}",
        f"cutoff_len: {settings.max_length}",
        "val_size: 0",
        "",
        "### output",
        f"output_dir: {output_dir}",
        "logging_steps: 10",
        "save_strategy: epoch",
        "",
        "### train",
        f"per_device_train_batch_size: {settings.batch_size}",
        f"gradient_accumulation_steps: {settings.grad_accumulation}",
        f"learning_rate: {_number(settings.learning_rate)}",
        f"num_train_epochs: {_number(settings.epochs)}",
        f"lr_scheduler_type: {settings.scheduler}",
        f"warmup_steps: {settings.warmup_steps}",
        f"optim: {settings.optimizer}",
        f"seed: {settings.seed}",
        "bf16: true",
    ]
    return "\n".join(lines) + "\n"
