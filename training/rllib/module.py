"""The RLlib policy: SB3's MaskablePPO actor-critic, layer for layer, with the legal-move mask on the logits.

The layers are SB3's own classes under SB3's names (`features_extractor`, `mlp_extractor`, `action_net`,
`value_net`), so exporting to an ultimata checkpoint is a `load_state_dict` per part and the exported
policy computes the same logits (training/rllib/export.py). The forward pass and the mask are
agents/policy.py's, as every other user of a policy runs them: a masked action has probability zero when
sampling, in exploration and in the greedy argmax alike.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.torch.torch_rl_module import TorchRLModule
from stable_baselines3.common.torch_layers import FlattenExtractor, MlpExtractor
from torch import nn

from ultimata.agents.policy import actor_logits, critic_values, masked_logits

OBSERVATIONS = "observations"
ACTION_MASK = "action_mask"


def observation_box(space: gym.Space) -> gym.spaces.Box:
    """The flat observation inside the env's {observations, action_mask} dict."""
    return space[OBSERVATIONS] if isinstance(space, gym.spaces.Dict) else space


class MaskedActorCritic(TorchRLModule, ValueFunctionAPI):
    """Features -> separate policy and value MLPs (Tanh, as SB3) -> logits masked by `action_mask`.

    model_config: `net_arch` (hidden sizes of both MLPs) and, for board games with planes,
    `features_extractor_class` + `features_extractor_kwargs` (agents/features.py), as SB3 takes them.
    """

    def setup(self) -> None:
        config: dict[str, Any] = dict(self.model_config or {})
        box = observation_box(self.observation_space)
        extractor = config.get("features_extractor_class") or FlattenExtractor
        self.features_extractor = extractor(box, **config.get("features_extractor_kwargs", {}))
        arch = list(config.get("net_arch", [128, 128]))
        self.mlp_extractor = MlpExtractor(self.features_extractor.features_dim, {"pi": arch, "vf": arch}, nn.Tanh)
        self.action_net = nn.Linear(self.mlp_extractor.latent_dim_pi, int(self.action_space.n))
        self.value_net = nn.Linear(self.mlp_extractor.latent_dim_vf, 1)

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        obs = batch[Columns.OBS]
        return {Columns.ACTION_DIST_INPUTS: masked_logits(actor_logits(self, obs[OBSERVATIONS]), obs[ACTION_MASK] != 0)}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        return critic_values(self, batch[Columns.OBS][OBSERVATIONS])

    def raw_logits(self, observations: torch.Tensor) -> torch.Tensor:
        """Unmasked logits, for comparing with an exported policy."""
        return actor_logits(self, observations)
