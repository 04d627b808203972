"""The drivers rebuilt on `training/seating.py` play the games they played before the rebuild (issue 41).

The fingerprints below were recorded with the pre-rebuild sampler (commit edc3667) on a policy whose
weights are all zero, so every move is uniform over the legal ones and the games depend only on the seeds,
not on floating-point details. They play the rules of that commit, where a reaction window asked only
the card's holders: `reaction_windows: revealing` since the default became `always`. Regenerate them (see
`_fingerprint`) only when the card game's rules or observation change, with a version bump.
"""

import hashlib

import numpy as np
import torch
from stable_baselines3.common.vec_env import DummyVecEnv

from ultimata.envs import single_agent
from ultimata.envs.core.registry import game_class
from ultimata.envs.core.rng import derived_seed
from ultimata.training.config import load_train_config
from ultimata.training.model import new_model
from ultimata.training.pool import OpponentPool
from ultimata.training.sampler import BatchedSampler
from ultimata.training.trainer import SpacesEnv

CARDS = "ultimatum_cards_v3"
BEFORE = {
    "rollout": "6047e2fca2870702",
    "episodes": [[1, -0.333333, 3, [[0, "heuristic"], [2, "random"], [3, "heuristic"]]],
                 [1, 0.0, 4, [[0, "heuristic"], [2, "heuristic"]]],
                 [3, 0.0, 2, [[0, "heuristic"], [2, "heuristic"]]],
                 [2, 0.0, 1, [[3, "random"]]],
                 [1, -0.5, 3, [[0, "random"], [2, "random"], [3, "random"]]],
                 [0, -0.333333, 5, [[1, "heuristic"], [2, "random"], [3, "random"]]],
                 [0, -0.333333, 3, [[2, "heuristic"], [3, "heuristic"]]],
                 [1, -0.333333, 3, [[2, "heuristic"], [3, "heuristic"]]]],
}


def _fingerprint() -> dict:
    cfg = load_train_config(CARDS, None)
    game = game_class(CARDS).from_config({**cfg.rules, "reaction_windows": "revealing"})  # the recording's rule
    model = new_model(cfg, DummyVecEnv([lambda: SpacesEnv(game)]), None, game, n_steps=256)
    with torch.no_grad():
        for parameter in model.policy.parameters():
            parameter.zero_()
    pool = OpponentPool(game, {"mirror": 0.25, "heuristic": 0.5, "random": 0.25})
    sampler = BatchedSampler(game, model.policy, pool, games=12, seed=4, shaping=0.0)
    rollout = sampler.collect(600)
    digest = hashlib.sha256()
    for array in (rollout.obs, rollout.actions, rollout.masks, rollout.rewards):
        digest.update(np.ascontiguousarray(array).tobytes())
    episodes = [[e.seat, round(e.result, 6), e.decisions, [list(x) for x in sorted(e.opponents.items())]]
                for e in sampler.take_episodes()][:8]
    return {"rollout": digest.hexdigest()[:16], "episodes": episodes}


def test_the_sampler_plays_the_same_games_as_before_the_rebuild():
    assert _fingerprint() == BEFORE


def test_the_single_agent_view_deals_the_games_and_seats_it_dealt_before():
    """Before the rebuild, episode k of env copy i was dealt from derived_seed(seed, i, k) with the learner in
    seat (i + k) % players; it still is. Its opponents' own seeds now come from the tables' generator, so a
    random opponent's moves differ from before (the commit says why)."""
    env = single_agent(CARDS, "random")
    env.reset(seed=3)
    for episode in range(1, 6):
        assert env.tables.env.game_seed(0) == derived_seed(3, 0, episode)
        assert env.seat == episode % 4
        done = False
        while not done:
            _, _, terminated, truncated, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
            done = terminated or truncated
        env.reset()
