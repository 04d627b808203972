"""The Ultra War rules engine: set-up, the turn sequence, activations (movement, flight, facing, free
strikes, attacks), cards, objectives and the round cap. Attack rolls live in combat.py, the map in board.py,
the action layout in actions.py; power and reserves in power.py, quick windows in windows.py, the army
draft in draft.py (mixins of this state)."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

import numpy as np

from ultimata.envs.core.engine import State
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultra_war import actions as A
from ultimata.envs.ultra_war import combat, windows
from ultimata.envs.ultra_war.content import HAND_SLOTS, Card
from ultimata.envs.ultra_war.draft import DraftRules
from ultimata.envs.ultra_war.geometry import (
    AHEAD,
    BACKWARD,
    CHEBYSHEV,
    COL,
    FIELDS,
    MANHATTAN,
    NEIGHBOURS,
    ORIENT,
    ROW,
    STEP,
    chebyshev,
    direction,
    front,
    front_and_sides,
    is_backward,
    manhattan,
)  # fmt: skip
from ultimata.envs.ultra_war.observation import after_choice, observe
from ultimata.envs.ultra_war.power import PowerRules
from ultimata.envs.ultra_war.units import Source, Unit
from ultimata.envs.ultra_war.windows import ATTACK, DEVIATED, FEAT, FREE_STRIKE, WindowRules

if TYPE_CHECKING:
    from ultimata.envs.ultra_war.game import UltraWarGame

SETUP, MAIN, ACTIVE, CARD_TARGET, FEAT_TARGET, QUICK, DISCARD, OVER, DEVIATE, DRAFT, PAUSE = range(11)
assert OVER == combat.OVER_PHASE and QUICK == windows.QUICK_PHASE
PHASES = ("setup", "main", "activation", "card target", "feat target", "quick window", "discard", "over", "deviate",
          "draft", "pause")
EQUIP_KINDS = ("weapon", "armor", "standard")
FACES = [A.FACE + d for d in range(8)]
PAUSE_END = [A.PAUSE, A.END_ACT]
NO_PATCH, PATCH_CHOICE, PATCH_PAWN = 0, 1, 2
"""What a decision of the main phase or an activation changed, for the observation: anything; only the
activation, the phase and the pending card (`after_choice`); that and the active pawn's facing and flags."""
_PATCHES = {**dict.fromkeys(range(A.SELECT, A.FACE), PATCH_CHOICE),
            **dict.fromkeys(range(A.PLAY, A.DISCARD), PATCH_CHOICE),
            **dict.fromkeys(range(A.FACE, A.END_ACT + 1), PATCH_PAWN),
            A.CHARGE: PATCH_CHOICE, A.PAUSE: PATCH_CHOICE, A.PASS: PATCH_CHOICE}
END_ONLY = [A.END_ACT]
AREA_TAGS = ("Explosive", "Front Arch", "Linear")


