"""Ultimatum, the 1985 world wargame for PettingZoo: `env()` and `raw_env`, PettingZoo's pair. The registry finds
this module by the game's package, and `from ultimata.envs import ultimatum_world_v4` hands it out under the env
name."""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from ultimata.envs.core.adapter import UltimataEnv, env_metadata, wrap
from ultimata.envs.ultimatum_world.game import WorldGame

__all__ = ["env", "raw_env"]


def env(**kwargs: Any) -> AECEnv:
    """The wrapped ultimatum_world_v4 AEC env (TerminateIllegal, AssertOutOfBounds, OrderEnforcing)."""
    return wrap(raw_env(**kwargs))


class raw_env(UltimataEnv):
    """ultimatum_world_v4: Ultimatum (Bates Games, 1985): the world wargame; win with the Oil Alliance and one more."""

    game_class = WorldGame
    metadata = env_metadata(WorldGame)
