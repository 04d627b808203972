"""PettingZoo module for Ultimatum, the 1985 world wargame: `env()` and `raw_env`, as PettingZoo convention has it."""

from ultimata.envs.core.adapter import bind
from ultimata.envs.ultimatum_world.game import WorldGame

raw_env, env = bind(WorldGame)

__all__ = ["env", "raw_env"]
