"""A game's facts, declared once as data (as OpenSpiel's `GameInfo`/`GameType` do): `Game` derives its
properties from them, so a game's `game.py` holds only what is particular to it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

if TYPE_CHECKING:
    from ultimata.envs.core.config import GameConfig
    from ultimata.envs.core.engine import Game, State
    from ultimata.envs.core.rng import Rng

T = TypeVar("T")
Fact = T | Callable[["Game"], T]
"""A size that is the same in every rule variant (a number), or one that depends on the variant: a named
callable of the `Game`, read once per game after its `__init__` (`operator.attrgetter("layout.size")`)."""


def split_env_name(name: str) -> tuple[str, int] | None:
    """An env name's game and version, the one parser of `_vN`: 'ultimatum_cards_v3' -> ('ultimatum_cards', 2);
    None when the name does not end in _v<number>."""
    base, sep, number = name.rpartition("_v")
    return (base, int(number)) if base and sep and number.isdigit() else None


@dataclass(frozen=True)
class GameInfo:
    """What a rule variant of a game is, for PettingZoo, training, search, the web and the tests."""

    name: str
    """PettingZoo-style name carrying the version, e.g. 'ultimatum_cards_v3'; `Game.version` is its number."""
    title: str
    """What people call the game, for menus and tables."""
    config: type[GameConfig]
    """The rule variant's pydantic model (`Game.config_model`)."""
    state: Callable[[Game, Rng], State]
    """The position class: `Game.new_initial_state(rng)` is `state(game, rng)`."""
    players: Fact[int]
    actions: Fact[int]
    """The size of the `Discrete` action space."""
    observation_size: Fact[int]
    """The length of the flat observation."""
    observation_bounds: Fact[tuple[float, float]] = (-np.inf, np.inf)
    observation_planes: tuple[int, int, int] | None = None
    """(C, H, W) when the flat observation starts with C board planes of H x W (row-major), so a
    convolutional policy can see the board as a board; the entries after them are scalars."""
    observation_dtype: type = np.float32
    renderer: str | None = None
    """The pygame renderer's class name in the game's `render.py`, for games that draw a board (rgb_array,
    and a window for human); imported on first use, as pygame is slow to import. None: text only."""
    perfect_information: bool = False
    """True when every seat sees the whole state (chance aside): search may then plan on a clone."""
    dense_reward: bool = False
    """True when `State.potentials()` gives a shaping reward (`Game.supports_dense_reward`)."""

    @property
    def version(self) -> int:
        """Bumped whenever a rule change alters play (golden playthroughs are regenerated then)."""
        split = split_env_name(self.name)
        if split is None:
            raise ValueError(f"a game's name ends in _v<version>, got {self.name!r}")
        return split[1]

    @property
    def render_modes(self) -> tuple[str, ...]:
        return ("human", "ansi", "rgb_array") if self.renderer else ("human", "ansi")

    @property
    def has_board(self) -> bool:
        """True when the game draws a picture (rgb_array, and a pygame window for human)."""
        return self.renderer is not None


class FromInfo:
    """A class-wide fact of a `Game`, read from its `info` (the field of that name, or `field`): told once,
    on `GameInfo`, and read by the registry, the adapter and the web without making a game."""

    def __init__(self, field: str | None = None) -> None:
        self.field = field

    def __set_name__(self, owner: type, name: str) -> None:
        self.field = self.field or name

    def __get__(self, game: Game | None, cls: type[Game]) -> Any:
        return getattr(cls.info, self.field)


def seats_in_config(game: Game) -> int:
    """The number of players of a game whose rule variant chooses it (`num_players` in its config)."""
    return game.config.num_players


def fact(value: Fact[T], game: Game) -> T:
    """A declared fact's value for `game`."""
    return value(game) if callable(value) else value
