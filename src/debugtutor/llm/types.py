"""The records every model back-end speaks: chat messages, generation settings and responses.

These are the contract other parts of debugtutor code against, whatever model sits behind it (an OpenAI-compatible
server, a local transformers model, a scripted fake).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, field_validator

from debugtutor.errors import InputError

Role = Literal["system", "user", "assistant"]


class ChatMessage(BaseModel):
    """One turn of a chat: who said it and what they said."""

    model_config = ConfigDict(frozen=True)

    role: Role
    content: str


class GenerationSettings(BaseModel):
    """How to sample: the same knobs the OpenAI chat API has, with deterministic defaults."""

    model_config = ConfigDict(frozen=True)

    n: int = Field(default=1, ge=1, description="How many completions to return for the one prompt.")
    temperature: float = Field(default=0.0, ge=0.0, le=2.0, description="0 means greedy decoding.")
    top_p: float = Field(default=1.0, gt=0.0, le=1.0)
    max_tokens: int = Field(default=512, ge=1, description="Upper bound on generated tokens per completion.")
    stop: tuple[str, ...] | None = Field(default=None, description="Generation ends before the first of these strings.")
    seed: int | None = Field(default=None, description="Sampling seed, for back-ends that honour one.")

    @field_validator("stop", mode="before")
    @classmethod
    def _stop_as_tuple(cls, value: object) -> object:
        # A single stop string is a common way to write it; a tuple keeps the settings hashable and frozen.
        if isinstance(value, str):
            return (value,)
        if isinstance(value, list):
            return tuple(value)
        return value

    @property
    def sampled(self) -> bool:
        """Whether completions may differ from each other, so each sample is cached on its own."""
        return self.n > 1 or self.temperature > 0


class Usage(BaseModel):
    """Tokens a call consumed, as the back-end reports them (0 when it reports nothing)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class ModelResponse(BaseModel):
    """The n completions for one request, with what they cost and whether the cache served them."""

    texts: list[str]
    usage: Usage = Field(default_factory=Usage)
    latency_s: float = 0.0
    cached: bool = False
    model: str

    @property
    def text(self) -> str:
        """The first completion, for the common n=1 case."""
        return self.texts[0]


# What callers may pass as a prompt: a plain string (one user turn) or a list of messages (records or dicts).
Prompt: TypeAlias = str | Sequence[ChatMessage | Mapping[str, str]]


def as_messages(prompt: Prompt, *, system: str | None = None) -> list[ChatMessage]:
    """Normalise a prompt to a list of :class:`ChatMessage`, optionally led by a system message."""
    if isinstance(prompt, str):
        messages = [ChatMessage(role="user", content=prompt)]
    else:
        messages = []
        for index, item in enumerate(prompt):
            if isinstance(item, ChatMessage):
                messages.append(item)
            elif isinstance(item, Mapping):
                try:
                    messages.append(ChatMessage.model_validate(dict(item)))
                except ValueError as exc:
                    raise InputError(f"not a chat message: {exc}", field=f"messages[{index}]") from exc
            else:
                raise InputError(f"expected a chat message, got {type(item).__name__}", field=f"messages[{index}]")
    if not messages:
        raise InputError("a prompt needs at least one message", field="messages")
    if system is not None:
        messages = [ChatMessage(role="system", content=system), *messages]
    return messages
