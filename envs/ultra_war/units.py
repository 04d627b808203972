"""Pawns and power sources as small records that save to plain dicts (derived facts are looked up)."""

from __future__ import annotations

from typing import Any

from ultimata.envs.core.errors import UltimataError
from ultimata.envs.ultra_war.abilities import ABILITIES, DUAL_WIELD, FLIGHT
from ultimata.envs.ultra_war.content import Character, PowerSource, content

UNIT_FIELDS = (
    "name", "side", "slot", "pos", "facing", "life", "reserves", "turned", "acted", "stun", "stasis",
    "powered_down", "flying", "ethereal_off", "deprived", "burning", "weapon", "armor", "standard", "upgrades",
    "enh_off", "enh_def", "imprisoned", "steps", "backward", "charging", "attacks_made", "disarmed",
    "weapon2", "disarmed2", "void", "void_from", "landed", "flew", "paused",
)  # fmt: skip


class Unit:
    """One character pawn. `pos` is -1 once defeated (it leaves the board)."""

    __slots__ = (*UNIT_FIELDS, "ch")

    def __init__(self, name: str, side: int, slot: int) -> None:
        self.ch: Character = content().characters[name]
        self.name, self.side, self.slot = name, side, slot
        self.pos, self.facing, self.life = -1, 0, self.ch.life
        self.reserves = dict(self.ch.reserves)
        self.turned = self.acted = self.powered_down = self.burning = self.ethereal_off = False
        self.imprisoned = self.backward = False
        self.charging = 0
        """0, or how it charges this activation (movement.CHARGING, CHARGING_PLAIN)."""
        self.stun = self.stasis = self.deprived = 0
        self.flying = FLIGHT in self.ch.abilities
        self.weapon = self.armor = self.standard = self.disarmed = ""
        self.weapon2 = self.disarmed2 = ""
        """Dual Wield: the second equipped weapon (attack slot 1), and the one a Disarm took."""
        self.upgrades: list[str] = []
        self.enh_off = self.enh_def = 0
        self.steps = self.attacks_made = 0
        self.flew = self.paused = False
        """In this activation, a FLY or a PAUSE since the last step or attack (ours: each is offered once
        between two moves, so taking off and landing, or pausing and resuming, cannot loop forever)."""
        self.void, self.void_from = 0, -1
        """In the Void (off the board, alive): turn starts of its controller left, and the space it left."""
        self.landed = False
        """A flyer its player declared grounded: it stays grounded until it takes off again (book: "The
        Player must declare if a Character ... is grounded"). A flyer grounded by its own melee attack is
        not `landed`: it flies again at its controller's next turn."""

    def copy(self) -> Unit:
        """An independent copy (the printed card is shared: it never changes)."""
        other = Unit.__new__(Unit)
        for k in UNIT_FIELDS:
            setattr(other, k, getattr(self, k))
        other.ch = self.ch
        other.reserves, other.upgrades = dict(self.reserves), list(self.upgrades)
        return other

    def has(self, ability: str) -> bool:
        """Whether the character has `ability`, one of abilities.ABILITIES (any other name is refused: a
        misspelt one would read as "no")."""
        if ability in self.ch.abilities:
            return True
        if ability not in ABILITIES:
            raise _unknown(ability)
        return False

    def param(self, ability: str) -> int:
        """The number of `ability` (`Martial: 1`), 0 when the character lacks it or it has none; refuses an
        unknown name as `has` does."""
        value = self.ch.abilities.get(ability)
        if value:
            return value
        if ability not in ABILITIES:
            raise _unknown(ability)
        return 0

    def weapon_slots_full(self) -> bool:
        """One weapon, or two with Dual Wield (book glossary: Dual Wield)."""
        return bool(self.weapon) and (bool(self.weapon2) or not self.has(DUAL_WIELD))

    @property
    def on_map(self) -> bool:
        return self.pos >= 0

    @property
    def alive(self) -> bool:
        """On the board or in the Void (a defeated character has life 0)."""
        return self.life > 0

    @property
    def is_droid(self) -> bool:
        return self.ch.race == "Robot-Droid"

    @property
    def disabled(self) -> bool:
        """Stunned, in stasis or powered down: cannot move, attack or perform feats."""
        return self.stun > 0 or self.stasis > 0 or self.powered_down

    def to_dict(self) -> dict[str, Any]:
        d = {k: getattr(self, k) for k in UNIT_FIELDS}
        d["reserves"], d["upgrades"] = dict(self.reserves), list(self.upgrades)
        return d

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Unit:
        u = Unit(d["name"], int(d["side"]), int(d["slot"]))
        for k in UNIT_FIELDS:
            setattr(u, k, d[k])
        u.reserves, u.upgrades = {str(k): int(v) for k, v in d["reserves"].items()}, list(d["upgrades"])
        return u


def _unknown(ability: str) -> UltimataError:
    return UltimataError(f"unknown ability {ability!r}; the abilities are {', '.join(sorted(ABILITIES))}")


SOURCE_FIELDS = ("side", "name", "points", "pos", "bearer", "life")
"""What changes in play; the rest (kind, maximum, defence, control range, ability) is the card's."""


class Source:
    """A power source (data: `power_sources`): a crystal (carried by `bearer`, or lying at `pos` once
    dropped; it belongs to the side of whoever bears it) or an energy token on the map (`pos`, attackable:
    `life`, `defense`; a tripod's `range` controls robot droids)."""

    __slots__ = (*SOURCE_FIELDS, "spec", "kind", "token", "max", "defense", "range")

    def __init__(self, side: int, name: str, points: int) -> None:
        self.spec: PowerSource = content().power_sources[name]
        self.side, self.name, self.points = side, name, points
        self.kind, self.token = self.spec.kind, self.spec.kind != "crystal"
        self.max, self.defense, self.range = self.spec.max, self.spec.defense, self.spec.control
        self.pos = self.bearer = -1
        self.life = self.spec.life

    def copy(self) -> Source:
        other = Source.__new__(Source)
        for k in Source.__slots__:
            setattr(other, k, getattr(self, k))
        return other

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in SOURCE_FIELDS}

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Source:
        s = Source(int(d["side"]), str(d["name"]), int(d["points"]))
        for k in SOURCE_FIELDS:
            setattr(s, k, d[k])
        return s
