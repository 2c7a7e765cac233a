"""Compile and run many C++ or Java variants of one ``class Solution`` (or a design problem's class) in one
sandboxed job.

The variants (the program itself, an instrumented copy, or repair and mutation candidates) share a translation unit
(C++: one namespace each) or one ``javac`` run (Java: one package each), so the compiler starts once or twice per
batch, not once per variant (see ``_driver.py``). Each variant is called once per :class:`LeetCodeCall` the way
:class:`~debugtutor.sandbox.LeetCodeRequest` calls it (the same method choice and argument conversions, read from the
sandbox's own harness builders) and its results are compared with the expected values here, outside the program.

C++ variants are built with ``-D_GLIBCXX_ASSERTIONS`` and ``-fsanitize=undefined``: an index past the end of a
vector or string, a signed overflow or a value-returning function that returns nothing stops the call, as LeetCode's
own sanitizing judge does, instead of reading garbage. An instrumented variant carries a coverage probe before every
statement (inserted on the statement's own line, so line numbers do not move); it reports the lines each call ran
and, for a crash, the last statement started.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from debugtutor.analysis.clike.design import Plan, PlannedOperation, UnsupportedType, design_plan
from debugtutor.analysis.clike.runtime import (
    CPP_RUNTIME,
    JAVA_COVERAGE,
    JAVA_JSON_HEAD,
    JAVA_NODES,
    JAVA_PACKAGE,
    JAVA_RUNNER,
)
from debugtutor.analysis.clike.syntax_tree import (
    BLOCK_TYPES,
    FUNCTION_TYPES,
    CompiledLanguage,
    SyntaxTree,
    enclosing,
    imbalance,
    line_of,
    parse,
)
from debugtutor.analysis.examples import is_design
from debugtutor.errors import InputError
from debugtutor.sandbox import (
    CompareMode,
    LeetCodeCall,
    Limits,
    ProgramRequest,
    Status,
    arun,
    precompiled_header_flags,
)

# The sandbox's own LeetCode harness builders: variants are called exactly as a LeetCodeRequest calls them.
from debugtutor.sandbox import _leetcode_cpp as sandbox_cpp
from debugtutor.sandbox import _leetcode_java as sandbox_java
from debugtutor.sandbox._programs import _leetcode_matches as values_match

DRIVER_MARKER = "@@debugtutor-clike@@"
CPP_COMPILE = ["g++", "-std=c++17", "-O0", "-D_GLIBCXX_ASSERTIONS", "-fsanitize=undefined", "-fno-sanitize-recover=all"]
CPP_WARNINGS = ["-Wall", "-Wextra", "-Wno-sign-compare", "-Wno-unused-parameter", "-Wno-unused-function"]
JVM_FLAGS = [
    "-XX:+UseSerialGC",
    "-XX:TieredStopAtLevel=1",
    "-XX:-UsePerfData",
    "-Xshare:auto",
    "-XX:ReservedCodeCacheSize=64m",
    "-XX:CompressedClassSpaceSize=64m",
    "-XX:MaxMetaspaceSize=256m",
]
JAVAC = [
    "javac",
    "-J-Xmx512m",
    *(f"-J{flag}" for flag in JVM_FLAGS),
    "-encoding",
    "UTF-8",
    "-proc:none",
    "--should-stop=ifError=FLOW",
]
JAVA = ["java", "-Xmx512m", *JVM_FLAGS]
JAVA_IMPORTS = "import java.util.*; import java.util.function.*; import java.util.stream.*; import java.math.*; "
JOB_MEMORY_MB = 3072


@dataclass(frozen=True)
class Variant:
    """One program to compile (and run): its source, and whether to put coverage probes in it.

    ``light_header`` (C++): compile against the common standard headers (those the program's names call for
    included) instead of ``<bits/stdc++.h>``, which takes most of a small program's compile time. Use it once a
    compile has shown that the program compiles the same either way (see :func:`same_compile`)."""

    source: str
    instrument: bool = False
    light_header: bool = False


@dataclass(frozen=True)
class CompilerMessage:
    """One compiler error or warning at a line of the variant (``in_harness``: in the generated calls instead)."""

    line: int
    column: int
    severity: str
    message: str
    detail: str = ""
    in_harness: bool = False


@dataclass
class CallOutcome:
    """How one call of one variant went; ``actual`` is JSON text, ``covered`` the lines it ran (instrumented)."""

    index: int
    status: Status
    actual: str | None = None
    expected: str | None = None
    covered: list[int] = field(default_factory=list)
    error_type: str | None = None
    error_message: str = ""
    error_line: int | None = None
    cpu_s: float = 0.0
    known: bool = True
    """False when the batch ran out of time before this call: no verdict."""


@dataclass
class VariantResult:
    """One variant's compile messages and call outcomes (empty when it did not compile or was not run)."""

    compiled: bool
    messages: list[CompilerMessage] = field(default_factory=list)
    calls: list[CallOutcome] = field(default_factory=list)
    harness_error: str | None = None

    @property
    def errors(self) -> list[CompilerMessage]:
        return [message for message in self.messages if message.severity == "error"]

    @property
    def passed(self) -> int:
        return sum(1 for call in self.calls if call.status == Status.passed)


