"""Socratic instructors: given one evaluation example (the context up to a student turn), predict the instructor's
utterances. They are the solvers the runner calls, and the live tutor uses them too.

- ``zero-shot``: every distinct Socratic utterance for this turn, as a numbered list (the paper's main mode).
- ``single``: one utterance.
- ``cot``: two steps per turn, introspection (reasons the student is stuck) then the list, as the paper describes it.
- ``cot-as-coded``: the introspection of the dialogue's first turn is reused for all its later turns, as the
  benchmark's code does.
- ``grounded`` / ``grounded-cot``: zero-shot / CoT with facts from the analysis engine in the prompt.
- ``offline``: no model; the program-analysis instructor of :mod:`debugtutor.socratic.questioner`.

Use :func:`get_instructor` to build one by name. Model-backed instructors take a prompt ``style``: ``ours`` or
``paper`` (the benchmark code's own layout, :mod:`debugtutor.socratic.prompts`). :func:`preview_prompts` returns
the prompts an instructor would send for an example without calling any model (``socratic eval --show-prompt``).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

from debugtutor.analysis.engine import AnalysisBudget, AnalysisReport, aanalyze
from debugtutor.analysis.execution import split_unit_tests
from debugtutor.errors import InputError
from debugtutor.llm import ChatMessage, GenerationSettings, ModelBackend, ModelResponse
from debugtutor.runs import Registry
from debugtutor.socratic.dataset import EvaluationExample
from debugtutor.socratic.prompts import (
    DETERMINISTIC_SETTINGS,
    PROMPT_STYLES,
    GroundingFacts,
    PromptStyle,
    build_messages,
)
from debugtutor.socratic.questioner import AnalysisQuestioner, TutoringState
from debugtutor.socratic.utterances import parse_utterance_list

ModelMode = Literal["zero-shot", "single", "cot", "cot-as-coded"]
ParseMode = Literal["robust", "original"]
PARSE_MODES: tuple[ParseMode, ...] = ("robust", "original")

_LIST_START = re.compile(r"^\s*(?:\(?1[.)]|[-*\u2022])\s", re.M)
_TRACE_STEPS = 8
_SUSPICIOUS_LINES = 3
_FAILING_TESTS = 3


@dataclass
class InstructorPrediction:
    """What an instructor said at one turn: the utterances, the raw model texts behind them, and what it cost."""

    utterances: list[str]
    raw: list[str] = field(default_factory=list)
    usage: dict[str, float] = field(default_factory=dict)


class Instructor(Protocol):
    """Predicts the instructor's utterances for one example; ``name`` is the registry name."""

    name: str

    async def predict(self, example: EvaluationExample) -> InstructorPrediction: ...


def tutoring_state(example: EvaluationExample, *, with_bug_desc: bool = True) -> TutoringState:
    """The offline instructor's view of an example (``with_bug_desc=False`` makes it localize the bug itself)."""
    previous_code = example.history[-1].cumulative_code_text if example.history else ""
    return TutoringState(
        problem=example.problem,
        code=example.current_code,
        unit_tests=example.unit_tests,
        student_text=example.student_text,
        turn_index=example.turn_index,
        bug_desc=example.bug_desc if with_bug_desc else "",
        bug_fixes=list(example.bug_fixes),
        original_code=example.bug_code,
        code_changed=bool(example.student_code) and example.student_code != (previous_code or example.bug_code),
        history=[(record.user_text, record.assistant_text) for record in example.history],
    )


class OfflineInstructor:
    """The ``offline`` instructor: the :class:`AnalysisQuestioner` behind the :class:`Instructor` protocol (runs off the
    event loop)."""

    name = "offline"

    def __init__(self, *, max_utterances: int = 3, with_bug_desc: bool = True) -> None:
        self.engine = AnalysisQuestioner(max_utterances=max_utterances)
        self.with_bug_desc = with_bug_desc

    async def predict(self, example: EvaluationExample) -> InstructorPrediction:
        state = tutoring_state(example, with_bug_desc=self.with_bug_desc)
        utterances = await asyncio.to_thread(self.engine.respond, state)
        return InstructorPrediction(utterances=utterances)


