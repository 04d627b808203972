"""A per-decision memo: what one decision's computations read over and over, each value computed at most
once while the position stands still.

A game opens the memo around a computation that changes nothing (its legal set, say) and clears it after;
`State.apply` clears it too, before the position changes, so no value outlives the position it was computed
on. While closed, every value is computed afresh, so the rules ask the memo the same way wherever they are
called from and never ask whether it is open: speed stays out of the rules."""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")


class Memo:
    __slots__ = ("_values",)

    def __init__(self) -> None:
        self._values: dict[Hashable, Any] | None = None
        """None while closed."""

    def open(self) -> None:
        """Keep values from now until `clear`: the position must not change meanwhile."""
        self._values = {}

    def clear(self) -> None:
        """Forget every value and stop keeping them."""
        self._values = None

    def get(self, key: Hashable, compute: Callable[..., T], *args: Any) -> T:
        """compute(*args): kept under `key` while open (the key names the value and every argument it
        depends on), computed afresh while closed. The caller must not change what it gets."""
        values = self._values
        if values is None:
            return compute(*args)
        if key in values:
            return values[key]
        value = values[key] = compute(*args)
        return value


def memoized(method: Callable[..., T]) -> Callable[..., T]:
    """A state method whose value, for the same (hashable) arguments, the state's memo keeps while open.
    (Memo.get written out, for methods of no or one argument: these run several times a decision.)"""
    name = method.__name__
    arity = method.__code__.co_argcount - 1
    if arity == 0:

        def kept(self: Any) -> T:
            values = self.memo._values
            if values is None:
                return method(self)
            value = values.get(name, _MISSING)
            if value is _MISSING:
                value = values[name] = method(self)
            return value

    elif arity == 1:

        def kept(self: Any, arg: Any) -> T:  # type: ignore[misc]
            values = self.memo._values
            if values is None:
                return method(self, arg)
            key = (name, arg)
            value = values.get(key, _MISSING)
            if value is _MISSING:
                value = values[key] = method(self, arg)
            return value

    else:

        def kept(self: Any, *args: Any) -> T:  # type: ignore[misc]
            return self.memo.get((name, *args), method, self, *args)

    return functools.wraps(method)(kept)


_MISSING = object()