@dataclass
class BatchResult:
    """All variants' results, in order, and what the job cost."""

    variants: list[VariantResult]
    compile_seconds: float = 0.0
    compiles: int = 0
    run_seconds: float = 0.0
    wall_s: float = 0.0
    problem: str | None = None
    """Why the job gave no results at all (the sandbox failed, or an error no variant owns)."""
    program_starts: int = 0
    """Compiled programs started to run the calls (C++: one per translation unit; Java: JVMs, the first and every
    restart after a call that could not be stopped)."""


@dataclass(frozen=True)
class Signature:
    """The method the calls go to: its name, parameter types and return type as the sandbox parses them."""

    name: str
    parameters: tuple[tuple[Any, str], ...]
    returns: Any


@cache
def _driver_source() -> str:
    return resources.files("debugtutor.analysis.clike").joinpath("_driver.py").read_text(encoding="utf-8")


def same_compile(first: VariantResult, second: VariantResult) -> bool:
    """Whether two compiles of one program agree: both compiled, or both failed on the same lines."""
    if first.compiled != second.compiled:
        return False
    return first.compiled or {m.line for m in first.errors} == {m.line for m in second.errors}


def signature_of(
    code: str, language: CompiledLanguage, method: str | None, arguments: Mapping[str, Any] | None = None
) -> Signature:
    """The called method of ``code`` for calls with ``arguments`` (as a :class:`~debugtutor.sandbox.LeetCodeRequest`
    would choose it); InputError when its signature is one the harness cannot call."""
    builder = sandbox_cpp if language == "cpp" else sandbox_java
    chosen = builder.pick_method(code, method, arguments)
    types, returns = sandbox_cpp.checked_signature(chosen, builder.parse_type)
    return Signature(chosen.name, tuple(types), returns)


def call_plan(
    code: str, language: CompiledLanguage, method: str | None, calls: Sequence[LeetCodeCall]
) -> Signature | Plan:
    """How the harness calls ``code``: the judged method's signature, or for operation sequences the design plan;
    InputError when it cannot."""
    if not is_design(calls):
        return signature_of(code, language, method, calls[0].args if calls else None)
    try:
        return design_plan(code, language, [dict(call.args) for call in calls])
    except UnsupportedType as problem:
        raise InputError(f"the operations cannot be called: {problem}") from problem


# ---------------------------------------------------------------------------------------------------------------
# Coverage probes.

_CONTAINERS = frozenset({"compound_statement", "block", "case_statement", "switch_block_statement_group"})
_BODY_FIELDS = ("body", "consequence", "alternative")


def _is_body(node: Any) -> bool:
    parent = node.parent
    if parent is None:
        return False
    if parent.type == "else_clause":
        return True
    return any(parent.child_by_field_name(name) == node for name in _BODY_FIELDS)


def instrument(source: str, language: CompiledLanguage) -> str:
    """``source`` with a coverage probe before every statement, on the statement's own line.

    A statement that is the unbraced body of an ``if``/loop is wrapped in braces with its probe; constexpr
    functions, constructor calls that must come first and labeled statements' inner statements get none."""
    tree = parse(source, language)
    inserts: list[tuple[int, str]] = []
    for node in tree.statements():
        if node.type in BLOCK_TYPES or node.type == "explicit_constructor_invocation":
            continue
        parent = node.parent
        if parent is None or parent.type == "labeled_statement":
            continue
        function = enclosing(node, FUNCTION_TYPES)
        if language == "cpp" and function is not None and _is_constexpr(tree, function):
            continue
        probe = f"dt_probe_({line_of(node)}); " if language == "cpp" else f"{JAVA_PACKAGE}.Cov.h({line_of(node)}); "
        start, end = tree.span(node)
        if parent.type in _CONTAINERS:
            inserts.append((start, probe))
        elif _is_body(node):
            inserts.append((start, "{ " + probe))
            inserts.append((end, " }"))
    text = source
    for offset, piece in sorted(inserts, key=lambda item: item[0], reverse=True):
        text = text[:offset] + piece + text[offset:]
    return text


