"""Fixtures for the model back-end tests: a loopback OpenAI-compatible server and a tiny self-made HF model."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from debugtutor.llm.loopback_server import FaultPlan, LoopbackServer

ServerFactory = Callable[..., LoopbackServer]

# Short retry waits keep the retry tests fast while still going through tenacity's backoff.
FAST_RETRIES: dict[str, Any] = {"retry_initial_s": 0.01, "retry_max_s": 0.05, "max_retries": 3}


@pytest.fixture
def fast_retries() -> dict[str, Any]:
    return dict(FAST_RETRIES)


@pytest.fixture
def loopback_factory() -> Iterator[ServerFactory]:
    """Start loopback servers on free ports (``latency_s=``, ``faults=``); all are stopped after the test."""
    started: list[LoopbackServer] = []

    def start(*, latency_s: float = 0.0, faults: FaultPlan | None = None) -> LoopbackServer:
        server = LoopbackServer(latency_s=latency_s, faults=faults).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def loopback(loopback_factory: ServerFactory) -> LoopbackServer:
    """One fault-free loopback server answering at once."""
    return loopback_factory()


CHAT_TEMPLATE = (
    "{% for message in messages %}<|{{ message['role'] }}|> {{ message['content'] }} {% endfor %}"
    "{% if add_generation_prompt %}<|assistant|> {% endif %}"
)


def _build_tiny_model(folder: Path, *, chat_template: str | None) -> Path:
    """A 2-layer GPT-2 with random weights and a word-level tokenizer trained on a few strings."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

    corpus = [
        "hello world say hello to the student",
        "why does the loop stop one early",
        "user assistant system : the index is off by one",
    ]
    special = ["<unk>", "<eos>", "<|user|>", "<|assistant|>", "<|system|>"]
    tokenizer = Tokenizer(models.WordLevel(unk_token="<unk>"))
    tokenizer.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tokenizer.train_from_iterator(corpus, trainers.WordLevelTrainer(special_tokens=special))
    fast = PreTrainedTokenizerFast(tokenizer_object=tokenizer, unk_token="<unk>", eos_token="<eos>")
    if chat_template is not None:
        fast.chat_template = chat_template
    config = GPT2Config(
        vocab_size=fast.vocab_size,
        n_layer=2,
        n_embd=32,
        n_head=2,
        n_positions=256,
        eos_token_id=fast.eos_token_id,
        bos_token_id=fast.eos_token_id,
    )
    import torch

    torch.manual_seed(0)
    GPT2LMHeadModel(config).save_pretrained(folder)
    fast.save_pretrained(folder)
    return folder


@pytest.fixture(scope="session")
def tiny_hf_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny random causal LM folder whose tokenizer has a chat template."""
    return _build_tiny_model(tmp_path_factory.mktemp("tiny-chat"), chat_template=CHAT_TEMPLATE)


@pytest.fixture(scope="session")
def tiny_hf_model_plain(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same tiny model, but its tokenizer has no chat template (the plain prompt is used)."""
    return _build_tiny_model(tmp_path_factory.mktemp("tiny-plain"), chat_template=None)
