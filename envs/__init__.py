"""ultimata's games as PettingZoo AEC environments: `envs.make("ultimatum_cards_v2")`."""

from ultimata.envs.core.errors import (
    CheckpointError,
    ConfigError,
    IllegalActionError,
    ReplayError,
    UltimataError,
)
from ultimata.envs.core.registry import GAMES, game_class, make, make_raw, pettingzoo_id, register_all

register_all()

__all__ = [
    "GAMES",
    "CheckpointError",
    "ConfigError",
    "IllegalActionError",
    "ReplayError",
    "UltimataError",
    "game_class",
    "make",
    "make_raw",
    "pettingzoo_id",
]
