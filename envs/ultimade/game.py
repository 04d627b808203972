"""ULTIMADE as a `Game`: static facts of one rule variant (endzones, sizes) and new states."""

from __future__ import annotations

from ultimata.envs.core.engine import Game
from ultimata.envs.core.game_info import GameInfo
from ultimata.envs.ultimade.actions import NUM_ACTIONS
from ultimata.envs.ultimade.board import LENGTH, WIDTH, rows_mask
from ultimata.envs.ultimade.config import UltimadeConfig
from ultimata.envs.ultimade.observation import OBS_SIZE, PLANES, ObservationLayout
from ultimata.envs.ultimade.state import UltimadeState


class UltimadeGame(Game[UltimadeConfig]):
    """ULTIMADE: Ultimate on a 9 x 18 board, four a side, two teams (player_0 = A, player_1 = B)."""

    info = GameInfo(name="ultimade_v2", title="ULTIMADE", config=UltimadeConfig, state=UltimadeState, players=2,
                    actions=NUM_ACTIONS, observation_size=OBS_SIZE, observation_bounds=(0.0, 1.0),
                    observation_planes=(len(PLANES), LENGTH, WIDTH), renderer="UltimadeRenderer",
                    perfect_information=True, dense_reward=True)

    def __init__(self, config: UltimadeConfig) -> None:
        super().__init__(config)
        depth = config.endzone_depth
        self.endzone = (rows_mask(0, depth - 1), rows_mask(LENGTH - depth, LENGTH - 1))
        """The endzone each team defends (and sets up in)."""
        self.attack_zone = self.endzone[::-1]
        """The endzone each team scores in."""
        self.obs_layout = ObservationLayout(self.endzone)
