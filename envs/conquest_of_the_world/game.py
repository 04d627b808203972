"""Conquest of the World as a `Game`: 2-6 players, 147 actions, 727 observation floats."""

from __future__ import annotations

from functools import cached_property

import numpy as np

from ultimata.envs.conquest_of_the_world.actions import NUM_ACTIONS
from ultimata.envs.conquest_of_the_world.config import ConquestConfig
from ultimata.envs.conquest_of_the_world.observation import OBS_SIZE, template
from ultimata.envs.conquest_of_the_world.state import ConquestState
from ultimata.envs.core.engine import Game
from ultimata.envs.core.game_info import GameInfo, seats_in_config


class ConquestGame(Game[ConquestConfig]):
    """Conquest of the World (Odyssey2 Master Strategy): homelands, alliances, wars and the end game."""

    info = GameInfo(name="conquest_of_the_world_v3", title="Conquest of the World", config=ConquestConfig,
                    state=ConquestState, players=seats_in_config, actions=NUM_ACTIONS, observation_size=OBS_SIZE,
                    observation_bounds=(0.0, np.inf), renderer="ConquestRenderer", dense_reward=True)
    """Chips and records have no cap but the turns."""

    @cached_property
    def observation_template(self) -> np.ndarray:
        """What every observation of this game shares (the rule settings), copied for each one."""
        return template(self.config)
