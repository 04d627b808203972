"""One declaration of a position's fields, from which saving, loading, cloning and the type checks come.

A state class (or a record inside it, such as an Ultra War unit) declares every attribute it has once, in
`FIELDS = Fields(...)`, in the order they are saved:

    FIELDS = Fields(
        phase=Int(0, OVER), holder=ListOf(Int(-1, SEAT), size=COUNTRIES), events=ListOf(Str()),
        kept={"cfg": SHARED, "move_events": COPIED, "last_view": Fresh(LastView)},
    )

The keyword arguments are the saved fields, each with its *kind*: what a saved value must be (`Int(lo, hi)`
refuses 1.5, True, None and "1"; `ListOf(kind, size=...)`, `Row(("card", kind), ...)` for a short list whose
places mean different things, `SetOf`, `MapOf`, `Nullable`, `Records(cls)` for a list of records that declare
their own fields). A bound or size may be a number or a function of the state being loaded (`SEAT` is the
last seat, `TABLE` the number of seats). `kept` names the attributes that are not saved, with what a clone
does with each: `SHARED` (never changed in place, or never changed at all: the config, a board), `COPIED`
(play changes it in place: a log), `Fresh(make)` (a cache a clone rebuilds empty), `Derived(compute)`
(recomputed from the saved fields on load, copied by a clone). `renamed` maps a saved key to another attribute name.

From the declaration come: `save` (the dict, in declaration order), `load` (exactly the declared keys,
each value checked before any is set: one ValueError naming the field and what it must be), `clone` (the
attributes play changes in place copied as deep as their kind goes, everything else shared) and
`undeclared` (for tests/test_layout.py: no attribute escapes the declaration). What ties fields together
(pieces in one place, whose turn fits the phase) is not a type: each game's consistency.py checks it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

Bound = int | Callable[[Any], int]
"""A number, or a function of the state being loaded (its seats, its config)."""
Copier = Callable[[Any], Any] | None
"""How a clone copies a value; None: the value is immutable, a clone shares it."""


def SEAT(state: Any) -> int:  # noqa: N802 (a bound, read like the constants next to it)
    """The last seat of the state's table."""
    return state.n - 1


def TABLE(state: Any) -> int:  # noqa: N802
    """The number of seats at the state's table."""
    return state.n


def _value(bound: Bound, state: Any) -> int:
    return bound(state) if callable(bound) else bound


def _shown(value: Any) -> str:
    text = repr(value) if not isinstance(value, int) or abs(value) < 10**60 else "(a huge number)"
    return text if len(text) <= 60 else text[:57] + "..."


def _require(ok: bool, where: str, what: str, value: Any) -> None:
    if not ok:
        raise ValueError(f"{where} must be {what}, got {_shown(value)}")


class Kind:
    """What one saved value must be, how it is saved and loaded, and how a clone copies it."""

    copier: Copier = None

    def check(self, value: Any, where: str, state: Any) -> None:
        raise NotImplementedError

    def save(self, value: Any) -> Any:
        return value

    def load(self, value: Any) -> Any:
        return value


class Int(Kind):
    """A true int (never a bool, a float, None or a string) in lo..hi."""

    def __init__(self, lo: Bound, hi: Bound) -> None:
        self.lo, self.hi = lo, hi

    def check(self, value: Any, where: str, state: Any) -> None:
        lo, hi = _value(self.lo, state), _value(self.hi, state)
        _require(type(value) is int and lo <= value <= hi, where, f"a whole number {lo}..{hi}", value)


class Bool(Kind):
    def check(self, value: Any, where: str, state: Any) -> None:
        _require(type(value) is bool, where, "true or false", value)


class Str(Kind):
    """Text; with `among`, one of the names it returns for the state (a card, a character)."""

    def __init__(self, among: Callable[[Any], Iterable[str]] | None = None) -> None:
        self.among = among

    def check(self, value: Any, where: str, state: Any) -> None:
        _require(type(value) is str, where, "text", value)
        _require(self.among is None or value in self.among(state), where, "one of the game's names", value)


class Nullable(Kind):
    """None, or a value of `kind`."""

    def __init__(self, kind: Kind) -> None:
        self.kind = kind
        inner = kind.copier
        self.copier = None if inner is None else lambda v: None if v is None else inner(v)

    def check(self, value: Any, where: str, state: Any) -> None:
        if value is not None:
            self.kind.check(value, where, state)

    def save(self, value: Any) -> Any:
        return None if value is None else self.kind.save(value)

    def load(self, value: Any) -> Any:
        return None if value is None else self.kind.load(value)


def _list_copier(kinds: Iterable[Kind]) -> Copier:
    copiers = {kind.copier for kind in kinds}
    if copiers == {None}:
        return list.copy
    (inner,) = copiers  # a list of lists: each row copied the way its kind says
    return lambda v: [inner(x) for x in v]


