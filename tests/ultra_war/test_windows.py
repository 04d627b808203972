"""Quick windows (book: Enhancement Cards, Quick Enhancements; "Any ability that a Character can play by
paying a cost ... [is] played at Quick Enhancement speed"): who gets the decision, what fits, the stack
resolving last-played-first, on every trigger (attacks, area attacks, free strikes, feats)."""

from __future__ import annotations

import pytest

from tests.ultra_war.positions import E, N, S, W, at, crystal, force, position, select, step
from ultimata.envs.core.errors import IllegalActionError
from ultimata.envs.ultra_war import actions as A
from ultimata.envs.ultra_war.geometry import field
from ultimata.envs.ultra_war.phases import ACTIVE, MAIN, QUICK
from ultimata.envs.ultra_war.units import Source

SLOT1 = A.ATTACK + 144
"""ATTACK with the character's second own attack (add the field)."""




def duel_of_generals(hand0: list[str], hand1: list[str]):
    """Vegron (player_1, to move) next to Justice; each bears its faction's crystal with 5 points."""
    st = position([("Justice", 0, (6, 3), E), ("Vegron", 1, (6, 4), W)])
    crystal(st, 0, 5, "Crystal of the Round", 0)
    crystal(st, 1, 5, "Maxian Crystal", 1)
    st.hands = [hand0, hand1]
    st.turn = 1
    select(st, 6, 4)
    return st


def test_the_window_goes_to_the_defender_then_back_to_the_attacker_and_two_passes_close_it():
    st = duel_of_generals(["Shield Wall", "Shield Wall"], ["Savage Strike"])
    st.apply(A.ATTACK + A.to_field(field(6, 3), 1))
    assert st.phase == QUICK and st.current_player == 0
    st.apply(A.PLAY)  # Shield Wall: +2 defence
    assert st.current_player == 1
    st.apply(A.PLAY)  # Savage Strike: +2 attack
    assert st.current_player == 0 and [n for _, n, _ in st.stack] == ["Shield Wall", "Savage Strike"]
    # Vegron: 3 dice (Initiative), best two 3 + 3, + offense 5 + 1 (his Affiliate Mod) + 2 = 14;
    # Justice: 2 + 2 + defence 4 + 2 = 10 -> 4 damage
    force(st, 3, 3, 1, 2, 2)
    st.apply(A.PASS)  # player_1 has nothing left: its pass is automatic, and two passes close the window
    assert st.phase in (ACTIVE, MAIN) and at(st, 6, 3).life == 4


def test_the_attacker_answers_first_when_the_defender_has_nothing_that_fits():
    st = duel_of_generals([], ["Savage Strike"])
    st.apply(A.ATTACK + A.to_field(field(6, 3), 1))
    assert st.phase == QUICK and st.current_player == 1
    with pytest.raises(IllegalActionError):
        st.apply(A.USE + A.to_field(field(6, 4), 1))  # Void Ward guards Vegron only when he is attacked
    force(st, 1, 1, 1, 6, 6)  # a defender's double six: the attack fails (and deals a d6 back)
    st.apply(A.PASS)
    assert at(st, 6, 3).life == 8 and st.phase in (ACTIVE, MAIN)


def test_a_defence_card_does_not_fit_the_attackers_side_and_an_offence_card_not_the_defenders():
    st = duel_of_generals(["Shield Wall"], ["Dark Ward", "Savage Strike"])
    st.apply(A.ATTACK + A.to_field(field(6, 3), 1))
    st.apply(A.PLAY)
    assert st.current_player == 1
    assert A.PLAY not in st.legal_actions() and A.PLAY + 1 in st.legal_actions()  # Dark Ward: Vegron is not hit


def test_a_sneak_attack_opens_no_window():
    st = position([("Squire Wren", 0, (6, 3), E), ("Maxian Trooper", 1, (6, 4), W), ("Justice", 0, (11, 11), N),
                   ("Vegron", 1, (0, 0), S)])
    crystal(st, 3, 5, "Maxian Crystal", 1)
    st.hands[1] = ["Dark Ward"]
    select(st, 6, 3)
    force(st, 1, 2, 1, 1)
    st.apply(SLOT1 + field(6, 4))  # Ambush: "Priority over any ability ... in response"
    assert st.phase != QUICK and st.hands[1] == ["Dark Ward"]


def test_an_area_attack_opens_a_window_and_a_defence_card_covers_every_character_of_the_side_in_it():
    st = position([("Demolisher Droid", 0, (9, 2), N), ("Maxian Trooper", 1, (5, 2), S), ("Acid Spitter", 1, (4, 2), S),
                   ("Justice", 0, (11, 4), N), ("Vegron", 1, (0, 11), S)])  # (Justice: the droid's Minion Hub)
    crystal(st, 4, 5, "Maxian Crystal", 1)
    st.hands[1] = ["Dark Ward"]
    select(st, 9, 2)
    st.apply(SLOT1 + field(5, 2))  # Grenade Launcher, Explosive 2, at the trooper
    assert st.phase == QUICK and st.current_player == 1 and st.units[0].reserves["ammunition"] == 1
    # ring 0 (the trooper): 2 + 3 + 6 = 11 vs 2 + 2 + 3 + 1 + 2 = 10 -> 1; ring 1 (the spitter): 10 vs 10 -> 0
    force(st, 2, 3, 2, 2, 2, 3, 2, 2)
    st.apply(A.PLAY)
    assert st.units[1].life == 3 and st.units[2].life == 5


