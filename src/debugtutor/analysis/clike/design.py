"""Driving a C++ or Java class through a design problem's operation sequences (LeetCode's "implement LRUCache").

A design problem has no ``Solution`` method: the statement's example lists operations (the class name, then method
names) and their arguments, and the answers in order. This module writes a ``main`` for the program that builds the
object, calls each method with arguments typed as the class declares them, and reports every sequence's answers as
one JSON array on the judge's channel (fd 3: the program's own prints on stdout can neither forge nor crowd out an
answer); the program runs in the sandbox like any other (the graders' way), or, through :func:`design_plan`, the
analysis harness calls it as one batch variant among many. Supported parameter and return
types are the scalars, strings, characters, and (nested) ``vector`` / arrays / ``List`` of them; anything else makes the
sequence unrunnable (:class:`UnsupportedType`), and the problem stays ungradable rather than guessed at.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from debugtutor.analysis.examples import is_design_call
from debugtutor.analysis.static import Diagnostic
from debugtutor.sandbox import ExecOutcome, Language, LeetCodeCall, Limits, ProgramRequest, run
from debugtutor.sandbox._leetcode_cpp import REPORT, split_top_level
from debugtutor.sandbox._leetcode_java import leetcode_library


class UnsupportedType(ValueError):
    """A parameter type the generated call cannot build, or a value that does not fit it."""


@dataclass(frozen=True)
class Signature:
    """A constructor or method: its parameter types and its return type (``void`` for a constructor)."""

    parameters: tuple[str, ...]
    returns: str


def _strip(text: str) -> str:
    return " ".join(re.sub(r"\bconst\b|&|\bfinal\b", " ", text).replace("std::", "").split())


def _parameters(text: str) -> tuple[str, ...]:
    types = []
    for piece in split_top_level(text):
        piece = _strip(piece.split("=")[0])
        found = re.fullmatch(r"(.*?)\s*\b([A-Za-z_]\w*)\s*((?:\[\s*\])*)", piece)
        if found is None:
            raise UnsupportedType(f"parameter {piece!r}")
        types.append((found.group(1) + found.group(3).replace(" ", "")).replace(" ", ""))
    return tuple(types)


_DECLARATION = re.compile(
    r"([A-Za-z_][\w:<>,\s\[\]\*&]*?)?\s*\b([A-Za-z_]\w*)\s*\(([^()]*)\)\s*(?:const\s*)?"
    r"(?:throws [\w.,\s]+)?\{"
)
_MODIFIERS = re.compile(r"\b(?:public|private|protected|static|virtual|inline|synchronized)\b:?")


def class_signatures(code: str, class_name: str) -> dict[str, Signature]:
    """The constructor (under the class's name) and methods of ``class_name`` as the code declares them; a class that
    writes no constructor has the implicit one, taking nothing."""
    if _class_start(code, class_name) is None:
        return {}
    found: dict[str, Signature] = {}
    constructor_written = False
    for match in _declarations(code, class_name):
        name = match.group(2)
        constructor_written = constructor_written or name == class_name
        returns = _strip(_MODIFIERS.sub(" ", match.group(1) or ""))
        try:
            parameters = _parameters(match.group(3))
        except UnsupportedType:
            continue
        if name == class_name:
            found.setdefault(name, Signature(parameters, "void"))
        elif returns:
            found.setdefault(name, Signature(parameters, returns.replace(" ", "")))
    if not constructor_written:
        # no constructor written (``new Trie()`` in a method is a call, not one): the one the language supplies
        found[class_name] = Signature((), "void")
    return found


def _class_start(code: str, class_name: str) -> re.Match[str] | None:
    return re.search(rf"\b(?:class|struct)\s+{re.escape(class_name)}\b[^{{;]*\{{", code)


def _declarations(code: str, class_name: str) -> Iterator[re.Match[str]]:
    """The function headers after ``class_name``'s opening brace (control statements left out), matched on the whole
    ``code`` so that positions count from its start."""
    start = _class_start(code, class_name)
    for match in _DECLARATION.finditer(code, start.end()) if start is not None else ():
        if match.group(2) not in {"if", "for", "while", "switch", "catch", "return"}:
            yield match


def _method_lines(code: str, class_name: str) -> dict[str, int]:
    """The line where each method (and constructor) of ``class_name`` is declared, the first declaration of a
    name."""
    lines: dict[str, int] = {}
    for match in _declarations(code, class_name):
        lines.setdefault(match.group(2), code.count("\n", 0, match.start(2)) + 1)
    return lines


def unmatched_operations(code: str, calls: Sequence[LeetCodeCall]) -> list[Diagnostic]:
    """Findings for the operations a design problem's examples call that its class declares with no matching
    parameter count: on the header of each method the examples never call that takes as many parameters (a method
    renamed, ``add`` where the examples call ``push``), else on the header of the method of that name (its
    parameters changed). None for calls that are not operation sequences."""
    sequences = [call.args for call in calls if is_design_call(call)]
    if not sequences or not sequences[0]["operations"]:
        return []
    class_name = sequences[0]["operations"][0]
    signatures, lines = class_signatures(code, class_name), _method_lines(code, class_name)
    called = {name for sequence in sequences for name in sequence["operations"]}
    found: dict[tuple[int, str], Diagnostic] = {}
    for sequence in sequences:
        for name, arguments in list(zip(sequence["operations"], sequence["arguments"]))[1:]:
            declared = signatures.get(name)
            if declared is not None and len(declared.parameters) == len(arguments):
                continue
            if declared is None:
                headers = [
                    lines[other] for other, signature in signatures.items()
                    if other not in called and other in lines and len(signature.parameters) == len(arguments)
                ]  # fmt: skip
                message = f"the examples call {name} with {len(arguments)} argument(s); the class declares no {name}"
            else:
                headers = [lines[name]] if name in lines else []
                message = f"the examples call {name} with {len(arguments)} argument(s); it takes a different number"
            for line in headers:
                found.setdefault((line, name), Diagnostic(
                    category="reference", line=line, column=0, message=message, code="unmatched-operation",
                    symbol=name, bug_type="undefined methods",
                ))  # fmt: skip
    return list(found.values())


# ---------------------------------------------------------------------------------------------------------------
# Literals.

_CPP_SCALARS = {"int", "long", "longlong", "longlongint", "double", "float", "bool", "string", "char", "unsignedint"}
_JAVA_SCALARS = {"int", "Integer", "long", "Long", "double", "Double", "float", "boolean", "Boolean", "String", "char",
                 "Character"}  # fmt: skip


def _quoted(text: str) -> str:
    return json.dumps(text)  # JSON string escapes are valid C++ and Java escapes for these values


def cpp_literal(value: Any, vtype: str) -> str:
    """A C++ expression of type ``vtype`` (spaces removed, ``std::`` and references dropped) for a JSON value."""
    inner = re.fullmatch(r"vector<(.*)>", vtype)
    if inner:
        if not isinstance(value, list):
            raise UnsupportedType(f"{value!r} for {vtype}")
        return f"vector<{_cpp_type(inner.group(1))}>{{" + ", ".join(cpp_literal(v, inner.group(1)) for v in value) + "}"
    if vtype not in _CPP_SCALARS:
        raise UnsupportedType(vtype)
    return _scalar(value, "bool" if vtype == "bool" else vtype, "cpp")


def _cpp_type(vtype: str) -> str:
    inner = re.fullmatch(r"vector<(.*)>", vtype)
    if inner:
        return f"vector<{_cpp_type(inner.group(1))}>"
    return {"longlong": "long long", "longlongint": "long long", "unsignedint": "unsigned int"}.get(vtype, vtype)


def java_literal(value: Any, vtype: str) -> str:
    """A Java expression of type ``vtype`` for a JSON value."""
    if vtype.endswith("[]"):
        if not isinstance(value, list):
            raise UnsupportedType(f"{value!r} for {vtype}")
        return f"new {vtype}{{" + ", ".join(_java_array_item(v, vtype[:-2]) for v in value) + "}"
    inner = re.fullmatch(r"(?:List|ArrayList)<(.*)>", vtype)
    if inner:
        if not isinstance(value, list):
            raise UnsupportedType(f"{value!r} for {vtype}")
        items = ", ".join(java_literal(v, inner.group(1)) for v in value)
        return (
            f"new ArrayList<{inner.group(1)}>(Arrays.asList({items}))"
            if value
            else f"new ArrayList<{inner.group(1)}>()"
        )
    if vtype not in _JAVA_SCALARS:
        raise UnsupportedType(vtype)
    return _scalar(value, vtype, "java")


def _java_array_item(value: Any, vtype: str) -> str:
    # nested array initialisers take bare braces
    return (
        java_literal(value, vtype).removeprefix(f"new {vtype}") if vtype.endswith("[]") else java_literal(value, vtype)
    )


def _scalar(value: Any, vtype: str, language: str) -> str:
    if vtype in ("bool", "boolean", "Boolean"):
        if not isinstance(value, bool):
            raise UnsupportedType(f"{value!r} for {vtype}")
        return "true" if value else "false"
    if vtype in ("string", "String"):
        if not isinstance(value, str):
            raise UnsupportedType(f"{value!r} for {vtype}")
        return _quoted(value)
    if vtype in ("char", "Character"):
        if not (isinstance(value, str) and len(value) == 1):
            raise UnsupportedType(f"{value!r} for {vtype}")
        return "'" + _quoted(value)[1:-1].replace("'", "\\'") + "'"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise UnsupportedType(f"{value!r} for {vtype}")
    if vtype in ("double", "Double", "float"):
        return repr(float(value)) + ("f" if vtype == "float" and language == "java" else "")
    if isinstance(value, float):
        raise UnsupportedType(f"{value!r} for {vtype}")
    suffix = "L" if language == "java" and vtype in ("long", "Long") else "LL" if "long" in vtype else ""
    return f"{value}{suffix}"


# ---------------------------------------------------------------------------------------------------------------
# Programs.

_CPP_RUNTIME = (
    REPORT
    + r"""
static std::string dt_json(const std::string& s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') { out += '\\'; out += (char)c; }
        else if (c < 0x20) { char buffer[8]; snprintf(buffer, sizeof buffer, "\\u%04x", c); out += buffer; }
        else out += (char)c;
    }
    return out + "\"";
}
static std::string dt_json(const char* s) { return dt_json(std::string(s)); }
static std::string dt_json(char c) { return dt_json(std::string(1, c)); }
static std::string dt_json(bool v) { return v ? "true" : "false"; }
static std::string dt_json(int v) { return std::to_string(v); }
static std::string dt_json(long v) { return std::to_string(v); }
static std::string dt_json(long long v) { return std::to_string(v); }
static std::string dt_json(unsigned int v) { return std::to_string(v); }
static std::string dt_json(double v) {
    if (!std::isfinite(v)) return dt_json(std::string(v != v ? "nan" : v > 0 ? "inf" : "-inf"));  // not JSON numbers
    std::ostringstream o; o.precision(17); o << v; return o.str();
}
template <typename T> static std::string dt_json(const std::vector<T>& values) {
    std::string out = "[";
    for (size_t i = 0; i < values.size(); i++) out += (i ? "," : "") + dt_json((T)values[i]);
    return out + "]";
}
"""
)

_JAVA_RUNTIME = r"""
    static java.io.OutputStream dtJudge;
    static void dtReport(String line) {
        try {
            if (dtJudge == null) dtJudge = new java.io.FileOutputStream("/proc/self/fd/3");
            dtJudge.write(line.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            dtJudge.flush();
        } catch (java.io.IOException e) {
            // nothing can be reported: the host counts the sequence as unanswered
        }
    }
    static String dtJson(Object o) {
        if (o == null) return "null";
        if (o instanceof String) return dtQuote((String) o);
        if (o instanceof Character) return dtQuote(String.valueOf(o));
        if (o instanceof Boolean || o instanceof Integer || o instanceof Long || o instanceof Short) {
            return o.toString();
        }
        if (o instanceof Number) {
            double d = ((Number) o).doubleValue();
            return Double.isFinite(d) ? Double.toString(d) : dtQuote(Double.toString(d));
        }
        StringBuilder out = new StringBuilder("[");
        if (o.getClass().isArray()) {
            for (int i = 0; i < java.lang.reflect.Array.getLength(o); i++) {
                if (i > 0) out.append(",");
                out.append(dtJson(java.lang.reflect.Array.get(o, i)));
            }
            return out.append("]").toString();
        }
        if (o instanceof Iterable) {
            boolean first = true;
            for (Object item : (Iterable<?>) o) {
                if (!first) out.append(",");
                first = false;
                out.append(dtJson(item));
            }
            return out.append("]").toString();
        }
        return dtQuote(o.toString());
    }
    static String dtQuote(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') out.append('\\').append(c);
            else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
            else out.append(c);
        }
        return out.append("\"").toString();
    }
