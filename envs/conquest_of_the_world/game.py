"""Conquest of the World as a `Game`: 2-6 players, 147 actions, 727 observation floats."""

from __future__ import annotations

from functools import cached_property
from typing import Any, ClassVar

import numpy as np

from ultimata.envs.conquest_of_the_world.actions import NUM_ACTIONS
from ultimata.envs.conquest_of_the_world.config import ConquestConfig
from ultimata.envs.conquest_of_the_world.observation import OBS_SIZE, template
from ultimata.envs.conquest_of_the_world.state import ConquestState
from ultimata.envs.core.engine import Game
from ultimata.envs.core.rng import Rng


class ConquestGame(Game[ConquestConfig]):
    """Conquest of the World (Odyssey2 Master Strategy): homelands, alliances, wars and the end game."""

    name: ClassVar[str] = "conquest_of_the_world_v3"
    title: ClassVar[str] = "Conquest of the World"
    version: ClassVar[int] = 3
    config_model = ConquestConfig
    render_modes: ClassVar[tuple[str, ...]] = ("human", "ansi", "rgb_array")
    has_board: ClassVar[bool] = True
    supports_dense_reward: ClassVar[bool] = True
    observation_dtype: ClassVar[type] = np.float32

    @property
    def num_players(self) -> int:
        return self.config.num_players

    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (OBS_SIZE,)

    @cached_property
    def observation_template(self) -> np.ndarray:
        """What every observation of this game shares (the rule settings), copied for each one."""
        return template(self.config)

    def new_initial_state(self, rng: Rng) -> ConquestState:
        return ConquestState(self, rng)

    def make_renderer(self, mode: str, fps: int) -> Any:
        from ultimata.envs.conquest_of_the_world.render import ConquestRenderer

        return ConquestRenderer(mode, fps)
