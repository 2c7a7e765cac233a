"""Turning a model's answer into a list of distinct instructor utterances.

Models asked for "all possible utterances" answer with a numbered list, but not always cleanly: a preamble before
item 1, bullets instead of numbers, items wrapped over two lines, quotes around each item, a code block, or the
numbering restarting. :func:`parse_utterance_list` survives those. ``mode="original"`` reproduces the benchmark
code's own parser instead (prepend ``1.`` when missing, drop one code block, and take every "digits, dot, rest of the
line" match, including a number like ``3.5`` inside a sentence), for exact reproduction of published numbers.
"""

from __future__ import annotations

import re

_CODE_BLOCK = re.compile(r"<code>.*?</code>|```.*?```", re.S)
_ITEM_START = re.compile(r"^\s*(?:\(?\d{1,3}[.)]|[-*\u2022])\s+(.*)$")
_ORIGINAL_ITEM = re.compile(r"\d+\.\s*(.*)")
_QUOTES = "\"'\u201c\u201d\u2018\u2019`"


def _clean(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"^\*\*(.+?)\*\*:?\s*", r"\1 ", text).strip()  # "**Question:** ..." style emphasis
    if len(text) >= 2 and text[0] in _QUOTES and text[-1] in _QUOTES:
        text = text[1:-1].strip()
    return text


def parse_utterance_list(response: str, *, mode: str = "robust", dedupe: bool = True) -> list[str]:
    """The utterances of a list-shaped answer (one utterance when the answer is not a list)."""
    if mode == "original":
        text = response if response.startswith("1.") else "1. " + response
        text = _CODE_BLOCK.sub("", text, count=1)
        return [m.group(1) for m in _ORIGINAL_ITEM.finditer(text)]
    if mode != "robust":
        raise ValueError(f"unknown list-parsing mode {mode!r}")
    text = _CODE_BLOCK.sub("", response)
    items: list[str] = []
    current: list[str] | None = None
    preamble: list[str] = []
    for line in text.splitlines():
        match = _ITEM_START.match(line)
        if match:
            if current is not None:
                items.append(" ".join(current))
            current = [match.group(1)]
        elif not line.strip():
            if current is not None:
                items.append(" ".join(current))
                current = None
        elif current is not None:
            current.append(line.strip())  # an item wrapped over several lines
        else:
            preamble.append(line.strip())
    if current is not None:
        items.append(" ".join(current))
    if not items and preamble:
        items = [" ".join(preamble)]
    cleaned = [c for c in (_clean(item) for item in items) if c]
    if not dedupe:
        return cleaned
    seen: set[str] = set()
    unique: list[str] = []
    for item in cleaned:
        key = re.sub(r"\W+", " ", item.lower()).strip()
        if key not in seen:
            seen.add(key)
            unique.append(item)
    return unique
