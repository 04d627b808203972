"""Attack resolution (book: How Battle Works, Critical Rolls, Ranged Attacks, Back Stab, glossary).

Dice order, so tests can force them: attacker's dice, defender's dice, then critical-strike d6s
(attacker's first), then effect rolls (Acid: one d6 per equipment)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.ultra_war.abilities import (
    ACID,
    ARMOR_PIERCE,
    ATTACK_BONUS,
    ATTACK_INITIATIVE,
    BACK_STAB_IMMUNITY,
    DEFENSE_INITIATIVE,
    DEFENSE_SUPPORT,
    DIRECTED,
    DISARM,
    FIRE,
    INITIATIVE,
    KAMIKAZE,
    MAGICAL_FIRE,
    MARTIAL,
    MOVEMENT_DEPRIVATION,
    POWER_DOWN,
    RETREAT,
    SNEAK_ATTACK,
    STEALTH_REVEAL,
    STRIKE_BACK,
    STUN,
    TARGETING,
    WEAPON_SPECIALIST,
)
from ultimata.envs.ultra_war.content import AttackSpec, content
from ultimata.envs.ultra_war.geometry import FIELDS, STEP, back, chebyshev, direction, manhattan
from ultimata.envs.ultra_war.phases import OVER

if TYPE_CHECKING:
    from ultimata.envs.ultra_war.state import UltraWarState
    from ultimata.envs.ultra_war.units import Source, Unit


STUN_TURN_STARTS = 2
"""A stun lasts "one full round": it counts down at every turn start, both players', so it wears off when the
turn of the side that stunned comes round again (turns._start_turn)."""


def roll_pair(state: UltraWarState, dice: int) -> tuple[int, list[int]]:
    """Roll `dice` d6; with three dice (initiative) the best two count (Gap (ours): initiative_mode)."""
    rolled = sorted((state.rng.roll(6) for _ in range(dice)), reverse=True)
    kept = rolled[:2] if state.game.config.initiative_mode == "best_two" else rolled
    return sum(kept), kept


def is_weapon_attack(u: Unit, slot: int) -> bool:
    """An equipped weapon card (glossary, Weapon Specialist: "Alternate Attacks are not considered Equipped
    Weapons": a character's own attacks are its alternate forms of attack)."""
    return slot == 2 or is_second_weapon(u, slot)


def attack_spec(u: Unit, slot: int) -> AttackSpec | None:
    """Slots 0, 1: the character's own attacks; 2: its equipped weapon; with Dual Wield (one own attack,
    checked at load) slot 1 is its second weapon."""
    if slot < len(u.ch.attacks):
        return u.ch.attacks[slot]
    if slot == 2 and u.weapon:
        return content().decks[u.ch.faction][u.weapon].attack
    if slot == 1 and u.weapon2:
        return content().decks[u.ch.faction][u.weapon2].attack
    return None


def is_second_weapon(u: Unit, slot: int) -> bool:
    return slot == 1 and bool(u.weapon2) and len(u.ch.attacks) == 1


def base_offense(state: UltraWarState, u: Unit) -> int:
    ups = sum(content().decks[u.ch.faction][c].offense for c in u.upgrades)
    return u.ch.offense + state.affiliate_mod(u) + u.enh_off + ups


def base_defense(state: UltraWarState, u: Unit, armor_pierce: bool) -> int:
    """The defence number the dice are added to. Stasis: "a reduced Defense of 0", all of it. Powered Down:
    "its Base Defense points are reduce[d] to 0": the card's printed number and the Affiliate Mod (which
    modifies "the Characters BASE STATS"); armour, upgrades and enhancements still count."""
    if u.stasis:
        return 0
    deck = content().decks[u.ch.faction]
    armor = deck[u.armor].defense if u.armor and not armor_pierce else 0
    ups = sum(deck[c].defense for c in u.upgrades)
    base = 0 if u.powered_down else u.ch.defense + state.affiliate_mod(u)
    return base + u.enh_def + armor + ups


def attack_score(state: UltraWarState, u: Unit, spec: AttackSpec, target_pos: int, defender: Unit | None,
                 free_strike: bool = False, ring: int = 0) -> int:
    """The attack number before dice: the attack's own number or offense (+bonus), and every modifier."""
    value = (spec.attack if spec.attack is not None else base_offense(state, u) + spec.bonus) - ring
    gen = state.active_general(u.side)
    if gen is u and ATTACK_BONUS in u.ch.general_ability:
        value += u.ch.general_ability[ATTACK_BONUS] or 0
    if free_strike:
        value += 2
    melee = spec.kind == "melee"
    if melee:
        value += u.param(MARTIAL)
    elif u.steps == 0:
        value += u.param(TARGETING)
    if defender is not None:
        if SNEAK_ATTACK in spec.tags and not sneak_refused(spec, defender) or is_back_stab(u, defender):
            value += 2
        if not melee and state.stealthed(defender):
            value -= manhattan(u.pos, target_pos)
        if state.supports(u):
            value += sum(1 for o in state.units if o is not u and o.side == u.side and o.on_map and not o.imprisoned
                         and chebyshev(o.pos, defender.pos) == 1 and state.supports(o))
    return value


def is_back_stab(u: Unit, defender: Unit) -> bool:
    return (chebyshev(u.pos, defender.pos) == 1 and u.pos in back(defender.pos, defender.facing)
            and not defender.has(BACK_STAB_IMMUNITY))


def sneak_refused(spec: AttackSpec, target: Unit) -> bool:
    """A Sneak Attack at a Stealth Reveal character: never allowed (attacks.attackable), and rolled directly,
    without its +2 (attack_score). The one place the two entries meet."""
    return SNEAK_ATTACK in spec.tags and target.has(STEALTH_REVEAL)


def defense_dice(u: Unit, spec: AttackSpec, defender: Unit) -> int:
    """Two dice, three with Defense Initiative: an ability, or a ranged attack from melee range unless
    exactly one of the two flies. Back stab, sneak and directed attacks nullify it ("Back Stab nullifies
    Defense Initiative": a free strike from the back arc too)."""
    if SNEAK_ATTACK in spec.tags or DIRECTED in spec.tags or is_back_stab(u, defender):
        return 2
    if defender.has(INITIATIVE) or defender.has(DEFENSE_INITIATIVE):
        return 3
    if spec.kind == "ranged" and chebyshev(u.pos, defender.pos) == 1 and u.flying == defender.flying:
        return 3
    return 2


def can_reach(state: UltraWarState, a: Unit, b: Unit) -> bool:
    """Whether `a` could hit `b` with any of its attacks now (a defender's critical needs this)."""
    return any(state.target_ok(a, slot, b.pos, counter=True) for slot in range(3) if attack_spec(a, slot))


def resolve(state: UltraWarState, u: Unit, spec: AttackSpec, slot: int, target_pos: int,
            free_strike: bool = False, ring: int = 0, att_bonus: int = 0, def_bonus: int = 0,
            counter: bool = False) -> int:
    """One attack roll against whatever stands on `target_pos`; returns the damage dealt to it."""
    defender = state.unit_at(target_pos)
    token = state.token_at(target_pos) if defender is None else None
    if defender is None and token is None:
        return 0
    adice = 3 if (u.has(INITIATIVE) or u.has(ATTACK_INITIATIVE)) else 2
    a_total, a_dice = roll_pair(state, adice)
    score = attack_score(state, u, spec, target_pos, defender, free_strike, ring) + att_bonus
    if defender is not None:
        d_total, d_dice = roll_pair(state, defense_dice(u, spec, defender))
        dscore = d_total + base_defense(state, defender, ARMOR_PIERCE in spec.tags) + def_bonus
        dscore -= 3 if defender.stun else 0
        if defender.has(DEFENSE_SUPPORT):
            dscore += sum(1 for o in state.units if o is not defender and o.side == defender.side and o.on_map
                          and o.has(DEFENSE_SUPPORT) and chebyshev(o.pos, u.pos) == 1)
    else:
        d_total, d_dice = roll_pair(state, 2)
        dscore = d_total + token.defense + def_bonus
    crit_limit = 10 if (u.has(WEAPON_SPECIALIST) and is_weapon_attack(u, slot)) else 12
    a_crit = a_dice.count(6) >= 2 or (crit_limit < 12 and a_dice[0] + a_dice[1] >= crit_limit)
    a_fumble = a_dice.count(1) >= 2
    d_crit = d_dice.count(6) >= 2
    total = a_total + score
    target = defender.name if defender is not None else f"the {token.name}"
    notes = _notes(state, u, spec, defender, free_strike, adice, ring)
    ddice = 2 if defender is None else defense_dice(u, spec, defender)
    state.log(f"{u.name} attacks {target} with {spec.name}: rolls {_dice(a_dice, adice)} + attack {score} = {total}"
              f" against {target}'s {_dice(d_dice, ddice)} + defence {dscore - d_total} = {dscore}"
              + (f" ({'; '.join(notes)})" if notes else ""))
    damage = 0
    if d_crit:
        if a_crit:
            damage = state.rng.roll(6)
            state.log(f"both roll double six (critical strikes): {target} takes a d6, {damage}, and deals one back")
        else:
            state.log(f"{target} rolls double six (a critical): the attack fails")
        if defender is not None and state.can_strike(defender) and can_reach(state, defender, u):
            back_damage = state.rng.roll(6)
            state.log(f"{defender.name}'s critical deals a d6 back: {back_damage}")
            state.damage(u, back_damage, f"{defender.name}'s critical")
    elif a_fumble:
        state.log(f"{u.name} rolls double one: a critical miss, no damage")
    else:
        damage = max(0, total - dscore)
        if a_crit:
            extra = state.rng.roll(6)
            why = "double six" if a_dice.count(6) >= 2 else f"{a_dice[0] + a_dice[1]} with a weapon (Weapon Specialist)"
            state.log(f"{u.name}'s {why} is a critical strike: {damage} + a d6 of {extra} = {damage + extra} damage")
            damage += extra
        elif damage == 0:
            state.log(f"no damage: {target}'s defence {dscore} is as high as the attack {total}")
    if damage > 0:
        if token is not None:
            state.damage_token(token, damage)
        else:
            apply_effects(state, u, spec, defender, damage)
    if KAMIKAZE in spec.tags and u.on_map:
        state.log(f"{u.name} is spent (Kamikaze)")
        state.defeat(u)
    if (defender is not None and defender.has(STRIKE_BACK) and not counter and SNEAK_ATTACK not in spec.tags
            and defender.on_map and u.on_map and state.phase != OVER and state.can_strike(defender)
            and chebyshev(defender.pos, u.pos) == 1):
        back_slot = state.strike_slot(defender, u)
        if back_slot is not None:
            state.log(f"{defender.name} strikes back")
            resolve(state, defender, attack_spec(defender, back_slot), back_slot, u.pos, counter=True)
    return damage


def _dice(kept: list[int], rolled: int) -> str:
    """'5+5', or '6+5 (best two of three)' when a third die was rolled and the best two kept."""
    shown = "+".join(map(str, kept))
    return f"{shown} (best two of {rolled})" if rolled > len(kept) else shown


def _notes(state: UltraWarState, u: Unit, spec: AttackSpec, defender: Unit | None, free_strike: bool,
           adice: int, ring: int) -> list[str]:
    """The modifiers a person would not guess from the numbers: why the attack or defence is what it is."""
    out = []
    if free_strike:
        out.append("free strike +2")
    if defender is not None:
        if is_back_stab(u, defender):
            out.append("back stab +2")
        if SNEAK_ATTACK in spec.tags and not sneak_refused(spec, defender):
            out.append("sneak attack +2")
        if defender.stun:
            out.append(f"{defender.name} is stunned: defence -3")
        if defense_dice(u, spec, defender) == 3:
            out.append(f"{defender.name} rolls a third die (Defense Initiative)")
    if adice == 3:
        out.append(f"{u.name} rolls a third die (Initiative)")
    if ring:
        out.append(f"{ring} space{'s' if ring > 1 else ''} from the blast: attack -{ring}")
    return out


def apply_effects(state: UltraWarState, u: Unit, spec: AttackSpec, defender: Unit, damage: int) -> None:
    tags = spec.tags
    if STUN in tags:
        defender.stun, defender.turned = STUN_TURN_STARTS, True
        state.log(f"{defender.name} is stunned")
        return
    if POWER_DOWN in tags and defender.is_droid:
        defender.powered_down, defender.turned = True, True
        state.log(f"{defender.name} is powered down")
        return
    state.damage(defender, damage, f"{u.name}'s {spec.name}")
    if not defender.on_map:
        return
    if FIRE in tags or MAGICAL_FIRE in tags:
        defender.burning = True
    if MOVEMENT_DEPRIVATION in tags:
        defender.deprived = 2
    if DISARM in tags and (defender.weapon or defender.weapon2) and chebyshev(u.pos, defender.pos) == 1:
        # "removes any Weapon Equipment": both weapons of a Dual Wield character
        defender.disarmed, defender.weapon = defender.weapon or defender.disarmed, ""
        defender.disarmed2, defender.weapon2 = defender.weapon2 or defender.disarmed2, ""
        state.log(f"{defender.name} is disarmed")
    if RETREAT in tags:
        retreat(state, defender)
    if ACID in tags:
        for part in ("weapon", "weapon2", "armor", "standard"):
            name = getattr(defender, part)
            if name and state.rng.roll(6) >= 4:
                state.log(f"acid destroys {defender.name}'s {name}")
                setattr(defender, part, "")
                if part == "standard" and state.card(defender.side, name).flight and not state.can_fly(defender):
                    state._lose_flight(defender)


def retreat(state: UltraWarState, u: Unit) -> None:
    """Retreat: moved its full movement straight back (gap, ours: the book lets its controller steer it
    within the back arc; straight back keeps this a rule, not a decision), stopping where it cannot enter."""
    d = (u.facing + 4) % 8
    for _ in range(u.ch.movement):
        b = STEP[u.pos][d]
        if b < 0 or not state.can_enter(u, u.pos, b):
            break
        u.pos = b
    state.log(f"{u.name} retreats")


def fire_damage(roll: int) -> int:
    """Fire's next-turn damage: a d6 halved, 1-2 -> 1, 3-4 -> 2, 5-6 -> 3 (book's table)."""
    return (roll + 1) // 2


def explosion_rings(center: int, area: int) -> list[tuple[int, int]]:
    """(field, ring) for every field within `area` of the blast, ring 0 first: attack - ring each."""
    return sorted(((f, chebyshev(center, f)) for f in range(FIELDS) if chebyshev(center, f) <= area),
                  key=lambda x: (x[1], x[0]))


def facing_towards(a: int, b: int) -> int:
    return direction(a, b)


__all__ = ["resolve", "fire_damage", "explosion_rings", "attack_score", "defense_dice", "Source"]
