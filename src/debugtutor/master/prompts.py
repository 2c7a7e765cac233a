"""What MASTER's agents are told, in our own words, and how their answers are read.

* :func:`problem_prompt` is the problem as the Learner sees it, and the instruction of every SFT example. It uses
  DebugEval's answer formats (``<Answer>(B)</Answer>`` for the two multiple-choice tasks, ``<Answer>Code-A</Answer>``
  for review, a fenced block opened with three backticks and ``code`` for repair), so a model tuned on it answers
  ``debugtutor debugeval eval``'s prompts in the form their scorer reads.
* :func:`quizzer_prompt` asks a strong model for a new problem of one task, with one worked demonstration, in a
  tagged layout that :func:`parse_quiz` reads back.
* :func:`teacher_prompt` gives the Teacher the problem and its verified answer and asks for a step-by-step
  explanation that ends in that answer.
"""

from __future__ import annotations

import re

from debugtutor.master.records import (
    CHOICE_BY_CLASS,
    LANGUAGE_NAMES,
    LETTERS,
    BugClass,
    LanguageName,
    QuizProblem,
    TaskName,
)

CHOICES = tuple(f"({letter})" for letter in LETTERS)

LEARNER_SYSTEM = "You are a programmer solving debugging exercises. Answer from your own understanding of the code."
QUIZZER_SYSTEM = (
    "You are an expert programmer who writes debugging exercises that make other programmers think hard. Every "
    "exercise you write is exact: the bug is real, and the answer you give is the only right one."
)
TEACHER_SYSTEM = (
    "You are an experienced debugger teaching a colleague. You explain step by step how to find a bug from the code "
    "and the evidence, and you end with the answer."
)

_CLASS_LINES = """(A) Syntax Error: the code breaks the grammar of the language (a missing or misspelt token, an \
unclosed bracket or string, a bad comment mark or indentation).
(B) Reference Error: the code uses something that does not exist (an undefined variable, function, method or \
property, an index past the end, a keyword of another language).
(C) Logical Error: the code runs but computes a wrong result because its logic is wrong.
(D) Multiple Errors: the code has more than one error."""


def render_options(options: list[str]) -> str:
    blocks = []
    for letter, snippet in zip(LETTERS, options):
        lines = snippet.splitlines() or [""]
        blocks.append("\n".join([f"({letter}) {lines[0]}", *("    " + line for line in lines[1:])]))
    return "\n".join(blocks)


def review_codes(problem: QuizProblem) -> tuple[str, str]:
    """(Code-A, Code-B): the buggy program is the one named by the answer."""
    if problem.answer == "Code-A":
        return problem.buggy_code, problem.correct_code
    return problem.correct_code, problem.buggy_code


def problem_prompt(problem: QuizProblem) -> str:
    """The problem as one user message, for the Learner and as an SFT instruction."""
    lang = LANGUAGE_NAMES[problem.language]
    if problem.task == "bug-localization":
        return (
            f"Below are a programming task, a {lang} solution that has a bug, and four pieces of that solution. "
            "Exactly one piece holds the bug. Which one?\n"
            "End your reply with the letter of that piece as <Answer>(X)</Answer>.\n\n"
            f"Task:\n{problem.question}\n\nIncorrect_Solution:\n{problem.buggy_code}\nOptions:\n"
            f"{render_options(problem.options)}\n"
        )
    if problem.task == "bug-identification":
        return (
            f"Below are a programming task and a {lang} solution that has a bug. What kind of error is it?\n"
            f"{_CLASS_LINES}\n"
            "End your reply with one letter as <Answer>(X)</Answer>; when there are several errors, answer (D).\n\n"
            f"Task:\n{problem.question}\n\nIncorrect_Solution:\n{problem.buggy_code}"
        )
    if problem.task == "code-review":
        code_a, code_b = review_codes(problem)
        return (
            f"Below are a programming task and two {lang} solutions, Code-A and Code-B. One is correct and the other "
            "has a bug. Which one has the bug?\nEnd your reply with <Answer>Code-A</Answer> or "
            "<Answer>Code-B</Answer>.\n\n"
            f"Task:\n{problem.question}\n\nCode-A:\n{code_a}\nCode-B:\n{code_b}"
        )
    return (
        f"Below are a programming task and a {lang} solution that does not work. Fix it, keeping its function and "
        "class names, and give the whole fixed program in one block that starts with ```code and ends with ```.\n\n"
        f"Task:\n{problem.question}\n\nIncorrect_Solution:\n{problem.buggy_code}"
    )


