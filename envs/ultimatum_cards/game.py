"""The Ultimatum card game (3-6 players): steal, swap, give, take and negotiate scoring chips."""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from ultimata.envs.core.engine import Game
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimatum_cards.actions import ActionLayout
from ultimata.envs.ultimatum_cards.config import UltimatumCardsConfig
from ultimata.envs.ultimatum_cards.observation import ObservationLayout, encode, observation_high
from ultimata.envs.ultimatum_cards.state import UltimatumCardsState


class UltimatumCardsGame(Game[UltimatumCardsConfig]):
    """Ultimatum, the card game of steal, swap, give, take and negotiate."""

    name: ClassVar[str] = "ultimatum_cards_v2"
    title: ClassVar[str] = "Ultimatum (card game)"
    version: ClassVar[int] = 2
    config_model = UltimatumCardsConfig
    supports_dense_reward = True
    observation_bounds = property(lambda game: (0.0, observation_high(game.config)))  # per rule config

    def __init__(self, config: UltimatumCardsConfig) -> None:
        super().__init__(config)
        n = config.num_players
        self.layout = ActionLayout(n, config.starting_chips * n)
        self.obs_layout = ObservationLayout(n)

    @property
    def num_players(self) -> int:
        return self.config.num_players

    @property
    def num_actions(self) -> int:
        return self.layout.size

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (self.obs_layout.size,)

    def new_initial_state(self, rng: Rng) -> UltimatumCardsState:
        return UltimatumCardsState(self, rng)

    def observe(self, state: UltimatumCardsState, viewer: int) -> np.ndarray:
        """`viewer`'s observation of `state`. Here, not in the state, because the state module cannot
        import the observation module (which reads its constants) without a per-call import."""
        return encode(state, viewer)
