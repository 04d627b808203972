"""Search never reads what its seat cannot see, in every game that hides something (issue 12)."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from ultimata.agents.mcts import MctsAgent, MctsOptions
from ultimata.envs import GAMES, game_class
from ultimata.envs.core.rng import Rng

HIDDEN = [name for name in GAMES if not game_class(name).from_config({}).perfect_information]


def _positions_with_something_hidden(name: str, count: int) -> list:
    """Mid-game states, each with a re-deal that differs from it but not in what the mover sees."""
    game = game_class(name).from_config({})
    found = []
    for seed in range(200):
        state, pick = game.new_initial_state(Rng(seed)), random.Random(seed)
        for _ in range(pick.randrange(0, 150)):
            legal = state.legal_actions()
            state.apply(legal[pick.randrange(len(legal))])
            if state.is_terminal():
                break
        if state.is_terminal() or len(state.legal_actions()) < 2:
            continue
        redealt = state.sample_consistent(state.current_player, Rng(seed + 1000))
        redealt.rng = state.rng.__class__.from_state_dict(state.rng.state_dict())
        if redealt.state_dict() != state.state_dict():
            found.append((state, redealt))
        if len(found) == count:
            return found
    raise AssertionError(f"no position of {name} with anything hidden from the mover")


@pytest.mark.parametrize("name", HIDDEN)
def test_a_redeal_changes_nothing_the_mover_sees_or_what_search_samples(name):
    for state, redealt in _positions_with_something_hidden(name, 4):
        me = state.current_player
        assert np.array_equal(redealt.observation(me), state.observation(me))
        assert np.array_equal(redealt.legal_action_mask(), state.legal_action_mask())
        for draw in range(5):  # the sampler reads only what the mover knows (same draws, same sample)
            sample, resample = state.sample_consistent(me, Rng(draw)), redealt.sample_consistent(me, Rng(draw))
            assert sample.state_dict() == resample.state_dict()


@pytest.mark.parametrize("name", HIDDEN)
def test_search_choices_do_not_depend_on_hidden_parts(name):
    state, redealt = _positions_with_something_hidden(name, 1)[0]

    def choices(s) -> Counter:
        agents = (MctsAgent(name, MctsOptions(sims=12, time=30), seed=seed) for seed in range(4))
        return Counter(agent.act(None, s.legal_action_mask(), s) for agent in agents)

    assert choices(state) == choices(redealt)
