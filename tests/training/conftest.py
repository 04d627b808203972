"""One tiny self-play run shared by the training and agent tests (a few hundred steps, a 16-unit net)."""

from __future__ import annotations

from pathlib import Path

import pytest

TINY = {
    "total_timesteps": 256,
    "sampler": {"rollout": 128},
    "checkpoint_every": 128,
    "ppo": {"batch_size": 64, "n_epochs": 1, "net_arch": [16]},
    "pool": {"weights": {"snapshots": 0.5, "heuristic": 0.25, "random": 0.25}, "keep": 2},
    "eval": {"every": 128, "games": 4, "final_games": 4},
    "imitation": {"samples": 300, "epochs": 1},
}


def tiny_overrides(**extra) -> dict:
    return {**TINY, **extra}


@pytest.fixture(scope="session")
def tiny_run(tmp_path_factory: pytest.TempPathFactory):
    """(run folder, outcome) of a finished smoke run of ultimatum_cards_v3."""
    from ultimata.training.trainer import prepare_run, train

    run_dir = tmp_path_factory.mktemp("tiny_run")
    cfg, progress = prepare_run("ultimatum_cards_v3", run_dir, overrides=tiny_overrides())
    outcome = train(cfg, run_dir, progress, show_bar=False)
    return Path(run_dir), outcome
