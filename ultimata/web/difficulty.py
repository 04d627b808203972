"""Difficulty levels as data, the `difficulty` key of each game's configs/<game>.yaml: easy / medium / hard,
each the agent spec that plays the bot seats, what to expect of it in a player's words, and the figures
measured. Checked when the server starts, so a bad file is one clear error then, never a failing request
later."""

from __future__ import annotations

from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ultimata import configs
from ultimata.agents.base import game_base_name
from ultimata.envs.core.config import describe_validation_error
from ultimata.envs.core.errors import ConfigError
from ultimata.envs.core.registry import GAMES
from ultimata.web.opponents import BUILTIN


class Level(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    agent: str
    """A built-in spec the browser offers (a checkpoint path is no level: the web takes no paths)."""
    strength: str = Field(min_length=1)
    """What to expect of it, in a few words a board gamer reads next to the level."""
    measured: str = ""
    """The figures behind those words (win rates, games played), shown on demand."""

    @field_validator("agent")
    @classmethod
    def _offered_spec(cls, spec: str) -> str:
        if spec not in BUILTIN:
            raise ValueError(f"must be one of {', '.join(BUILTIN)}")
        return spec


class GameLevels(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    easy: Level
    medium: Level
    hard: Level

    def as_list(self) -> list[dict[str, str]]:
        return [{"level": name, **getattr(self, name).model_dump()} for name in GameLevels.model_fields]


def load_difficulty(text: str | None = None) -> dict[str, GameLevels]:
    """Game base name -> its levels; every registered game must have them. `text`: the levels as one YAML
    mapping of games to levels instead of the games' own files (for checks). ConfigError names the problem."""
    games = sorted({game_base_name(name) for name in GAMES})
    if text is None:
        data: Any = {base: found for base in games
                     if (found := configs.game_settings(base).get("difficulty")) is not None}
    else:
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as err:
            raise ConfigError(f"the difficulty levels are not valid YAML: {err}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"the difficulty levels must map each game ({', '.join(games)}) to its levels easy, "
                          "medium, hard")
    unknown = sorted(set(map(str, data)) - set(games))
    missing = sorted(set(games) - set(map(str, data)))
    if unknown or missing:
        raise ConfigError(f"difficulty levels: unknown games {unknown or 'none'}, games without levels "
                          f"{missing or 'none'} (each game's configs/<game>.yaml has a 'difficulty' key); "
                          f"games: {', '.join(games)}")
    out = {}
    for game, levels in data.items():
        try:
            out[game] = GameLevels.model_validate(levels)
        except ValidationError as err:
            raise ConfigError(describe_validation_error(GameLevels, err, f"{configs.where(game)}, difficulty")) \
                from None
    return out