def answer_text(problem: QuizProblem) -> str:
    """The bare gold answer in the form the problem asks for."""
    if problem.task == "code-repair":
        return f"```code\n{problem.correct_code.rstrip()}\n```"
    return f"<Answer>{problem.answer}</Answer>"


# ---------------------------------------------------------------------------------------------------------------
# Reading answers.

_ANSWER = re.compile(r"<Answer>(.*?)(?:</Answer>|$)", re.S)


def _answer_spans(response: str) -> list[str]:
    return [match.group(1) for match in _ANSWER.finditer(response)]


def extract_choice(response: str) -> str | None:
    """The one option ``(A)``-``(D)`` the last ``<Answer>`` gives (a bare letter counts), else None. Without the tag
    the whole response is read, and, as in DebugEval's reading, it counts only when it names exactly one option."""
    spans = _answer_spans(response)
    text = spans[-1] if spans else response
    stripped = text.strip().strip(".")
    if stripped in LETTERS:
        return f"({stripped})"
    present = [choice for choice in CHOICES if choice in text]
    return present[0] if len(present) == 1 else None


def extract_review(response: str) -> str | None:
    """``Code-A`` or ``Code-B`` when the last ``<Answer>`` (else the first line) names exactly one."""
    spans = _answer_spans(response)
    text = spans[-1] if spans else (response.strip().splitlines() or [""])[0]
    has_a, has_b = bool(re.search(r"code-a", text, re.I)), bool(re.search(r"code-b", text, re.I))
    return "Code-A" if has_a and not has_b else "Code-B" if has_b and not has_a else None


def extract_code(response: str) -> str | None:
    """The last fenced block of a response (```` ```code ```` preferred), or None when there is none."""
    blocks = re.findall(r"```[ \t]*([\w+#-]*)[ \t]*\n(.*?)```", response, re.S)
    if not blocks:
        return None
    tagged = [body for tag, body in blocks if tag == "code"]
    body = tagged[-1] if tagged else blocks[-1][1]
    return body.rstrip() + "\n"


def extract_answer(task: TaskName, response: str) -> str | None:
    if task in ("bug-localization", "bug-identification"):
        return extract_choice(response)
    if task == "code-review":
        return extract_review(response)
    return extract_code(response)


# ---------------------------------------------------------------------------------------------------------------
# The Quizzer: one demonstration per task, a tagged layout to parse.

_DEMO_QUESTION = "Given an array nums, return the largest value in it."
_DEMO_CORRECT = """class Solution:
    def largest(self, nums: List[int]) -> int:
        best = nums[0]
        for value in nums:
            if value > best:
                best = value
        return best
"""
_DEMO_BUGGY = _DEMO_CORRECT.replace("if value > best:", "if value < best:")
_DEMO_TESTS = """assert Solution().largest([3, 1, 4]) == 4
assert Solution().largest([-2, -7]) == -2
assert Solution().largest([5]) == 5"""

