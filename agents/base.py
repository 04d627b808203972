"""The one agent protocol every driver (self-play env, arena, terminal play) speaks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

from ultimata.envs.core.registry import game_base_name

__all__ = ["Agent", "StateReadingAgent", "as_action", "game_base_name"]

if TYPE_CHECKING:
    from ultimata.envs.core.engine import State


@runtime_checkable
class Agent(Protocol):
    """Picks one legal action per decision.

    `reset(seat, seed)` starts a game: the seat this agent holds and a seed for its own randomness.
    `observation` is the flat observation array (PettingZoo's ``obs["observation"]``) and
    `action_mask` the int8 legal-action mask; `act` returns an int whose mask entry is 1.
    Drivers also pass the engine `state`, the whole position, hidden parts included. An agent may read
    from it only what its seat may see or remember: `state.render_text(seat)`, the legal actions,
    public facts, and `state.sample_consistent(seat, rng)` (a full state re-drawn from what the seat
    knows, for search). Scripted bots and search keep to that (tests/agents/test_nothing_hidden.py);
    policy and random agents ignore `state`.

    An agent class that never reads `observation` may say so with `reads_observation = False`; the
    training sampler then passes None instead of encoding one it would throw away.
    """

    def reset(self, seat: int, seed: int | None = None) -> None: ...

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: State | None = None) -> int: ...


def as_action(value: object) -> object:
    """An agent's answer as the engine takes it: a 0-d numpy array (what SB3's `predict` returns for one
    observation) becomes its scalar; anything else is passed on for the engine to accept or refuse."""
    return value.item() if isinstance(value, np.ndarray) and value.ndim == 0 else value


class StateReadingAgent:
    """Shared plumbing of agents that read the engine state (scripted bots, search): a seeded Rng,
    the seat, and a clear error when a driver forgets to pass the state."""

    spec = "state-reading agent"
    reads_observation = False

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
