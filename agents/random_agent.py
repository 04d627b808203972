"""Uniform over the legal actions: the floor every trained bot must clear."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from ultimata.envs.core.engine import State


class RandomAgent:
    spec = "random"
    reads_observation = False

    def __init__(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)

    def reset(self, seat: int, seed: int | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: State | None = None) -> int:
        legal = np.flatnonzero(action_mask)
        if len(legal) == 0:
            raise ValueError("random agent was asked to act with an all-zero action mask")
        return int(legal[self._rng.integers(len(legal))])
