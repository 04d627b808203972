"""The `heuristic` spec: wraps the game's scripted bot, found by name in its package (envs/<game>/scripted.py).

Looking the module up in the game's package keeps training and the arena free of per-game code: a new game
gets a heuristic opponent by adding one file to its package with `choose_action(state, rng) -> int`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from ultimata.agents.base import StateReadingAgent, game_base_name
from ultimata.envs.core.errors import ConfigError
from ultimata.envs.core.registry import game_package
from ultimata.envs.core.rng import Rng

if TYPE_CHECKING:
    from ultimata.envs.core.engine import State


def scripted_policy(game_name: str) -> Callable[[State, Rng], int]:
    """The game's `choose_action`, or a ConfigError saying which file is missing."""
    module_name = f"{game_package(game_name)}.scripted"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        if err.name != module_name:
            raise
        raise ConfigError(
            f"no scripted bot for {game_name}: expected envs/{game_base_name(game_name)}/scripted.py "
            "defining choose_action(state, rng) -> int"
        ) from None
    choose = getattr(module, "choose_action", None)
    if not callable(choose):
        raise ConfigError(f"{module_name} must define choose_action(state, rng) -> int")
    return choose


def has_scripted_bot(game_name: str) -> bool:
    try:
        scripted_policy(game_name)
    except ConfigError:
        return False
    return True


class ScriptedAgent(StateReadingAgent):
    spec = "heuristic"

    def __init__(self, game_name: str, seed: int | None = None) -> None:
        super().__init__(seed)
        self._choose = scripted_policy(game_name)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: State | None = None) -> int:
        return int(self._choose(self._require(state), self._rng))
