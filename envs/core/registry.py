"""Every game, by name. Registering a game is one line in GAMES; the game itself needs more pieces (its
rules package, thin module, doc, scripted bot, configs, golden file, web view and test helpers), listed in
order in docs/adding_a_game.md and checked for every registered game by tests/test_layout.py."""

from __future__ import annotations

import importlib
from typing import Any

import pettingzoo
from pettingzoo import AECEnv

from ultimata.envs.core.engine import Game
from ultimata.envs.core.errors import ConfigError

GAMES: dict[str, str] = {
    "ultimatum_cards_v2": "ultimata.envs.ultimatum_cards_v2",
    "ultimade_v1": "ultimata.envs.ultimade_v1",
    "ultra_war_v3": "ultimata.envs.ultra_war_v3",
    "conquest_of_the_world_v3": "ultimata.envs.conquest_of_the_world_v3",
    "ultimatum_world_v3": "ultimata.envs.ultimatum_world_v3",
}
"""Env name -> the thin PettingZoo module that defines `env` and `raw_env`."""


def _module(name: str) -> Any:
    if name not in GAMES:
        raise ConfigError(f"unknown game {name!r}; registered games: {', '.join(GAMES)}")
    return importlib.import_module(GAMES[name])


def game_class(name: str) -> type[Game]:
    return _module(name).raw_env.game_class


def make(name: str, **config: Any) -> AECEnv:
    """The wrapped AEC env, as PettingZoo users expect it."""
    return _module(name).env(**config)


def make_raw(name: str, **config: Any) -> AECEnv:
    """The unwrapped env: illegal actions raise instead of ending the game."""
    return _module(name).raw_env(**config)


def pettingzoo_id(name: str) -> str:
    base, version = name.rsplit("_v", 1)
    return f"ultimata/{base}-v{version}"


def register_all() -> None:
    """Make every game available as `pettingzoo.make("aec", "ultimata/<game>-v0")`."""
    for name, module in GAMES.items():
        if pettingzoo_id(name) not in pettingzoo.aec_registry:
            pettingzoo.register("aec", pettingzoo_id(name), entry_point=f"{module}:env")


def game_base_name(game_name: str) -> str:
    """'ultimatum_cards_v2' -> 'ultimatum_cards': scripted bots and configs are per game, not per version."""
    base, sep, version = game_name.rpartition("_v")
    return base if sep and version.isdigit() else game_name


def env_name(base: str) -> str:
    """The registered env of a game by its name without version: 'ultra_war' -> 'ultra_war_v3'. Code
    that means "this game, whatever its version" stays valid across version bumps."""
    found = [name for name in GAMES if game_base_name(name) == base]
    if not found:
        raise ConfigError(f"unknown game {base!r}; games: {', '.join(game_base_name(name) for name in GAMES)}")
    return max(found, key=lambda name: int(name.rpartition("_v")[2]))
