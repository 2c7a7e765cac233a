"""LoRA fine-tuning on a tiny random model: answer-only loss, the adapter and its manifest, the +lora: model spec,
resuming after kill -9 to the same weights, and clear errors for bases and templates that cannot be used."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from debugtutor.errors import InputError
from debugtutor.tune import MANIFEST_FILE, SFTExample, TrainSettings, Turn, read_manifest, train_lora
from debugtutor.tune.base_model import resolve_base
from debugtutor.tune.trainer import checkpoints_dir, tokenize_examples

pytestmark = pytest.mark.hf

FAST = TrainSettings(batch_size=4, grad_accumulation=1, learning_rate=1e-2, warmup_steps=0, save_steps=3,
                     lora_dropout=0.1)  # fmt: skip


def _examples(count: int = 16) -> list[SFTExample]:
    return [SFTExample(id=str(i), prompt=[Turn(role="user", content=f"what is {i}+1?")],
                       completion=[Turn(role="assistant", content=f"<Answer>{i + 1}</Answer>")])
            for i in range(count)]  # fmt: skip


def _load_tokenizer(folder: Path):  # type: ignore[no-untyped-def]
    import transformers

    return transformers.AutoTokenizer.from_pretrained(str(folder))


def test_only_answer_tokens_carry_a_loss(tiny_base: Path) -> None:
    tokenizer = _load_tokenizer(tiny_base)
    (tokenized,), too_long = tokenize_examples(tokenizer, _examples(1), max_length=512)
    assert not too_long
    answer_ids = [token for token, label in zip(tokenized.input_ids, tokenized.labels) if label != -100]
    prompt_ids = [token for token, label in zip(tokenized.input_ids, tokenized.labels) if label == -100]
    # the answer is the assistant's text and the end-of-turn token, nothing of the question
    assert tokenizer.decode(answer_ids) == "<Answer>1</Answer><|im_end|>\n"
    assert "what is 0+1?" in tokenizer.decode(prompt_ids) and tokenizer.decode(prompt_ids).endswith("assistant\n")
    assert tokenized.labels[: len(prompt_ids)] == [-100] * len(prompt_ids)


def test_over_long_examples_are_left_out_and_all_too_long_is_an_error(tiny_base: Path, tmp_path: Path) -> None:
    tokenizer = _load_tokenizer(tiny_base)
    kept, too_long = tokenize_examples(tokenizer, _examples(3), max_length=30)
    assert not kept and too_long == ["0", "1", "2"]
    with pytest.raises(InputError, match="longer than max_length=30"):
        train_lora(f"hf:{tiny_base}", _examples(3), tmp_path / "out", FAST.model_copy(update={"max_length": 30}))
    assert not (tmp_path / "out").exists()


def test_training_writes_adapter_and_manifest_and_the_spec_loads(tiny_base: Path, tmp_path: Path) -> None:
    out = tmp_path / "adapter"
    manifest = train_lora(f"hf:{tiny_base}", _examples(), out, FAST, data_label="unit")
    assert (out / "adapter_config.json").is_file() and (out / "adapter_model.safetensors").is_file()
    assert read_manifest(out) == manifest
    assert manifest.base == f"hf:{tiny_base}" and manifest.data.examples == 16 and manifest.data.label == "unit"
    assert manifest.settings == FAST and manifest.training.steps == 4
    assert manifest.training.tokens_per_s > 0 and manifest.training.answer_tokens_per_epoch > 0
    assert {"torch", "transformers", "peft", "trl", "datasets", "accelerate"} <= set(manifest.versions)
    assert not checkpoints_dir(out).exists()  # removed after success
    from debugtutor.llm import GenerationSettings, get_model

    tuned = get_model(f"hf:{tiny_base}+lora:{out}", cache="no-cache")
    assert tuned.spec.startswith(f"hf:{tiny_base}+lora:{out}@") and len(tuned.spec.rsplit("@", 1)[1]) == 12
    assert isinstance(tuned.generate_sync("what is 3+1?", GenerationSettings(max_tokens=4)).text, str)
    with pytest.raises(InputError, match="adapter folder not found"):
        get_model(f"hf:{tiny_base}+lora:{tmp_path / 'absent'}")


def test_training_changes_what_the_model_predicts(tiny_base: Path, tmp_path: Path) -> None:
    import torch
    from safetensors.torch import load_file

    train_lora(f"hf:{tiny_base}", _examples(), tmp_path / "a", FAST.model_copy(update={"lora_dropout": 0.0}))
    weights = load_file(str(tmp_path / "a" / "adapter_model.safetensors"))
    lora_b = [tensor for name, tensor in weights.items() if "lora_B" in name]
    # LoRA's B matrices start at zero: any non-zero entry is learned
    assert lora_b and any(torch.count_nonzero(tensor) > 0 for tensor in lora_b)


def test_base_models_that_cannot_be_trained(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot fine-tune"):
        resolve_base("openai:gpt-4o-mini")
    with pytest.raises(InputError, match="not found"):
        resolve_base(f"hf:{tmp_path / 'absent'}")
    with pytest.raises(InputError, match=r"config\.json"):
        resolve_base(f"hf:{tmp_path}")
    with pytest.raises(InputError, match="already carries an adapter"):
        resolve_base(f"hf:{tmp_path}+lora:{tmp_path}")
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "config.json").write_text('{"model_type": "no-such-architecture"}')
    with pytest.raises(InputError, match="could not load"):
        train_lora(f"hf:{tmp_path / 'broken'}", _examples(2), tmp_path / "out", FAST)
    assert not (tmp_path / "out").exists()


def test_a_base_without_chat_template_is_refused_unless_one_is_given(tmp_path: Path) -> None:
    from debugtutor.tune.tiny import CHAT_TEMPLATE, make_tiny_model

    bare = make_tiny_model(tmp_path / "bare", chat_template=False)
    with pytest.raises(InputError, match="has no chat template"):
        train_lora(f"hf:{bare}", _examples(2), tmp_path / "out", FAST)
    assert not (tmp_path / "out").exists()
    template = tmp_path / "template.jinja"
    template.write_text(CHAT_TEMPLATE)
    manifest = train_lora(f"hf:{bare}", _examples(4), tmp_path / "out", FAST, chat_template=template)
    assert manifest.chat_template == str(template) and (tmp_path / "out" / MANIFEST_FILE).is_file()


_TRAIN_SCRIPT = """
import sys, time
from pathlib import Path
import transformers
from debugtutor.tune import SFTExample, TrainSettings, Turn, train_lora