def facts_from_report(report: AnalysisReport, code: str) -> GroundingFacts:
    """The prompt-ready facts of an analysis report: failing tests, top suspicious lines, a short trace."""
    facts = report.execution
    code_lines = code.split("\n")
    failing: list[str] = []
    load_error = None
    passing = total = 0
    if facts is not None:
        total, passing = len(facts.tests), len(facts.passing)
        if facts.load_error is not None:
            err = facts.load_error
            load_error = f"{err.type}: {err.message}" + (f" (line {err.line})" if err.line else "")
        for test in facts.failing[:_FAILING_TESTS]:
            source = test.source.strip().splitlines()[-1]
            if test.exception is not None and test.exception.type != "AssertionError":
                where = f" on line {test.exception.line}" if test.exception.line else ""
                failing.append(f"{source}: raised {test.exception.type}{where}")
            elif test.actual is not None or test.expected is not None:
                failing.append(f"{source}: got {test.actual}, expected {test.expected}")
            else:
                failing.append(f"{source}: {test.status.value}")
    suspicious = [
        f"line {item.line}: {code_lines[item.line - 1].strip()}"
        for item in report.suspicious_lines[:_SUSPICIOUS_LINES]
        if 0 < item.line <= len(code_lines)
    ]
    trace: list[str] = []
    if report.trace is not None:
        for step in report.trace.steps[:_TRACE_STEPS]:
            values = ", ".join(f"{name}={value}" for name, value in step.locals.items())
            returned = f" -> returns {step.returned}" if step.returned is not None else ""
            trace.append(f"line {step.line} in {step.function}: {values or '(no locals)'}{returned}")
    return GroundingFacts(
        failing_tests=failing,
        trace=trace,
        suspicious_lines=suspicious,
        load_error=load_error,
        passing=passing,
        total=total,
    )


async def grounding_facts(code: str, unit_tests: str, *, per_test_s: float = 2.0) -> GroundingFacts:
    """Run the analysis engine on ``code`` and return :func:`facts_from_report` of it.

    The repair search is off: a found fix would only tempt the model to reveal it.
    """
    split = split_unit_tests(unit_tests)
    if not split.tests:
        return GroundingFacts()
    report = await aanalyze(
        code,
        split.tests,
        setup=split.setup,
        budget=AnalysisBudget(repair_seconds=0, per_test_s=per_test_s, max_trace_events=200),
    )
    return facts_from_report(report, code)


def parse_list_response(text: str, mode: ParseMode = "robust") -> list[str]:
    """Utterances of a list answer. The prompt ends with ``1.``, so a model usually continues the first item without
    repeating the marker: put it back when no line of the answer starts a list."""
    if mode == "robust" and not _LIST_START.search(text):
        text = "1. " + text.lstrip()
    return parse_utterance_list(text, mode=mode)


def _first_turn(example: EvaluationExample) -> EvaluationExample:
    """The dialogue's first evaluated turn as seen from a later one (for CoT as coded)."""
    if not example.history:
        return example
    first = example.history[0]
    return replace(
        example,
        turn_index=0,
        history=[],
        student_text=first.user_text,
        student_code=first.code_text,
        current_code=first.cumulative_code_text or example.bug_code,
        references=[first.assistant_text, *first.assistant_alternatives],
    )


INTROSPECTION_PLACEHOLDER = "<the introspection step's answer goes here>"


@dataclass
class PlannedPrompt:
    """One prompt an instructor would send: which step it is and the chat messages."""

    step: str
    messages: list[ChatMessage]


