"""ULTIMADE as a `Game`: static facts of one rule variant (endzones, sizes) and new states."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ultimata.envs.core.engine import Game
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimade.actions import NUM_ACTIONS
from ultimata.envs.ultimade.board import LENGTH, WIDTH, rows_mask
from ultimata.envs.ultimade.config import UltimadeConfig
from ultimata.envs.ultimade.observation import PLANES, ObservationLayout
from ultimata.envs.ultimade.state import UltimadeState


class UltimadeGame(Game[UltimadeConfig]):
    """ULTIMADE: Ultimate on a 9 x 18 board, four a side, two teams (player_0 = A, player_1 = B)."""

    name: ClassVar[str] = "ultimade_v2"
    title: ClassVar[str] = "ULTIMADE"
    observation_planes: ClassVar[tuple[int, int, int] | None] = (len(PLANES), LENGTH, WIDTH)
    version: ClassVar[int] = 2
    config_model = UltimadeConfig
    render_modes: ClassVar[tuple[str, ...]] = ("human", "ansi", "rgb_array")
    has_board: ClassVar[bool] = True
    perfect_information: ClassVar[bool] = True
    supports_dense_reward: ClassVar[bool] = True
    observation_dtype: ClassVar[type] = np.float32
    observation_bounds: ClassVar[tuple[float, float]] = (0.0, 1.0)

    def __init__(self, config: UltimadeConfig) -> None:
        super().__init__(config)
        depth = config.endzone_depth
        self.endzone = (rows_mask(0, depth - 1), rows_mask(LENGTH - depth, LENGTH - 1))
        """The endzone each team defends (and sets up in)."""
        self.attack_zone = (self.endzone[1], self.endzone[0])
        """The endzone each team scores in."""
        self.obs_layout = ObservationLayout(self.endzone)

    @property
    def num_players(self) -> int:
        return 2

    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (self.obs_layout.size,)

    def new_initial_state(self, rng: Rng) -> UltimadeState:
        return UltimadeState(self, rng)

    def make_renderer(self, mode: str, fps: int) -> Any:
        from ultimata.envs.ultimade.render import UltimadeRenderer

        return UltimadeRenderer(mode, fps)
