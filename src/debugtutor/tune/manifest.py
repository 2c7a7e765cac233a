"""The manifest written beside every adapter: what was trained, from what, on which data, how, and what it cost.

It makes a tuned model reproducible and comparable: the base model spec and the files it resolved to, the data's
sha256 (over the examples' content, so the same examples in another file give the same hash), every
hyper-parameter, the library versions, and the measured training facts (steps, tokens, wall time, throughput,
loss). ``read_manifest`` is how other parts (the ``+lora:`` model spec, reports) read it back.
"""

from __future__ import annotations

import importlib.metadata
import platform
from pathlib import Path

from pydantic import BaseModel, ValidationError

from debugtutor.errors import InputError, read_text
from debugtutor.tune.settings import TrainSettings

MANIFEST_FILE = "debugtutor-adapter.json"
_LIBRARIES = ("debugtutor", "torch", "transformers", "peft", "trl", "datasets", "accelerate")


class DataRecord(BaseModel):
    label: str = ""
    """Where the examples came from (a file, or a data folder and strategy)."""
    sha256: str
    examples: int


class TrainingFacts(BaseModel):
    steps: int
    resumed_from_step: int = 0
    examples: int
    """Examples trained on (after leaving out the over-long ones)."""
    left_out_too_long: int = 0
    tokens_per_epoch: int
    answer_tokens_per_epoch: int
    session_tokens: int
    """Non-padding tokens the last training session processed (a resumed run counts only its own part)."""
    session_wall_s: float
    tokens_per_s: float
    train_loss: float
    first_loss: float | None = None
    last_loss: float | None = None
    device: str
    world_size: int = 1
    trainable_parameters: int


class AdapterManifest(BaseModel):
    base: str
    base_files: str
    plain_base: str
    """The unquantised transformers folder the adapter was trained on (and is applied to)."""
    data: DataRecord
    settings: TrainSettings
    chat_template: str | None = None
    training: TrainingFacts
    versions: dict[str, str]


def library_versions() -> dict[str, str]:
    """Installed versions of the libraries a training run depends on, plus Python's."""
    versions = {"python": platform.python_version()}
    for name in _LIBRARIES:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def read_manifest(folder: Path) -> AdapterManifest:
    """The manifest of an adapter folder written by :func:`debugtutor.tune.train_lora`."""
    path = folder / MANIFEST_FILE
    text = read_text(path)
    try:
        return AdapterManifest.model_validate_json(text)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise InputError(first["msg"], path=str(path), field=".".join(str(p) for p in first["loc"])) from exc
