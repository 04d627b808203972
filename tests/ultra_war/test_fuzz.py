"""Random games in every scenario: invariants after every decision, masks equal legality, refused
actions change nothing, state-dict round trips, and hidden information stays hidden."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from ultimata.envs.core.errors import IllegalActionError
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultra_war.game import UltraWarGame
from ultimata.envs.ultra_war.observation import OWN_PAWNS

SCENARIOS = ("street_clash", "relay_hold", "rooftop_rescue")


def invariants(st) -> None:
    st._check_consistency()
    passing = st.units[st.active] if st.phase == 2 and st.over_another(st.units[st.active]) else None
    spaces = [u.pos for u in st.units if u.on_map and u is not passing]
    assert len(spaces) == len(set(spaces))  # one pawn per space (a flyer may be passing over one)
    for u in st.units:
        assert u.life >= 0 and (u.on_map or u.life == 0)
        assert all(0 <= v <= u.ch.reserves[k] for k, v in u.reserves.items())
    assert all(0 <= s.points <= s.max for s in st.sources)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_random_games_keep_the_invariants_and_end(scenario):
    game = UltraWarGame.from_config({"scenario": scenario})
    for seed in range(25):
        st = game.new_initial_state(Rng(seed))
        pick = random.Random(seed)
        while not st.is_terminal():
            invariants(st)
            st.apply(pick.choice(st.legal_actions()))
        assert st.decisions < 1500 and sum(st.returns()) == 0


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_masks_are_exact_and_refusals_change_nothing(scenario):
    game = UltraWarGame.from_config({"scenario": scenario})
    st = game.new_initial_state(Rng(5))
    pick = random.Random(5)
    n = 0
    while not st.is_terminal() and n < 120:
        mask = st.legal_action_mask().copy()
        before = st.state_dict()
        for a in pick.sample(np.flatnonzero(mask == 0).tolist(), 30):
            with pytest.raises(IllegalActionError):
                st.apply(a)
        assert st.state_dict() == before
        for a in np.flatnonzero(mask):
            st.clone().apply(int(a))
        st.apply(pick.choice(st.legal_actions()))
        n += 1


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_state_dict_round_trips(scenario):
    game = UltraWarGame.from_config({"scenario": scenario})
    st = game.new_initial_state(Rng(9))
    pick = random.Random(9)
    while not st.is_terminal():
        if pick.random() < 0.05:
            other = game.new_initial_state(Rng(0))
            other.load_state_dict(json.loads(json.dumps(st.state_dict())))
            assert other.legal_actions() == st.legal_actions()
            assert np.array_equal(other.observation(0), st.observation(0))
        st.apply(pick.choice(st.legal_actions()))


def test_perturbed_state_dicts_are_refused_or_live():
    from ultimata.envs.core.errors import UltimataError

    game = UltraWarGame.from_config({})
    st = game.new_initial_state(Rng(2))
    pick = random.Random(2)
    for _ in range(80):
        st.apply(pick.choice(st.legal_actions()))
    saved = st.state_dict()
    for unit in range(len(saved["state"]["units"])):
        for key in ("pos", "life", "facing", "stun"):
            for delta in (-200, -1, 1, 500):
                d = json.loads(json.dumps(saved))
                d["state"]["units"][unit][key] += delta
                other = game.new_initial_state(Rng(0))
                try:
                    other.load_state_dict(d)
                except UltimataError:
                    continue
                assert other.is_terminal() or other.legal_actions()


def test_observation_hides_the_opponents_hand_and_deck_order():
    game = UltraWarGame.from_config({})
    st = game.new_initial_state(Rng(4))
    pick = random.Random(4)
    for _ in range(40):
        st.apply(pick.choice(st.legal_actions()))
    seen = st.observation(0)
    other = st.clone()
    other.decks[0] = list(reversed(other.decks[0]))
    pool = other.hands[1] + other.decks[1]
    random.Random(1).shuffle(pool)
    other.hands[1], other.decks[1] = pool[: len(other.hands[1])], pool[len(other.hands[1]):]
    assert np.array_equal(other.observation(0), seen)


def test_observation_is_seat_relative():
    game = UltraWarGame.from_config({"scenario": "relay_hold"})
    st = game.new_initial_state(Rng(1))
    a, b = st.observation(0), st.observation(1)
    planes = game.observation_planes
    pa = a[: planes[0] * 144].reshape(planes[0], 144)
    pb = b[: planes[0] * 144].reshape(planes[0], 144)
    assert pa[8].sum() > 0 and np.flatnonzero(pa[8]).max() > 100 and np.flatnonzero(pb[8]).max() > 100
    assert pa[OWN_PAWNS].sum() == 6 and pb[OWN_PAWNS].sum() == 5  # own pawns plane
