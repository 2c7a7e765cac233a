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

Two styles. ``ours`` (the default) is the layout above with our instructions, which also ask for a bare numbered
list. ``paper`` is the benchmark code's own layout as the reference notes describe it (paraphrased, never copied):
every program is line-numbered as the benchmark's files are (``1. `` before line 1, ``N.`` glued to each later
line's indentation), the instructions state the same points in the original order (the task and the bug in
``<bug_desc>``, then duplicates for lists, then where the student's code is, then that the tests were run), the
system message lists the tutor's traits in the original order, and the CoT answer goes under the original's
``Reasons or Misconceptions so far:`` header.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from debugtutor.llm import ChatMessage, GenerationSettings
from debugtutor.socratic.dataset import EvaluationExample, TurnRecord

PromptMode = Literal["single", "multiple", "introspect", "cot"]
PromptStyle = Literal["ours", "paper"]
PROMPT_STYLES: tuple[PromptStyle, ...] = ("ours", "paper")

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

# The paper's layout: the same points as the benchmark code's prompts, in its order, in our words.
PAPER_SYSTEM_SOCRATIC = (
    "You are a tutor who always answers in the Socratic style. You never give the student the answer; you ask "
    "the right question at the right moment, you adapt to what the student knows and needs, and you break the "
    "problem into simpler parts until the student can solve it. A Socratic utterance guides the student toward "
    "the solution without giving it away."
)
PAPER_SYSTEM_SOCRATIC_LIST = (
    PAPER_SYSTEM_SOCRATIC + " In every reply, give a thorough list of the Socratic responses a tutor could say "
    "at this point of the conversation."
)
PAPER_SYSTEM_REFLECTIVE = (
    "You are a reflective and experienced tutor. Before you answer, you think through every reason the student "
    "could have for their mistake; then you answer in the Socratic style, never giving the answer away, and as "
    "thoroughly as you can."
)
_PAPER_CODE_TAGS = "The student's code is written between <code> and </code> tags."
_PAPER_TESTS_RUN = "Assume that the student has already run the test cases."
PAPER_INSTRUCTION_SINGLE = (
    "Respond to the student with one Socratic utterance that guides them to discover and fix the bug described "
    "between <bug_desc> tags. " + _PAPER_CODE_TAGS + " " + _PAPER_TESTS_RUN
)
PAPER_INSTRUCTION_MULTIPLE = (
    "Respond to the student with all the possible distinct Socratic utterances that guide them to discover and "
    "fix the bug described between <bug_desc> tags. Utterances that say the same thing in different words are "
    "duplicates. " + _PAPER_CODE_TAGS + " " + _PAPER_TESTS_RUN + "\n1."
)
PAPER_INSTRUCTION_INTROSPECT = (
    "List all the possible reasons or misconceptions that led the student to this bug, or that still keep them "
    "from fixing it at this point of the conversation. Do not write Socratic questions. If the bug has already "
    "been fixed, say that no reasons or misconceptions are left. " + _PAPER_CODE_TAGS
)
PAPER_REASONS_HEADER = "Reasons or Misconceptions so far:"

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


_NUMBERED = re.compile(r"^\s*1\.")


def number_lines(code: str) -> str:
    """Line numbers as the benchmark's files write them: ``1. `` before line 1, ``N.`` glued to each later line
    (which keeps its indentation; an unindented line gets one space). Code already numbered is left alone."""
    if not code or _NUMBERED.match(code):
        return code
    lines = code.split("\n")
    out = []
    for n, line in enumerate(lines, start=1):
        if n == 1 or not line[:1].isspace():
            out.append(f"{n}. {line}" if line else f"{n}.")
        else:
            out.append(f"{n}.{line}")
    return "\n".join(out)


def _code_text(code: str, style: PromptStyle) -> str:
    return number_lines(code) if style == "paper" else code


def context_block(example: EvaluationExample, *, style: PromptStyle = "ours") -> str:
    """The tagged sections in the benchmark's order, then two blank lines."""
    values = {
        "problem": example.problem,
        "bug_code": _code_text(example.bug_code, style),
        "bug_desc": example.bug_desc,
        "bug_fixes": "\n".join(example.bug_fixes),
        "unit_tests": example.unit_tests,
    }
    block = "".join(f"<{tag}>\n{values[tag]}\n</{tag}>\n" for tag in _SECTION_ORDER)
    return block + "\n\n"


def _code_block(code: str, style: PromptStyle = "ours") -> str:
    return f"<code>\n{_code_text(code, style)}\n</code>\n"


def history_block(history: Sequence[TurnRecord], *, style: PromptStyle = "ours") -> str:
    """Earlier records: student line, instructor line, then that record's code (the original's order)."""
    parts: list[str] = []
    for record in history:
        parts.append(f"User: {record.user_text}\n")
        parts.append(f"Assistant: {record.assistant_text}\n")
        if record.code_text:
            parts.append(_code_block(record.code_text, style))
    return "".join(parts)


def current_turn_block(example: EvaluationExample, *, style: PromptStyle = "ours") -> str:
    text = f"User: {example.student_text}\n"
    if example.student_code:
        text += _code_block(example.student_code, style)
    return text


def dialogue_so_far(example: EvaluationExample, *, header: bool = False, style: PromptStyle = "ours") -> str:
    """History plus the current student turn; ``header`` puts ``Dialogue:`` first when there is history."""
    history = history_block(example.history, style=style)
    lead = f"{DIALOGUE_HEADER}\n" if header and history else ""
    return lead + history + current_turn_block(example, style=style)


def build_messages(
    example: EvaluationExample,
    mode: PromptMode,
    *,
    introspection: str | None = None,
    facts: GroundingFacts | None = None,
    style: PromptStyle = "ours",
) -> list[ChatMessage]:
    """The chat messages for one turn in ``mode`` and ``style``; ``cot`` needs the ``introspection`` step's answer."""
    if mode == "cot" and introspection is None:
        raise ValueError("the cot prompt needs the introspection step's answer")
    if style not in PROMPT_STYLES:
        raise ValueError(f"unknown prompt style {style!r}")
    paper = style == "paper"
    body = context_block(example, style=style) + dialogue_so_far(
        example, header=mode in ("introspect", "cot"), style=style
    )
    if facts is not None:
        body += "\n" + facts.render() + "\n"
    if mode == "cot":
        header = PAPER_REASONS_HEADER if paper else REASONS_HEADER
        body += f"\n{header}\n{(introspection or '').strip()}\n"
    instruction = {
        "single": PAPER_INSTRUCTION_SINGLE if paper else INSTRUCTION_SINGLE,
        "multiple": PAPER_INSTRUCTION_MULTIPLE if paper else INSTRUCTION_MULTIPLE,
        "introspect": PAPER_INSTRUCTION_INTROSPECT if paper else INSTRUCTION_INTROSPECT,
        "cot": PAPER_INSTRUCTION_MULTIPLE if paper else INSTRUCTION_MULTIPLE,
    }[mode]
    system = {
        "single": PAPER_SYSTEM_SOCRATIC if paper else SYSTEM_SOCRATIC,
        "multiple": PAPER_SYSTEM_SOCRATIC_LIST if paper else SYSTEM_SOCRATIC_LIST,
        "introspect": PAPER_SYSTEM_REFLECTIVE if paper else SYSTEM_REFLECTIVE,
        "cot": PAPER_SYSTEM_REFLECTIVE if paper else SYSTEM_REFLECTIVE,
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