class UltraWarState(DraftRules, PowerRules, WindowRules, State):
    game: UltraWarGame

    def __init__(self, game: UltraWarGame, rng: Rng) -> None:
        super().__init__(game, rng)
        self.board = game.board
        self.units: list[Unit] = []
        self.sources: list[Source] = []
        self.hands: list[list[str]] = [[], []]
        self.decks: list[list[str]] = [[], []]
        self.discards = [0, 0]
        self.breached: set[int] = set()
        self.phase, self.turn, self.round, self.first = SETUP, 0, 1, 0
        self.setup_side, self.active, self.pending, self.performer = 0, -1, -1, -1
        self.stack: list[list[Any]] = []
        """A quick window's stack, bottom first: [side, card name, -1] or [side, "", source index]."""
        self.attack: list[int] = []
        """What a quick window (or the `deviate` phase) is about: [unit, attack slot, field, mode] (mode:
        windows.ATTACK, FREE_STRIKE, FEAT (slot -1), DEVIATED)."""
        self.responder = -1
        self.passes = 0
        """Passes in a row in the open window (two close it)."""
        self.strikes: list[int] = []
        """Free strikes still to come against the active character (units, in order)."""
        self.lift = False
        """The active character is taking off: it flies once the free strikes it drew are over."""
        self.hold = [0, 0]
        self.winner = -1
        """-1 live, 0/1 the winning side, 2 a draw."""
        self.events: list[str] = []
        self._saved_phase = MAIN
        self._look: _Lookups | None = None
        """Set only while legal actions are computed (nothing moves then): what is read over and over."""
        self._raw: list[int] = []
        self._legal: list[int] | None = None
        """The legal actions behind `_mask` (set with it), and sorted (when first asked for)."""
        self._last_view: tuple[int, int, np.ndarray] | None = None
        """The last observation made (seat, decisions then, a private copy), and what the decision since
        changed if it changed little (`_patch`): then the next observation of that seat is this one patched."""
        self._patch, self._patched = NO_PATCH, -1
        self._setup()

    # -- set-up (book: The Game Setup, steps 1-7) ----------------------------------------------
    def _setup(self) -> None:
        sc, cfg = self.game.scenario, self.game.config
        draft = cfg.army == "draft"
        for side in (0, 1):
            if not draft:
                self._deploy(side, sc.armies[side])
            deck = [name for name, card in self.game.content.decks[sc.factions[side]].items()
                    for _ in range(card.count)]
            self.decks[side] = self.rng.shuffled(deck)
            self.hands[side] = [self.decks[side].pop() for _ in range(cfg.hand_limit)]
        if sc.prisoner and not draft:
            self._add_prisoner()
        if cfg.first_player == "roll":
            while True:
                a, b = self.rng.roll(6), self.rng.roll(6)
                if a != b:
                    break
            self.first = 0 if a > b else 1
        else:
            self.first = int(cfg.first_player[-1])
        self.setup_side = self.first
        if draft:
            self.phase, self.setup_side = DRAFT, 0

    def start_spaces(self, side: int) -> list[int]:
        return self.game.start_spaces[side]

    def _deploy(self, side: int, army: list[str]) -> None:
        """Steps 3-4: the army's pawns on its start spaces (the ones nearest the centre, facing the enemy's
        end), then its power sources."""
        for name in army:
            self._place_new(side, name)
        self._add_sources(side)

    def _place_new(self, side: int, name: str) -> None:
        u = Unit(name, side, len(self.side_units(side)))
        u.pos, u.facing = self.start_spaces(side)[u.slot], 0 if side == 0 else 4
        self.units.append(u)

    def _add_sources(self, side: int) -> None:
        """Gap (ours): crystals go to the first characters of the army; tokens on the start spaces farthest
        from the centre; each source starts with the scenario's `power_start` points."""
        sc = self.game.scenario
        name = self.game.content.factions[sc.factions[side]].power
        mine = self.side_units(side)
        for k in range(sc.power_sources):
            src = Source(side, name, sc.power_start)
            if src.token:
                src.pos = self.start_spaces(side)[-1 - k]
            else:
                src.bearer = self.units.index(mine[k % len(mine)])
            self.sources.append(src)

    def _add_prisoner(self) -> None:
        sc = self.game.scenario
        assert sc.prisoner is not None
        p = Unit(sc.prisoner, 0, len(self.side_units(0)))
        p.pos, p.facing, p.imprisoned, p.turned = self.board.prison, 4, True, True
        self.units.append(p)

    def _draft(self, side: int, s: int) -> None:
        name = self.roster(side)[s]
        self._place_new(side, name)
        self.log(f"player_{side} drafts {name}")

    def _finish_draft(self, side: int) -> None:
        self._add_sources(side)
        if side == 0:
            self.setup_side = 1
            return
        if self.game.scenario.prisoner:
            self._add_prisoner()
        self.phase, self.setup_side = SETUP, self.first

    # -- queries -------------------------------------------------------------------------------
    def side_units(self, side: int) -> list[Unit]:
        return [u for u in self.units if u.side == side]

    def unit_at(self, f: int) -> Unit | None:
        """The character standing on f (a flyer passing over it mid-move is not the one found)."""
        if self._look is not None:
            return self._look.units().get(f)
        found = None
        for u in self.units:
            if u.pos == f:
                if self.active < 0 or u is not self.units[self.active]:
                    return u
                found = u
        return found

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

    def ethereal(self, u: Unit) -> bool:
        """Ethereal, and not lost by attacking this turn (glossary: Ethereal)."""
        return u.has("Ethereal") and not u.ethereal_off

    def can_fly(self, u: Unit) -> bool:
        """Flight: innate (the ability) or from a standard equipment that grants it."""
        return u.has("Flight") or (bool(u.standard) and self.card(u.side, u.standard).flight)

    def stealthed(self, u: Unit) -> bool:
        """Stealth, unless a Stealth Reveal character's area (within its # spaces) covers it (glossary:
        Stealth Reveal "removes the Stealth ... ability from any Character in affected area")."""
        if not u.has("Stealth"):
            return False
        return not any(o.pos >= 0 and o.has("Stealth Reveal") and CHEBYSHEV[o.pos][u.pos] <= o.param("Stealth Reveal")
                       for o in self.units)

    def token_at(self, f: int) -> Source | None:
        if self._look is not None:
            return self._look.tokens().get(f)
        for s in self.sources:
            if s.token and s.pos == f and s.life > 0:
                return s
        return None

    def blocked(self, f: int) -> bool:
        if self._look is not None:
            return f in self._look.occupied()
        return self.unit_at(f) is not None or self.token_at(f) is not None

    def occupied(self) -> dict[int, bool]:
        """occupied_map, the one cached while legal actions are computed: its fields are the blocked ones."""
        return self._look.occupied() if self._look is not None else self.occupied_map()

    def active_general(self, side: int) -> Unit | None:
        """The first General of the army on the board (gap, ours: when it falls, or is in the Void, the next
        takes over)."""
        return self.active_generals()[side]

    def active_generals(self) -> list[Unit | None]:
        """Both sides' active generals, in one pass."""
        found: list[Unit | None] = [None, None]
        for u in self.units:
            if found[u.side] is None and u.pos >= 0 and u.ch.rank == "General" and not u.imprisoned:
                found[u.side] = u
        return found

    def affiliate_mod(self, u: Unit) -> int:
        g = self.active_general(u.side)
        if g is None or "Affiliate Mod" not in g.ch.general_ability or g.ch.faction != u.ch.faction:
            return 0
        return g.ch.general_ability["Affiliate Mod"] or 0

    def morale(self, side: int) -> Unit | None:
        """The side's active general if its ability is Morale."""
        g = self.active_general(side)
        return g if g is not None and "Morale" in g.ch.general_ability else None

    def supports(self, u: Unit) -> bool:
        """Attack Support: the icon, or Morale's gift to a character engaged to an opponent the Morale
        character is engaged to (glossary, Morale; gap, ours: always on, and always Attack Support)."""
        if u.has("Attack Support"):
            return True
        m = self.morale(u.side)
        if m is None or u.pos < 0:
            return False
        near, mine = CHEBYSHEV[u.pos], CHEBYSHEV[m.pos]
        return any(e.pos >= 0 and e.side != u.side and near[e.pos] == 1 and mine[e.pos] == 1
                   for e in self.units)

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
        if u.charging and not u.has("Charge Attack"):
            base *= 2
        m = base + bonus + (2 if u.charging and u.has("Charge Attack") else 0)
        if u.deprived and not u.flying:
            m -= (m + 1) // 2
        return m

    def occupied_map(self) -> dict[int, bool]:
        """Field -> whether a Gigantic character stands there, for every field someone or a token occupies
        (two pawns share a space only while one passes through: either being Gigantic counts)."""
        occ: dict[int, bool] = {}
        for s in self.sources:
            if s.token and s.pos >= 0 and s.life > 0:
                occ[s.pos] = False
        for u in self.units:
            if u.pos >= 0:
                occ[u.pos] = occ.get(u.pos, False) or "Gigantic" in u.ch.tags
        return occ

    def faces(self, u: Unit, f: int) -> bool:
        """Whether f lies ahead of u or beside it (its front arc and sides, extended to every range). The
        glossary draws a sight line "between the forward facing base piece" and the selection: **gap
        (ours)**, ranged attacks (Directed and Linear ones too) and feats select only there."""
        return AHEAD[u.facing][u.pos][f] == 1

    def sees(self, a: Unit, b_pos: int, target_flies: bool, occ: dict[int, bool] | None = None) -> bool:
        if occ is None:
            occ = self.occupied()
        return self.board.sight_clear(a.pos, b_pos, occ,
                                      self.breached, a.flying, target_flies)

    # -- movement (book: Character Movement, Engagement) ---------------------------------------
    def can_enter(self, u: Unit, a: int, b: int, free: bool | None = None) -> bool:
        """Whether u may step a -> b (`free`: level_free(u), when the caller already knows it)."""
        board = self.board
        if board.solid(b, self.breached) or self.blocked(b):
            return False
        return (self.level_free(u) if free is None else free) or not board.level_line(a, b)

    def level_free(self, u: Unit) -> bool:
        """Crosses level-change lines anywhere: flying, Level Change Movement, Ethereal (while it lasts)."""
        return u.flying or u.has("Level Change Movement") or self.ethereal(u)

    def can_move(self, u: Unit) -> bool:
        return not u.turned and not u.disabled and not u.imprisoned and (u.attacks_made == 0 or u.has("Empowered"))

    def allowance(self, u: Unit, backward: bool) -> int:
        """Steps allowed this activation, moving backwards or not (see movement)."""
        return self.movement(u, backward)

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
        occupied, breachable, breached = self.occupied(), self.board.breachable, self.breached
        back = BACKWARD[u.facing]
        for b, d, wall, line in self.board.exits[u.pos]:
            if nxt > (behind if back[d] else ahead):
                continue
            if wall or b in occupied or (breachable[b] and b not in breached) or (line and not free):
                if passer and self.can_pass(u, b, behind):  # (as can_enter refused: solid, taken, or a level line)
                    out.append(b)
            else:
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
            x = self.unit_at(b)
            if x is None and self.token_at(b) is None or (x is not None and "Gigantic" in x.ch.tags and not ethereal):
                return False
        return any(c == u.pos and not self.over_another(u) or
                   not self.board.solid(c, self.breached) and not self.blocked(c) for c in NEIGHBOURS[b])

    def free_strikers(self, u: Unit, a: int, b: int) -> list[Unit]:
        """Enemies engaged with `u` at `a` whose front-and-side spaces `b` leaves and that may strike (not
        turned or disabled: `Unit.can_strike`): each gets a +2 free strike."""
        if u.has("Free Strike Movement"):
            return []
        out = []
        near = CHEBYSHEV[a]
        for e in self.units:  # (the distance first: it rules out most; a pos of -1 is caught next)
            if near[e.pos] != 1 or not e.on_map or e.side == u.side or not e.can_strike:
                continue
            if b in front_and_sides(e.pos, e.facing):
                continue
            if self.strike_spec(e, u) is not None:
                out.append(e)
        return out

    def takeoff_strikers(self, u: Unit) -> list[Unit]:
        """Taking off while engaged draws a free strike from every engaged enemy that could strike it on the
        ground (book: Engagement and Flight Ability; gap, ours: facing aside, and none with Free Strike
        Movement)."""
        if u.has("Free Strike Movement"):
            return []
        near = CHEBYSHEV[u.pos]
        return [e for e in self.units if e.pos >= 0 and near[e.pos] == 1 and e.side != u.side and e.can_strike
                and self.strike_spec(e, u) is not None]

    def strike_spec(self, e: Unit, u: Unit) -> Any:
        """The melee attack `e` strikes `u` with (its first own one that can hit it), or None."""
        return next((s for s in e.ch.attacks if s.kind == "melee" and self.attackable(e, s, u)), None)

    def attackable(self, att: Unit, spec: Any, target: Unit) -> bool:
        """Flying targets only by ranged or flying attackers; Ethereal ones only by magical attacks; one with
        Stealth Reveal never by a Sneak Attack."""
        if target.flying and spec.kind == "melee" and not att.flying:
            return False
        if "Sneak Attack" in spec.tags and target.has("Stealth Reveal"):
            return False
        magical = "Magical Attack" in spec.tags or "Magical Fire" in spec.tags
        return not (self.ethereal(target) and not magical)

    # -- attacks -------------------------------------------------------------------------------
    def can_attack(self, u: Unit) -> bool:
        if u.disabled or u.imprisoned or u.turned:
            return False
        if u.charging and not (u.has("Double Movement") or u.has("Charge Attack")):
            return False
        return u.attacks_made < self.attack_limit(u)

    def attack_limit(self, u: Unit, spec: Any = None) -> int:
        """Attacks an activation: 1, 2 with Dual Attack, plus Multi-Shot's extra (paid) ranged attacks."""
        limit = 2 if u.has("Dual Attack") else 1
        return limit + (u.param("Multi-Shot") if spec is None or spec.kind == "ranged" else 0)

    def affordable_attack(self, u: Unit, spec: Any) -> bool:
        return spec.cost is None or self.can_pay_ability(u, spec.cost.reserve, spec.cost.amount)

    def target_ok(self, u: Unit, slot: int, f: int, counter: bool = False) -> bool:
        """Whether `u` may attack field f with attack `slot` now: range, sight, who may be hit, and (not for
        a counter-attack) the cost."""
        spec = combat.attack_spec(u, slot)
        if spec is None or (not counter and not self.affordable_attack(u, spec)):
            return False
        return self.aim_ok(u, spec, f)

    def aim_ok(self, u: Unit, spec: Any, f: int) -> bool:
        """target_ok once the attack and its cost are settled."""
        if f == u.pos:
            return False
        explosive = "Explosive" in spec.tags
        target = self.unit_at(f)
        token = self.token_at(f) if target is None else None
        if target is not None:
            if target.side == u.side or not self.attackable(u, spec, target):
                return False
        elif token is not None:
            if token.side == u.side:
                return False
        elif not explosive:
            return False
        if spec.kind == "melee":
            if chebyshev(u.pos, f) != 1:
                return False
            flies = u.flying or (target is not None and target.flying)
            return flies or not self.board.level_line(u.pos, f)
        if not self.faces(u, f):
            return False
        if "Linear" in spec.tags:
            return target is not None and f in self.line_fields(u.pos, f, spec.range)
        if manhattan(u.pos, f) > spec.range:
            return False
        if explosive and target is None and token is None and self.board.solid(f, set()) and not (
                self.board.breachable[f] and f not in self.breached):
            return False
        return "Directed" in spec.tags or self.sees(u, f, target is not None and target.flying)

    def line_fields(self, a: int, f: int, reach: int) -> list[int]:
        """A Linear attack's spaces: straight from a through f (a row, column or diagonal), up to `reach`
        spaces (gap, ours: counted as steps along the line), stopping at a wall or closed door."""
        dr, dc = ROW[f] - ROW[a], COL[f] - COL[a]
        if not (dr == 0 or dc == 0 or abs(dr) == abs(dc)):
            return []
        d = direction(a, f)
        out, g = [], a
        for _ in range(reach):
            g = STEP[g][d]
            if g < 0 or self.board.solid(g, self.breached) or self.board.door[g]:
                break
            out.append(g)
        return out

    def attack_targets(self, u: Unit, slot: int) -> list[int]:
        spec = combat.attack_spec(u, slot)
        if spec is None or u.attacks_made >= self.attack_limit(u, spec) or not self.affordable_attack(u, spec):
            return []  # (target_ok refuses every field of an attack that cannot be paid)
        if "Explosive" in spec.tags:
            dist = MANHATTAN[u.pos]
            cands = [f for f in range(FIELDS) if dist[f] <= spec.range]
        elif spec.kind == "melee":  # only a character or a token can be hit (target_ok)
            occupied = self.occupied()
            cands = [f for f in NEIGHBOURS[u.pos] if f in occupied]
        else:
            cands = self._look.marks(u.side) if self._look is not None else self.marks(u.side)
            if "Linear" not in spec.tags:  # target_ok refuses whatever is out of range
                dist, reach = MANHATTAN[u.pos], spec.range
                cands = [f for f in cands if dist[f] <= reach]
        return [f for f in cands if self.aim_ok(u, spec, f)]

    def marks(self, side: int) -> list[int]:
        """Where the enemies of `side` stand: their characters and their power tokens."""
        out = [x.pos for x in self.units if x.pos >= 0 and x.side != side]
        return out + [s.pos for s in self.sources if s.token and s.pos >= 0 and s.life > 0 and s.side != side]

    def attacked_fields(self, u: Unit, spec: Any, f: int) -> list[int]:
        """The fields an attack declared at f rolls against now: the blast's rings (Explosive), the line
        (Linear), the three front spaces (Front Arch), or f alone."""
        return [g for g, _ in self._attacked(u, spec, f)]

    def _attacked(self, u: Unit, spec: Any, f: int) -> list[tuple[int, int]]:
        """(field, ring) for each roll of an attack at f, each field checked as it stands now."""
        if "Explosive" in spec.tags:
            out = []
            for g, ring in combat.explosion_rings(f, spec.tags["Explosive"] or 0):
                if g != u.pos and (self.unit_at(g) or self.token_at(g)):
                    target = self.unit_at(g)
                    if target is None or self.attackable(u, spec, target):
                        out.append((g, ring))
            return out
        if "Linear" in spec.tags:
            return [(g, 0) for g in self.line_fields(u.pos, f, spec.range)
                    if (x := self.unit_at(g)) is not None and self.attackable(u, spec, x)]
        if "Front Arch" in spec.tags:
            return [(g, 0) for g in sorted(front(u.pos, direction(u.pos, f)))
                    if (x := self.unit_at(g)) is not None and x.side != u.side and self.attackable(u, spec, x)
                    and not self.board.level_line(u.pos, g)]
        return [(f, 0)]

    def damage(self, u: Unit, amount: int) -> None:
        if amount <= 0 or not u.on_map:
            return
        u.life = max(0, u.life - amount)
        self.log(f"{u.name} takes {amount} damage ({u.life} left)")
        if u.life == 0:
            self.defeat(u)

    def defeat(self, u: Unit) -> None:
        """The character leaves the board; the crystals it bears drop where it fell, losing their points."""
        self.log(f"{u.name} is defeated")
        self._drop_crystals(u)
        u.pos, u.life, u.turned = -1, 0, False
        self._check_victory()

    def damage_token(self, s: Source, amount: int) -> None:
        s.life = max(0, s.life - amount)
        self.log(f"a {s.kind} takes {amount} damage")
        if s.life == 0:
            s.pos, s.points = -1, 0
            self.log(f"a {s.kind} is destroyed")

    def log(self, text: str) -> None:
        self.events.append(text)
        del self.events[:-12]

    # -- cards ---------------------------------------------------------------------------------
    def card(self, side: int, name: str) -> Card:
        return self.game.side_decks[side][name]

    def ultra_in_play(self, name: str) -> bool:
        return any(name in (u.weapon, u.weapon2, u.armor, u.standard) for u in self.units if u.on_map)

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
        for u in self._look.mine(side) if self._look is not None else self.able(side):
            if c.kind in EQUIP_KINDS:
                if u.weapon_slots_full() if c.kind == "weapon" else getattr(u, c.kind):
                    continue
            elif c.kind == "upgrade":
                if not (u.is_droid or "Bionic" in u.ch.tags) or len(u.upgrades) >= u.ch.upgrades:
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

    def able(self, side: int) -> list[Unit]:
        """The side's characters on the board and free (those cards go on)."""
        return [u for u in self.units if u.side == side and u.pos >= 0 and not u.imprisoned]

    def can_perform(self, u: Unit, c: Card) -> bool:
        """A feat's performer: not disabled, not turned ("Turned Characters cannot move, Attack or make Feats
        after being Turned"; Innate only spares the turning a feat causes), not in the middle of a plain
        charge (it turns "immediately afterwards"), and not the active character once it has attacked unless
        Empowered ("Movement and Feats may be played after an Empowered Character attacks")."""
        if u.disabled or u.turned:
            return False
        if self.active < 0 or u is not self.units[self.active]:
            return True
        if u.attacks_made and not u.has("Empowered"):
            return False
        return not (u.charging and not (u.has("Double Movement") or u.has("Charge Attack")))

    def innate(self, u: Unit, c: Card) -> bool:
        return (c.feat == "magic" and u.has("Magic Innate")) or (c.feat == "energy" and u.has("Energy Innate"))

    def closest_foe(self, side: int) -> int:
        """Fewest spaces (Manhattan) between any character of `side` on the map and any enemy on it."""
        if self._look is not None and side in self._look.closest:
            return self._look.closest[side]
        foes = [x.pos for x in self.foes(side)]
        out = FIELDS
        if foes:
            for u in self.units:
                if u.pos >= 0 and u.side == side:
                    near = min(map(MANHATTAN[u.pos].__getitem__, foes))
                    if near < out:
                        out = near
        if self._look is not None:
            self._look.closest[side] = out
        return out

    def foes(self, side: int) -> list[Unit]:
        """The enemies of `side` on the map."""
        if self._look is not None and side in self._look.foes:
            return self._look.foes[side]
        out = [x for x in self.units if x.pos >= 0 and x.side != side]
        if self._look is not None:
            self._look.foes[side] = out
        return out

    def feat_targets(self, u: Unit, c: Card) -> list[int]:
        """Enemies within the feat's range, ahead of the performer or beside it (`faces`), in its sight."""
        key = (u.pos, u.facing, c.range)
        if self._look is not None and key in self._look.feat_targets:
            return self._look.feat_targets[key]
        dist, ahead = MANHATTAN[u.pos], AHEAD[u.facing][u.pos]
        out = [x.pos for x in self.foes(u.side)
               if dist[x.pos] <= c.range and ahead[x.pos] and self.sees(u, x.pos, x.flying)]
        if self._look is not None:
            self._look.feat_targets[key] = out
        return out

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
        look = self._look
        if look is None:
            return self.opening(side, c.kind)
        key = (side, c.kind)
        if key not in look.openings:
            look.openings[key] = self.opening(side, c.kind)
        return look.openings[key]

    def opening(self, side: int, kind: str) -> bool:
        """Whether some own character could take a card of this kind (not a feat) now: what card_targets
        looks for, leaving out the cost and ULTRA (the first one found will do)."""
        for u in self._look.mine(side) if self._look is not None else self.able(side):
            if kind == "enhancement" or (kind == "weapon" and not u.weapon_slots_full()):
                return True
            if kind in ("armor", "standard"):
                if not getattr(u, kind):
                    return True
            elif kind == "upgrade" and (u.is_droid or "Bionic" in u.ch.tags) and len(u.upgrades) < u.ch.upgrades:
                return True
        return False

    # -- the contract --------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.phase == MAIN or self.phase == ACTIVE:  # the common case first
            return self.turn
        if self.phase == OVER:
            return -1
        if self.phase in (SETUP, DRAFT) or (self.phase in (CARD_TARGET, FEAT_TARGET) and self._saved_phase == SETUP):
            return self.setup_side
        if self.phase == QUICK:
            return self.responder
        return self.turn

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        if self.winner in (0, 1):
            return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]
        return [0.0, 0.0]

    def potentials(self) -> list[float]:
        """Ours, for shaping and depth-cut search, zero-sum: half the round cap's tiebreak (enemy army value
        destroyed, as a share of the army total), plus half the enemy Generals' life lost with
        `defeat_general`, plus half the hold points (as a share of those that win) with `hold`; each as
        player_0's lead over player_1."""
        sc = self.game.scenario
        lead = 0.5 * (self.harm_done(0) - self.harm_done(1)) / sc.army_total
        if sc.objective == "defeat_general":
            lead += 0.5 * (self._generals_hurt(1) - self._generals_hurt(0))
        elif sc.objective == "hold":
            lead += 0.5 * (self.hold[0] - self.hold[1]) / sc.hold_points
        return [lead, -lead]

    def _generals_hurt(self, side: int) -> float:
        """The share of life the side's Generals have lost (0 without Generals)."""
        generals = [u for u in self.side_units(side) if u.ch.rank == "General"]
        return sum((u.ch.life - u.life) / u.ch.life for u in generals) / len(generals) if generals else 0.0

    def can_activate(self, u: Unit) -> bool:
        return not u.acted and not u.turned and u.on_map and not u.imprisoned and not u.disabled

    def _legal_actions(self) -> list[int]:
        """Computed with lookups (who stands where, pools, feat targets...) kept for this one call and
        dropped after it."""
        self._look = _Lookups(self)
        try:
            return self._legal_now()
        finally:
            self._look = None

    def legal_action_mask(self) -> np.ndarray:
        """As the engine's, keeping the list too: legal_actions() sorts it when asked (the AEC loop and apply
        read only the mask) and needs no scan of the mask."""
        if self._mask is None:
            raw = self._legal_actions()
            mask = bytearray(A.NUM_ACTIONS)  # (set byte by byte: cheaper than numpy's list indexing)
            for a in raw:
                mask[a] = 1
            self._mask = np.frombuffer(mask, dtype=np.int8)
            self._raw, self._legal = raw, None
        return self._mask

    def legal_actions(self) -> list[int]:
        self.legal_action_mask()
        if self._legal is None:
            self._legal = sorted(set(self._raw))
        return list(self._legal)

    def _playable_cards(self, seat: int) -> list[int]:
        verdict: dict[str, bool] = {}  # copies of a card share their verdict
        out = []
        for h, name in enumerate(self.hands[seat]):
            if name not in verdict:
                verdict[name] = self.playable(seat, h)
            if verdict[name]:
                out.append(A.PLAY + h)
        return out

    def _legal_now(self) -> list[int]:
        """In any order (legal_action_mask sorts)."""
        p = self.phase
        seat = self.current_player
        rel = ORIENT[seat]
        out: list[int] = []
        if p == OVER:
            return out
        if p in (SETUP, MAIN):
            if p == MAIN:
                out += [A.SELECT + u.slot for u in self.units if u.side == seat and self.can_activate(u)]
                out += self._own_turn_abilities(seat)
            out += self._playable_cards(seat)
            out.append(A.END_TURN)
        elif p == ACTIVE:
            u = self.units[self.active]
            stepping = self.step_targets(u)
            out += [A.STEP + rel[f] for f in stepping]
            if self.over_another(u):
                return out
            if self.can_attack(u):
                for slot in range(A.ATTACK_SLOTS):
                    targets = self.attack_targets(u, slot)
                    if targets:
                        base = A.ATTACK + slot * FIELDS
                        out += [base + rel[f] for f in targets]
            out += [A.TARGET + rel[f] for f in self.breach_targets(u) + self.give_targets(u, self.active)]
            if u.steps == 0 and not u.charging and u.attacks_made == 0 and stepping:
                out.append(A.CHARGE)
            if self.can_fly(u) and not u.turned and not u.disabled and not u.flew and (
                    u.flying or u.attacks_made == 0):
                out.append(A.FLY)
            out += [A.DROP + k for k, part in enumerate(A.GEAR) if getattr(u, part)
                    and not (part == "standard" and u.flying and self.card(seat, u.standard).flight)]
            if not u.turned:
                out += FACES
            out += END_ONLY if u.paused else PAUSE_END
        elif p == PAUSE:  # the activation paused: what the main phase offers besides activations
            out += self._own_turn_abilities(seat)
            u = self.units[self.active]
            if u.attacks_made == 0 or u.has("Empowered"):  # the movement event (book: Player Turns)
                out += self._playable_cards(seat)
            out.append(A.PASS)
        elif p == CARD_TARGET:
            name = self.hands[seat][self.pending]
            out += [A.TARGET + rel[f] for f in self.card_targets(seat, self.card(seat, name), name)]
        elif p == FEAT_TARGET:
            u = self.units[self.performer]
            c = self.card(seat, self.hands[seat][self.pending])
            out += [A.TARGET + rel[f] for f in self.feat_targets(u, c)]
        elif p == QUICK:
            out += self._playable_cards(seat)
            out += [A.USE + rel[f] for f in self.use_targets(seat, self.window_victims())]
            out.append(A.PASS)
        elif p == DISCARD:
            out += [A.DISCARD + h for h in range(len(self.hands[seat]))]
        elif p == DEVIATE:
            ui, slot, f, _ = self.attack
            out += [A.ATTACK + slot * FIELDS + rel[g] for g in self.deviate_targets(self.units[ui], slot, f)]
            out.append(A.PASS)
        elif p == DRAFT:
            out += [A.SELECT + s for s in self.draftable(seat)]
            if self.draft_done_ok(seat):
                out.append(A.END_TURN)
        return out

    def _own_turn_abilities(self, seat: int) -> list[int]:
        """A source's own ability and reserve transfers, at any time of the own turn (main phase or an
        activation)."""
        rel = ORIENT[seat]
        return [A.USE + rel[f] for f in self.use_targets(seat, None)] + \
            [A.TRANSFER + rel[f] for f in self.transfer_targets(seat)]

    def breach_targets(self, u: Unit) -> list[int]:
        """Breach: an adjacent door or breachable wall, not breached and with no one in it (it turns u)."""
        if not u.has("Breach") or u.turned or u.disabled:
            return []
        return [f for f in NEIGHBOURS[u.pos] if (self.board.breachable[f] or self.board.door[f])
                and f not in self.breached and not self.blocked(f)]

    def _apply(self, action: int) -> None:
        seat = self.current_player
        p = self.phase
        self._patch = _PATCHES.get(action, NO_PATCH) if p in (MAIN, ACTIVE, PAUSE) else NO_PATCH
        self._patched = self.active
        to_abs = ORIENT[seat]
        if action == A.END_TURN:
            if p == DRAFT:
                self._finish_draft(seat)
            elif p == SETUP:
                self._finish_setup(seat)
            else:
                self._end_turn()
        elif A.SELECT <= action < A.FACE:
            if p == DRAFT:
                self._draft(seat, action - A.SELECT)
                return
            u = next(x for x in self.units if x.side == seat and x.slot == action - A.SELECT)
            self.active = self.units.index(u)
            u.steps, u.backward, u.charging, u.attacks_made = 0, False, False, 0
            u.flew = u.paused = False
            self.phase = ACTIVE
        elif action < A.ATTACK:
            self._step(self.units[self.active], to_abs[action])
        elif action < A.TARGET:
            slot, f = divmod(action - A.ATTACK, FIELDS)
            if p == DEVIATE:
                self._deviate(to_abs[f])
            else:
                self._declare_attack(self.units[self.active], slot, to_abs[f])
        elif action < A.USE:
            self._target(seat, to_abs[action - A.TARGET])
        elif action < A.TRANSFER:
            s = self.source_at(seat, to_abs[action - A.USE])
            if p == QUICK:
                if not self._window_use(seat, s):
                    self._after_window()
            else:
                a = s.spec.ability
                assert a is not None
                s.points -= a.cost
                self.log(f"player_{seat} uses {s.name}'s {a.name}")
                self._apply_source_ability(s)
        elif action < A.SELECT:
            self._transfer(to_abs[action - A.TRANSFER])
        elif action < A.END_ACT:
            u = self.units[self.active]
            u.facing = A.to_dir(action - A.FACE, seat)
            self._end_activation(u)
        elif action == A.END_ACT:
            self._end_activation(self.units[self.active])
        elif action == A.CHARGE:
            self.units[self.active].charging = True
        elif action == A.FLY:
            u = self.units[self.active]
            u.flew, u.paused = True, False
            self._fly(u)
        elif action == A.PAUSE:
            self.units[self.active].paused = True
            self.phase = PAUSE
        elif A.PLAY <= action < A.DISCARD:
            self._play(seat, action - A.PLAY)
        elif A.DISCARD <= action < A.DROP:
            self.hands[seat].pop(action - A.DISCARD)
            self.discards[seat] += 1
            if len(self.hands[seat]) <= self.game.config.hand_limit:
                self._next_turn()
        elif action < A.PASS:
            self._drop_gear(self.units[self.active], A.GEAR[action - A.DROP])
        elif action == A.PASS:
            if p == PAUSE:
                self.phase = ACTIVE
            elif p == DEVIATE:
                self.phase, self.attack = ACTIVE, []
                self._after_attack(self.units[self.active])
            elif not self._window_pass():
                self._after_window()

    # -- set-up and turns ----------------------------------------------------------------------
    def _finish_setup(self, side: int) -> None:
        """Book step 5: after paying for opening-hand cards, draw back up to 5."""
        while len(self.hands[side]) < self.game.config.hand_limit and self.decks[side]:
            self.hands[side].append(self.decks[side].pop())
        if side == self.first:
            self.setup_side = 1 - side
        else:
            self.turn = self.first
            self._start_turn()

    def _start_turn(self) -> None:
        """Book: Player Turns 1-2 (power event, draw event), after the start-of-turn abilities."""
        side = self.turn
        self.phase = MAIN
        for u in self.side_units(side):
            if u.void and u.life > 0:
                u.void -= 1
                if not u.void:
                    self._return_from_void(u)
            if not u.on_map:
                continue
            u.acted = False
            u.steps, u.backward, u.charging, u.attacks_made = 0, False, False, 0
            u.flew = u.paused = False
            if u.stun:
                u.stun -= 1
            if u.stasis:
                u.stasis -= 1
            if u.deprived:
                u.deprived -= 1
            if not u.disabled and not u.imprisoned:
                u.turned = False
            u.flying = self.can_fly(u) and not u.landed
            u.ethereal_off = False
            if (u.disarmed or u.disarmed2) and not any(e.side != side and e.pos >= 0 and chebyshev(e.pos, u.pos) == 1
                                                        for e in self.units):
                if u.disarmed:  # disengaged: the weapons come back
                    u.weapon, u.disarmed = u.disarmed, ""
                if u.disarmed2:
                    u.weapon2, u.disarmed2 = u.disarmed2, ""
            if u.burning:
                u.burning = False
                self.damage(u, combat.fire_damage(self.rng.roll(6)))
                if self.phase == OVER:
                    return
                if not u.on_map:
                    continue
            regen = u.param("Regenerate") + (self.card(side, u.standard).regenerate if u.standard else 0)
            u.life = min(u.ch.life, u.life + regen)
            for ability, keys in (("Recharge", ("electrical", "fuel", "alien")), ("Reload", ("ammunition",))):
                if not u.has(ability):
                    continue
                for k in keys:
                    if k in u.ch.reserves:
                        u.reserves[k] = min(u.ch.reserves[k], u.reserves[k] + u.param(ability))
                        break
            if u.has("Legacy"):
                self._legacy(u)
            if u.is_droid:
                if not self.controlled(u):
                    u.powered_down, u.turned = True, True
                elif u.powered_down and self.rng.roll(6) >= 4:
                    u.powered_down, u.turned = False, u.stun > 0
        for s in self.sources:
            if s.side == side and self.source_usable(s):
                s.points = min(s.max, s.points + 1)
        if self.decks[side] and len(self.hands[side]) < HAND_SLOTS:
            self.hands[side].append(self.decks[side].pop())

    def _return_from_void(self, u: Unit) -> None:
        """Back from the Void on the space it left, or the nearest free one (gap, ours)."""
        u.pos = self.nearest_free(u.void_from)
        u.void_from = -1
        self.log(f"{u.name} returns from the Void")

    def nearest_free(self, f: int) -> int:
        """f if no one and no wall is there, else the nearest such space (spaces apart, then field order)."""
        near = CHEBYSHEV[f]
        return min((g for g in range(FIELDS) if not self.board.solid(g, self.breached) and not self.blocked(g)),
                   key=lambda g: (near[g], g))

    def controlled(self, u: Unit) -> bool:
        """A robot droid is online only within range of a Minion Hub (every General; tripod tokens)."""
        for o in self.units:
            if o.side == u.side and o.on_map and not o.imprisoned and o is not u:
                hub = o.param("Minion Hub") or (5 if o.ch.rank == "General" else 0)
                if hub and chebyshev(o.pos, u.pos) <= hub:
                    return True
        return any(s.side == u.side and s.kind == "tripod" and s.pos >= 0 and s.life > 0
                   and chebyshev(s.pos, u.pos) <= s.range for s in self.sources)

    def _end_turn(self) -> None:
        if len(self.hands[self.turn]) > self.game.config.hand_limit:
            self.phase = DISCARD
        else:
            self._next_turn()

    def _next_turn(self) -> None:
        for u in self.side_units(self.turn):
            u.acted = False
        self.turn = 1 - self.turn
        if self.turn == self.first:
            self._end_round()
            if self.phase == OVER:
                return
            self.round += 1
        self._start_turn()

    def _end_round(self) -> None:
        sc = self.game.scenario
        if sc.objective == "hold":
            held = [sum(1 for u in self.side_units(s) if u.on_map and self.board.objective[u.pos]) for s in (0, 1)]
            if held[0] != held[1]:
                self.hold[0 if held[0] > held[1] else 1] += 1
            for s in (0, 1):
                if self.hold[s] >= sc.hold_points:
                    return self._finish(s)
        cap = self.game.config.rounds or sc.rounds
        if self.round >= cap:
            score = [(self.hold[s], self.harm_done(s)) for s in (0, 1)]
            self._finish(2 if score[0] == score[1] else 0 if score[0] > score[1] else 1)
        return None

    def harm_done(self, side: int) -> float:
        """Round-cap tiebreak (gap, ours): the enemy army's value destroyed, counting each character's
        value times the fraction of its life lost; fair between armies of different totals."""
        return round(sum(u.ch.value * (u.ch.life - u.life) / u.ch.life for u in self.side_units(1 - side)), 6)

    def _finish(self, winner: int) -> None:
        self.winner, self.phase, self.active = winner, OVER, -1
        self.stack, self.attack, self.strikes, self.lift = [], [], [], False
        self.responder, self.passes, self.pending, self.performer = -1, 0, -1, -1
        self.log("the game ends: " + ("a draw" if winner == 2 else f"player_{winner} wins"))

    def _check_victory(self) -> None:
        """A side with no character left (on the board or in the Void) loses; with `defeat_general`, one
        with no General left; with `rescue`, player_0 when the prisoner falls, player_1 when it escapes."""
        if self.phase in (OVER, DRAFT):
            return
        sc = self.game.scenario
        lost = []
        for s in (0, 1):
            army = [u for u in self.side_units(s) if u.life > 0 and not u.imprisoned]
            gone = not army
            if sc.objective == "defeat_general":
                gone = gone or not any(u.ch.rank == "General" for u in army)
            lost.append(gone)
        if sc.objective == "rescue":
            prisoner = self.units[-1]
            if prisoner.life == 0:
                lost[0] = True
            elif prisoner.on_map and not prisoner.imprisoned and self.board.escape[prisoner.pos]:
                lost[1] = True
        if lost[0] or lost[1]:
            self._finish(2 if lost[0] and lost[1] else 1 if lost[0] else 0)

    # -- activation ----------------------------------------------------------------------------
    def _step(self, u: Unit, b: int) -> None:
        a = u.pos
        if is_backward(u.facing, direction(a, b)):
            u.backward = True
        self.strikes = [self.units.index(e) for e in self.free_strikers(u, a, b)]
        u.pos = b
        u.steps += 1
        u.flew = u.paused = False
        self._pick_up(u, b)
        self._run_strikes()

    def _fly(self, u: Unit) -> None:
        """Land (declared grounded until it takes off again), or take off: engaged enemies strike first."""
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
            spec = self.strike_spec(e, u) if e.on_map and e.can_strike else None
            if spec is None:
                continue
            self.log(f"{e.name} gets a free strike")
            if self._open_window(self.units.index(e), e.ch.attacks.index(spec), u.pos, FREE_STRIKE):
                return  # the window's close goes on with the strikes
        self.strikes = []
        self._after_move(u)

    def _after_move(self, u: Unit) -> None:
        lift, self.lift = self.lift, False
        if self.phase == OVER:
            return
        if not u.on_map:
            self.phase, self.active = MAIN, -1
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

    def _after_window(self) -> None:
        """A window closed by a decision: after a free strike's, the move goes on (the next strike, or what
        follows the move)."""
        if self._last_mode == FREE_STRIKE and self.phase == ACTIVE:
            self._run_strikes()

    def _declare_attack(self, u: Unit, slot: int, f: int) -> None:
        """The attack is paid when declared; a window opens, except for a Sneak Attack ("Priority over any
        ability that can be played in response to the Attack")."""
        spec = combat.attack_spec(u, slot)
        assert spec is not None
        if spec.cost is not None:
            self.pay_ability(u, spec.cost.reserve, spec.cost.amount)
        ui = self.units.index(u)
        if "Sneak Attack" in spec.tags:
            self.attack = [ui, slot, f, ATTACK]
            self._resolve_trigger(ATTACK, "", 0, {})
        else:
            self._open_window(ui, slot, f, ATTACK)

    def _resolve_trigger(self, mode: int, feat: str, att_bonus: int, def_bonus: dict[int, int]) -> None:
        """What a closed window was about, with the stack's bonuses (def_bonus: unit -> defence)."""
        ui, slot, f, _ = self.attack
        self.attack = []
        self._last_mode = mode
        if mode == FEAT:
            self.phase = self._saved_phase
            side = self.units[ui].side
            target = self.unit_at(f)
            if feat and target is not None:
                self.resolve_feat(self.units[ui], self.card(side, feat), feat, target)
            return
        self.phase = ACTIVE
        u = self.units[ui]
        spec = combat.attack_spec(u, slot)
        assert spec is not None
        if mode == FREE_STRIKE:
            target = self.unit_at(f)
            combat.resolve(self, u, spec, slot, f, free_strike=True, att_bonus=att_bonus,
                           def_bonus=def_bonus.get(self.units.index(target), 0) if target else 0)
        elif mode == DEVIATED:
            target = self.unit_at(f)
            combat.resolve(self, u, spec, slot, f, att_bonus=att_bonus,
                           def_bonus=def_bonus.get(self.units.index(target), 0) if target else 0)
            self._after_attack(u)
        else:
            self._resolve_attack(u, slot, f, att_bonus, def_bonus)

    def _resolve_attack(self, u: Unit, slot: int, f: int, att_bonus: int, def_bonus: dict[int, int]) -> None:
        spec = combat.attack_spec(u, slot)
        assert spec is not None
        if u.pos != f:
            u.facing = direction(u.pos, f)
        if spec.kind == "melee" and u.flying and not (self.unit_at(f) and self.unit_at(f).flying):
            u.flying = False  # an innate flyer lands to strike a grounded character
        if u.has("Ethereal"):
            u.ethereal_off = True
        u.attacks_made += 1
        u.flew = u.paused = False
        if any(t in spec.tags for t in AREA_TAGS):
            if "Explosive" in spec.tags and self.board.breachable[f] and f not in self.breached:
                self.breached.add(f)
                self.log(f"{u.name} blasts a breach")
            for g, ring in self._attacked(u, spec, f):
                if self.phase == OVER or not u.on_map:
                    break
                x = self.unit_at(g)
                if x is None and not self.token_at(g):
                    continue  # (fallen to an earlier roll of this attack)
                bonus = def_bonus.get(self.units.index(x), 0) if x is not None else 0
                combat.resolve(self, u, spec, slot, g, ring=ring, att_bonus=att_bonus, def_bonus=bonus)
        else:
            x = self.unit_at(f)
            bonus = def_bonus.get(self.units.index(x), 0) if x is not None else 0
            dealt = combat.resolve(self, u, spec, slot, f, att_bonus=att_bonus, def_bonus=bonus)
            if dealt > 0 and self.phase != OVER and u.on_map and self.deviate_targets(u, slot, f):
                self.phase, self.attack = DEVIATE, [self.units.index(u), slot, f, ATTACK]
                return
        self._after_attack(u)

    def _after_attack(self, u: Unit) -> None:
        """After an attack: the activation goes on while the attacker can still attack (or is Empowered)."""
        if self.phase == OVER:
            return
        if not u.on_map:
            self.phase, self.active = MAIN, -1
            return
        if not u.has("Empowered") and not any(self.attack_targets(u, k) for k in range(A.ATTACK_SLOTS)):
            self._end_activation(u)

    # -- Deviate (glossary) ----------------------------------------------------------------------
    def deviate_targets(self, u: Unit, slot: int, hit: int) -> list[int]:
        """Glossary, Deviate: a ranged attack that dealt damage may make another attack, if it can be paid
        for, at another character up to # spaces from the one it hit, with line of sight from there.
        **Gap (ours):** it costs what the attack costs; any character but the attacker (the attacker's
        choice); the deviated attack does not deviate again."""
        spec = combat.attack_spec(u, slot)
        if spec is None or spec.kind != "ranged" or "Deviate" not in spec.tags:
            return []
        if not self.affordable_attack(u, spec):
            return []
        reach = spec.tags["Deviate"] or 0
        occ = self.occupied_map()
        near = CHEBYSHEV[hit]
        return sorted(
            x.pos for x in self.units
            if x is not u and x.on_map and x.pos != hit and not x.imprisoned and near[x.pos] <= reach
            and self.attackable(u, spec, x)
            and self.board.sight_clear(hit, x.pos, occ, self.breached, False, x.flying)
        )

    def _deviate(self, g: int) -> None:
        ui, slot, _, _ = self.attack
        u = self.units[ui]
        spec = combat.attack_spec(u, slot)
        assert spec is not None
        if spec.cost is not None:
            self.pay_ability(u, spec.cost.reserve, spec.cost.amount)
        self.log(f"{u.name}'s {spec.name} deviates to {self.unit_at(g).name}")
        self._open_window(ui, slot, g, DEVIATED)

    def _end_activation(self, u: Unit) -> None:
        if u.attacks_made and not u.has("Empowered"):
            u.turned = True  # attacking turns the character (at the end, so Dual Attack / Multi-Shot can go on)
        if u.charging and not u.has("Double Movement") and not u.has("Charge Attack"):
            u.turned = True
        u.acted = True
        if u.is_droid and not self.controlled(u):
            u.powered_down, u.turned = True, True
            self.log(f"{u.name} is out of control range and powers down")
        self.phase, self.active = MAIN, -1

    def _lose_flight(self, u: Unit) -> None:
        """Its flight equipment is gone: it is grounded, and one that was passing over a pawn or a token comes
        down on the nearest free space (gap, ours)."""
        shared = u.flying and u.pos >= 0 and self.over_another(u)
        u.flying = u.landed = False
        if shared:
            saved, u.pos = u.pos, -1
            u.pos = self.nearest_free(saved)

    def _drop_gear(self, u: Unit, part: str) -> None:
        """Book: an attached Equipment "can be discarded by simply removing it from the game, but ONLY on its
        controller's turn" (gap, ours: by the character's own activation)."""
        name = getattr(u, part)
        setattr(u, part, "")
        if part == "standard" and self.card(u.side, name).flight:
            u.landed = False
        self.log(f"{u.name} drops {name}")

    # -- cards ---------------------------------------------------------------------------------
    def _play(self, side: int, h: int) -> None:
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

    def _target(self, side: int, f: int) -> None:
        if self.phase == ACTIVE:
            u = self.units[self.active]
            if f in self.breach_targets(u):
                self.breached.add(f)
                self.log(f"{u.name} breaches a way through")
                u.turned = True
                self._end_activation(u)
            else:
                self._give(u, f)
            return
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
        specialist = c.feat == "energy" and any(u.has(s) for s in
                                                ("Electronic Specialist", "Mechanical Specialist", "Alien Specialist"))
        if specialist:
            ok = True
        else:
            a, b = self.rng.roll(6), self.rng.roll(6)
            r1, r2 = self.rng.roll(6), self.rng.roll(6)
            ok = (a, b) != (1, 1) and ((a, b) == (6, 6) or a + b + fam(u) > r1 + r2 + fam(target))
        self.log(f"{u.name} performs {name} on {target.name}: {'success' if ok else 'fails'}")
        if ok:
            if c.stun:
                target.stun, target.turned = 2, True
            if c.damage:
                self.damage(target, c.damage)
            if c.void and target.on_map:
                self._send_to_void(target, c.void)
        return ok

    def _send_to_void(self, u: Unit, turns: int) -> None:
        """Off the board, alive, for `turns` of its controller's turn starts; the crystals it bears follow it
        and neither generate nor pay there (book: Characters Equipped with Crystals that are sent to the
        Void)."""
        u.void, u.void_from, u.pos = turns, u.pos, -1
        self.log(f"{u.name} is sent to the Void")

    # -- saving --------------------------------------------------------------------------------
    def _to_dict(self) -> dict[str, Any]:
        return {
            "units": [u.to_dict() for u in self.units],
            "sources": [s.to_dict() for s in self.sources],
            "hands": [list(h) for h in self.hands],
            "decks": [list(d) for d in self.decks],
            "discards": list(self.discards),
            "breached": sorted(self.breached),
            "phase": self.phase, "turn": self.turn, "round": self.round, "first": self.first,
            "setup_side": self.setup_side, "active": self.active, "pending": self.pending,
            "performer": self.performer, "stack": [list(x) for x in self.stack], "attack": list(self.attack),
            "responder": self.responder, "passes": self.passes, "strikes": list(self.strikes), "lift": self.lift,
            "hold": list(self.hold), "winner": self.winner, "saved_phase": self._saved_phase,
            "events": list(self.events),
        }

    def _from_dict(self, d: dict[str, Any]) -> None:
        self.units = [Unit.from_dict(x) for x in d["units"]]
        self.sources = [Source.from_dict(x) for x in d["sources"]]
        self.hands = [list(map(str, h)) for h in d["hands"]]
        self.decks = [list(map(str, x)) for x in d["decks"]]
        self.discards = [int(x) for x in d["discards"]]
        self.breached = {int(x) for x in d["breached"]}
        for k in ("phase", "turn", "round", "first", "setup_side", "active", "pending", "performer",
                  "responder", "winner", "passes"):
            setattr(self, k, int(d[k]))
        self.stack = [[int(s), str(n), int(i)] for s, n, i in d["stack"]]
        self.attack = [int(x) for x in d["attack"]]
        self.strikes = [int(x) for x in d["strikes"]]
        self.lift = bool(d["lift"])
        self.hold = [int(x) for x in d["hold"]]
        self._saved_phase = int(d["saved_phase"])
        self._last_view, self._patch = None, NO_PATCH
        self.events = list(map(str, d["events"]))

    _last_mode = ATTACK
    """The mode of the last window that closed, read within the same decision (not saved)."""


    def _check_consistency(self) -> None:
        from ultimata.envs.ultra_war.consistency import check

        check(self)

    # -- views ---------------------------------------------------------------------------------
    def clone(self) -> UltraWarState:
        """A copy that shares what never changes (the game, its map and content) and copies the rest: much
        cheaper than the engine's deep copy, which copied the map and the content with it."""
        other = copy.copy(self)
        other.rng = Rng.from_state_dict(self.rng.state_dict())
        other.units = [u.copy() for u in self.units]
        other.sources = [s.copy() for s in self.sources]
        other.hands, other.decks = [list(h) for h in self.hands], [list(d) for d in self.decks]
        other.discards, other.breached, other.hold = list(self.discards), set(self.breached), list(self.hold)
        other.stack, other.attack = [list(x) for x in self.stack], list(self.attack)
        other.strikes, other.events = list(self.strikes), list(self.events)
        other._look = None
        other._raw = list(self._raw)
        other._last_view = None
        return other

    def sample_consistent(self, viewer: int, rng: Rng) -> UltraWarState:
        """For search: the other side's hand re-drawn from its hand and deck (keeping the hand's
        size), both decks reshuffled (nobody knows a deck's order), future dice re-seeded."""
        other = self.clone()
        other.rng = Rng(rng.below(2**62))
        foe = 1 - viewer
        pool = sorted(self.hands[foe] + self.decks[foe])  # sorted: the draw depends on what, not where
        pool = rng.shuffled(pool)
        size = len(self.hands[foe])
        other.hands[foe], other.decks[foe] = pool[:size], pool[size:]
        other.decks[viewer] = rng.shuffled(sorted(self.decks[viewer]))
        other._mask = None
        return other

    def observation(self, player: int) -> np.ndarray:
        """Half of random play's decisions only start, turn or end an activation, or pick a card to
        play: then the last observation is patched instead of made anew."""
        last = self._last_view
        if last is not None and self._patch and last[0] == player and last[1] == self.decisions - 1:
            obs = after_choice(self, player, last[2], self._patched if self._patch == PATCH_PAWN else -1)
        else:
            obs = observe(self, player)
        self._last_view = (player, self.decisions, obs.copy())
        return obs

    def action_to_string(self, action: int) -> str:
        seat = max(self.current_player, 0)
        hand = self.hands[seat]
        if A.PLAY <= action < A.DROP:  # name the card: the player sees its own hand
            h = action - (A.PLAY if action < A.DISCARD else A.DISCARD)
            if h < len(hand):
                verb = "play" if action < A.DISCARD else "discard"
                return f"{verb} {hand[h]} (hand card {h})"
        if self.phase == DRAFT and A.SELECT <= action < A.FACE and action - A.SELECT < len(self.roster(seat)):
            return f"draft {self.roster(seat)[action - A.SELECT]}"
        return A.describe(action, seat)

    def narrate(self, action: int) -> str:
        """A played card is shown to the table; a discarded one is not."""
        if A.DISCARD <= action < A.DROP:
            return f"player_{self.current_player} discards a card"
        return super().narrate(action)

    def render_text(self, viewer: int | None = None) -> str:
        from ultimata.envs.ultra_war.text import render

        return render(self, viewer)


