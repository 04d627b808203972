"""All randomness of a game flows through one of these, so a seed fixes a game and tests can force it.

`Rng` wraps numpy's PCG64 generator; its state is JSON-serialisable so `state_dict()` is exact.
`ScriptedRng` hands out forced outcomes (a dice sequence, a stacked deck) and falls back to a
seeded generator once the script runs out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ultimata.envs.core.errors import ConfigError

_COPY_SEED = np.random.SeedSequence(0)


class Rng:
    def __init__(self, seed: int | None = None) -> None:
        self._gen = np.random.Generator(np.random.PCG64(checked_seed(seed)))

    def roll(self, sides: int) -> int:
        """A fair die: 1..sides."""
        return int(self._gen.integers(1, sides + 1))

    def below(self, n: int) -> int:
        """A uniform integer in 0..n-1."""
        return int(self._gen.integers(0, n))

    def shuffled(self, items: Sequence[Any]) -> list[Any]:
        order = self._gen.permutation(len(items))
        return [items[i] for i in order]

    def state_dict(self) -> dict[str, Any]:
        return {"kind": "pcg64", "state": self._gen.bit_generator.state}

    def load_state_dict(self, d: dict[str, Any]) -> None:
        self._gen.bit_generator.state = _checked_pcg64(d.get("state") if isinstance(d, dict) else None)

    def copy(self) -> Rng:
        """An independent generator in this one's state (a cloned position's dice): its bit generator is
        seeded from a fixed sequence and then overwritten, which is cheaper than drawing system entropy."""
        if type(self) is not Rng:
            return Rng.from_state_dict(self.state_dict())
        other = Rng.__new__(Rng)
        bits = np.random.PCG64(_COPY_SEED)
        bits.state = self._gen.bit_generator.state
        other._gen = np.random.Generator(bits)
        return other

    @staticmethod
    def from_state_dict(d: dict[str, Any]) -> Rng:
        """The generator a state dict saved, or ValueError naming what is wrong with it."""
        if not isinstance(d, dict) or d.get("kind") not in ("pcg64", "scripted"):
            raise ValueError("rng must be a mapping with kind 'pcg64' or 'scripted' and the generator's state")
        rng = ScriptedRng() if d["kind"] == "scripted" else Rng()
        rng.load_state_dict(d)
        return rng


def _whole(value: Any, bits: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**bits


def _checked_pcg64(state: Any) -> dict[str, Any]:
    """numpy's PCG64 state, checked field by field: numpy itself crashes or wraps on bad values."""
    keys = {"bit_generator", "state", "has_uint32", "uinteger"}
    ok = isinstance(state, dict) and state.keys() == keys and state["bit_generator"] == "PCG64"
    inner = state.get("state") if ok else None
    ok = ok and isinstance(inner, dict) and inner.keys() == {"state", "inc"}
    ok = ok and _whole(inner["state"], 128) and _whole(inner["inc"], 128) and inner["inc"] % 2 == 1
    ok = ok and state["has_uint32"] in (0, 1) and not isinstance(state["has_uint32"], bool)
    if not (ok and _whole(state["uinteger"], 32)):
        raise ValueError("rng state must be numpy's PCG64 state: bit_generator 'PCG64', state and inc "
                         "(odd) below 2**128, has_uint32 0 or 1, uinteger below 2**32")
    return state


def checked_seed(seed: Any) -> int | None:
    """A seed is None (fresh entropy) or a non-negative integer. numpy would take True as 1 and a list as
    entropy, so `reset(seed=True)` would quietly be seed 1: refuse it, naming what is allowed."""
    if seed is None:
        return None
    allowed = "seed must be None or an integer 0 or more"
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        shown = repr(seed) if isinstance(seed, (bool, np.bool_, float, str)) and len(str(seed)) <= 40 else "a value"
        raise ConfigError(f"{allowed}, got {shown} of type {type(seed).__name__}")
    if seed < 0:
        raise ConfigError(f"{allowed}, got a negative number")
    return int(seed)


class ScriptedRng(Rng):
    """Forced outcomes for tests: `rolls` are returned by roll/below in order, `decks` by shuffled."""

    def __init__(
        self,
        rolls: Sequence[int] = (),
        decks: Sequence[Sequence[Any]] = (),
        seed: int = 0,
    ) -> None:
        super().__init__(seed)
        self.rolls = list(rolls)
        self.decks = [list(d) for d in decks]

    def roll(self, sides: int) -> int:
        if self.rolls:
            value = self.rolls.pop(0)
            if not 1 <= value <= sides:
                raise ValueError(f"scripted roll {value} is not a face of a {sides}-sided die")
            return value
        return super().roll(sides)

    def below(self, n: int) -> int:
        if self.rolls:
            value = self.rolls.pop(0)
            if not 0 <= value < n:
                raise ValueError(f"scripted draw {value} is outside 0..{n - 1}")
            return value
        return super().below(n)

    def shuffled(self, items: Sequence[Any]) -> list[Any]:
        if self.decks:
            deck = self.decks.pop(0)
            if sorted(map(str, deck)) != sorted(map(str, items)):
                raise ValueError("a stacked deck must be a permutation of the items being shuffled")
            return deck
        return super().shuffled(items)

    def state_dict(self) -> dict[str, Any]:
        return {**super().state_dict(), "kind": "scripted", "rolls": self.rolls, "decks": self.decks}

    def load_state_dict(self, d: dict[str, Any]) -> None:
        super().load_state_dict(d)
        rolls, decks = d.get("rolls", []), d.get("decks", [])
        if not (isinstance(rolls, list) and all(_whole(r, 31) for r in rolls)):
            raise ValueError("scripted rng rolls must be a list of non-negative integers")
        if not (isinstance(decks, list) and all(isinstance(x, list) for x in decks)):
            raise ValueError("scripted rng decks must be a list of lists")
        self.rolls = list(rolls)
        self.decks = [list(x) for x in decks]


def derived_seeds(*keys: int, count: int = 1) -> list[int]:
    """`count` seeds drawn from a tuple of integers (a run's seed, a game's index, a seat) by numpy's
    SeedSequence. Why not `seed + game`: then a run at seed 2025 replays the games of seed 2024 shifted
    by one, so two "independent" measurements share almost every game."""
    if any(isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)) for k in keys):
        raise ConfigError(f"a seed must be an integer; got {', '.join(type(k).__name__ for k in keys)}")
    entropy = [int(k) % 2**64 for k in keys]  # SeedSequence takes non-negative integers only
    return [int(x) for x in np.random.SeedSequence(entropy).generate_state(count)]


def derived_seed(*keys: int) -> int:
    """One seed from a tuple of integers; see `derived_seeds`."""
    return derived_seeds(*keys)[0]
