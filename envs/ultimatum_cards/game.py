"""The Ultimatum card game (3-6 players): steal, swap, give, take and negotiate scoring chips."""

from __future__ import annotations

from operator import attrgetter

from ultimata.envs.core.engine import Game
from ultimata.envs.core.game_info import GameInfo, seats_in_config
from ultimata.envs.ultimatum_cards.actions import ActionLayout
from ultimata.envs.ultimatum_cards.config import UltimatumCardsConfig
from ultimata.envs.ultimatum_cards.observation import ObservationLayout, encode, observation_bounds
from ultimata.envs.ultimatum_cards.state import UltimatumCardsState


class UltimatumCardsGame(Game[UltimatumCardsConfig]):
    """Ultimatum, the card game of steal, swap, give, take and negotiate."""

    info = GameInfo(name="ultimatum_cards_v3", title="Ultimatum (card game)", config=UltimatumCardsConfig,
                    state=UltimatumCardsState, players=seats_in_config, actions=attrgetter("layout.size"),
                    observation_size=attrgetter("obs_layout.size"), observation_bounds=observation_bounds,
                    dense_reward=True)
    observe = staticmethod(encode)
    """`observe(state, viewer)`: here, as the state module cannot import the observation module (which reads
    its constants) without a per-call import."""

    def __init__(self, config: UltimatumCardsConfig) -> None:
        super().__init__(config)
        self.layout = ActionLayout(config.num_players, config.starting_chips * config.num_players)
        self.obs_layout = ObservationLayout(config.num_players)
