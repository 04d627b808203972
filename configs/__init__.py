"""A game's settings, one file per game: configs/<game>.yaml (the game's name without its version) holds
its training config, its difficulty levels (`difficulty`), its `hard` agent spec and its search defaults
(`mcts`). `game_settings` is the one loader; each reader validates its own part (training/config.py,
ultimata/web/difficulty.py, agents/specs.py, agents/mcts.py).

The folders searched are this package's `__path__`, so a game kept outside the repository adds its file by
adding a folder there (as docs/adding_a_game.md's test does).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from ultimata.envs.core.errors import ConfigError

SECTIONS = ("difficulty", "hard", "mcts")
"""The keys of a game's file that are not training settings."""


def settings_file(base: str) -> Path | None:
    """configs/<base>.yaml, in the first folder of this package that has it; None when none does."""
    for folder in __path__:
        path = Path(folder) / f"{base}.yaml"
        if path.is_file():
            return path
    return None


def where(base: str) -> str:
    """How an error names a game's file."""
    return f"configs/{base}.yaml"


def game_text(base: str) -> str | None:
    """The game's file as written (comments and all), or None when the game has none."""
    path = settings_file(base)
    return None if path is None else path.read_text()


def game_settings(base: str) -> dict[str, Any]:
    """The game's file parsed; {} when it has none. ConfigError when it is not a YAML mapping."""
    text = game_text(base)
    return {} if text is None else parse_mapping(text, where(base))


def parse_mapping(text: str, named: str) -> dict[str, Any]:
    """A settings file's YAML, which must be a mapping (empty: {}); ConfigError naming the file otherwise."""
    try:
        data = yaml.safe_load(text) or {}
    except yaml.YAMLError as err:
        raise ConfigError(f"{named} is not valid YAML: {err}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{named} must be a mapping of keys to values")
    return data
