"""What a character may do in its activation besides stepping and attacking (book: Player Turns, Flying,
Engagement and Flight Ability, Equipment Cards, glossary Flight and Stealth Reveal), with the dice forced."""

from __future__ import annotations

import pytest

from tests.ultra_war.positions import E, N, S, W, at, force, legal, position, select, step, steps
from ultimata.envs.core.errors import IllegalActionError
from ultimata.envs.ultra_war import actions as A
from ultimata.envs.ultra_war.geometry import field
from ultimata.envs.ultra_war.phases import ACTIVE, CARD_TARGET, MAIN, PAUSE, QUICK
from ultimata.envs.ultra_war.units import Source


def generator(st, side: int, points: int, f: int) -> None:
    s = Source(side, "Street Generator", points)
    s.pos = f
    st.sources.append(s)




# -- Play cards in the movement event (book: Player Turns) -------------------------------------
def test_play_cards_are_played_in_the_movement_event_but_not_after_the_attack():
    st = position([("Ghost", 0, (9, 5), N), ("Maxian Trooper", 1, (6, 5), S), ("Justice", 0, (11, 11), N),
                   ("Vegron", 1, (0, 0), S)])
    generator(st, 0, 5, field(11, 0))
    st.hands[0] = ["Swift Boots"]
    select(st, 9, 5)
    step(st, 8, 5)
    assert A.PLAY not in legal(st)  # the activation's own decisions: cards wait for a pause
    st.apply(A.PAUSE)
    assert st.phase == PAUSE and legal(st) == {A.PLAY, A.PASS}
    st.apply(A.PLAY)  # Swift Boots (+1 movement) on Ghost, in the middle of its move
    assert st.phase == CARD_TARGET
    st.apply(A.TARGET + field(8, 5))
    assert st.phase == PAUSE and st.units[0].standard == "Swift Boots" and st.full_movement(st.units[0]) == 6
    st.apply(A.PASS)  # resume
    assert st.phase == ACTIVE and st.units[0].steps == 1
    step(st, 7, 5)
    force(st, 1, 2, 1, 1)
    st.apply(A.ATTACK + field(6, 5))  # the attack event: only quick cards from now on
    assert st.phase == ACTIVE and st.units[0].attacks_made == 1  # Empowered: the activation goes on
    st.hands[0] = ["Round Shield"]
    st.apply(A.PAUSE)
    assert A.PLAY in legal(st)  # Ghost is Empowered: it may still play cards after attacking


def test_a_pause_after_the_attack_event_offers_no_play_cards():
    st = position([("Justice", 0, (6, 3), E), ("Vegron", 1, (6, 4), W), ("Sir Gareth", 0, (9, 9), N)])
    generator(st, 0, 5, field(11, 0))
    st.hands[0] = ["Round Shield"]
    st.units[0].ch = st.units[0].ch.model_copy(update={"abilities": {"Dual Attack": None}})
    select(st, 6, 3)
    force(st, 1, 1, 1, 2, 2)
    st.apply(A.ATTACK + field(6, 4))  # a critical miss; Dual Attack keeps the activation going
    assert st.phase == ACTIVE
    st.apply(A.PAUSE)
    assert legal(st) == {A.PASS}  # the Attack Event: Play cards only before the character's attack


def test_a_feat_in_the_middle_of_an_activation_turns_its_performer_and_ends_its_moves():
    st = position([("Justice", 0, (9, 5), N), ("Vegron", 1, (6, 5), S)])
    generator(st, 0, 5, field(11, 0))
    st.hands[0] = ["Holy Fire"]
    select(st, 9, 5)
    step(st, 8, 5)
    st.apply(A.PAUSE)
    st.apply(A.PLAY)
    st.apply(A.TARGET + field(8, 5))
    force(st, 6, 6, 1, 1)
    st.apply(A.TARGET + field(6, 5))
    justice = st.units[0]
    assert st.phase == PAUSE and justice.turned and st.units[1].life == 7
    st.apply(A.PASS)
    assert steps(st) == set() and not any(A.ATTACK <= a < A.TARGET for a in legal(st))
    assert A.END_ACT in legal(st) and A.FACE not in legal(st)


def test_a_character_that_declared_a_plain_charge_performs_no_feat():
    st = position([("Justice", 0, (9, 5), N), ("Vegron", 1, (6, 5), S)])
    generator(st, 0, 5, field(11, 0))
    st.hands[0] = ["Holy Fire"]
    select(st, 9, 5)
    st.apply(A.CHARGE)
    st.apply(A.PAUSE)
    assert legal(st) == {A.PASS}  # Justice is the only possible performer


