"""Agents as a user writes them in their own code, for the `module:Name` and `file.py:Name` specs."""

from __future__ import annotations

import numpy as np

VALUE = 3


class FirstLegal:
    """The lowest legal action (or the highest with last=true)."""

    def __init__(self, last: bool = False, depth: int = 1) -> None:
        self.last, self.depth = last, depth
        self.seat = -1

    def reset(self, seat, seed=None):
        self.seat = seat

    def act(self, observation, action_mask, state=None):
        legal = np.flatnonzero(action_mask)
        return int(legal[-1] if self.last else legal[0])


def make_agent(game: str, seed: int | None, temperature: float = 1.0) -> FirstLegal:
    """A factory that asks for the game and the seed by name."""
    agent = FirstLegal()
    agent.made_for = (game, seed, temperature)
    return agent


class NotAnAgent:
    def act(self, observation, action_mask, state=None):
        return 0


class Cheater(FirstLegal):
    """Returns a masked action on its first decision of every game."""

    def reset(self, seat, seed=None):
        self.moves = 0

    def act(self, observation, action_mask, state=None):
        self.moves += 1
        if self.moves == 1:
            return int(np.flatnonzero(action_mask == 0)[0])
        return super().act(observation, action_mask, state)


class ReturnsFloat(FirstLegal):
    def act(self, observation, action_mask, state=None):
        return float(super().act(observation, action_mask, state))
