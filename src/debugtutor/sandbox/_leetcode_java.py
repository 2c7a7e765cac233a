"""The Java program that calls a LeetCode ``class Solution`` method: one ``main`` for all calls, results as JSON lines.

The counterpart of ``_leetcode_cpp.py``: a regex over the class body finds the method, its parameter types map to
the same :class:`ValueType` tree, arguments become Java literals, and each result is printed after the shared marker.
The user's imports move to the top of the file (Java requires it) and a ``public class Solution`` loses ``public`` so
the harness class can be the file's public class.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

from debugtutor.sandbox._leetcode_cpp import (
    CppMethod,
    ValueType,
    argument_literals,
    call_values,
    checked_signature,
    choose_method,
    code_only,
    split_top_level,
)

MAIN_CLASS = "DebugtutorMain"

_SCALARS = {
    "int": "int",
    "Integer": "int",
    "long": "long",
    "Long": "long",
    "double": "double",
    "Double": "double",
    "float": "float",
    "boolean": "bool",
    "Boolean": "bool",
    "String": "string",
    "char": "char",
    "Character": "char",
}
_BOXED = {
    "int": "Integer",
    "long": "Long",
    "double": "Double",
    "float": "Float",
    "bool": "Boolean",
    "char": "Character",
}
_PRIMITIVE = {"int": "int", "long": "long", "double": "double", "float": "float", "bool": "boolean", "char": "char"}

_METHOD = re.compile(
    r"(?:(?:public|private|protected|static|final|synchronized)\s+)*([A-Za-z_][\w<>\[\],\s?]*?)\s+([A-Za-z_]\w*)"
    r"\s*\(([^()]*)\)\s*(?:throws\s+[\w.,\s]+)?\{"
)
_NOT_TYPES = {"return", "else", "new", "if", "while", "for", "switch", "catch"}


def solution_methods(code: str) -> list[CppMethod]:
    """The methods declared in ``class Solution`` (helpers included), in order."""
    code = code_only(code)
    start = re.search(r"\bclass\s+Solution\b[^{]*\{", code)
    if start is None:
        return []
    methods = []
    for match in _METHOD.finditer(code[start.end() :]):
        returns, name = " ".join(match.group(1).split()), match.group(2)
        if name in _NOT_TYPES or returns.split()[-1] in _NOT_TYPES or name == "Solution":
            continue
        params = []
        for piece in split_top_level(match.group(3)):
            found = re.fullmatch(r"\s*(?:final\s+)?(.*?)\s*([A-Za-z_]\w*)\s*", piece, re.S)
            if found is None:
                break
            params.append((" ".join(found.group(1).split()), found.group(2)))
        else:
            methods.append(CppMethod(name=name, returns=returns, parameters=params))
    return methods


def parse_type(text: str) -> ValueType | None:
    """The type tree of a Java type, or None when it is not supported."""
    text = re.sub(r"\s+", "", text)
    if text in _SCALARS:
        return ValueType(_SCALARS[text])
    if text == "void":
        return ValueType("void")
    if text == "ListNode":
        return ValueType("list")
    if text == "TreeNode":
        return ValueType("tree")
    if text.endswith("[]"):
        item = parse_type(text[:-2])
        if item is not None and item.kind in ("int", "long", "double", "bool", "string", "char", "array"):
            return ValueType("array", item)
        return None
    inner = re.fullmatch(r"(?:List|ArrayList)<(.*)>", text)
    if inner:
        item = parse_type(inner.group(1))
        if item is not None and item.kind in ("int", "long", "double", "bool", "string", "char", "vector"):
            return ValueType("vector", item)
    return None


def java_type(vtype: ValueType, boxed: bool = False) -> str:
    if vtype.kind == "array" and vtype.item is not None:
        return java_type(vtype.item) + "[]"
    if vtype.kind == "vector" and vtype.item is not None:
        return f"List<{java_type(vtype.item, boxed=True)}>"
    if vtype.kind in ("list", "tree"):
        return {"list": "ListNode", "tree": "TreeNode"}[vtype.kind]
    if vtype.kind == "string":
        return "String"
    return _BOXED[vtype.kind] if boxed else _PRIMITIVE[vtype.kind]


def _literal(value: Any, vtype: ValueType) -> str:
    """A Java expression of type ``vtype`` for a JSON value; ValueError when the value does not fit."""
    kind = vtype.kind
    if kind in ("int", "long"):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{value!r} is not an integer")
        if kind == "int" and not -(2**31) <= value < 2**31:
            raise ValueError(f"{value} does not fit an int")
        return f"{value}L" if kind == "long" else str(value)
    if kind in ("double", "float"):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ValueError(f"{value!r} is not a number")
        return repr(float(value)) + ("f" if kind == "float" else "")
    if kind == "bool":
        if not isinstance(value, bool):
            raise ValueError(f"{value!r} is not a bool")
        return "true" if value else "false"
    if kind == "string":
        if not isinstance(value, str):
            raise ValueError(f"{value!r} is not a string")
        return json.dumps(value, ensure_ascii=True)  # JSON's escapes are valid in a Java string literal
    if kind == "char":
        if not isinstance(value, str) or len(value) != 1:
            raise ValueError(f"{value!r} is not one character")
        return f"(char){ord(value)}"
    if kind in ("array", "vector") and vtype.item is not None:
        if not isinstance(value, list):
            raise ValueError(f"{value!r} is not a list")
        items = ", ".join(_literal(item, vtype.item) for item in value)
        if kind == "array":
            return f"new {java_type(vtype)}{{{items}}}"
        return f"{MAIN_CLASS}.<{java_type(vtype.item, boxed=True)}>dtList({items})"
    if kind in ("list", "tree"):
        if not isinstance(value, list):
            raise ValueError(f"{value!r} is not a list")
        if kind == "list" and None in value:
            raise ValueError("a linked list cannot hold null")
        items = ", ".join("null" if item is None else _literal(item, ValueType("int")) for item in value)
        return f"dtList{kind.title()}(new Integer[]{{{items}}})"
    raise ValueError(f"unsupported type {kind}")


# ``javafx.util.Pair``: LeetCode's Java environment provides it and a plain JDK does not.
PAIR = """
class Pair<K, V> {
    private final K key;
    private final V value;
    public Pair(K key, V value) { this.key = key; this.value = value; }
    public K getKey() { return key; }
    public V getValue() { return value; }
    @Override public boolean equals(Object other) {
        if (!(other instanceof Pair)) return false;
        Pair<?, ?> that = (Pair<?, ?>) other;
        return java.util.Objects.equals(key, that.key) && java.util.Objects.equals(value, that.value);
    }
    @Override public int hashCode() { return java.util.Objects.hash(key, value); }
    @Override public String toString() { return key + "=" + value; }
}
"""
_PAIR_IMPORT = re.compile(r"(?m)^[ \t]*import\s+javafx\.util\.(?:Pair|\*)\s*;[ \t]*$")


def leetcode_library(code: str) -> str:
    """``code`` with what LeetCode's environment adds to a Java program: :data:`PAIR` after it when it uses ``Pair``
    without defining one (its ``javafx`` import blanked, so line numbers stay)."""
    if not re.search(r"\bPair\s*<", code) or re.search(r"\b(?:class|record|interface)\s+Pair\b", code):
        return code
    return _PAIR_IMPORT.sub("", code).rstrip("\n") + "\n" + PAIR


PRELUDE = """import java.util.*;
import java.util.function.*;
import java.util.stream.*;
import java.math.*;
"""

NODES = """
class ListNode {
    int val;
    ListNode next;
    ListNode() {}
    ListNode(int val) { this.val = val; }
    ListNode(int val, ListNode next) { this.val = val; this.next = next; }
}

