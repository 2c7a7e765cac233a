"""The base model a fine-tuning starts from: a model spec resolved to a plain transformers folder, and loading it.

Trainable bases are local transformers models: ``hf:PATH`` (a ``save_pretrained`` folder), ``hf:PATH#FILE.gguf`` and
``local:smollm2`` (a GGUF file). transformers loads a GGUF file by dequantising it, but marks the result as a
quantized model, which the trainer refuses to train; so a GGUF base is dequantised once into a plain folder
(float32 ``safetensors`` plus the tokenizer) under the debugtutor cache, keyed by the file's content hash, and both
training and the tuned model's back-end load that folder. The conversion is written atomically, so a killed
conversion is redone, never half-used.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from debugtutor.console import log
from debugtutor.errors import InputError, require
from debugtutor.tune.files import building_folder, remove_stale_builds, write_json_atomic
from debugtutor.userdirs import cache_dir

TRAINABLE_SPECS = "hf:PATH, hf:PATH#FILE.gguf or local:smollm2"
_COMPLETE = "debugtutor-plain-base.json"


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


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        while chunk := stream.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _quiet_transformers() -> Any:
    transformers: Any = require("transformers", feature="fine-tuning", extra="hf")
    os.environ["HF_HUB_OFFLINE"] = "1"
    transformers.utils.logging.disable_progress_bar()
    transformers.utils.logging.set_verbosity_error()
    return transformers


def _load_failure(source: BaseSource, exc: Exception) -> InputError:
    where = source.folder / source.gguf_file if source.gguf_file else source.folder
    reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return InputError(f"could not load a causal language model from it: {reason[:300]}", path=str(where),
                      field="base")  # fmt: skip


def plain_folder(source: BaseSource) -> Path:
    """A transformers folder holding the base's weights unquantised (the source folder itself for non-GGUF bases)."""
    if source.gguf_file is None:
        return source.folder
    gguf_path = source.folder / source.gguf_file
    key = file_sha256(gguf_path)[:16]
    parent = cache_dir("tune", "plain-bases")
    target = parent / f"{Path(source.gguf_file).stem}-{key}"
    if (target / _COMPLETE).is_file():
        return target
    remove_stale_builds(parent, target.name)
    transformers = _quiet_transformers()
    require("gguf", feature="loading GGUF files", extra="hf")
    log(f"dequantising {gguf_path.name} once into {target} (later runs reuse it)")
    from debugtutor.llm.hf_backend import _quiet_tqdm

    try:
        with _quiet_tqdm():
            tokenizer = transformers.AutoTokenizer.from_pretrained(str(source.folder), gguf_file=source.gguf_file)
            loaded = transformers.AutoModelForCausalLM.from_pretrained(str(source.folder), gguf_file=source.gguf_file)
    except (OSError, ValueError, KeyError, RuntimeError, TypeError) as exc:
        raise _load_failure(source, exc) from exc
    # A fresh model from the config without its quantization entry: the same weights, no quantizer attached.
    settings = loaded.config.to_dict()
    settings.pop("quantization_config", None)
    config = type(loaded.config).from_dict(settings)
    plain = transformers.AutoModelForCausalLM.from_config(config)
    missing, unexpected = plain.load_state_dict(loaded.state_dict(), strict=False)
    tied = set(getattr(plain, "_tied_weights_keys", None) or [])
    if unexpected or [key for key in missing if key not in tied and not key.endswith("lm_head.weight")]:
        raise InputError(f"dequantised weights do not fit the model: missing {missing[:3]}, unexpected "
                         f"{unexpected[:3]}", path=str(gguf_path), field="base")  # fmt: skip
    plain.tie_weights()
    with building_folder(target) as building:
        plain.save_pretrained(str(building))
        tokenizer.save_pretrained(str(building))
        write_json_atomic(building / _COMPLETE, {"gguf": str(gguf_path), "sha256": key})
    return target


def load_tokenizer(folder: Path, source: BaseSource) -> Any:
    transformers = _quiet_transformers()
    try:
        tokenizer = transformers.AutoTokenizer.from_pretrained(str(folder))
    except (OSError, ValueError, KeyError, RuntimeError, TypeError) as exc:
        raise _load_failure(source, exc) from exc
    if tokenizer.pad_token_id is None:
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer


def load_model(folder: Path, source: BaseSource, *, dtype: str = "float32") -> Any:
    transformers = _quiet_transformers()
    torch: Any = require("torch", feature="fine-tuning", extra="hf")
    try:
        return transformers.AutoModelForCausalLM.from_pretrained(str(folder), dtype=getattr(torch, dtype))
    except (OSError, ValueError, KeyError, RuntimeError, TypeError) as exc:
        raise _load_failure(source, exc) from exc