def _is_constexpr(tree: SyntaxTree, function: Any) -> bool:
    body = function.child_by_field_name("body")
    head_end = body.start_byte if body is not None else function.end_byte
    head = tree.source[tree.offset(function.start_byte) : tree.offset(head_end)]
    return bool(re.search(r"\bconst(?:expr|eval)\b", head))


# ---------------------------------------------------------------------------------------------------------------
# C++ batches.


def _hoist_includes(code: str) -> tuple[str, list[str]]:
    """``code`` with its ``#include`` lines blanked (line numbers kept) and the lines themselves."""
    includes: list[str] = []
    lines = code.split("\n")
    for index, line in enumerate(lines):
        if re.match(r"\s*#\s*include\b", line):
            includes.append(line.strip())
            lines[index] = ""
    return "\n".join(lines), includes


def _cpp_arguments(signature: Signature, calls: Sequence[LeetCodeCall]) -> tuple[str, list[list[str]]]:
    """Builder functions for every call's arguments (a fresh value per use) and, per call, their names."""
    chosen = sandbox_cpp.CppMethod(signature.name, "", [(t.cpp(), n) for t, n in signature.parameters])
    types = list(signature.parameters)
    builders: list[str] = []
    names: list[list[str]] = []
    for index, call in enumerate(calls):
        values = sandbox_cpp.call_values(chosen, types, {"args": call.args}, index)
        literals = sandbox_cpp.argument_literals(chosen, types, values, sandbox_cpp._literal, lambda vtype: vtype.cpp())
        row = []
        for position, (type_name, literal) in enumerate(literals):
            name = f"dt_arg_{index}_{position}"
            builders.append(f"static {type_name} {name}() {{ return {literal}; }}")
            row.append(name)
        names.append(row)
    return "\n".join(builders) + "\n", names


def _cpp_runner(ident: int, signature: Signature, argument_names: list[list[str]]) -> str:
    cases = []
    for index, names in enumerate(argument_names):
        declared = [
            f"{vtype.cpp()} dt_a{position} = {name}();"
            for position, ((vtype, _), name) in enumerate(zip(signature.parameters, names))
        ]
        arguments = ", ".join(f"dt_a{position}" for position in range(len(names)))
        call = f"dt_s->{signature.name}({arguments})"
        if signature.returns.kind == "void":
            body = f"{call}; return dt_json(dt_a0);"
        else:
            body = f"{signature.returns.cpp()} dt_r = {call}; return dt_json(dt_r);"
        cases.append(
            f"        case {index}: {{ {' '.join(declared)} dt_c{ident}::Solution* dt_s = new dt_c{ident}::Solution(); "
            f"{body} }}"
        )
    return (
        f'#line 1 "dt_r{ident}"\nstatic std::string dt_run_{ident}(int dt_t) {{\n    switch (dt_t) {{\n'
        + "\n".join(cases)
        + '\n    }\n    return "null";\n}\n'
    )


def _declared_arguments(operation: PlannedOperation, prefix: str) -> tuple[list[str], str]:
    """The operation's arguments as typed local variables (a parameter taken by non-const reference needs an
    lvalue), and the parenthesised argument list that passes them."""
    names = [f"{prefix}{k}" for k in range(len(operation.arguments))]
    declarations = [f"{vtype} {name} = {literal};" for name, (vtype, literal) in zip(names, operation.arguments)]
    return declarations, f"({', '.join(names)})"


def _cpp_design_runner(ident: int, plan: Plan) -> str:
    """``dt_run_<ident>``: one case per sequence; a fresh object, each operation's answer in one JSON array."""
    class_name, sequences = plan
    cases = []
    for index, operations in enumerate(sequences):
        parts = []
        for position, operation in enumerate(operations):
            declarations, call = _declared_arguments(operation, f"dt_a{position}_")
            parts += declarations
            if position == 0:
                qualified = f"dt_c{ident}::{class_name}"
                parts.append(f'{qualified}* dt_o = new {qualified}{call}; std::string dt_out = "[null";')
            elif operation.returns == "void":
                parts.append(f'dt_o->{operation.name}{call}; dt_out += ",null";')
            else:
                parts.append(f'{{ auto dt_r = dt_o->{operation.name}{call}; dt_out += "," + dt_json(dt_r); }}')
        cases.append(f'        case {index}: {{ {" ".join(parts)} return dt_out + "]"; }}')
    return (
        f'#line 1 "dt_r{ident}"\nstatic std::string dt_run_{ident}(int dt_t) {{\n    switch (dt_t) {{\n'
        + "\n".join(cases)
        + '\n    }\n    return "null";\n}\n'
    )