# -- flight: landing and taking off (book: Flying, Engagement and Flight Ability) ------------------
def test_an_innate_flyer_lands_by_a_decision_and_stays_grounded_until_it_takes_off():
    st = position([("Rayna", 1, (4, 4), S), ("Justice", 0, (11, 11), N), ("Vegron", 1, (0, 0), S)])
    rayna = st.units[0]
    st.turn = 1
    select(st, 4, 4)
    st.apply(A.FLY)
    assert not rayna.flying and rayna.landed and st.phase == ACTIVE
    st.apply(A.END_ACT)
    st.apply(A.END_TURN)
    st.apply(A.END_TURN)
    assert not rayna.flying  # declared grounded: it stays so
    select(st, 4, 4)
    st.apply(A.FLY)  # not engaged: no free strike
    assert rayna.flying and not rayna.landed and st.phase == ACTIVE


def test_fly_and_pause_come_back_only_after_a_step_or_an_attack_so_an_activation_cannot_loop():
    """Ours (v2): a learned policy took off and landed thousands of times in one activation."""
    st = position([("Rayna", 1, (4, 4), S), ("Justice", 0, (11, 11), N), ("Vegron", 1, (0, 0), S)])
    rayna = st.units[0]
    st.turn = 1
    select(st, 4, 4)
    st.apply(A.FLY)
    assert not rayna.flying and A.FLY not in legal(st), "landed: no take-off before a move"
    st.apply(A.PAUSE)
    st.apply(A.PASS)
    assert A.PAUSE not in legal(st) and A.END_ACT in legal(st), "resumed: no second pause before a move"
    with pytest.raises(IllegalActionError):
        st.apply(A.FLY)
    step(st, 5, 4)
    assert {A.FLY, A.PAUSE} <= legal(st), "a step brings both back"
    st.apply(A.FLY)
    assert rayna.flying and rayna.flew and rayna.steps == 1


def test_the_activation_so_far_is_in_both_seats_observations():
    from ultimata.envs.ultra_war.geometry import FIELDS
    from ultimata.envs.ultra_war.observation import ACTIVATION_AT, GLOBALS_AT, PLANES

    st = position([("Rayna", 1, (4, 4), S), ("Justice", 0, (11, 11), N), ("Vegron", 1, (0, 0), S)])
    st.turn = 1
    select(st, 4, 4)
    step(st, 5, 4)
    st.apply(A.FLY)
    at = PLANES * FIELDS + GLOBALS_AT + ACTIVATION_AT
    for seat in (0, 1):
        assert list(st.observation(seat)[at: at + 5]) == pytest.approx([1 / 12, 0.0, 0.0, 1.0, 0.0])


def test_taking_off_while_engaged_draws_a_free_strike_from_every_engaged_enemy():
    st = position([("Rayna", 1, (5, 4), S), ("Justice", 0, (6, 4), N), ("Sir Gareth", 0, (5, 3), E),
                   ("Vegron", 1, (0, 0), S)])
    rayna = st.units[0]
    rayna.flying, rayna.landed = False, True
    st.turn = 1
    select(st, 5, 4)
    force(st, 1, 1, 1, 2, 1, 1, 1, 2)  # two critical misses
    st.apply(A.FLY)
    assert sum("gets a free strike" in e for e in st.events) == 2
    assert rayna.flying and st.phase == ACTIVE and rayna.life == 6


def test_a_free_strike_on_take_off_hits_the_character_while_it_is_still_grounded():
    st = position([("Rayna", 1, (5, 4), S), ("Justice", 0, (6, 4), N), ("Vegron", 1, (0, 0), S)])
    rayna = st.units[0]
    rayna.flying, rayna.landed = False, True
    st.turn = 1
    select(st, 5, 4)
    # Justice: 3 + 3 + 5 + 1 + 2 (free strike) = 14 vs Rayna: 1 + 2 + 3 + 1 (Vegron's mod) = 7 -> 7: defeated
    force(st, 3, 3, 1, 2)
    st.apply(A.FLY)
    assert not rayna.on_map and st.phase == MAIN


def test_an_innate_flyer_grounded_by_its_melee_attack_takes_off_again_only_next_turn():
    st = position([("Rayna", 1, (5, 4), S), ("Justice", 0, (6, 4), N), ("Vegron", 1, (0, 0), S)])
    rayna = st.units[0]
    rayna.ch = rayna.ch.model_copy(update={"abilities": {**rayna.ch.abilities, "Empowered": None}})
    st.turn = 1
    select(st, 5, 4)
    force(st, 1, 1, 1, 2)
    st.apply(A.ATTACK + A.to_field(field(6, 4), 1))
    assert not rayna.flying and not rayna.landed and A.FLY not in legal(st)
    st.apply(A.END_ACT)
    st.apply(A.END_TURN)
    st.apply(A.END_TURN)
    assert rayna.flying  # "gains the ability again at the beginning of the controller's next turn"


