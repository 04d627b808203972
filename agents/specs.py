"""One resolver from the string specs used everywhere (train pool, arena, play) to agents."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from ultimata.agents.base import Agent
from ultimata.envs.core.errors import CheckpointError, ConfigError
from ultimata.envs.core.registry import game_class

SPEC_FORMS = (
    "'random' (uniform legal moves), 'heuristic' (the game's scripted bot), 'mcts' (search; options as "
    "'mcts:sims=200,rollout=heuristic,depth=30,c=1.4,time=0.2'), 'pretrained' (the bot shipped with "
    "ultimata), or a checkpoint path ending in .zip (with its .json sidecar)"
)


def pretrained_path(game_name: str) -> Path:
    """Where the shipped bot for `game_name` lives inside the installed package."""
    return Path(str(resources.files("ultimata.agents") / "pretrained" / f"{game_name}.zip"))


def load_agent(
    spec: str, game_name: str, config: dict[str, Any] | None = None, *, seed: int | None = None,
    deterministic: bool = True,
) -> Agent:
    """Build the agent named by `spec` for `game_name` under rule `config` (None: the defaults)."""
    from ultimata.agents.policy_agent import PolicyAgent
    from ultimata.agents.random_agent import RandomAgent
    from ultimata.agents.scripted_agent import ScriptedAgent

    spec = spec.strip()
    if spec == "random":
        return RandomAgent(seed)
    if spec in ("heuristic", "scripted"):
        return ScriptedAgent(game_name, seed)
    game = game_class(game_name).from_config(config)
    if spec == "mcts" or spec.startswith("mcts:"):
        from ultimata.agents.mcts import MctsAgent, check_searchable, parse_mcts_spec

        options = parse_mcts_spec(spec)
        check_searchable(game)
        return MctsAgent(game_name, options, seed, spec=spec, config=config)
    if spec == "pretrained":
        path = pretrained_path(game_name)
        if not path.exists():
            raise CheckpointError(f"no pretrained bot ships for {game_name} (looked for {path})")
        return PolicyAgent.from_checkpoint(path, game, deterministic=deterministic, seed=seed, spec="pretrained")
    path = Path(spec).expanduser()
    if path.suffix == ".zip" or path.with_suffix(".zip").exists():
        return PolicyAgent.from_checkpoint(path, game, deterministic=deterministic, seed=seed, spec=spec)
    raise ConfigError(f"unknown agent spec {spec!r}; use {SPEC_FORMS}")
