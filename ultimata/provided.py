"""What a higher floor makes and `ultimata.envs` hands out by name, so that no module of the envs names a
floor above it. The single-agent view (`envs.single_agent`, and each game's gymnasium id) plays agents, so
it lives in training/; the package root (ultimata/__init__.py), which sits above every floor, says where.
Each is imported on first use: importing the envs imports no agent and no training.

This table is on the bottom floor, beside the envs, and imports nothing of the project: the root fills it
without importing the envs (so `ultimata --help` loads no game), and the envs read it."""

from __future__ import annotations

import importlib
from typing import Any

_WHERE: dict[str, str] = {}
"""A handed-out name -> 'package.module:attribute' of the object it stands for."""


def provide(name: str, where: str) -> None:
    """Hand out `where` ('package.module:attribute') as `ultimata.envs.<name>`."""
    _WHERE[name] = where


def is_provided(name: str) -> bool:
    return name in _WHERE


def provided(name: str) -> Any:
    """The object handed out as `name`, imported now."""
    module, _, attribute = _WHERE[name].partition(":")
    return getattr(importlib.import_module(module), attribute)
