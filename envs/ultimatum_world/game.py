"""Ultimatum as a `Game`: 2-6 players, the fixed action layout of `actions.py` and the observation of
`observation.py` (their sizes are `NUM_ACTIONS` and `OBS_SIZE`), the rules data resolved once."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ultimata.envs.core.engine import Game
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimatum_world.actions import NUM_ACTIONS
from ultimata.envs.ultimatum_world.config import WorldConfig
from ultimata.envs.ultimatum_world.content import Rules, default_rules_raw, parse_rules
from ultimata.envs.ultimatum_world.observation import OBS_SIZE
from ultimata.envs.ultimatum_world.state import WorldState


class WorldGame(Game[WorldConfig]):
    """Ultimatum (Bates Games, 1985): the world wargame; win with the Oil Alliance and one more."""

    name: ClassVar[str] = "ultimatum_world_v3"
    title: ClassVar[str] = "Ultimatum (world wargame)"
    version: ClassVar[int] = 3
    config_model = WorldConfig
    render_modes: ClassVar[tuple[str, ...]] = ("human", "ansi", "rgb_array")
    has_board: ClassVar[bool] = True
    supports_dense_reward: ClassVar[bool] = True
    observation_dtype: ClassVar[type] = np.float32

    def __init__(self, config: WorldConfig) -> None:
        super().__init__(config)
        raw = dict(default_rules_raw())
        if config.dice is not None:
            raw["dice"] = config.dice.model_dump()
        if config.cards is not None:
            unknown = set(config.cards) - set(raw["cards"])
            if unknown:
                from ultimata.envs.core.errors import ConfigError

                raise ConfigError(f"unknown card kind(s) {sorted(unknown)} in cards; kinds: {sorted(raw['cards'])}")
            raw["cards"] = {k: {**v, "count": config.cards.get(k, v["count"])} for k, v in raw["cards"].items()}
        self.rules: Rules = parse_rules(raw, "config" if config.dice or config.cards else "rules.yaml")

    @property
    def num_players(self) -> int:
        return self.config.num_players

    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (OBS_SIZE,)

    def new_initial_state(self, rng: Rng) -> WorldState:
        return WorldState(self, rng)

    def make_renderer(self, mode: str, fps: int) -> Any:
        from ultimata.envs.ultimatum_world.render import WorldRenderer

        return WorldRenderer(mode, fps)
