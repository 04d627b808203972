"""Search never reads what its seat cannot see, in every game that hides something (issue 12)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from tests.agents.positions import HIDDEN, redealt_positions
from ultimata.agents.mcts import MctsAgent, MctsOptions
from ultimata.envs.core.rng import Rng


@pytest.mark.parametrize("name", HIDDEN)
def test_a_redeal_changes_nothing_the_mover_sees_or_what_search_samples(name):
    for state, redealt in redealt_positions(name, 4):
        me = state.current_player
        assert np.array_equal(redealt.observation(me), state.observation(me))
        assert np.array_equal(redealt.legal_action_mask(), state.legal_action_mask())
        for draw in range(5):  # the sampler reads only what the mover knows (same draws, same sample)
            sample, resample = state.sample_consistent(me, Rng(draw)), redealt.sample_consistent(me, Rng(draw))
            assert sample.state_dict() == resample.state_dict()


@pytest.mark.parametrize("name", HIDDEN)
def test_search_choices_do_not_depend_on_hidden_parts(name):
    state, redealt = redealt_positions(name, 1)[0]

    def choices(s) -> Counter:
        agents = (MctsAgent(name, MctsOptions(sims=12, time=30), seed=seed) for seed in range(4))
        return Counter(agent.act(None, s.legal_action_mask(), s) for agent in agents)

    assert choices(state) == choices(redealt)
