"""Random play: invariants after every move, exact masks, hidden hands, state dicts, search samples."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ultimata.envs import game_class
from ultimata.envs.core.errors import IllegalActionError
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimatum_world.consistency import check


def _random_game(seed: int, config: dict | None = None, steps: int | None = None):
    state = game_class("ultimatum_world_v0").from_config(config or {}).new_initial_state(Rng(seed))
    pick = random.Random(seed)
    while not state.is_terminal() and (steps is None or state.decisions < steps):
        yield state, pick
        state.apply(pick.choice(state.legal_actions()))
    yield state, pick


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_keep_every_invariant_and_end(players):
    """200 games in all (book and dealt set-ups), the whole state checked after every decision."""
    for seed in range(40):
        setup = "book" if seed % 2 else "dealt"
        for state, _ in _random_game(seed, {"num_players": players, "max_rounds": 5, "setup": setup}):
            check(state)
        assert state.is_terminal() and abs(sum(state.returns())) < 1e-9


@pytest.mark.parametrize("seed", range(3))
def test_masks_are_exact_every_masked_action_applies_and_unmasked_ones_are_refused(seed):
    for state, pick in _random_game(seed, {"max_rounds": 4, "num_players": 2 + seed}):
        if state.is_terminal():
            break
        mask = state.legal_action_mask()
        for action in np.flatnonzero(mask):
            state.clone().apply(int(action))
        refused = [a for a in range(len(mask)) if not mask[a]]
        for action in pick.sample(refused, min(5, len(refused))):
            before = state.state_dict()
            with pytest.raises(IllegalActionError):
                state.apply(action)
            assert state.state_dict() == before


def test_state_dicts_round_trip_mid_game_and_play_on_identically():
    *_, (state, pick) = _random_game(5, steps=300)
    saved = state.state_dict()
    other = game_class("ultimatum_world_v0").from_config({}).new_initial_state(Rng(99))
    other.load_state_dict(saved)
    for _ in range(200):
        if state.is_terminal():
            break
        action = pick.choice(state.legal_actions())
        state.apply(action)
        other.apply(action)
    assert other.state_dict() == state.state_dict()


def test_observation_hides_other_hands_and_the_deck_order():
    *_, (state, _) = _random_game(11, steps=400)
    viewer = max(state.current_player, 0)
    seen = state.observation(viewer)
    hands = set()
    for draw in range(10):
        sample = state.sample_consistent(viewer, Rng(draw))
        check(sample)
        assert np.array_equal(sample.observation(viewer), seen)
        assert sample.hands[viewer] == state.hands[viewer]
        hands.add(tuple(tuple(h) for q, h in enumerate(sample.hands) if q != viewer) + (tuple(sample.deck),))
    assert len(hands) > 1, "the hidden cards are really re-dealt"


def test_narration_is_in_the_third_person():
    for state, pick in _random_game(2, steps=500):
        if state.is_terminal():
            break
        assert "you" not in state.narrate(pick.choice(state.legal_actions())).lower().split()
    assert all("you" not in e.lower().split() for e in state.events)