"""


@dataclass(frozen=True)
class PlannedOperation:
    """One operation of a sequence as the generated call writes it: the method (the class's name for the
    constructor), each argument as (declared type, literal), and the return type."""

    name: str
    arguments: tuple[tuple[str, str], ...]
    returns: str


Plan = tuple[str, list[list[PlannedOperation]]]
"""A design problem's class and, per sequence, its operations (see :func:`design_plan`)."""


def _operations(
    sequence: dict[str, Any], signatures: dict[str, Signature], language: Language
) -> list[PlannedOperation]:
    """Each operation of one sequence typed as the class declares it; UnsupportedType when one cannot be written."""
    literal, declared = (cpp_literal, _cpp_type) if language == "cpp" else (java_literal, lambda vtype: vtype)
    operations = []
    for name, args in zip(sequence["operations"], sequence["arguments"]):
        signature = signatures.get(name)
        if signature is None or len(signature.parameters) != len(args):
            raise UnsupportedType(f"no {name} taking {len(args)} arguments")
        typed = tuple((declared(vtype), literal(value, vtype)) for value, vtype in zip(args, signature.parameters))
        operations.append(PlannedOperation(name, typed, signature.returns))
    return operations


def design_plan(code: str, language: Language, sequences: list[dict[str, Any]]) -> Plan:
    """The class the sequences drive and, per sequence, its operations typed as ``code`` declares them;
    UnsupportedType when one cannot be written (or the sequences name different classes)."""
    names = {sequence["operations"][0] for sequence in sequences if sequence["operations"]}
    if len(names) != 1:
        raise UnsupportedType(f"the sequences name {len(names)} classes")
    class_name = names.pop()
    signatures = class_signatures(code, class_name)
    return class_name, [_operations(sequence, signatures, language) for sequence in sequences]


