"""Prompts for the four DebugEval tasks (our own wording, DebugEval's answer formats) and answer extraction.

Answer formats a parser depends on are DebugEval's: ``<Answer>(A)</Answer>`` for the two multiple-choice tasks,
``Code-A``/``Code-B`` for Code Review and a fenced block opened with three backticks and ``code`` for Code Repair.
Extraction follows DebugEval's default post-processing: an answer counts only when exactly one option is given.

Every prompt is built from a :class:`~debugtutor.debugeval.views.TaskView`, never from a record. Two layouts:
``ours`` and ``paper`` (DebugEval's base layout: the identification options listed after the answer line, and Code
Review's answer pre-filled with ``Code-`` so the model only has to continue with the letter). A pre-fill is part of
the answer: :func:`prefill_of` says what it is and the extraction puts it back in front of the continuation.
"""

from __future__ import annotations

import re
from typing import Literal

from debugtutor.debugeval.records import render_options
from debugtutor.debugeval.views import TaskView

CHOICES = ("(A)", "(B)", "(C)", "(D)")

_LOCALIZATION = """You will see a programming task, a solution to it that contains a bug, and four options. Each \
option is a piece of code copied from that solution, and exactly one of them is (part of) the code that is wrong. \
Decide which option holds the bug.

Rules:
- Give exactly one option.
- Write your final answer as <Answer>(Option)</Answer>, for instance <Answer>(C)</Answer>.
{facts}
Task:
{task}

Incorrect_Solution:
{code}

Options:
{options}

Answer:
<Answer>"""

_IDENTIFICATION = """You will see a programming task and a {lang} solution to it that contains a bug. Decide which \
kind of error the solution has:
(A) Syntax Error: the code breaks the language's grammar (a misspelt or missing token, an unclosed bracket or \
string, a bad comment mark or indentation).
(B) Reference Error: the code uses something that does not exist (an undefined variable, function, method or \
property, an index out of range, a keyword of another language).
(C) Logical Error: the code runs but computes the wrong result because its logic or algorithm is wrong.
(D) Multiple Errors: the code has more than one error; if so, answer (D) only.

Rules:
- Give exactly one option; when several kinds of error are present, give only (D).
- Write your final answer as <Answer>(Option)</Answer>, for instance <Answer>(B)</Answer>, and nothing else.
{facts}
Task:
{task}

Incorrect_Solution:
{code}

Options: (A) Syntax Error, (B) Reference Error, (C) Logical Error, (D) Multiple Errors

Answer:
<Answer>"""

_REVIEW = """Below are a programming task and two {lang} solutions to it, Code-A and Code-B. One of them is correct \
and the other one has a bug. Point out the buggy one.
{facts}
Task:
{task}

Code-A:
{code_a}

Code-B:
{code_b}

Which one is buggy? Reply with Code-A or Code-B on the first line of your response.
Your response:"""

_REPAIR = """Here is a programming task and a {lang} solution to it that does not work. Fix the solution so that it \
is correct and runs as {lang}.

Rules:
- Put the whole fixed solution in one block that starts with ```code on its own line and ends with ```, like:
```code
<your fixed solution>
```
- Keep the solution's form (its function or class names and signatures); change only what is needed.
- Output only the fixed solution.
{facts}
Task:
{task}

Incorrect_Solution:
{code}
"""

LANGUAGE_NAMES = {"python": "Python", "cpp": "C++", "java": "Java"}

PromptStyle = Literal["ours", "paper"]
PROMPT_STYLES: tuple[PromptStyle, ...] = ("ours", "paper")

# The paper's layout (DebugEval's base prompts): Bug Identification lists the four options one per line after the
# answer line, and Code Review pre-fills the answer so the model's continuation starts with the letter.
_IDENTIFICATION_PAPER_TAIL = """Options:
(A) Syntax Error
(B) Reference Error
(C) Logical Error
(D) Multiple Errors

Output the answer directly, nothing else.
Answer:
<Answer>"""
REVIEW_PREFILL = "Code-"
_REVIEW_PAPER_TAIL = "Select the buggy snippet: Code-A or Code-B.\nYour response:" + REVIEW_PREFILL


def _facts_block(facts: str | None) -> str:
    return f"\nWhat running and checking the code showed (use it as evidence):\n{facts.strip()}\n" if facts else ""


def localization_prompt(view: TaskView, facts: str | None = None, style: PromptStyle = "ours") -> str:
    return _LOCALIZATION.format(
        task=view.question, code=view.code, options=render_options(view.options), facts=_facts_block(facts)
    )


def identification_prompt(view: TaskView, facts: str | None = None, style: PromptStyle = "ours") -> str:
    prompt = _IDENTIFICATION.format(
        lang=LANGUAGE_NAMES[view.language], task=view.question, code=view.code, facts=_facts_block(facts)
    )
    if style == "paper":
        prompt = prompt[: prompt.rindex("Options: (A)")] + _IDENTIFICATION_PAPER_TAIL
    return prompt


def review_prompt(view: TaskView, facts: str | None = None, style: PromptStyle = "ours") -> str:
    """Code-A and Code-B in the order the view shows them."""
    prompt = _REVIEW.format(
        lang=LANGUAGE_NAMES[view.language], task=view.question, code_a=view.code_a, code_b=view.code_b,
        facts=_facts_block(facts),
    )  # fmt: skip
    if style == "paper":
        prompt = prompt[: prompt.rindex("Which one is buggy?")] + _REVIEW_PAPER_TAIL
    return prompt


