"""Power sources and reserves (book: Power Sources and their Functions, Crystals, Power Source Abilities;
glossary Energy or Magic Transfer, Legacy), each rule on a set position with the dice forced."""

from __future__ import annotations

import pytest

from tests.ultra_war.positions import E, N, S, W, crystal, force, legal, position, select
from ultimata.envs.core.errors import IllegalActionError
from ultimata.envs.ultra_war import actions as A
from ultimata.envs.ultra_war.geometry import field
from ultimata.envs.ultra_war.phases import ACTIVE, MAIN, OVER, PAUSE
from ultimata.envs.ultra_war.units import Source


# -- crystals ----------------------------------------------------------------------------------
def test_a_crystal_is_given_to_an_own_character_within_one_space_keeping_its_points():
    st = position([("Justice", 0, (6, 3), E), ("Skydas", 0, (6, 4), W), ("Sir Gareth", 0, (8, 3), N),
                   ("Vegron", 1, (0, 0), S)])
    s = crystal(st, 0, 4)
    select(st, 6, 3)
    assert A.TARGET + field(6, 4) in legal(st) and A.TARGET + field(8, 3) not in legal(st)
    with pytest.raises(IllegalActionError):
        st.apply(A.TARGET + field(8, 3))
    st.apply(A.TARGET + field(6, 4))
    assert s.bearer == 1 and s.points == 4 and st.pool(0) == 4
    assert st.phase == ACTIVE and A.TARGET + field(6, 4) not in legal(st)  # Justice has no crystal left


def test_a_given_crystal_is_carried_the_receivers_equipped_crystal_stays_equipped():
    st = position([("Justice", 0, (6, 3), E), ("Skydas", 0, (6, 4), W), ("Vegron", 1, (0, 0), S)])
    given = crystal(st, 0, 4)
    own = crystal(st, 1, 2)
    st.sources = [given, own]  # the given one comes first in the list: order must not decide
    select(st, 6, 3)
    st.apply(A.TARGET + field(6, 4))
    assert st.equipped_crystal(st.units[1]) is own and st.pool(0) == 2 and len(st.borne(st.units[1])) == 2


def test_a_dropped_crystal_picked_up_by_an_enemy_powers_the_enemy():
    st = position([("Maxian Trooper", 1, (6, 5), W), ("Justice", 0, (11, 11), N), ("Vegron", 1, (0, 0), S)])
    s = Source(0, "Crystal of the Round", 0)
    s.pos = field(6, 4)
    st.sources = [s]
    st.turn = 1
    select(st, 6, 5)
    st.apply(A.STEP + A.to_field(field(6, 4), 1))
    assert s.bearer == 0 and s.side == 1
    st.apply(A.END_ACT)
    st.apply(A.END_TURN)  # player_0's turn: the crystal is player_1's now and does not grow for player_0
    assert s.points == 0 and st.pool(1) == 0
    st.apply(A.END_TURN)
    assert s.points == 1 and st.pool(1) == 1


def test_a_crystal_follows_its_bearer_into_the_void_and_comes_back_with_its_points():
    st = position([("Justice", 0, (6, 2), S), ("Vegron", 1, (4, 2), S)])  # Vegron faces Justice
    jc = crystal(st, 0, 5)
    crystal(st, 1, 5, "Maxian Crystal", side=1)
    st.hands[1] = ["Void Rift"]
    st.turn = 1
    st.apply(A.PLAY)
    st.apply(A.TARGET + A.to_field(field(4, 2), 1))
    force(st, 6, 5, 1, 1)  # 11 + 3 vs 2 + 2: the feat succeeds
    st.apply(A.TARGET + A.to_field(field(6, 2), 1))
    justice = st.units[0]
    assert justice.pos == -1 and justice.void == 2 and justice.life == 8 and st.phase == MAIN
    assert jc.bearer == 0 and st.pool(0) == 0 and st.active_general(0) is None
    st.apply(A.END_TURN)  # player_0's turn: Justice is still in the Void, the crystal does not grow
    assert justice.pos == -1 and jc.points == 5 and st.phase == MAIN
    st.apply(A.END_TURN)
    st.apply(A.END_TURN)  # player_0's next turn: back on its space, the crystal grows again
    assert justice.pos == field(6, 2) and justice.void == 0 and jc.points == 6 and st.pool(0) == 6


