"""Model solvers: ``llm`` (zero-shot, DebugEval's settings) and ``grounded`` (the same prompts plus analysis facts).

Settings follow DebugEval: one user message, temperature 0.2, top_p 0.95, up to 1,024 new tokens; Code Repair asks
for ``n`` samples so pass@k can be estimated. Every raw response is kept in the output, with the pre-fill the prompt
ended with (the scorer reads the answer as pre-fill + continuation). Like every solver, the model sees only the
prompt's :class:`~debugtutor.debugeval.views.TaskView`, and grounding facts come from running and checking the
code(s) that view shows.
"""

from __future__ import annotations

from typing import Any

from debugtutor.debugeval.offline import FactsCache, compile_facts
from debugtutor.debugeval.prompts import PromptStyle, prefill_of, prompt_for
from debugtutor.debugeval.views import TaskView, ViewAnswer, ViewSolver
from debugtutor.llm import GenerationSettings, ModelBackend
from debugtutor.runs import EvalItem, SolverOutput


def debugeval_settings(n: int = 1) -> GenerationSettings:
    return GenerationSettings(n=n, temperature=0.2, top_p=0.95, max_tokens=1024)


class ModelSolver:
    """Ask ``model`` each task's prompt; with ``grounded`` the prompt also carries what the analysis found."""

    def __init__(
        self, model: ModelBackend, *, samples: int = 1, grounded: bool = False, prompt_style: PromptStyle = "ours"
    ) -> None:
        self.model = model
        self.samples = samples
        self.grounded = grounded
        self.prompt_style = prompt_style
        self.cache = FactsCache()

    async def __call__(self, item: EvalItem) -> SolverOutput:
        """The item answered through its views (what :func:`~debugtutor.debugeval.tasks.build_eval_task` runs)."""
        return await ViewSolver(self.answer)(item)

    async def code_facts(self, view: TaskView, code: str) -> str:
        if view.language == "python":
            return (await self.cache.get(code, view.examples)).describe()
        compiled = await compile_facts(code, view.language)
        return "\n".join(f"- line {line}: {message}" for line, _, message in compiled.errors) or "- it compiles"

    async def facts(self, view: TaskView) -> str | None:
        if not self.grounded:
            return None
        if view.task == "code-review":
            first, second = await self.code_facts(view, view.code_a), await self.code_facts(view, view.code_b)
            return f"Code-A:\n{first}\nCode-B:\n{second}"
        return await self.code_facts(view, view.code)

    async def answer(self, view: TaskView) -> ViewAnswer:
        prompt = prompt_for(view, await self.facts(view), self.prompt_style)
        n = self.samples if view.task == "code-repair" else 1
        response = await self.model.generate(prompt, debugeval_settings(n))
        usage: dict[str, Any] = {
            "prompt_tokens": response.usage.prompt_tokens,
            "completion_tokens": response.usage.completion_tokens,
            "cached": int(response.cached),
        }
        return ViewAnswer(responses=list(response.texts), usage=usage, prefill=prefill_of(view, self.prompt_style))