class ModelInstructor:
    """A model-backed instructor in one of the prompt modes (see the module docstring).

    ``model`` may be None only to preview prompts (:meth:`prompts`); predicting then raises an InputError.
    """

    def __init__(
        self,
        model: ModelBackend | None,
        *,
        mode: ModelMode = "zero-shot",
        grounded: bool = False,
        parse_mode: ParseMode = "robust",
        settings: GenerationSettings = DETERMINISTIC_SETTINGS,
        facts: Callable[[str, str], Awaitable[GroundingFacts]] = grounding_facts,
        style: PromptStyle = "ours",
    ) -> None:
        if mode not in ("zero-shot", "single", "cot", "cot-as-coded"):
            raise InputError(f"unknown prompt mode {mode!r}", hint="zero-shot, single, cot or cot-as-coded")
        if style not in PROMPT_STYLES:
            raise InputError(f"unknown prompt style {style!r}", field="prompt", hint=" or ".join(PROMPT_STYLES))
        self.model = model
        self.mode = mode
        self.grounded = grounded
        self.parse_mode = parse_mode
        self.settings = settings
        self.style = style
        self._facts = facts
        prefix = "grounded-" if grounded else ""
        self.name = "grounded" if grounded and mode == "zero-shot" else prefix + mode
        # CoT as coded: one introspection per dialogue, shared by its turns even when they run concurrently.
        self._introspections: dict[str, asyncio.Future[tuple[str, ModelResponse]]] = {}

    def _messages(
        self,
        example: EvaluationExample,
        mode: Literal["single", "multiple", "introspect", "cot"],
        facts: GroundingFacts | None,
        introspection: str | None = None,
    ) -> list[ChatMessage]:
        return build_messages(example, mode, introspection=introspection, facts=facts, style=self.style)

    async def prompts(self, example: EvaluationExample) -> list[PlannedPrompt]:
        """The prompts :meth:`predict` would send for ``example``, without calling the model (grounding facts are
        computed, since they are part of the prompt). A CoT answer step shows a placeholder for step one's answer."""
        facts = await self._facts(example.current_code, example.unit_tests) if self.grounded else None
        if self.mode == "single":
            return [PlannedPrompt("single utterance", self._messages(example, "single", facts))]
        if self.mode == "zero-shot":
            return [PlannedPrompt("list of utterances", self._messages(example, "multiple", facts))]
        if self.mode == "cot":
            step_one = PlannedPrompt("step 1: introspection", self._messages(example, "introspect", facts))
        else:
            first = _first_turn(example)
            first_facts = await self._facts(first.current_code, first.unit_tests) if self.grounded else None
            step_one = PlannedPrompt(
                "step 1: introspection of the dialogue's first turn (sent once, reused by every later turn)",
                self._messages(first, "introspect", first_facts),
            )
        step_two = PlannedPrompt(
            "step 2: list of utterances, after the introspection",
            self._messages(example, "cot", facts, INTROSPECTION_PLACEHOLDER),
        )
        return [step_one, step_two]

    async def _generate(self, messages: list[ChatMessage]) -> ModelResponse:
        if self.model is None:
            raise InputError(f"the {self.name} instructor has no model", field="model", hint="pass --model SPEC")
        return await self.model.generate(messages, self.settings)

    async def _introspect(self, example: EvaluationExample, facts: GroundingFacts | None) -> tuple[str, ModelResponse]:
        response = await self._generate(self._messages(example, "introspect", facts))
        return response.text, response

    async def _introspection_as_coded(self, example: EvaluationExample) -> tuple[str, ModelResponse | None]:
        first = _first_turn(example)
        key = f"{example.dialogue}\x00{first.student_text}\x00{first.current_code}"
        future = self._introspections.get(key)
        owner = future is None
        if future is None:
            future = asyncio.get_running_loop().create_future()
            self._introspections[key] = future
            try:
                facts = await self._facts(first.current_code, first.unit_tests) if self.grounded else None
                future.set_result(await self._introspect(first, facts))
            except BaseException as exc:
                del self._introspections[key]
                future.set_exception(exc)
                future.exception()  # mark retrieved: the owner re-raises it below
                raise
        text, response = await future
        return text, response if owner else None

    async def predict(self, example: EvaluationExample) -> InstructorPrediction:
        facts = await self._facts(example.current_code, example.unit_tests) if self.grounded else None
        responses: list[ModelResponse] = []
        if self.mode == "single":
            response = await self._generate(self._messages(example, "single", facts))
            responses.append(response)
            utterances = parse_utterance_list(response.text, mode="robust")[:1]
        elif self.mode == "zero-shot":
            response = await self._generate(self._messages(example, "multiple", facts))
            responses.append(response)
            utterances = parse_list_response(response.text, self.parse_mode)
        else:
            if self.mode == "cot":
                introspection, step_one = await self._introspect(example, facts)
                responses.append(step_one)
            else:
                introspection, first_step = await self._introspection_as_coded(example)
                if first_step is not None:
                    responses.append(first_step)
            response = await self._generate(self._messages(example, "cot", facts, introspection))
            responses.append(response)
            utterances = parse_list_response(response.text, self.parse_mode)
        return InstructorPrediction(
            utterances=utterances,
            raw=[r.text for r in responses],
            usage={
                "prompt_tokens": sum(r.usage.prompt_tokens for r in responses),
                "completion_tokens": sum(r.usage.completion_tokens for r in responses),
                "model_calls": len(responses),
                "cached_calls": sum(r.cached for r in responses),
            },
        )


