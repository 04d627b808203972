"""Search plans on sampled states: the viewer's observation stays the same, and samples play on."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ultimata.envs import game_class
from ultimata.envs.core.rng import Rng


@pytest.mark.parametrize("seed", range(4))
def test_samples_keep_the_viewers_observation_and_stay_playable(seed):
    state = game_class("ultra_war_v5").from_config({}).new_initial_state(Rng(seed))
    pick = random.Random(seed)
    for _ in range(pick.randrange(5, 60)):
        if state.is_terminal():
            break
        state.apply(pick.choice(state.legal_actions()))
    viewer = max(state.current_player, 0)
    seen = state.observation(viewer)
    foe_cards = sorted(state.hands[1 - viewer] + state.decks[1 - viewer])
    hands = set()
    for draw in range(12):
        sample = state.sample_consistent(viewer, Rng(draw))
        assert np.array_equal(sample.observation(viewer), seen)
        assert sample.hands[viewer] == state.hands[viewer]
        assert sorted(sample.hands[1 - viewer] + sample.decks[1 - viewer]) == foe_cards
        hands.add(tuple(sorted(sample.hands[1 - viewer])))
        for _ in range(10):
            if sample.is_terminal():
                break
            sample.apply(pick.choice(sample.legal_actions()))
    assert len(hands) > 1, "the hidden hand is really re-drawn"


def test_cards_are_named_to_their_player_and_to_the_table_only_once_they_land():
    from ultimata.envs.ultra_war import actions as A
    from ultimata.envs.ultra_war.phases import CARD_TARGET, FEAT_TARGET

    state = game_class("ultra_war_v5").from_config({"first_player": "player_0",
                                                     "power_start": "scenario"}).new_initial_state(Rng(3))
    seat = state.current_player
    card = state.hands[seat][0]
    assert state.action_to_string(A.PLAY) == f"play {card}"
    assert state.narrate(A.PLAY) == f"player_{seat} plays a card"  # it waits for its target, unseen
    assert card not in state.narrate(A.DISCARD)
    state.apply(A.PLAY)
    assert card not in state.render_text(1 - seat)
    while state.phase in (CARD_TARGET, FEAT_TARGET):
        state.apply(state.legal_actions()[0])
    assert f"plays {card}" in state.render_text(1 - seat)  # the log names it once it lands


def test_each_new_board_gets_its_own_map_planes():
    """Games come and go (arena, search, tests): a new board must never see a freed board's planes."""
    import gc

    for round_ in range(3):
        for scenario in ("street_clash", "relay_hold", "rooftop_rescue"):
            state = game_class("ultra_war_v5").from_config({"scenario": scenario}).new_initial_state(Rng(round_))
            walls = np.asarray(state.board.wall, dtype=np.float32)
            for seat in (0, 1):
                plane = state.observation(seat)[: walls.size]
                assert np.array_equal(plane, walls if seat == 0 else walls[::-1]), (scenario, seat)
            del state
            gc.collect()