def test_the_void_returns_a_character_to_the_nearest_free_space_when_its_own_is_taken():
    st = position([("Justice", 0, (6, 5), S), ("Sir Gareth", 0, (11, 11), N), ("Vegron", 1, (0, 0), S)])
    st._send_to_void(st.units[0], 1)
    st.units[2].pos = field(6, 5)  # Vegron stands where Justice left
    st.turn = 1
    st._next_turn()
    assert st.units[0].pos == field(5, 4)  # one space away, the first in field order


def test_crystal_magic_reserve_is_usable_only_while_a_crystal_powers_the_character():
    st = position([("Justice", 0, (9, 5), N), ("Vegron", 1, (6, 5), S)])
    justice = st.units[0]
    assert justice.reserves == {"crystal_magic": 3}
    assert st.feat_pool(justice, "magic") == 0
    crystal(st, 0, 1)
    assert st.feat_pool(justice, "magic") == 3


def test_a_magic_ability_is_paid_from_the_characters_reserve_then_its_crystal_then_a_transfer_partner():
    st = position([("Skydas", 0, (9, 5), N), ("Justice", 0, (11, 11), N), ("Vegron", 1, (6, 5), S)])
    skydas = st.units[0]
    bolt = skydas.ch.attacks[1]
    skydas.reserves["magic"] = 0
    assert bolt.cost.reserve == "magic" and not st.target_ok(skydas, 1, field(6, 5))
    s = crystal(st, 0, 2)
    assert st.ability_budget(skydas, "magic") == 2 and st.target_ok(skydas, 1, field(6, 5))
    st.pay_ability(skydas, "magic", 1)
    assert s.points == 1


def test_a_source_ability_is_paid_only_from_that_sources_own_points():
    st = position([("Justice", 0, (9, 5), N), ("Sir Gareth", 0, (9, 7), N), ("Vegron", 1, (0, 0), S)])
    justice = st.units[0]
    justice.life = 4
    own = crystal(st, 0, 1)
    crystal(st, 1, 9)  # Sir Gareth's: 9 points that cannot pay for Justice's crystal's Mend
    assert st.pool(0) == 10 and A.USE + field(9, 5) not in legal(st)
    own.points = 2
    assert A.USE + field(9, 5) in legal(st)
    st.apply(A.USE + field(9, 5))
    assert justice.life == 6 and own.points == 0 and st.pool(0) == 9 and st.phase == MAIN
    assert A.USE + field(9, 5) not in legal(st)


def test_mend_is_not_offered_at_full_life():
    st = position([("Justice", 0, (9, 5), N), ("Vegron", 1, (0, 0), S)])
    crystal(st, 0, 5)
    assert not any(A.USE <= a < A.TRANSFER for a in legal(st))


def test_the_tripods_reboot_brings_powered_down_droids_in_its_range_back_online():
    st = position([("Edward Blackstone", 0, (11, 0), N), ("Vigil Droid", 0, (7, 8), N),
                   ("Vigil Droid", 0, (1, 1), N), ("David Barrett", 1, (0, 11), S)], scenario="relay_hold")
    tripod = Source(0, "Tripod Entity", 3)
    tripod.pos = field(7, 9)
    st.sources = [tripod]
    near, far = st.units[1], st.units[2]
    near.powered_down = near.turned = far.powered_down = far.turned = True
    st.apply(A.USE + field(7, 9))
    assert not near.powered_down and not near.turned and far.powered_down and tripod.points == 1
    assert A.SELECT + near.slot in legal(st)


