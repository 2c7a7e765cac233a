"""LLM-SS with a scripted model: the prompt, lenient parsing of the answer, and the discriminative choice."""

from __future__ import annotations

from debugtutor.llm import ScriptedModel
from debugtutor.maze import compact, parse_compact
from debugtutor.studentsyn import TaskFamily, brief_of, build_instances, present, sheets_of
from debugtutor.studentsyn.llmss import LLMSS, grid_text, parse_answer


def family(families: list[TaskFamily], reference: str) -> TaskFamily:
    return next(f for f in families if f.reference == reference)


def test_parse_answer_is_lenient() -> None:
    assert compact(parse_answer("Sure!\n```\nmove();\nturnLeft();\n```\nThat's it.")) == "M L"  # type: ignore[arg-type]
    assert compact(parse_answer("```text\nM R RUG{IF(pathAhead){M}ELSE{L}}\n```")) == "M R RUG{IF(pathAhead){M}ELSE{L}}"  # type: ignore[arg-type]
    assert parse_answer("I cannot help with that.") is None


def test_llmss_synthesizes_and_chooses_with_a_scripted_model(sample_families: list[TaskFamily]) -> None:
    walk = family(sample_families, "walk")
    instance = build_instances(walk, samples=1)[0]
    answer = instance.options[instance.label]
    model = ScriptedModel([f"```\n{compact(answer)}\n```", "no code here"])
    technique = LLMSS(model)
    technique.prepare(brief_of(walk))
    shown = present(instance, sheets_of(walk))
    assert instance.is_correct(shown.positions[technique.predict(shown.question)["default"]])
    prompt = model.history[0].messages[-1].content
    assert grid_text(walk.tasks["walk"]) in prompt and grid_text(walk.tasks[instance.target_task]) in prompt
    # An answer without code falls back to EditD instead of failing.
    assert technique.predict(shown.question)["default"] in shown.positions
    assert parse_compact(compact(answer)) == answer
