"""LoRA supervised fine-tuning of a causal language model through peft and TRL, on CPU or CUDA with one command.

:func:`train_lora` formats each example with the tokenizer's chat template, masks the prompt so only the answer's
tokens carry a loss, trains a LoRA adapter with TRL's ``SFTTrainer`` and writes the adapter with a manifest
(:mod:`debugtutor.tune.manifest`). The same code runs on a CPU, one GPU, or several through ``accelerate launch``
(the Trainer picks up the distributed state accelerate sets up).

Layout of ``out`` (the adapter folder that ``+lora:OUT`` model specs name):

* ``OUT/`` appears only when training has finished: adapter weights and config, the tokenizer, the manifest. It is
  built beside the target and renamed into place, so a killed run never leaves a half-written adapter;
* ``OUT.checkpoints/`` holds checkpoints every ``save_steps`` optimizer steps while training. A rerun with the same
  base, data and settings resumes from the newest complete one (a checkpoint counts as complete once the Trainer's
  save returned and our marker is written, so one cut short by ``kill -9`` is skipped and deleted). It is removed
  after a successful run unless asked to keep it.
"""

from __future__ import annotations

import json
import shutil
import time
import warnings
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from debugtutor.atomic_files import building_folder, remove_stale_builds, write_json_atomic
from debugtutor.console import log, progress, warn
from debugtutor.errors import InputError, read_text, require
from debugtutor.llm.hf_backend import _quiet_tqdm
from debugtutor.tune.base_model import BaseSource, load_model, load_tokenizer, plain_folder, resolve_base
from debugtutor.tune.examples import SFTExample, examples_checksum
from debugtutor.tune.manifest import MANIFEST_FILE, AdapterManifest, DataRecord, TrainingFacts, library_versions
from debugtutor.tune.settings import TrainSettings

_COMPLETE_MARKER = "debugtutor-complete"
_RUN_FILE = "debugtutor-run.json"


@dataclass
class TokenizedExample:
    input_ids: list[int]
    labels: list[int]

    @property
    def answer_tokens(self) -> int:
        return sum(1 for label in self.labels if label != -100)


def checkpoints_dir(out: Path) -> Path:
    """Where the checkpoints of a run writing ``out`` live."""
    return out.with_name(out.name + ".checkpoints")


def _chat_ids(tokenizer: Any, messages: list[dict[str, str]], *, generation_prompt: bool) -> list[int]:
    encoded = tokenizer.apply_chat_template(
        messages, tokenize=True, add_generation_prompt=generation_prompt, return_dict=True
    )
    ids = encoded["input_ids"]
    return list(ids[0] if ids and isinstance(ids[0], list) else ids)


def tokenize_examples(
    tokenizer: Any, examples: Sequence[SFTExample], max_length: int
) -> tuple[list[TokenizedExample], list[str]]:
    """Token ids with labels masked to the answer, and the ids of examples left out as longer than ``max_length``.

    The answer starts where the tokenized prompt (with the template's generation prompt) and the tokenized whole
    conversation part ways; with most templates that is exactly the end of the prompt.
    """
    kept: list[TokenizedExample] = []
    too_long: list[str] = []
    for example in examples:
        prompt = [turn.model_dump() for turn in example.prompt]
        prompt_ids = _chat_ids(tokenizer, prompt, generation_prompt=True)
        full_ids = _chat_ids(tokenizer, example.messages(), generation_prompt=False)
        shared = 0
        for a, b in zip(prompt_ids, full_ids):
            if a != b:
                break
            shared += 1
        if len(full_ids) > max_length:
            too_long.append(example.id)
            continue
        if shared >= len(full_ids):
            raise InputError(f"example {example.id!r}: the chat template renders no answer tokens", field="completion")
        kept.append(TokenizedExample(input_ids=full_ids, labels=[-100] * shared + full_ids[shared:]))
    return kept, too_long


def _check_chat_template(tokenizer: Any, source: BaseSource, chat_template: Path | None) -> str | None:
    if chat_template is not None:
        tokenizer.chat_template = read_text(chat_template)
        return str(chat_template)
    if not getattr(tokenizer, "chat_template", None):
        raise InputError(
            f"the base model {source.spec} has no chat template, so prompts and answers cannot be formatted",
            field="base",
            hint="give one with --chat-template FILE (a Jinja chat template), or start from an instruct model",
        )
    return None


def _latest_complete_checkpoint(folder: Path) -> Path | None:
    """The newest checkpoint whose save finished; incomplete ones (cut short by a kill) are deleted."""
    if not folder.is_dir():
        return None
    complete: list[tuple[int, Path]] = []
    for candidate in folder.glob("checkpoint-*"):
        step = candidate.name.removeprefix("checkpoint-")
        if not step.isdigit():
            continue
        if (candidate / _COMPLETE_MARKER).is_file():
            complete.append((int(step), candidate))
        else:
            shutil.rmtree(candidate, ignore_errors=True)
    return max(complete)[1] if complete else None


