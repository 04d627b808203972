"""The contract every array engine keeps, and how `envs.batch(..., backend="array")` finds one.

An `ArrayState` is a dict of tensors, each with the batch first. Every state carries `key` (the row's
game key, `envs.core.array.rng`), `draws` (how many draws the row has made) and `decisions`; the rest is
the game's own. Functions are pure and branch-free over rows: no Python loop over games and no
`.item()` in `legal_mask`, `step` or `observe`, so the same code runs on a CPU and a GPU.

The conversions `from_states` / `to_states` move positions between the two engines. The Python states
`to_states` makes carry a fresh generator (a counter-based key cannot become a PCG64 state): the position
is exact, the dice after it are not the array engine's.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from typing import Any

import torch

from ultimata.envs.core.engine import Game, State
from ultimata.envs.core.errors import ConfigError

ArrayState = dict[str, torch.Tensor]


class ArrayGame(ABC):
    """One rule variant of one game as batch-first tensor functions, built from the Python `Game`."""

    def __init__(self, game: Game, device: torch.device | str = "cpu") -> None:
        self.game = game
        self.device = torch.device(device)
        self.num_players = game.num_players
        self.num_actions = game.num_actions
        self.observation_shape = game.observation_shape
        self.observation_dtype = torch.float32

    @abstractmethod
    def deal(self, keys: torch.Tensor) -> ArrayState:
        """New games, one per key ([B] int64): the deal's chance comes from the keys' counter draws."""

    @abstractmethod
    def current_player(self, state: ArrayState) -> torch.Tensor:
        """The seat each row waits on ([B] int64)."""

    @abstractmethod
    def legal_mask(self, state: ArrayState) -> torch.Tensor:
        """[B, num_actions] bool: exactly the Python engine's `legal_action_mask()` per row."""

    @abstractmethod
    def step(self, state: ArrayState, actions: torch.Tensor,
             chance: torch.Tensor | None = None) -> tuple[ArrayState, torch.Tensor, torch.Tensor]:
        """Apply one legal action per row: `(next state, rewards [B, players] float32, terminal [B] bool)`.
        Rewards are the AEC env's for that move (the result when it ends the game). `chance`, where
        given, forces the move's chance outcomes (the differential test passes the Python engine's own
        draws; each engine documents its layout); otherwise they come from the counter draws. A row
        already terminal is left as it is."""

    @abstractmethod
    def observe(self, state: ArrayState, seats: torch.Tensor) -> torch.Tensor:
        """[B, *observation_shape]: each row as seat `seats[i]` sees it, bit for bit the Python
        engine's `observation(seat)`."""

    @abstractmethod
    def from_states(self, states: list[State]) -> ArrayState:
        """Python engine states, one per row, as one array state (keys and draw counters set to 0)."""

    @abstractmethod
    def to_states(self, state: ArrayState) -> list[State]:
        """Each row back as a Python engine state (with a fresh generator; see the module's note)."""

    @abstractmethod
    def python_step(self, state: State, action: int) -> torch.Tensor:
        """Apply `action` to the Python `state` in place, recording the chance draws its engine makes, and
        return them as one row of the `chance` that `step` takes. This is how the differential test
        plays both engines on the Python engine's own dice and deals."""

    def scripted_actions(self, state: ArrayState, generator: torch.Generator | None = None) -> torch.Tensor:
        """The game's scripted bot for every row's current player ([B] int64), what its Python
        `scripted.choose_action` would choose; an engine that has one overrides this. `generator` breaks the
        ties the Python bot breaks with its own draws."""
        raise ConfigError(f"{self.game.name}'s array engine has no scripted bot; it is available for "
                          f"{', '.join(games_with_scripted_actions()) or 'no game yet'}")

    # -- helpers every engine shares ---------------------------------------------------------
    @staticmethod
    def where(cond: torch.Tensor, new: ArrayState, old: ArrayState) -> ArrayState:
        """Row-wise choice between two states: rows where `cond` holds take `new`."""
        out = {}
        for name, value in old.items():
            c = cond.view(-1, *([1] * (value.dim() - 1)))
            out[name] = torch.where(c, new[name], value)
        return out


def array_game_class(name: str) -> type[ArrayGame]:
    """The array engine of env `name`, found as `ArrayEngine` in `<game package>.array`; ConfigError naming
    the games that have one when this one has none."""
    from ultimata.envs.core.registry import game_package

    package = game_package(name)
    try:
        module = importlib.import_module(f"{package}.array")
    except ModuleNotFoundError as err:
        if err.name is None or not f"{package}.array".startswith(err.name):
            raise
        raise ConfigError(f"{name} has no array engine; backend='array' is available for "
                          f"{', '.join(games_with_array_engines()) or 'no game yet'}. Use backend='python'.") from None
    return module.ArrayEngine


def games_with_array_engines() -> list[str]:
    """Env names whose package has an `array` module."""
    from importlib.util import find_spec

    from ultimata.envs.core.registry import GAMES

    out = []
    for env_name, package in GAMES.items():
        try:
            if find_spec(f"{package}.array") is not None:
                out.append(env_name)
        except ModuleNotFoundError:
            continue
    return out


def has_scripted_actions(engine: type[ArrayGame] | ArrayGame) -> bool:
    """Whether an array engine (class or instance) plays its game's scripted bot on tensors."""
    cls = engine if isinstance(engine, type) else type(engine)
    return cls.scripted_actions is not ArrayGame.scripted_actions


def games_with_scripted_actions() -> list[str]:
    """Env names whose array engine has `scripted_actions`."""
    return [name for name in games_with_array_engines() if has_scripted_actions(array_game_class(name))]


def as_tensor(x: Any, device: torch.device, dtype: torch.dtype = torch.int64) -> torch.Tensor:
    return torch.as_tensor(x, dtype=dtype, device=device)
