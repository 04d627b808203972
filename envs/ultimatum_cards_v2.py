"""PettingZoo module for the Ultimatum card game: `env()` and `raw_env`, as PettingZoo convention has it."""

from ultimata.envs.core.adapter import bind
from ultimata.envs.ultimatum_cards.game import UltimatumCardsGame

raw_env, env = bind(UltimatumCardsGame, __name__)

__all__ = ["env", "raw_env"]