def _record_head(index: int) -> str:
    """The opening of sequence ``index``'s record on the judge's channel; the answers array and ``}`` follow."""
    return json.dumps({"event": "test", "index": index})[:-1] + ', "actual": '


def cpp_program(code: str, class_name: str, sequences: list[dict[str, Any]]) -> str:
    signatures = class_signatures(code, class_name)
    lines = ["int main() {"]
    for sequence_index, sequence in enumerate(sequences):
        operations = _operations(sequence, signatures, "cpp")
        lines.append('    {\n        std::string dt_out = "[null";')
        for position, operation in enumerate(operations):
            # arguments as named variables: a parameter taken by non-const reference needs an lvalue
            names = []
            for index, (_, literal) in enumerate(operation.arguments):
                names.append(f"dt_a{position}_{index}")
                lines.append(f"        auto {names[-1]} = {literal};")
            joined = ", ".join(names)
            if position == 0:
                lines.append(f"        {class_name}* dt_object = new {class_name}({joined});")
            elif operation.returns == "void":
                lines.append(f'        dt_object->{operation.name}({joined}); dt_out += ",null";')
            else:
                appended = 'dt_out += "," + dt_json(dt_r);'
                lines.append(f"        {{ auto dt_r = dt_object->{operation.name}({joined}); {appended} }}")
        lines.append(f'        dt_report({json.dumps(_record_head(sequence_index))} + dt_out + "]}}\\n");')
        lines.append("    }")
    lines.append("    return 0;\n}")
    prelude = "#include <bits/stdc++.h>\n#include <unistd.h>\nusing namespace std;\n"
    return prelude + code + "\n" + _CPP_RUNTIME + "\n".join(lines) + "\n"


