"""The import graph between packages: foundations never import an arena or a front end, an arena never imports
another arena or a front end, and no two packages import each other (directly or around a cycle).

Every import counts, also the ones inside functions and under ``TYPE_CHECKING``: a lazy import is still an arrow.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import debugtutor

PACKAGE_ROOT = Path(debugtutor.__file__).parent
FOUNDATIONS = {"llm", "sandbox", "analysis", "metrics", "runs", "formats", "maze", "data", "tune"}
ARENAS = {"socratic", "studentsyn", "debugeval", "master"}
FRONT_ENDS = {"cli", "web", "report"}


def _unit(module: str) -> str | None:
    """The package (or top-level module) ``debugtutor.X...`` belongs to."""
    parts = module.split(".")
    if parts[0] != "debugtutor" or len(parts) < 2:
        return None
    return parts[1]


def package_graph(root: Path = PACKAGE_ROOT) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = defaultdict(set)
    for path in root.rglob("*.py"):
        source = path.relative_to(root).parts[0].removesuffix(".py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module == "debugtutor":
                    targets = [f"debugtutor.{alias.name}" for alias in node.names]
                else:
                    targets = [node.module]
            elif isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            for target in targets:
                unit = _unit(target)
                if unit is not None and unit != source:
                    graph[source].add(unit)
    return graph


def test_the_layers_known_here_are_every_package() -> None:
    packages = {p.name for p in PACKAGE_ROOT.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert packages - FOUNDATIONS - ARENAS - FRONT_ENDS <= {"samples"}  # built-in sample data, no code of its own


def test_foundations_import_no_arena_and_no_front_end() -> None:
    graph = package_graph()
    arrows = {(a, b) for a in FOUNDATIONS for b in graph.get(a, set()) if b in ARENAS | FRONT_ENDS}
    assert arrows == set()


def test_arenas_import_no_other_arena_and_no_front_end() -> None:
    graph = package_graph()
    arrows = {(a, b) for a in ARENAS for b in graph.get(a, set()) if b in ARENAS | FRONT_ENDS}
    assert arrows == set()


def test_the_package_graph_has_no_cycle() -> None:
    graph = package_graph()
    state: dict[str, int] = {}  # 1 on the path, 2 done
    cycles: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, set())):
            if state.get(nxt) == 1:
                cycles.append([*path[path.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert cycles == []


def test_the_checker_sees_a_lazy_import_as_an_arrow(tmp_path: Path) -> None:
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "x.py").write_text("def f():\n    from debugtutor.socratic import y\n")
    assert package_graph(tmp_path) == {"runs": {"socratic"}}
