"""PettingZoo module for Conquest of the World: `env()` and `raw_env`, as PettingZoo convention has it."""

from ultimata.envs.conquest_of_the_world.game import ConquestGame
from ultimata.envs.core.adapter import bind

raw_env, env = bind(ConquestGame)

__all__ = ["env", "raw_env"]
