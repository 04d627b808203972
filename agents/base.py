"""The one agent protocol every driver (self-play env, arena, terminal play) speaks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

if TYPE_CHECKING:
    from ultimata.envs.core.engine import State


@runtime_checkable
class Agent(Protocol):
    """Picks one legal action per decision.

    `observation` is the flat observation array (PettingZoo's ``obs["observation"]``) and
    `action_mask` the int8 legal-action mask. Drivers also pass the engine `state`; scripted bots
    need it and read only what their own seat may see. Policy and random agents ignore it.
    """

    def reset(self, seat: int, seed: int | None = None) -> None: ...

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: State | None = None) -> int: ...


def game_base_name(game_name: str) -> str:
    """'ultimatum_cards_v2' -> 'ultimatum_cards': scripted bots and configs are per game, not per version."""
    base, sep, version = game_name.rpartition("_v")
    return base if sep and version.isdigit() else game_name


class StateReadingAgent:
    """Shared plumbing of agents that read the engine state (scripted bots, search): a seeded Rng,
    the seat, and a clear error when a driver forgets to pass the state."""

    spec = "state-reading agent"

    def __init__(self, seed: int | None = None) -> None:
        from ultimata.envs.core.rng import Rng

        self._rng = Rng(seed)
        self.seat = -1

    def reset(self, seat: int, seed: int | None = None) -> None:
        from ultimata.envs.core.rng import Rng

        self.seat = seat
        if seed is not None:
            self._rng = Rng(seed)

    def _require(self, state: State | None) -> State:
        if state is None:
            raise ValueError(f"the {self.spec} agent reads the game state; pass state= to act()")
        return state