def test_the_generators_overcharge_recharges_energy_reserves_within_its_range():
    st = position([("Spark", 0, (9, 9), N), ("David Barrett", 0, (5, 5), N), ("Edward Blackstone", 1, (0, 0), S)],
                  scenario="relay_hold")
    gen = Source(0, "Street Generator", 2)
    gen.pos = field(10, 10)
    st.sources = [gen]
    spark, barrett = st.units[0], st.units[1]
    spark.reserves["electrical"], barrett.reserves["electrical"] = 1, 0
    st.apply(A.USE + field(10, 10))
    assert spark.reserves["electrical"] == 3 and barrett.reserves["electrical"] == 0 and gen.points == 0


# -- Magic / Energy Transfer (glossary) --------------------------------------------------------
def test_magic_transfer_moves_a_point_into_a_neighbours_reserve_even_when_turned():
    st = position([("Skydas", 0, (9, 5), N), ("Justice", 0, (9, 6), N), ("Sir Gareth", 0, (11, 11), N),
                   ("Vegron", 1, (0, 0), S)])
    skydas, justice = st.units[0], st.units[1]
    justice.reserves["crystal_magic"] = 0
    skydas.turned = True
    assert A.TRANSFER + field(9, 6) in legal(st) and A.TRANSFER + field(11, 11) not in legal(st)
    st.apply(A.TRANSFER + field(9, 6))
    assert skydas.reserves["magic"] == 4 and justice.reserves["crystal_magic"] == 1
    justice.reserves["crystal_magic"] = 3
    assert not any(A.TRANSFER <= a < A.SELECT for a in legal(st))  # full: nothing to move into


def test_energy_transfer_moves_an_energy_point_of_the_same_kind():
    st = position([("Spark", 0, (9, 5), N), ("David Barrett", 0, (8, 5), N), ("Edward Blackstone", 1, (0, 0), S)],
                  scenario="relay_hold")
    barrett = st.units[1]
    barrett.reserves["electrical"] = 0
    select(st, 9, 5)
    st.apply(A.PAUSE)  # in the middle of Spark's own activation, too
    st.apply(A.TRANSFER + field(8, 5))
    assert st.units[0].reserves["electrical"] == 3 and barrett.reserves["electrical"] == 1 and st.phase == PAUSE
    st.apply(A.PASS)
    assert st.phase == ACTIVE


def test_energy_transfer_helps_pay_a_neighbours_energy_attack():
    st = position([("Shock Trooper", 0, (6, 4), E), ("Spark", 0, (7, 4), N), ("Vegron", 1, (6, 5), W)],
                  scenario="relay_hold")
    trooper = st.units[0]
    trooper.reserves["electrical"] = 0
    assert st.ability_budget(trooper, "electrical") == 4 and st.target_ok(trooper, 1, field(6, 5))
    st.pay_ability(trooper, "electrical", 1)
    assert st.units[1].reserves["electrical"] == 3


# -- Legacy (glossary) -------------------------------------------------------------------------
def test_legacy_goes_to_the_equipped_crystal_first_then_the_magic_reserve():
    st = position([("Sir Gareth", 0, (9, 5), N), ("Justice", 0, (11, 11), N), ("Vegron", 1, (0, 0), S)])
    s = crystal(st, 0, 9)
    st.turn = 1
    st._next_turn()  # power event +1 (10) and Legacy 1: the crystal is full, Gareth has no magic reserve
    assert s.points == 10
    s.points = 5
    st.turn = 1
    st._next_turn()
    assert s.points == 7  # Legacy 1 and the power event's 1


def test_a_defeated_bearer_drops_every_crystal_it_bears():
    st = position([("Justice", 0, (6, 3), E), ("Vegron", 1, (6, 4), W)])
    a, b = crystal(st, 1, 4, side=1), crystal(st, 1, 2, side=1)
    st.units[1].life = 1
    force(st, 6, 5, 1, 1)
    st.roll_attack(st.units[0], st.units[0].ch.attacks[0], 0, field(6, 4))
    assert st.phase == OVER  # Vegron was player_1's only General
    assert (a.pos, a.points, a.bearer) == (field(6, 4), 0, -1) and (b.pos, b.points) == (field(6, 4), 0)
