"""The Code Teacher: a step-by-step explanation of each kept problem that ends in its verified answer.

* :class:`OfflineTeacher` writes the explanation in plain words from execution facts alone: how the buggy program
  fails (the compiler's message, the exception, or the failing input with the expected and the actual result), the
  line at fault and what it should say (the diff of the fix), the bug's class, and the answer.
* :class:`LLMTeacher` asks a model for the reasoning, given the verified answer and the same facts.

Either way :func:`check_solution` reads the final answer back out of the text the way a scorer would, and a
solution whose answer disagrees with the verified one (or, for a repair, whose program fails the tests) is discarded.
"""

from __future__ import annotations

from debugtutor.errors import ModelError
from debugtutor.llm import GenerationSettings, ModelBackend
from debugtutor.master.checks import fix_pairs
from debugtutor.master.learner import judge_answer
from debugtutor.master.prompts import TEACHER_SYSTEM, answer_text, class_words, teacher_prompt
from debugtutor.master.records import LANGUAGE_NAMES, QuizProblem, TeacherSolution

_CLASS_REASONS = {
    "syntax": "the code breaks the grammar of the language and cannot even be compiled or parsed",
    "reference": "the code refers to something that does not exist (a name, a method, or an element past the end)",
    "logic": "the code runs, but its logic computes a wrong result",
    "multiple": "the program has more than one error",
}


def _indent(text: str) -> int:
    first = text.splitlines()[0] if text else ""
    return len(first) - len(first.lstrip())


def _lower_first(sentence: str) -> str:
    """A sentence to follow a colon or comma: its first letter in lower case, unless it starts with a name."""
    return sentence if sentence.startswith("Python") else sentence[:1].lower() + sentence[1:]


def _quote(text: str) -> str:
    text = text.strip()
    return f"`{text}`" if "\n" not in text else "\n```\n" + text + "\n```\n"


def evidence(problem: QuizProblem) -> str:
    """What running the buggy program showed, in sentences (no answer in it)."""
    facts = problem.facts
    lang = LANGUAGE_NAMES[problem.language]
    if facts is None:
        return "The program was not run."
    first_line = next((line for line in facts.message.splitlines() if "error" in line.lower()),
                      facts.message.splitlines()[0] if facts.message else "")  # fmt: skip
    if facts.outcome == "compile_error":
        verb = "Python cannot parse the program" if problem.language == "python" else f"The {lang} compiler rejects it"
        return f"{verb}: {first_line.strip()[:200]}"
    if facts.outcome == "exception":
        where = f" on the input {facts.failing_input}" if facts.failing_input else ""
        return f"Running it{where} raises {facts.exception}: {first_line.strip()[:200]}"
    if facts.outcome == "timeout":
        return f"On the input {facts.failing_input} it does not finish in time."
    if facts.outcome == "wrong_answer":
        return (
            f"On the input {facts.failing_input} it should give {facts.expected} but gives {facts.actual} "
            f"({facts.failed_tests} of {facts.total_tests} tests fail)."
        )
    return "A check of the names it uses finds one that is never defined."


def _fault_sentences(problem: QuizProblem) -> list[str]:
    sentences = []
    for line, before, after in fix_pairs(problem.buggy_code, problem.correct_code, problem.language):
        if before and after and before.strip() == after.strip():
            sentences.append(f"Line {line}, {_quote(before)}, is indented by {_indent(before)} spaces where the "
                             f"block needs {_indent(after)}.")  # fmt: skip
        elif before and after:
            sentences.append(f"Line {line} reads {_quote(before)} but should read {_quote(after)}.")
        elif before:
            sentences.append(f"Line {line}, {_quote(before)}, should not be there.")
        else:
            sentences.append(f"Before line {line} the program is missing {_quote(after)}.")
    return sentences


def offline_explanation(problem: QuizProblem) -> str:
    """The offline Teacher's explanation of ``problem``, ending in its answer."""
    found = evidence(problem)
    faults = _fault_sentences(problem)
    reason = _CLASS_REASONS[problem.bug_class]
    if problem.task == "code-review":
        buggy_name = problem.answer
        other = "Code-B" if buggy_name == "Code-A" else "Code-A"
        parts = [f"Run both programs. {other} passes every test. {buggy_name} does not: {_lower_first(found)}",
                 *(f"In {buggy_name}, {_lower_first(fault)}" for fault in faults),
                 f"So {buggy_name} is the buggy one."]  # fmt: skip
    else:
        parts = [found, *faults]
        if problem.task == "bug-localization":
            snippet = problem.options["ABCD".index(problem.answer[1])]
            parts.append(f"Of the options, {problem.answer} {_quote(snippet)} is that faulty code; the other three "
                         "lines are correct as they stand.")  # fmt: skip
        elif problem.task == "bug-identification":
            parts.append(f"This is {class_words(problem.bug_class)}: {reason}.")
        else:
            parts.append(f"So {reason}; correcting {'these lines' if len(faults) > 1 else 'that line'} gives:")
    return "\n".join(parts) + "\n" + answer_text(problem)


async def check_solution(problem: QuizProblem, text: str, teacher: str) -> TeacherSolution:
    """Read the final answer out of a solution and check it against the verified one (repairs run the tests)."""
    judged = await judge_answer(problem, text)
    return TeacherSolution(teacher=teacher, text=text, final_answer=judged.extracted or "", agrees=judged.correct,
                           detail=judged.detail)  # fmt: skip


class OfflineTeacher:
    name = "offline"

    async def solve(self, problem: QuizProblem) -> tuple[TeacherSolution, dict[str, int]]:
        return await check_solution(problem, offline_explanation(problem), self.name), {}


class LLMTeacher:
    """A model writes the reasoning for the verified answer."""

    def __init__(self, model: ModelBackend, *, settings: GenerationSettings | None = None) -> None:
        self.model = model
        self.name = model.spec
        self.settings = settings or GenerationSettings(temperature=0.0, max_tokens=1536)

    async def solve(self, problem: QuizProblem) -> tuple[TeacherSolution, dict[str, int]]:
        try:
            response = await self.model.generate(teacher_prompt(problem, evidence(problem)), self.settings,
                                                 system=TEACHER_SYSTEM)  # fmt: skip
        except ModelError as exc:
            return TeacherSolution(teacher=self.name, text="", final_answer="", agrees=False, detail=str(exc)[:200]), {}
        usage = {"prompt_tokens": response.usage.prompt_tokens, "completion_tokens": response.usage.completion_tokens,
                 "cached": int(response.cached)}  # fmt: skip
        return await check_solution(problem, response.text, self.name), usage
