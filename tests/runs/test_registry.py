"""The registry every arena keeps its solvers in: names in order, one factory each, clear errors."""

from __future__ import annotations

import pytest

from debugtutor.errors import InputError
from debugtutor.runs import Registry


def test_register_create_and_list() -> None:
    shapes: Registry[str] = Registry("shape")

    @shapes.register("square", help="four sides", display="Square")
    def _square(*, size: int = 1) -> str:
        return "#" * size

    @shapes.register("dot", help="one point")
    def _dot(**_: object) -> str:
        return "."

    assert list(shapes) == ["square", "dot"] and len(shapes) == 2 and "dot" in shapes
    assert shapes.create("square", size=3) == "###"
    assert shapes.display("square") == "Square" and shapes.display("dot") == "dot"
    assert shapes.entry("dot").help == "one point"
    with pytest.raises(ValueError, match="twice"):
        shapes.register("dot", help="again")(_dot)


def test_unknown_and_renamed_names_are_input_errors() -> None:
    shapes: Registry[str] = Registry("shape")
    shapes.register("dot", help="one point")(lambda: ".")
    shapes.renamed("point", "'point' is now 'dot'")
    with pytest.raises(InputError, match=r"unknown shape 'cube'.*dot"):
        shapes.create("cube")
    with pytest.raises(InputError, match="'point' is now 'dot'"):
        shapes.create("point")
