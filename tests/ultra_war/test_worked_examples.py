"""The book's worked examples, with the dice forced."""

from __future__ import annotations

import pytest

from tests.ultra_war.positions import E, N, S, W, at, force, position
from ultimata.envs.ultra_war import combat
from ultimata.envs.ultra_war.geometry import field


def justice_vs_vigil(defence_dice: tuple[int, int]):
    st = position([("Justice", 0, (6, 3), E), ("Vigil Droid", 1, (6, 4), W)])
    justice, vigil = at(st, 6, 3), at(st, 6, 4)
    force(st, 3, 4, *defence_dice)
    dealt = st.roll_attack(justice, justice.ch.attacks[0], 0, vigil.pos)
    return st, vigil, dealt


def test_justice_attacks_the_vigil_droid_7_plus_5_plus_1_is_13_against_6_plus_4_is_10():
    st, vigil, dealt = justice_vs_vigil((2, 4))
    assert st.active_general(0).name == "Justice"
    assert dealt == 3 and vigil.life == 1  # "nearly defeating it"


@pytest.mark.parametrize("dice", [(4, 5), (5, 5), (6, 5)])
def test_justice_deals_no_damage_if_the_vigil_rolls_9_or_better(dice):
    _, vigil, dealt = justice_vs_vigil(dice)
    assert dealt == 0 and vigil.life == 4


def test_justice_gets_the_plus_one_only_as_active_general():
    st = position([("Vegron", 0, (0, 0), S), ("Justice", 0, (6, 3), E), ("Vigil Droid", 1, (6, 4), W)])
    justice, vigil = at(st, 6, 3), at(st, 6, 4)
    assert st.active_general(0).name == "Vegron"  # Justice is an inactive general: a troop
    assert combat.attack_score(st, justice, justice.ch.attacks[0], vigil.pos, vigil) == 5


def fogg_and_rayna(fogg: tuple[int, int], rayna: tuple[int, int], flying: bool):
    st = position([("Fogg", 0, fogg, E), ("Rayna", 1, rayna, W)])
    at(st, *rayna).flying = flying
    return st, at(st, *fogg)


def test_fogg_range_5_shot_at_rayna_at_range_3_is_legal():
    st, fogg = fogg_and_rayna((2, 4), (2, 7), flying=False)
    assert fogg.ch.attacks[1].range == 5
    assert st.target_ok(fogg, 1, field(2, 7))


def test_fogg_shot_is_blocked_by_an_object_in_the_line():
    st, fogg = fogg_and_rayna((5, 4), (5, 7), flying=False)  # the street's obstructions at f7, g7
    assert st.board.obstruction[field(5, 5)] and st.board.obstruction[field(5, 6)]
    assert not st.target_ok(fogg, 1, field(5, 7))


def test_fogg_shot_is_legal_again_when_rayna_flies():
    st, fogg = fogg_and_rayna((5, 4), (5, 7), flying=True)
    assert st.target_ok(fogg, 1, field(5, 7))


