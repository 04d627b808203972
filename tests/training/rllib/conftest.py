"""One Ray instance for all RLlib tests (starting one costs seconds), and a tiny league config."""

from __future__ import annotations

import logging

import pytest

TINY_RLLIB = {
    "total_timesteps": 1024,
    "sampler": {"rollout": 512},
    "rllib": {"num_envs_per_env_runner": 2},
    "checkpoint_every": 512,
    "imitation": None,
    "ppo": {"batch_size": 256, "n_epochs": 1, "net_arch": [16, 16]},
    "pool": {"weights": {"snapshots": 0.5, "heuristic": 0.25, "random": 0.25}, "keep": 1},
    "eval": {"every": 512, "games": 4, "final_games": 8},
}


@pytest.fixture(scope="session")
def ray_session():
    import ray

    if not ray.is_initialized():
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    yield ray
    ray.shutdown()