_LIGHT_HEADERS = (
    "algorithm", "array", "bitset", "cassert", "cctype", "cfloat", "climits", "cmath", "cstdint", "cstdio", "cstdlib",
    "cstring", "ctime", "deque", "functional", "iomanip", "iostream", "iterator", "limits", "list", "map", "memory",
    "numeric", "queue", "set", "sstream", "stack", "string", "tuple", "unordered_map", "unordered_set", "utility",
    "vector", "typeinfo",
)  # fmt: skip
# Headers outside the light set, pulled in when a program uses one of their names.
_HEADER_BY_NAME = {
    "regex": "regex", "smatch": "regex", "regex_match": "regex", "regex_replace": "regex", "mt19937": "random",
    "random_device": "random", "uniform_int_distribution": "random", "default_random_engine": "random",
    "complex": "complex", "valarray": "valarray", "optional": "optional", "variant": "variant", "any": "any",
    "string_view": "string_view", "chrono": "chrono", "thread": "thread", "mutex": "mutex", "atomic": "atomic",
    "condition_variable": "condition_variable", "future": "future", "shuffle": "random", "forward_list":
    "forward_list", "ratio": "ratio", "numbers": "numbers", "span": "span", "locale": "locale", "wstring": "string",
    "istringstream": "sstream", "cin": "iostream", "fstream": "fstream", "ifstream": "fstream",
    "partial_sum": "numeric", "exclusive_scan": "numeric", "inclusive_scan": "numeric", "transform_reduce":
    "numeric", "reduce": "numeric", "execution": "execution", "stdexcept": "stdexcept", "runtime_error": "stdexcept",
    "invalid_argument": "stdexcept", "out_of_range": "stdexcept", "initializer_list": "initializer_list",
    "hash": "functional", "type_traits": "type_traits", "is_same": "type_traits", "cstdarg": "cstdarg",
    "va_list": "cstdarg", "setjmp": "csetjmp", "wctype": "cwctype", "towlower": "cwctype", "iswalpha": "cwctype",
}  # fmt: skip


def _light_prelude(sources: Sequence[str]) -> str:
    names = {token for source in sources for token in re.findall(r"[A-Za-z_]\w*", source)}
    headers = list(_LIGHT_HEADERS) + sorted({_HEADER_BY_NAME[name] for name in names if name in _HEADER_BY_NAME})
    includes = "".join(f"#include <{header}>\n" for header in headers)
    return sandbox_cpp.PRELUDE.replace("#include <bits/stdc++.h>\n", includes, 1)


def _cpp_job(
    variants: Sequence[Variant],
    signature: Signature | Plan | None,
    calls: Sequence[LeetCodeCall],
    warnings: bool,
    header_flags: Sequence[str] = (),
) -> dict[str, Any]:
    includes: list[str] = []
    blocks: dict[str, str] = {}
    builders, argument_names = _cpp_arguments(signature, calls) if isinstance(signature, Signature) else ("", [])
    for ident, variant in enumerate(variants):
        source = instrument(variant.source, "cpp") if variant.instrument else variant.source
        body, found = _hoist_includes(source)
        includes.extend(line for line in found if line not in includes)
        block = f'\nnamespace dt_c{ident} {{\n#line 1 "dt_c{ident}"\n{body}\n}}\n'
        if isinstance(signature, Signature):
            block += _cpp_runner(ident, signature, argument_names)
        elif signature is not None:
            block += _cpp_design_runner(ident, signature)
        else:
            block += f'#line 1 "dt_r{ident}"\nstatic std::string dt_run_{ident}(int) {{ return "null"; }}\n'
        blocks[str(ident)] = block
    support, main = CPP_RUNTIME.split("static void dt_child(", 1)
    tail = "\n".join(includes) + "\n" + sandbox_cpp.RUNTIME + support + builders
    headers = {"full": sandbox_cpp.PRELUDE + tail}
    if any(variant.light_header for variant in variants):
        headers["light"] = _light_prelude([v.source for v in variants if v.light_header]) + tail
    flags = [*CPP_COMPILE, *header_flags, *(CPP_WARNINGS if warnings else ["-w"])]
    return {"headers": headers, "blocks": blocks, "main": "static void dt_child(" + main, "compile": flags}


