"""Movement (book: Character Movement, Engagement, Flight; glossary: Ethereal, Level Change Movement, Free
Strike Movement, Breach): how far a character may go, where it may step or pass through, the free strikes a
step or a take-off draws, charging, taking off and landing, and breaching a way through."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.ultra_war.abilities import (
    CHARGE_ATTACK,
    DOUBLE_MOVEMENT,
    ETHEREAL,
    FLIGHT,
    FREE_STRIKE_MOVEMENT,
    LEVEL_CHANGE_MOVEMENT,
)
from ultimata.envs.ultra_war.geometry import (
    BACKWARD,
    CHEBYSHEV,
    FIELDS,
    NEIGHBOURS,
    STEP,
    chebyshev,
    direction,
    front_and_sides,
    is_backward,
)
from ultimata.envs.ultra_war.phases import MAIN, OVER
from ultimata.envs.ultra_war.units import CHARGING, CHARGING_PLAIN, Unit
from ultimata.envs.ultra_war.windows import FREE_STRIKE

if TYPE_CHECKING:
    from ultimata.envs.ultra_war.state import UltraWarState as _Base
else:
    _Base = object

PLAIN, DOUBLE, PLUS_TWO = range(3)
"""The ways to charge (MovementRules.charge_kind)."""


class MovementRules(_Base):
    """Movement, a part of UltraWarState (state.py says how the rule modules are composed)."""

    def can_move(self, u: Unit) -> bool:
        return not u.turned and not u.disabled and not u.imprisoned and self.free_after_attacking(u)

    def movement(self, u: Unit, backward: bool | None = None) -> int:
        """Steps allowed this activation: movement (x2 charging), halved rounding up once moving backwards
        (`backward` None: as the character is moving now)."""
        m = self.full_movement(u)
        return (m + 1) // 2 if (u.backward if backward is None else backward) else m

    def full_movement(self, u: Unit) -> int:
        """Movement before halving for moving backwards: the printed (Base) movement plus its standard's and
        upgrades'; charging, twice the Base movement ("twice their Base Movement number") plus those, or +2
        with Charge Attack; then less half, rounded up, when deprived (unless flying)."""
        deck = self.game.side_decks[u.side]
        bonus = deck[u.standard].movement if u.standard else 0
        if u.upgrades:
            bonus += sum(deck[c].movement for c in u.upgrades)
        base = u.ch.movement
        if u.charging:
            base = base + 2 if self.charge_kind(u) == PLUS_TWO else 2 * base
        m = base + bonus
        if u.deprived and not u.flying:
            m -= (m + 1) // 2
        return m

    def charge_kind(self, u: Unit) -> int:
        """How `u` charges: PLAIN, twice the Base Movement, no attack or feat, and turned at the end of the
        activation; DOUBLE (Double Movement), the same allowance without turning, an attack allowed; PLUS_TWO
        (Charge Attack), movement + 2, an attack allowed. Charge Attack adds an option ("gives the character
        the ability to move an extra 2 spaces ... AND perform an attack"): such a character may still charge
        the plain way (CHARGING_PLAIN)."""
        if u.charging == CHARGING_PLAIN:
            return PLAIN
        return PLUS_TWO if u.has(CHARGE_ATTACK) else DOUBLE if u.has(DOUBLE_MOVEMENT) else PLAIN

    def plain_charge(self, u: Unit) -> bool:
        """Charging the plain way (charge_kind): it may not attack or perform a feat now, and turns."""
        return u.charging and self.charge_kind(u) == PLAIN

    def allowance(self, u: Unit, backward: bool) -> int:
        """Steps allowed this activation, moving backwards or not (see movement)."""
        return self.movement(u, backward)

    def level_free(self, u: Unit) -> bool:
        """Crosses level-change lines anywhere: flying, Level Change Movement, Ethereal (while it lasts)."""
        return u.flying or u.has(LEVEL_CHANGE_MOVEMENT) or self.ethereal(u)

    def ethereal(self, u: Unit) -> bool:
        """Ethereal, and not lost by attacking this turn (glossary: Ethereal)."""
        return u.has(ETHEREAL) and not u.ethereal_off

    def can_fly(self, u: Unit) -> bool:
        """Flight: innate (the ability) or from a standard equipment that grants it."""
        return u.has(FLIGHT) or (bool(u.standard) and self.card(u.side, u.standard).flight)

    def can_enter(self, u: Unit, a: int, b: int, free: bool | None = None) -> bool:
        """Whether u may step a -> b (`free`: level_free(u), when the caller already knows it)."""
        board = self.board
        if board.solid(b, self.breached) or self.blocked(b):
            return False
        free = self.level_free(u) if free is None else free
        return (free or not board.level_line(a, b)) and not self.squeezed(u, a, direction(a, b))

    def squeezed(self, u: Unit, a: int, d: int) -> bool:
        """A diagonal step from a in direction d between two spaces that both hold a pawn, a token or a wall
        (they touch only at a corner): refused ("As long as there is a space between the characters/items/etc.
        then normal movement may commence"), except for a character the book lets "span over Characters,
        objects" (Flight, Level Change Movement; Ethereal moves through them)."""
        if not d % 2 or u.flying or self.ethereal(u) or u.has(LEVEL_CHANGE_MOVEMENT):
            return False
        step, occupied = STEP[a], self.occupied_map()
        return all(g in occupied or self.board.solid(g, self.breached) for g in (step[d - 1], step[(d + 1) % 8]))

    def step_targets(self, u: Unit) -> list[int]:
        """Where u may step now: a space it may stop on (can_enter), or pass through (can_pass), within its
        allowance (halved once moving backwards, or for a step backwards)."""
        if not self.can_move(u):
            return []
        out: list[int] = []
        full = self.full_movement(u)
        behind = (full + 1) // 2  # as movement(u, backward=True)
        ahead = behind if u.backward else full
        nxt = u.steps + 1
        if nxt > ahead and nxt > behind:
            return out
        free = self.level_free(u)
        passer = u.flying or self.ethereal(u)
        occupied, breachable, breached = self.occupied_map(), self.board.breachable, self.breached
        back = BACKWARD[u.facing]
        for b, d, wall, line in self.board.exits[u.pos]:
            if nxt > (behind if back[d] else ahead):
                continue
            if wall or b in occupied or (breachable[b] and b not in breached) or (line and not free):
                if passer and self.can_pass(u, b, behind):  # (as can_enter refused: solid, taken, or a level line)
                    out.append(b)
            elif not (d % 2 and self.squeezed(u, u.pos, d)):
                out.append(b)
        return out

    def can_pass(self, u: Unit, b: int, behind: int) -> bool:
        """Passing through an occupied space without stopping there: flight passes over characters and tokens
        (not Gigantic ones); Ethereal moves through characters, objects and walls. Either must still be able to
        land next to it: one more step to a free space must fit the (worst-case, backwards) allowance."""
        ethereal = self.ethereal(u)
        if not (u.flying or ethereal) or u.steps + 2 > behind:
            return False
        if self.board.solid(b, self.breached):
            if not ethereal:
                return False
        else:
            occupied = self.occupied_map()  # (True for a Gigantic character)
            if b not in occupied or (occupied[b] and not ethereal):
                return False
        return any(c == u.pos and not self.over_another(u) or
                   not self.board.solid(c, self.breached) and not self.blocked(c) for c in NEIGHBOURS[b])

    def over_another(self, u: Unit) -> bool:
        """In the middle of a move where it may not stop: a flyer above another character or a token, or an
        Ethereal character inside one of them or inside a wall."""
        if u.pos < 0:
            return False
        ethereal = self.ethereal(u)
        if ethereal and self.board.solid(u.pos, self.breached):
            return True
        if not (u.flying or ethereal):
            return False
        return any(o is not u and o.pos == u.pos for o in self.units) or self.token_at(u.pos) is not None

    def nearest_free(self, f: int) -> int:
        """f if no one and no wall is there, else the nearest such space (spaces apart, then field order)."""
        near = CHEBYSHEV[f]
        return min((g for g in range(FIELDS) if not self.board.solid(g, self.breached) and not self.blocked(g)),
                   key=lambda g: (near[g], g))

    def free_strikers(self, u: Unit, a: int, b: int) -> list[Unit]:
        """Enemies engaged with `u` at `a` whose front-and-side spaces `b` leaves and that may strike
        (`can_strike`, `strike_slot`): each gets a +2 free strike. An enemy that already struck `u` in this
        activation, while `u` stayed within its reach, does not: "If the Character survives the Attack, it may
        become disengaged" (one free strike per engagement; `disengaged`)."""
        if not self.draws_free_strikes(u):
            return []
        out = []
        near = CHEBYSHEV[a]
        for e in self.units:  # (the distance first: it rules out most; a pos of -1 is caught next)
            if near[e.pos] != 1 or not e.on_map or e.side == u.side or not self.can_strike(e):
                continue
            if b in front_and_sides(e.pos, e.facing) or self.units.index(e) in self.disengaged:
                continue
            if self.strike_slot(e, u) is not None:
                out.append(e)
        return out

    def draws_free_strikes(self, u: Unit) -> bool:
        """Leaving an engagement, by a step or a take-off, draws free strikes, except with Free Strike
        Movement."""
        return not u.has(FREE_STRIKE_MOVEMENT)

    def takeoff_strikers(self, u: Unit) -> list[Unit]:
        """Taking off while engaged draws a free strike from every engaged enemy that could strike it on the
        ground (book: Engagement and Flight Ability; gap, ours: facing aside, and none with Free Strike
        Movement), except one it is already disengaged from (free_strikers)."""
        if not self.draws_free_strikes(u):
            return []
        near = CHEBYSHEV[u.pos]
        return [e for e in self.units if e.pos >= 0 and near[e.pos] == 1 and e.side != u.side and self.can_strike(e)
                and self.units.index(e) not in self.disengaged and self.strike_slot(e, u) is not None]

    def _step(self, u: Unit, b: int) -> None:
        a = u.pos
        if is_backward(u.facing, direction(a, b)):
            u.backward = True
        self.strikes = [self.units.index(e) for e in self.free_strikers(u, a, b)]
        u.pos = b
        if self.disengaged:  # leaving an enemy's reach ends the engagement: coming back engages anew
            near = CHEBYSHEV[b]
            self.disengaged = [i for i in self.disengaged if near[self.units[i].pos] == 1]
        u.steps += 1
        u.flew = u.paused = False
        self._pick_up(u, b)
        self._run_strikes()

    def _fly(self, u: Unit) -> None:
        """FLY: land (declared grounded until it takes off again), or take off: engaged enemies strike first."""
        u.flew, u.paused = True, False
        if u.flying:
            u.flying, u.landed = False, True
            self.log(f"{u.name} lands")
            return
        self.log(f"{u.name} takes off")
        self.strikes = [self.units.index(e) for e in self.takeoff_strikers(u)]
        self.lift = True
        self._run_strikes()

    def _run_strikes(self) -> None:
        """The free strikes the active character's step or take-off drew, one after another, each with its
        quick window; then what follows the move."""
        u = self.units[self.active]
        while self.strikes:
            e = self.units[self.strikes.pop(0)]
            if self.phase == OVER or not u.on_map:
                break
            slot = self.strike_slot(e, u) if e.on_map and self.can_strike(e) else None
            if slot is None:
                continue
            ei = self.units.index(e)
            self.disengaged.append(ei)
            self.log(f"{e.name} gets a free strike at {u.name} (+2 for {u.name} leaving its front and sides)")
            if self._open_window(ei, slot, u.pos, FREE_STRIKE):
                return  # the window's close goes on with the strikes
        self.strikes = []
        self._after_move(u)

    def _after_move(self, u: Unit) -> None:
        lift, self.lift = self.lift, False
        if self.phase == OVER:
            return
        if not u.on_map:
            self.phase, self.active, self.disengaged = MAIN, -1, []
            return
        if lift:
            u.flying, u.landed = True, False
        elif self.game.scenario.objective == "rescue":
            prisoner = self.units[-1]
            if prisoner.imprisoned and prisoner.on_map and u.side == 0 and chebyshev(u.pos, prisoner.pos) == 1:
                prisoner.imprisoned, prisoner.acted = False, True
                prisoner.turned = False
                self.log(f"{u.name} frees {prisoner.name}")
            self._check_victory()

    def _lose_flight(self, u: Unit) -> None:
        """Its flight equipment is gone: it is grounded, and one that was passing over a pawn or a token comes
        down on the nearest free space (gap, ours)."""
        shared = u.flying and u.pos >= 0 and self.over_another(u)
        u.flying = u.landed = False
        if shared:
            saved, u.pos = u.pos, -1
            u.pos = self.nearest_free(saved)

    def breach_targets(self, u: Unit) -> list[int]:
        """Breach: an adjacent door or breachable wall, not breached and with no one in it (it turns u)."""
        if not u.has("Breach") or u.turned or u.disabled:
            return []
        return [f for f in NEIGHBOURS[u.pos] if (self.board.breachable[f] or self.board.door[f])
                and f not in self.breached and not self.blocked(f)]

    def can_charge(self, u: Unit) -> bool:
        """CHARGE before the first step and attack: once, or a second time by a Charge Attack character to
        charge the plain way instead (charge_kind). The caller knows it can step."""
        if u.steps or u.attacks_made:
            return False
        return not u.charging or (u.charging == CHARGING and u.has(CHARGE_ATTACK))

    def _charge(self, u: Unit) -> None:
        """CHARGE, declared before the first step (see charge_kind): only the choice in progress changes."""
        u.charging = CHARGING_PLAIN if u.charging else CHARGING

    def _activation_target(self, f: int) -> None:
        """TARGET f in an activation: breach the door or wall at f, or give the equipped crystal to the
        character there (power.py)."""
        u = self.units[self.active]
        if f in self.breach_targets(u):
            self.breached.add(f)
            self.log(f"{u.name} breaches a way through")
            u.turned = True
            self._end_activation(u)
        else:
            self._give(u, f)
