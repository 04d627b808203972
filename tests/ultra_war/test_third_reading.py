"""Issue 50's third reading of the book: each finding on the position the issue names, with the dice forced."""

from __future__ import annotations

import copy

import pytest

from tests.ultra_war.positions import N, S, W, force, legal, position, select, step
from ultimata.envs.core.errors import IllegalActionError, UltimataError
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultra_war import actions as A
from ultimata.envs.ultra_war.game import UltraWarGame
from ultimata.envs.ultra_war.geometry import FIELDS, field
from ultimata.envs.ultra_war.phases import DEVIATE, MAIN, OVER, QUICK, SETUP


def attack(st, slot, r, c):
    st.apply(A.ATTACK + slot * FIELDS + A.to_field(field(r, c), st.current_player))


def close_window(st):
    """Both sides pass the quick window (nobody holds a card or a source here)."""
    while st.phase == QUICK:
        st.apply(A.PASS)


def _fogg_with_pipe_bomb(droids=((4, 5), (4, 6))):
    """Fogg (player_1) with Pipe Bomb (ranged 3, Explosive 1, attack 5, Kamikaze) facing a blast space that
    holds the given Vigil Droids (defence 4 + Edward's Affiliate Mod 1)."""
    pawns = [("Edward Blackstone", 0, (4, 10), S), *[("Vigil Droid", 0, d, S) for d in droids],
             ("Fogg", 1, (7, 5), N), ("David Barrett", 1, (11, 11), N)]
    st = position(pawns, scenario="relay_hold")
    fogg = next(u for u in st.units if u.name == "Fogg")
    fogg.weapon = "Pipe Bomb"
    st.turn = 1
    select(st, 7, 5)
    return st, fogg


def test_a_kamikaze_area_attack_rolls_against_every_target_before_the_thrower_is_spent():
    st, fogg = _fogg_with_pipe_bomb()
    first, second = st.units[1], st.units[2]
    force(st, 3, 3, 1, 2,  # the blast space: 6 + 5 = 11 against 3 + 5 = 8 -> 3 damage
          3, 3, 1, 1)      # a space from the blast: 6 + 4 = 10 against 2 + 5 = 7 -> 3 damage
    attack(st, 2, 4, 5)
    close_window(st)
    assert first.life == 1 and second.life == 1  # both droids were rolled against
    assert not fogg.on_map and fogg.life == 0  # then Fogg is spent, after the whole attack
    spent = next(i for i, e in enumerate(st.events) if "is spent (Kamikaze)" in e)
    assert all("attacks Vigil Droid" not in e for e in st.events[spent:])
    assert st.phase == MAIN and st.active == -1


def test_a_kamikaze_attack_at_an_empty_blast_still_spends_the_thrower():
    """Explosive attacks may be made at a space (a Breach at a wall), so the attack is made: Kamikaze follows."""
    st, fogg = _fogg_with_pipe_bomb(droids=((3, 2),))
    assert A.ATTACK + 2 * FIELDS + A.to_field(field(5, 5), 1) in legal(st)
    force(st)  # no die is rolled
    attack(st, 2, 5, 5)
    close_window(st)
    assert not fogg.on_map and fogg.life == 0 and fogg.weapon == "Pipe Bomb"
    assert any("Fogg is spent (Kamikaze)" in e for e in st.events)


def test_a_free_strike_costs_ethereal_so_a_plain_bow_may_then_target_the_shade():
    """Void Shade's free strike on Sir Gareth leaving it is "a free Attack": the Shade loses Ethereal until its
    controller's next turn, and Tristan's Longbow (not magical) may target it."""
    st = position([("Sir Gareth", 0, (6, 4), N), ("Tristan the Bowman", 0, (8, 1), N), ("Justice", 0, (11, 11), N),
                   ("Void Shade", 1, (5, 4), S), ("Vegron", 1, (0, 0), S)])
    shade, tristan = st.units[3], st.units[1]
    assert not st.target_ok(tristan, 1, shade.pos)
    select(st, 6, 4)
    force(st, 1, 2, 6, 6)  # the free strike misses (3 + 3 + 2 against 12 + 4)
    step(st, 7, 4)  # out of the Shade's front arc and sides: a free strike
    close_window(st)
    assert any("free strike" in e for e in st.events) and shade.ethereal_off
    assert st.target_ok(tristan, 1, shade.pos)


def test_deviate_counts_its_reach_as_range_in_orthogonal_steps():
    """Arcane Bolt (Deviate 2) hits Vegron at c6: a8 is two diagonal steps away but four by the range count,
    so it is not offered; a character two orthogonal steps away is."""
    st = position([("Skydas", 0, (9, 2), N), ("Justice", 0, (11, 11), N), ("Vegron", 1, (6, 2), S),
                   ("Maxian Trooper", 1, (4, 0), S), ("Acid Spitter", 1, (6, 4), S)])
    select(st, 9, 2)
    force(st, 6, 5, 1, 2, 1)  # 11 + 4 against Vegron's 3 + 6: damage, a deviation may follow
    attack(st, 1, 6, 2)
    close_window(st)
    assert st.phase == DEVIATE
    offered = {divmod(A.to_field(a - A.ATTACK - FIELDS, 0), 12) for a in st.legal_actions() if A.ATTACK <= a < A.TARGET}
    assert offered == {(6, 4)}  # (4, 0), a8: two king moves from c6, four by range


