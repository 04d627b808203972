"""Random games in every scenario: invariants after every decision, masks equal legality, refused
actions change nothing, state-dict round trips, and hidden information stays hidden."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from tests.ultra_war.random_play import GAMES, SCENARIOS, invariants, lean
from ultimata.envs.core.errors import IllegalActionError
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultra_war.game import UltraWarGame
from ultimata.envs.ultra_war.observation import OWN_PAWNS


@pytest.mark.parametrize("army", ["scripted", "draft"])
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_random_games_keep_the_invariants_masks_are_exact_and_states_round_trip(scenario, army):
    """Every decision of random (and, on odd seeds, mostly scripted-bot) games: the invariants hold, every
    masked action applies (on a copy) and every sampled unmasked one is refused with nothing changed, and
    now and then the state dict round-trips exactly; every game ends under the round cap."""
    game = UltraWarGame.from_config({"scenario": scenario, "army": army})
    for seed in range(GAMES):
        st = game.new_initial_state(Rng(seed))
        pick, bot = random.Random(seed), Rng(seed)
        while not st.is_terminal():
            invariants(st)
            mask = st.legal_action_mask().copy()
            legal = np.flatnonzero(mask).tolist()
            assert legal and legal == st.legal_actions()
            before = st.state_dict()
            for a in pick.sample(np.flatnonzero(mask == 0).tolist(), 12):
                with pytest.raises(IllegalActionError):
                    st.apply(a)
            assert st.state_dict() == before
            for a in legal:
                copy = st.clone()
                copy.apply(a)
                if pick.random() < 0.1:
                    invariants(copy)
            if pick.random() < 0.03:
                other = game.new_initial_state(Rng(0))
                other.load_state_dict(json.loads(json.dumps(before)))
                assert other.legal_actions() == legal
                assert np.array_equal(other.observation(0), st.observation(0))
                assert np.array_equal(other.observation(1), st.observation(1))
            st.apply(lean(st, seed, pick, bot, 0.7))
        assert st.decisions < 3000 and sum(st.returns()) == 0


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
