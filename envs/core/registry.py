"""Every game, by name. Registering a game is one line in GAMES; the game itself needs more pieces (its
rules package, thin module, doc, scripted bot, configs, golden file, web view and test helpers), listed in
order in docs/adding_a_game.md and checked for every registered game by tests/test_layout.py."""

from __future__ import annotations

import importlib
from typing import Any

import gymnasium
import pettingzoo
from pettingzoo import AECEnv

from ultimata.envs.core.engine import Game
from ultimata.envs.core.errors import ConfigError

GAMES: dict[str, str] = {
    "ultimatum_cards_v2": "ultimata.envs.ultimatum_cards_v2",
    "ultimade_v2": "ultimata.envs.ultimade_v2",
    "ultra_war_v4": "ultimata.envs.ultra_war_v4",
    "conquest_of_the_world_v3": "ultimata.envs.conquest_of_the_world_v3",
    "ultimatum_world_v3": "ultimata.envs.ultimatum_world_v3",
}
"""Env name -> the thin PettingZoo module that defines `env` and `raw_env`."""

RETIRED: dict[str, tuple[str, str | None]] = {
    "conquest_of_the_world_v2": ("conquest_of_the_world_v3", "0.1.0"),
    "ultimatum_world_v2": ("ultimatum_world_v3", "0.1.0"),
    **{f"ultimatum_cards_v{v}": ("ultimatum_cards_v2", None) for v in (0, 1)},
    "ultimade_v1": ("ultimade_v2", "0.1.0"),
    "ultimade_v0": ("ultimade_v2", None),
    "ultra_war_v3": ("ultra_war_v4", "0.1.0"),
    **{f"ultra_war_v{v}": ("ultra_war_v4", None) for v in (0, 1, 2)},
    **{f"conquest_of_the_world_v{v}": ("conquest_of_the_world_v3", None) for v in (0, 1)},
    **{f"ultimatum_world_v{v}": ("ultimatum_world_v3", None) for v in (0, 1)},
}
"""Env versions no longer installed -> (the env that replaced them, the last ultimata release that has them, or
None when none did). As in PettingZoo, a rule change bumps the version and the old one goes; a number measured
on it is reproduced by installing that release (CHANGELOG.md)."""


def _module(name: str) -> Any:
    if name not in GAMES:
        raise ConfigError(unknown_game(name))
    return importlib.import_module(GAMES[name])


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
    return _module(name).raw_env.game_class


def game_package(name: str) -> str:
    """The game's own package ('ultimata.envs.ultimade'), where its files are found by name."""
    return game_class(name).__module__.rpartition(".")[0]


def make(name: str, **config: Any) -> AECEnv:
    """The wrapped AEC env, as PettingZoo users expect it."""
    return _module(name).env(**config)


def make_raw(name: str, **config: Any) -> AECEnv:
    """The unwrapped env: illegal actions raise instead of ending the game."""
    return _module(name).raw_env(**config)


def pettingzoo_id(name: str) -> str:
    base, version = name.rsplit("_v", 1)
    return f"ultimata/{base}-v{version}"


def gymnasium_id(name: str) -> str:
    """The single-agent view's gymnasium id: 'ultimatum_cards_v2' -> 'ultimata/UltimatumCards-v2'."""
    base, version = name.rsplit("_v", 1)
    return f"ultimata/{''.join(word.capitalize() for word in base.split('_'))}-v{version}"


def register_all() -> None:
    """Make every game available as `pettingzoo.make("aec", "ultimata/<game>-v<N>")` where PettingZoo has a
    registry (1.27 on; 1.25 and 1.26 have none, and there the games are made with `make` alone), and its
    single-agent view as `gymnasium.make("ultimata/<Game>-v<N>", opponents=[...], **rules)`."""
    for name in GAMES:
        if gymnasium_id(name) not in gymnasium.registry:
            gymnasium.register(gymnasium_id(name), entry_point="ultimata.training.single_agent:single_agent",
                               kwargs={"game": name})
    if not hasattr(pettingzoo, "register"):
        return
    for name, module in GAMES.items():
        if pettingzoo_id(name) not in pettingzoo.aec_registry:
            pettingzoo.register("aec", pettingzoo_id(name), entry_point=f"{module}:env")


def game_base_name(game_name: str) -> str:
    """'ultimatum_cards_v2' -> 'ultimatum_cards': scripted bots and configs are per game, not per version."""
    base, sep, version = game_name.rpartition("_v")
    return base if sep and version.isdigit() else game_name


def env_name(base: str) -> str:
    """The registered env of a game by its name without version: 'ultra_war' -> 'ultra_war_v4'. Code
    that means "this game, whatever its version" stays valid across version bumps."""
    found = [name for name in GAMES if game_base_name(name) == base]
    if not found:
        raise ConfigError(f"unknown game {base!r}; games: {', '.join(game_base_name(name) for name in GAMES)}")
    return max(found, key=lambda name: int(name.rpartition("_v")[2]))
