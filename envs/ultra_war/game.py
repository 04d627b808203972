"""Ultra War as a `Game`: the scenario's content and map, fixed action and observation sizes."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ultimata.envs.core.engine import Game
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultra_war.actions import NUM_ACTIONS
from ultimata.envs.ultra_war.board import Board
from ultimata.envs.ultra_war.config import UltraWarConfig
from ultimata.envs.ultra_war.content import SIZE, content
from ultimata.envs.ultra_war.geometry import FIELDS, chebyshev
from ultimata.envs.ultra_war.observation import OBS_SIZE, PLANES, observed_rules
from ultimata.envs.ultra_war.state import UltraWarState


class UltraWarGame(Game[UltraWarConfig]):
    """Ultra War: two armies of character pawns on a 12 x 12 map (player_0 = the scenario's first faction)."""

    name: ClassVar[str] = "ultra_war_v4"
    title: ClassVar[str] = "Ultra War"
    version: ClassVar[int] = 4
    config_model = UltraWarConfig
    render_modes: ClassVar[tuple[str, ...]] = ("human", "ansi", "rgb_array")
    has_board: ClassVar[bool] = True
    supports_dense_reward: ClassVar[bool] = True
    observation_dtype: ClassVar[type] = np.float32
    observation_bounds: ClassVar[tuple[float, float]] = (0.0, 1.0)
    observation_planes: ClassVar[tuple[int, int, int] | None] = (PLANES, SIZE, SIZE)

    def __init__(self, config: UltraWarConfig) -> None:
        super().__init__(config)
        self.content = content()
        self.scenario = self.content.scenarios[config.scenario]
        self.board = Board(self.content.maps[self.scenario.map])
        self.side_decks = tuple(self.content.decks[f] for f in self.scenario.factions)
        """Each seat's faction deck (card name -> card), looked up often."""
        centre = FIELDS // 2 + 6
        self.start_spaces = tuple(
            sorted((f for f in range(FIELDS) if self.board.start[side][f]), key=lambda f: (chebyshev(f, centre), f))
            for side in (0, 1))
        """Each side's start spaces, nearest the map centre first: pawns go on the first, tokens on the last
        (gap, ours)."""
        self.observed_rules = observed_rules(config, self.scenario.rounds)

    @property
    def num_players(self) -> int:
        return 2

    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (OBS_SIZE,)

    def new_initial_state(self, rng: Rng) -> UltraWarState:
        return UltraWarState(self, rng)

    def make_renderer(self, mode: str, fps: int) -> Any:
        from ultimata.envs.ultra_war.render import UltraWarRenderer

        return UltraWarRenderer(mode, fps)
