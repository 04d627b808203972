"""Power and reserves (book: Power Sources and their Functions, Crystals, Energy Sources; glossary Energy or
Magic Reserve, Energy/Magic Transfer, Legacy, Recharge): which sources generate and pay, crystals carried,
dropped, picked up and given, paying card and ability costs, a source's own paid ability, and reserve
transfers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.ultra_war.abilities import ENERGY_TRANSFER, LEGACY, MAGIC_TRANSFER
from ultimata.envs.ultra_war.content import Character, content
from ultimata.envs.ultra_war.geometry import CHEBYSHEV
from ultimata.envs.ultra_war.memo import memoized

if TYPE_CHECKING:
    from ultimata.envs.ultra_war.state import UltraWarState as _Base
    from ultimata.envs.ultra_war.units import Source, Unit
else:
    _Base = object

ENERGY = ("electrical", "fuel", "alien")
MAGIC = ("magic", "crystal_magic")
CRYSTAL_USERS = ("order", "legion")
"""Factions that use crystals as a power source (book: "only Order of the Round, Legion of Maximus or
Characters with Magic Familiarity can pick up the Crystal and use it as an Energy Source")."""


def passes_on(ch: Character) -> tuple[str, ...]:
    """The reserves a Transfer character passes to a neighbour, to help it pay or as a point moved into its
    reserve (glossary: Magic Transfer passes magic, Energy Transfer each energy kind): the one read of both."""
    return (("magic",) if MAGIC_TRANSFER in ch.abilities else ()) + (ENERGY if ENERGY_TRANSFER in ch.abilities else ())


TRANSFERRERS = frozenset(n for n, c in content().characters.items() if passes_on(c))
"""The characters with Magic or Energy Transfer (few: transfers are looked for from them)."""


class PowerRules(_Base):
    """Power sources, reserves and what pays for what, a part of UltraWarState (state.py says how the rule
    modules are composed)."""

    # -- which sources work --------------------------------------------------------------------
    def source_usable(self, s: Source) -> bool:
        """Generates a point a turn and has an ability to use: a token stands and lives; a crystal powers its
        bearer (see crystal_user). (A destroyed token's kept points still pay for cards: usable_sources.)"""
        if s.token:
            return s.pos >= 0 and s.life > 0
        return self.crystal_user(s) is not None

    def crystal_user(self, s: Source) -> Unit | None:
        """The character a crystal powers: its bearer, on the board (not in the Void), one who can use
        crystals, and equipped with it: a character is equipped with the first crystal it got and carries
        the others (book: "only be equipped with 1 Crystal at a time, although they may carry more")."""
        idx = s.bearer
        if idx < 0:
            return None
        u = self.units[idx]
        if u.pos < 0 or not (u.ch.faction in CRYSTAL_USERS or u.ch.magic > 0):
            return None
        return u if self._first_borne(idx) is s else None

    def _first_borne(self, idx: int) -> Source | None:
        for s in self.sources:
            if s.bearer == idx and not s.token:
                return s
        return None

    def equipped_crystal(self, u: Unit) -> Source | None:
        """The crystal `u` is equipped with (the first it bears), whether or not it can use it."""
        return self._first_borne(self.units.index(u))

    def borne(self, u: Unit) -> list[Source]:
        idx = self.units.index(u)
        return [s for s in self.sources if s.bearer == idx and not s.token]

    def crystal_powered(self, u: Unit) -> Source | None:
        """The crystal that powers `u` now, if any (its Crystal Magic Reserve is usable only then)."""
        s = self.equipped_crystal(u)
        return s if s is not None and self.crystal_user(s) is u else None

    def pool(self, side: int) -> int:
        return self.pools()[side]

    @memoized
    def usable_sources(self) -> list[Source]:
        """Every source that pays for cards, in one pass over them: the usable ones (source_usable for each,
        without its rescans: a crystal is usable only as the first one its bearer bears), and a destroyed token
        that kept points (book: destroying it makes "the owner's ability to generate Energy Reserve useless";
        the points it had stay, unless `destroyed_source_points: lost` took them)."""
        out = []
        first: set[int] = set()
        units = self.units
        for s in self.sources:
            if s.token:
                if (s.pos >= 0 and s.life > 0) or s.points:  # (a destroyed token has points only when kept)
                    out.append(s)
                continue
            b = s.bearer
            if b < 0 or b in first:
                continue
            first.add(b)
            u = units[b]
            if u.pos >= 0 and (u.ch.faction in CRYSTAL_USERS or u.ch.magic > 0):
                out.append(s)
        return out

    @memoized
    def pools(self) -> list[int]:
        """Both sides' usable power points (a source of no side, as a bad state dict may hold, counts for
        neither)."""
        out = [0, 0]
        for s in self.usable_sources():
            if s.side in (0, 1):
                out[s.side] += s.points
        return out

    # -- crystals move -------------------------------------------------------------------------
    def _take_crystal(self, s: Source, u: Unit) -> None:
        """`u` now bears `s` (picked up or given): it belongs to u's side, and goes last in the list so the
        crystal u was equipped with stays the equipped one."""
        self.sources.remove(s)
        self.sources.append(s)
        s.bearer, s.pos, s.side = self.units.index(u), -1, u.side

    def _pick_up(self, u: Unit, f: int) -> None:
        for s in [s for s in self.sources if not s.token and s.bearer < 0 and s.pos == f]:
            self._take_crystal(s, u)
            self.log(f"{u.name} picks up a crystal")

    def _drop_crystals(self, u: Unit) -> None:
        """A defeated bearer drops every crystal it bears on its space; a dropped crystal loses its points."""
        idx = self.units.index(u)
        for s in self.sources:
            if s.bearer == idx and not s.token:
                s.bearer, s.pos, s.points = -1, u.pos, 0

    def give_targets(self, u: Unit, idx: int) -> list[int]:
        """Where `u` (unit `idx`) may give the crystal it is equipped with: an own character within one space
        (book: "A Crystal may be given to another Character within one space")."""
        if self._first_borne(idx) is None:
            return []
        near = CHEBYSHEV[u.pos]
        return [o.pos for o in self.units if o is not u and o.side == u.side and o.pos >= 0 and not o.imprisoned
                and near[o.pos] == 1]

    def _give(self, u: Unit, f: int) -> None:
        s = self.equipped_crystal(u)
        to = self.unit_at(f)
        assert s is not None and to is not None
        self._take_crystal(s, to)
        self.log(f"{u.name} gives a crystal to {to.name}")

    # -- paying --------------------------------------------------------------------------------
    def reserve_keys(self, u: Unit, kind: str) -> tuple[str, ...]:
        """The performer's own reserves that pay a feat of `kind` (magic / energy / any); its Crystal Magic
        Reserve only while a crystal powers it."""
        magic = MAGIC if self.crystal_powered(u) is not None else MAGIC[:1]
        return magic if kind == "magic" else ENERGY if kind == "energy" else (*magic, *ENERGY)

    def transfer_partners(self, u: Unit) -> list[Unit]:
        """Own characters within one space of `u` that can help it pay (Magic / Energy Transfer)."""
        near = CHEBYSHEV[u.pos]
        return [o for o in self.units if o is not u and o.side == u.side and o.pos >= 0 and near[o.pos] == 1
                and not o.imprisoned and not o.powered_down
                and passes_on(o.ch)]

    def _payers(self, u: Unit, kind: str) -> list[tuple[dict[str, int], str]]:
        """Who pays a feat (`kind` magic / energy / any) or an ability cost (`kind` a reserve name) for `u`, in
        order (gap, ours): its own reserves, then Transfer partners' reserves of that type."""
        if kind in ("magic", "energy", "any"):
            own = self.reserve_keys(u, kind)
        elif kind == "magic_ability":
            own = self.reserve_keys(u, "magic")
        else:
            own = (kind,)
        out = [(u.reserves, k) for k in own]
        if kind == "ammunition":
            return out  # a character's own
        magicish = kind in ("magic", "any", "magic_ability")
        for o in self.transfer_partners(u):
            gives = passes_on(o.ch)
            if magicish and "magic" in gives:
                out.append((o.reserves, "magic"))
            if kind in ("energy", "any"):
                out += [(o.reserves, k) for k in ENERGY if k in gives]
            elif kind in ENERGY and kind in gives:
                out.append((o.reserves, kind))
        return out

    def feat_pool(self, performer: Unit, kind: str) -> int:
        """What the performer's own reserves and its Transfer partners can put towards a feat of `kind`."""
        return sum(r.get(k, 0) for r, k in self._payers(performer, kind))

    def can_pay_ability(self, u: Unit, reserve: str, amount: int) -> bool:
        """ability_budget(u, reserve) >= amount, without counting the others when its own reserve suffices."""
        return u.reserves.get(reserve, 0) >= amount or self.ability_budget(u, reserve) >= amount

    def ability_budget(self, u: Unit, reserve: str) -> int:
        """What `u` can pay towards an ability cost in `reserve` (book: Magic Points are paid from the
        character's own reserve, the crystal it is equipped with, or a Magic Transfer partner; Energy
        Transfer helps pay energy costs; ammunition is the character's own)."""
        if reserve == "magic":
            crystal = self.crystal_powered(u)
            return sum(r.get(k, 0) for r, k in self._payers(u, "magic_ability")) + (crystal.points if crystal else 0)
        return sum(r.get(k, 0) for r, k in self._payers(u, reserve))

    def pay_ability(self, u: Unit, reserve: str, amount: int) -> None:
        """Pay an ability cost: own reserves, then (magic) the equipped crystal, then Transfer partners."""
        payers = self._payers(u, "magic_ability" if reserve == "magic" else reserve)
        own = [p for p in payers if p[0] is u.reserves]
        rest = [p for p in payers if p[0] is not u.reserves]
        for reserves, key in own:
            amount = _take(reserves, key, amount)
        crystal = self.crystal_powered(u) if reserve == "magic" else None
        if crystal is not None and amount:
            taken = min(amount, crystal.points)
            crystal.points -= taken
            amount -= taken
        for reserves, key in rest:
            amount = _take(reserves, key, amount)
        assert amount == 0, "paid more than was affordable"

    def pay(self, side: int, cost: int, performer: Unit | None = None, kind: str | None = None) -> None:
        """Pay a card: from the performer's reserves and its Transfer partners first (feats), then the
        power sources with the most points (gap, ours: the payment order)."""
        if performer is not None and kind is not None:
            for reserves, key in self._payers(performer, kind):
                cost = _take(reserves, key, cost)
        for s in sorted((s for s in self.usable_sources() if s.side == side), key=lambda s: -s.points):
            taken = min(cost, s.points)
            s.points -= taken
            cost -= taken
        assert cost == 0, "paid more than was affordable"

    # -- a source's own ability (book: Power Source Abilities) -----------------------------------
    def source_field(self, s: Source) -> int:
        """Where a source is used from: a token's space, or the space of the character it powers."""
        if s.token:
            return s.pos
        u = self.crystal_user(s)
        return u.pos if u is not None else -1

    def use_targets(self, side: int, victims: list[Unit] | None) -> list[int]:
        """Fields of the side's sources whose ability can be used now and does something: out of a window
        (`victims` None) heal, reboot and recharge; in a window only heal (its bearer attacked or targeted)
        and defence (an own defender in reach). Paid only from that source's points."""
        out = []
        for s in self.usable_sources():
            a = s.spec.ability
            if s.token and s.life == 0:
                continue  # destroyed: its points still pay for cards, its ability is gone with it
            if (a is not None and s.side == side and s.points >= a.cost and (victims is not None or not a.defense)
                    and self.ability_fits(s, victims)):
                out.append(self.source_field(s))
        return out

    def ability_fits(self, s: Source, victims: list[Unit] | None) -> bool:
        """Whether usable source s's ability does something now (a usable crystal's bearer is its user)."""
        a = s.spec.ability
        assert a is not None
        if a.heal:
            u = self.units[s.bearer]
            return u.life < u.ch.life and (victims is None or u in victims)
        if a.defense:
            return victims is not None and bool(self.guarded(s, victims))
        if victims is not None:
            return False
        if a.reboot:
            return any(self._rebootable(s, u) for u in self.units)
        return any(self._rechargeable(s, u) for u in self.units)

    def guarded(self, s: Source, victims: list[Unit]) -> list[Unit]:
        """The attacked characters a defence ability protects: the crystal's bearer, or own ones within the
        token's range."""
        a = s.spec.ability
        assert a is not None
        if not s.token:
            return [u for u in victims if u is self.crystal_user(s)]
        return [u for u in victims if u.side == s.side and u.pos >= 0 and CHEBYSHEV[s.pos][u.pos] <= a.range]

    def _rebootable(self, s: Source, u: Unit) -> bool:
        return u.side == s.side and u.pos >= 0 and u.powered_down and u.is_droid and CHEBYSHEV[s.pos][u.pos] <= s.range

    def _rechargeable(self, s: Source, u: Unit) -> bool:
        a = s.spec.ability
        assert a is not None
        return (u.side == s.side and u.pos >= 0 and CHEBYSHEV[s.pos][u.pos] <= a.range
                and any(u.reserves.get(k, 0) < u.ch.reserves[k] for k in ENERGY if k in u.ch.reserves))

    def source_at(self, side: int, f: int) -> Source:
        """The side's source used from field f (a use_targets field)."""
        return next(s for s in self.sources if s.side == side and s.spec.ability is not None
                    and self.source_usable(s) and self.source_field(s) == f)

    def _use_source(self, side: int, s: Source) -> None:
        """USE out of a quick window: the source pays its ability from its own points, and it acts at once."""
        a = s.spec.ability
        assert a is not None
        s.points -= a.cost
        self.log(f"player_{side} uses {s.name}'s {a.name}")
        self._apply_source_ability(s)

    def _apply_source_ability(self, s: Source) -> None:
        """The effect of a paid source ability that acts at once (heal, reboot, recharge)."""
        a = s.spec.ability
        assert a is not None
        if a.heal:
            u = self.crystal_user(s)
            if u is not None:
                u.life = min(u.ch.life, u.life + a.heal)
                self.log(f"{s.name}'s {a.name} heals {u.name}")
        elif a.reboot:
            for u in self.units:
                if self._rebootable(s, u):
                    u.powered_down, u.turned = False, u.stun > 0
                    self.log(f"{s.name}'s {a.name} brings {u.name} back online")
        elif a.recharge:
            for u in self.units:
                if self._rechargeable(s, u):
                    left = a.recharge
                    for k in ENERGY:
                        if k in u.ch.reserves and left:
                            add = min(left, u.ch.reserves[k] - u.reserves[k])
                            u.reserves[k] += add
                            left -= add
            self.log(f"{s.name}'s {a.name} recharges the characters near it")

    # -- Magic / Energy Transfer (glossary) -------------------------------------------------------
    def transfer_move(self, to: Unit) -> tuple[Unit, str, str] | None:
        """Who moves which reserve point into which of `to`'s reserves, if any can (gap, ours: the first
        Transfer character next to it in army order; magic before energy; into magic before crystal magic)."""
        if to.pos < 0 or to.imprisoned:
            return None
        room = to.ch.reserves
        for o in self.transfer_partners(to):
            if not _gives(o, to):
                continue
            gives = passes_on(o.ch)
            if "magic" in gives and o.reserves.get("magic", 0) > 0:
                for k in MAGIC:
                    if k in room and to.reserves[k] < room[k]:
                        return o, "magic", k
            for k in ENERGY:
                if k in gives and o.reserves.get(k, 0) > 0 and k in room and to.reserves[k] < room[k]:
                    return o, k, k
        return None

    def transfer_targets(self, side: int) -> list[int]:
        """Own characters a Transfer neighbour can move a reserve point into (found from the givers: few
        characters have Transfer)."""
        givers = [o for o in self.units if o.name in TRANSFERRERS and o.side == side and o.pos >= 0
                  and not o.imprisoned and not o.powered_down]
        if not givers:
            return []
        out = []
        for u in self.units:
            if u.side == side and u.pos >= 0 and u.ch.reserves and not u.imprisoned:
                near = CHEBYSHEV[u.pos]
                if any(near[g.pos] == 1 and _gives(g, u) for g in givers):
                    out.append(u.pos)
        return out

    def _transfer(self, f: int) -> None:
        to = self.unit_at(f)
        move = self.transfer_move(to)
        assert move is not None
        giver, key_from, key_to = move
        giver.reserves[key_from] -= 1
        to.reserves[key_to] += 1
        self.log(f"{giver.name} transfers a {key_from} point to {to.name}")

    def _legacy(self, u: Unit) -> None:
        """Legacy +n at the start of its controller's turn: to the crystal it is equipped with, the rest to
        its own magic reserve (gap, ours: crystal first), each up to its maximum."""
        left = u.param(LEGACY)
        if not left:
            return
        crystal = self.crystal_powered(u)
        if crystal is not None:
            add = min(left, crystal.max - crystal.points)
            crystal.points += add
            left -= add
        if left and "magic" in u.ch.reserves:
            u.reserves["magic"] = min(u.ch.reserves["magic"], u.reserves["magic"] + left)


def _gives(g: Unit, to: Unit) -> bool:
    """Whether Transfer character g (next to `to`) has a point to move into one of to's reserves: the test
    transfer_move makes for one partner."""
    room, gives = to.ch.reserves, passes_on(g.ch)
    if "magic" in gives and g.reserves.get("magic", 0) > 0 and any(
            k in room and to.reserves[k] < room[k] for k in MAGIC):
        return True
    return any(k in gives and g.reserves.get(k, 0) > 0 and k in room and to.reserves[k] < room[k] for k in ENERGY)


def _take(reserves: dict[str, int], key: str, amount: int) -> int:
    taken = min(amount, reserves.get(key, 0))
    if taken:
        reserves[key] -= taken
    return amount - taken