def test_both_generals_falling_in_one_double_six_exchange_is_a_draw():
    st = position([("Justice", 0, (6, 3), W), ("Sir Gareth", 0, (11, 0), N), ("Vegron", 1, (6, 2), N),
                   ("Maxian Trooper", 1, (0, 11), S)])
    justice, vegron = st.units[0], st.units[2]
    justice.life, vegron.life = 2, 2
    select(st, 6, 3)
    force(st, 6, 6, 6, 6, 1, 4, 5)  # double six each (Vegron: Initiative, 3 dice), a d6 each way
    attack(st, 0, 6, 2)
    close_window(st)
    assert not justice.on_map and not vegron.on_map
    assert st.phase == OVER and st.winner == 2 and st.returns() == [0.0, 0.0]


def test_the_winner_of_the_roll_chooses_to_go_first_or_second():
    game = UltraWarGame.from_config({"scenario": "relay_hold"})
    for second in (False, True):
        st = game.new_initial_state(Rng(5))
        winner = st.current_player
        assert st.phase == SETUP and st.choosing and st.legal_actions() == [A.SELECT, A.SELECT + 1]
        assert any(f"player_{winner} wins the roll" in e for e in st.events)
        before = st.state_dict()
        with pytest.raises(IllegalActionError):
            st.apply(A.END_TURN)
        assert st.state_dict() == before
        assert st.action_to_string(A.SELECT + 1) == "go second"
        st.apply(A.SELECT + int(second))
        first = 1 - winner if second else winner
        assert not st.choosing and st.first == first and st.current_player == first
        st.apply(A.END_TURN)
        st.apply(A.END_TURN)
        assert st.phase == MAIN and st.turn == first
    fixed = UltraWarGame.from_config({"first_player": "player_1"}).new_initial_state(Rng(5))
    assert not fixed.choosing and fixed.current_player == 1 and A.SELECT not in fixed.legal_actions()


def test_power_sources_start_empty_by_default_and_with_the_scenarios_points_as_an_option():
    for scenario in ("street_clash", "relay_hold", "rooftop_rescue"):
        book = UltraWarGame.from_config({"scenario": scenario}).new_initial_state(Rng(2))
        assert book.sources and all(s.points == 0 for s in book.sources)
        v4 = UltraWarGame.from_config({"scenario": scenario, "power_start": "scenario"}).new_initial_state(Rng(2))
        assert all(s.points == v4.game.scenario.power_start == 2 for s in v4.sources)
    with pytest.raises(UltimataError) as err:
        UltraWarGame.from_config({"power_start": "full"})
    assert "power_start" in str(err.value)


def _void_rift_on_justice(turns=None):
    """A street clash from its start: Vegron (player_1) stands two spaces from Justice, and casts the Legion's
    Void Rift on him (an Order character, whose own deck has no Void card); or, with `turns`, Justice is put
    in the Void for that long by hand."""
    st = UltraWarGame.from_config({"first_player": "player_1"}).new_initial_state(Rng(4))
    st.apply(A.END_TURN)
    st.apply(A.END_TURN)
    assert st.phase == MAIN and st.turn == 1
    justice = next(u for u in st.units if u.name == "Justice")
    vegron = next(u for u in st.units if u.name == "Vegron")
    if turns is not None:
        st._send_to_void(justice, turns)
        return st, justice
    vegron.pos, vegron.facing = next(f for f in (justice.pos - 24, justice.pos - 25, justice.pos - 23)
                                     if not st.blocked(f) and not st.board.solid(f, set())), S
    for s in st.sources:
        s.points = 5 if s.side == 1 else s.points
    if "Void Rift" not in st.hands[1]:
        k = st.decks[1].index("Void Rift")
        st.decks[1][k], st.hands[1][0] = st.hands[1][0], "Void Rift"
    st._mask = None
    st.apply(A.PLAY + st.hands[1].index("Void Rift"))
    st.apply(A.TARGET + A.to_field(vegron.pos, 1))
    force(st, 6, 5, 1, 1)  # 11 + 3 against 2 + 2: the feat succeeds
    st.apply(A.TARGET + A.to_field(justice.pos, 1))
    return st, justice


def test_a_position_reached_by_void_rift_on_an_enemy_loads_back():
    st, justice = _void_rift_on_justice()
    assert justice.void == 2 and justice.pos == -1
    saved = st.state_dict()
    other = st.game.new_initial_state(Rng(0))
    other.load_state_dict(copy.deepcopy(saved))
    assert other.state_dict() == saved and other.legal_actions() == st.legal_actions()
    other.apply(A.END_TURN)
    st.apply(A.END_TURN)
    assert other.state_dict() == st.state_dict()


def test_a_character_in_the_void_longer_than_any_card_of_either_deck_sends_it_is_still_refused():
    st, _ = _void_rift_on_justice(turns=4)  # Void Rift sends for 2 (its return counts one more)
    with pytest.raises(UltimataError) as err:
        st.game.new_initial_state(Rng(0)).load_state_dict(st.state_dict())
    assert "in the Void for longer than any card sends it" in str(err.value)