@pytest.mark.parametrize("roll, damage", [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_fire_damage_table(roll, damage):
    assert combat.fire_damage(roll) == damage


def test_fire_burns_on_the_controllers_next_turn():
    st = position([("Maxian Trooper", 1, (2, 2), S), ("Justice", 0, (5, 2), N)])
    trooper, justice = at(st, 2, 2), at(st, 5, 2)
    force(st, 6, 5, 1, 2)  # 11 + 4 = 15 against 3 + 4 + 0 = 7 -> 8 damage would kill: use a low roll instead
    force(st, 3, 4, 1, 2)  # 7 + 4 = 11 against 3 + 4 = 7 -> 4 damage
    st.roll_attack(trooper, trooper.ch.attacks[1], 1, justice.pos)
    assert justice.life == 4 and justice.burning
    st.turn = 1
    force(st, 5)
    st._next_turn()  # player_0's turn starts: the fire burns for 3
    assert justice.life == 1 and not justice.burning


def test_explosive_area_2_attack_6_attacks_at_6_5_4_by_ring():
    st = position([("Demolisher Droid", 0, (10, 0), N), ("Vegron", 1, (2, 2), S), ("Rayna", 1, (3, 3), S),
                   ("Maxian Trooper", 1, (4, 4), S)], scenario="street_clash")
    demo = at(st, 10, 0)
    spec = demo.ch.attacks[1]
    assert spec.attack == 6 and spec.tags["Explosive"] == 2
    rings = dict(combat.explosion_rings(field(2, 2), 2))
    assert [rings[field(2, 2)], rings[field(3, 3)], rings[field(4, 4)]] == [0, 1, 2]
    scores = [combat.attack_score(st, demo, spec, f, st.unit_at(f), ring=rings[f]) for f in
              (field(2, 2), field(3, 3), field(4, 4))]
    assert scores == [6, 5, 4]


def test_explosion_resolves_one_attack_per_character_in_the_area():
    st = position([("Demolisher Droid", 0, (9, 2), N), ("Spark", 1, (5, 2), S), ("Maxian Trooper", 1, (4, 2), S),
                   ("Acid Spitter", 1, (3, 1), S), ("Justice", 0, (11, 11), N), ("Vegron", 1, (0, 11), S)])
    demo = at(st, 9, 2)
    trooper, spitter = at(st, 4, 2), at(st, 3, 1)
    demo.reserves["ammunition"] = 2
    force(st, 2, 3, 1, 2, 2, 3, 1, 2, 2, 3, 1, 2)
    st.active = 0
    st._resolve_attack(st.units[0], 1, field(4, 2), 0, {})
    # ring 0, the trooper: 5 + 6 = 11 vs 3 + 3 + 1 (Vegron's Affiliate Mod) = 7 -> 4 (defeated); ring 1 in
    # field order: the spitter 5 + 5 = 10 vs 3 + 4 = 7 -> 3, Spark (no Legion mod) 10 vs 3 + 3 = 6 -> 4
    assert not trooper.on_map and spitter.life == 2 and at(st, 5, 2).life == 1


def test_ranged_attack_in_melee_range_gives_the_defender_a_third_die():
    st = position([("Fogg", 0, (5, 2), E), ("Maxian Trooper", 1, (5, 3), W)])
    fogg, trooper = at(st, 5, 2), at(st, 5, 3)
    assert combat.defense_dice(fogg, fogg.ch.attacks[1], trooper) == 3
    assert combat.defense_dice(fogg, fogg.ch.attacks[0], trooper) == 2  # melee: no


def test_no_third_die_when_flying_against_grounded():
    st = position([("Fogg", 0, (5, 2), E), ("Rayna", 1, (5, 3), W)])
    fogg, rayna = at(st, 5, 2), at(st, 5, 3)
    assert rayna.flying
    assert combat.defense_dice(fogg, fogg.ch.attacks[1], rayna) == 2
    rayna.flying = False
    assert combat.defense_dice(fogg, fogg.ch.attacks[1], rayna) == 3


def test_fogg_shot_blocked_by_an_object_is_legal_when_fogg_flies():
    st, fogg = fogg_and_rayna((5, 4), (5, 7), flying=False)
    fogg.flying = True  # "The only way Fogg could make a successful Attack is if Fogg or Rayna were flying"
    assert st.target_ok(fogg, 1, field(5, 7))


def test_no_third_die_when_the_attacker_flies_and_the_defender_is_grounded():
    st = position([("Rayna", 0, (5, 2), E), ("Maxian Trooper", 1, (5, 3), W)])
    rayna, trooper = at(st, 5, 2), at(st, 5, 3)
    assert rayna.flying and combat.defense_dice(rayna, rayna.ch.attacks[1], trooper) == 2
    rayna.flying = False
    assert combat.defense_dice(rayna, rayna.ch.attacks[1], trooper) == 3


# -- Level Changes and Attacks: Fogg on a rooftop, Rayna below (skyline: the left roof is rows 0-3, cols 0-3)
def rooftop(fogg: tuple[int, int], rayna: tuple[int, int], flying: bool = False):
    st = position([("Fogg", 0, fogg, S), ("Rayna", 1, rayna, N), ("Kane", 0, (11, 11), N),
                   ("Warlord Kragg", 1, (0, 11), S)], scenario="rooftop_rescue")
    st.units[1].flying = flying
    return st, st.units[0]


def test_fogg_at_the_ledge_below_her_but_one_space_from_the_right_ledge_cannot_see_rayna_against_the_wall():
    st, fogg = rooftop((3, 2), (3, 4))  # d9 is the roof's ledge downwards; e9, against the roof, is ground
    assert st.board.level[field(3, 2)] == 1 and st.board.level[field(4, 2)] == 0 and st.board.level[field(3, 4)] == 0
    assert not st.target_ok(fogg, 1, field(3, 4))  # "Fogg just cannot see her to attack her"


def test_fogg_sees_rayna_there_when_rayna_flies():
    st, fogg = rooftop((3, 2), (3, 4), flying=True)
    assert st.target_ok(fogg, 1, field(3, 4))


def test_fogg_at_the_ledge_attacks_anyone_in_the_spaces_below_her():
    for rayna in ((4, 2), (5, 2), (6, 1), (6, 3)):
        st, fogg = rooftop((3, 2), rayna)
        assert st.target_ok(fogg, 1, field(*rayna)), rayna


def test_fogg_one_position_up_sees_no_one_on_the_lower_level():
    for rayna in ((3, 4), (4, 2), (5, 2), (4, 5), (6, 3)):
        st, fogg = rooftop((2, 2), rayna)
        assert not st.target_ok(fogg, 1, field(*rayna)), rayna


def test_from_below_rayna_sees_fogg_only_at_the_ledge_the_line_crosses():
    st = position([("Rayna", 0, (5, 2), N), ("Fogg", 1, (3, 2), S), ("Kane", 1, (11, 11), N),
                   ("Warlord Kragg", 0, (0, 11), S)], scenario="rooftop_rescue")
    rayna = st.units[0]
    rayna.flying = False
    assert st.target_ok(rayna, 1, field(3, 2))  # Fogg at the roof's ledge, seen from the street
    st.units[1].pos = field(2, 2)
    assert not st.target_ok(rayna, 1, field(2, 2))  # one space back: hidden


def back_stab_example():
    """Movement and Attacking, Back Stab: Rayna attacks Fogg from one of her 3 back-arch spaces (+2), and is
    turned by it; then it is Fogg's turn."""
    from tests.ultra_war.positions import select
    from ultimata.envs.ultra_war import actions as A

    st = position([("Fogg", 0, (6, 3), N), ("David Barrett", 0, (11, 11), N), ("Rayna", 1, (7, 3), N),
                   ("Vegron", 1, (0, 0), S)])
    st.apply(A.END_TURN)
    select(st, 7, 3)
    force(st, 1, 2, 6, 5)  # 3 + 4 + 2 (back stab) = 9 against 11 + 3: Fogg unhurt
    st.apply(A.ATTACK + A.to_field(field(6, 3), 1))
    rayna = at(st, 7, 3)
    assert rayna.turned and not rayna.flying and any("back stab +2" in e for e in st.events)
    st.apply(A.END_TURN)
    select(st, 6, 3)
    st.events.clear()
    return st, rayna


def test_back_stab_on_foggs_next_turn_she_turns_to_face_rayna_without_a_free_strike():
    """"On Fogg's next turn she may turn to face Rayna without taking a Free Strike penalty"."""
    from ultimata.envs.ultra_war import actions as A

    st, _ = back_stab_example()
    st.apply(A.FACE + S)
    assert at(st, 6, 3).facing == S and not any("free strike" in e for e in st.events)


def test_back_stab_rayna_turned_by_her_attack_still_strikes_fogg_stepping_out_of_her_zone():
    """The sentence above needs saying only if the turned Rayna could strike: by default (v4,
    `turned_characters_strike`) a step out of her front and sides draws her free strike."""
    from tests.ultra_war.positions import step

    st, rayna = back_stab_example()
    force(st, 1, 1, 6, 5)
    step(st, 5, 3)
    assert any("Rayna gets a free strike" in e for e in st.events)
