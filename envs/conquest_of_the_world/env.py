"""Conquest of the World for PettingZoo: `env()` and `raw_env`, PettingZoo's pair. The registry finds this module by
the game's package, and `from ultimata.envs import conquest_of_the_world_v3` hands it out under the env name."""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from ultimata.envs.conquest_of_the_world.game import ConquestGame
from ultimata.envs.core.adapter import UltimataEnv, env_metadata, wrap

__all__ = ["env", "raw_env"]


def env(**kwargs: Any) -> AECEnv:
    """The wrapped conquest_of_the_world_v3 AEC env (TerminateIllegal, AssertOutOfBounds, OrderEnforcing)."""
    return wrap(raw_env(**kwargs))


class raw_env(UltimataEnv):
    """conquest_of_the_world_v3: Conquest of the World (Odyssey2 Master Strategy): homelands, alliances, wars
    and the end game."""

    game_class = ConquestGame
    metadata = env_metadata(ConquestGame)
