"""The ``scripted:`` provider: canned answers for tests, demos and dry runs, with no model at all.

A script is a JSON file (or the same structure built in code with :class:`ScriptedModel`)::

    {
      "rules": [
        {"match": "(?i)hello", "response": "Hi! What are you debugging?"},
        {"match": "off-by-one", "responses": ["Which index does the loop end on?", "And the last element?"]}
      ],
      "responses": ["first answer in order", "second answer in order"]
    }

For each completion the rules are tried in order; the first whose regular expression is found in the last
message answers (``response`` every time, or ``responses`` one after another). Without a matching rule the next
entry of ``responses`` answers. A bare JSON list is a script of ordered responses only. When the script has no answer
left, the call fails with a :class:`ModelError` saying so. Every call is recorded in :attr:`ScriptedModel.history`.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError, model_validator

from debugtutor.errors import InputError, ModelError, read_text
from debugtutor.llm.base import DEFAULT_CONCURRENCY, Completion, ModelBackend
from debugtutor.llm.cache import CachePolicy, ResponseCache
from debugtutor.llm.types import ChatMessage, GenerationSettings, Usage


class ScriptRule(BaseModel):
    """Answer with ``response`` (always) or ``responses`` (in turn) when ``match`` is found in the last message."""

    match: str
    response: str | None = None
    responses: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _one_answer_source(self) -> ScriptRule:
        if (self.response is None) == (not self.responses):
            raise ValueError("a rule needs exactly one of 'response' or 'responses'")
        try:
            re.compile(self.match)
        except re.error as exc:
            raise ValueError(f"'match' is not a valid regular expression: {exc}") from exc
        return self


class Script(BaseModel):
    """A whole script: rules first, then ordered responses."""

    rules: list[ScriptRule] = Field(default_factory=list)
    responses: list[str] = Field(default_factory=list)


@dataclass(frozen=True)
class ScriptedCall:
    """One request the scripted model answered, kept for tests to inspect."""

    messages: list[ChatMessage]
    settings: GenerationSettings
    texts: list[str]


def load_script(path: Path) -> Script:
    """Read a script file, reporting the file and the problem when it is not a valid script."""
    text = read_text(path)
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON: {exc.msg}", path=str(path), line=exc.lineno) from exc
    if isinstance(data, list):
        data = {"responses": data}
    try:
        return Script.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first["loc"]) or None
        raise InputError(first["msg"], path=str(path), field=field) from exc


class ScriptedModel(ModelBackend):
    """A model that answers from a script. By default it bypasses the cache, since its answers cost nothing."""

    def __init__(
        self,
        responses: list[str] | None = None,
        *,
        rules: list[ScriptRule] | None = None,
        spec: str = "scripted:inline",
        cache: CachePolicy | str | bool = CachePolicy.NO_CACHE,
        concurrency: int = DEFAULT_CONCURRENCY,
        cache_store: ResponseCache | None = None,
    ) -> None:
        super().__init__(spec, cache=cache, concurrency=concurrency, cache_store=cache_store)
        self.script = Script(rules=list(rules or []), responses=list(responses or []))
        self.history: list[ScriptedCall] = []
        self._next_response = 0
        self._next_in_rule = [0] * len(self.script.rules)
        self._patterns = [re.compile(rule.match) for rule in self.script.rules]
        self._lock = threading.Lock()

    @classmethod
    def from_file(cls, path: Path | str, **options: Any) -> ScriptedModel:
        path = Path(path)
        script = load_script(path)
        return cls(script.responses, rules=script.rules, spec=f"scripted:{path}", **options)

    @property
    def calls(self) -> int:
        return len(self.history)

    def _answer(self, last_message: str) -> str:
        for index, (rule, pattern) in enumerate(zip(self.script.rules, self._patterns)):
            if not pattern.search(last_message):
                continue
            if rule.response is not None:
                return rule.response
            position = self._next_in_rule[index]
            if position < len(rule.responses):
                self._next_in_rule[index] += 1
                return rule.responses[position]
            # This rule is used up; later rules or the ordered responses may still answer.
        if self._next_response < len(self.script.responses):
            self._next_response += 1
            return self.script.responses[self._next_response - 1]
        raise ModelError(
            f"{self.spec}: the script ran out of answers after {len(self.history)} call(s) "
            f"({len(self.script.responses)} ordered response(s) used, no rule matched the last message "
            f"{last_message[:80]!r})"
        )

    async def _complete(self, messages: list[ChatMessage], settings: GenerationSettings) -> Completion:
        with self._lock:
            texts = [self._answer(messages[-1].content) for _ in range(settings.n)]
            self.history.append(ScriptedCall(messages=list(messages), settings=settings, texts=texts))
        usage = Usage(
            prompt_tokens=sum(len(message.content.split()) for message in messages),
            completion_tokens=sum(len(text.split()) for text in texts),
        )
        return Completion(texts=texts, usage=usage)


def create_scripted_backend(
    target: str,
    *,
    cache: CachePolicy | str | bool | None = None,
    concurrency: int = DEFAULT_CONCURRENCY,
    cache_store: ResponseCache | None = None,
    **options: Any,
) -> ScriptedModel:
    """Factory for ``scripted:FILE``; the cache stays off unless a policy is asked for explicitly."""
    if options:
        raise InputError(f"scripted models take no options, got {', '.join(sorted(options))}", field="options")
    if not target:
        raise InputError("the spec names no script file; write scripted:FILE.json", field="spec")
    return ScriptedModel.from_file(
        target,
        cache=CachePolicy.NO_CACHE if cache is None else cache,
        concurrency=concurrency,
        cache_store=cache_store,
    )
