"""One test per glossary ability (book: Ability and Terminology Glossary), each on a set position."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.ultra_war.positions import E, N, S, W, force, position, select, step, steps
from ultimata.envs.core.errors import IllegalActionError
from ultimata.envs.core.rng import Rng, ScriptedRng
from ultimata.envs.ultra_war import actions as A
from ultimata.envs.ultra_war import combat
from ultimata.envs.ultra_war.content import AttackSpec
from ultimata.envs.ultra_war.game import UltraWarGame
from ultimata.envs.ultra_war.geometry import FIELDS, field
from ultimata.envs.ultra_war.phases import ACTIVE, DEVIATE, MAIN, QUICK
from ultimata.envs.ultra_war.units import Source


def give(u, **abilities):
    u.ch = u.ch.model_copy(update={"abilities": {**u.ch.abilities, **abilities}})


def with_tags(spec: AttackSpec, **tags) -> AttackSpec:
    return spec.model_copy(update={"tags": {**spec.tags, **tags}})


def duel(att="Sir Gareth", dfn="Maxian Trooper", facing=W, **config):
    st = position([(att, 0, (6, 3), E), (dfn, 1, (6, 4), facing), ("Justice", 0, (11, 11), N),
                   ("Vegron", 1, (0, 0), S)], **config)
    return st, st.units[0], st.units[1]


def score(st, u, d, spec=None):
    return combat.attack_score(st, u, spec or u.ch.attacks[0], d.pos, d)


def test_acid_rolls_4_to_6_per_equipment_to_discard_it():
    st, u, d = duel(dfn="Acid Spitter")
    d.weapon, d.armor = "Maxian Blade", "Chitin Plate"
    force(st, 1, 2, 1, 1, 4, 3)  # 3 + 5 = 8 vs 2 + 3 + 1 + 1 = 7 -> 1 damage, then a d6 per equipment
    st.roll_attack(u, with_tags(u.ch.attacks[0], Acid=None), 0, d.pos)
    assert d.weapon == "" and d.armor == "Chitin Plate"


def test_affiliate_mod_adds_to_base_stats_of_the_same_faction():
    st, u, d = duel(dfn="Maxian Trooper")
    assert combat.base_defense(st, d, False) == 3 + 1  # Vegron active: Legion +1
    assert combat.base_offense(st, u) == 4  # Justice's ability is Attack Bonus, not a mod


def test_area_of_effect_explosive_attacks_everyone_in_the_area():
    rings = combat.explosion_rings(field(5, 5), 1)
    assert len(rings) == 9 and rings[0] == (field(5, 5), 0)


def test_armor_pierce_ignores_armor():
    st, u, d = duel()
    d.armor = "Chitin Plate"
    assert combat.base_defense(st, d, False) - combat.base_defense(st, d, True) == 1


def test_attack_initiative_rolls_three_dice_keeping_the_best_two():
    st, u, d = duel(att="Vegron", dfn="Vigil Droid")
    st.units[3].pos = -1
    force(st, 1, 6, 5, 1, 1)
    total, kept = st.roll_pair(3)
    assert kept == [6, 5] and total == 11


def test_defense_initiative_gives_the_defender_three_dice():
    st, u, d = duel(dfn="Brick")
    assert combat.defense_dice(u, u.ch.attacks[0], d) == 3


def test_initiative_is_both_attack_and_defense_initiative():
    st, u, d = duel(att="Vegron", dfn="Vegron")
    assert combat.defense_dice(u, u.ch.attacks[0], d) == 3


def test_attack_support_plus_one_per_other_supporter_engaged_to_the_target():
    st = position([("Squire Wren", 0, (6, 3), E), ("Squire Wren", 0, (5, 4), S), ("Maxian Trooper", 1, (6, 4), W),
                   ("Justice", 0, (11, 11), N), ("Vegron", 1, (0, 0), S)])
    assert score(st, st.units[0], st.units[2]) == 3 + 1


def test_defense_support_plus_one_per_other_supporter_engaged_to_the_attacker():
    st = position([("Sir Gareth", 1, (6, 4), W), ("Sir Gareth", 1, (5, 3), S), ("Maxian Trooper", 0, (6, 3), E),
                   ("Justice", 0, (11, 11), N), ("Vegron", 1, (0, 0), S)])
    force(st, 6, 6, 1, 2, 1)  # 12 + 3 = 15 vs 3 + 4 + 1 (support) = 8 -> 7 + critical d6 1 = 8
    dealt = st.roll_attack(st.units[2], st.units[2].ch.attacks[0], 0, field(6, 4))
    assert dealt == 8


def test_back_stab_immunity_blocks_the_back_stab():
    st, u, d = duel(facing=E)
    assert combat.is_back_stab(u, d)
    give(d, **{"Back Stab Immunity": None})
    assert not combat.is_back_stab(u, d)


def test_breach_opens_a_breachable_wall_and_turns_the_character():
    st = position([("Brick", 0, (9, 2), N), ("David Barrett", 0, (11, 11), N), ("Edward Blackstone", 1, (0, 0), S)],
                  scenario="stone_corp_lab" if False else "relay_hold")
    st.units[0].ch = st.units[0].ch  # Brick has Breach
    st.units[0].pos = field(9, 3)
    st.apply(A.SELECT)
    assert A.TARGET + field(9, 4) in st.legal_actions()  # e3 is a breachable wall
    st.apply(A.TARGET + field(9, 4))
    assert field(9, 4) in st.breached and st.units[0].turned


def test_charge_attack_moves_two_extra_and_may_still_attack():
    st = position([("Warlord Kragg", 0, (11, 5), N), ("Maxian Trooper", 1, (5, 5), S), ("Vegron", 1, (0, 0), S)])
    assert st.allowance(st.units[0], False) == 4
    st.apply(A.SELECT)
    st.apply(A.CHARGE)
    assert st.allowance(st.units[0], False) == 6 and st.can_attack(st.units[0])


def test_double_movement_charges_without_turning():
    st = position([("Justice", 0, (11, 5), N), ("Vegron", 1, (0, 0), S)])
    give(st.units[0], **{"Double Movement": None})
    st.apply(A.SELECT)
    st.apply(A.CHARGE)
    st.apply(A.END_ACT)
    assert not st.units[0].turned


def test_directed_ranged_attack_ignores_sight_and_nullifies_defense_initiative():
    st = position([("Fogg", 0, (5, 4), E), ("Maxian Trooper", 1, (5, 7), W), ("Justice", 0, (11, 11), N),
                   ("Vegron", 1, (0, 0), S)])
    fogg, d = st.units[0], st.units[1]
    assert not st.target_ok(fogg, 1, d.pos)
    fogg.ch = fogg.ch.model_copy(update={"attacks": [fogg.ch.attacks[0], with_tags(fogg.ch.attacks[1], Directed=None)]})
    assert st.target_ok(fogg, 1, d.pos)


def test_dual_attack_attacks_twice():
    st, u, d = duel()
    give(u, **{"Dual Attack": None})
    u.attacks_made = 1
    assert st.can_attack(u)


def test_empowered_does_not_turn_to_attack_and_may_move_after():
    st = position([("Ghost", 0, (6, 3), E), ("Maxian Trooper", 1, (6, 4), W), ("Kane", 0, (11, 11), N),
                   ("Vegron", 1, (0, 0), S)])
    st.apply(A.SELECT)
    force(st, 1, 2, 1, 2)
    st.apply(A.ATTACK + field(6, 4))
    assert not st.units[0].turned and st.step_targets(st.units[0])


def test_empowered_may_perform_a_feat_after_attacking():
    st = position([("Ghost", 0, (6, 3), E), ("Maxian Trooper", 1, (6, 4), W), ("Kane", 0, (11, 11), N),
                   ("Vegron", 1, (0, 0), S)])
    gen = Source(0, "Street Generator", 5)
    gen.pos = field(11, 0)
    st.sources = [gen]
    st.hands[0] = ["Holy Fire"]
    st.units[2].pos = field(0, 11)  # (Kane out of Holy Fire's range: Ghost is the only performer)
    st.apply(A.SELECT)
    force(st, 1, 2, 1, 2)
    st.apply(A.ATTACK + field(6, 4))
    st.apply(A.PAUSE)
    assert A.PLAY in st.legal_actions()  # "Movement and Feats may be played after an Empowered Character attacks"
    st.units[0].ch = st.units[0].ch.model_copy(update={"abilities": {}})
    st._mask = None
    assert A.PLAY not in st.legal_actions()


def test_energy_attack_is_a_tag_other_rules_read():
    st = position([("Shock Trooper", 0, (6, 3), E), ("Maxian Trooper", 1, (6, 4), W),
                   ("Edward Blackstone", 0, (11, 11), N), ("Vegron", 1, (0, 0), S)], scenario="relay_hold")
    assert "Energy Attack" in st.units[0].ch.attacks[1].tags


def test_energy_innate_performs_energy_feats_without_turning():
    st = position([("Spark", 0, (9, 5), N), ("Vegron", 1, (6, 5), S), ("Kane", 0, (11, 11), N)],
                  scenario="relay_hold")
    assert st.innate(st.units[0], st.card(1, "Overload"))


def test_a_turned_innate_character_performs_no_feat():
    st = position([("Skydas", 0, (9, 5), N), ("Vegron", 1, (6, 5), S), ("Justice", 0, (11, 11), N)])
    st.hands[0] = ["Holy Fire"]
    assert A.PLAY in st.legal_actions()
    st.units[0].turned = True  # "Turned Characters cannot move, Attack or make Feats after being Turned"
    st._mask = None
    assert A.PLAY not in st.legal_actions()


def test_magic_innate_performs_magic_feats_without_turning():
    st = position([("Skydas", 0, (9, 5), N), ("Vegron", 1, (6, 5), S), ("Justice", 0, (11, 11), N)])
    st.hands[0] = ["Holy Fire"]
    st.apply(A.PLAY)
    st.apply(A.TARGET + field(9, 5))
    force(st, 6, 6, 1, 1)
    st.apply(A.TARGET + field(6, 5))
    assert not st.units[0].turned and st.units[0].reserves["magic"] == 3  # paid from her own reserve


def test_magic_transfer_helps_pay_for_a_neighbours_feat():
    st = position([("Justice", 0, (9, 5), N), ("Skydas", 0, (9, 6), N), ("Vegron", 1, (6, 5), S)])
    st.hands[0] = ["Holy Fire"]
    assert st.feat_pool(st.units[0], "magic") == 5
    st.apply(A.PLAY)
    st.apply(A.TARGET + field(9, 5))
    force(st, 6, 6, 1, 1)
    st.apply(A.TARGET + field(6, 5))
    assert st.units[1].reserves["magic"] == 3


def test_equip_weapon_cards_grant_their_attack_only_when_equipped():
    st, u, d = duel()
    assert combat.attack_spec(u, 2) is None
    u.weapon = "Knight's Sword"
    assert combat.attack_spec(u, 2).bonus == 1


def test_exterior_maps_are_marked():
    st, _, _ = duel()
    assert st.board.spec.exterior


def test_feat_rolls_add_familiarity():
    st = position([("Skydas", 0, (9, 5), N), ("Vegron", 1, (6, 5), S), ("Justice", 0, (11, 11), N)])
    force(st, 3, 3, 4, 4)  # 6 + 4 = 10 against 8 + 3 = 11: fails
    assert not st.resolve_feat(st.units[0], st.card(0, "Holy Fire"), "Holy Fire", st.units[1])
    force(st, 4, 4, 4, 4)  # 12 against 11
    assert st.resolve_feat(st.units[0], st.card(0, "Holy Fire"), "Holy Fire", st.units[1])


def test_fire_marks_a_damaged_character_burning():
    st, u, d = duel(dfn="Vegron")
    force(st, 6, 5, 1, 1, 1)
    st.roll_attack(u, with_tags(u.ch.attacks[0], Fire=None), 0, d.pos)
    assert d.burning


def test_reserves_pay_attack_costs():
    st = position([("Tristan the Bowman", 0, (9, 2), N), ("Maxian Trooper", 1, (3, 2), S), ("Justice", 0, (11, 11), N),
                   ("Vegron", 1, (0, 0), S)])
    st.apply(A.SELECT)
    force(st, 1, 2, 1, 2)
    st.apply(A.ATTACK + 144 + field(3, 2))
    assert st.units[0].reserves["ammunition"] == 5


def test_ethereal_is_hit_only_by_magical_attacks_and_loses_it_when_attacking():
    st, u, d = duel(dfn="Void Shade")
    assert not st.target_ok(u, 0, d.pos)
    d.ethereal_off = True
    assert st.target_ok(u, 0, d.pos)


def test_ethereal_moves_through_walls_but_cannot_stop_inside_one():
    st = position([("Void Shade", 0, (4, 3), N), ("Justice", 0, (11, 11), N), ("Vegron", 1, (0, 0), S)],
                  scenario="relay_hold")
    assert st.board.wall[field(3, 3)]
    select(st, 4, 3)
    assert (3, 3) in steps(st)
    step(st, 3, 3)
    legal = st.legal_actions()
    assert all(a < A.ATTACK for a in legal) and A.END_ACT not in legal  # must move on out of the wall
    assert steps(st) >= {(2, 3), (4, 3)}
    step(st, 2, 3)
    assert A.END_ACT in st.legal_actions()


def test_ethereal_moves_through_characters_even_gigantic_ones():
    st = position([("Void Shade", 0, (6, 5), N), ("Warlord Kragg", 1, (5, 5), S), ("Justice", 0, (11, 11), N)])
    giant = st.units[1]
    giant.ch = giant.ch.model_copy(update={"tags": [*giant.ch.tags, "Gigantic"]})
    select(st, 6, 5)
    assert (5, 5) in steps(st)
    step(st, 5, 5)
    assert A.END_ACT not in st.legal_actions()
    step(st, 4, 5)
    assert A.END_ACT in st.legal_actions() and st.unit_at(field(5, 5)).name == "Warlord Kragg"


def test_ethereal_lost_by_attacking_no_longer_passes_walls():
    st = position([("Void Shade", 0, (4, 3), N), ("Justice", 0, (11, 11), N), ("Vegron", 1, (0, 0), S)],
                  scenario="relay_hold")
    st.units[0].ethereal_off = True
    select(st, 4, 3)
    assert (3, 3) not in steps(st)


def test_flight_crosses_level_lines_and_obstructions():
    st = position([("Rayna", 0, (4, 2), N), ("Kane", 0, (11, 11), N), ("Warlord Kragg", 1, (0, 11), S)],
                  scenario="rooftop_rescue")
    assert st.can_enter(st.units[0], field(4, 2), field(3, 2))


def test_free_strike_movement_never_draws_free_strikes():
    st, u, d = duel(att="Squire Wren", facing=N)
    assert st.free_strikers(u, u.pos, field(7, 2)) == []


def test_front_arch_attacks_three_consecutive_front_spaces():
    st = position([("Sir Gareth", 0, (6, 3), E), ("Maxian Trooper", 1, (5, 4), S), ("Acid Spitter", 1, (6, 4), W),
                   ("Void Shade", 1, (7, 4), N), ("Justice", 0, (11, 11), N), ("Vegron", 1, (0, 0), S)])
    st.units[3].ethereal_off = True
    st.active = 0
    force(st, *([1, 2, 1, 2] * 3))
    st._resolve_attack(st.units[0], 1, field(6, 4), 0, {})
    assert sum("with Sweep:" in e for e in st.events) == 3


def test_gigantic_blocks_sight_even_for_flyers():
    st = position([("Rayna", 0, (5, 1), E), ("Sir Gareth", 1, (5, 2), W), ("Maxian Trooper", 1, (5, 4), W),
                   ("Justice", 0, (11, 11), N), ("Vegron", 1, (0, 0), S)])
    rayna, gareth = st.units[0], st.units[1]
    gareth.pos = field(5, 3)
    assert st.target_ok(rayna, 1, field(5, 4))
    gareth.ch = gareth.ch.model_copy(update={"tags": ["Gigantic"]})
    assert not st.target_ok(rayna, 1, field(5, 4))


def test_a_gigantic_character_blocks_sight_while_another_passes_through_its_space():
    """Found by the reference fuzz: the occupied map kept the flag of whichever pawn came last in the list."""
    st = position([("Sir Gareth", 1, (5, 3), W), ("Void Shade", 1, (5, 3), W), ("Justice", 0, (11, 11), N),
                   ("Vegron", 1, (0, 0), S)])
    st.units[0].ch = st.units[0].ch.model_copy(update={"tags": ["Gigantic"]})
    assert st.occupied_map()[field(5, 3)] is True
    assert not st.board.sight_clear(field(5, 1), field(5, 5), st.occupied_map(), set(), True, False)


def test_kamikaze_defeats_the_attacker_after_the_attack():
    st, u, d = duel()
    u.ch = u.ch.model_copy(update={"attacks": [with_tags(u.ch.attacks[0], Kamikaze=None), *u.ch.attacks[1:]]})
    st.active = 0
    force(st, 1, 2, 1, 2)
    st._resolve_attack(u, 0, d.pos, 0, {})
    assert not u.on_map and any("is spent (Kamikaze)" in e for e in st.events)


def test_legacy_adds_magic_at_the_start_of_the_turn():
    st = position([("Skydas", 0, (9, 5), N), ("Justice", 0, (11, 11), N), ("Vegron", 1, (0, 0), S)])
    give(st.units[0], Legacy=2)
    st.units[0].reserves["magic"] = 1
    st.turn = 1
    st._next_turn()
    assert st.units[0].reserves["magic"] == 3


def test_line_of_sight_is_blocked_by_characters_for_grounded_shooters():
    st = position([("Fogg", 0, (2, 2), E), ("Sir Gareth", 1, (2, 3), W), ("Maxian Trooper", 1, (2, 5), W),
                   ("Justice", 0, (11, 11), N), ("Vegron", 1, (0, 0), S)])
    assert not st.target_ok(st.units[0], 1, field(2, 5))


def test_magical_attack_hits_ethereal():
    st, u, d = duel(att="Void Shade", dfn="Void Shade")
    assert st.target_ok(u, 0, d.pos)


def test_martial_adds_to_melee_attacks():
    st, u, d = duel()
    assert score(st, u, d) == 4 + 1


def test_specialist_succeeds_on_energy_feats_without_a_roll():
    st = position([("Edward Blackstone", 0, (9, 5), N), ("Vegron", 1, (6, 5), S)], scenario="relay_hold")
    force(st, 1, 1, 6, 6)
    assert st.resolve_feat(st.units[0], st.card(0, "Tesla Arc"), "Tesla Arc", st.units[1])


def test_minion_hub_range_controls_droids():
    st = position([("Edward Blackstone", 0, (5, 5), N), ("Vigil Droid", 0, (11, 11), N), ("Fogg", 1, (0, 0), S)],
                  scenario="relay_hold")
    assert st.units[0].param("Minion Hub") == 6 and st.controlled(st.units[1])
    st.units[1].pos = field(11, 0)
    st.units[0].pos = field(0, 11)
    assert not st.controlled(st.units[1])


def test_tripod_range_controls_droids():
    st = position([("Edward Blackstone", 0, (0, 11), N), ("Vigil Droid", 0, (11, 0), N), ("Fogg", 1, (0, 0), S)],
                  scenario="relay_hold")
    st.sources = [Source(0, "Tripod Entity", 0)]
    st.sources[0].pos = field(10, 1)
    assert st.controlled(st.units[1])


def test_morale_gives_attack_support_to_characters_engaged_to_the_morale_characters_opponent():
    st = position([("Justice", 0, (6, 2), E), ("Sir Gareth", 0, (6, 4), W), ("Skydas", 0, (5, 3), S),
                   ("Maxian Trooper", 1, (6, 3), N), ("Tristan the Bowman", 0, (9, 9), N), ("Vegron", 1, (0, 0), S)])
    justice, gareth, skydas, trooper = st.units[:4]
    assert score(st, gareth, trooper) == 4 + 1  # Gareth's Martial 1; no one supports
    justice.ch = justice.ch.model_copy(update={"general_ability": {"Morale": None}})
    # Justice (Morale) is engaged to the trooper: Gareth, Skydas and Justice all gain Attack Support
    assert score(st, gareth, trooper) == 4 + 1 + 2
    justice.pos = field(9, 2)  # Justice steps back: no longer engaged to the trooper, no support
    assert score(st, gareth, trooper) == 4 + 1
    assert not st.supports(st.units[4])  # Tristan, engaged to no one, never had it


def test_movement_deprivation_halves_movement_but_not_for_flyers():
    st, u, d = duel()
    u.deprived = 1
    assert st.movement(u) == 2


def _arcane_bolt_at_vegron():
    """Skydas (Arcane Bolt: ranged 4, Deviate 2, 1 magic) facing Vegron 3 spaces away; Maxian Trooper and
    Acid Spitter stand within 2 of Vegron, Void Shade farther."""
    st = position([("Skydas", 0, (9, 2), N), ("Justice", 0, (11, 11), N), ("Vegron", 1, (6, 2), S),
                   ("Maxian Trooper", 1, (5, 1), S), ("Acid Spitter", 1, (6, 4), S), ("Void Shade", 1, (2, 2), S)])
    select(st, 9, 2)
    return st, st.units[0]


def _fire(st, slot, r, c):
    st.apply(A.ATTACK + slot * FIELDS + A.to_field(field(r, c), st.current_player))


def test_deviate_a_damaging_ranged_attack_makes_another_at_a_character_nearby():
    st, skydas = _arcane_bolt_at_vegron()
    magic = skydas.reserves["magic"]
    force(st, 6, 5, 1, 2, 1, 6, 5, 1, 2)  # hits Vegron (Defense Initiative: 3 dice), then the trooper
    _fire(st, 1, 6, 2)
    assert st.phase == DEVIATE and st.current_player == 0
    legal = st.legal_actions()
    offered = {divmod(A.to_field(a - A.ATTACK - FIELDS, 0), 12) for a in legal if A.ATTACK <= a < A.TARGET}
    assert offered == {(5, 1), (6, 4)} and A.PASS in legal  # within 2 of Vegron, never Vegron or Skydas
    trooper = st.unit_at(field(5, 1))
    life = trooper.life
    _fire(st, 1, 5, 1)
    assert trooper.life < life or not trooper.on_map
    assert skydas.reserves["magic"] == magic - 2  # the deviation costs what the bolt costs
    assert st.phase != DEVIATE and any("deviates to Maxian Trooper" in e for e in st.events)


def test_deviate_needs_damage_and_a_way_to_pay_and_can_be_declined():
    st, skydas = _arcane_bolt_at_vegron()
    force(st, 1, 2, 6, 5, 4)  # the bolt misses: no deviation
    _fire(st, 1, 6, 2)
    assert st.phase != DEVIATE
    st, skydas = _arcane_bolt_at_vegron()
    skydas.reserves["magic"] = 1  # enough for the bolt, not for its deviation
    force(st, 6, 5, 1, 2, 1)
    _fire(st, 1, 6, 2)
    assert st.unit_at(field(6, 2)).life < 8 and st.phase != DEVIATE
    st, skydas = _arcane_bolt_at_vegron()
    force(st, 6, 5, 1, 2, 1)
    _fire(st, 1, 6, 2)
    assert st.phase == DEVIATE
    trooper_life = st.unit_at(field(5, 1)).life
    st.apply(A.PASS)
    assert st.phase != DEVIATE and st.unit_at(field(5, 1)).life == trooper_life


def test_powered_down_droid_has_defense_zero_and_cannot_act():
    st = position([("Vigil Droid", 0, (6, 3), E), ("Edward Blackstone", 0, (11, 11), N), ("Fogg", 1, (0, 0), S)],
                  scenario="relay_hold")
    st.units[0].powered_down = True
    assert combat.base_defense(st, st.units[0], False) == 0 and not st.can_activate(st.units[0])


def test_powered_down_zeroes_the_base_defense_but_armour_and_upgrades_stay():
    """Glossary: "its Base Defense points are reduce[d] to 0 while in this state (though it may still make a
    defense roll)": the printed defence (with the Affiliate Mod, which modifies the base stats) is 0; its
    Riot Armor (+1) and Plating Upgrade (+1) still count."""
    st = position([("Fogg", 0, (6, 3), E), ("Vigil Droid", 1, (6, 4), W), ("Kane", 0, (11, 11), N),
                   ("Edward Blackstone", 1, (0, 0), S)], scenario="relay_hold")
    fogg, droid = st.units[0], st.units[1]
    droid.armor, droid.upgrades, droid.powered_down, droid.turned = "Riot Armor", ["Plating Upgrade"], True, True
    assert combat.base_defense(st, droid, False) == 1 + 1
    force(st, 2, 1, 1, 2)  # Fogg 2+1 + 2 + 1 (Kane's mod) = 6 vs 1+2 + 0 + 1 + 1 = 5
    assert st.roll_attack(fogg, fogg.ch.attacks[0], 0, droid.pos) == 1 and droid.life == 4 - 1


def test_stasis_reduces_the_whole_defense_to_zero_armour_included():
    """Glossary, Stasis: "a reduced Defense of 0": the character's defence, not its base stat (unlike Powered
    Down), so armour and enhancements do not count either."""
    st, u, d = duel()
    d.armor, d.enh_def, d.stasis = "Chitin Plate", 1, 1
    assert combat.base_defense(st, d, False) == 0


def test_power_down_attack_applies_the_status_to_droids_instead_of_damage():
    st = position([("Fogg", 0, (6, 3), E), ("Vigil Droid", 1, (6, 4), W), ("Kane", 0, (11, 11), N),
                   ("Edward Blackstone", 1, (0, 0), S)], scenario="relay_hold")
    force(st, 6, 5, 1, 2)
    st.roll_attack(st.units[0], with_tags(st.units[0].ch.attacks[0], **{"Power Down": None}), 0, field(6, 4))
    assert st.units[1].powered_down and st.units[1].life == 4


def test_recharge_adds_energy_at_the_start_of_the_turn():
    st = position([("Spark", 0, (9, 5), N), ("Kane", 0, (11, 11), N), ("Vegron", 1, (0, 0), S)])
    st.units[0].reserves["electrical"] = 1
    st.turn = 1
    st._next_turn()
    assert st.units[0].reserves["electrical"] == 2


def test_regenerate_heals_at_the_start_of_the_turn():
    st = position([("Kane", 0, (11, 11), N), ("Vegron", 1, (0, 0), S)])
    st.units[0].life = 5
    st.turn = 1
    st._next_turn()
    assert st.units[0].life == 6


def test_reload_adds_ammunition_at_the_start_of_the_turn():
    st = position([("David Barrett", 0, (11, 11), N), ("Vegron", 1, (0, 0), S)])
    st.units[0].reserves["ammunition"] = 2
    st.turn = 1
    st._next_turn()
    assert st.units[0].reserves["ammunition"] == 3


def test_sneak_attack_plus_two_and_no_defense_initiative():
    st, u, d = duel(att="Squire Wren", dfn="Brick")
    spec = u.ch.attacks[1]
    assert "Sneak Attack" in spec.tags
    assert score(st, u, d, spec) == 3 + 2
    assert combat.defense_dice(u, spec, d) == 2


def test_stealth_reveal_cancels_sneak_attack_bonus():
    st, u, d = duel(att="Squire Wren", dfn="Maxian Trooper")
    give(d, **{"Stealth Reveal": None})
    assert score(st, u, d, u.ch.attacks[1]) == 3


def test_stasis_disables_and_zeroes_defense():
    st, u, d = duel()
    d.stasis = 1
    assert d.disabled and combat.base_defense(st, d, False) == 0


def test_stealth_minus_one_per_space_for_ranged_attacks():
    st = position([("Tristan the Bowman", 0, (9, 2), N), ("Fogg", 1, (5, 2), S), ("Justice", 0, (11, 11), N),
                   ("Vegron", 1, (0, 0), S)])
    assert score(st, st.units[0], st.units[1], st.units[0].ch.attacks[1]) == 5 + 1 - 4  # targeting +1, stealth -4


def test_strike_back_is_a_known_ability():
    from ultimata.envs.ultra_war.content import ABILITIES

    assert "Strike Back" in ABILITIES


def test_stun_turns_and_gives_minus_three_defense_for_a_round():
    st, u, d = duel()
    force(st, 6, 5, 1, 2)
    st.roll_attack(u, with_tags(u.ch.attacks[0], Stun=None), 0, d.pos)
    assert d.stun == 2 and d.turned and d.life == 4


def test_targeting_plus_one_when_not_moving():
    st = position([("Tristan the Bowman", 0, (9, 2), N), ("Maxian Trooper", 1, (5, 2), S), ("Justice", 0, (11, 11), N),
                   ("Vegron", 1, (0, 0), S)])
    u = st.units[0]
    assert score(st, u, st.units[1], u.ch.attacks[1]) == 6
    u.steps = 1
    assert score(st, u, st.units[1], u.ch.attacks[1]) == 5


def test_weapon_specialist_criticals_on_10_or_more_with_an_equipped_weapon_only():
    st = position([("David Barrett", 0, (9, 2), N), ("Maxian Trooper", 1, (5, 2), S), ("Vegron", 1, (0, 0), S)])
    barrett, trooper = st.units[0], st.units[1]
    trooper.ch = trooper.ch.model_copy(update={"life": 20})
    trooper.life = 20
    barrett.weapon = "Scoped Rifle"  # ranged 6, attack 5
    force(st, 5, 5, 1, 2, 3)  # 10 + 5 + 1 = 16 vs 3 + 3 + 1 = 7 -> 9, and a critical d6: 3
    assert st.roll_attack(barrett, combat.attack_spec(barrett, 2), 2, field(5, 2)) == 12
    # his own Rifle (also attack 5) is an "Alternate Attack", not an Equipped Weapon: 10 is no critical
    force(st, 5, 5, 1, 2, 3)
    assert st.roll_attack(barrett, barrett.ch.attacks[1], 1, field(5, 2)) == 9


def test_level_change_movement_crosses_level_lines():
    st = position([("Brick", 0, (4, 2), N), ("Kane", 0, (11, 11), N), ("Warlord Kragg", 1, (0, 11), S)],
                  scenario="rooftop_rescue")
    assert st.can_enter(st.units[0], field(4, 2), field(3, 2))


def test_strike_back_answers_an_attack_unless_it_was_a_sneak_attack():
    st, u, d = duel(dfn="Vegron")
    give(d, **{"Strike Back": None})
    force(st, 1, 2, 6, 5, 4, 3, 3, 2, 1)  # Gareth misses; Vegron strikes back 3+3(+2 kept) ...
    st.roll_attack(u, u.ch.attacks[0], 0, d.pos)
    assert any("strikes back" in e for e in st.events)
    st.events.clear()
    force(st, 1, 2, 6, 5, 4)
    st.roll_attack(u, with_tags(u.ch.attacks[0], **{"Sneak Attack": None}), 0, d.pos)
    assert not any("strikes back" in e for e in st.events)


@pytest.mark.parametrize("strikes", [True, False])
def test_a_turned_character_strikes_back_only_under_turned_characters_strike(strikes):
    """Strike Back is an attack: a turned defender strikes back by default (v4: only Stun, Stasis and
    Powered-Down stop it), and not under `turned_characters_strike: false` ("Turned Characters cannot ...
    Attack")."""
    st, u, d = duel(dfn="Vegron", turned_characters_strike=strikes)
    give(d, **{"Strike Back": None})
    d.turned = True
    force(st, 1, 2, 6, 5, 4, 3, 3, 2, 1)  # Gareth misses; Vegron strikes back 3+3(+2 kept) ...
    st.roll_attack(u, u.ch.attacks[0], 0, d.pos)
    assert any("strikes back" in e for e in st.events) == strikes
    assert (u.life < 6) == strikes


def test_linear_attacks_every_character_in_a_straight_line():
    st = position([("Lady Aurelia", 0, (8, 2), N), ("Maxian Trooper", 1, (6, 2), S), ("Sir Gareth", 0, (5, 2), S),
                   ("Acid Spitter", 1, (4, 2), S), ("Justice", 0, (11, 11), N), ("Vegron", 1, (0, 0), S)])
    aurelia = st.units[0]
    assert st.target_ok(aurelia, 1, field(6, 2)) and not st.target_ok(aurelia, 1, field(6, 3))
    st.active = 0
    force(st, *([1, 2, 1, 2] * 3))
    st._resolve_attack(st.units[0], 1, field(6, 2), 0, {})
    assert sum("with Lance of Light:" in e for e in st.events) == 3  # friend and foe alike, range 4


def test_retreat_moves_the_victim_straight_back():
    st = position([("Commander Kessler", 0, (6, 3), E), ("Vegron", 1, (6, 4), W), ("David Barrett", 1, (0, 0), S)],
                  scenario="relay_hold")
    force(st, 6, 5, 1, 2, 1)
    st.roll_attack(st.units[0], st.units[0].ch.attacks[0], 0, field(6, 4))
    assert st.units[1].pos == field(6, 8)  # four spaces east, its back


def test_disarm_takes_the_weapon_until_disengaged():
    st = position([("Ghost", 0, (6, 3), E), ("Maxian Trooper", 1, (6, 4), W), ("Kane", 0, (11, 11), N),
                   ("Vegron", 1, (0, 0), S)])
    trooper = st.units[1]
    trooper.weapon = "Maxian Blade"
    force(st, 1, 2, 1, 1)  # 3 + 3 + 2 (sneak) = 8 vs 2 + 4 = 6 -> 2 damage
    st.roll_attack(st.units[0], st.units[0].ch.attacks[1], 1, trooper.pos)
    assert trooper.weapon == "" and trooper.disarmed == "Maxian Blade"
    st.turn = 0
    st._next_turn()
    assert trooper.weapon == ""  # still engaged with Ghost
    st.units[0].pos = field(9, 9)
    st._next_turn()
    st._next_turn()
    assert trooper.weapon == "Maxian Blade"


def test_multi_shot_makes_an_extra_paid_ranged_attack():
    st = position([("Sentry Droid", 0, (7, 0), N), ("Edward Blackstone", 0, (7, 2), N), ("Fogg", 1, (4, 0), S),
                   ("David Barrett", 1, (0, 0), S)], scenario="relay_hold")
    droid = st.units[0]
    st.apply(A.SELECT)
    force(st, 1, 2, 1, 2, 1, 2, 1, 2)
    st.apply(A.ATTACK + 144 + field(4, 0))
    assert st.phase == ACTIVE and not droid.turned  # a second shot is still available
    st.apply(A.ATTACK + 144 + field(4, 0))
    assert droid.turned and droid.reserves["ammunition"] == 2 and st.phase == MAIN


def test_the_deviate_decision_has_an_exact_mask_and_saves_and_loads():
    game = UltraWarGame.from_config({"scenario": "street_clash", "first_player": "player_0"})
    st = game.new_initial_state(Rng(1))
    spots = {"Skydas": ((9, 2), N), "Vegron": ((6, 2), S), "Maxian Trooper": ((5, 1), S),
             "Acid Spitter": ((6, 4), S)}
    far = iter([(11, 11), (11, 9), (0, 11), (0, 9), (0, 7), (11, 7)])
    for u in st.units:
        (r, c), facing = spots.get(u.name) or (next(far), S)
        u.pos, u.facing = field(r, c), facing
    for s in st.sources:  # (empty: no source ability answers the windows; the scenario's sources stay)
        s.points = 0
    st.phase, st.turn, st.active, st._mask = MAIN, 0, -1, None
    st.rng = ScriptedRng([6, 5, 1, 2, 1, 6, 5, 1, 2], seed=3)
    select(st, 9, 2)
    _fire(st, 1, 6, 2)
    while st.phase == QUICK:
        st.apply(A.PASS)
    assert st.phase == DEVIATE
    mask = st.legal_action_mask().copy()
    before = st.state_dict()
    for a in range(game.num_actions):
        if mask[a]:
            st.clone().apply(a)
        else:
            with pytest.raises(IllegalActionError):
                st.apply(a)
    assert st.state_dict() == before
    other = game.new_initial_state(Rng(0))
    other.load_state_dict(json.loads(json.dumps(st.state_dict())))
    assert other.legal_actions() == st.legal_actions()
    assert np.array_equal(other.observation(0), st.observation(0))


def test_the_scripted_bot_deviates_at_an_enemy():
    from ultimata.envs.ultra_war import scripted as bot
    from ultimata.envs.ultra_war.scripted import choose_action

    assert (bot.ACTIVE, bot.DEVIATE) == (ACTIVE, DEVIATE)
    st, _ = _arcane_bolt_at_vegron()
    st.units[1].pos = field(7, 1)  # Justice (a friend) stands next to Vegron too
    force(st, 6, 5, 1, 2, 1)
    _fire(st, 1, 6, 2)
    assert A.ATTACK + FIELDS + field(7, 1) in st.legal_actions()  # player_0's fields are not turned
    action = choose_action(st, Rng(0))
    target = st.unit_at((action - A.ATTACK) % FIELDS)
    assert target is not None and target.side == 1


def test_dual_wield_equips_two_weapons_and_attacks_with_the_second():
    st = position([("Warlord Kragg", 1, (6, 4), W), ("Sir Gareth", 0, (6, 3), E), ("Justice", 0, (11, 11), N)])
    kragg, gareth = st.units[0], st.units[1]
    st.turn, st.hands[1] = 1, ["Maxian Blade", "Acid Lance", "Maxian Blade"]
    st.sources = [Source(1, "Crystal of the Round", 10)]
    st.sources[0].bearer = 0
    rel = FIELDS - 1 - kragg.pos  # player_1's fields are turned 180 degrees
    for _ in range(2):
        st.apply(A.PLAY + 0)
        st.apply(A.TARGET + rel)
    assert (kragg.weapon, kragg.weapon2) == ("Maxian Blade", "Acid Lance")
    assert A.PLAY + 0 not in st.legal_actions()  # a third weapon has no slot
    st.apply(A.SELECT + 0)
    at_gareth = FIELDS - 1 - gareth.pos
    assert {A.ATTACK + 1 * FIELDS + at_gareth, A.ATTACK + 2 * FIELDS + at_gareth} <= set(st.legal_actions())
    force(st, 3, 3, 2, 2)  # Acid Lance: 6 + offense 4 + 1 + Attack Bonus 1 + Martial 1 = 13 vs 4 + 4 = 8
    st.apply(A.ATTACK + 1 * FIELDS + at_gareth)
    assert gareth.life == 6 - 5 and "Acid Lance" in " ".join(st.events)
    assert combat.is_weapon_attack(kragg, 1)


def test_dual_wield_is_refused_on_a_character_with_two_own_attacks():
    from ultimata.envs.ultra_war.content import Character

    spec = {
        "faction": "wolf",
        "race": "Human",
        "rank": "Troop",
        "value": 1,
        "offense": 1,
        "defense": 1,
        "magic": 0,
        "energy": 0,
        "movement": 1,
        "life": 1,
        "abilities": {"Dual Wield": None},
        "attacks": [{"name": "a", "kind": "melee"}, {"name": "b", "kind": "melee"}],
    }
    with pytest.raises(ValueError, match="Dual Wield"):
        Character.model_validate(spec)


def test_disarm_takes_both_weapons_of_a_dual_wielder_until_disengaged():
    st = position([("Ghost", 0, (6, 3), E), ("Warlord Kragg", 1, (6, 4), W), ("Kane", 0, (11, 11), N)])
    kragg = st.units[1]
    kragg.weapon, kragg.weapon2 = "Maxian Blade", "Acid Lance"
    force(st, 3, 2, 1, 1)  # 5 + 3 + 2 (sneak) = 10 vs 2 + 4 = 6 -> 4 damage
    st.roll_attack(st.units[0], st.units[0].ch.attacks[1], 1, kragg.pos)
    assert (kragg.weapon, kragg.weapon2, kragg.disarmed, kragg.disarmed2) == ("", "", "Maxian Blade", "Acid Lance")
    st.units[0].pos = field(9, 9)
    st._next_turn()
    assert (kragg.weapon, kragg.weapon2) == ("Maxian Blade", "Acid Lance")
