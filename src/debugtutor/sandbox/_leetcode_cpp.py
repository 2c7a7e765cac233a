"""The C++ program that calls a LeetCode ``class Solution`` method: one ``main`` for all calls, results as JSON lines.

The method is found by a regex over the class body, its parameter types are mapped to a small type tree
(:class:`ValueType`), and every call's arguments become C++ literals of those types. Each result is written on the
judge's channel (fd 3) as a JSON line with the call's index, so anything the solution prints itself goes to stdout
untouched. The expected values are not in the program: ``_programs.py`` compares outside it. A type outside the
supported set raises InputError (a ``LeetCodeRequest`` turns it into a setup error of type ``SignatureError``).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from debugtutor.errors import InputError

SCALARS = {
    "int": "int",
    "long": "long",
    "long long": "long long",
    "long long int": "long long",
    "unsigned int": "unsigned int",
    "unsigned": "unsigned int",
    "double": "double",
    "float": "float",
    "bool": "bool",
    "string": "string",
    "std::string": "string",
    "char": "char",
}


@dataclass(frozen=True)
class ValueType:
    """A parameter or return type: a scalar name, ``vector`` of ``item``, ``list`` (ListNode*), ``tree`` or ``void``."""

    kind: str
    item: ValueType | None = None

    def cpp(self) -> str:
        if self.kind == "vector" and self.item is not None:
            return f"vector<{self.item.cpp()}>"
        return {"list": "ListNode*", "tree": "TreeNode*"}.get(self.kind, self.kind)


@dataclass(frozen=True)
class CppMethod:
    """One method of ``class Solution``: name, return type text and (type text, name) parameters."""

    name: str
    returns: str
    parameters: list[tuple[str, str]] = field(default_factory=list)


_COMMENTS_AND_STRINGS = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*|/\*.*?\*/', re.S)


def code_only(source: str) -> str:
    """``source`` with each comment and string or character literal blanked to one space: the words a reading of
    its declarations may take for code (a comment on the line above a method is not part of its return type)."""
    return _COMMENTS_AND_STRINGS.sub(" ", source)


# a definition (``{``) or a declaration (``;``) whose definition follows the class (``int Solution::f(...) {``)
_METHOD = re.compile(r"([A-Za-z_][\w:<>,\s\*&]*?)[\s\*&]+([A-Za-z_]\w*)\s*\(([^()]*)\)\s*(?:const\s*)?[{;]")
_NOT_TYPES = {"return", "else", "new", "delete", "if", "while", "for", "switch", "throw"}


def solution_methods(code: str) -> list[CppMethod]:
    """The methods declared in ``class Solution`` (helpers included), in order."""
    code = code_only(code)
    start = re.search(r"\b(?:class|struct)\s+Solution\b[^{]*\{", code)
    if start is None:
        return []
    body = code[start.end() :]
    methods = []
    for match in _METHOD.finditer(body):
        name = match.group(2)
        returns = " ".join(match.group(0)[: match.start(2) - match.start(0)].split())
        last_word = match.group(1).split()[-1] if match.group(1).split() else ""
        if name in _NOT_TYPES or last_word in _NOT_TYPES or name == "Solution":
            continue
        returns = re.sub(r"^(?:public|private|protected)\s*:\s*", "", returns)
        returns = re.sub(r"\b(?:static|inline|virtual)\s+", "", returns)
        params = []
        for piece in split_top_level(match.group(3)):
            piece = piece.split("=")[0].strip()
            if not piece:
                continue
            found = re.fullmatch(r"(.*?[\s\*&])([A-Za-z_]\w*)", piece, re.S)
            if found is None:
                break
            params.append((" ".join(found.group(1).split()), found.group(2)))
        else:
            methods.append(CppMethod(name=name, returns=returns, parameters=params))
    return methods


def split_top_level(text: str) -> list[str]:
    """``text`` split on commas outside ``<>``, ``()``, ``[]`` and ``{}``."""
    pieces: list[str] = []
    current: list[str] = []
    depth = 0
    for ch in text:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == "," and depth == 0:
            pieces.append("".join(current))
            current = []
        else:
            current.append(ch)
    if "".join(current).strip():
        pieces.append("".join(current))
    return pieces


def parse_type(text: str) -> ValueType | None:
    """The type tree of a C++ type (``const`` and references dropped), or None when it is not supported."""
    text = re.sub(r"\bconst\b|&", " ", text)
    text = " ".join(text.replace("std::", "").split())
    text = re.sub(r"\s*([<>\*])\s*", r"\1", text)
    if text in SCALARS:
        return ValueType(SCALARS[text])
    if text == "void":
        return ValueType("void")
    if text == "ListNode*":
        return ValueType("list")
    if text == "TreeNode*":
        return ValueType("tree")
    inner = re.fullmatch(r"vector<(.*)>", text)
    if inner:
        item = parse_type(inner.group(1))
        if item is not None and item.kind not in ("void",):
            return ValueType("vector", item)
    return None


def pick_method(code: str, method: str | None, arguments: Mapping[str, Any] | None = None) -> CppMethod:
    """The method to call: see :func:`choose_method`."""
    return choose_method(solution_methods(code), method, arguments)


def choose_method(methods: list[CppMethod], method: str | None, arguments: Mapping[str, Any] | None) -> CppMethod:
    """The one named ``method``; with no name, of the methods whose parameters are the calls' argument names, else
    of those taking as many parameters as there are arguments, the last declared; else the last declared (a helper
    declared after the entry method must not be called with the entry's arguments). C++ and Java alike."""
    if method:
        for found in methods:
            if found.name == method:
                return found
        raise InputError(f"cannot call {method}: class Solution has no method {method!r}", field="method")
    if not methods:
        raise InputError("cannot call the solution: no method found in class Solution", field="method")
    if arguments is not None:
        named = [m for m in methods if {name for _, name in m.parameters} == set(arguments)]
        sized = [m for m in methods if len(m.parameters) == len(arguments)]
        if named or sized:
            return (named or sized)[-1]
    return methods[-1]


def _literal(value: Any, vtype: ValueType) -> str:
    """A C++ expression of type ``vtype`` for a JSON value; ValueError when the value does not fit."""
    kind = vtype.kind
    if kind in ("int", "long", "long long", "unsigned int"):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{value!r} is not an integer")
        return f"{value}LL" if kind == "long long" else f"({kind}){value}LL"
    if kind in ("double", "float"):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ValueError(f"{value!r} is not a number")
        return repr(float(value))
    if kind == "bool":
        if not isinstance(value, bool):
            raise ValueError(f"{value!r} is not a bool")
        return "true" if value else "false"
    if kind == "string":
        if not isinstance(value, str):
            raise ValueError(f"{value!r} is not a string")
        return "string(" + _c_string(value) + ", " + str(len(value.encode())) + ")"
    if kind == "char":
        if not isinstance(value, str) or len(value.encode()) != 1:
            raise ValueError(f"{value!r} is not one character")
        return f"(char){ord(value)}"
    if kind == "vector" and vtype.item is not None:
        if not isinstance(value, list):
            raise ValueError(f"{value!r} is not a list")
        return vtype.cpp() + "{" + ", ".join(_literal(item, vtype.item) for item in value) + "}"
    if kind in ("list", "tree"):
        if not isinstance(value, list):
            raise ValueError(f"{value!r} is not a list")
        values = [0 if item is None else item for item in value]
        present = ["false" if item is None else "true" for item in value]
        if kind == "list" and None in value:
            raise ValueError("a linked list cannot hold null")
        ints = _literal(values, ValueType("vector", ValueType("int")))
        return f"dt_list({ints})" if kind == "list" else f"dt_tree({ints}, vector<bool>{{{', '.join(present)}}})"
    raise ValueError(f"unsupported type {vtype.cpp()}")


def _c_string(text: str) -> str:
    # octal escapes of every byte outside printable ASCII keep the literal valid whatever the value holds
    out = []
    for byte in text.encode():
        ch = chr(byte)
        if ch in '\\"?':
            out.append("\\" + ch)
        elif 32 <= byte < 127:
            out.append(ch)
        else:
            out.append(f"\\{byte:03o}")
    return '"' + "".join(out) + '"'


PRELUDE = r"""#include <bits/stdc++.h>
#include <unistd.h>
using namespace std;

struct ListNode {
    int val;
    ListNode *next;
    ListNode() : val(0), next(nullptr) {}
    ListNode(int x) : val(x), next(nullptr) {}
    ListNode(int x, ListNode *next) : val(x), next(next) {}
};

struct TreeNode {
    int val;
    TreeNode *left;
    TreeNode *right;
    TreeNode() : val(0), left(nullptr), right(nullptr) {}
    TreeNode(int x) : val(x), left(nullptr), right(nullptr) {}
    TreeNode(int x, TreeNode *left, TreeNode *right) : val(x), left(left), right(right) {}
};
"""

REPORT = r"""
static void dt_report(const std::string& line) {
    // the judge's channel (fd 3), never stdout, which belongs to the program's own prints
    const char* data = line.data();
    size_t left = line.size();
    while (left > 0) {
        ssize_t written = write(3, data, left);
        if (written <= 0) return;
        data += written;
        left -= (size_t)written;
    }
}
"""
"""``dt_report(line)``: one record line to the judge's channel (needs ``<unistd.h>`` and ``<string>``)."""

RUNTIME = (
    r"""
static const size_t DT_NODE_LIMIT = 100000;  // a cyclic list or tree from buggy code must not print forever

static ListNode* dt_list(const vector<int>& values) {
    ListNode* head = nullptr;
    for (size_t i = values.size(); i-- > 0;) head = new ListNode(values[i], head);
    return head;
}

static TreeNode* dt_tree(const vector<int>& values, const vector<bool>& present) {
    if (values.empty() || !present[0]) return nullptr;
    TreeNode* root = new TreeNode(values[0]);
    deque<TreeNode*> queue{root};
    size_t position = 1;
    while (!queue.empty() && position < values.size()) {
        TreeNode* node = queue.front();
        queue.pop_front();
        if (position < values.size() && present[position])
            queue.push_back(node->left = new TreeNode(values[position]));
        position++;
        if (position < values.size() && present[position])
            queue.push_back(node->right = new TreeNode(values[position]));
        position++;
    }
    return root;
}

static string dt_json(long long v) { return to_string(v); }
static string dt_json(int v) { return to_string(v); }
static string dt_json(long v) { return to_string(v); }
static string dt_json(unsigned int v) { return to_string(v); }
static string dt_json(bool v) { return v ? "true" : "false"; }
static string dt_json(double v) {
    if (!isfinite(v)) return isnan(v) ? "\"nan\"" : (v > 0 ? "\"inf\"" : "\"-inf\"");
    ostringstream out;
    out << setprecision(15) << v;
    string text = out.str();
    if (text.find_first_of(".eE") == string::npos) text += ".0";
    return text;
}
static string dt_json(float v) { return dt_json((double)v); }
static string dt_json(const string& v) {
    string out = "\"";
    for (unsigned char c : v) {
        if (c == '"' || c == '\\') { out += '\\'; out += (char)c; }
        else if (c < 32) { char buf[8]; snprintf(buf, sizeof buf, "\\u%04x", c); out += buf; }
        else out += (char)c;
    }
    return out + "\"";
}
static string dt_json(char v) { return dt_json(string(1, v)); }
static string dt_json(ListNode* node) {
    string out = "[";
    for (size_t n = 0; node != nullptr && n < DT_NODE_LIMIT; node = node->next, n++)
        out += (n ? "," : "") + to_string(node->val);
    return out + "]";
}
static string dt_json(TreeNode* root) {
    vector<string> items;
    deque<TreeNode*> queue{root};
    while (!queue.empty() && items.size() < DT_NODE_LIMIT) {
        TreeNode* node = queue.front();
        queue.pop_front();
        if (node == nullptr) { items.push_back("null"); continue; }
        items.push_back(to_string(node->val));
        queue.push_back(node->left);
        queue.push_back(node->right);
    }
    while (!items.empty() && items.back() == "null") items.pop_back();
    string out = "[";
    for (size_t i = 0; i < items.size(); i++) out += (i ? "," : "") + items[i];
    return out + "]";
}
template <typename T> static string dt_json(const vector<T>& values) {
    string out = "[";
    for (size_t i = 0; i < values.size(); i++) out += (i ? "," : "") + dt_json((T)values[i]);
    return out + "]";
}

"""
    + REPORT
    + r"""
static void dt_emit(int index, double started, const string& json) {
    double seconds = (double)(clock() - started) / CLOCKS_PER_SEC;
    dt_report("{\"event\": \"test\", \"index\": " + to_string(index) + ", \"wall_s\": " + to_string(seconds)
              + ", \"actual\": " + json + "}\n");
}
"""
)


def checked_signature(
    chosen: CppMethod, parse: Callable[[str], ValueType | None]
) -> tuple[list[tuple[ValueType, str]], ValueType]:
    """The parameter types (with names) and the return type of ``chosen``, or InputError when one cannot be built."""
    types = []
    for type_text, name in chosen.parameters:
        parsed = parse(type_text)
        if parsed is None or parsed.kind == "void":
            raise InputError(f"cannot call {chosen.name}: unsupported parameter type {type_text}", field="method")
        types.append((parsed, name))
    returns = parse(chosen.returns)
    if returns is None:
        raise InputError(f"cannot call {chosen.name}: unsupported return type {chosen.returns}", field="method")
    if returns.kind == "void" and not types:
        raise InputError(f"cannot call {chosen.name}: it returns nothing and takes nothing", field="method")
    return types, returns


def call_values(chosen: CppMethod, types: list[tuple[ValueType, str]], call: dict[str, Any], index: int) -> list[Any]:
    """One call's argument values in parameter order (by name when the names match, else by position)."""
    args = call["args"]
    if len(args) != len(types):
        raise InputError(f"cannot call {chosen.name}: call {index} has {len(args)} arguments", field="calls")
    return [args[name] for _, name in types] if set(args) == {n for _, n in types} else list(args.values())


def _cpp_name(vtype: ValueType) -> str:
    return vtype.cpp()


def argument_literals(
    chosen: CppMethod,
    types: list[tuple[ValueType, str]],
    values: list[Any],
    literal: Callable[[Any, ValueType], str],
    type_name: Callable[[ValueType], str],
) -> list[tuple[str, str]]:
    """(declared type, source literal) of each argument of one call, in the target language's spelling."""
    out = []
    for position, ((vtype, _), value) in enumerate(zip(types, values)):
        try:
            out.append((type_name(vtype), literal(value, vtype)))
        except ValueError as exc:
            raise InputError(
                f"cannot call {chosen.name}: argument {position} {json.dumps(value)[:60]} does not fit "
                f"{type_name(vtype)} ({exc})",
                field="calls",
            ) from exc
    return out


def build_program(code: str, calls: list[dict[str, Any]], method: str | None, start: int = 0) -> str:
    """The whole C++ program calling ``method`` once per call (``calls[i]["args"]``), indexes counted from ``start``."""
    chosen = pick_method(code, method, calls[0]["args"] if calls else None)
    types, returns = checked_signature(chosen, parse_type)
    blocks = []
    for index, call in enumerate(calls, start=start):
        values = call_values(chosen, types, call, index)
        lines = [f"    {{  // call {index}"]
        for position, (type_name, literal) in enumerate(argument_literals(chosen, types, values, _literal, _cpp_name)):
            lines.append(f"        {type_name} dt_arg{position} = {literal};")
        arguments = ", ".join(f"dt_arg{position}" for position in range(len(types)))
        lines.append("        Solution* dt_solution = new Solution();")
        lines.append("        double dt_started = clock();")
        if returns.kind == "void":
            # "do not return anything, modify in place": the judge looks at the first argument
            lines.append(f"        dt_solution->{chosen.name}({arguments});")
            lines.append(f"        dt_emit({index}, dt_started, dt_json(dt_arg0));")
        else:
            lines.append(f"        {returns.cpp()} dt_result = dt_solution->{chosen.name}({arguments});")
            lines.append(f"        dt_emit({index}, dt_started, dt_json(dt_result));")
        lines.append("    }")
        blocks.append("\n".join(lines))
    loaded = '    dt_report("{\\"event\\": \\"loaded\\"}\\n");\n'
    main = "int main() {\n" + loaded + "\n".join(blocks) + "\n    return 0;\n}\n"
    return PRELUDE + "\n" + code + "\n" + RUNTIME + "\n" + main
