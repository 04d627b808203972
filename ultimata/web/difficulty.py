"""Difficulty levels as data (configs/difficulty.yaml): per game, easy / medium / hard, each the agent spec
that plays the bot seats, what to expect of it in a player's words, and the figures measured. A game that
is not in that file keeps its levels in its own package (envs/<game>/difficulty.yaml, the same entry
without the game's name), so adding a game edits no shared file. Checked when the server starts, so a bad
file is one clear error then, never a failing request later."""

from __future__ import annotations

from importlib import resources
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ultimata.agents.base import game_base_name
from ultimata.envs.core.config import describe_validation_error
from ultimata.envs.core.errors import ConfigError
from ultimata.envs.core.registry import GAMES, game_package
from ultimata.web.opponents import BUILTIN

WHERE = "configs/difficulty.yaml"


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


def load_difficulty(text: str | None = None, where: str = WHERE) -> dict[str, GameLevels]:
    """Game base name -> its levels; every registered game must have them. ConfigError names the problem."""
    if text is None:
        text = (resources.files("ultimata.configs") / "difficulty.yaml").read_text()
    try:
        data: Any = yaml.safe_load(text)
    except yaml.YAMLError as err:
        raise ConfigError(f"{where} is not valid YAML: {err}") from None
    games = sorted({game_base_name(name) for name in GAMES})
    if not isinstance(data, dict):
        raise ConfigError(f"{where} must map each game ({', '.join(games)}) to its levels easy, medium, hard")
    own = _own_levels(set(games) - set(map(str, data)))
    data = {**own, **data}
    unknown = sorted(set(map(str, data)) - set(games))
    missing = sorted(set(games) - set(map(str, data)))
    if unknown or missing:
        raise ConfigError(f"{where}: unknown games {unknown or 'none'}, games without levels {missing or 'none'} "
                          f"(here or in envs/<game>/difficulty.yaml); games: {', '.join(games)}")
    out = {}
    for game, levels in data.items():
        try:
            out[game] = GameLevels.model_validate(levels)
        except ValidationError as err:
            place = f"envs/{game}/difficulty.yaml" if game in own else f"{where}, {game}"
            raise ConfigError(describe_validation_error(GameLevels, err, place)) from None
    return out


def _own_levels(games: set[str]) -> dict[str, Any]:
    """The levels of `games` kept in their own packages (envs/<game>/difficulty.yaml), where they have them."""
    found = {}
    for name in GAMES:
        base = game_base_name(name)
        path = resources.files(game_package(name)) / "difficulty.yaml"
        if base in games and path.is_file():
            try:
                found[base] = yaml.safe_load(path.read_text())
            except yaml.YAMLError as err:
                raise ConfigError(f"envs/{base}/difficulty.yaml is not valid YAML: {err}") from None
    return found
