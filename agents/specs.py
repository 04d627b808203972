"""One resolver from the string specs used everywhere (train pool, arena, play) to agents."""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ultimata.agents.base import Agent, game_base_name
from ultimata.agents.custom import is_custom_spec, load_custom_agent
from ultimata.envs.core.errors import CheckpointError, ConfigError, UltimataError
from ultimata.envs.core.registry import GAMES, game_class

SPEC_FORMS = (
    "'random' (uniform legal moves), 'heuristic' (the game's scripted bot), 'mcts' (search; options as "
    "'mcts:sims=200,rollout=heuristic,depth=30,c=1.4,time=0.2'), 'pretrained' (the bot shipped with "
    "ultimata), 'hard' (the game's strongest setting, from configs/<game>.yaml), a checkpoint path ending in "
    ".zip (with its .json sidecar), or your own agent as 'package.module:Name' or 'path/to/file.py:Name' "
    "(options as 'package.module:Name:depth=3,greedy=true')"
)
HARD = "hard"


def pretrained_path(game_name: str) -> Path:
    """Where the shipped bot for `game_name` lives inside the installed package: under the game's base
    name, so a version bump that keeps the bot edits its sidecar's `also_fits`, never the file's name."""
    return Path(str(resources.files("ultimata.agents") / "pretrained" / f"{game_base_name(game_name)}.zip"))


def shipped_bot(game_name: str) -> Path:
    """The shipped bot's checkpoint for `game_name`, if its sidecar names this version: the one it was
    trained for, or one listed in `also_fits`."""
    from ultimata.agents.checkpoint import read_meta

    path = pretrained_path(game_name)
    if not path.exists():
        raise CheckpointError(f"no pretrained bot ships for {game_name} (looked for {path})")
    meta = read_meta(path)
    plays = [meta.game, *meta.also_fits]
    if game_name not in plays:
        raise CheckpointError(f"the shipped bot {path.name} plays {', '.join(plays)}, not {game_name}: retrain it, or "
                              f"if {game_name} changed nothing it reads, list it in also_fits in {path.stem}.json")
    return path


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
    if spec == HARD:
        return _load_hard(game_name, config, seed, deterministic)
    if spec == "mcts" or spec.startswith("mcts:"):
        from ultimata.agents.mcts import MctsAgent, check_searchable, parse_mcts_spec

        options = parse_mcts_spec(spec)
        check_searchable(game)
        return MctsAgent(game_name, options, seed, spec=spec, config=config)
    if spec == "pretrained":
        path = shipped_bot(game_name)
        return PolicyAgent.from_checkpoint(path, game, deterministic=deterministic, seed=seed, spec="pretrained")
    path = Path(spec).expanduser()
    if path.suffix == ".zip" or path.with_suffix(".zip").exists():
        return PolicyAgent.from_checkpoint(path, game, deterministic=deterministic, seed=seed, spec=spec)
    if is_custom_spec(spec):
        return load_custom_agent(spec, game_name, game.config.model_dump(mode="json"), seed)
    raise ConfigError(f"unknown agent spec {spec!r}; use {SPEC_FORMS}")


@cache
def hard_specs() -> dict[str, str]:
    """Game base name -> the spec `hard` stands for there (the `hard` key of configs/<game>.yaml)."""
    from ultimata import configs

    bases = sorted({game_base_name(name) for name in GAMES})
    settings = {base: configs.game_settings(base) for base in bases}
    found = {base: data["hard"] for base, data in settings.items() if "hard" in data}
    for base, spec in found.items():
        check_hard_spec(spec, f"{configs.where(base)}, hard")
    return {base: spec.strip() for base, spec in found.items()}


def check_hard_spec(spec: Any, where: str) -> None:
    """A game's `hard` is an agent spec other than 'hard' itself; a ConfigError says what it may be."""
    if not isinstance(spec, str) or not spec.strip() or spec.strip() == HARD:
        raise ConfigError(f"{where}: {spec!r} is not an agent spec other than 'hard'; give one, e.g. "
                          "mcts:guide=pretrained,time=0.4")


def _load_hard(game_name: str, config: dict[str, Any] | None, seed: int | None, deterministic: bool) -> Agent:
    base = game_base_name(game_name)
    specs = hard_specs()
    if base not in specs:
        raise ConfigError(f"no 'hard' agent for {game_name}: configs/{base}.yaml has no 'hard' key "
                          f"(the games that have one: {', '.join(specs) or 'none'})")
    try:
        return load_agent(specs[base], game_name, config, seed=seed, deterministic=deterministic)
    except UltimataError as err:
        raise type(err)(f"'hard' for {game_name} is {specs[base]!r} (configs/{base}.yaml), which fails: "
                        f"{err}") from None
