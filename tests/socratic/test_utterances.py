"""Parsing list-shaped model answers into utterances, robustly and as the original code did."""

from __future__ import annotations

import pytest

from debugtutor.socratic.utterances import parse_utterance_list


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ("1. What is n?\n2. What does line 3 do?", ["What is n?", "What does line 3 do?"]),
        ("Here are some questions:\n1) What is n?\n2) Why?", ["What is n?", "Why?"]),
        ("- What is n?\n* Why?\n\u2022 How?", ["What is n?", "Why?", "How?"]),
        ("1. What happens when\n   n is 0?\n2. Why?", ["What happens when n is 0?", "Why?"]),
        ('1. "What is n?"\n2. \u201cWhy?\u201d', ["What is n?", "Why?"]),
        ("1. What is 3.5 rounded?\n2. What is n?", ["What is 3.5 rounded?", "What is n?"]),
        ("1. What is n?\n2. what is N?", ["What is n?"]),
        ("What does your loop do for n = 5?", ["What does your loop do for n = 5?"]),
        ("1. Look:\n```python\nx = 1\n```\n2. Why?", ["Look:", "Why?"]),
        ("", []),
    ],
)
def test_robust_parsing(response: str, expected: list[str]) -> None:
    assert parse_utterance_list(response) == expected


def test_original_mode_keeps_its_quirks() -> None:
    # The original prepends "1." when missing, and any "digits." in an unnumbered line starts an item.
    assert parse_utterance_list("What is n?", mode="original") == ["What is n?"]
    items = parse_utterance_list("1. Why?\nSee line 3. It is odd", mode="original")
    assert items == ["Why?", "It is odd"]
    assert parse_utterance_list("1. Why?\n1. Why?", mode="original") == ["Why?", "Why?"]


def test_unknown_mode() -> None:
    with pytest.raises(ValueError):
        parse_utterance_list("1. x", mode="fancy")
