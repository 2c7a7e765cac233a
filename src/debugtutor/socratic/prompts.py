"""Prompts for the model-backed Socratic instructors, in our own words.

The layout follows the benchmark's instruction-prompt mode so that results are comparable: one system message that
sets the tutor's manner, then one user message made of

1. a context block: the problem, buggy code, bug description, fixes and unit tests, each wrapped in its tag, in that
   order (the student description is never shown), followed by two blank lines;
2. the history: every earlier (student, instructor) record as ``User:`` / ``Assistant:`` lines, with the student's
   program of that record printed after the instructor line, as the original does;
3. the current student line and, when the student sent one, their program in a ``<code>`` block;
4. the instruction for the mode, after an empty line. List-shaped modes end with ``1.`` so the model starts a
   numbered list.

Chain of thought adds an introspection step (the reasons the student is stuck, not questions) whose answer is put
before the final instruction. Grounded prompts add facts from the analysis engine (failing tests with actual and
expected values, a short trace, the most suspicious lines) before the instruction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from debugtutor.llm import ChatMessage, GenerationSettings
from debugtutor.socratic.dataset import EvaluationExample, TurnRecord

PromptMode = Literal["single", "multiple", "introspect", "cot"]

# Greedy decoding as in the benchmark's deterministic modes. GenerationSettings refuses top_p=0 (the original's
# value); with temperature 0 the decoding is greedy, so top_p has no effect either way.
DETERMINISTIC_SETTINGS = GenerationSettings(temperature=0.0, top_p=1.0, max_tokens=1024)

SYSTEM_SOCRATIC = (
    "You are a patient programming tutor who teaches only by asking questions. You never hand the student the "
    "answer or the corrected code. Each thing you say is a question or a gentle prompt that helps the student "
    "notice the problem on their own: it targets the right concept at the right moment, fits what the student "
    "has just said, and splits a hard step into smaller ones."
)
SYSTEM_SOCRATIC_LIST = (
    SYSTEM_SOCRATIC + " Whenever you answer, list every different question or prompt a good tutor could use at "
    "this point of the conversation, not just one."
)
SYSTEM_REFLECTIVE = (
    "You are an experienced programming tutor who thinks before speaking. First you work out every reason the "
    "student may have for their mistake or for being stuck; then you reply only with questions and prompts that "
    "let the student discover the fix themselves. You never state the fix. Be as thorough as you can."
)
SYSTEM_DIAGNOSER = (
    "You are a careful Python reviewer helping a tutor. You explain what is wrong with a student's program in two "
    "or three plain sentences for the tutor's eyes only: name the line, what it does, and why the tests fail. "
    "Do not write corrected code."
)

_TESTS_WERE_RUN = "Take it that the student has already run the unit tests."
_CODE_TAGS = "The student's program, when they share it, appears between <code> and </code>."

INSTRUCTION_SINGLE = (
    "Reply as the instructor with exactly one Socratic question or prompt that moves the student toward finding "
    "and fixing the bug described in <bug_desc> by themselves. " + _CODE_TAGS + " " + _TESTS_WERE_RUN
)
INSTRUCTION_MULTIPLE = (
    "Reply as the instructor with every distinct Socratic question or prompt you could say next to move the "
    "student toward finding and fixing the bug described in <bug_desc> by themselves. Two utterances that mean "
    "the same thing in other words count as one; give only one of them. Put each utterance on its own line of a "
    "numbered list and write nothing else. " + _CODE_TAGS + " " + _TESTS_WERE_RUN + "\n1."
)
INSTRUCTION_INTROSPECT = (
    "Before replying, think about the student. List every reason or misconception that could explain the bug "
    "described in <bug_desc>, or that could keep the student from fixing it at this point of the conversation. "
    "Write reasons, not questions for the student. If the student has already fixed the bug, say that no "
    "misconception remains. " + _CODE_TAGS
)
INSTRUCTION_DIAGNOSE = (
    "Here are the student's program, its unit tests and what a program analysis found. In two or three "
    "sentences, say what the bug is and on which line, without writing the corrected code."
)

FACTS_HEADER = "Facts from running the student's current program:"
REASONS_HEADER = "Possible reasons and misconceptions so far:"
DIALOGUE_HEADER = "Dialogue:"

_SECTION_ORDER = ("problem", "bug_code", "bug_desc", "bug_fixes", "unit_tests")


@dataclass(frozen=True)
class GroundingFacts:
    """What the analysis engine found about the student's current program, ready to print into a prompt."""

    failing_tests: list[str] = field(default_factory=list)  # "assert f(3) == 6: returned 5, expected 6"
    trace: list[str] = field(default_factory=list)  # "line 4: total=0, n=1"
    suspicious_lines: list[str] = field(default_factory=list)  # "line 4 (score 5.0): if n % 2 == 1:"
    load_error: str | None = None
    passing: int = 0
    total: int = 0

    def render(self) -> str:
        lines = [FACTS_HEADER]
        if self.load_error:
            lines.append(f"- The program does not load: {self.load_error}")
        if self.total:
            lines.append(f"- {self.passing} of {self.total} unit tests pass.")
        if self.failing_tests:
            lines.append("- Failing tests:")
            lines.extend(f"  - {item}" for item in self.failing_tests)
        if self.suspicious_lines:
            lines.append("- Most suspicious lines (fault localization):")
            lines.extend(f"  - {item}" for item in self.suspicious_lines)
        if self.trace:
            lines.append("- Trace of the first failing test (variables after each line):")
            lines.extend(f"  - {item}" for item in self.trace)
        return "\n".join(lines)