def java_program(code: str, class_name: str, sequences: list[dict[str, Any]]) -> str:
    signatures = class_signatures(code, class_name)
    body = []
    for sequence_index, sequence in enumerate(sequences):
        operations = _operations(sequence, signatures, "java")
        body.append('        {\n            StringBuilder dtOut = new StringBuilder("[null");')
        ctor_args = [literal for _, literal in operations[0].arguments]
        body.append(f"            {class_name} dtObject = new {class_name}({', '.join(ctor_args)});")
        for operation in operations[1:]:
            call = f"dtObject.{operation.name}({', '.join(literal for _, literal in operation.arguments)})"
            if operation.returns == "void":
                body.append(f'            {call}; dtOut.append(",null");')
            else:
                body.append(f'            {{ Object dtR = {call}; dtOut.append(",").append(dtJson(dtR)); }}')
        body.append(f'            dtReport({json.dumps(_record_head(sequence_index))} + dtOut + "]}}\\n");')
        body.append("        }")
    imports = "import java.util.*;\nimport java.util.stream.*;\n"
    user = re.sub(r"(?m)^(\s*)public\s+(?=(?:final\s+|abstract\s+)*class\b)", r"\1", leetcode_library(code))
    main = "public class DebugtutorDesignMain {\n" + _JAVA_RUNTIME
    main += "    public static void main(String[] args) {\n" + "\n".join(body) + "\n    }\n}\n"
    return imports + user + "\n" + main