def test_a_flyer_cannot_land_over_another_pawn():
    st = position([("Rayna", 0, (6, 5), N), ("Vegron", 1, (5, 5), S), ("Justice", 0, (11, 11), N)])
    select(st, 6, 5)
    step(st, 5, 5)
    assert A.FLY not in legal(st)


def test_flight_equipment_starts_grounded_takes_off_and_cannot_be_dropped_in_flight():
    st = position([("Maxian Trooper", 1, (4, 4), S), ("Justice", 0, (11, 11), N), ("Vegron", 1, (0, 0), S)])
    s = Source(1, "Maxian Crystal", 5)
    s.bearer = 2
    st.sources = [s]
    st.hands[1] = ["Wing Harness"]
    st.turn = 1
    st.apply(A.PLAY)
    st.apply(A.TARGET + A.to_field(field(4, 4), 1))
    trooper = st.units[0]
    assert trooper.standard == "Wing Harness" and not trooper.flying and trooper.landed
    select(st, 4, 4)
    assert A.DROP + 3 in legal(st)
    st.apply(A.FLY)
    assert trooper.flying and A.DROP + 3 not in legal(st)
    with pytest.raises(IllegalActionError):
        st.apply(A.DROP + 3)


def test_acid_destroying_flight_gear_grounds_its_wearer():
    st = position([("Justice", 0, (6, 3), E), ("Maxian Trooper", 1, (6, 4), W), ("Vegron", 1, (0, 0), S)])
    trooper = st.units[1]
    trooper.standard, trooper.flying = "Wing Harness", True
    st.units[0].flying = True  # (a flying Justice may strike it)
    spec = st.units[0].ch.attacks[0].model_copy(update={"tags": {"Acid": None}})
    force(st, 3, 3, 1, 1, 5)  # 6 + 5 + 1 = 12 vs 2 + 3 + 1 = 6 -> 6 damage (it has 20 life), then acid's d6: 5
    trooper.ch = trooper.ch.model_copy(update={"life": 20})
    trooper.life = 20
    st.roll_attack(st.units[0], spec, 0, trooper.pos)
    assert trooper.life == 14 and trooper.standard == "" and not trooper.flying


# -- equipment (book: Equipment Cards) --------------------------------------------------------
def test_attached_equipment_is_dropped_at_will_on_its_controllers_turn():
    st = position([("Justice", 0, (9, 5), N), ("Vegron", 1, (0, 0), S)])
    justice = st.units[0]
    justice.weapon, justice.armor = "Knight's Sword", "Round Shield"
    assert not any(A.DROP <= a < A.PASS for a in legal(st))  # not outside its activation
    select(st, 9, 5)
    assert {A.DROP, A.DROP + 2} <= legal(st) and A.DROP + 1 not in legal(st) and A.DROP + 3 not in legal(st)
    st.apply(A.DROP)
    assert justice.weapon == "" and justice.armor == "Round Shield" and st.discards == [0, 0]
    assert st.phase == ACTIVE


# -- Stealth Reveal (glossary) -----------------------------------------------------------------
def test_stealth_reveal_removes_stealth_from_every_character_in_its_area():
    st = position([("Tristan the Bowman", 0, (9, 2), N), ("Fogg", 1, (5, 2), S), ("Justice", 0, (11, 11), N),
                   ("Vegron", 1, (0, 0), S)])
    tristan, fogg = st.units[0], st.units[1]
    assert tristan.param("Stealth Reveal") == 3 and st.stealthed(fogg)  # 4 spaces away: outside its area
    st.units[2].pos = field(6, 3)
    st.units[2].ch = st.units[2].ch.model_copy(update={"abilities": {"Stealth Reveal": 1}})
    assert not st.stealthed(fogg)  # anyone's area removes it: Justice's, one space from Fogg


def test_a_character_with_stealth_reveal_cannot_be_sneak_attacked():
    st = position([("Squire Wren", 0, (6, 3), E), ("Tristan the Bowman", 1, (6, 4), W), ("Justice", 0, (11, 11), N),
                   ("Vegron", 1, (0, 0), S)])
    select(st, 6, 3)
    assert A.ATTACK + field(6, 4) in legal(st) and A.ATTACK + 144 + field(6, 4) not in legal(st)  # no Ambush
    assert at(st, 6, 4).has("Stealth Reveal") and st.phase != QUICK
