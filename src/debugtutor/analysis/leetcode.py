"""Host-side helpers for LeetCode-style code: ListNode / TreeNode in list notation and ``class Solution`` signatures.

LeetCode writes linked lists as ``[1,2,3]`` and binary trees level by level with ``null`` holes
(``[3,9,20,null,null,15,7]``). These helpers convert both ways on the host (for building and checking test data);
the sandbox's harness does the same conversion inside the sandbox when it calls the code.
"""

from __future__ import annotations

import ast
from collections import deque
from dataclasses import dataclass
from typing import Any

from debugtutor import python_ast
from debugtutor.sandbox import Language, solution_signatures


@dataclass(eq=False)
class ListNode:
    """A singly linked list node, as LeetCode defines it."""

    val: Any = 0
    next: ListNode | None = None


@dataclass(eq=False)
class TreeNode:
    """A binary tree node, as LeetCode defines it."""

    val: Any = 0
    left: TreeNode | None = None
    right: TreeNode | None = None


def list_to_linked(values: list[Any] | None) -> ListNode | None:
    """``[1,2,3]`` -> 1 -> 2 -> 3 (``None`` for an empty list)."""
    head: ListNode | None = None
    for value in reversed(values or []):
        head = ListNode(value, head)
    return head


def linked_to_list(head: ListNode | None, *, limit: int = 100_000) -> list[Any]:
    """1 -> 2 -> 3 -> ``[1,2,3]``; stops after ``limit`` nodes so a cycle cannot hang the caller."""
    values: list[Any] = []
    while head is not None and len(values) < limit:
        values.append(head.val)
        head = head.next
    return values


def list_to_tree(values: list[Any] | None) -> TreeNode | None:
    """LeetCode level-order notation (``None`` for ``null``) -> a tree."""
    if not values or values[0] is None:
        return None
    root = TreeNode(values[0])
    queue: deque[TreeNode] = deque([root])
    index = 1
    while queue and index < len(values):
        node = queue.popleft()
        for side in ("left", "right"):
            if index < len(values) and values[index] is not None:
                child = TreeNode(values[index])
                setattr(node, side, child)
                queue.append(child)
            index += 1
    return root


def tree_to_list(root: TreeNode | None) -> list[Any]:
    """A tree -> LeetCode level-order notation, trailing ``None`` trimmed."""
    values: list[Any] = []
    queue: deque[TreeNode | None] = deque([root] if root is not None else [])
    while queue:
        node = queue.popleft()
        if node is None:
            values.append(None)
            continue
        values.append(node.val)
        queue.append(node.left)
        queue.append(node.right)
    while values and values[-1] is None:
        values.pop()
    return values


@dataclass(frozen=True)
class Parameter:
    """One parameter of the solution method: its name and annotation text (``""`` when unannotated)."""

    name: str
    annotation: str

    @property
    def kind(self) -> str:
        """``tree``/``list``/``trees``/``lists`` for node-typed parameters, else ``""``."""
        node = "tree" if "TreeNode" in self.annotation else "list" if "ListNode" in self.annotation else ""
        if not node:
            return ""
        outer = self.annotation.replace("Optional[", "").replace(" ", "")
        return node + "s" if outer.startswith(("List[", "list[")) else node


@dataclass(frozen=True)
class MethodSignature:
    """The public method of ``class Solution`` that a test calls."""

    name: str
    parameters: tuple[Parameter, ...]
    returns: str


def solution_methods(code: str, language: Language = "python") -> list[MethodSignature]:
    """Public methods of ``class Solution`` in ``code`` (empty when it does not parse or has no such class).

    C++ and Java methods come from the signature reader the sandbox's compiled harnesses use (helpers included,
    declared types as annotations)."""
    if language != "python":
        from debugtutor.analysis.clike.syntax_tree import parse, return_types

        declared_returns = return_types(parse(code, language))
        return [
            MethodSignature(name, tuple(Parameter(param, "") for param in params), declared_returns.get(name, ""))
            for name, params in solution_signatures(code, language)
        ]
    try:
        tree = python_ast.parse(code)
    except (SyntaxError, ValueError):
        return []
    methods: list[MethodSignature] = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "Solution":
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and not item.name.startswith("_"):
                    args = [*item.args.posonlyargs, *item.args.args][1:]  # drop self
                    params = tuple(Parameter(a.arg, ast.unparse(a.annotation) if a.annotation else "") for a in args)
                    returns = ast.unparse(item.returns) if item.returns else ""
                    methods.append(MethodSignature(item.name, params, returns))
    return methods


def entry_method(code: str, names: set[str] | None = None, language: Language = "python") -> MethodSignature | None:
    """The method a LeetCode test calls: the one whose parameters match ``names`` best, else the last public one.

    Helper methods often precede the entry point, which LeetCode's template puts first only when there is no
    helper; matching by argument names settles it when the example names its arguments. (C++ and Java list
    helpers too: without a name match, the one with as many parameters as the example has arguments, the last
    declared first, as the compiled harness picks.)
    """
    methods = solution_methods(code, language)
    if not methods:
        return None
    if language != "python":
        if names:
            exact = [method for method in methods if {p.name for p in method.parameters} == names]
            sized = [method for method in methods if len(method.parameters) == len(names)]
            return (exact or sized or methods)[-1]
        return methods[-1]
    if names:
        for method in methods:
            if {p.name for p in method.parameters} == names:
                return method
    if len(methods) == 1:
        return methods[0]
    return methods[0] if not names else max(methods, key=lambda m: len({p.name for p in m.parameters} & names))
