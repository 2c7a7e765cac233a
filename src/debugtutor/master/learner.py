"""The Code Learner: the model to be trained tries each problem; MASTER keeps the problems it gets wrong.

Any model spec can learn. It gets ``attempts`` tries (one greedy try by default; several are sampled), each read
with the answer format the problem asked for and judged exactly: the one option given must be the gold one, the named
snippet must be the buggy one, and a repair must pass the problem's tests in the sandbox. A problem is kept when any
attempt is wrong (the learner is not reliably right on it); every answer is recorded.
"""

from __future__ import annotations

from typing import Any

from debugtutor.llm import GenerationSettings, ModelBackend
from debugtutor.master.checks import run_tests
from debugtutor.master.prompts import LEARNER_SYSTEM, extract_answer, problem_prompt
from debugtutor.master.records import LearnerAttempt, QuizProblem
from debugtutor.sandbox import Status

CHOICE_MAX_TOKENS = 512
REPAIR_MAX_TOKENS = 1024


async def judge_answer(problem: QuizProblem, response: str) -> LearnerAttempt:
    """Read and judge one response to ``problem`` (repairs run against the problem's tests)."""
    extracted = extract_answer(problem.task, response)
    if extracted is None:
        return LearnerAttempt(response=response, extracted=None, correct=False, detail="no answer in the format asked")
    if problem.task != "code-repair":
        return LearnerAttempt(response=response, extracted=extracted, correct=extracted == problem.answer)
    if problem.tests is None:
        raise ValueError(f"problem {problem.id} has no tests to judge a repair with")
    report = await run_tests(extracted, problem.tests, problem.language)
    detail = f"{report.passed}/{len(report.tests)} tests pass" + (f" ({report.status.value})" if report.tests else "")
    return LearnerAttempt(response=response, extracted=extracted, correct=report.status == Status.passed, detail=detail)


class Learner:
    """A model answering problems, ``attempts`` times each."""

    def __init__(self, model: ModelBackend, *, attempts: int = 1) -> None:
        if attempts < 1:
            raise ValueError("attempts must be at least 1")
        self.model = model
        self.attempts = attempts

    def settings(self, problem: QuizProblem) -> GenerationSettings:
        sampled = self.attempts > 1
        return GenerationSettings(
            n=self.attempts,
            temperature=0.7 if sampled else 0.0,
            top_p=0.95 if sampled else 1.0,
            max_tokens=REPAIR_MAX_TOKENS if problem.task == "code-repair" else CHOICE_MAX_TOKENS,
            seed=0,
        )

    async def attempt(self, problem: QuizProblem) -> tuple[list[LearnerAttempt], dict[str, Any]]:
        """The judged attempts and the tokens they cost."""
        response = await self.model.generate(problem_prompt(problem), self.settings(problem), system=LEARNER_SYSTEM)
        attempts = [await judge_answer(problem, text) for text in response.texts]
        usage = {"prompt_tokens": response.usage.prompt_tokens,
                 "completion_tokens": response.usage.completion_tokens, "cached": int(response.cached)}  # fmt: skip
        return attempts, usage