class TreeNode {
    int val;
    TreeNode left;
    TreeNode right;
    TreeNode() {}
    TreeNode(int val) { this.val = val; }
    TreeNode(int val, TreeNode left, TreeNode right) { this.val = val; this.left = left; this.right = right; }
}
"""

RUNTIME = """
    static final int NODE_LIMIT = 100000;  // a cyclic list or tree from buggy code must not print forever

    @SafeVarargs
    static <T> List<T> dtList(T... items) { return new ArrayList<>(Arrays.asList(items)); }

    static ListNode dtListList(Integer[] values) {
        ListNode head = null;
        for (int i = values.length - 1; i >= 0; i--) head = new ListNode(values[i], head);
        return head;
    }

    static TreeNode dtListTree(Integer[] values) {
        if (values.length == 0 || values[0] == null) return null;
        TreeNode root = new TreeNode(values[0]);
        ArrayDeque<TreeNode> queue = new ArrayDeque<>();
        queue.add(root);
        int position = 1;
        while (!queue.isEmpty() && position < values.length) {
            TreeNode node = queue.poll();
            if (position < values.length && values[position] != null)
                queue.add(node.left = new TreeNode(values[position]));
            position++;
            if (position < values.length && values[position] != null)
                queue.add(node.right = new TreeNode(values[position]));
            position++;
        }
        return root;
    }

    static String str(String v) {
        StringBuilder out = new StringBuilder("\\"");
        for (char c : v.toCharArray()) {
            if (c == '"' || c == '\\\\') out.append('\\\\').append(c);
            else if (c < 32 || c > 126) out.append(String.format("\\\\u%04x", (int) c));
            else out.append(c);
        }
        return out.append('"').toString();
    }

    static String json(Object v) {
        if (v == null) return "null";
        if (v instanceof String) return str((String) v);
        if (v instanceof Character) return str(String.valueOf(v));
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) return str(Double.isNaN(d) ? "nan" : d > 0 ? "inf" : "-inf");
            return Double.toString(d);
        }
        if (v instanceof Number || v instanceof Boolean) return String.valueOf(v);
        StringBuilder out = new StringBuilder("[");
        if (v instanceof ListNode) {
            int n = 0;
            for (ListNode node = (ListNode) v; node != null && n < NODE_LIMIT; node = node.next, n++)
                out.append(n > 0 ? "," : "").append(node.val);
            return out.append("]").toString();
        }
        if (v instanceof TreeNode) {
            List<String> items = new ArrayList<>();
            ArrayDeque<TreeNode> queue = new ArrayDeque<>();
            List<TreeNode> order = new ArrayList<>();
            order.add((TreeNode) v);
            for (int i = 0; i < order.size() && items.size() < NODE_LIMIT; i++) {
                TreeNode node = order.get(i);
                if (node == null) { items.add("null"); continue; }
                items.add(String.valueOf(node.val));
                order.add(node.left);
                order.add(node.right);
            }
            while (!items.isEmpty() && items.get(items.size() - 1).equals("null")) items.remove(items.size() - 1);
            return "[" + String.join(",", items) + "]";
        }
        List<Object> items = new ArrayList<>();
        if (v instanceof Collection) items.addAll((Collection<?>) v);
        else if (v.getClass().isArray()) {
            int length = java.lang.reflect.Array.getLength(v);
            for (int i = 0; i < length; i++) items.add(java.lang.reflect.Array.get(v, i));
        } else return str(String.valueOf(v));
        for (int i = 0; i < items.size(); i++) out.append(i > 0 ? "," : "").append(json(items.get(i)));
        return out.append("]").toString();
    }

    static java.io.OutputStream judge;

    static void report(String line) {
        // the judge's channel (fd 3), never System.out, which belongs to the solution's own prints
        try {
            if (judge == null) judge = new java.io.FileOutputStream("/proc/self/fd/3");
            judge.write(line.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            judge.flush();
        } catch (java.io.IOException e) {
            // nothing can be reported: the host counts the call as not answered
        }
    }

    static void emit(int index, long started, Object value) {
        double seconds = (System.nanoTime() - started) / 1e9;
        report("{\\"event\\": \\"test\\", \\"index\\": " + index + ", \\"wall_s\\": " + seconds
            + ", \\"actual\\": " + json(value) + "}\\n");
    }
"""


def pick_method(code: str, method: str | None, arguments: Mapping[str, Any] | None = None) -> CppMethod:
    """The method to call, by the C++ harness's rule (:func:`~debugtutor.sandbox._leetcode_cpp.choose_method`)."""
    return choose_method(solution_methods(code), method, arguments)


def build_program(code: str, calls: list[dict[str, Any]], method: str | None, start: int = 0) -> str:
    """The whole Java source (public class :data:`MAIN_CLASS`) calling ``method`` once per call."""
    code = leetcode_library(code)
    chosen = pick_method(code, method, calls[0]["args"] if calls else None)
    types, returns = checked_signature(chosen, parse_type)
    blocks = []
    for index, call in enumerate(calls, start=start):
        values = call_values(chosen, types, call, index)
        lines = [f"        {{  // call {index}"]
        for position, (type_name, literal) in enumerate(argument_literals(chosen, types, values, _literal, java_type)):
            lines.append(f"            {type_name} arg{position} = {literal};")
        arguments = ", ".join(f"arg{position}" for position in range(len(types)))
        lines.append("            Solution solution = new Solution();")
        lines.append("            long started = System.nanoTime();")
        if returns.kind == "void":
            lines.append(f"            solution.{chosen.name}({arguments});")
            lines.append(f"            emit({index}, started, arg0);")
        else:
            lines.append(f"            Object result = solution.{chosen.name}({arguments});")
            if returns.kind in ("list", "tree"):
                # an empty list or tree is null in Java and [] in LeetCode notation
                lines.append("            if (result == null) result = new ArrayList<Object>();")
            lines.append(f"            emit({index}, started, result);")
        lines.append("        }")
        blocks.append("\n".join(lines))
    imports = [line for line in code.splitlines() if re.match(r"\s*import\s+[\w.*]+\s*;\s*$", line)]
    body = "\n".join("" if line in imports else line for line in code.splitlines())
    body = re.sub(r"\bpublic\s+(?=(?:final\s+)?class\s+Solution\b)", "", body)
    main = (
        f"public class {MAIN_CLASS} {{\n{RUNTIME}\n"
        "    public static void main(String[] args) {\n"
        + '        report("{\\"event\\": \\"loaded\\"}\\n");\n'
        + "\n".join(blocks)
        + "\n    }\n}\n"
    )
    return PRELUDE + "\n".join(imports) + "\n" + NODES + "\n" + body + "\n\n" + main
