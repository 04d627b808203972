"""Find a game's JSON view (envs/<game>/view.py): each game says what a seat may see and what a
click means; the web layer stays generic."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ultimata.agents.base import game_base_name
from ultimata.envs.core.registry import game_package

if TYPE_CHECKING:
    from ultimata.envs.core.engine import State


def view_module(game_name: str) -> ModuleType:
    return importlib.import_module(f"{game_package(game_name)}.view")


def seat_view(game_name: str, state: State, seat: int | None) -> dict[str, Any]:
    """What `seat` sees (None: a spectator), with `kind` the game's base name: the page draws it with the
    script registered under that name (envs/<name>/view.js), so a game has one name everywhere."""
    return {**view_module(game_name).view(state, seat), "kind": game_base_name(game_name)}
