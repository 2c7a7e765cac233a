"""Model solvers: ``llm`` (zero-shot, DebugEval's settings) and ``grounded`` (the same prompts plus analysis facts).

Settings follow DebugEval: one user message, temperature 0.2, top_p 0.95, up to 1,024 new tokens; Code Repair asks
for ``n`` samples so pass@k can be estimated. Every raw response is kept in the output.
"""

from __future__ import annotations

from typing import Any

from debugtutor.debugeval.offline import FactsCache, compile_facts
from debugtutor.debugeval.prompts import identification_prompt, localization_prompt, repair_prompt, review_prompt
from debugtutor.debugeval.records import DebugEvalRecord
from debugtutor.debugeval.scoring import record_of, task_of
from debugtutor.llm import GenerationSettings, ModelBackend
from debugtutor.runs import EvalItem, SolverOutput


def debugeval_settings(n: int = 1) -> GenerationSettings:
    return GenerationSettings(n=n, temperature=0.2, top_p=0.95, max_tokens=1024)


class ModelSolver:
    """Ask ``model`` each task's prompt; with ``grounded`` the prompt also carries what the analysis found."""

    def __init__(self, model: ModelBackend, *, samples: int = 1, grounded: bool = False) -> None:
        self.model = model
        self.samples = samples
        self.grounded = grounded
        self.cache = FactsCache()

    async def facts(self, record: DebugEvalRecord, code: str | None = None) -> str | None:
        if not self.grounded:
            return None
        code = record.buggy_code if code is None else code
        if record.language == "python":
            return (await self.cache.get(code, record.examples)).describe()
        compiled = await compile_facts(code, record.language)
        return "\n".join(f"- line {line}: {message}" for line, _, message in compiled.errors) or "- it compiles"

    async def _ask(self, prompt: str, n: int = 1) -> tuple[list[str], dict[str, Any]]:
        response = await self.model.generate(prompt, debugeval_settings(n))
        usage = {
            "prompt_tokens": response.usage.prompt_tokens,
            "completion_tokens": response.usage.completion_tokens,
            "cached": int(response.cached),
        }
        return list(response.texts), usage

    async def __call__(self, item: EvalItem) -> SolverOutput:
        task, record = task_of(item), record_of(item)
        if task == "code-review":
            forward, usage = await self._ask(
                review_prompt(record, reverse=False, facts=await self._pair_facts(record, False))
            )
            reverse, usage_r = await self._ask(
                review_prompt(record, reverse=True, facts=await self._pair_facts(record, True))
            )
            total = {key: usage[key] + usage_r[key] for key in usage}
            return SolverOutput(
                output={"forward": {"responses": forward}, "reverse": {"responses": reverse}}, usage=total
            )
        facts = await self.facts(record)
        if task == "bug-localization":
            texts, usage = await self._ask(localization_prompt(record, facts))
        elif task == "bug-identification":
            texts, usage = await self._ask(identification_prompt(record, facts))
        else:
            texts, usage = await self._ask(repair_prompt(record, facts), n=self.samples)
        return SolverOutput(output={"responses": texts}, usage=usage)

    async def _pair_facts(self, record: DebugEvalRecord, reverse: bool) -> str | None:
        if not self.grounded:
            return None
        code_a, code_b = (
            (record.correct_code, record.buggy_code) if reverse else (record.buggy_code, record.correct_code)
        )
        return f"Code-A:\n{await self.facts(record, code_a)}\nCode-B:\n{await self.facts(record, code_b)}"