def _run_identity(source: BaseSource, settings: TrainSettings, data_checksum: str, chat_template: str | None) -> dict:
    return {
        "base": source.spec,
        "data_sha256": data_checksum,
        "settings": settings.model_dump(mode="json"),
        "chat_template": chat_template,
    }


def _prepare_checkpoints(folder: Path, identity: dict[str, Any], *, restart: bool) -> Path | None:
    """Check that checkpoints found belong to this run; return the one to resume from, if any."""
    run_file = folder / _RUN_FILE
    if restart and folder.exists():
        shutil.rmtree(folder)
    if folder.exists() and run_file.is_file():
        recorded = json.loads(read_text(run_file))
        if recorded != identity:
            changed = sorted(key for key in identity if recorded.get(key) != identity[key])
            raise InputError(
                f"holds checkpoints of a run with a different {', '.join(changed)}",
                path=str(folder),
                hint="pass --restart to discard them, or train with the same base, data and settings to resume",
            )
    folder.mkdir(parents=True, exist_ok=True)
    write_json_atomic(run_file, identity)
    return _latest_complete_checkpoint(folder)


def _precision(settings: TrainSettings, cuda: bool) -> dict[str, bool]:
    if settings.precision == "auto":
        if cuda:
            torch: Any = require("torch", feature="fine-tuning", extra="hf")
            return {"bf16": bool(torch.cuda.is_bf16_supported()), "fp16": not torch.cuda.is_bf16_supported()}
        return {"bf16": False, "fp16": False}
    if settings.precision in ("bf16", "fp16") and not cuda:
        raise InputError(f"{settings.precision} training needs a GPU; use --precision fp32 or auto on a CPU",
                         field="precision")  # fmt: skip
    return {"bf16": settings.precision == "bf16", "fp16": settings.precision == "fp16"}


