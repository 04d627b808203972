"""Ultra War for PettingZoo: `env()` and `raw_env`, PettingZoo's pair. The registry finds this module by the game's
package, and `from ultimata.envs import ultra_war_v5` hands it out under the env name."""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from ultimata.envs.core.adapter import UltimataEnv, env_metadata, wrap
from ultimata.envs.ultra_war.game import UltraWarGame

__all__ = ["env", "raw_env"]


def env(**kwargs: Any) -> AECEnv:
    """The wrapped ultra_war_v5 AEC env (TerminateIllegal, AssertOutOfBounds, OrderEnforcing)."""
    return wrap(raw_env(**kwargs))


class raw_env(UltimataEnv):
    """ultra_war_v5: Ultra War: two armies of character pawns on a 12 x 12 map (player_0 = the scenario's first
    faction)."""

    game_class = UltraWarGame
    metadata = env_metadata(UltraWarGame)
