"""PettingZoo module for Ultra War: `env()` and `raw_env`, as PettingZoo convention has it."""

from ultimata.envs.core.adapter import bind
from ultimata.envs.ultra_war.game import UltraWarGame

raw_env, env = bind(UltraWarGame)

__all__ = ["env", "raw_env"]