def test_a_free_strike_opens_a_window_for_the_mover_and_the_move_goes_on_after_it():
    st = position([("Justice", 0, (6, 3), N), ("Vegron", 1, (6, 4), W)])
    crystal(st, 0, 5, "Crystal of the Round", 0)
    st.hands[0] = ["Shield Wall"]
    select(st, 6, 3)
    step(st, 6, 2)  # out of Vegron's front and sides: a free strike
    assert st.phase == QUICK and st.current_player == 0 and st.strikes == []
    # Vegron: best two of 2, 2, 1 = 4, + 5 + 1 + 2 (free strike) = 12; Justice: 2 + 2 + 4 + 2 = 10 -> 2
    force(st, 2, 2, 1, 2, 2)
    st.apply(A.PLAY)
    assert st.phase == ACTIVE and at(st, 6, 2).life == 6 and st.units[0].steps == 1
    step(st, 7, 2)  # the activation goes on


def test_every_free_strike_of_a_step_gets_its_own_window_in_turn():
    st = position([("Justice", 0, (6, 3), N), ("Vegron", 1, (6, 4), W), ("Rayna", 1, (5, 3), S)])
    st.units[2].flying = False  # a grounded Rayna can strike a grounded Justice
    crystal(st, 0, 5, "Crystal of the Round", 0)
    st.hands[0] = ["Shield Wall", "Shield Wall"]
    select(st, 6, 3)
    step(st, 7, 2)  # leaves both: Vegron's front and sides, and Rayna's
    assert st.phase == QUICK and st.strikes == [2] and st.units[st.attack[0]].name == "Vegron"
    force(st, 1, 1, 1, 1, 2)  # Vegron's strike: a critical miss
    st.apply(A.PASS)
    assert st.phase == QUICK and st.units[st.attack[0]].name == "Rayna" and st.strikes == []
    force(st, 1, 1, 1, 2)
    st.apply(A.PASS)
    assert st.phase == ACTIVE and at(st, 7, 2).life == 8


def test_an_enemy_feat_opens_a_window_where_jam_signal_cancels_it():
    st = position([("Edward Blackstone", 0, (7, 4), N), ("David Barrett", 1, (5, 4), S)], scenario="relay_hold")
    tripod = Source(0, "Tripod Entity", 3)
    tripod.pos = field(11, 11)
    st.sources = [tripod]
    st.hands = [["Jam Signal"], ["Overload"]]
    st.turn = 1
    st.apply(A.PLAY)
    st.apply(A.TARGET + A.to_field(field(5, 4), 1))
    st.apply(A.TARGET + A.to_field(field(7, 4), 1))
    assert st.phase == QUICK and st.current_player == 0 and st.stack == [[1, "Overload", -1]]
    assert st.units[1].reserves["electrical"] == 0 and st.units[1].turned  # paid and turned on declaring
    force(st, 6, 6, 1, 1)
    st.apply(A.PLAY)  # Jam Signal cancels the feat below it
    assert st.phase == MAIN and st.turn == 1 and st.units[0].life == 7 and st.rng.rolls == [6, 6, 1, 1]
    assert st.hands == [[], []] and st.discards == [1, 1]


def test_a_source_defence_ability_answers_in_a_window_paid_from_that_source():
    st = position([("Justice", 0, (6, 3), E), ("Vegron", 1, (6, 4), W), ("Rayna", 1, (0, 0), S)])
    ward = crystal(st, 1, 2, "Maxian Crystal", 1)
    other = crystal(st, 2, 9, "Maxian Crystal", 1)
    select(st, 6, 3)
    st.apply(A.ATTACK + field(6, 4))
    assert st.phase == QUICK and st.current_player == 1
    assert A.USE + A.to_field(field(6, 4), 1) in st.legal_actions()
    # Justice: 4 + 3 + 5 + 1 = 13; Vegron: best two of 3, 2, 1 = 5, + 5 + 1 + 2 (Void Ward) = 13 -> 0
    force(st, 4, 3, 3, 2, 1)
    st.apply(A.USE + A.to_field(field(6, 4), 1))
    assert ward.points == 0 and other.points == 9 and st.units[1].life == 9


def test_mend_answers_an_attack_on_its_bearer_and_resolves_before_the_attack():
    st = position([("Justice", 0, (6, 3), E), ("Vegron", 1, (6, 4), W)])
    mend = crystal(st, 0, 2, "Crystal of the Round", 0)
    st.units[0].life = 2
    st.turn = 1
    select(st, 6, 4)
    st.apply(A.ATTACK + A.to_field(field(6, 3), 1))
    assert st.current_player == 0
    # Vegron: 3 + 3 + 6 = 12; Justice: 2 + 2 + 4 = 8 -> 4 damage, after Mend's +2 (2 -> 4): defeated
    force(st, 3, 3, 1, 2, 2)
    st.apply(A.USE + field(6, 3))
    assert mend.points == 0 and not st.units[0].on_map
