"""Plain data across the judge's boundary: the values a program computes, encoded where it runs, decoded outside.

The program's process evaluates only the parts of a test that call into the program (the *probes*) and sends their
values back as JSON; the verdict is computed elsewhere, from those values and an expected value the program's process
never holds. This module is that encoding, used on both sides: inside the sandbox (it is copied next to the server as
``_dt_codec`` and must stay standard-library only, Python 3.8+) and by the host.

Plain values (None, bool, int, float, str, bytes, complex, list, tuple, set, frozenset, dict, deque, range,
Fraction, Decimal, and instances of subclasses of the containers and scalars, taken as their base type) round-trip
exactly. Anything else arrives as an :class:`Opaque` stand-in: it keeps the object's type name, repr and truth value,
and like an object without ``__eq__`` it equals only itself. Decoding never runs code of the program's and rejects
input that is too deep or malformed with :class:`ValueError`.
"""

from __future__ import annotations

import collections
from typing import Any

MAX_DEPTH = 64
"""Nesting beyond this (or a cycle) encodes as an opaque value; decoding refuses deeper input."""
MAX_NODES = 2_000_000
"""Values in one encoding; a larger structure encodes as an opaque value."""
REPR_LIMIT = 2000

# How a decoded probe value is compared with the expected side, by the name of the ``ast`` comparison operator (the
# host's fast path and the judge process both decide verdicts with this one table).
COMPARISONS = {
    "Eq": lambda a, b: a == b,
    "NotEq": lambda a, b: a != b,
    "Lt": lambda a, b: a < b,
    "LtE": lambda a, b: a <= b,
    "Gt": lambda a, b: a > b,
    "GtE": lambda a, b: a >= b,
    "Is": lambda a, b: a is b,
    "IsNot": lambda a, b: a is not b,
    "In": lambda a, b: a in b,
    "NotIn": lambda a, b: a not in b,
}


class Opaque:
    """A value the program computed that is not plain data: only its type, repr and truth value crossed over."""

    __slots__ = ("ident", "repr_text", "truth", "type_name")

    def __init__(self, type_name: str, repr_text: str, truth: bool, ident: int) -> None:
        self.type_name = type_name
        self.repr_text = repr_text
        self.truth = truth
        self.ident = ident

    def __repr__(self) -> str:
        return self.repr_text

    def __bool__(self) -> bool:
        return self.truth

    def __eq__(self, other: object) -> bool:
        return other is self

    def __ne__(self, other: object) -> bool:
        return other is not self

    def __hash__(self) -> int:
        return hash(self.ident)


def safe_repr(value: Any) -> str:
    try:
        text = repr(value)
    except BaseException as exc:
        text = f"<unrepresentable {type(value).__name__}: {type(exc).__name__}>"
    return text if len(text) <= REPR_LIMIT else text[:REPR_LIMIT] + "..."


def _truth(value: Any) -> bool:
    try:
        return bool(value)
    except BaseException:
        return True


class _Budget:
    __slots__ = ("left",)

    def __init__(self) -> None:
        self.left = MAX_NODES


def encode(value: Any) -> Any:
    """A JSON-ready form of ``value`` (see the module docstring)."""
    return _encode(value, 0, _Budget(), set())


def _opaque(value: Any) -> dict[str, Any]:
    kind = type(value)
    return {
        "o": [getattr(kind, "__qualname__", kind.__name__), safe_repr(value), _truth(value), id(value) & 0xFFFFFFFFFFFF]
    }


def _encode(value: Any, depth: int, budget: _Budget, active: set[int]) -> Any:
    budget.left -= 1
    kind = type(value)
    if value is None or kind is bool or kind is str:
        return value
    if kind is int:
        return value if -(2**53) < value < 2**53 else {"i": str(value)}
    if kind is float:
        return {"f": repr(value)}
    if depth >= MAX_DEPTH or budget.left <= 0 or id(value) in active:
        return _opaque(value)
    if isinstance(value, int):
        return _encode(int.__int__(value), depth, budget, active)
    if isinstance(value, float):
        return {"f": float.__repr__(value)}
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, (bytes, bytearray)):
        return {"b" if isinstance(value, bytes) else "ba": bytes(value).hex()}
    if isinstance(value, complex):
        return {"c": [repr(value.real), repr(value.imag)]}
    if isinstance(value, range):
        return {"r": [value.start, value.stop, value.step]}
    module = getattr(kind, "__module__", "")
    if module == "fractions" and kind.__name__ == "Fraction":
        return {"q": [str(value.numerator), str(value.denominator)]}
    if module == "decimal" and kind.__name__ == "Decimal":
        return {"dec": str(value)}
    tag = _container_tag(value)
    if tag is None:
        return _opaque(value)
    active.add(id(value))
    try:
        if tag == "d":
            items = dict.items(value)
            if len(items) > budget.left:
                return _opaque(value)
            return {
                "d": [[_encode(k, depth + 1, budget, active), _encode(v, depth + 1, budget, active)] for k, v in items]
            }
        elements = _elements(value, tag)
        if len(elements) > budget.left:
            return _opaque(value)
        return {tag: [_encode(item, depth + 1, budget, active) for item in elements]}
    finally:
        active.discard(id(value))