_FORMAT = {
    "bug-localization": "<options>\n(A) ...\n(B) ...\n(C) ...\n(D) ...\n</options>\n<answer>(X)</answer>",
    "bug-identification": "<answer>(X)</answer>  (A syntax, B reference, C logic, D multiple errors)",
    "code-review": "(nothing more: the buggy and the correct program are all a review needs)",
    "code-repair": "(nothing more: the correct program is the repair)",
}
_DEMO_EXTRA = {
    "bug-localization": "<options>\n(A) best = nums[0]\n(B) if value < best:\n(C) return best\n(D) for value in nums:\n"
    "</options>\n<answer>(B)</answer>",
    "bug-identification": "<answer>(C)</answer>",
    "code-review": "",
    "code-repair": "",
}
_TASK_WORDS = {
    "bug-localization": "a bug-localization exercise: four options, each one line copied from the buggy program, "
    "exactly one of them the line with the bug",
    "bug-identification": "a bug-identification exercise: a buggy program whose single kind of error (or several "
    "errors) the solver must name",
    "code-review": "a code-review exercise: a buggy and a correct program for the same task, the solver must say "
    "which one is buggy",
    "code-repair": "a code-repair exercise: a buggy program the solver must fix",
}


def quizzer_prompt(task: TaskName, language: LanguageName, *, seed_question: str = "", seed_code: str = "") -> str:
    """Ask for one new problem of ``task`` in ``language``; optionally built on a given task and correct program."""
    lang = LANGUAGE_NAMES[language]
    extra_demo = _DEMO_EXTRA[task]
    demo = (
        f"<task>\n{_DEMO_QUESTION}\n</task>\n<correct_code>\n{_DEMO_CORRECT}</correct_code>\n"
        f"<buggy_code>\n{_DEMO_BUGGY}</buggy_code>\n<tests>\n{_DEMO_TESTS}\n</tests>\n"
        + (extra_demo + "\n" if extra_demo else "")
    )
    seed = (
        f"Build the exercise on this task and its correct {lang} program (copy the program into <correct_code> "
        f"unchanged):\n<task>\n{seed_question}\n</task>\n<correct_code>\n{seed_code}</correct_code>\n\n"
        if seed_code
        else f"Make up a small {lang} task of your own.\n\n"
    )
    tests_note = (
        "In <tests> give assert lines in Python that call the program (for a class Solution: "
        "assert Solution().method(args) == expected)."
        if language == "python"
        else 'In <tests> give one call per line as JSON: {"args": {"parameter": value, ...}, "expected": value}, '
        "for the method of class Solution."
    )
    return (
        f"Write {_TASK_WORDS[task]}, in {lang}.\n{seed}"
        "Write the task, a correct program, the buggy program (the correct one with a bug put in), and tests that "
        f"the correct program passes and the buggy one fails. {tests_note}\n"
        f"Use exactly this layout, then stop:\n<task>...</task>\n<correct_code>...</correct_code>\n"
        f"<buggy_code>...</buggy_code>\n<tests>...</tests>\n{_FORMAT[task]}\n\n"
        f"Example of the layout (Python, one task):\n{demo}"
    )


def tagged(text: str, tag: str) -> str | None:
    """The content of the last ``<tag>...</tag>`` in ``text`` (fences inside stripped), or None."""
    matches = re.findall(rf"<{tag}>\s*\n?(.*?)</{tag}>", text, re.S)
    if not matches:
        return None
    body = matches[-1]
    fenced = re.fullmatch(r"\s*```[\w+#-]*\n(.*?)```\s*", body, re.S)
    return fenced.group(1) if fenced else body


# ---------------------------------------------------------------------------------------------------------------
# The Teacher.

_CLASS_WORDS: dict[BugClass, str] = {"syntax": "a syntax error", "reference": "a reference error",
                                     "logic": "a logical error", "multiple": "multiple errors"}  # fmt: skip


def class_words(bug_class: BugClass) -> str:
    return f"{_CLASS_WORDS[bug_class]} {CHOICE_BY_CLASS[bug_class]}"


def teacher_prompt(problem: QuizProblem, evidence: str) -> str:
    """The problem, its verified answer and what execution showed; asks for reasoning that ends in that answer."""
    return (
        f"{problem_prompt(problem)}\n\n"
        f"The verified answer is: {answer_text(problem)}\n"
        f"What running the code showed:\n{evidence}\n\n"
        "Explain step by step, as you would to a colleague, how one finds this answer from the code (the evidence may "
        "help; do not say that you were told the answer). Then end with the answer in exactly the format the "
        "exercise asks for."
    )