INSTRUCTORS: Registry[Instructor] = Registry("instructor")
"""Every instructor by name; :func:`get_instructor` builds one (options: ``model``, ``parse_mode``, ``style``,
``max_utterances``). All but ``offline`` need a model back-end."""


def _needs(name: str, model: ModelBackend | None) -> ModelBackend:
    if model is None:
        raise InputError(
            f"the {name} instructor needs a model",
            field="model",
            hint="pass --model SPEC (e.g. openai:gpt-4o-mini or scripted:FILE.json), or use --instructor offline",
        )
    return model


@INSTRUCTORS.register("offline", help="the analysis engine's questions, no model")
def _offline(*, max_utterances: int = 3, **_: Any) -> Instructor:
    return OfflineInstructor(max_utterances=max_utterances)


def _register_model_instructor(name: str, mode: ModelMode, grounded: bool, help: str) -> None:
    @INSTRUCTORS.register(name, help=help)
    def build(
        *, model: ModelBackend | None = None, parse_mode: ParseMode = "robust", style: PromptStyle = "ours", **_: Any
    ) -> Instructor:
        return ModelInstructor(_needs(name, model), mode=mode, grounded=grounded, parse_mode=parse_mode, style=style)


# name -> (the prompt mode, whether the analysis engine's facts are in the prompt, one line of help)
_MODEL_INSTRUCTORS: dict[str, tuple[ModelMode, bool, str]] = {
    "zero-shot": ("zero-shot", False, "the dialogue so far, ask for the next turns"),
    "single": ("single", False, "one best next turn"),
    "cot": ("cot", False, "introspect every turn first, as the paper describes"),
    "cot-as-coded": ("cot-as-coded", False, "reuse the first turn's introspection, as the original code does"),
    "grounded": ("zero-shot", True, "zero-shot with the analysis engine's facts in the prompt"),
    "grounded-cot": ("cot", True, "cot with the analysis engine's facts in the prompt"),
}
for _name, (_mode, _grounded, _help) in _MODEL_INSTRUCTORS.items():
    _register_model_instructor(_name, _mode, _grounded, _help)
INSTRUCTOR_NAMES: tuple[str, ...] = tuple(INSTRUCTORS)


def get_instructor(
    name: str,
    model: ModelBackend | None = None,
    *,
    parse_mode: ParseMode = "robust",
    max_utterances: int = 3,
    style: PromptStyle = "ours",
) -> Instructor:
    """An instructor by registry name (:data:`INSTRUCTORS`); all but ``offline`` need a model."""
    return INSTRUCTORS.create(name, model=model, parse_mode=parse_mode, max_utterances=max_utterances, style=style)


async def preview_prompts(
    name: str, examples: list[EvaluationExample], *, style: PromptStyle = "ours"
) -> list[tuple[str, PlannedPrompt]]:
    """The prompts the named model-backed instructor would send for each example, with no model and no call."""
    INSTRUCTORS.entry(name)  # (an unknown name is an InputError)
    if name not in _MODEL_INSTRUCTORS:
        raise InputError("the offline instructor sends no prompt", field="instructor", hint="choose a model-backed one")
    mode, grounded, _ = _MODEL_INSTRUCTORS[name]
    instructor = ModelInstructor(None, mode=mode, grounded=grounded, style=style)
    return [(example.id, prompt) for example in examples for prompt in await instructor.prompts(example)]
