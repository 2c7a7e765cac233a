"""A GGUF model dequantised once into a plain transformers folder, for code that must load it unquantised.

transformers loads a GGUF file by dequantising it but marks the result as a quantized model, which trainers refuse
to train and peft adapters should not be applied to. :func:`plain_folder` therefore writes the same weights as float32
``safetensors`` plus the tokenizer under the debugtutor cache, keyed by the file's content hash; both fine-tuning
(:mod:`debugtutor.tune`) and a ``+lora:`` model's back-end load that folder. The folder is built under a temporary
name and renamed into place, so a killed conversion is redone, never half-used.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from debugtutor.atomic_files import building_folder, remove_stale_builds, write_json_atomic
from debugtutor.console import log
from debugtutor.errors import InputError, require
from debugtutor.userdirs import cache_dir

_COMPLETE = "debugtutor-plain-base.json"
LOAD_ERRORS = (OSError, ValueError, KeyError, RuntimeError, TypeError)
"""What transformers raises for a folder or file it cannot load as a model."""


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        while chunk := stream.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def quiet_transformers(feature: str) -> Any:
    """transformers, imported (a clear error naming ``feature`` when missing), offline and without progress bars."""
    transformers: Any = require("transformers", feature=feature, extra="hf")
    os.environ["HF_HUB_OFFLINE"] = "1"
    transformers.utils.logging.disable_progress_bar()
    transformers.utils.logging.set_verbosity_error()
    return transformers


def load_failure(where: Path, exc: Exception, field: str = "base") -> InputError:
    """The one-line error for a model that transformers could not load from ``where``."""
    reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return InputError(f"could not load a causal language model from it: {reason[:300]}", path=str(where), field=field)


def plain_folder(folder: Path, gguf_file: str) -> Path:
    """A transformers folder holding the weights of ``folder/gguf_file`` unquantised (made once, then reused)."""
    from debugtutor.llm.hf_backend import _quiet_tqdm

    gguf_path = folder / gguf_file
    key = file_sha256(gguf_path)[:16]
    parent = cache_dir("tune", "plain-bases")
    target = parent / f"{Path(gguf_file).stem}-{key}"
    if (target / _COMPLETE).is_file():
        return target
    remove_stale_builds(parent, target.name)
    transformers = quiet_transformers("loading GGUF files unquantised")
    require("gguf", feature="loading GGUF files", extra="hf")
    log(f"dequantising {gguf_path.name} once into {target} (later runs reuse it)")
    try:
        with _quiet_tqdm():
            tokenizer = transformers.AutoTokenizer.from_pretrained(str(folder), gguf_file=gguf_file)
            loaded = transformers.AutoModelForCausalLM.from_pretrained(str(folder), gguf_file=gguf_file)
    except LOAD_ERRORS as exc:
        raise load_failure(gguf_path, exc) from exc
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
