"""`single_agent(game, opponents)`: any game as a one-player gymnasium env, for any single-agent library.

The other seats are played inside `step()` by agent specs (our bots, checkpoints, or your own
`package.module:Name`), so SB3, CleanRL-style loops or RLlib see an ordinary `gymnasium.Env`.
It is the self-play env the trainer uses (`training/selfplay_env.py`), with fixed opponents. It lives in
training/ because it plays agents (its imports point down); `ultimata.envs.single_agent` hands it out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium

from ultimata.agents.specs import load_agent
from ultimata.envs.core.errors import ConfigError
from ultimata.envs.core.registry import game_class
from ultimata.training.selfplay_env import SelfPlayEnv

ILLEGAL_REWARD = -1.0
"""An illegal action ends the episode with this reward, as PettingZoo's `env()` ends the game with -1."""


def single_agent(
    game: str, opponents: str | Sequence[str] = ("heuristic",), seat: int | None = None, **rules: Any,
) -> gymnasium.Env:
    """A `gymnasium.Env` of `game` in which you hold one seat and agent specs hold the others.

    - `opponents`: one spec for every other seat, or one spec per other seat in turn order from yours
      (`opponents[0]` moves right after you). Policies among them play their most likely move.
    - `seat`: your seat in every episode; None rotates it episode by episode, so you learn every seat.
    - `**rules`: the rule variant, as for `make`.

    Observations are the flat `Box` of the AEC env's ``"observation"`` entry; actions are `Discrete`.
    `env.action_masks()` gives the legal actions (MaskablePPO reads it). Rewards are the game's
    result for your seat at the end (zero before). An illegal action ends the episode with reward
    -1 and ``info["illegal"]``. `reset()` returns ``info["seat"]``; the last step's info has
    ``"win"`` (your share of the win, 0 to 1) and ``"opponents"`` (the spec of each other seat).
    """
    game_obj = game_class(game).from_config(rules)
    n = game_obj.num_players
    specs = [opponents] if isinstance(opponents, str) else list(opponents)
    if len(specs) not in (1, n - 1) or not all(isinstance(s, str) for s in specs):
        raise ConfigError(f"opponents must be one agent spec or {n - 1} (one per other seat of {game}), got {specs!r}")
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
        raise ConfigError(f"seat must be 0..{n - 1} for {game}, or None to rotate; got {seat!r}")
    config = game_obj.config.model_dump(mode="json")
    for spec in set(specs):
        load_agent(spec, game, config)  # a bad spec fails here, not at the first reset
    seated = specs * (n - 1) if len(specs) == 1 else specs
    learner_seats = None if seat is None else [float(p == seat) for p in range(n)]
    return SelfPlayEnv(game, config, pool_deterministic=True, learner_seats=learner_seats, seated_opponents=seated,
                       illegal_reward=ILLEGAL_REWARD, seed=None)
