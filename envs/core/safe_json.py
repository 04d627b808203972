"""JSON that someone else wrote (a shared replay, a query string), read without letting its shape crash the
reader. Python's json module turns three hostile inputs into errors nobody catches: nesting deeper than the
stack (RecursionError), an integer of over 4,300 digits (a bare ValueError from int()), and NaN or
Infinity, which it accepts although JSON has neither (and which a JSON response then cannot carry)."""

from __future__ import annotations

import json
from typing import Any

MAX_INT_DIGITS = 64
"""Longer integers are read as a `HugeNumber`, so the field holding one can be named in the refusal. A saved
state's random generator holds 128-bit integers (39 digits): they stay numbers."""


class HugeNumber:
    """An integer literal too long to be any count, seed or action here; kept as its length only."""

    def __init__(self, digits: int) -> None:
        self.digits = digits

    def __repr__(self) -> str:
        return f"a {self.digits}-digit number"


def loads(text: str | bytes) -> Any:
    """Parse `text`, or raise ValueError saying what is wrong with it (never RecursionError)."""
    try:
        return json.loads(text, parse_int=_integer, parse_float=_finite, parse_constant=_no_constant)
    except RecursionError:
        raise ValueError("it is nested too deeply to read") from None


def nesting_depth(value: Any, limit: int) -> int:
    """How deeply lists and mappings nest in `value` (a scalar is 0), counted without recursion and
    without looking further than `limit + 1` levels down."""
    deepest, level, frontier = 0, 0, [value]
    while frontier and level <= limit:
        children = []
        for item in frontier:
            if isinstance(item, dict):
                children.extend(item.values())
            elif isinstance(item, list):
                children.extend(item)
        if children or any(isinstance(item, (dict, list)) for item in frontier):
            level += 1
            deepest = level
        frontier = children
    return deepest


def _integer(text: str) -> int | HugeNumber:
    digits = len(text.lstrip("-"))
    return HugeNumber(digits) if digits > MAX_INT_DIGITS else int(text)


def _finite(text: str) -> float:
    number = float(text)
    if number in (float("inf"), float("-inf")):
        raise ValueError(f"{text[:20]} is too large for a JSON number here")
    return number


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")
