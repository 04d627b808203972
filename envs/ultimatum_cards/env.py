"""The Ultimatum card game for PettingZoo: `env()` and `raw_env`, PettingZoo's pair. The registry finds this module
by the game's package, and `from ultimata.envs import ultimatum_cards_v3` hands it out under the env name."""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from ultimata.envs.core.adapter import UltimataEnv, env_metadata, wrap
from ultimata.envs.ultimatum_cards.game import UltimatumCardsGame

__all__ = ["env", "raw_env"]


def env(**kwargs: Any) -> AECEnv:
    """The wrapped ultimatum_cards_v3 AEC env (TerminateIllegal, AssertOutOfBounds, OrderEnforcing)."""
    return wrap(raw_env(**kwargs))


class raw_env(UltimataEnv):
    """ultimatum_cards_v3: Ultimatum, the card game of steal, swap, give, take and negotiate."""

    game_class = UltimatumCardsGame
    metadata = env_metadata(UltimatumCardsGame)
