"""The arena as a Python API: `from ultimata import arena; result = arena.run(game, agents, games=400)`.

`run` plays as `ultimata arena` does (seats rotated, duplicate deals, openskill) and returns an
`ArenaResult` with the figures the CLI prints, `to_dict()` and `to_markdown()`. Here the agents are named
(a spec string, or from Python a class or factory) and resolved; the games are played by training/arena.py,
which the trainer's periodic evaluation uses too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ultimata.agents.base import Agent
from ultimata.agents.custom import check_agent
from ultimata.agents.specs import load_agent
from ultimata.envs.core.engine import Game
from ultimata.envs.core.errors import ConfigError
from ultimata.envs.core.registry import game_class
from ultimata.training.arena import AgentFactory, ArenaResult, EntryResult, balanced_games, run_arena, tables

ArenaAgent = str | AgentFactory | tuple[str, AgentFactory]
"""A spec, or from Python a class or factory making a fresh agent, or a (name, class or factory) pair."""

__all__ = ["ArenaAgent", "ArenaResult", "EntryResult", "run", "spec_entries"]


def spec_entries(
    specs: Sequence[ArenaAgent], game_name: str, rules: dict[str, Any] | None = None, seed: int = 0,
    deterministic: bool = True,
) -> tuple[Game, list[tuple[str, AgentFactory]]]:
    """Resolve every agent up front, so a bad one fails before any game is played. An agent is a spec
    string, or (from Python) a class or factory that makes a fresh agent when called without arguments,
    or a (name, class or factory) pair to show it under that name."""
    game = game_class(game_name).from_config(rules)
    config = game.config.model_dump(mode="json")
    entries: list[tuple[str, AgentFactory]] = []
    for i, spec in enumerate(specs):
        if not isinstance(spec, str):
            label, make = spec if isinstance(spec, tuple) and len(spec) == 2 else (_label(spec), spec)
            if not callable(make):
                raise ConfigError(f"arena agent {label} is neither a spec string nor a class or factory to call")
            check_agent(make(), f"arena agent {label}")
            entries.append((str(label), make))
            continue
        # loaded now, so a bad spec fails before any game; the first seat then plays this very agent,
        # so a checkpoint (torch's import and a policy's load) is not read a second time
        checked = [load_agent(spec, game_name, config, seed=seed + i, deterministic=deterministic)]

        def make(spec: str = spec, i: int = i, checked: list[Agent] = checked) -> Agent:
            if checked:
                return checked.pop()
            return load_agent(spec, game_name, config, seed=seed + i, deterministic=deterministic)

        entries.append((spec, make))
    return game, entries


def _label(factory: Any) -> str:
    return f"{getattr(factory, '__module__', '?')}:{getattr(factory, '__qualname__', type(factory).__name__)}"


def run(
    game: str,
    agents: Sequence[ArenaAgent],
    games: int = 400,
    seed: int = 0,
    *,
    rules: dict[str, Any] | None = None,
    replays: str | Path | None = None,
    deterministic: bool = True,
    on_game: Callable[[int, int], None] | None = None,
) -> ArenaResult:
    """The arena as one call, as `ultimata arena` runs it.

    `agents` are specs, classes or factories, or (name, class or factory) pairs; `games` is rounded up
    to whole seat rotations; `rules` is the rule variant; `replays` a folder to save every game in;
    `deterministic=False` lets policies sample; `on_game(played, total)` reports progress."""
    if games < 1:
        raise ConfigError(f"games must be at least 1, got {games}")
    game_obj, entries = spec_entries(agents, game, rules, seed, deterministic=deterministic)
    total = balanced_games(games, game_obj.num_players, len(tables(len(entries), game_obj.num_players)))
    report = None if on_game is None else (lambda played: on_game(played, total))
    return run_arena(game_obj, entries, games, seed, replays, on_game=report)
