"""Thousands of random games across rule variants: chips and cards are conserved, chips never go
negative, every decision has a legal move, and games end with zero-sum returns."""

import random

import pytest

from ultimata.envs import game_class
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimatum_cards.cards import DECK

VARIANTS = [
    {},
    {"num_players": 3},
    {"num_players": 5, "blockers": "any"},
    {"blockers": "any", "target_blocks_own_counter": False},
    {"num_players": 6, "give_to_self": True},
    {"mode": "match", "chips_carry_over": True},
    {"mode": "point", "target_score": 30, "num_players": 4},
]


@pytest.mark.parametrize("config", VARIANTS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()) or "default")
def test_random_games_keep_the_invariants(config: dict) -> None:
    game = game_class("ultimatum_cards_v2").from_config(config)
    n, chips_in_play = game.num_players, game.config.starting_chips * game.num_players
    pick = random.Random(1)
    games = 2000 if not config else 400
    decisions = 0
    for seed in range(games):
        state = game.new_initial_state(Rng(seed))
        while not state.is_terminal():
            assert sum(state.chips) == chips_in_play and min(state.chips) >= 0
            assert sum(map(sum, state.hands)) + len(state.pile) + sum(state.discards) == len(DECK)
            assert all(sum(h) > 0 for h in state.hands) or state.phase != 0
            legal = state.legal_actions()
            assert legal
            state.apply(pick.choice(legal))
            decisions += 1
            assert decisions < 10_000_000
        returns = state.returns()
        assert abs(sum(returns)) < 1e-9 and len(returns) == n
        assert max(state.scores) == state.scores[state.winners()[0]]
    assert decisions > games * 5
