"""Thousands of random games across rule variants: chips and cards are conserved, chips never go
negative, every decision has a legal move, and games end with zero-sum returns."""

import random

import pytest

from ultimata.envs import game_class
from ultimata.envs.core.rng import Rng

from .random_play import VARIANTS, games_for, invariants


@pytest.mark.parametrize("config", VARIANTS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()) or "default")
def test_random_games_keep_the_invariants(config: dict) -> None:
    game = game_class("ultimatum_cards_v3").from_config(config)
    pick = random.Random(1)
    games = games_for(config)
    decisions = 0
    for seed in range(games):
        state = game.new_initial_state(Rng(seed))
        while not state.is_terminal():
            invariants(state)
            legal = state.legal_actions()
            assert legal
            state.apply(pick.choice(legal))
            decisions += 1
            assert decisions < 10_000_000
        returns = state.returns()
        assert abs(sum(returns)) < 1e-9 and len(returns) == game.num_players
        assert max(state.scores) == state.scores[state.winners()[0]]
    assert decisions > games * 5
