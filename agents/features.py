"""A convolutional features extractor for games whose flat observation starts with board planes.

A plain MLP over a wide flat board (ULTIMADE: 9 planes x 18 x 9 + 14 scalars = 1,472 inputs) has to
learn every field separately and, small enough to ship, underfits. Convolutions share weights across
fields, so the same few thousand parameters read "a team-mate next to this field" everywhere. The
scalars (phase, scores, ...) also reach the first conv layer, so a field's features can depend on the
phase: the same field means different moves in different phases. Two ways, the same information:
`broadcast` stacks them as constant planes under the board (the first checkpoints' way); `bias` adds a
linear map of them to the first layer's output at every field. A 3x3 kernel over a constant plane is one
number per channel away from the borders, so `bias` loses only the border's partial sums, and with Ultra
War's 411 scalars over 36 planes it costs a twelfth of the first layer's work (the conv stack's forward
and backward pass about a third as long).

Nothing here is game-specific: the layout comes from `Game.observation_planes` (C, H, W), and the
entries after the C*H*W plane values are treated as scalars. It lives in agents/ because it is part of a
policy's network, which agents/policy_net.py builds to play a checkpoint; training/features.py keeps its
old path for the SB3 zips that pickled a reference to it.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import torch
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from ultimata.envs.core.engine import Game
from ultimata.envs.core.errors import ConfigError

FEATURES = ("flat", "planes")
SCALARS = ("broadcast", "bias", "none")


class PlanesExtractor(BaseFeaturesExtractor):
    """Planes -> 3x3 convs (ReLU) -> 1x1 reduction -> flatten, concatenated with the raw scalars."""

    def __init__(
        self, observation_space: gym.spaces.Box, planes: tuple[int, int, int] | list[int],
        channels: tuple[int, ...] | list[int] = (32, 32), out_channels: int = 8,
        scalars: str = "broadcast",
    ) -> None:
        c, h, w = (int(x) for x in planes)
        size = int(observation_space.shape[0])
        n_scalars = size - c * h * w
        if n_scalars < 0:
            raise ValueError(f"observation of {size} values cannot hold {c} planes of {h} x {w}")
        if scalars not in SCALARS:
            raise ValueError(f"unknown scalars mode {scalars!r}; use one of: {', '.join(SCALARS)}")
        if scalars == "bias" and not (channels or out_channels):
            raise ValueError("scalars: bias needs a conv layer to add to")
        layers: list[nn.Module] = []
        previous = c + (n_scalars if scalars == "broadcast" else 0)
        for width in channels:
            layers += [nn.Conv2d(previous, int(width), 3, padding=1), nn.ReLU()]
            previous = int(width)
        if out_channels:
            layers += [nn.Conv2d(previous, int(out_channels), 1), nn.ReLU()]
            previous = int(out_channels)
        super().__init__(observation_space, features_dim=previous * h * w + n_scalars)
        self.shape = (c, h, w)
        self.n_scalars = n_scalars
        self.scalars = scalars
        self.conv = nn.Sequential(*layers, nn.Flatten())
        first = int(channels[0]) if channels else int(out_channels)
        self.scalar_bias = nn.Linear(n_scalars, first) if scalars == "bias" and n_scalars else None

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        c, h, w = self.shape
        flat = observations.reshape(observations.shape[0], -1)
        boards = flat[:, : c * h * w].reshape(-1, c, h, w)
        scalars = flat[:, c * h * w :]
        if self.scalar_bias is not None:
            first = self.conv[0](boards) + self.scalar_bias(scalars)[:, :, None, None]
            return torch.cat([self.conv[1:](first), scalars], dim=1)
        if self.scalars == "broadcast" and self.n_scalars:
            boards = torch.cat([boards, scalars[:, :, None, None].expand(-1, -1, h, w)], dim=1)
        return torch.cat([self.conv(boards), scalars], dim=1)


def features_policy_kwargs(features: str, game: Game, channels: list[int], out_channels: int,
                           scalars: str = "broadcast") -> dict[str, Any]:
    """The policy_kwargs entries for `features` (empty for flat), or ConfigError if the game cannot."""
    if features not in FEATURES:
        raise ConfigError(f"unknown ppo.features {features!r}; use one of: {', '.join(FEATURES)}")
    if features == "flat":
        return {}
    planes = game.observation_planes
    if planes is None:
        raise ConfigError(
            f"ppo.features: planes needs a game with board planes; {game.name} declares none "
            "(observation_planes is None): use features: flat"
        )
    return {
        "features_extractor_class": PlanesExtractor,
        "features_extractor_kwargs": {"planes": list(planes), "channels": list(channels),
                                      "out_channels": out_channels, "scalars": scalars},
    }
