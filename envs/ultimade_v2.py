"""PettingZoo module for ULTIMADE: `env()` and `raw_env`, as PettingZoo convention has it."""

from ultimata.envs.core.adapter import bind
from ultimata.envs.ultimade.game import UltimadeGame

raw_env, env = bind(UltimadeGame)

__all__ = ["env", "raw_env"]
