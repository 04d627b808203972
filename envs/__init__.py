"""ultimata's games as PettingZoo AEC environments: `envs.make("ultimatum_cards_v2")`; one seat of any
game as a gymnasium env against bots: `envs.single_agent("ultimatum_cards_v2", ["heuristic"])`; many games
stepped together with numpy arrays in and out: `envs.batch("ultimatum_cards_v2", 64)`."""

from ultimata.envs.batch import BatchEnv, batch
from ultimata.envs.core.errors import (
    CheckpointError,
    ConfigError,
    IllegalActionError,
    ReplayError,
    UltimataError,
)
from ultimata.envs.core.registry import (
    GAMES,
    env_name,
    game_class,
    gymnasium_id,
    make,
    make_raw,
    pettingzoo_id,
    register_all,
)
from ultimata.envs.rllib_names import rllib_observations
from ultimata.envs.single_agent import single_agent

register_all()

__all__ = [
    "GAMES",
    "BatchEnv",
    "batch",
    "env_name",
    "CheckpointError",
    "ConfigError",
    "IllegalActionError",
    "ReplayError",
    "UltimataError",
    "game_class",
    "gymnasium_id",
    "make",
    "make_raw",
    "pettingzoo_id",
    "rllib_observations",
    "single_agent",
]
