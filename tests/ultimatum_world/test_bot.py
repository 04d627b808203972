"""The scripted bot plays whole games at every table size without an illegal move, and beats random."""

from __future__ import annotations

import pytest

from ultimata.envs import game_class
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimatum_world.scripted import choose_action


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_bot_plays_whole_games_at_every_table_size(players):
    for seed in range(3):
        state = game_class("ultimatum_world_v4").from_config({"num_players": players}).new_initial_state(Rng(seed))
        rng = Rng(seed)
        while not state.is_terminal():
            state.apply(choose_action(state, rng))
        assert state.winners


def test_the_bot_beats_three_random_players():
    import random

    wins = 0
    for seed in range(8):
        state = game_class("ultimatum_world_v4").from_config({}).new_initial_state(Rng(seed))
        rng, pick, bot = Rng(seed), random.Random(seed), seed % 4
        while not state.is_terminal():
            p = state.current_player
            state.apply(choose_action(state, rng) if p == bot else pick.choice(state.legal_actions()))
        wins += bot in state.winners
    assert wins >= 6, "a fair share would be 2 of 8"