# ---------------------------------------------------------------------------------------------------------------
# Java batches.

_PUBLIC_TYPE = re.compile(r"^(\s*)public(\s+(?:final\s+|abstract\s+)*(?:class|interface|enum|record)\s+(\w+))", re.M)


def _java_unit(ident: int, source: str) -> str:
    """The variant as ``dt_c<ident>/Solution.java``: its package, the usual imports and the node classes on its
    first line (so line numbers stay), what LeetCode's library adds after it, and ``public`` off every top-level
    type but ``Solution``."""

    def drop_public(match: re.Match[str]) -> str:
        return match.group(0) if match.group(3) == "Solution" else match.group(1) + "      " + match.group(2)

    body = _PUBLIC_TYPE.sub(drop_public, sandbox_java.leetcode_library(source))
    return " ".join([f"package dt_c{ident};", JAVA_IMPORTS.strip(), *_java_node_imports(source)]) + " " + body


def _java_node_imports(source: str) -> list[str]:
    """Imports of the harness's node classes that ``source`` does not define itself (a single-type import would
    shadow a class of its own)."""
    return [
        f"import {JAVA_PACKAGE}.{node};"
        for node in ("ListNode", "TreeNode")
        if not re.search(rf"\b(?:class|interface|record)\s+{node}\b", _without_comments(source))
    ]


def _without_comments(source: str) -> str:
    return re.sub(r"//[^\n]*|/\*.*?\*/", " ", source, flags=re.S)


def _java_arguments(signature: Signature, calls: Sequence[LeetCodeCall]) -> tuple[str, list[list[str]]]:
    chosen = sandbox_java.CppMethod(
        signature.name, "", [(sandbox_java.java_type(t), n) for t, n in signature.parameters]
    )
    types = list(signature.parameters)
    methods: list[str] = []
    names: list[list[str]] = []
    for index, call in enumerate(calls):
        values = sandbox_cpp.call_values(chosen, types, {"args": call.args}, index)
        literals = sandbox_cpp.argument_literals(chosen, types, values, sandbox_java._literal, sandbox_java.java_type)
        row = []
        for position, (type_name, literal) in enumerate(literals):
            name = f"a{index}_{position}"
            methods.append(f"    public static {type_name} {name}() {{ return {literal}; }}")
            row.append(name)
        names.append(row)
    source = (
        f"package {JAVA_PACKAGE};\n\nimport java.util.*;\n\npublic final class Args {{\n"
        "    static ListNode dtListList(Integer[] values) { return Json.dtListList(values); }\n"
        "    static TreeNode dtListTree(Integer[] values) { return Json.dtListTree(values); }\n"
        + "\n".join(methods)
        + "\n}\n"
    )
    return source, names


def _java_design_cases(plan: Plan) -> list[str]:
    """One case per sequence: a fresh object, each operation's answer (``null`` for none) in one list."""
    class_name, sequences = plan
    cases = []
    for index, operations in enumerate(sequences):
        parts = []
        for position, operation in enumerate(operations):
            declarations, call = _declared_arguments(operation, f"dtA{position}_")
            parts += declarations
            if position == 0:
                parts.append(f"{class_name} dtO = new {class_name}{call}; List<Object> dtOut = new ArrayList<>();")
                parts.append("dtOut.add(null);")
            elif operation.returns == "void":
                parts.append(f"dtO.{operation.name}{call}; dtOut.add(null);")
            else:
                parts.append(f"dtOut.add(dtO.{operation.name}{call});")
        cases.append(f"            case {index}: {{ {' '.join(parts)} return dtOut; }}")
    return cases


