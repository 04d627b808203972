"""Pawns and power sources as small records that save to plain dicts (derived facts are looked up)."""

from __future__ import annotations

from typing import Any

from ultimata.envs.ultra_war.content import Character, content

UNIT_FIELDS = (
    "name", "side", "slot", "pos", "facing", "life", "reserves", "turned", "acted", "stun", "stasis",
    "powered_down", "flying", "ethereal_off", "deprived", "burning", "weapon", "armor", "standard", "upgrades",
    "enh_off", "enh_def", "imprisoned", "steps", "backward", "charging", "attacks_made", "disarmed",
    "weapon2", "disarmed2",
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
        self.imprisoned = self.backward = self.charging = False
        self.stun = self.stasis = self.deprived = 0
        self.flying = "Flight" in self.ch.abilities
        self.weapon = self.armor = self.standard = self.disarmed = ""
        self.weapon2 = self.disarmed2 = ""
        """Dual Wield: the second equipped weapon (attack slot 1), and the one a Disarm took."""
        self.upgrades: list[str] = []
        self.enh_off = self.enh_def = 0
        self.steps = self.attacks_made = 0

    def has(self, ability: str) -> bool:
        return ability in self.ch.abilities

    def param(self, ability: str) -> int:
        return self.ch.abilities.get(ability) or 0

    def weapon_slots_full(self) -> bool:
        """One weapon, or two with Dual Wield (book glossary: Dual Wield)."""
        return bool(self.weapon) and (bool(self.weapon2) or not self.has("Dual Wield"))

    @property
    def on_map(self) -> bool:
        return self.pos >= 0

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


SOURCE_FIELDS = ("side", "kind", "points", "max", "pos", "bearer", "life", "defense", "range")


class Source:
    """A power source: a crystal (carried by `bearer`, or lying at `pos` once dropped) or an energy token
    on the map (`pos`, attackable: `life`, `defense`; a tripod's `range` controls robot droids)."""

    __slots__ = SOURCE_FIELDS

    def __init__(self, side: int, kind: str, points: int, maximum: int = 10) -> None:
        self.side, self.kind, self.points, self.max = side, kind, points, maximum
        self.pos = self.bearer = -1
        self.life, self.defense, self.range = 4, 3, 5 if kind == "tripod" else 0

    @property
    def token(self) -> bool:
        return self.kind != "crystal"

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in SOURCE_FIELDS}

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Source:
        s = Source(int(d["side"]), str(d["kind"]), int(d["points"]), int(d["max"]))
        for k in SOURCE_FIELDS:
            setattr(s, k, d[k])
        return s
