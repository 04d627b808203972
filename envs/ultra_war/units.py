"""Pawns and power sources as small records inside the state, each declaring its fields once (`FIELDS`): the
state's declaration names them as `Records(Unit)` and `Records(Source)`, so saving, loading and cloning a
record come from it too (what the printed card says is looked up, not saved)."""

from __future__ import annotations

from ultimata.envs.core.errors import UltimataError
from ultimata.envs.core.fields import Bool, Derived, Fields, Int, ListOf, MapOf, Str
from ultimata.envs.ultra_war.abilities import ABILITIES, DUAL_WIELD, FLIGHT
from ultimata.envs.ultra_war.combat import STUN_TURN_STARTS
from ultimata.envs.ultra_war.content import Character, PowerSource, content
from ultimata.envs.ultra_war.geometry import FIELDS

COUNT = Int(0, 10**6)
"""A count with no cap of its own (reserve points, attacks made, turn starts in the Void): never negative, and
nowhere near this bound, which keeps huge numbers out of arithmetic. A cap that depends on the character
(its life, its reserves) is consistency.py's, which reads the record."""
INDEX = Int(-1, 10**4)
"""A place in one of the state's lists (a unit, a source, a hand), or -1 for none; that it points into its list
is consistency.py's (the lists are loaded with it)."""
SIDE = Int(0, 1)
SPACE = Int(-1, FIELDS - 1)
"""A space on the map, or -1: off the board."""
MAX_STEPS = 30
"""More steps than any activation can take (a charge doubles a printed movement of at most 6, plus gear)."""
CHARGING, CHARGING_PLAIN = 1, 2
"""`Unit.charging`: 0 not charging; CHARGING, the way its abilities give (charge_kind); CHARGING_PLAIN, the
plain charge a Charge Attack character chose instead (a second CHARGE before its first step)."""


def _character(u: Unit) -> Character:
    return content().characters[u.name]


class Unit:
    """One character pawn. `pos` is -1 once defeated (it leaves the board)."""

    FIELDS = Fields(
        name=Str(among=lambda _: content().characters), side=SIDE, slot=COUNT, pos=SPACE, facing=Int(0, 7),
        life=COUNT, reserves=MapOf(Str(), COUNT), turned=Bool(), acted=Bool(), stun=Int(0, STUN_TURN_STARTS),
        stasis=Int(0, STUN_TURN_STARTS), powered_down=Bool(), flying=Bool(), ethereal_off=Bool(), deprived=Int(0, 2),
        burning=Bool(), weapon=Str(), armor=Str(), standard=Str(), upgrades=ListOf(Str()), enh_off=COUNT,
        enh_def=COUNT, imprisoned=Bool(), steps=Int(0, MAX_STEPS), backward=Bool(), charging=Int(0, CHARGING_PLAIN),
        attacks_made=COUNT, disarmed=Str(), weapon2=Str(), disarmed2=Str(), void=COUNT, void_from=SPACE,
        landed=Bool(), flew=Bool(), paused=Bool(),
        kept={"ch": Derived(_character, copier=None)},
    )
    __slots__ = FIELDS.names

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


def _unknown(ability: str) -> UltimataError:
    return UltimataError(f"unknown ability {ability!r}; the abilities are {', '.join(sorted(ABILITIES))}")


class Source:
    """A power source (data: `power_sources`): a crystal (carried by `bearer`, or lying at `pos` once
    dropped; it belongs to the side of whoever bears it) or an energy token on the map (`pos`, attackable:
    `life`, `defense`; a tripod's `range` controls robot droids)."""

    FIELDS = Fields(
        side=SIDE, name=Str(among=lambda _: content().power_sources), points=COUNT, pos=SPACE, bearer=INDEX,
        life=COUNT,
        kept={"spec": Derived(lambda s: content().power_sources[s.name], copier=None),
              "kind": Derived(lambda s: s.spec.kind, copier=None),
              "token": Derived(lambda s: s.spec.kind != "crystal", copier=None),
              "max": Derived(lambda s: s.spec.max, copier=None),
              "defense": Derived(lambda s: s.spec.defense, copier=None),
              "range": Derived(lambda s: s.spec.control, copier=None)},
    )
    """What changes in play is saved; the rest (kind, maximum, defence, control range) is the card's."""
    __slots__ = FIELDS.names

    def __init__(self, side: int, name: str, points: int) -> None:
        self.spec: PowerSource = content().power_sources[name]
        self.side, self.name, self.points = side, name, points
        self.kind, self.token = self.spec.kind, self.spec.kind != "crystal"
        self.max, self.defense, self.range = self.spec.max, self.spec.defense, self.spec.control
        self.pos = self.bearer = -1
        self.life = self.spec.life