_LONGEST = 10**6
"""No saved list is anywhere near this long: a bound that keeps absurd ones out."""


class ListOf(Kind):
    """A list of values of `kind`: `size` long, or (size None) at most `most` long; `distinct`: no repeats."""

    def __init__(self, kind: Kind, size: Bound | None = None, most: Bound = _LONGEST, distinct: bool = False) -> None:
        self.kind, self.size, self.most, self.distinct = kind, size, most, distinct
        self.copier = _list_copier([kind])
        self._plain = type(kind).save is Kind.save and type(kind).load is Kind.load

    def check(self, value: Any, where: str, state: Any) -> None:
        if self.size is not None:
            size = _value(self.size, state)
            _require(type(value) is list and len(value) == size, where, f"a list of {size}", value)
        else:
            most = _value(self.most, state)
            what = "a list" if most == _LONGEST else f"a list of at most {most}"
            _require(type(value) is list and len(value) <= most, where, what, value)
        for i, item in enumerate(value):
            self.kind.check(item, f"{where}[{i}]", state)
        _require(not self.distinct or len(set(value)) == len(value), where, "a list without repeats", value)

    def save(self, value: Any) -> Any:
        return value if self._plain else [self.kind.save(x) for x in value]

    def load(self, value: Any) -> Any:
        return value if self._plain else [self.kind.load(x) for x in value]


class Row(Kind):
    """A short list whose places mean different things ([card, actor, p1, ...]): one kind per place, named
    in messages; `or_empty` also allows [] (nothing under way)."""

    def __init__(self, *places: tuple[str, Kind], or_empty: bool = False) -> None:
        self.places, self.or_empty = places, or_empty
        self.copier = _list_copier([kind for _, kind in places])

    def check(self, value: Any, where: str, state: Any) -> None:
        names = ", ".join(name for name, _ in self.places)
        ok = type(value) is list and (len(value) == len(self.places) or (self.or_empty and value == []))
        _require(ok, where, f"[{names}]" + (" or []" if self.or_empty else ""), value)
        for i, ((name, kind), item) in enumerate(zip(self.places, value)):
            kind.check(item, f"{where}[{i}] ({name})", state)


class SetOf(Kind):
    """A set of values of `kind`, saved as a sorted list."""

    copier = staticmethod(set.copy)

    def __init__(self, kind: Kind) -> None:
        self.list = ListOf(kind)

    def check(self, value: Any, where: str, state: Any) -> None:
        self.list.check(value, where, state)

    def save(self, value: Any) -> Any:
        return sorted(value)

    def load(self, value: Any) -> Any:
        return set(value)


class MapOf(Kind):
    """A dict from `key` values to `value` values (flat: a clone copies it one level deep)."""

    copier = staticmethod(dict.copy)

    def __init__(self, key: Kind, value: Kind) -> None:
        self.key, self.value = key, value

    def check(self, value: Any, where: str, state: Any) -> None:
        _require(type(value) is dict, where, "a mapping", value)
        for k, v in value.items():
            self.key.check(k, f"{where} key", state)
            self.value.check(v, f"{where}[{k!r}]", state)

    def save(self, value: Any) -> Any:
        return dict(value)


class Records(Kind):
    """A list of records (objects of `cls`, which declares its own `FIELDS`), saved as a list of dicts."""

    def __init__(self, cls: type) -> None:
        self.cls = cls
        copy_one = _record_copier(cls)
        self.copier = lambda v: [copy_one(r) for r in v]

    def check(self, value: Any, where: str, state: Any) -> None:
        _require(type(value) is list and len(value) <= 10**4, where, "a list", value)
        for i, item in enumerate(value):
            self.cls.FIELDS.check(item, f"{where}[{i}]", state)

    def save(self, value: Any) -> Any:
        fields = self.cls.FIELDS
        return [fields.save(r) for r in value]

    def load(self, value: Any) -> Any:
        fields = self.cls.FIELDS
        return [fields.build(self.cls, x) for x in value]


def _record_copier(cls: type) -> Callable[[Any], Any]:
    """A function copying one record of `cls` attribute by attribute, written out from its declaration (as
    `dataclasses` writes `__init__`): a clone copies every unit of a state, so this is on search's hot path."""
    fields = cls.FIELDS
    copiers = dict(fields.copiers)
    lines = [f"    other.{name} = {f'copy_{name}(record.{name})' if name in copiers else f'record.{name}'}"
             for name in fields.names]
    source = "def copy_record(record):\n    other = new(cls)\n" + "\n".join(lines) + "\n    return other\n"
    scope: dict[str, Any] = {"new": object.__new__, "cls": cls, **{f"copy_{n}": c for n, c in copiers.items()}}
    exec(source, scope)  # noqa: S102 (the source is built from declared attribute names only)
    return scope["copy_record"]


