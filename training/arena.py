"""Matches between agents with balanced seats: win rates with 95% intervals, rewards, ratings.

Entries are the agents being compared; with fewer entries than seats the last entry fills the rest
(`pretrained random` in a 4-player game is one trained bot against three random seats). With more
entries than seats, every table of n different entries plays in turn (a round robin), so one run rates
random, heuristic, mcts and pretrained together even in a 2-player game. The seats rotate every game
so each entry holds every seat equally often, and the n rotations of a block share one deal
(duplicate format), which removes most of the luck of the cards from the comparison.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ultimata.agents.base import Agent
from ultimata.agents.specs import load_agent
from ultimata.envs.core.engine import Game, State
from ultimata.envs.core.errors import ConfigError
from ultimata.envs.core.registry import game_class
from ultimata.envs.core.replay import Replay
from ultimata.envs.core.rng import Rng, derived_seed, derived_seeds
from ultimata.training.outcome import win_credit
from ultimata.training.ratings import Ratings

AgentFactory = Callable[[], Agent]
_DEAL, _AGENTS = 0, 1  # keep a game's dice and its agents' draws on separate seeds


@dataclass
class EntryResult:
    spec: str
    seats_per_game: int
    seat_games: int
    win_rate: float
    ci95: tuple[float, float]
    fair_share: float
    mean_reward: float
    rating: dict[str, float]
    seat_counts: list[int]

    @property
    def x_fair(self) -> float:
        return self.win_rate / self.fair_share


@dataclass
class ArenaResult:
    game: str
    games: int
    seed: int
    agents: list[EntryResult]
    replays: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        for entry, result in zip(out["agents"], self.agents):
            entry["ci95"] = [round(x, 4) for x in result.ci95]
            entry["x_fair_share"] = round(result.x_fair, 3)
            for key in ("win_rate", "mean_reward"):
                entry[key] = round(entry[key], 4)
        return out


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval; fractional successes (shared wins) are fine."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def lineup(entries: int, seats: int) -> list[int]:
    """Entry index per seat before rotation; the last entry fills the seats left over."""
    if entries < 1:
        raise ConfigError("the arena needs at least one agent")
    if entries > seats:
        raise ConfigError(f"{entries} agents given but the game has only {seats} seats")
    return list(range(entries)) + [entries - 1] * (seats - entries)


def tables(entries: int, seats: int) -> list[list[int]]:
    """The line-ups to play: one, or with more entries than seats every set of `seats` entries."""
    if entries <= seats:
        return [lineup(entries, seats)]
    return [list(table) for table in itertools.combinations(range(entries), seats)]


def balanced_games(games: int, seats: int, n_tables: int = 1) -> int:
    """Round up to whole rotations at every table so every entry holds every seat equally often."""
    per_table = -(-games // n_tables)
    return -(-per_table // seats) * seats * n_tables


def play_game(
    game: Game, seat_agents: Sequence[Agent], seed: int, agent_seeds: Sequence[int] | None = None,
) -> tuple[list[float], list[int], State]:
    """One game on the engine. Returns (returns per seat, the actions taken, the final state)."""
    state = game.new_initial_state(Rng(seed))
    for s, agent in enumerate(seat_agents):
        agent.reset(s, None if agent_seeds is None else agent_seeds[s])
    actions: list[int] = []
    cap = game.config.max_decisions
    while not state.is_terminal() and state.decisions < cap:
        p = state.current_player
        action = int(seat_agents[p].act(state.observation(p), state.legal_action_mask(), state))
        state.apply(action)
        actions.append(action)
    returns = state.returns() if state.is_terminal() else [0.0] * game.num_players
    return list(returns), actions, state


def run_arena(
    game: Game,
    entries: Sequence[tuple[str, AgentFactory]],
    games: int,
    seed: int = 0,
    replay_dir: str | Path | None = None,
    on_game: Callable[[int], None] | None = None,
) -> ArenaResult:
    """Play `games` (rounded up to whole seat rotations, spread over the tables) and summarise each entry."""
    n = game.num_players
    line_ups = tables(len(entries), n)
    games = balanced_games(games, n, len(line_ups))
    per_table = games // len(line_ups)
    seats_held = [max(table.count(i) for table in line_ups) for i in range(len(entries))]
    seats_of = [[make() for _ in range(seats_held[i])] for i, (_, make) in enumerate(entries)]
    credit = np.zeros(len(entries))
    reward = np.zeros(len(entries))
    seat_games = np.zeros(len(entries), dtype=int)
    seat_counts = np.zeros((len(entries), n), dtype=int)
    ratings = Ratings(len(entries))
    replays: list[str] = []
    for g in range(games):
        base = line_ups[g // per_table]
        seat_entry = [base[(s + g) % n] for s in range(n)]
        used = [0] * len(entries)
        seat_agents = []
        for e in seat_entry:
            seat_agents.append(seats_of[e][used[e]])
            used[e] += 1
        deal = derived_seed(seed, _DEAL, g // n)
        agent_seeds = derived_seeds(seed, _AGENTS, g, count=n)
        returns, actions, final = play_game(game, seat_agents, deal, agent_seeds)
        wins = win_credit(returns)
        for s, e in enumerate(seat_entry):
            credit[e] += wins[s]
            reward[e] += returns[s]
            seat_games[e] += 1
            seat_counts[e, s] += 1
        ratings.update(seat_entry, returns)
        if replay_dir is not None:
            path = Path(replay_dir) / f"game_{g:05d}.json"
            Replay.of_game(final, deal, actions, [entries[e][0] for e in seat_entry]).save(path)
            replays.append(str(path))
        if on_game is not None:
            on_game(g + 1)
    rated = ratings.as_dicts()
    results = [
        EntryResult(
            spec=spec,
            seats_per_game=max(table.count(i) for table in line_ups),
            seat_games=int(seat_games[i]),
            win_rate=float(credit[i] / seat_games[i]),
            ci95=wilson(float(credit[i]), int(seat_games[i])),
            fair_share=1.0 / n,
            mean_reward=float(reward[i] / seat_games[i]),
            rating=rated[i],
            seat_counts=seat_counts[i].tolist(),
        )
        for i, (spec, _) in enumerate(entries)
    ]
    return ArenaResult(game=game.name, games=games, seed=seed, agents=results, replays=replays)


def spec_entries(
    specs: Sequence[str], game_name: str, rules: dict[str, Any] | None = None, seed: int = 0,
    deterministic: bool = True,
) -> tuple[Game, list[tuple[str, AgentFactory]]]:
    """Resolve every spec up front, so a bad spec fails before any game is played."""
    game = game_class(game_name).from_config(rules)
    config = game.config.model_dump(mode="json")
    entries: list[tuple[str, AgentFactory]] = []
    for i, spec in enumerate(specs):
        load_agent(spec, game_name, config, deterministic=deterministic)  # validate now

        def make(spec: str = spec, i: int = i) -> Agent:
            return load_agent(spec, game_name, config, seed=seed + i, deterministic=deterministic)

        entries.append((spec, make))
    return game, entries