def _java_calls(ident: int, signature: Signature | Plan | None, argument_names: list[list[str]], source: str) -> str:
    """``dt_c<ident>/DtCalls.java``: one case per call, its arguments typed as the variant's ``source`` sees them
    (the harness's node classes unless the source defines its own)."""
    cases = []
    if signature is not None and not isinstance(signature, Signature):
        cases = _java_design_cases(signature)
    elif signature is not None:
        for index, names in enumerate(argument_names):
            declared = [
                f"{sandbox_java.java_type(vtype)} arg{position} = {JAVA_PACKAGE}.Args.{name}();"
                for position, ((vtype, _), name) in enumerate(zip(signature.parameters, names))
            ]
            arguments = ", ".join(f"arg{position}" for position in range(len(names)))
            call = f"new Solution().{signature.name}({arguments})"
            if signature.returns.kind == "void":
                body = f"{call}; return arg0;"
            elif signature.returns.kind in ("list", "tree"):
                body = f"Object result = {call}; return result == null ? new ArrayList<Object>() : result;"
            else:
                body = f"return {call};"
            cases.append(f"            case {index}: {{ {' '.join(declared)} {body} }}")
    return (
        f"package dt_c{ident};\n\nimport java.util.*;\n{chr(10).join(_java_node_imports(source))}\n\n"
        "public final class DtCalls {\n"
        "    public static Object call(int test) throws Throwable {\n        switch (test) {\n"
        + "\n".join(cases)
        + "\n            default: return null;\n        }\n    }\n}\n"
    )


def _java_json() -> str:
    body = sandbox_java.RUNTIME.replace("    static String json(Object v)", "    public static String json(Object v)")
    return JAVA_JSON_HEAD + body + "\n}\n"


def _java_job(
    variants: Sequence[Variant], signature: Signature | Plan | None, calls: Sequence[LeetCodeCall], warnings: bool
) -> dict[str, Any]:
    files: dict[str, str] = {
        f"{JAVA_PACKAGE}/ListNode.java": JAVA_NODES["ListNode"],
        f"{JAVA_PACKAGE}/TreeNode.java": JAVA_NODES["TreeNode"],
        f"{JAVA_PACKAGE}/Cov.java": JAVA_COVERAGE,
        f"{JAVA_PACKAGE}/Runner.java": JAVA_RUNNER,
        f"{JAVA_PACKAGE}/Json.java": _java_json(),
        f"{JAVA_PACKAGE}/DebugtutorMain.java": (
            f"package {JAVA_PACKAGE};\n\nimport java.util.*;\n\npublic final class DebugtutorMain {{\n"
            "    @SafeVarargs\n    public static <T> List<T> dtList(T... items) { return Json.dtList(items); }\n}\n"
        ),
    }
    argument_names: list[list[str]] = []
    if isinstance(signature, Signature):
        files[f"{JAVA_PACKAGE}/Args.java"], argument_names = _java_arguments(signature, calls)
    for ident, variant in enumerate(variants):
        source = instrument(variant.source, "java") if variant.instrument else variant.source
        files[f"dt_c{ident}/Solution.java"] = _java_unit(ident, source)
        files[f"dt_c{ident}/DtCalls.java"] = _java_calls(ident, signature, argument_names, source)
    lint = ["-Xlint:all", "-Xmaxwarns", "100000"] if warnings else ["-nowarn"]
    return {"files": files, "compile": [*JAVAC, *lint, "-Xmaxerrs", "100000"], "java": JAVA}


# ---------------------------------------------------------------------------------------------------------------
# Running a batch.

_SIGNALS = {"6": "abort", "8": "SIGFPE", "11": "SIGSEGV", "7": "SIGBUS", "4": "SIGILL", "9": "SIGKILL"}
_TIMEOUT_SIGNALS = {"27", "14", "24", "timeout"}
_SANITIZER_LINE = re.compile(r"^dt_c\d+:(\d+):(?:\d+:)? runtime error:", re.MULTILINE)


def _crash_kind(signal_text: str, stderr: str) -> tuple[Status, str, str]:
    """(status, error type, message) of a call stopped by a signal, from the signal and what it wrote."""
    if signal_text in _TIMEOUT_SIGNALS:
        return Status.timeout, "Timeout", "the call ran out of time"
    text = stderr.strip()
    first = text.splitlines()[0][:300] if text else ""
    if "__n < this->size()" in text or "__pos <= size()" in text or "out of bounds" in text:
        return Status.error, "IndexOutOfRange", first
    if "runtime error:" in text:
        detail = text.split("runtime error:", 1)[1].strip().splitlines()[0][:300]
        if "null pointer" in detail:
            return Status.error, "NullPointer", detail
        if "overflow" in detail:
            return Status.error, "IntegerOverflow", detail
        if "without returning a value" in detail:
            return Status.error, "MissingReturn", detail
        if "division by zero" in detail:
            return Status.error, "DivisionByZero", detail
        return Status.error, "UndefinedBehavior", detail
    if "!this->empty()" in text or "__builtin_expect(!empty()" in text or "empty()" in text:
        return Status.error, "EmptyContainer", first
    if signal_text == "8":
        return Status.error, "DivisionByZero", first or "arithmetic exception"
    if signal_text == "9":
        return Status.memory, "Killed", first or "killed (memory or time)"
    if "bad_alloc" in text:
        return Status.memory, "MemoryError", first
    name = _SIGNALS.get(signal_text, f"signal {signal_text}")
    if signal_text == "11":
        return Status.error, "SegmentationFault", first or "invalid memory access (or a stack overflow)"
    return Status.error, "Crash", first or name


