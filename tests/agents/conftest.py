"""An untrained tiny checkpoint (saving and loading do not need training)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def tiny_checkpoint(tmp_path_factory: pytest.TempPathFactory):
    from sb3_contrib import MaskablePPO

    from ultimata.agents.checkpoint import CheckpointMeta, save_checkpoint
    from ultimata.training.selfplay_env import SelfPlayEnv

    env = SelfPlayEnv("ultimatum_cards_v3")
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=16, policy_kwargs={"net_arch": [8]}, device="cpu")
    path = tmp_path_factory.mktemp("ckpt") / "tiny.zip"
    return save_checkpoint(model, path, CheckpointMeta.for_game(env.game, steps=0))
