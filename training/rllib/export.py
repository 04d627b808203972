"""RLlib's `main` module -> an ultimata checkpoint (SB3 MaskablePPO .zip + sidecar), loadable without Ray.

`MaskedActorCritic` is built from SB3's own layer classes under SB3's attribute names, so the export
copies each part's state dict into a fresh MaskablePPO policy of the same config, and the exported
policy computes the same logits (tests/training/test_rllib.py checks it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

from ultimata.agents.checkpoint import CheckpointMeta, save_checkpoint
from ultimata.envs.core.engine import Game
from ultimata.training.config import TrainConfig
from ultimata.training.model import new_model
from ultimata.training.selfplay_env import SelfPlayEnv

PARTS = ("features_extractor", "mlp_extractor", "action_net", "value_net")


def sb3_model(cfg: TrainConfig, game: Game, weights: dict[str, Any]) -> MaskablePPO:
    """A MaskablePPO of `cfg`'s architecture holding `weights` (a MaskedActorCritic state dict)."""
    venv = DummyVecEnv([lambda: SelfPlayEnv(cfg.game, cfg.rules, {"random": 1.0}, seed=cfg.seed)])
    model = new_model(cfg, venv, None, game)
    venv.close()
    policy = model.policy
    for part in PARTS:
        prefix = f"{part}."
        state = {k[len(prefix) :]: torch.as_tensor(np.asarray(v)) for k, v in weights.items() if k.startswith(prefix)}
        getattr(policy, part).load_state_dict(state)
    return model


def module_weights(policy: Any) -> dict[str, torch.Tensor]:
    """The reverse of `sb3_model`: an SB3 policy's weights under MaskedActorCritic's names (warm starts)."""
    return {f"{part}.{k}": v.detach().clone() for part in PARTS for k, v in getattr(policy, part).state_dict().items()}


def export_weights(cfg: TrainConfig, game: Game, weights: dict[str, Any], path: str | Path,
                   meta: CheckpointMeta) -> Path:
    """Write the policy as an ultimata checkpoint at `path` (.zip and .json, each atomically), its sidecar
    marked as RLlib's. Slim: RLlib's own checkpoint is what a run resumes from."""
    meta.extra["backend"] = "rllib"
    return save_checkpoint(sb3_model(cfg, game, weights), path, meta, slim=True)
