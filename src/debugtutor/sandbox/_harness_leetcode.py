"""The program-side harness for LeetCode ``class Solution`` calls (standard library only; imported as ``_dt_leetcode``).

It gets the ``code``, the ``calls`` (argument name -> value in LeetCode list notation; never the expected values) and
an optional ``method`` name. Arguments become ``ListNode`` / ``TreeNode`` values according to the method's type
annotations; each result goes back converted to list notation, and the host compares it with the expected value
outside this process. Each call has its own time budget (shared machinery in ``_dt_harness``, i.e.
``_harness_tests.py``).
"""

from __future__ import annotations

import inspect
import json
import math
import typing
from typing import Any

import _dt_codec as codec  # the server imports _value_codec.py under this name
import _dt_harness as harness  # the server imports _harness_tests.py under this name

# What LeetCode's Python 3 environment provides without an import (and what analysis.static assumes is in scope):
# the modules, their public names, and then the builtins again so that e.g. math.pow does not shadow pow.
PRELUDE = """
from typing import *
import collections, heapq, bisect, functools, itertools, math, operator, string, statistics, re, copy, random, sys
from collections import *
from heapq import *
from bisect import *
from functools import *
from itertools import *
from math import *
from operator import *
from string import *
from statistics import *
from builtins import *

class ListNode:
    def __init__(self, val=0, next=None):
        self.val = val
        self.next = next

class TreeNode:
    def __init__(self, val=0, left=None, right=None):
        self.val = val
        self.left = left
        self.right = right
"""
NODE_LIMIT = 100_000  # a cyclic list or tree from buggy code must not make the conversion loop forever


def annotation_kind(annotation: Any) -> str:
    """'tree', 'list', 'trees', 'lists' or '' from an annotation such as ``List[Optional[ListNode]]``."""
    text = annotation.__name__ if isinstance(annotation, type) else str(annotation)
    text = text.replace(" ", "").replace("typing.", "")
    node = "tree" if "TreeNode" in text else "list" if "ListNode" in text else ""
    if node and any(text.startswith(prefix) for prefix in ("List[", "list[", "Sequence[")):
        return node + "s"
    return node


def build_list(values: Any, ns: dict[str, Any]) -> Any:
    head = None
    for value in reversed(values or []):
        head = ns["ListNode"](value, head)
    return head


def build_tree(values: Any, ns: dict[str, Any]) -> Any:
    if not values or values[0] is None:
        return None
    node_cls = ns["TreeNode"]
    root = node_cls(values[0])
    queue = [root]
    position = 1
    for node in queue:
        if position >= len(values):
            break
        if values[position] is not None:
            node.left = node_cls(values[position])
            queue.append(node.left)
        position += 1
        if position < len(values) and values[position] is not None:
            node.right = node_cls(values[position])
            queue.append(node.right)
        position += 1
    return root


def convert_arg(value: Any, kind: str, ns: dict[str, Any]) -> Any:
    if kind == "list":
        return build_list(value, ns)
    if kind == "tree":
        return build_tree(value, ns)
    if kind == "lists":
        return [build_list(item, ns) for item in value]
    if kind == "trees":
        return [build_tree(item, ns) for item in value]
    return value


def to_plain(value: Any, ns: dict[str, Any]) -> Any:
    """A JSON value in LeetCode notation for whatever the method returned."""
    if isinstance(value, ns["ListNode"]):
        out: list[Any] = []
        while value is not None and len(out) < NODE_LIMIT:
            out.append(to_plain(value.val, ns))
            value = value.next
        return out
    if isinstance(value, ns["TreeNode"]):
        out, queue = [], [value]
        for node in queue:
            if len(out) >= NODE_LIMIT:
                break
            if node is None:
                out.append(None)
                continue
            out.append(to_plain(node.val, ns))
            queue.extend([node.left, node.right])
        while out and out[-1] is None:
            out.pop()
        return out
    if isinstance(value, (list, tuple)):
        return [to_plain(item, ns) for item in value]
    if isinstance(value, (set, frozenset)):
        return sorted((to_plain(item, ns) for item in value), key=json.dumps)
    if isinstance(value, dict):
        return {str(key): to_plain(item, ns) for key, item in value.items()}
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if hasattr(value, "__iter__") and not isinstance(value, (bytes, bytearray)):
        try:  # a generator, map, deque or other iterable reads as the list it yields, as on LeetCode
            return [to_plain(item, ns) for item in value]
        except Exception:
            pass
    return codec.safe_repr(value)


def pick_method(ns: dict[str, Any], name: str | None) -> str:
    solution = ns.get("Solution")
    if solution is None:
        raise NameError("the code defines no class Solution")
    if name:
        if not callable(getattr(solution, name, None)):
            raise AttributeError(f"Solution has no method {name!r}")
        return name
    public = [key for key, value in vars(solution).items() if not key.startswith("_") and callable(value)]
    if len(public) != 1:
        raise ValueError(f"Solution has {len(public)} public methods {public}; say which one to call")
    return public[0]


def call_once(
    ns: dict[str, Any],
    method_name: str,
    call: dict[str, Any],
    kinds: list[str] | None = None,
    return_kind: str | None = None,
) -> dict[str, Any]:
    """Call the method once; ``kinds`` (the node kind of each argument in order, from the problem's signature) and
    ``return_kind`` take precedence over the code's own type hints, so a submission without hints still receives
    trees and lists."""
    instance = ns["Solution"]()
    method = getattr(instance, method_name)
    try:
        hints: dict[str, Any] = typing.get_type_hints(method, globalns=ns)
    except Exception:
        hints = dict(getattr(method, "__annotations__", {}))
    params = [p for p in inspect.signature(method).parameters.values()]
    args = call["args"]
    names = [p.name for p in params]
    if kinds is not None:
        chosen = [kinds[i] if i < len(kinds) else "" for i in range(len(args))]
    else:
        chosen = [annotation_kind(hints.get(key, "")) for key in args]
    converted = {key: convert_arg(value, kind, ns) for (key, value), kind in zip(args.items(), chosen)}
    if all(key in names for key in converted):
        result = method(**converted)
        first = converted.get(names[0]) if names else None
    else:
        positional = list(converted.values())
        result = method(*positional)
        first = positional[0] if positional else None
    returns = hints.get("return", "")
    if result is None and returns in (None, type(None), "None") and first is not None:
        result = first  # "do not return anything, modify in place": the judge looks at the first argument
    kind_of_result = return_kind if return_kind is not None else annotation_kind(returns)
    # An empty list or tree is None in Python and [] in LeetCode notation.
    actual = [] if result is None and kind_of_result in ("list", "tree") else to_plain(result, ns)
    return {"actual": actual}


def main(job: dict[str, Any]) -> None:
    loaded = harness.load_code(job, PRELUDE)
    if loaded is None:
        return
    ns, code_path = loaded
    try:
        method_name = pick_method(ns, job.get("method"))
    except BaseException as exc:
        harness.emit({"event": "setup_error", "status": "error", "exception": harness.exception_info(exc, code_path)})
        return
    budget = float(job["per_test_s"])
    kinds = job.get("kinds")
    return_kind = job.get("return_kind")
    for index, call in enumerate(job["calls"], start=int(job.get("start", 0))):

        def work(call: dict[str, Any] = call) -> dict[str, Any]:
            return call_once(ns, method_name, call, kinds, return_kind)

        harness.emit(harness.run_with_alarm(index, budget, work, code_path))
