"""Supervised fine-tuning examples: a chat prompt and the answer the model should learn to give, read from JSONL.

One example is a conversation cut in two: ``prompt`` (system, user and earlier assistant turns) and ``completion``
(the assistant turn or turns to learn). Only the completion's tokens carry a loss. Two JSONL layouts are read, one
object per line:

* chat messages, ``{"messages": [...]}``: the completion is the run of assistant messages at the end;
* prompt and completion, ``{"prompt": [...], "completion": [...]}`` (TRL's conversational prompt-completion layout).

Either may carry an ``id`` and a ``metadata`` object. Every problem with a file (not JSON, no messages, a role that
is not system/user/assistant, no assistant answer, empty text) is an :class:`~debugtutor.errors.InputError` naming
the file and line, and an empty file is one too: training on nothing is never what was meant.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from debugtutor.errors import InputError, read_text

ROLES = ("system", "user", "assistant")


class Turn(BaseModel):
    """One chat message of an example."""

    role: str
    content: str


class SFTExample(BaseModel):
    """A prompt (messages ending before the answer) and the completion (assistant messages) to learn."""

    id: str
    prompt: list[Turn]
    completion: list[Turn]
    metadata: dict[str, Any] = Field(default_factory=dict)

    def messages(self) -> list[dict[str, str]]:
        """The whole conversation as plain dicts, prompt then completion."""
        return [turn.model_dump() for turn in [*self.prompt, *self.completion]]

    def chat_record(self) -> dict[str, Any]:
        """The chat-messages JSONL line for this example."""
        return {"id": self.id, "messages": self.messages(), "metadata": self.metadata}


def _turns(value: Any, *, path: Path, line: int, field: str) -> list[Turn]:
    if not isinstance(value, list) or not value:
        raise InputError("must be a non-empty list of messages", path=str(path), line=line, field=field)
    turns: list[Turn] = []
    for index, message in enumerate(value):
        where = f"{field}[{index}]"
        if not isinstance(message, dict):
            raise InputError("a message must be an object with 'role' and 'content'", path=str(path), line=line,
                             field=where)  # fmt: skip
        role, content = message.get("role"), message.get("content")
        if role not in ROLES:
            raise InputError(f"role must be one of {', '.join(ROLES)}, got {role!r}", path=str(path), line=line,
                             field=f"{where}.role")  # fmt: skip
        if not isinstance(content, str) or not content.strip():
            raise InputError("content must be a non-empty string", path=str(path), line=line,
                             field=f"{where}.content")  # fmt: skip
        turns.append(Turn(role=role, content=content))
    return turns


def _split_messages(turns: list[Turn], *, path: Path, line: int) -> tuple[list[Turn], list[Turn]]:
    """The prompt and the trailing assistant messages of a chat."""
    cut = len(turns)
    while cut > 0 and turns[cut - 1].role == "assistant":
        cut -= 1
    if cut == len(turns):
        raise InputError("the last message must be the assistant's answer to learn", path=str(path), line=line,
                         field="messages")  # fmt: skip
    if cut == 0:
        raise InputError("there is no prompt before the assistant's answer", path=str(path), line=line,
                         field="messages")  # fmt: skip
    return turns[:cut], turns[cut:]


def parse_example(value: Any, *, path: Path, line: int) -> SFTExample:
    """One JSONL object as an :class:`SFTExample` (either layout)."""
    if not isinstance(value, dict):
        raise InputError("each line must be a JSON object", path=str(path), line=line)
    if "messages" in value:
        prompt, completion = _split_messages(_turns(value["messages"], path=path, line=line, field="messages"),
                                             path=path, line=line)  # fmt: skip
    elif "prompt" in value and "completion" in value:
        prompt = _turns(value["prompt"], path=path, line=line, field="prompt")
        completion = _turns(value["completion"], path=path, line=line, field="completion")
        if any(turn.role != "assistant" for turn in completion):
            raise InputError("every completion message must be the assistant's", path=str(path), line=line,
                             field="completion")  # fmt: skip
    else:
        raise InputError("needs 'messages' (chat) or 'prompt' and 'completion'", path=str(path), line=line)
    metadata = value.get("metadata", {})
    if not isinstance(metadata, dict):
        raise InputError("must be an object", path=str(path), line=line, field="metadata")
    example_id = value.get("id", f"{path.name}:{line}")
    return SFTExample(id=str(example_id), prompt=prompt, completion=completion, metadata=metadata)


def read_sft_file(path: Path) -> list[SFTExample]:
    """Every example of a JSONL file; an empty file, or any bad line, is an :class:`InputError`."""
    text = read_text(path)
    examples: list[SFTExample] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"not valid JSON: {exc.msg}", path=str(path), line=number) from exc
        examples.append(parse_example(value, path=path, line=number))
    if not examples:
        raise InputError("holds no training examples (the file is empty)", path=str(path))
    seen: set[str] = set()
    for example in examples:
        if example.id in seen:
            raise InputError(f"two examples share the id {example.id!r}", path=str(path), field="id")
        seen.add(example.id)
    return examples


def write_sft_file(path: Path, examples: Iterable[SFTExample]) -> int:
    """Write chat-messages JSONL atomically (a crash leaves the old file or none); returns the count."""
    from debugtutor.atomic_files import write_text_atomic

    lines = [json.dumps(example.chat_record(), ensure_ascii=False, sort_keys=True) for example in examples]
    write_text_atomic(path, "".join(line + "\n" for line in lines))
    return len(lines)


def examples_checksum(examples: Sequence[SFTExample]) -> str:
    """sha256 over the examples' content in order (ids and metadata excluded): what the model was trained on."""
    digest = hashlib.sha256()
    for example in examples:
        payload = {"prompt": [t.model_dump() for t in example.prompt],
                   "completion": [t.model_dump() for t in example.completion]}  # fmt: skip
        digest.update(json.dumps(payload, sort_keys=True, ensure_ascii=False).encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()
