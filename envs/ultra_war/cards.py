"""Cards (book: Card Types, Equipment, Upgrades, Enhancements, Feats; glossary: Feat Rolls, Magic and Energy
Innate, Specialists, ULTRA): which card may be played now and on whom, playing it (a Play card's target, a
feat's performer and target; quick cards go to windows.py), feat rolls, the Void, and dropping equipment."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.ultra_war import combat
from ultimata.envs.ultra_war.abilities import BIONIC, ENERGY_INNATE, MAGIC_INNATE, SPECIALISTS
from ultimata.envs.ultra_war.content import Card
from ultimata.envs.ultra_war.geometry import AHEAD, FIELDS, MANHATTAN
from ultimata.envs.ultra_war.memo import memoized
from ultimata.envs.ultra_war.phases import CARD_TARGET, FEAT_TARGET, QUICK, SETUP
from ultimata.envs.ultra_war.units import Unit
from ultimata.envs.ultra_war.windows import FEAT

if TYPE_CHECKING:
    from ultimata.envs.ultra_war.state import UltraWarState as _Base
else:
    _Base = object

EQUIP_KINDS = ("weapon", "armor", "standard")


class CardRules(_Base):
    """Cards, a part of UltraWarState (state.py says how the rule modules are composed)."""

    def card(self, side: int, name: str) -> Card:
        return self.game.side_decks[side][name]

    def ultra_in_play(self, name: str) -> bool:
        return any(name in (u.weapon, u.weapon2, u.armor, u.standard) for u in self.units if u.on_map)

    @memoized
    def able(self, side: int) -> list[Unit]:
        """The side's characters on the board and free (those cards go on)."""
        return [u for u in self.units if u.side == side and u.pos >= 0 and not u.imprisoned]

    def playable(self, side: int, h: int) -> bool:
        name = self.hands[side][h]
        c = self.card(side, name)
        if self.phase == QUICK:
            return c.kind == "quick" and c.cost <= self.pool(side) and self.quick_fits(side, c)
        if c.kind == "quick" or (self.phase == SETUP and c.kind == "feat"):
            return False
        if c.kind == "feat":
            return bool(self.card_targets(side, c, name, first=True))
        if c.cost > self.pool(side) or (c.ultra and c.kind in EQUIP_KINDS and self.ultra_in_play(name)):
            return False
        return self.opening(side, c.kind)

    @memoized
    def opening(self, side: int, kind: str) -> bool:
        """Whether some own character could take a card of this kind (not a feat) now: what card_targets
        looks for, leaving out the cost and ULTRA (the first one found will do)."""
        for u in self.able(side):
            if kind == "enhancement" or (kind == "weapon" and not u.weapon_slots_full()):
                return True
            if kind in ("armor", "standard"):
                if not getattr(u, kind):
                    return True
            elif kind == "upgrade" and self.takes_upgrade(u):
                return True
        return False

    def card_targets(self, side: int, c: Card, name: str, first: bool = False) -> list[int]:
        """Own characters a non-quick card may go on (equipment, upgrades, enhancements) or perform it
        (feats); with `first`, only the first found (whether a card is playable needs no more)."""
        out: list[int] = []
        pool = self.pool(side)
        if c.kind == "quick" or (c.kind != "feat" and c.cost > pool):
            return out
        if c.kind in EQUIP_KINDS and c.ultra and self.ultra_in_play(name):
            return out
        if c.kind == "feat" and self.closest_foe(side) > c.range:
            return out  # no performer has a target in range (most feats, most of the time: checked once)
        for u in self.able(side):
            if c.kind in EQUIP_KINDS:
                if u.weapon_slots_full() if c.kind == "weapon" else getattr(u, c.kind):
                    continue
            elif c.kind == "upgrade":
                if not self.takes_upgrade(u):
                    continue
            elif c.kind == "feat":
                if not self.can_perform(u, c):
                    continue
                if not self.feat_targets(u, c):  # (cached per field and range: cheaper than the cost check)
                    continue
                if c.cost > pool and c.cost > pool + self.feat_pool(u, c.feat or "any"):
                    continue
            out.append(u.pos)
            if first:
                break
        return out

    def takes_upgrade(self, u: Unit) -> bool:
        """Upgrades go on robot droids and Bionic characters, up to the character's number of upgrades."""
        return (u.is_droid or BIONIC in u.ch.tags) and len(u.upgrades) < u.ch.upgrades

    def can_perform(self, u: Unit, c: Card) -> bool:
        """A feat's performer: not disabled, not turned ("Turned Characters cannot move, Attack or make Feats
        after being Turned"; Innate only spares the turning a feat causes), not in the middle of a plain
        charge (it turns "immediately afterwards"), and not the active character once it has attacked unless
        Empowered ("Movement and Feats may be played after an Empowered Character attacks")."""
        if u.disabled or u.turned:
            return False
        if self.active < 0 or u is not self.units[self.active]:
            return True
        if not self.free_after_attacking(u):
            return False
        return not self.plain_charge(u)

    def innate(self, u: Unit, c: Card) -> bool:
        return (c.feat == "magic" and u.has(MAGIC_INNATE)) or (c.feat == "energy" and u.has(ENERGY_INNATE))

    @memoized
    def foes(self, side: int) -> list[Unit]:
        """The enemies of `side` on the map."""
        return [x for x in self.units if x.pos >= 0 and x.side != side]

    @memoized
    def closest_foe(self, side: int) -> int:
        """Fewest spaces (Manhattan) between any character of `side` on the map and any enemy on it."""
        foes = [x.pos for x in self.foes(side)]
        out = FIELDS
        if foes:
            for u in self.units:
                if u.pos >= 0 and u.side == side:
                    near = min(map(MANHATTAN[u.pos].__getitem__, foes))
                    if near < out:
                        out = near
        return out

    def feat_targets(self, u: Unit, c: Card) -> list[int]:
        """Enemies within the feat's range, ahead of the performer or beside it (`faces`), in its sight (kept
        by the memo per performer's space, facing and range)."""
        return self.memo.get(("feat_targets", u.pos, u.facing, c.range), self._feat_targets, u, c.range)

    def _feat_targets(self, u: Unit, reach: int) -> list[int]:
        dist, ahead = MANHATTAN[u.pos], AHEAD[u.facing][u.pos]
        return [x.pos for x in self.foes(u.side)
                if dist[x.pos] <= reach and ahead[x.pos] and self.sees(u, x.pos, x.flying)]

    def _play(self, side: int, h: int) -> None:
        """PLAY h: a quick card goes on the open window's stack (paid now); another waits for its target,
        and then only the choice in progress has changed."""
        name = self.hands[side][h]
        c = self.card(side, name)
        if self.phase == QUICK:
            self.pay(side, c.cost)
            self.hands[side].pop(h)
            self.discards[side] += 1
            if not self._window_play(side, name):
                self._after_window()
            return
        self.pending = h
        self._saved_phase = self.phase
        self.phase = CARD_TARGET

    def _card_target(self, side: int, f: int) -> None:
        """TARGET f for the pending card: a Play card goes on the character at f (paid now); a feat takes f's
        character as its performer, then f's as its target, and opens its window."""
        name = self.hands[side][self.pending]
        c = self.card(side, name)
        back = self._saved_phase
        if self.phase == CARD_TARGET:
            u = self.unit_at(f)
            assert u is not None
            if c.kind == "feat":
                self.performer, self.phase = self.units.index(u), FEAT_TARGET
                return
            self.pay(side, c.cost)
            self.hands[side].pop(self.pending)
            self.log(f"player_{side} plays {name} on {u.name}")
            if c.kind in EQUIP_KINDS:
                setattr(u, "weapon2" if c.kind == "weapon" and u.weapon else c.kind, name)
                u.life = min(u.ch.life, u.life + c.heal)
                if c.flight:
                    u.landed = True  # a worn flight starts grounded: it takes off by a decision
            elif c.kind == "upgrade":
                u.upgrades.append(name)
            else:
                u.enh_off += c.offense
                u.enh_def += c.defense
                self.discards[side] += 1
            self.phase, self.pending = back, -1
            return
        performer, target = self.units[self.performer], self.unit_at(f)
        assert target is not None
        self.pay(side, c.cost, performer, c.feat or "any")
        self.hands[side].pop(self.pending)
        self.discards[side] += 1
        self.pending, self.performer = -1, -1
        if not self.innate(performer, c):
            performer.turned = True
        if performer.flying and not target.flying:
            performer.flying = False  # an innate flyer lands to perform a feat on a grounded character
        self.log(f"player_{side} plays {name}: {performer.name} performs it on {target.name}")
        self._open_window(self.units.index(performer), -1, f, FEAT, [[side, name, -1]])

    def resolve_feat(self, u: Unit, c: Card, name: str, target: Unit) -> bool:
        """Feat roll: 2d6 + familiarity against the target's 2d6 + the same familiarity (gap, ours);
        double one fails, double six succeeds; a Specialist needs no roll for energy feats."""
        fam = (lambda x: x.ch.magic) if c.feat == "magic" else (lambda x: x.ch.energy) if c.feat == "energy" \
            else (lambda x: max(x.ch.magic, x.ch.energy))
        specialist = c.feat == "energy" and any(u.has(s) for s in SPECIALISTS)
        if specialist:
            ok = True
        else:
            a, b = self.rng.roll(6), self.rng.roll(6)
            r1, r2 = self.rng.roll(6), self.rng.roll(6)
            ok = (a, b) != (1, 1) and ((a, b) == (6, 6) or a + b + fam(u) > r1 + r2 + fam(target))
        self.log(f"{u.name} performs {name} on {target.name}: {'success' if ok else 'fails'}")
        if ok:
            if c.stun:
                target.stun, target.turned = combat.STUN_TURN_STARTS, True
            if c.damage:
                self.damage(target, c.damage, name)
            if c.void and target.on_map:
                self._send_to_void(target, c.void)
        return ok

    def _send_to_void(self, u: Unit, turns: int) -> None:
        """Off the board, alive, for `turns` of its controller's turn starts; the crystals it bears follow it
        and neither generate nor pay there (book: Characters Equipped with Crystals that are sent to the
        Void)."""
        u.void, u.void_from, u.pos = turns, u.pos, -1
        self.log(f"{u.name} is sent to the Void")

    def _drop_gear(self, u: Unit, part: str) -> None:
        """Book: an attached Equipment "can be discarded by simply removing it from the game, but ONLY on its
        controller's turn" (gap, ours: by the character's own activation)."""
        name = getattr(u, part)
        setattr(u, part, "")
        if part == "standard" and self.card(u.side, name).flight:
            u.landed = False
        self.log(f"{u.name} drops {name}")