def repair_prompt(view: TaskView, facts: str | None = None, style: PromptStyle = "ours") -> str:
    prompt = _REPAIR.format(
        lang=LANGUAGE_NAMES[view.language], task=view.question, code=view.code, facts=_facts_block(facts)
    )
    if view.tests:
        shown = "\n".join([view.test_setup.strip(), *view.tests]).strip()
        prompt += f"\nThe fixed solution must pass these tests:\n{shown}\n"
    return prompt


def prompt_for(view: TaskView, facts: str | None = None, style: PromptStyle = "ours") -> str:
    """The prompt that shows ``view``."""
    build = {
        "bug-localization": localization_prompt,
        "bug-identification": identification_prompt,
        "code-review": review_prompt,
        "code-repair": repair_prompt,
    }[view.task]
    return build(view, facts, style)


def prefill_of(view: TaskView, style: PromptStyle = "ours") -> str:
    """The text the prompt ends with that belongs to the answer (the model continues after it)."""
    if view.task in ("bug-localization", "bug-identification"):
        return "<Answer>"
    return REVIEW_PREFILL if view.task == "code-review" and style == "paper" else ""


# ---------------------------------------------------------------------------------------------------------------
# Extraction.


def answer_span(response: str) -> str:
    """The text inside the first ``<Answer>...</Answer>``; a missing tag counts as present at that end."""
    text = response if "<Answer>" in response else "<Answer>" + response
    text = text if "</Answer>" in text else text + "</Answer>"
    start = text.index("<Answer>") + len("<Answer>")
    end = text.find("</Answer>", start)
    return text[start : end if end >= 0 else len(text)].replace("\n", " ")


def extract_choice(response: str) -> str:
    """The answer as DebugEval reads it: the tag's content, a bare letter wrapped as ``(X)``."""
    answer = answer_span(response).strip()
    if answer in ("A", "B", "C", "D"):
        return f"({answer})"
    return answer


def single_choice(answer: str) -> str | None:
    """The one option an extracted answer gives, or None when it gives none or several."""
    present = [choice for choice in CHOICES if choice in answer]
    return present[0] if len(present) == 1 else None


def choice_correct(response: str, gold: str) -> bool:
    """DebugEval's rule: the gold option occurs in the answer and it is the only option there."""
    answer = extract_choice(response)
    return gold in answer and single_choice(answer) == gold


_REVIEW_LABEL = re.compile(r"\bcode\s*-\s*([ab])\b", re.IGNORECASE)


def _review_labels(text: str) -> set[str]:
    return {label.upper() for label in _REVIEW_LABEL.findall(text)}


def extract_review(response: str, prefill: str = "") -> str:
    """``Code-A``, ``Code-B``, ``don't know`` or the leftover text, following DebugEval's post-processing.

    ``Code-A``/``Code-B`` are matched in any case (``code-a``, ``CODE-B``); ``prefill`` is the part of the answer the
    prompt already wrote (``Code-`` in the paper's layout), put back in front of the model's continuation."""
    response = prefill + response
    if "<answer>" in response.lower():
        answer = answer_span(response).replace("\r", " ")
        labels = _review_labels(answer)
        if len(labels) == 2:
            return "don't know"
        return f"Code-{labels.pop()}" if labels else answer.strip()
    first = response.strip().split("\n", 1)[0]
    if "the correct" in first.lower():
        named = _review_labels(first)
        if len(named) == 1:
            return "Code-A" if named == {"B"} else "Code-B"
        if "B" in first:
            return "Code-A"
        if "A" in first:
            return "Code-B"
    first = first.split(".", 1)[0]
    labels = _review_labels(first)
    if len(labels) == 2:
        return "don't know"
    if labels:
        return f"Code-{labels.pop()}"
    stripped = first.strip()
    if stripped.upper() in ("A", "B"):
        return f"Code-{stripped.upper()}"
    buggy = re.search(r"\b([AB]) is the buggy code", stripped, re.IGNORECASE)
    return f"Code-{buggy.group(1).upper()}" if buggy else stripped


def review_label(answer: str) -> str | None:
    """``A`` or ``B`` when the processed answer names exactly one snippet."""
    labels = _review_labels(answer)
    return labels.pop() if len(labels) == 1 else None


_FENCES = ("code", "cpp", "java", "python", "Python", "python3")


def extract_code(response: str) -> str:
    """The repaired program: the last ```` ```code ```` block, else a language-tagged one, else the first fence."""
    for tag in _FENCES:
        opener = "```" + tag
        position = response.rfind(opener + "\n")
        if position < 0:
            continue
        body = response[position + len(opener) + 1 :]
        end = body.find("```")
        return _clean_code(body if end < 0 else body[:end])
    if "```" in response:
        parts = response.split("```")
        body = parts[1] if len(parts) > 1 else ""
        body = body.split("\n", 1)[1] if "\n" in body and not body.split("\n", 1)[0].strip().count(" ") else body
        return _clean_code(body)
    return _clean_code(response)


def _clean_code(code: str) -> str:
    for label in ("Correct_Solution:", "Corrected_Solution:", "Corrected Solution:"):
        code = code.replace(label, "")
    return code.strip("\n").rstrip() + "\n"
