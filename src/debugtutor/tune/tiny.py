"""A tiny randomly initialised causal language model with a chat template: for dry runs and tests, no download.

``make_tiny_model(folder)`` writes a two-layer Llama (hidden size 32) and a character-level tokenizer with a
ChatML-style template to ``folder``, so ``hf:FOLDER`` is a model spec whose whole fine-tuning loop (train, save,
load with ``+lora:``, generate) runs in seconds on a CPU. It knows nothing: its answers are noise.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from debugtutor.errors import require

CHAT_TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
_SPECIAL = ["<pad>", "<eos>", "<unk>", "<|im_start|>", "<|im_end|>"]


def make_tiny_model(folder: Path, *, seed: int = 0, chat_template: bool = True) -> Path:
    """Write the tiny model and its tokenizer to ``folder`` (``chat_template=False`` leaves the template out)."""
    transformers: Any = require("transformers", feature="the tiny test model", extra="hf")
    tokenizers: Any = require("tokenizers", feature="the tiny test model", extra="hf")
    characters = [chr(code) for code in range(32, 127)] + ["\n", "\t"]
    vocab = {token: index for index, token in enumerate(_SPECIAL + characters)}
    model = tokenizers.Tokenizer(tokenizers.models.WordLevel(vocab=vocab, unk_token="<unk>"))
    model.pre_tokenizer = tokenizers.pre_tokenizers.Split("", "isolated")
    model.decoder = tokenizers.decoders.Fuse()
    model.add_special_tokens(["<|im_start|>", "<|im_end|>"])
    tokenizer = transformers.PreTrainedTokenizerFast(
        tokenizer_object=model, eos_token="<|im_end|>", pad_token="<pad>", unk_token="<unk>"
    )
    if chat_template:
        tokenizer.chat_template = CHAT_TEMPLATE
    config = transformers.LlamaConfig(
        vocab_size=len(vocab), hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
        num_key_value_heads=4, max_position_embeddings=8192, eos_token_id=vocab["<|im_end|>"],
        pad_token_id=vocab["<pad>"],
    )  # fmt: skip
    transformers.set_seed(seed)
    folder.mkdir(parents=True, exist_ok=True)
    transformers.LlamaForCausalLM(config).save_pretrained(str(folder))
    tokenizer.save_pretrained(str(folder))
    return folder
