"""PettingZoo module for the Ultimatum card game: `env()` and `raw_env`, as PettingZoo convention has it."""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from ultimata.envs.core.adapter import UltimataEnv, env_metadata, wrap
from ultimata.envs.ultimatum_cards.game import UltimatumCardsGame

__all__ = ["env", "raw_env"]


def env(**kwargs: Any) -> AECEnv:
    """The wrapped ultimatum_cards_v2 AEC env (TerminateIllegal, AssertOutOfBounds, OrderEnforcing)."""
    return wrap(raw_env(**kwargs))


class raw_env(UltimataEnv):
    """ultimatum_cards_v2: Ultimatum, the card game of steal, swap, give, take and negotiate."""

    game_class = UltimatumCardsGame
    metadata = env_metadata(UltimatumCardsGame)
