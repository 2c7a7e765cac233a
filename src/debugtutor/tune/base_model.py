"""The base model a fine-tuning starts from: a model spec resolved to a plain transformers folder, and loading it.

Trainable bases are local transformers models: ``hf:PATH`` (a ``save_pretrained`` folder), ``hf:PATH#FILE.gguf`` and
``local:smollm2`` (a GGUF file). transformers loads a GGUF file by dequantising it, but marks the result as a
quantized model, which the trainer refuses to train; so a GGUF base is dequantised once into a plain folder
(:func:`debugtutor.llm.plain_gguf.plain_folder`), which both training and the tuned model's back-end load.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from debugtutor.errors import InputError, require
from debugtutor.llm.plain_gguf import LOAD_ERRORS, load_failure, quiet_transformers
from debugtutor.llm.plain_gguf import plain_folder as plain_gguf_folder

TRAINABLE_SPECS = "hf:PATH, hf:PATH#FILE.gguf or local:smollm2"


@dataclass(frozen=True)
class BaseSource:
    """Where a base model's weights are: a transformers folder, and the GGUF file in it when there is one."""

    spec: str
    folder: Path
    gguf_file: str | None = None


def resolve_base(spec: str) -> BaseSource:
    """The local files a trainable model spec names, or an :class:`InputError` saying which specs can be trained."""
    name, colon, target = spec.strip().partition(":")
    if not colon:
        raise InputError(f"{spec!r} is not a model spec; a base to fine-tune is {TRAINABLE_SPECS}", field="base")
    if "+lora:" in target:
        raise InputError(f"{spec!r} already carries an adapter; train from its base model instead", field="base")
    if name == "local":
        from debugtutor.llm.hf_backend import resolve_smollm2

        if target.lower() != "smollm2":
            raise InputError(f"unknown local model {target!r}; known: smollm2", field="base")
        target = resolve_smollm2()
    elif name != "hf":
        raise InputError(
            f"cannot fine-tune {spec!r}: training needs a local transformers model ({TRAINABLE_SPECS})", field="base"
        )
    folder_text, hash_sign, gguf_file = target.partition("#")
    folder = Path(folder_text).expanduser()
    if not folder_text or not folder.is_dir():
        raise InputError("model folder not found", path=str(folder), field="base")
    if hash_sign:
        if not (folder / gguf_file).is_file():
            raise InputError("GGUF file not found", path=str(folder / gguf_file), field="base")
        return BaseSource(spec=spec, folder=folder, gguf_file=gguf_file)
    if not (folder / "config.json").is_file():
        raise InputError("no config.json in the model folder (is it a save_pretrained folder?)", path=str(folder),
                         field="base", hint="for a GGUF file write hf:FOLDER#FILE.gguf")  # fmt: skip
    return BaseSource(spec=spec, folder=folder)


def _load_failure(source: BaseSource, exc: Exception) -> InputError:
    return load_failure(source.folder / source.gguf_file if source.gguf_file else source.folder, exc)


def plain_folder(source: BaseSource) -> Path:
    """A transformers folder holding the base's weights unquantised (the source folder itself for non-GGUF bases)."""
    if source.gguf_file is None:
        return source.folder
    return plain_gguf_folder(source.folder, source.gguf_file)


def load_tokenizer(folder: Path, source: BaseSource) -> Any:
    transformers = quiet_transformers("fine-tuning")
    try:
        tokenizer = transformers.AutoTokenizer.from_pretrained(str(folder))
    except LOAD_ERRORS as exc:
        raise _load_failure(source, exc) from exc
    if tokenizer.pad_token_id is None:
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer


def load_model(folder: Path, source: BaseSource, *, dtype: str = "float32") -> Any:
    transformers = quiet_transformers("fine-tuning")
    torch: Any = require("torch", feature="fine-tuning", extra="hf")
    try:
        return transformers.AutoModelForCausalLM.from_pretrained(str(folder), dtype=getattr(torch, dtype))
    except LOAD_ERRORS as exc:
        raise _load_failure(source, exc) from exc
