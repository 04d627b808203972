"""How one attack roll comes out (book: How Battle Works, Critical Rolls, Ranged Attacks, Back Stab, glossary):
the numbers, the dice kept, the criticals, what the log says of it.

Pure: dice in, result out. Nothing here rolls a die, writes the log or changes a character; the rules do
(attacks.AttackRules.roll_attack rolls, deals the damage and the attack's effects, and asks this module what
the dice mean). Why the rules and not a list of effects the state applies: a roll's consequences draw more
dice and depend on each other in the book's order (a critical's die back, Retreat before Acid's die per
piece of equipment left, Strike Back after the damage), so an effects list would restate that order as
data; as rule methods, each is said once, readably. tests/ultra_war/test_combat_is_pure.py pins it.

Dice order, so tests can force them: attacker's dice, defender's dice, then critical-strike d6s
(attacker's first), then effect rolls (Acid: one d6 per equipment)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.ultra_war.abilities import (
    ARMOR_PIERCE,
    ATTACK_BONUS,
    ATTACK_INITIATIVE,
    BACK_STAB_IMMUNITY,
    DEFENSE_INITIATIVE,
    DEFENSE_SUPPORT,
    DIRECTED,
    INITIATIVE,
    MARTIAL,
    SNEAK_ATTACK,
    STEALTH_REVEAL,
    TARGETING,
    WEAPON_SPECIALIST,
)
from ultimata.envs.ultra_war.content import AttackSpec, content
from ultimata.envs.ultra_war.geometry import FIELDS, back, chebyshev, manhattan

if TYPE_CHECKING:
    from ultimata.envs.ultra_war.state import UltraWarState
    from ultimata.envs.ultra_war.units import Unit


STUN_TURN_STARTS = 2
"""A stun lasts "one full round": it counts down at every turn start, both players', so it wears off when the
turn of the side that stunned comes round again (turns._start_turn)."""


def kept_dice(rolled: list[int], best_two: bool) -> tuple[int, list[int]]:
    """The dice that count, highest first, and their sum: with three dice (initiative) the best two when
    `best_two` (Gap (ours): initiative_mode), else all of them."""
    kept = sorted(rolled, reverse=True)
    if best_two:
        kept = kept[:2]
    return sum(kept), kept


def attack_dice(u: Unit) -> int:
    """Two dice, three with Initiative or Attack Initiative."""
    return 3 if (u.has(INITIATIVE) or u.has(ATTACK_INITIATIVE)) else 2


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


def defence_number(state: UltraWarState, u: Unit, spec: AttackSpec, defender: Unit, def_bonus: int) -> int:
    """The number the defender's dice are added to against `u`'s attack: its defence (Armor Pierce: without
    armour), a card's bonus, -3 while stunned, +1 per other Defense Support character engaged to `u`."""
    number = base_defense(state, defender, ARMOR_PIERCE in spec.tags) + def_bonus
    number -= 3 if defender.stun else 0
    if defender.has(DEFENSE_SUPPORT):
        number += sum(1 for o in state.units if o is not defender and o.side == defender.side and o.on_map
                      and o.has(DEFENSE_SUPPORT) and chebyshev(o.pos, u.pos) == 1)
    return number


def critical_strike(u: Unit, slot: int, kept: list[int]) -> bool:
    """The attacker's kept dice strike critically: double six, or with Weapon Specialist an equipped weapon's
    dice summing 10 or more."""
    limit = 10 if (u.has(WEAPON_SPECIALIST) and is_weapon_attack(u, slot)) else 12
    return kept.count(6) >= 2 or (limit < 12 and kept[0] + kept[1] >= limit)


def doubles(kept: list[int], face: int) -> bool:
    """Two of the kept dice show `face`: double six is a critical, double one an attacker's critical miss."""
    return kept.count(face) >= 2


def dice_shown(kept: list[int], rolled: int) -> str:
    """'5+5', or '6+5 (best two of three)' when a third die was rolled and the best two kept."""
    shown = "+".join(map(str, kept))
    return f"{shown} (best two of {rolled})" if rolled > len(kept) else shown


def attack_notes(state: UltraWarState, u: Unit, spec: AttackSpec, defender: Unit | None, free_strike: bool,
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


def fire_damage(roll: int) -> int:
    """Fire's next-turn damage: a d6 halved, 1-2 -> 1, 3-4 -> 2, 5-6 -> 3 (book's table)."""
    return (roll + 1) // 2


def explosion_rings(center: int, area: int) -> list[tuple[int, int]]:
    """(field, ring) for every field within `area` of the blast, ring 0 first: attack - ring each."""
    return sorted(((f, chebyshev(center, f)) for f in range(FIELDS) if chebyshev(center, f) <= area),
                  key=lambda x: (x[1], x[0]))
