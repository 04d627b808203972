"""Speed of random masked play, as ratios against PettingZoo's connect_four_v3 measured in the same run."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from ultimata.envs.core.registry import GAMES, game_class, make, make_raw
from ultimata.envs.core.rng import Rng


@dataclass
class BenchResult:
    env: str
    aec_steps_per_s: float
    engine_decisions_per_s: float | None
    raw_steps_per_s: float
    aec_ratio: float = 1.0
    raw_ratio: float = 1.0
    game_lengths: list[int] | None = None
    """Decisions per random game, for a sample of games (games must end under random play)."""
    mcts_seconds: float | None = None
    """Seconds per decision of the `mcts` agent at its default budget (with --mcts)."""

    def length_summary(self) -> str:
        if not self.game_lengths:
            return ""
        lengths = np.asarray(self.game_lengths)
        return f"{np.median(lengths):,.0f} ({lengths.min():,}-{lengths.max():,})"

    def as_dict(self) -> dict[str, Any]:
        return {
            "env": self.env,
            "aec_steps_per_s": round(self.aec_steps_per_s),
            "engine_decisions_per_s": self.engine_decisions_per_s and round(self.engine_decisions_per_s),
            "aec_ratio_vs_connect_four": round(self.aec_ratio, 2),
            "raw_steps_per_s": round(self.raw_steps_per_s),
            "raw_ratio_vs_connect_four": round(self.raw_ratio, 2),
            "random_game_decisions": self.game_lengths,
            "mcts_seconds_per_decision": self.mcts_seconds and round(self.mcts_seconds, 3),
        }


def aec_steps_per_second(env: Any, steps: int, seed: int = 0) -> float:
    """Random masked play through the full AEC API (last, step), resetting at episode ends."""
    pick = random.Random(seed)
    env.reset(seed=seed)
    episode = 0
    start = time.perf_counter()
    for _ in range(steps):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            if not env.agents or all(env.terminations.get(a) or env.truncations.get(a) for a in env.agents):
                episode += 1
                env.reset(seed=seed + episode)
                continue
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[pick.randrange(len(legal))]))
    return steps / (time.perf_counter() - start)


def engine_decisions_per_second(name: str, decisions: int, seed: int = 0) -> float:
    """Random play on the rules engine alone: legal_action_mask + apply, no PettingZoo."""
    game = game_class(name).from_config({})
    pick = random.Random(seed)
    state = game.new_initial_state(Rng(seed))
    episode = 0
    start = time.perf_counter()
    for _ in range(decisions):
        if state.is_terminal():
            episode += 1
            state = game.new_initial_state(Rng(seed + episode))
        legal = state.legal_actions()
        state.apply(legal[pick.randrange(len(legal))])
    return decisions / (time.perf_counter() - start)


def random_game_lengths(name: str, games: int = 20, seed: int = 0) -> list[int]:
    """Decisions until a random game ends (its turn cap included), default rules."""
    game = game_class(name).from_config({})
    pick = random.Random(seed)
    lengths = []
    for g in range(games):
        state = game.new_initial_state(Rng(seed + g))
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[pick.randrange(len(legal))])
        lengths.append(state.decisions)
    return lengths


def mcts_seconds_per_decision(name: str, decisions: int = 20, seed: int = 0) -> float | None:
    """The `mcts` spec's default budget, timed on states from a random game; None if it cannot play."""
    from ultimata.agents.specs import load_agent
    from ultimata.envs.core.errors import ConfigError

    try:
        agent = load_agent("mcts", name, seed=seed)
    except ConfigError:
        return None
    game = game_class(name).from_config({})
    pick = random.Random(seed)
    state, spent, timed = game.new_initial_state(Rng(seed)), 0.0, 0
    while timed < decisions:
        if state.is_terminal():
            state = game.new_initial_state(Rng(seed + timed + 1))
        mask = state.legal_action_mask()
        if mask.sum() > 1:
            start = time.perf_counter()
            agent.act(state.observation(state.current_player), mask, state)
            spent += time.perf_counter() - start
            timed += 1
        legal = state.legal_actions()
        state.apply(legal[pick.randrange(len(legal))])
    return spent / decisions


def run(steps: int = 20_000, names: list[str] | None = None, mcts: bool = False) -> list[BenchResult]:
    from pettingzoo.classic import connect_four_v3

    baseline = aec_steps_per_second(connect_four_v3.env(), steps)
    raw_baseline = aec_steps_per_second(connect_four_v3.raw_env(), steps)
    results = [BenchResult("connect_four_v3 (baseline)", baseline, None, raw_baseline)]
    for name in names or list(GAMES):
        aec = aec_steps_per_second(make(name), steps)
        raw = aec_steps_per_second(make_raw(name), steps)
        engine = engine_decisions_per_second(name, steps)
        results.append(BenchResult(name, aec, engine, raw, aec / baseline, raw / raw_baseline,
                                   random_game_lengths(name), mcts_seconds_per_decision(name) if mcts else None))
    return results
