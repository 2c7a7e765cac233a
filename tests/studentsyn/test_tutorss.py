"""TutorSS scored from the experts' response files: per expert, macro-averaged, three ways of counting."""

from __future__ import annotations

from pathlib import Path

import pytest

from debugtutor.errors import InputError
from debugtutor.maze import parse_compact
from debugtutor.studentsyn import expert_instances, score_tutorss

CODES = """code\tcode_idx\ttask\tmis\tnotes\tstu_id
{'type': 'run', 'children': [{'type': 'move'}]}\t0\tt\t1.0\tstu\tstu1
{'type': 'run', 'children': [{'type': 'move'}, {'type': 'turn_left'}]}\t1\tta\t1.0\tstu\tstu1
{'type': 'run', 'children': [{'type': 'turn_left'}]}\t2\tta\t2.0\tstu\tstu2
{'children': [{'type': 'move'}, {'type': 'turn_left'}], 'type': 'run'}\t5\tta\t\tedit_2\trand9
{'type': 'run', 'children': [{'type': 'move'}, {'type': 'turn_left'}]}\t7\tta\t\tedit_2\trand11
"""
# Options a..j: 1 (the answer), 2, 5 (the answer's program, keys in another order), 7 (the answer's exact text), ...
HEADER = "pred\tlabel\ttaskA\ttaskB\tcodeA\ttutor\tinstid\t" + "\t".join(f"codeB{c}" for c in "abcdefghij")
OPTIONS = "1\t2\t5\t7\t2\t2\t2\t2\t2\t2"
RESPONSES = "\n".join(
    [
        HEADER,
        f"0\t0\tt\tta\t0\tTutorSS1\t0\t{OPTIONS}",  # right
        f"2\t0\tt\tta\t0\tTutorSS2\t0\t{OPTIONS}",  # same program, other text: right only structurally
        "",
        f"3\t0\tt\tta\t0\tTutorSS3\t0\t{OPTIONS}",  # same text: right by the original's rule too
        f"1\t0\tt\tta\t0\tTutorSS1\t1\t{OPTIONS}",  # wrong
        f"0\t0\tt\tta\t0\tTutorSS2\t1\t{OPTIONS}",
        f"1\t0\tt\tta\t0\tTutorSS3\t1\t{OPTIONS}",
    ]
)


@pytest.fixture
def tutor_folder(tmp_path: Path) -> Path:
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "codes_t.tsv").write_text(CODES, encoding="utf-8")
    (tmp_path / "t" / "res_discriminative_t.tsv").write_text(RESPONSES + "\n\n", encoding="utf-8")
    return tmp_path


def test_each_expert_and_the_macro_average(tutor_folder: Path) -> None:
    result = score_tutorss(tutor_folder, "t")
    assert result.instances == 2 and result.targets == ["ta"]
    one, two, three = (result.experts[f"TutorSS{i}"] for i in (1, 2, 3))
    assert (one.strict, one.original, one.structural) == (50.0, 50.0, 50.0)
    assert (two.strict, two.original, two.structural) == (50.0, 50.0, 100.0)
    assert (three.strict, three.original, three.structural) == (0.0, 50.0, 50.0)
    assert result.macro.structural == round((50 + 100 + 50) / 3, 2)
    assert result.macro.strict == round((50 + 50 + 0) / 3, 2)
    assert result.macro.n == 6


def test_the_experts_instances_are_rebuilt(tutor_folder: Path) -> None:
    instances = expert_instances(tutor_folder, "t")
    assert len(instances) == 2
    first = instances[0]
    assert first.behaviour == 1 and first.code_a == parse_compact("M")
    assert first.options[first.label] == parse_compact("M L") and first.is_correct(2)


def test_an_unknown_code_index_names_the_line(tutor_folder: Path) -> None:
    path = tutor_folder / "t" / "res_discriminative_t.tsv"
    path.write_text(RESPONSES.replace("1\t2\t5\t7", "1\t2\t5\t99", 1), encoding="utf-8")
    with pytest.raises(InputError, match="99") as raised:
        score_tutorss(tutor_folder, "t")
    assert raised.value.line == 2


@pytest.mark.shared_data
def test_the_shared_expert_files(shared_data: Path) -> None:
    folder = shared_data / "studentsyn" / "tutorSS"
    for reference in ("hoc4", "hoc18"):
        result = score_tutorss(folder, reference)
        assert set(result.experts) == {"TutorSS1", "TutorSS2", "TutorSS3"}
        # Every expert answered the same instances; the shared copy keeps the targets it has.
        assert {s.n for s in result.experts.values()} == {result.instances}
        assert all(t.startswith(reference) and t != reference for t in result.targets)
        assert 70.0 <= result.macro.structural <= 100.0
        assert len(expert_instances(folder, reference)) == result.instances
