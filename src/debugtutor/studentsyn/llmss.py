"""LLM-SS: a model back-end asked, in context, to write the observed student's attempt on the target task.

The prompt shows the reference task's grid as text, the student's attempt on it (the readable text form), and the
target task's grid, and asks for the same student's attempt on the target task in one code block. The answer is
read leniently: the first fenced code block if there is one (else the whole answer), parsed as the text form, then
as compact notation. For the discriminative benchmark the synthesized code is matched to the nearest option by
EditD distance; an answer that does not parse falls back to EditD against the reference attempt (recorded).
"""

from __future__ import annotations

import re

from debugtutor.llm import ChatMessage, GenerationSettings, ModelBackend
from debugtutor.llm.base import run_sync
from debugtutor.maze import MazeTask, Program, ProgramSyntaxError, format_program, parse_compact, parse_program
from debugtutor.studentsyn.baselines import EditD
from debugtutor.studentsyn.distances import token_edit_distance
from debugtutor.studentsyn.questions import DEFAULT_SETTING, FamilyBrief, Question, choose

SYSTEM_PROMPT = (
    "You model novice programmers in the Hour of Code Maze. Blocks: move(); turnLeft(); turnRight(); "
    "repeatUntil(goal) { ... }; if (pathAhead|pathLeft|pathRight) { ... } else { ... }. "
    "Grids: # wall, . free, + goal, > < ^ v the avatar facing east, west, north, south."
)
_CODE_BLOCK = re.compile(r"```[a-zA-Z]*\n?(.*?)```", re.DOTALL)


def grid_text(task: MazeTask) -> str:
    """The grid as plain rows of symbols (no row or column numbers), avatar and goal marked."""
    rows = [list(row) for row in task.grid]
    rows[task.goal[0]][task.goal[1]] = "+"
    rows[task.start[0]][task.start[1]] = task.heading.symbol
    return "\n".join("".join(row) for row in rows)


def build_prompt(reference: MazeTask, code_a: Program, target: MazeTask, behaviour_hint: str | None = None) -> str:
    hint = f"\nWhat we know about this student: {behaviour_hint}\n" if behaviour_hint else ""
    return (
        f"A student attempted this reference task:\n```\n{grid_text(reference)}\n```\n"
        f"The student's code:\n```\n{format_program(code_a)}\n```\n{hint}"
        f"Here is a new task with the same concepts:\n```\n{grid_text(target)}\n```\n"
        "Write the code this same student would write for the new task, with the same mistakes. "
        "Answer with the code only, in one ``` code block."
    )


def parse_answer(text: str) -> Program | None:
    """The program in a model's answer, or None when nothing in it parses."""
    blocks = _CODE_BLOCK.findall(text)
    for candidate in [*blocks, text]:
        candidate = candidate.strip()
        for parse in (parse_program, parse_compact):
            try:
                program = parse(candidate)
            except (ProgramSyntaxError, ValueError):
                continue
            if program.body:
                return program
    return None


class LLMSS:
    """Student synthesis by a language model prompted in context (any ``debugtutor.llm`` back-end)."""

    name = "llmss"
    settings: tuple[str, ...] = (DEFAULT_SETTING,)
    reads_true_type = False

    def __init__(self, model: ModelBackend, *, settings: GenerationSettings | None = None) -> None:
        self.model = model
        self.generation = settings or GenerationSettings(temperature=0.0, max_tokens=400)
        self._fallback = EditD()

    def prepare(self, brief: FamilyBrief) -> None:
        """Nothing to learn: the prompt holds everything."""

    def messages(self, question: Question) -> list[ChatMessage]:
        prompt = build_prompt(question.reference.task, question.code_a, question.target.task)
        return [ChatMessage(role="system", content=SYSTEM_PROMPT), ChatMessage(role="user", content=prompt)]

    async def asynthesize(self, question: Question, top_k: int = 3) -> list[Program]:
        settings = self.generation.model_copy(update={"n": top_k}) if top_k > 1 else self.generation
        response = await self.model.generate(self.messages(question), settings)
        programs = [p for p in (parse_answer(text) for text in response.texts) if p is not None]
        return list(dict.fromkeys(programs))[:top_k]

    def synthesize(self, question: Question, top_k: int = 3) -> list[Program]:
        return run_sync(lambda: self.asynthesize(question, top_k))

    async def apredict(self, question: Question) -> dict[str, str]:
        programs = await self.asynthesize(question, 1)
        if not programs:
            return self._fallback.predict(question)
        distances = [float(token_edit_distance(programs[0], option.program)) for option in question.options]
        return {DEFAULT_SETTING: choose(question, distances, lowest=True)}

    def predict(self, question: Question) -> dict[str, str]:
        return run_sync(lambda: self.apredict(question))
