"""Random play: invariants after every move, exact masks, hidden hands, state dicts, search samples."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from ultimata.envs import game_class
from ultimata.envs.core.errors import IllegalActionError
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimatum_world.consistency import check
from ultimata.envs.ultimatum_world.observation import observe

from .random_play import config, seeds
from .random_play import play as fuzz_play


def _random_game(seed: int, config: dict | None = None, steps: int | None = None):
    state = game_class("ultimatum_world_v4").from_config(config or {}).new_initial_state(Rng(seed))
    pick = random.Random(seed)
    while not state.is_terminal() and (steps is None or state.decisions < steps):
        yield state, pick
        state.apply(pick.choice(state.legal_actions()))
    yield state, pick


def test_random_games_keep_every_invariant_masks_are_exact_and_state_dicts_round_trip():
    """ULTIMATA_FUZZ_GAMES=N games (default 20) at every table size and config variant. After every
    decision the whole state is checked (troops and vessels never negative, every held nation with a
    troop, money never negative, the 72 cards conserved, the phase fits); every 7th decision an
    unmasked action is refused and changes nothing; every 25th every masked action applies on a clone;
    once a game the state dict goes through JSON, loads, and the copy plays on identically. The seat's
    observation (patched after a mere choice) always equals one computed afresh."""
    lengths = []
    for seed in seeds(20):
        copy_of, steps_left = None, 0
        for state, pick, action in fuzz_play(seed):
            check(state)
            viewer = max(state.current_player, 0)
            assert np.array_equal(state.observation(viewer), observe(state, viewer)), "a patched view is a fresh one"
            if copy_of is not None:
                assert copy_of.state_dict() == state.state_dict()
                steps_left -= 1
                if steps_left == 0 or action < 0:
                    copy_of = None
            if action < 0:
                break
            mask = state.legal_action_mask()
            assert mask[action] and mask.sum() == len(state.legal_actions())
            if state.decisions % 7 == 3:
                refused = [a for a in range(len(mask)) if not mask[a]]
                before = state.state_dict()
                with pytest.raises(IllegalActionError):
                    state.apply(pick.choice(refused))
                assert state.state_dict() == before
            if state.decisions % 25 == 11:
                for legal in np.flatnonzero(mask):
                    state.clone().apply(int(legal))
            if state.decisions == 40 + seed % 60:
                copy_of = game_class("ultimatum_world_v4").from_config(config(seed)).new_initial_state(Rng(1))
                copy_of.load_state_dict(json.loads(json.dumps(state.state_dict())))
                steps_left = 40
            if copy_of is not None:
                copy_of.apply(action)
        assert state.is_terminal() and abs(sum(state.returns())) < 1e-9
        standing = [q for q in range(state.n) if not state.out[q]]
        won = all(state.has_won(q) for q in state.winners) and len(state.winners) == 1
        assert won or standing == state.winners or state.round == state.cfg.max_rounds, "a game ends by the rules"
        lengths.append(state.decisions)
    assert sum(lengths) > 10 * len(lengths), "the games were played"


def test_state_dicts_round_trip_mid_game_and_play_on_identically():
    *_, (state, pick) = _random_game(5, steps=300)
    saved = state.state_dict()
    other = game_class("ultimatum_world_v4").from_config({}).new_initial_state(Rng(99))
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