class _Lookups:
    """What one legal-action computation reads over and over, each part built when first asked for
    (nothing moves while legal actions are computed)."""

    __slots__ = ("state", "_occupied", "_units", "_tokens", "pools", "foes", "closest", "feat_targets", "_usable",
                 "_mine", "openings", "_marks")

    def __init__(self, state: UltraWarState) -> None:
        self.state = state
        self._occupied: dict[int, bool] | None = None
        self._units: dict[int, Unit] | None = None
        self._tokens: dict[int, Source] | None = None
        self.pools: list[int] | None = None
        self.foes: dict[int, list[Unit]] = {}
        self.closest: dict[int, int] = {}
        self.feat_targets: dict[tuple[int, int, int], list[int]] = {}
        self._usable: list[Source] | None = None
        self._mine: dict[int, list[Unit]] = {}
        self.openings: dict[tuple[int, str], bool] = {}
        self._marks: dict[int, list[int]] = {}

    def marks(self, side: int) -> list[int]:
        """state.marks(side)."""
        if side not in self._marks:
            self._marks[side] = self.state.marks(side)
        return self._marks[side]

    def usable(self) -> list[Source]:
        if self._usable is None:
            self._usable = self.state.usable_sources()
        return self._usable

    def mine(self, side: int) -> list[Unit]:
        """state.able(side)."""
        if side not in self._mine:
            self._mine[side] = self.state.able(side)
        return self._mine[side]

    def occupied(self) -> dict[int, bool]:
        if self._occupied is None:
            self._occupied = self.state.occupied_map()
        return self._occupied

    def units(self) -> dict[int, Unit]:
        """unit_at for every field: the first character listed there, a passing flyer only if alone."""
        if self._units is None:
            st = self.state
            act = st.units[st.active] if st.active >= 0 else None
            self._units = {u.pos: u for u in reversed(st.units) if u is not act and u.pos >= 0}
            if act is not None and act.pos >= 0 and act.pos not in self._units:
                self._units[act.pos] = act
        return self._units

    def tokens(self) -> dict[int, Source]:
        """token_at for every field."""
        if self._tokens is None:
            self._tokens = {s.pos: s for s in reversed(self.state.sources) if s.token and s.life > 0}
        return self._tokens
