"""Every game, by name. Registering a game is one line in GAMES: its env name and its package, where every
other piece of it is found by file name (`env.py`, `scripted.py`, `view.js`, ...; docs/adding_a_game.md
lists them, tests/test_layout.py checks them for every registered game)."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType
from typing import Any

import gymnasium
import pettingzoo
from pettingzoo import AECEnv

from ultimata.envs.core.engine import Game
from ultimata.envs.core.errors import ConfigError
from ultimata.envs.core.game_info import split_env_name

GAMES: dict[str, str] = {
    "ultimatum_cards_v3": "ultimata.envs.ultimatum_cards",
    "ultimade_v2": "ultimata.envs.ultimade",
    "ultra_war_v5": "ultimata.envs.ultra_war",
    "conquest_of_the_world_v3": "ultimata.envs.conquest_of_the_world",
    "ultimatum_world_v4": "ultimata.envs.ultimatum_world",
}
"""Env name -> the game's package. Its `env` module defines `env` and `raw_env`, PettingZoo's pair; the env
name is also a module, as in PettingZoo (`from ultimata.envs import ultra_war_v5`, `VersionedModules`)."""

RETIRED: dict[str, tuple[str, str | None]] = {
    "conquest_of_the_world_v2": ("conquest_of_the_world_v3", "0.1.0"),
    "ultimatum_world_v3": ("ultimatum_world_v4", "0.2.0"),
    "ultimatum_world_v2": ("ultimatum_world_v4", "0.1.0"),
    "ultimatum_cards_v2": ("ultimatum_cards_v3", "0.2.0"),
    **{f"ultimatum_cards_v{v}": ("ultimatum_cards_v3", None) for v in (0, 1)},
    "ultimade_v1": ("ultimade_v2", "0.1.0"),
    "ultimade_v0": ("ultimade_v2", None),
    "ultra_war_v4": ("ultra_war_v5", "0.2.0"),
    "ultra_war_v3": ("ultra_war_v5", "0.1.0"),
    **{f"ultra_war_v{v}": ("ultra_war_v5", None) for v in (0, 1, 2)},
    **{f"conquest_of_the_world_v{v}": ("conquest_of_the_world_v3", None) for v in (0, 1)},
    **{f"ultimatum_world_v{v}": ("ultimatum_world_v4", None) for v in (0, 1)},
}
"""Env versions no longer installed -> (the env that replaced them, the last ultimata release that has them, or
None when none did). As in PettingZoo, a rule change bumps the version and the old one goes; a number measured
on it is reproduced by installing that release (CHANGELOG.md)."""


def env_module(name: str) -> Any:
    """The game's PettingZoo module (`<package>.env`: `env()` and `raw_env`)."""
    if name not in GAMES:
        raise ConfigError(unknown_game(name))
    return importlib.import_module(f"{GAMES[name]}.env")


def unknown_game(name: str) -> str:
    """Why `name` is not a game here: a retired version names its replacement and how to get the old rules back."""
    if name in RETIRED:
        replacement, release = RETIRED[name]
        docs = f"docs/games/{game_base_name(name)}.md"
        if release is None:
            return (f"{name} was replaced by {replacement} before ultimata's first release and is in no release; "
                    f"its rules are in the version history of {docs} and in the git history")
        return (f"{name} was replaced by {replacement}, whose rules differ ({docs}, version history; CHANGELOG.md); "
                f"to reproduce a result on {name}, install ultimata {release}, the last release that has it (git tag "
                f"v{release}): pip install ultimata=={release}")
    return f"unknown game {name!r}; registered games: {', '.join(GAMES)}"


def game_class(name: str) -> type[Game]:
    return env_module(name).raw_env.game_class


def game_package(name: str) -> str:
    """The game's own package ('ultimata.envs.ultimade'), where its files are found by name."""
    if name not in GAMES:
        raise ConfigError(unknown_game(name))
    return GAMES[name]


def make(name: str, **config: Any) -> AECEnv:
    """The wrapped AEC env, as PettingZoo users expect it."""
    return env_module(name).env(**config)


def make_raw(name: str, **config: Any) -> AECEnv:
    """The unwrapped env: illegal actions raise instead of ending the game."""
    return env_module(name).raw_env(**config)


def pettingzoo_id(name: str) -> str:
    base, version = _split(name)
    return f"ultimata/{base}-v{version}"


def gymnasium_id(name: str) -> str:
    """The single-agent view's gymnasium id: 'ultimatum_cards_v2' -> 'ultimata/UltimatumCards-v2'."""
    base, version = _split(name)
    return f"ultimata/{''.join(word.capitalize() for word in base.split('_'))}-v{version}"


class VersionedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """PettingZoo's versioned modules, made from the registry instead of written as files. PettingZoo's
    `classic/connect_four_v3.py` only re-exports `env` and `raw_env` from the game's package; here
    `ultimata.envs.ultra_war_v5` re-exports envs/ultra_war/env.py's the same way, so `import` and `from`
    work with every registered name and a game needs no file outside its package. A retired name's import
    fails saying what replaced it, as `make` does."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        parent, _, name = fullname.rpartition(".")
        if parent != "ultimata.envs":
            return None
        if name in RETIRED:
            raise ModuleNotFoundError(unknown_game(name))
        return importlib.util.spec_from_loader(fullname, self) if name in GAMES else None

    def exec_module(self, module: ModuleType) -> None:
        source = env_module(module.__name__.rpartition(".")[2])
        module.__doc__, module.__all__ = source.__doc__, list(source.__all__)
        vars(module).update({name: getattr(source, name) for name in source.__all__})


def register_all() -> None:
    """Make every game available as `pettingzoo.make("aec", "ultimata/<game>-v<N>")` where PettingZoo has a
    registry (1.27 on; 1.25 and 1.26 have none, and there the games are made with `make` alone), and its
    single-agent view as `gymnasium.make("ultimata/<Game>-v<N>", opponents=[...], **rules)`, and its env module
    as `ultimata.envs.<game>_vN`."""
    if not any(isinstance(finder, VersionedModules) for finder in sys.meta_path):
        sys.meta_path.append(VersionedModules())
    for name in GAMES:
        if gymnasium_id(name) not in gymnasium.registry:
            gymnasium.register(gymnasium_id(name), entry_point="ultimata.envs:single_agent",
                               kwargs={"game": name})
    if not hasattr(pettingzoo, "register"):
        return
    for name, module in GAMES.items():
        if pettingzoo_id(name) not in pettingzoo.aec_registry:
            pettingzoo.register("aec", pettingzoo_id(name), entry_point=f"{module}.env:env")


def _split(name: str) -> tuple[str, int]:
    split = split_env_name(name)
    if split is None:
        raise ConfigError(f"an env name ends in _v<version>, got {name!r}")
    return split


def game_base_name(game_name: str) -> str:
    """'ultimatum_cards_v2' -> 'ultimatum_cards': scripted bots and configs are per game, not per version."""
    split = split_env_name(game_name)
    return game_name if split is None else split[0]


def env_name(base: str) -> str:
    """The registered env of a game by its name without version: 'ultra_war' -> 'ultra_war_v5'. Code
    that means "this game, whatever its version" stays valid across version bumps."""
    found = [name for name in GAMES if game_base_name(name) == base]
    if not found:
        raise ConfigError(f"unknown game {base!r}; games: {', '.join(game_base_name(name) for name in GAMES)}")
    return max(found, key=lambda name: _split(name)[1])