def _line(text: Any) -> int | None:
    try:
        value = int(text)
    except (TypeError, ValueError):
        return None
    return value if value > 0 else None


def _call_outcome(
    index: int, record: dict[str, Any] | None, call: LeetCodeCall, compare: CompareMode, instrumented: bool
) -> CallOutcome:
    expected = json.dumps(call.expected) if call.expected is not None else None
    if record is None:
        return CallOutcome(index, Status.error, expected=expected, error_type="NotRun", known=False)
    covered = sorted(set(record.get("covered", [])))
    if "actual" in record:
        text = record["actual"]
        try:
            actual = json.loads(text)
        except json.JSONDecodeError:
            return CallOutcome(index, Status.error, expected=expected, covered=covered, error_type="MalformedResult")
        if call.expected is None:
            status = Status.passed
        else:
            try:
                status = Status.passed if values_match(actual, call.expected, compare) else Status.failed
            except RecursionError:
                status = Status.error
        return CallOutcome(
            index, status, actual=json.dumps(actual), expected=expected, covered=covered,
            cpu_s=float(record.get("cpu_s", 0.0)),
        )  # fmt: skip
    if "error" in record:
        error = record["error"]
        kind = str(error.get("type", "Exception"))
        status = Status.memory if kind in ("std::bad_alloc", "OutOfMemoryError") else Status.error
        if kind == "StackOverflowError":
            status = Status.error
        return CallOutcome(
            index, status, expected=expected, covered=covered, error_type=kind,
            error_message=str(error.get("message", "")), error_line=_line(error.get("line")),
        )  # fmt: skip
    crash = record.get("crash", {})
    stderr = str(crash.get("stderr", ""))
    status, kind, message = _crash_kind(str(crash.get("signal", "")), stderr)
    line = _line(crash.get("line")) if instrumented or kind == "Timeout" else None
    # the sanitizer names the exact line (in the variant's own numbering, see the #line directives)
    reported = _SANITIZER_LINE.search(stderr)
    if reported is not None:
        line = _line(reported.group(1))
    return CallOutcome(
        index, status, expected=expected, covered=covered, error_type=kind, error_message=message, error_line=line
    )


def _messages(raw: list[dict[str, Any]]) -> list[CompilerMessage]:
    return [
        CompilerMessage(
            line=int(item.get("line", 0)),
            column=int(item.get("column", 0)),
            severity=str(item.get("severity", "error")),
            message=str(item.get("message", "")),
            detail=str(item.get("detail", "")),
            in_harness=bool(item.get("in_harness", False)),
        )
        for item in raw
    ]


