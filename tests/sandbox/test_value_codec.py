"""The plain-data encoding of probe values: exact round trips, opaque stand-ins, and refusals of malformed input."""

from __future__ import annotations

import collections
import json
import math
from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction

import pytest

from debugtutor.sandbox._value_codec import MAX_DEPTH, Opaque, decode, encode


def round_trip(value: object) -> object:
    return decode(json.loads(json.dumps(encode(value))))


@pytest.mark.parametrize(
    "value",
    [
        None,
        True,
        0,
        -(2**80),
        1.0,
        -0.0,
        float("inf"),
        "é\n\x00",
        b"\x00\xff",
        bytearray(b"ab"),
        3 + 4j,
        [1, [2, (3, 4)]],
        (1,),
        {1, 2},
        frozenset({"a"}),
        {1: "a", (2, 3): [4]},
        collections.deque([1, 2]),
        range(1, 9, 2),
        Fraction(1, 3),
        Decimal("1.10"),
    ],
)
def test_plain_values_round_trip_with_their_types(value: object) -> None:
    back = round_trip(value)
    assert back == value and type(back) is type(value)


def test_nan_round_trips() -> None:
    back = round_trip(float("nan"))
    assert isinstance(back, float) and math.isnan(back)


def test_subclasses_travel_as_their_base_type_without_their_overrides() -> None:
    class Sneaky(list[int]):
        def __iter__(self) -> Iterator[int]:
            return iter([99])

        def __eq__(self, other: object) -> bool:
            return True

    back = round_trip(Sneaky([1, 2]))
    assert back == [1, 2] and type(back) is list
    point = collections.namedtuple("point", "x y")
    assert round_trip(point(1, 2)) == (1, 2)


def test_other_objects_become_opaque_and_equal_only_themselves() -> None:
    class AlwaysEqual:
        def __eq__(self, other: object) -> bool:
            return True

        def __repr__(self) -> str:
            return "AlwaysEqual()"

    value = AlwaysEqual()
    data = json.loads(json.dumps([encode(value), encode(value)]))
    memo: dict[int, Opaque] = {}
    first, second = decode(data[0], memo), decode(data[1], memo)
    assert isinstance(first, Opaque) and first is second
    assert first != 8 and (first == AlwaysEqual()) is False and repr(first) == "AlwaysEqual()"
    assert bool(first) is True


def test_cycles_and_depth_are_bounded() -> None:
    loop: list[object] = []
    loop.append(loop)
    assert isinstance(round_trip(loop)[0], Opaque)  # type: ignore[index]
    deep: object = 1
    for _ in range(MAX_DEPTH + 5):
        deep = [deep]
    assert round_trip(deep) is not None


@pytest.mark.parametrize(
    "data",
    [
        {"zz": 1},
        {"l": 3},
        {"d": [[{"l": []}, 1]]},  # unhashable key
        {"f": 1.5},
        [1, 2],
        {"i": "12x"},
        {"o": ["T", "r", True]},
    ],
)
def test_malformed_input_is_refused(data: object) -> None:
    with pytest.raises(ValueError):
        decode(data)


def test_too_deep_input_is_refused_before_recursing_far() -> None:
    data: object = 1
    for _ in range(MAX_DEPTH + 10):
        data = {"l": [data]}
    with pytest.raises(ValueError, match="deep"):
        decode(data)
