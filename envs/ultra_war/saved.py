"""The shape of a saved Ultra War state dict, checked strictly before it is read (issue 40): every key there
and no other, every number a true int (not 1.5, True, None or "1"), every flag a bool, every list of the
length it must have. Each problem raises one ValueError naming the field; what the values must mean
together (ranges, who stands where, whose turn it is) is consistency.py's, after the dict is read."""

from __future__ import annotations

from typing import Any

from ultimata.envs.ultra_war.units import SOURCE_FIELDS, UNIT_FIELDS

STATE_INTS = ("phase", "turn", "round", "first", "setup_side", "active", "pending", "performer", "responder",
              "winner", "passes", "saved_phase")
STATE_KEYS = frozenset((*STATE_INTS, "units", "sources", "hands", "decks", "discards", "breached", "stack",
                        "attack", "strikes", "lift", "disengaged", "hold", "events"))
UNIT_BOOLS = frozenset(("turned", "acted", "powered_down", "flying", "ethereal_off", "burning", "imprisoned",
                        "backward", "landed", "flew", "paused"))
UNIT_STRS = frozenset(("name", "weapon", "armor", "standard", "disarmed", "weapon2", "disarmed2"))
UNIT_DICTS = frozenset(("reserves", "upgrades"))
UNIT_INTS = frozenset(UNIT_FIELDS) - UNIT_BOOLS - UNIT_STRS - UNIT_DICTS
LIMIT = 10**6
"""No saved number is anywhere near this: a bound that keeps huge ones out of arithmetic and tables."""


def is_int(v: Any) -> bool:
    return type(v) is int and -LIMIT <= v <= LIMIT


def _int(v: Any, where: str) -> None:
    if not is_int(v):
        raise ValueError(f"{where} must be a whole number, got {v!r}")


def _ints(v: Any, where: str, length: int | None = None) -> None:
    if not isinstance(v, list) or (length is not None and len(v) != length):
        raise ValueError(f"{where} must be a list of {length if length is not None else 'any number of'} "
                         f"whole numbers, got {v!r:.80}")
    for i, x in enumerate(v):
        _int(x, f"{where}[{i}]")


def _strs(v: Any, where: str) -> None:
    if not isinstance(v, list) or not all(type(x) is str for x in v):
        raise ValueError(f"{where} must be a list of names, got {v!r:.80}")


def _keys(d: Any, keys: frozenset[str] | tuple[str, ...], where: str) -> None:
    if not isinstance(d, dict):
        raise ValueError(f"{where} must be a mapping, got {d!r:.80}")
    if set(d) != set(keys):
        missing, extra = sorted(set(keys) - set(d)), sorted(map(str, set(d) - set(keys)))
        raise ValueError(f"{where}: missing keys {missing}, unexpected keys {extra}")


def check_shape(d: Any) -> None:
    """Refuse a state dict whose keys or types are not what `UltraWarState._to_dict` writes."""
    _keys(d, STATE_KEYS, "state")
    for k in STATE_INTS:
        _int(d[k], k)
    if type(d["lift"]) is not bool:
        raise ValueError(f"lift must be true or false, got {d['lift']!r}")
    for k in ("attack", "strikes", "disengaged", "breached"):
        _ints(d[k], k)
    _ints(d["discards"], "discards", 2)
    _ints(d["hold"], "hold", 2)
    for k in ("hands", "decks"):
        if not isinstance(d[k], list) or len(d[k]) != 2:
            raise ValueError(f"{k} must hold two lists, one per player, got {d[k]!r:.80}")
        for side in (0, 1):
            _strs(d[k][side], f"{k}[{side}]")
    _strs(d["events"], "events")
    if not isinstance(d["stack"], list):
        raise ValueError(f"stack must be a list, got {d['stack']!r:.80}")
    for i, x in enumerate(d["stack"]):
        if not (isinstance(x, list) and len(x) == 3 and is_int(x[0]) and type(x[1]) is str and is_int(x[2])):
            raise ValueError(f"stack[{i}] must be [side, card name, source index], got {x!r:.80}")
    for k, maker in (("units", _unit), ("sources", _source)):
        if not isinstance(d[k], list):
            raise ValueError(f"{k} must be a list, got {d[k]!r:.80}")
        for i, x in enumerate(d[k]):
            maker(x, f"{k}[{i}]")


def _unit(u: Any, where: str) -> None:
    _keys(u, UNIT_FIELDS, where)
    for k in UNIT_INTS:
        _int(u[k], f"{where}.{k}")
    for k in UNIT_BOOLS:
        if type(u[k]) is not bool:
            raise ValueError(f"{where}.{k} must be true or false, got {u[k]!r}")
    for k in UNIT_STRS:
        if type(u[k]) is not str:
            raise ValueError(f"{where}.{k} must be a name, got {u[k]!r:.80}")
    _strs(u["upgrades"], f"{where}.upgrades")
    reserves = u["reserves"]
    if not isinstance(reserves, dict) or not all(type(k) is str and is_int(v) for k, v in reserves.items()):
        raise ValueError(f"{where}.reserves must map reserve names to whole numbers, got {reserves!r:.80}")


def _source(s: Any, where: str) -> None:
    _keys(s, SOURCE_FIELDS, where)
    for k in SOURCE_FIELDS:
        if k == "name":
            if type(s[k]) is not str:
                raise ValueError(f"{where}.name must be a name, got {s[k]!r:.80}")
        else:
            _int(s[k], f"{where}.{k}")