def _callbacks(transformers: Any, total_steps: int, description: str) -> list[Any]:
    """A progress bar on stderr and the marker that makes a saved checkpoint count as complete."""

    class DebugtutorCallbacks(transformers.TrainerCallback):
        def __init__(self) -> None:
            self.stack = ExitStack()
            self.bar: Any = None

        def on_train_begin(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
            self.bar = self.stack.enter_context(progress(description, total_steps))
            if state.global_step:
                self.bar.advance(state.global_step)

        def on_step_end(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
            if self.bar is not None:
                self.bar.advance()

        def on_log(self, args: Any, state: Any, control: Any, logs: Any = None, **kwargs: Any) -> None:
            if logs and "loss" in logs and (state.global_step % 10 == 0 or state.global_step == state.max_steps):
                log(f"step {state.global_step}/{state.max_steps}: loss {float(logs['loss']):.4f}")

        def on_save(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
            folder = Path(args.output_dir) / f"checkpoint-{state.global_step}"
            if folder.is_dir():
                (folder / _COMPLETE_MARKER).write_text(str(state.global_step))

        def on_train_end(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
            self.stack.close()

    return [DebugtutorCallbacks()]


def train_lora(
    base: str,
    examples: Sequence[SFTExample],
    out: Path,
    settings: TrainSettings | None = None,
    *,
    data_label: str = "",
    chat_template: Path | None = None,
    restart: bool = False,
    keep_checkpoints: bool = False,
    device: str | None = None,
    extra_callbacks: Sequence[Any] = (),
) -> AdapterManifest:
    """Fine-tune ``base`` (a model spec) on ``examples`` with LoRA and write the adapter to ``out``.

    ``device`` is ``cpu`` or ``cuda`` (default: CUDA when available). ``extra_callbacks`` are further
    ``transformers.TrainerCallback`` objects. Returns the manifest written beside the adapter.
    """
    settings = settings or TrainSettings()
    if not examples:
        raise InputError("there are no training examples", field="data")
    torch: Any = require("torch", feature="fine-tuning", extra="hf")
    transformers: Any = require("transformers", feature="fine-tuning", extra="hf")
    peft: Any = require("peft", feature="fine-tuning", extra="hf")
    trl: Any = require("trl", feature="fine-tuning", extra="hf")
    datasets: Any = require("datasets", feature="fine-tuning", extra="hf")
    cuda = torch.cuda.is_available() if device is None else device == "cuda"
    if cuda and not torch.cuda.is_available():
        raise InputError("--device cuda asked for, but torch sees no GPU", field="device")

    datasets.disable_progress_bars()  # tqdm reads TQDM_DISABLE only when imported
    warnings.filterwarnings("ignore", category=FutureWarning, module="transformers")
    source = resolve_base(base)
    folder = plain_folder(source)
    tokenizer = load_tokenizer(folder, source)
    template_file = _check_chat_template(tokenizer, source, chat_template)
    tokenized, too_long = tokenize_examples(tokenizer, examples, settings.max_length)
    if too_long:
        warn(f"{len(too_long)} of {len(examples)} example(s) are longer than {settings.max_length} tokens and are "
             "left out (raise --max-length to keep them)")  # fmt: skip
    if not tokenized:
        raise InputError(f"every example is longer than max_length={settings.max_length} tokens", field="data")
    data_checksum = examples_checksum(examples)
    identity = _run_identity(source, settings, data_checksum, template_file)
    remove_stale_builds(out.parent, out.name)
    resume_from = _prepare_checkpoints(checkpoints_dir(out), identity, restart=restart)

    model = load_model(folder, source)
    model.config.use_cache = False
    lora = peft.LoraConfig(
        r=settings.lora_rank, lora_alpha=settings.lora_alpha, lora_dropout=settings.lora_dropout,
        target_modules=settings.target_modules(), bias="none", task_type="CAUSAL_LM",
    )  # fmt: skip
    dataset = datasets.Dataset.from_list([{"input_ids": t.input_ids, "labels": t.labels} for t in tokenized])
    steps_per_epoch = -(-len(tokenized) // settings.effective_batch)
    total_steps = max(1, int(steps_per_epoch * settings.epochs + 0.999))
    arguments = trl.SFTConfig(
        output_dir=str(checkpoints_dir(out)),
        per_device_train_batch_size=settings.batch_size,
        gradient_accumulation_steps=settings.grad_accumulation,
        learning_rate=settings.learning_rate,
        num_train_epochs=settings.epochs,
        lr_scheduler_type=settings.scheduler,
        warmup_steps=settings.warmup_steps,
        weight_decay=settings.weight_decay,
        optim=settings.optimizer,
        seed=settings.seed,
        data_seed=settings.seed,
        max_length=settings.max_length,
        logging_steps=1,
        save_strategy="steps",
        save_steps=settings.save_steps,
        save_total_limit=2,
        report_to=[],
        disable_tqdm=True,
        use_cpu=not cuda,
        include_num_input_tokens_seen="non_padding",
        train_sampling_strategy="group_by_length" if settings.group_by_length else "random",
        dataloader_num_workers=0,
        **_precision(settings, cuda),
        **({"gradient_checkpointing": True} if settings.gradient_checkpointing else {}),
    )  # fmt: skip
    with _quiet_tqdm():
        trainer = trl.SFTTrainer(
            model=model, args=arguments, train_dataset=dataset, processing_class=tokenizer, peft_config=lora,
            callbacks=[*_callbacks(transformers, total_steps, f"fine-tuning {source.spec}"), *extra_callbacks],
        )  # fmt: skip
    # The Trainer prints every log dict on stdout when its own bar is off; stdout is for results only.
    trainer.remove_callback(transformers.PrinterCallback)
    started_step = 0
    if resume_from is not None:
        started_step = int(resume_from.name.removeprefix("checkpoint-"))
        log(f"resuming from {resume_from} (step {started_step} of {trainer.state.max_steps or total_steps})")
    started = time.perf_counter()
    with _quiet_tqdm():
        output = trainer.train(resume_from_checkpoint=str(resume_from) if resume_from is not None else None)
    wall_s = time.perf_counter() - started
    session_tokens = int(trainer.state.num_input_tokens_seen - getattr(trainer, "_initial_num_input_tokens_seen", 0))
    losses = [entry["loss"] for entry in trainer.state.log_history if "loss" in entry]

    facts = TrainingFacts(
        steps=int(trainer.state.global_step),
        resumed_from_step=started_step,
        examples=len(tokenized),
        left_out_too_long=len(too_long),
        tokens_per_epoch=sum(len(t.input_ids) for t in tokenized),
        answer_tokens_per_epoch=sum(t.answer_tokens for t in tokenized),
        session_tokens=session_tokens,
        session_wall_s=round(wall_s, 3),
        tokens_per_s=round(session_tokens / wall_s, 2) if wall_s > 0 else 0.0,
        train_loss=float(output.training_loss),
        first_loss=float(losses[0]) if losses else None,
        last_loss=float(losses[-1]) if losses else None,
        device="cuda" if cuda else "cpu",
        world_size=int(trainer.args.world_size),
        trainable_parameters=int(sum(p.numel() for p in trainer.model.parameters() if p.requires_grad)),
    )
    manifest = AdapterManifest(
        base=source.spec,
        base_files=str(source.folder / source.gguf_file) if source.gguf_file else str(source.folder),
        plain_base=str(folder),
        data=DataRecord(label=data_label, sha256=data_checksum, examples=len(examples)),
        settings=settings,
        chat_template=template_file,
        training=facts,
        versions=library_versions(),
    )
    if trainer.is_world_process_zero():
        with _quiet_tqdm(), building_folder(out) as building:
            trainer.model.save_pretrained(str(building))
            tokenizer.save_pretrained(str(building))
            write_json_atomic(building / MANIFEST_FILE, manifest.model_dump(mode="json"))
        if not keep_checkpoints:
            shutil.rmtree(checkpoints_dir(out), ignore_errors=True)
    return manifest
