"""ULTIMADE for PettingZoo: `env()` and `raw_env`, PettingZoo's pair. The registry finds this module by the game's
package, and `from ultimata.envs import ultimade_v2` hands it out under the env name."""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from ultimata.envs.core.adapter import UltimataEnv, env_metadata, wrap
from ultimata.envs.ultimade.game import UltimadeGame

__all__ = ["env", "raw_env"]


def env(**kwargs: Any) -> AECEnv:
    """The wrapped ultimade_v2 AEC env (TerminateIllegal, AssertOutOfBounds, OrderEnforcing)."""
    return wrap(raw_env(**kwargs))


class raw_env(UltimataEnv):
    """ultimade_v2: ULTIMADE: Ultimate on a 9 x 18 board, four a side, two teams (player_0 = A, player_1 = B)."""

    game_class = UltimadeGame
    metadata = env_metadata(UltimadeGame)