class Kept:
    """An attribute that is not saved: how a clone treats it (`copier`), and what a load sets it to
    (`compute(state)` once the saved fields are in; None: it keeps what the fresh state set up)."""

    def __init__(self, copier: Copier = None, compute: Callable[[Any], Any] | None = None) -> None:
        self.copier, self.compute = copier, compute


def _copied(value: Any) -> Any:
    """A copy of a list (nested lists of immutable values), a set or a dict: as deep as play changes it."""
    if type(value) is list:
        return [_copied(x) if type(x) is list else x for x in value]
    return type(value)(value)


SHARED = Kept()
"""Never changed in place after __init__ (the config, a board, a number): a clone shares it."""
COPIED = Kept(_copied)
"""Changed in place by play (a log, a working list): a clone copies it."""


def Fresh(make: Callable[[], Any]) -> Kept:  # noqa: N802 (reads as a kind, like SHARED and COPIED)
    """A cache: a clone starts with an empty one, `make()`."""
    return Kept(lambda _: make())


def Derived(compute: Callable[[Any], Any], copier: Copier = _copied) -> Kept:  # noqa: N802
    """Recomputed from the saved fields on load (`compute(state)`), never trusted from a dict; copied by a clone."""
    return Kept(copier, compute)


class Fields:
    """The declaration: saved fields (keyword arguments, in saved order), `kept` attributes, `renamed` keys."""

    def __init__(self, kept: dict[str, Kept] | None = None, renamed: dict[str, str] | None = None,
                 **saved: Kind) -> None:
        self.saved = saved
        self.keys = tuple(saved)
        self.attrs = tuple((renamed or {}).get(key, key) for key in saved)
        self.kept = dict(kept or {})
        copiers = [(attr, kind.copier) for attr, kind in zip(self.attrs, saved.values())]
        copiers += [(name, kept.copier) for name, kept in self.kept.items()]
        self.copiers = tuple((name, copier) for name, copier in copiers if copier is not None)
        self.derived = tuple((name, kept.compute) for name, kept in self.kept.items() if kept.compute is not None)
        self.names = self.attrs + tuple(name for name in self.kept if name not in self.attrs)
        """Every attribute declared, saved ones first: a record's `__slots__`."""
        self._pairs = tuple(zip(self.keys, self.attrs, saved.values()))

    def save(self, obj: Any) -> dict[str, Any]:
        """The saved dict, in declaration order; its values may be the live objects (`state_dict` copies)."""
        return {key: kind.save(getattr(obj, attr)) for key, attr, kind in self._pairs}

    def check(self, d: Any, where: str, state: Any) -> None:
        """Refuse `d` unless it holds exactly the declared keys, each value of its kind."""
        if type(d) is not dict:
            raise ValueError(f"{where or 'the state'} must be a mapping of its fields, got {_shown(d)}")
        missing = [k for k in self.keys if k not in d]
        unknown = sorted(str(k) for k in d if k not in self.saved)
        if missing or unknown:
            raise ValueError(f"{where or 'state'} fields missing: {missing or 'none'}; unknown: {unknown or 'none'}")
        for key, _, kind in self._pairs:
            kind.check(d[key], f"{where}.{key}" if where else key, state)

    def load(self, obj: Any, d: Any) -> None:
        """Check `d` against the declaration (the state being loaded gives the bounds), then set it."""
        self.check(d, "", obj)
        self.set(obj, d)

    def set(self, obj: Any, d: dict[str, Any]) -> None:
        """Set every saved field of a checked dict, then recompute the derived attributes."""
        for key, attr, kind in self._pairs:
            setattr(obj, attr, kind.load(d[key]))
        for name, compute in self.derived:
            setattr(obj, name, compute(obj))

    def build(self, cls: type, d: dict[str, Any]) -> Any:
        """A new record of `cls` from a checked dict."""
        obj = cls.__new__(cls)
        self.set(obj, d)
        return obj

    def clone(self, obj: Any) -> Any:
        """A copy of a state sharing what play never changes in place, copying the rest as its kind says
        (records with `__slots__` are copied by `Records`)."""
        other = object.__new__(type(obj))
        d = other.__dict__
        d.update(obj.__dict__)
        for name, copier in self.copiers:
            d[name] = copier(d[name])
        return other

    def undeclared(self, obj: Any, engine: Iterable[str] = ()) -> list[str]:
        """The attributes `obj` has that the declaration (and the engine's own, `engine`) does not name."""
        have = set(obj.__dict__) if hasattr(obj, "__dict__") else {n for n in obj.__slots__ if hasattr(obj, n)}
        return sorted(have - set(self.names) - set(engine))
