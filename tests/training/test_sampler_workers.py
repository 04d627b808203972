"""Sampling processes play the weights the trainer sends them, and those travel as plain numpy arrays (not
torch tensors, whose shared-memory hand-over runs multiprocessing's resource_sharer)."""

from __future__ import annotations

import numpy as np
import torch
from stable_baselines3.common.vec_env import DummyVecEnv

from ultimata.envs.core.registry import game_class
from ultimata.training.config import load_train_config
from ultimata.training.hardware import SamplingPlan
from ultimata.training.model import new_model
from ultimata.training.sampler_workers import WorkerSamplers, policy_weights
from ultimata.training.trainer import SpacesEnv, sampler_specs

from .conftest import tiny_overrides


def test_a_worker_plays_the_weights_it_is_sent_as_numpy_arrays() -> None:
    cfg = load_train_config("ultimatum_cards_v3", overrides=tiny_overrides(pool={"weights": {"random": 1.0}}))
    game = game_class(cfg.game).from_config(cfg.rules)
    model = new_model(cfg, DummyVecEnv([lambda: SpacesEnv(game)]), None, game, n_steps=64)
    workers = WorkerSamplers(sampler_specs(cfg, [], SamplingPlan(workers=2, games=4)), model.policy)
    try:
        with torch.no_grad():
            for parameter in model.policy.parameters():
                parameter.zero_()  # every logit and value 0: uniform over the legal moves, values 0
        weights = policy_weights(model.policy)
        assert weights and all(type(array) is np.ndarray for array in weights.values())
        workers.request(64, weights)
        rollout = workers.receive().rollout
    finally:
        workers.close()
    legal = rollout.masks.sum(axis=1)
    assert len(rollout) >= 64 and np.all(rollout.values == 0)
    assert np.allclose(rollout.log_probs, -np.log(legal), atol=1e-5), "the workers played the zeroed weights"
