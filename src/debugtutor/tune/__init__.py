"""Supervised fine-tuning of causal language models with LoRA (peft + TRL), on CPU or GPU with the same call.

A foundation: it imports no arena. Arenas turn their data into :class:`SFTExample` s (a chat prompt and the answer
to learn) and call :func:`train_lora`; the adapter it writes, with its manifest, is then a model like any other
through the ``+lora:DIR`` model spec suffix (``local:smollm2+lora:out/answer``, ``hf:BASE+lora:DIR``).

Heavy libraries (torch, transformers, peft, trl, datasets) load only when training starts.
"""

from debugtutor.tune.examples import SFTExample, Turn, examples_checksum, read_sft_file, write_sft_file
from debugtutor.tune.manifest import MANIFEST_FILE, AdapterManifest, read_manifest
from debugtutor.tune.settings import TrainSettings
from debugtutor.tune.trainer import train_lora

__all__ = [
    "MANIFEST_FILE",
    "AdapterManifest",
    "SFTExample",
    "TrainSettings",
    "Turn",
    "examples_checksum",
    "read_manifest",
    "read_sft_file",
    "train_lora",
    "write_sft_file",
]