class Slow(transformers.TrainerCallback):
    def on_step_end(self, args, state, control, **kwargs):
        time.sleep(float(sys.argv[3]))

examples = [SFTExample(id=str(i), prompt=[Turn(role="user", content=f"what is {i}+1?")],
                       completion=[Turn(role="assistant", content=f"<Answer>{i + 1}</Answer>")]) for i in range(40)]
settings = TrainSettings(batch_size=4, grad_accumulation=1, learning_rate=1e-2, warmup_steps=0, save_steps=3,
                         lora_dropout=0.1)
manifest = train_lora("hf:" + sys.argv[1], examples, Path(sys.argv[2]), settings, extra_callbacks=[Slow()])
print(manifest.training.resumed_from_step, manifest.training.steps)
"""


@pytest.mark.slow
def test_kill_9_then_resume_gives_the_same_adapter(tiny_base: Path, tmp_path: Path) -> None:
    from safetensors.torch import load_file

    script = tmp_path / "train.py"
    script.write_text(_TRAIN_SCRIPT)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    whole = subprocess.run([sys.executable, str(script), str(tiny_base), str(tmp_path / "whole"), "0"], env=env,
                           capture_output=True, text=True, check=True)  # fmt: skip
    assert whole.stdout.split() == ["0", "10"]
    killed = tmp_path / "killed"
    process = subprocess.Popen([sys.executable, str(script), str(tiny_base), str(killed), "0.5"], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    marker = checkpoints_dir(killed) / "checkpoint-6" / "debugtutor-complete"
    deadline = time.monotonic() + 240
    while not marker.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert marker.exists() and not killed.exists()  # killed mid-run: checkpoints, no adapter
    resumed = subprocess.run([sys.executable, str(script), str(tiny_base), str(killed), "0"], env=env,
                             capture_output=True, text=True, check=True)  # fmt: skip
    started, steps = (int(part) for part in resumed.stdout.split())
    assert started >= 6 and steps == 10
    first = load_file(str(tmp_path / "whole" / "adapter_model.safetensors"))
    second = load_file(str(killed / "adapter_model.safetensors"))
    assert first.keys() == second.keys()
    assert all(float((first[name] - second[name]).abs().max()) <= 1e-6 for name in first)
    assert json.loads((killed / MANIFEST_FILE).read_text())["training"]["resumed_from_step"] == started


def test_checkpoints_of_another_run_are_not_mixed_in(tiny_base: Path, tmp_path: Path) -> None:
    out = tmp_path / "adapter"
    folder = checkpoints_dir(out)
    folder.mkdir(parents=True)
    (folder / "debugtutor-run.json").write_text(json.dumps({"base": "hf:other", "data_sha256": "x", "settings": {},
                                                            "chat_template": None}))  # fmt: skip
    with pytest.raises(InputError, match="different base, data_sha256, settings"):
        train_lora(f"hf:{tiny_base}", _examples(4), out, FAST)
    manifest = train_lora(f"hf:{tiny_base}", _examples(4), out, FAST, restart=True)
    assert manifest.training.steps == 1
