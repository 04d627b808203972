"""Training code has no per-game branches: every registered game runs through self-play and the arena."""

from __future__ import annotations

import numpy as np
import pytest

from ultimata.agents.scripted_agent import has_scripted_bot
from ultimata.arena import spec_entries
from ultimata.envs import GAMES
from ultimata.training.arena import run_arena
from ultimata.training.config import load_train_config
from ultimata.training.selfplay_env import SelfPlayEnv


@pytest.mark.parametrize("name", sorted(GAMES))
def test_selfplay_env_runs_episodes(name):
    opponents = {"random": 0.5, "heuristic": 0.5} if has_scripted_bot(name) else {"random": 1.0}
    env = SelfPlayEnv(name, pool_weights=opponents, seed=0)
    assert env.observation_space.shape == env.game.observation_shape
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    episodes = 0
    for _ in range(3000):
        mask = env.action_masks()
        assert mask.dtype == bool and mask.any()
        obs, reward, terminated, truncated, _ = env.step(rng.choice(np.flatnonzero(mask)))
        assert env.observation_space.contains(obs)
        if terminated or truncated:
            episodes += 1
            env.reset()
            if episodes == 2:
                break
    assert episodes >= 1


@pytest.mark.parametrize("name", sorted(GAMES))
def test_arena_and_config_load(name):
    cfg = load_train_config(name)
    specs = ["heuristic", "random"] if has_scripted_bot(name) else ["random", "random"]
    game, entries = spec_entries(specs, name, cfg.rules)
    result = run_arena(game, entries, games=game.num_players)
    assert sum(a.win_rate * a.seat_games for a in result.agents) == pytest.approx(result.games)
