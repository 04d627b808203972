"""The scripted ULTIMADE bot: always legal, and clearly better than random play."""

from __future__ import annotations

import random

import pytest

from ultimata.agents.scripted_agent import ScriptedAgent
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimade.game import UltimadeGame
from ultimata.envs.ultimade.scripted import choose_action


def play(game: UltimadeGame, seed: int, bot_seats: tuple[int, ...]) -> object:
    state = game.new_initial_state(Rng(seed))
    bot_rng, pick = Rng(seed + 1), random.Random(seed)
    while not state.is_terminal():
        if state.current_player in bot_seats:
            action = choose_action(state, bot_rng)
            assert state.legal_action_mask()[action], f"bot chose illegal {action}"
        else:
            action = pick.choice(state.legal_actions())
        state.apply(action)
    return state


@pytest.mark.parametrize("config", [{}, {"monster_defense": False, "run_through": "any", "endzone_depth": 2}])
def test_bot_always_plays_legal_moves_against_itself(config: dict) -> None:
    state = play(UltimadeGame.from_config({"max_cycles": 60, **config}), 11, (0, 1))
    assert state.is_terminal()


def test_bot_beats_random_from_either_seat() -> None:
    game = UltimadeGame.from_config({"max_cycles": 80})
    wins = 0
    for seed in range(4):
        bot = seed % 2
        state = play(game, seed, (bot,))
        wins += state.winner == bot
    assert wins == 4


def test_heuristic_agent_spec_finds_the_bot() -> None:
    agent = ScriptedAgent("ultimade_v2", seed=0)
    agent.reset(0)
    state = UltimadeGame.from_config({}).new_initial_state(Rng(0))
    action = agent.act(state.observation(0), state.legal_action_mask(), state)
    assert state.legal_action_mask()[action]
