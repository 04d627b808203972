"""ultimata's games as PettingZoo AEC environments: `envs.make("ultimatum_cards_v3")`; one seat of any
game as a gymnasium env against bots: `envs.single_agent("ultimatum_cards_v3", ["heuristic"])`; many games
stepped together with numpy arrays in and out: `envs.batch("ultimatum_cards_v3", 64)`; one seat of each of
many games as a `gymnasium.vector.VectorEnv`: `envs.vector("ultimatum_cards_v3", 64)`."""

import importlib

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
from ultimata.envs.vector import SeatVectorEnv, vector
from ultimata.provided import is_provided, provided

register_all()


def __getattr__(name: str) -> object:
    """Handed out on first use, so that importing the envs imports no game and never agents or training:
    - `from ultimata.envs import ultra_war_v5`: a game's PettingZoo module by its env name, PettingZoo's
      versioned-module convention (registry.VersionedModules re-exports the game package's `env.py`);
    - `envs.single_agent`, which a higher floor makes (it plays agents) and hands out (ultimata/provided.py)."""
    if name in GAMES:
        return importlib.import_module(f"{__name__}.{name}")
    if is_provided(name):
        return provided(name)
    raise AttributeError(f"module 'ultimata.envs' has no attribute {name!r}")


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
    "SeatVectorEnv",
    "vector",
]