def sequence_results(outcome: ExecOutcome, count: int) -> list[Any]:
    """Each of ``count`` sequences' ``{"answers": [...]}`` or ``{"error": ...}`` from the records a design program
    wrote on the judge's channel (what its stdout says is never read)."""
    results: list[Any] = []
    for record in outcome.results:
        if record.get("conflict"):
            results.append({"error": "two answers were reported for the sequence"})
        elif "actual" in record:
            results.append({"answers": record["actual"]})
        else:
            results.append({"error": str(record.get("error") or "no answers were reported")[:300]})
    while len(results) < count:
        message = outcome.exception.type if outcome.exception else outcome.status.value
        results.append({"error": f"the program ended early: {message}"})
    return results


def run_compiled_design(
    code: str, language: Language, class_name: str, sequences: list[dict[str, Any]], limits: Limits
) -> list[Any]:
    """Each sequence's answers, or ``{"error": ...}``; UnsupportedType when the calls cannot be written."""
    source = (cpp_program if language == "cpp" else java_program)(code, class_name, sequences)
    outcome = run(ProgramRequest(source=source, lang=language, limits=limits, results=len(sequences)))
    if outcome.status.value == "compile_error":
        message = (outcome.compile_output or "compile error").strip().splitlines()
        return [{"error": f"compile error: {message[0][:200] if message else ''}"}] * len(sequences)
    return sequence_results(outcome, len(sequences))
