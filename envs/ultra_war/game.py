"""Ultra War as a `Game`: the scenario's content and map, fixed action and observation sizes."""

from __future__ import annotations

from ultimata.envs.core.engine import Game
from ultimata.envs.core.game_info import GameInfo
from ultimata.envs.ultra_war.actions import NUM_ACTIONS
from ultimata.envs.ultra_war.board import Board
from ultimata.envs.ultra_war.config import UltraWarConfig
from ultimata.envs.ultra_war.content import SIZE, content
from ultimata.envs.ultra_war.observation import OBS_SIZE, PLANES, observed_rules
from ultimata.envs.ultra_war.state import UltraWarState


class UltraWarGame(Game[UltraWarConfig]):
    """Ultra War: two armies of character pawns on a 12 x 12 map (player_0 = the scenario's first faction)."""

    info = GameInfo(name="ultra_war_v5", title="Ultra War", config=UltraWarConfig, state=UltraWarState, players=2,
                    actions=NUM_ACTIONS, observation_size=OBS_SIZE, observation_bounds=(0.0, 1.0),
                    observation_planes=(PLANES, SIZE, SIZE), renderer="UltraWarRenderer", dense_reward=True)

    def __init__(self, config: UltraWarConfig) -> None:
        super().__init__(config)
        self.content = content()
        self.scenario = self.content.scenarios[config.scenario]
        self.board = Board(self.content.maps[self.scenario.map])
        self.side_decks = tuple(self.content.decks[f] for f in self.scenario.factions)
        """Each seat's faction deck (card name -> card), looked up often."""
        self.observed_rules = observed_rules(config, self.scenario.rounds)