def _container_tag(value: Any) -> str | None:
    if isinstance(value, list):
        return "l"
    if isinstance(value, tuple):
        return "t"
    if isinstance(value, frozenset):
        return "fs"
    if isinstance(value, set):
        return "s"
    if isinstance(value, dict):
        return "d"
    if isinstance(value, collections.deque):
        return "dq"
    return None


def _elements(value: Any, tag: str) -> list[Any]:
    # The base type's own methods, so a subclass's overrides (__iter__, __getitem__) are not called.
    if tag == "l":
        return list.copy(value)
    if tag == "t":
        return list(tuple.__getitem__(value, slice(None)))
    if tag in ("s", "fs"):
        items = list(set.__iter__(value) if tag == "s" else frozenset.__iter__(value))
        return items
    return list(collections.deque.__iter__(value))


def decode(data: Any, memo: dict[int, Opaque] | None = None) -> Any:
    """The value :func:`encode` produced ``data`` from; :class:`ValueError` for anything it could not have produced.

    ``memo`` maps opaque identities to their stand-ins, so two probes of one object decode to one object.
    """
    return _decode(data, 0, {} if memo is None else memo)


def _decode(data: Any, depth: int, memo: dict[int, Opaque]) -> Any:  # noqa: C901 - one case per tag
    if data is None or isinstance(data, (bool, str)):
        return data
    if isinstance(data, int):
        return data
    if depth > MAX_DEPTH + 1:
        raise ValueError("value nested too deeply")
    if not isinstance(data, dict) or len(data) != 1:
        raise ValueError(f"not an encoded value: {str(data)[:80]}")
    ((tag, body),) = data.items()
    if tag == "i":
        return int(_text(body))
    if tag == "f":
        return float(_text(body))
    if tag in ("b", "ba"):
        raw = bytes.fromhex(_text(body))
        return raw if tag == "b" else bytearray(raw)
    if tag == "c":
        real, imag = _pair(body)
        return complex(float(_text(real)), float(_text(imag)))
    if tag == "r":
        start, stop, step = _list(body, 3)
        return range(_int(start), _int(stop), _int(step))
    if tag == "q":
        from fractions import Fraction

        numerator, denominator = _pair(body)
        return Fraction(int(_text(numerator)), int(_text(denominator)))
    if tag == "dec":
        from decimal import Decimal

        return Decimal(_text(body))
    if tag == "o":
        type_name, repr_text, truth, ident = _list(body, 4)
        key = _int(ident)
        if key not in memo:
            memo[key] = Opaque(_text(type_name), _text(repr_text), bool(truth), key)
        return memo[key]
    if tag == "d":
        pairs = _list(body, None)
        return {
            _key(_decode(_pair(pair)[0], depth + 1, memo)): _decode(_pair(pair)[1], depth + 1, memo) for pair in pairs
        }
    items = [_decode(item, depth + 1, memo) for item in _list(body, None)]
    if tag == "l":
        return items
    if tag == "t":
        return tuple(items)
    if tag == "s":
        return {_key(item) for item in items}
    if tag == "fs":
        return frozenset(_key(item) for item in items)
    if tag == "dq":
        return collections.deque(items)
    raise ValueError(f"unknown value tag {tag!r}")


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("expected a string in an encoded value")
    return value


def _int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError("expected an integer in an encoded value")
    return value


def _list(value: Any, length: int | None) -> list[Any]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        raise ValueError("malformed encoded value")
    return value


def _pair(value: Any) -> list[Any]:
    return _list(value, 2)


def _key(value: Any) -> Any:
    try:
        hash(value)
    except TypeError:
        raise ValueError("unhashable key in an encoded set or dict") from None
    return value