async def arun_variants(
    language: CompiledLanguage,
    variants: Sequence[Variant],
    calls: Sequence[LeetCodeCall] = (),
    *,
    method: str | None = None,
    signature_source: str | None = None,
    per_test_s: float = 1.0,
    warnings: bool = False,
    run: bool = True,
    deadline_s: float = 60.0,
    compare: CompareMode = "exact",
    unbalanced_variants: str = "alone",
) -> BatchResult:
    """Compile ``variants`` together and run each on ``calls``; one :class:`VariantResult` per variant, in order.

    The called method is read from ``signature_source`` (default: the first variant); for a design problem's
    operation sequences (see :func:`~debugtutor.analysis.examples.design_calls`) the class's constructor and methods
    are. When they cannot be called with these arguments every variant gets ``harness_error`` and nothing runs.
    ``per_test_s`` is each call's CPU budget; ``deadline_s`` bounds the whole job. A C++ variant whose delimiters
    do not balance is compiled in a translation unit of its own (``unbalanced_variants="alone"``), or reported as
    not compiling without a compile (``"fail"``: cheaper, for callers that only need to know that it fails)."""
    if not variants:
        return BatchResult([])
    signature: Signature | Plan | None = None
    harness_error: str | None = None
    # with the precompiled standard header the full header costs less than the light one: every variant gets it
    header = await asyncio.to_thread(precompiled_header_flags, CPP_COMPILE[1:]) if language == "cpp" else []

    def build(signature: Signature | Plan | None, calls: Sequence[LeetCodeCall]) -> dict[str, Any]:
        if language == "cpp":
            return _cpp_job(variants, signature, calls, warnings, header)
        return _java_job(variants, signature, calls, warnings)

    if calls and run:
        try:
            signature = call_plan(signature_source or variants[0].source, language, method, calls)
            pieces = build(signature, calls)
        except InputError as exc:
            harness_error = exc.message
            signature = None
    if signature is None:
        pieces = build(None, ())
    tests = len(calls) if signature is not None else 0
    # C++ variants share a translation unit only when they cannot swallow the code after them
    problems = {ident: imbalance(variant.source) for ident, variant in enumerate(variants)} if language == "cpp" else {}
    shared = [ident for ident in range(len(variants)) if problems.get(ident) is None]
    unbalanced = [ident for ident in range(len(variants)) if problems.get(ident) is not None]
    groups: list[dict[str, Any]] = []
    for light in (False, True):
        members = [ident for ident in shared if (variants[ident].light_header and not header) == light]
        if members:
            groups.append({"ids": members, "header": "light" if light else "full"})
    if unbalanced_variants == "alone":
        groups += [{"ids": [ident], "header": "full"} for ident in unbalanced]
    wall_per_test = max(2, int(per_test_s * 10) + 1)
    job = {
        **pieces,
        "language": language,
        "ids": list(range(len(variants))),
        "groups": groups,
        "tests": tests,
        "per_test_s": per_test_s,
        "wall_per_test_s": wall_per_test,
        "run": run and tests > 0,
        "deadline_s": deadline_s,
        "max_rounds": 4,
        "max_restarts": max(8, len(variants)),
        "compile_timeout_s": min(120.0, deadline_s),
    }
    limits = Limits(
        wall_s=deadline_s + 15.0, memory_mb=JOB_MEMORY_MB, max_processes=256, file_bytes=256_000_000,
        output_bytes=16_000_000,
    )  # fmt: skip
    outcome = await arun(ProgramRequest(source=_driver_source(), files={"job.json": json.dumps(job)}, limits=limits))
    report: dict[str, Any] | None = None
    for line in outcome.stdout.splitlines():
        if line.startswith(DRIVER_MARKER):
            report = json.loads(line[len(DRIVER_MARKER) :])
    if report is None:
        problem = (outcome.stderr or outcome.stdout or outcome.status.value).strip()[-800:]
        empty = [VariantResult(compiled=False, harness_error=harness_error) for _ in variants]
        return BatchResult(empty, wall_s=outcome.wall_s, problem=f"the batch job failed: {problem}")
    compiled = set(report.get("compiled", []))
    messages = report.get("messages", {})
    results = report.get("results", {})
    variants_out = []
    for ident, variant in enumerate(variants):
        found = _messages(messages.get(str(ident), []))
        imbalanced = problems.get(ident)
        if imbalanced is not None and unbalanced_variants != "alone":
            found = [CompilerMessage(line=imbalanced[0], column=0, severity="error", message=imbalanced[1])]
        result = VariantResult(compiled=ident in compiled, messages=found, harness_error=harness_error)
        if result.compiled and tests:
            records = results.get(str(ident), {})
            result.calls = [
                _call_outcome(index, records.get(str(index)), call, compare, variant.instrument)
                for index, call in enumerate(calls)
            ]
        elif (
            not result.compiled
            and any(m.in_harness for m in found)
            and not any(m.severity == "error" and not m.in_harness for m in found)
        ):
            result.harness_error = "; ".join(m.message for m in found if m.in_harness)[:500]
        variants_out.append(result)
    loose = report.get("loose") or []
    return BatchResult(
        variants_out,
        compile_seconds=float(report.get("compile_seconds", 0.0)),
        compiles=int(report.get("compiles", 0)),
        run_seconds=float(report.get("run_seconds", 0.0)),
        wall_s=outcome.wall_s,
        problem="; ".join(loose)[:800] if loose and not compiled else None,
        program_starts=int(report.get("program_starts", 0)),
    )


def run_variants(
    language: CompiledLanguage,
    variants: Sequence[Variant],
    calls: Sequence[LeetCodeCall] = (),
    **options: Any,
) -> BatchResult:
    """Synchronous :func:`arun_variants`."""
    return asyncio.run(arun_variants(language, variants, calls, **options))
