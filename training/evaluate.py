"""Strength of a policy against fixed opponents, via the arena (seats rotated, deals shared)."""

from __future__ import annotations

from typing import Any

from ultimata.agents.policy_agent import PolicyAgent
from ultimata.agents.specs import load_agent
from ultimata.envs.core.engine import Game
from ultimata.training.arena import ArenaResult, run_arena


def evaluate_policy(
    policy: Any, game: Game, opponents: list[str], games: int, seed: int = 10_000, label: str = "learner",
) -> dict[str, ArenaResult]:
    """One arena per opponent spec: the policy (greedy) in one seat, that opponent in all the others."""
    config = game.config.model_dump(mode="json")
    results = {}
    for k, spec in enumerate(opponents):
        entries = [
            (label, lambda: PolicyAgent(policy, deterministic=True)),
            (spec, lambda spec=spec, k=k: load_agent(spec, game.name, config, seed=seed + k)),
        ]
        results[spec] = run_arena(game, entries, games, seed=seed + 1000 * k)
    return results