def context_block(example: EvaluationExample) -> str:
    """The tagged sections in the benchmark's order, then two blank lines."""
    values = {
        "problem": example.problem,
        "bug_code": example.bug_code,
        "bug_desc": example.bug_desc,
        "bug_fixes": "\n".join(example.bug_fixes),
        "unit_tests": example.unit_tests,
    }
    block = "".join(f"<{tag}>\n{values[tag]}\n</{tag}>\n" for tag in _SECTION_ORDER)
    return block + "\n\n"


def _code_block(code: str) -> str:
    return f"<code>\n{code}\n</code>\n"


def history_block(history: Sequence[TurnRecord]) -> str:
    """Earlier records: student line, instructor line, then that record's code (the original's order)."""
    parts: list[str] = []
    for record in history:
        parts.append(f"User: {record.user_text}\n")
        parts.append(f"Assistant: {record.assistant_text}\n")
        if record.code_text:
            parts.append(_code_block(record.code_text))
    return "".join(parts)


def current_turn_block(example: EvaluationExample) -> str:
    text = f"User: {example.student_text}\n"
    if example.student_code:
        text += _code_block(example.student_code)
    return text


def dialogue_so_far(example: EvaluationExample, *, header: bool = False) -> str:
    """History plus the current student turn; ``header`` puts ``Dialogue:`` first when there is history."""
    history = history_block(example.history)
    lead = f"{DIALOGUE_HEADER}\n" if header and history else ""
    return lead + history + current_turn_block(example)


def build_messages(
    example: EvaluationExample,
    mode: PromptMode,
    *,
    introspection: str | None = None,
    facts: GroundingFacts | None = None,
) -> list[ChatMessage]:
    """The chat messages for one turn in ``mode``; ``cot`` needs the ``introspection`` step's answer."""
    if mode == "cot" and introspection is None:
        raise ValueError("the cot prompt needs the introspection step's answer")
    body = context_block(example) + dialogue_so_far(example, header=mode in ("introspect", "cot"))
    if facts is not None:
        body += "\n" + facts.render() + "\n"
    if mode == "cot":
        body += f"\n{REASONS_HEADER}\n{(introspection or '').strip()}\n"
    instruction = {
        "single": INSTRUCTION_SINGLE,
        "multiple": INSTRUCTION_MULTIPLE,
        "introspect": INSTRUCTION_INTROSPECT,
        "cot": INSTRUCTION_MULTIPLE,
    }[mode]
    system = {
        "single": SYSTEM_SOCRATIC,
        "multiple": SYSTEM_SOCRATIC_LIST,
        "introspect": SYSTEM_REFLECTIVE,
        "cot": SYSTEM_REFLECTIVE,
    }[mode]
    body += "\n" + instruction
    return [ChatMessage(role="system", content=system), ChatMessage(role="user", content=body)]


def diagnosis_messages(problem: str, code: str, unit_tests: str, facts: GroundingFacts) -> list[ChatMessage]:
    """Ask a model to refine the analysis engine's diagnosis into a short bug description (live tutor)."""
    numbered = "\n".join(f"{n}. {line}" for n, line in enumerate(code.split("\n"), start=1))
    body = (
        f"<problem>\n{problem}\n</problem>\n<bug_code>\n{numbered}\n</bug_code>\n"
        f"<unit_tests>\n{unit_tests}\n</unit_tests>\n\n{facts.render()}\n\n{INSTRUCTION_DIAGNOSE}"
    )
    return [ChatMessage(role="system", content=SYSTEM_DIAGNOSER), ChatMessage(role="user", content=body)]
