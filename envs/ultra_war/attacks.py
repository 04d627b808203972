"""Attacks (book: How Battle Works, Ranged Attacks, Line of Sight, Engagement; glossary: the attack tags,
Stealth, Attack Support, Morale, Affiliate Mod, Dual Attack, Multi-Shot, Deviate): who may attack what with
which attack, the fields an attack rolls against, declaring it (paid then; its quick window opens), what
follows it, deviating, and taking damage; and each attack roll, with all it does to the position (the
dice, damage, criticals, the attack tags' effects, Strike Back: `roll_attack`).

The rules change the position; combat.py only says what the dice mean (pure functions: dice in, result
out). The roll lives here, not as effects combat.py would return for the state to apply, because its
consequences draw more dice and depend on each other in the book's order: as rule methods each is said
once, in that order."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ultimata.envs.ultra_war import actions as A
from ultimata.envs.ultra_war import combat
from ultimata.envs.ultra_war.abilities import (
    ACID,
    AFFILIATE_MOD,
    AREA_TAGS,
    ATTACK_SUPPORT,
    DEVIATE_TAG,
    DIRECTED,
    DISARM,
    DUAL_ATTACK,
    EMPOWERED,
    EXPLOSIVE,
    FIRE,
    FRONT_ARCH,
    KAMIKAZE,
    LINEAR,
    MAGICAL_ATTACK,
    MAGICAL_FIRE,
    MORALE,
    MOVEMENT_DEPRIVATION,
    MULTI_SHOT,
    POWER_DOWN,
    RETREAT,
    SNEAK_ATTACK,
    STEALTH,
    STEALTH_REVEAL,
    STRIKE_BACK,
    STUN,
)
from ultimata.envs.ultra_war.geometry import (
    AHEAD,
    CHEBYSHEV,
    COL,
    FIELDS,
    MANHATTAN,
    NEIGHBOURS,
    ROW,
    STEP,
    chebyshev,
    direction,
    front,
    manhattan,
)
from ultimata.envs.ultra_war.memo import memoized
from ultimata.envs.ultra_war.phases import ACTIVE, DEVIATE, MAIN, OVER
from ultimata.envs.ultra_war.units import Source, Unit
from ultimata.envs.ultra_war.windows import ATTACK, DEVIATED

if TYPE_CHECKING:
    from ultimata.envs.ultra_war.state import UltraWarState as _Base
else:
    _Base = object



class AttackRules(_Base):
    """Attacks, a part of UltraWarState (state.py says how the rule modules are composed)."""

    def can_attack(self, u: Unit) -> bool:
        if u.disabled or u.imprisoned or u.turned:
            return False
        if self.plain_charge(u):
            return False
        return u.attacks_made < self.attack_limit(u)

    def attack_limit(self, u: Unit, spec: Any = None) -> int:
        """Attacks an activation: 1, 2 with Dual Attack, plus Multi-Shot's extra (paid) ranged attacks."""
        limit = 2 if u.has(DUAL_ATTACK) else 1
        return limit + (u.param(MULTI_SHOT) if spec is None or spec.kind == "ranged" else 0)

    def can_strike(self, u: Unit) -> bool:
        """May make an attack out of its own activation (a free strike, a critical's die back, Strike Back):
        never stunned, in stasis, powered down (book: they "disengage Characters") or imprisoned; turned, as
        the rule option `turned_characters_strike` says (the book pulls both ways: docs, Engagement)."""
        if u.disabled or u.imprisoned:
            return False
        return not u.turned or self.game.config.turned_characters_strike

    def strike_slot(self, u: Unit, target: Unit) -> int | None:
        """The attack slot `u` strikes `target` with out of its own activation (a free strike, Strike Back), or
        None: its equipped melee weapon (slot 2, or a Dual Wielder's second weapon), else its base melee attack
        (its first own attack that uses its Offense: base Offense "is used in Melee combat if no Weapon or
        modifiers are in effect"). A weapon in effect that cannot hit the target leaves no strike."""
        weapons = [k for k in (2, 1) if (k == 2 and u.weapon) or combat.is_second_weapon(u, k)]
        melee = [k for k in weapons if (s := combat.attack_spec(u, k)) is not None and s.kind == "melee"]
        if melee:
            return next((k for k in melee if self.attackable(u, combat.attack_spec(u, k), target)), None)
        for k, spec in enumerate(u.ch.attacks):
            if spec.kind == "melee" and spec.attack is None and spec.cost is None:
                return k if self.attackable(u, spec, target) else None
        return None

    def free_after_attacking(self, u: Unit) -> bool:
        """Whether the attacks `u` made this activation leave it free to move, play cards and perform feats,
        and unturned when it ends: none yet, or Empowered ("Movement and Feats may be played after an
        Empowered Character attacks")."""
        return u.attacks_made == 0 or u.has(EMPOWERED)

    def affordable_attack(self, u: Unit, spec: Any) -> bool:
        return spec.cost is None or self.can_pay_ability(u, spec.cost.reserve, spec.cost.amount)

    def attackable(self, att: Unit, spec: Any, target: Unit) -> bool:
        """Flying targets only by ranged or flying attackers; Ethereal ones only by magical attacks; one with
        Stealth Reveal never by a Sneak Attack."""
        if target.flying and spec.kind == "melee" and not att.flying:
            return False
        if combat.sneak_refused(spec, target):
            return False
        magical = MAGICAL_ATTACK in spec.tags or MAGICAL_FIRE in spec.tags
        return not (self.ethereal(target) and not magical)

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
        explosive = EXPLOSIVE in spec.tags
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
        if LINEAR in spec.tags:
            return target is not None and f in self.line_fields(u.pos, f, spec.range)
        if manhattan(u.pos, f) > spec.range:
            return False
        if explosive and target is None and token is None and self.board.solid(f, set()) and not (
                self.board.breachable[f] and f not in self.breached):
            return False
        return DIRECTED in spec.tags or self.sees(u, f, target is not None and target.flying)

    def faces(self, u: Unit, f: int) -> bool:
        """Whether f lies ahead of u or beside it (its front arc and sides, extended to every range). The
        glossary draws a sight line "between the forward facing base piece" and the selection: **gap
        (ours)**, ranged attacks (Directed and Linear ones too) and feats select only there."""
        return AHEAD[u.facing][u.pos][f] == 1

    def sees(self, a: Unit, b_pos: int, target_flies: bool, occ: dict[int, bool] | None = None) -> bool:
        if occ is None:
            occ = self.occupied_map()
        return self.board.sight_clear(a.pos, b_pos, occ,
                                      self.breached, a.flying, target_flies)

    def stealthed(self, u: Unit) -> bool:
        """Stealth, unless a Stealth Reveal character's area (within its # spaces) covers it (glossary:
        Stealth Reveal "removes the Stealth ... ability from any Character in affected area")."""
        if not u.has(STEALTH):
            return False
        return not any(o.pos >= 0 and o.has(STEALTH_REVEAL) and CHEBYSHEV[o.pos][u.pos] <= o.param(STEALTH_REVEAL)
                       for o in self.units)

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
        if EXPLOSIVE in spec.tags:
            dist = MANHATTAN[u.pos]
            cands = [f for f in range(FIELDS) if dist[f] <= spec.range]
        elif spec.kind == "melee":  # only a character or a token can be hit (target_ok)
            occupied = self.occupied_map()
            cands = [f for f in NEIGHBOURS[u.pos] if f in occupied]
        else:
            cands = self.marks(u.side)
            if LINEAR not in spec.tags:  # target_ok refuses whatever is out of range
                dist, reach = MANHATTAN[u.pos], spec.range
                cands = [f for f in cands if dist[f] <= reach]
        return [f for f in cands if self.aim_ok(u, spec, f)]

    @memoized
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
        if EXPLOSIVE in spec.tags:
            out = []
            for g, ring in combat.explosion_rings(f, spec.tags[EXPLOSIVE] or 0):
                if g != u.pos and (self.unit_at(g) or self.token_at(g)):
                    target = self.unit_at(g)
                    if target is None or self.attackable(u, spec, target):
                        out.append((g, ring))
            return out
        if LINEAR in spec.tags:
            return [(g, 0) for g in self.line_fields(u.pos, f, spec.range)
                    if (x := self.unit_at(g)) is not None and self.attackable(u, spec, x)]
        if FRONT_ARCH in spec.tags:
            return [(g, 0) for g in sorted(front(u.pos, direction(u.pos, f)))
                    if (x := self.unit_at(g)) is not None and x.side != u.side and self.attackable(u, spec, x)
                    and not self.board.level_line(u.pos, g)]
        return [(f, 0)]

    def affiliate_mod(self, u: Unit) -> int:
        g = self.active_general(u.side)
        if g is None or AFFILIATE_MOD not in g.ch.general_ability or g.ch.faction != u.ch.faction:
            return 0
        return g.ch.general_ability[AFFILIATE_MOD] or 0

    def morale(self, side: int) -> Unit | None:
        """The side's active general if its ability is Morale."""
        g = self.active_general(side)
        return g if g is not None and MORALE in g.ch.general_ability else None

    def supports(self, u: Unit) -> bool:
        """Attack Support: the icon, or Morale's gift to a character engaged to an opponent the Morale
        character is engaged to (glossary, Morale; gap, ours: always on, and always Attack Support)."""
        if u.has(ATTACK_SUPPORT):
            return True
        m = self.morale(u.side)
        if m is None or u.pos < 0:
            return False
        near, mine = CHEBYSHEV[u.pos], CHEBYSHEV[m.pos]
        return any(e.pos >= 0 and e.side != u.side and near[e.pos] == 1 and mine[e.pos] == 1
                   for e in self.units)

    def _declare_attack(self, u: Unit, slot: int, f: int) -> None:
        """The attack is paid when declared; a window opens, except for a Sneak Attack ("Priority over any
        ability that can be played in response to the Attack")."""
        spec = combat.attack_spec(u, slot)
        assert spec is not None
        if spec.cost is not None:
            self.pay_ability(u, spec.cost.reserve, spec.cost.amount)
        ui = self.units.index(u)
        if SNEAK_ATTACK in spec.tags:
            self.attack = [ui, slot, f, ATTACK]
            self._resolve_trigger(ATTACK, "", 0, {})
        else:
            self._open_window(ui, slot, f, ATTACK)

    def _resolve_attack(self, u: Unit, slot: int, f: int, att_bonus: int, def_bonus: dict[int, int]) -> None:
        spec = combat.attack_spec(u, slot)
        assert spec is not None
        if u.pos != f:
            u.facing = direction(u.pos, f)
        if spec.kind == "melee" and u.flying and not (self.unit_at(f) and self.unit_at(f).flying):
            u.flying = False  # an innate flyer lands to strike a grounded character
        if self.ethereal(u):
            u.ethereal_off = True
        u.attacks_made += 1
        u.flew = u.paused = False
        if any(t in spec.tags for t in AREA_TAGS):
            if EXPLOSIVE in spec.tags and self.board.breachable[f] and f not in self.breached:
                self.breached.add(f)
                self.log(f"{u.name} blasts a breach")
            for g, ring in self._attacked(u, spec, f):  # every target is rolled against (Kamikaze comes after)
                if self.phase == OVER or not u.on_map:  # (ours: an attacker felled by a critical's die back
                    break  # mid-attack makes no more rolls: the rolls read where it stands)
                x = self.unit_at(g)
                if x is None and not self.token_at(g):
                    continue  # (fallen to an earlier roll of this attack)
                bonus = def_bonus.get(self.units.index(x), 0) if x is not None else 0
                self.roll_attack(u, spec, slot, g, ring=ring, att_bonus=att_bonus, def_bonus=bonus)
            self.spend_kamikaze(u, spec)
        else:
            x = self.unit_at(f)
            bonus = def_bonus.get(self.units.index(x), 0) if x is not None else 0
            dealt = self.roll_attack(u, spec, slot, f, att_bonus=att_bonus, def_bonus=bonus)
            self.spend_kamikaze(u, spec)
            if dealt > 0 and self.phase != OVER and u.on_map and self.deviate_targets(u, slot, f):
                self.phase, self.attack = DEVIATE, [self.units.index(u), slot, f, ATTACK]
                return
        self._after_attack(u)

    def spend_kamikaze(self, u: Unit, spec: Any) -> None:
        """Glossary, Kamikaze: the character "is considered defeated, automatically after that Ability or Attack
        is made": after the whole attack (every roll of an area attack; an Explosive attack at an empty blast is
        an attack made too, so its thrower is spent as well)."""
        if KAMIKAZE in spec.tags and u.on_map and self.phase != OVER:
            self.log(f"{u.name} is spent (Kamikaze)")
            self.defeat(u)

    def _after_attack(self, u: Unit) -> None:
        """After an attack: the activation goes on while the attacker can still attack (or is Empowered)."""
        if self.phase == OVER:
            return
        if not u.on_map:
            self.phase, self.active, self.disengaged = MAIN, -1, []
            return
        if not self.free_after_attacking(u) and not any(self.attack_targets(u, k) for k in range(A.ATTACK_SLOTS)):
            self.log(f"{u.name}'s activation ends: its attack turns it, facing its target")
            self._end_activation(u)

    def deviate_targets(self, u: Unit, slot: int, hit: int) -> list[int]:
        """Glossary, Deviate: a ranged attack that dealt damage may make another attack, if it can be paid
        for, at another character up to # spaces from the one it hit, with line of sight from there.
        "Up to # spaces" is counted as the book counts range ("normal movement from space to space (using
        connected sides of grid squares)": orthogonal steps). **Gap (ours):** "in a single direction of
        Attacker's choice" is read as one attack at one character the attacker chooses, anywhere within
        that count (not along a line); it costs what the attack costs; any character but the attacker; the
        deviated attack does not deviate again."""
        spec = combat.attack_spec(u, slot)
        if spec is None or spec.kind != "ranged" or DEVIATE_TAG not in spec.tags:
            return []
        if not self.affordable_attack(u, spec):
            return []
        reach = spec.tags[DEVIATE_TAG] or 0
        occ = self.occupied_map()
        near = MANHATTAN[hit]
        return sorted(
            x.pos for x in self.units
            if x is not u and x.on_map and x.pos != hit and not x.imprisoned and near[x.pos] <= reach
            and self.attackable(u, spec, x)
            and self.board.sight_clear(hit, x.pos, occ, self.breached, False, x.flying)
        )

    def _no_deviation(self) -> None:
        """PASS in the `deviate` phase: the attack does not deviate; the activation goes on."""
        self.phase, self.attack = ACTIVE, []
        self._after_attack(self.units[self.active])

    def _deviate(self, g: int) -> None:
        ui, slot, _, _ = self.attack
        u = self.units[ui]
        spec = combat.attack_spec(u, slot)
        assert spec is not None
        if spec.cost is not None:
            self.pay_ability(u, spec.cost.reserve, spec.cost.amount)
        self.log(f"{u.name}'s {spec.name} deviates to {self.unit_at(g).name}")
        self._open_window(ui, slot, g, DEVIATED)

    # -- one attack roll: the dice, the damage and what the attack does (combat.py says what the dice mean) --
    def roll_pair(self, dice: int) -> tuple[int, list[int]]:
        """Roll `dice` d6: their sum and the dice that count (with three, the best two: combat.kept_dice)."""
        rolled = [self.rng.roll(6) for _ in range(dice)]
        return combat.kept_dice(rolled, self.game.config.initiative_mode == "best_two")

    def roll_attack(self, u: Unit, spec: Any, slot: int, target_pos: int, free_strike: bool = False, ring: int = 0,
                    att_bonus: int = 0, def_bonus: int = 0, counter: bool = False) -> int:
        """One attack roll against whatever stands on `target_pos`; returns the damage dealt to it."""
        defender = self.unit_at(target_pos)
        token = self.token_at(target_pos) if defender is None else None
        if defender is None and token is None:
            return 0
        if self.ethereal(u):  # (a free strike and Strike Back are attacks too: "a free Attack")
            u.ethereal_off = True
        adice = combat.attack_dice(u)
        a_total, a_dice = self.roll_pair(adice)
        score = combat.attack_score(self, u, spec, target_pos, defender, free_strike, ring) + att_bonus
        if defender is not None:
            ddice = combat.defense_dice(u, spec, defender)
            d_total, d_dice = self.roll_pair(ddice)
            dscore = d_total + combat.defence_number(self, u, spec, defender, def_bonus)
        else:
            ddice = 2
            d_total, d_dice = self.roll_pair(ddice)
            dscore = d_total + token.defense + def_bonus
        a_crit = combat.critical_strike(u, slot, a_dice)
        total = a_total + score
        target = defender.name if defender is not None else f"the {token.name}"
        notes = combat.attack_notes(self, u, spec, defender, free_strike, adice, ring)
        self.log(f"{u.name} attacks {target} with {spec.name}: rolls {combat.dice_shown(a_dice, adice)} + attack "
                 f"{score} = {total} against {target}'s {combat.dice_shown(d_dice, ddice)} + defence "
                 f"{dscore - d_total} = {dscore}" + (f" ({'; '.join(notes)})" if notes else ""))
        damage = 0
        exchange = combat.doubles(d_dice, 6) and a_crit
        if exchange:  # "both Characters receive a bonus roll of one die of damage against each other": at once,
            self._victory_held = True  # so both results stand before victory is decided (both Generals: a draw)
        if combat.doubles(d_dice, 6):
            if a_crit:
                damage = self.rng.roll(6)
                self.log(f"both roll double six (critical strikes): {target} takes a d6, {damage}, and deals one back")
            else:
                self.log(f"{target} rolls double six (a critical): the attack fails")
            if defender is not None and self.can_strike(defender) and combat.can_reach(self, defender, u):
                back_damage = self.rng.roll(6)
                self.log(f"{defender.name}'s critical deals a d6 back: {back_damage}")
                self.damage(u, back_damage, f"{defender.name}'s critical")
        elif combat.doubles(a_dice, 1):
            self.log(f"{u.name} rolls double one: a critical miss, no damage")
        else:
            damage = max(0, total - dscore)
            if a_crit:
                extra = self.rng.roll(6)
                why = ("double six" if combat.doubles(a_dice, 6)
                       else f"{a_dice[0] + a_dice[1]} with a weapon (Weapon Specialist)")
                self.log(f"{u.name}'s {why} is a critical strike: {damage} + a d6 of {extra} = {damage + extra} damage")
                damage += extra
            elif damage == 0:
                self.log(f"no damage: {target}'s defence {dscore} is as high as the attack {total}")
        if damage > 0:
            if token is not None:
                self.damage_token(token, damage)
            else:
                self._take_hit(u, spec, defender, damage)
        if exchange:
            del self._victory_held
            self._check_victory()
        if (defender is not None and defender.has(STRIKE_BACK) and not counter and SNEAK_ATTACK not in spec.tags
                and defender.on_map and u.on_map and self.phase != OVER and self.can_strike(defender)
                and chebyshev(defender.pos, u.pos) == 1):
            back_slot = self.strike_slot(defender, u)
            if back_slot is not None:
                self.log(f"{defender.name} strikes back")
                self.roll_attack(defender, combat.attack_spec(defender, back_slot), back_slot, u.pos, counter=True)
        return damage

    def _take_hit(self, u: Unit, spec: Any, defender: Unit, damage: int) -> None:
        """A roll that got through: a Stun or Power Down attack does that instead of damage; otherwise the
        damage, then, on a defender still standing, the attack's tags (Fire, Movement Deprivation, Disarm,
        Retreat, Acid)."""
        tags = spec.tags
        if STUN in tags:
            defender.stun, defender.turned = combat.STUN_TURN_STARTS, True
            self.log(f"{defender.name} is stunned")
            return
        if POWER_DOWN in tags and defender.is_droid:
            defender.powered_down, defender.turned = True, True
            self.log(f"{defender.name} is powered down")
            return
        self.damage(defender, damage, f"{u.name}'s {spec.name}")
        if not defender.on_map:
            return
        if FIRE in tags or MAGICAL_FIRE in tags:
            defender.burning = True
        if MOVEMENT_DEPRIVATION in tags:
            defender.deprived = 2
        near = u.on_map and chebyshev(u.pos, defender.pos) == 1  # (u may have fallen to a critical's die back)
        if DISARM in tags and (defender.weapon or defender.weapon2) and near:
            # "removes any Weapon Equipment": both weapons of a Dual Wield character
            defender.disarmed, defender.weapon = defender.weapon or defender.disarmed, ""
            defender.disarmed2, defender.weapon2 = defender.weapon2 or defender.disarmed2, ""
            self.log(f"{defender.name} is disarmed")
        if RETREAT in tags:
            self._retreat(defender)
        if ACID in tags:
            for part in ("weapon", "weapon2", "armor", "standard"):
                name = getattr(defender, part)
                if name and self.rng.roll(6) >= 4:
                    self.log(f"acid destroys {defender.name}'s {name}")
                    setattr(defender, part, "")
                    if part == "standard" and self.card(defender.side, name).flight and not self.can_fly(defender):
                        self._lose_flight(defender)

    def _retreat(self, u: Unit) -> None:
        """Retreat: moved its full movement straight back (gap, ours: the book lets its controller steer it
        within the back arc; straight back keeps this a rule, not a decision), stopping where it cannot enter."""
        d = (u.facing + 4) % 8
        for _ in range(u.ch.movement):
            b = STEP[u.pos][d]
            if b < 0 or not self.can_enter(u, u.pos, b):
                break
            u.pos = b
        self.log(f"{u.name} retreats")

    # -- taking damage -------------------------------------------------------------------------
    def damage(self, u: Unit, amount: int, cause: str) -> None:
        """`amount` damage to `u`, logged with its cause ("Vegron's Warblade", "burning", "Holy Fire")."""
        if amount <= 0 or not u.on_map:
            return
        u.life = max(0, u.life - amount)
        self.log(f"{u.name} takes {amount} damage from {cause} ({u.life} left)")
        if u.life == 0:
            self.defeat(u)

    def damage_token(self, s: Source, amount: int) -> None:
        s.life = max(0, s.life - amount)
        self.log(f"the {s.name} takes {amount} damage ({s.life} left)")
        if s.life == 0:  # it generates no more; its stored points stay, unless `destroyed_source_points: lost`
            s.pos = -1
            if self.game.config.destroyed_source_points == "lost":
                s.points = 0
            self.log(f"the {s.name} is destroyed: it generates no more power")

    def defeat(self, u: Unit) -> None:
        """The character leaves the board; the crystals it bears drop where it fell, losing their points."""
        self.log(f"{u.name} is defeated")
        self._drop_crystals(u)
        u.pos, u.life, u.turned = -1, 0, False
        self._check_victory()
