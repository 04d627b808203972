"""Ultimatum as a `Game`: 2-6 players, the fixed action layout of `actions.py` and the observation of
`observation.py` (their sizes are `NUM_ACTIONS` and `OBS_SIZE`), the rules data resolved once."""

from __future__ import annotations

import numpy as np

from ultimata.envs.core.engine import Game
from ultimata.envs.core.game_info import GameInfo, seats_in_config
from ultimata.envs.ultimatum_world.actions import NUM_ACTIONS
from ultimata.envs.ultimatum_world.config import WorldConfig
from ultimata.envs.ultimatum_world.content import Rules, configured_rules
from ultimata.envs.ultimatum_world.observation import OBS_SIZE
from ultimata.envs.ultimatum_world.state import WorldState


class WorldGame(Game[WorldConfig]):
    """Ultimatum (Bates Games, 1985): the world wargame; win with the Oil Alliance and one more."""

    info = GameInfo(name="ultimatum_world_v4", title="Ultimatum (world wargame)", config=WorldConfig,
                    state=WorldState, players=seats_in_config, actions=NUM_ACTIONS, observation_size=OBS_SIZE,
                    observation_bounds=(0.0, np.inf), renderer="WorldRenderer", dense_reward=True)
    """Money and troops have no cap but the rounds."""

    def __init__(self, config: WorldConfig) -> None:
        super().__init__(config)
        self.rules: Rules = configured_rules(config)
