"""Fine-tuning data from Socratic dialogues: each instructor turn becomes one SFT pair, the dialogue so far (in the
exact prompt a model-backed instructor sends) -> the instructor's next utterances.

With ``zero-shot`` (the benchmark's "generate all" mode) the target is every reference utterance of the turn (the
main one and its alternatives) as the numbered list the prompt asks for; with ``single`` it is the main utterance.
Prompts come from :func:`debugtutor.socratic.prompts.build_messages`, so a model tuned on these pairs is evaluated
with ``socratic eval --instructor zero-shot|single --model BASE+lora:OUT`` on the very layout it learned.
Problems of the evaluation folders named in ``exclude`` (matched by their statement) are left out and counted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from debugtutor.socratic.dataset import EvaluationExample
from debugtutor.socratic.prompts import PromptStyle, build_messages
from debugtutor.tune import SFTExample, Turn

FinetuneMode = Literal["zero-shot", "single"]


@dataclass
class FinetuneData:
    examples: list[SFTExample]
    excluded: int = 0
    excluded_problems: list[str] = field(default_factory=list)


def training_folder(data: Path) -> Path:
    """The training split inside a copy of the benchmark (``v2_sigcse/train``), else the folder itself."""
    for candidate in (data / "v2_sigcse" / "train", data / "train"):
        if candidate.is_dir():
            return candidate
    return data


def _problem_key(text: str) -> str:
    return " ".join(text.lower().split())


def target_text(example: EvaluationExample, mode: FinetuneMode) -> str:
    """What the instructor says next: the numbered reference list (zero-shot) or the main utterance (single)."""
    if mode == "single":
        return example.references[0]
    unique = list(dict.fromkeys(reference.strip() for reference in example.references if reference.strip()))
    return "\n".join(f"{number}. {text}" for number, text in enumerate(unique, start=1))


def finetune_examples(
    examples: Sequence[EvaluationExample],
    *,
    mode: FinetuneMode = "zero-shot",
    style: PromptStyle = "ours",
    exclude: Sequence[EvaluationExample] = (),
) -> FinetuneData:
    """SFT pairs for ``examples``, leaving out every turn whose problem appears among ``exclude``."""
    excluded_keys = {_problem_key(example.problem) for example in exclude}
    pairs: list[SFTExample] = []
    dropped: set[str] = set()
    count = 0
    for example in examples:
        if _problem_key(example.problem) in excluded_keys:
            count += 1
            dropped.add(example.problem_id)
            continue
        messages = build_messages(example, "single" if mode == "single" else "multiple", style=style)
        pairs.append(SFTExample(
            id=example.id,
            prompt=[Turn(role=message.role, content=message.content) for message in messages],
            completion=[Turn(role="assistant", content=target_text(example, mode))],
            metadata={"problem_id": example.problem_id, "bug_id": example.bug_id, "turn": example.turn_index},
        ))  # fmt: skip
    return FinetuneData(examples=pairs, excluded=count, excluded_problems=sorted(dropped))
