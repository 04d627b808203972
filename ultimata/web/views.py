"""Find a game's JSON view (envs/<game>/view.py): each game says what a seat may see and what a
click means; the web layer stays generic."""

from __future__ import annotations

import importlib
from types import ModuleType

from ultimata.agents.base import game_base_name


def view_module(game_name: str) -> ModuleType:
    return importlib.import_module(f"ultimata.envs.{game_base_name(game_name)}.view")
