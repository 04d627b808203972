"""PettingZoo module for the Ultimatum card game: `env()` and `raw_env`, as PettingZoo convention has it."""

from envs.core.adapter import bind
from envs.ultimatum_cards.game import UltimatumCardsGame

raw_env, env = bind(UltimatumCardsGame, __name__)

__all__ = ["env", "raw_env"]
