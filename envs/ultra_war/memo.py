"""Ultra War's per-decision memo: what computing one legal set reads over and over (who stands where, the
pools, feat targets...), each value computed at most once while the position stands still.

Open only inside `with state.memo:` (legal.py, around the legal set, which changes nothing), so no value
outlives the position it was computed on and nothing needs to remember to clear it. Outside, every value
is computed afresh: the rules ask the memo the same way wherever they are called from and never ask
whether it is open, so speed stays out of the rules.

It lives here, not in the engine, because only this game gains from it: Conquest's observation and the world
game's legal set were slower with it (BENCHMARKS.md, 2026-11-26 later)."""

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

    def __enter__(self) -> Memo:
        """Keep values until the block ends: the position must not change meanwhile."""
        self._values = {}
        return self

    def __exit__(self, *_: object) -> None:
        """Forget every value and stop keeping them (also when the block raised)."""
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
