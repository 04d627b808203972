"""Matches between agents with balanced seats: win rates with 95% intervals, rewards, ratings.

Entries are the agents being compared; with fewer entries than seats the last entry fills the rest
(`pretrained random` in a 4-player game is one trained bot against three random seats). With more
entries than seats, every table of n different entries plays in turn (a round robin), so one run rates
random, heuristic, mcts and pretrained together even in a 2-player game. The seats rotate every game
so each entry holds every seat equally often, and the n rotations of a block share one deal
(duplicate format), which removes most of the luck of the cards from the comparison. A table whose
seats all hold the same spec gains nothing from rotating, and its rotations would repeat one game
move for move when the bot is deterministic: there every game gets its own deal. Games that still
repeat an earlier one are counted and reported, since intervals assume independent games.

An agent that returns an illegal action loses that game alone (the others share the win), the move
is counted against it, and the arena goes on.

This is the part training needs (its periodic evaluation, training/evaluate.py); the arena as a command and a
Python API, agents named by spec, class or factory, is ultimata/arena.py.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ultimata.agents.base import Agent, as_action
from ultimata.envs.core.engine import Game, State
from ultimata.envs.core.errors import ConfigError, IllegalActionError
from ultimata.envs.core.replay import Replay
from ultimata.envs.core.rng import Rng, derived_seed, derived_seeds
from ultimata.training.outcome import forfeit_returns, win_credit
from ultimata.training.ratings import Ratings

AgentFactory = Callable[[], Agent]
_DEAL, _AGENTS, _OWN_DEAL = 0, 1, 2  # keep deals, agents' draws and one-spec tables' deals on separate seeds
COLUMNS = ("agent", "seats", "win rate", "95% CI", "×fair", "reward", "openskill μ±σ", "ordinal")


@dataclass
class EntryResult:
    """One agent's figures over the whole arena."""

    spec: str
    seats_per_game: int
    seat_games: int
    win_rate: float
    ci95: tuple[float, float]
    fair_share: float
    mean_reward: float
    rating: dict[str, float]
    seat_counts: list[int]
    illegal_moves: int = 0
    """Games this agent forfeited by returning an illegal action."""

    @property
    def x_fair(self) -> float:
        return self.win_rate / self.fair_share

    def cells(self, with_illegal: bool = False) -> list[str]:
        """The row the CLI table and the markdown table print, in COLUMNS order."""
        row = [
            self.spec, str(self.seats_per_game), f"{self.win_rate:.1%}", f"{self.ci95[0]:.1%}–{self.ci95[1]:.1%}",
            f"{self.x_fair:.2f}", f"{self.mean_reward:+.3f}", f"{self.rating['mu']:.1f}±{self.rating['sigma']:.1f}",
            f"{self.rating['ordinal']:.1f}",
        ]
        return [*row, str(self.illegal_moves)] if with_illegal else row


@dataclass
class ArenaResult:
    """What an arena measured: per agent win rates with 95% intervals, ×fair share, rewards, openskill."""

    game: str
    games: int
    seed: int
    agents: list[EntryResult]
    replays: list[str] = field(default_factory=list)
    distinct_games: int | None = None
    """Games that differ from every earlier one (None: not counted)."""
    notes: list[str] = field(default_factory=list)
    """What a reader must know to trust the figures: repeated games, illegal moves."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, rounded as the CLI's --json prints it."""
        out = asdict(self)
        for entry, result in zip(out["agents"], self.agents):
            entry["ci95"] = [round(x, 4) for x in result.ci95]
            entry["x_fair_share"] = round(result.x_fair, 3)
            for key in ("win_rate", "mean_reward"):
                entry[key] = round(entry[key], 4)
        return out

    @property
    def title(self) -> str:
        return f"{self.game}: {self.games} games, seats rotated (seed {self.seed})"

    @property
    def caption(self) -> str:
        share = self.agents[0].fair_share if self.agents else 0
        return f"fair share per seat {share:.1%}; a shared win counts 1/k for each of k winners"

    def columns(self) -> list[str]:
        return [*COLUMNS, "illegal moves"] if self.any_illegal else list(COLUMNS)

    def rows(self) -> list[list[str]]:
        return [a.cells(self.any_illegal) for a in self.agents]

    @property
    def any_illegal(self) -> bool:
        return any(a.illegal_moves for a in self.agents)

    def to_markdown(self) -> str:
        """The CLI's table as GitHub markdown, with its caption and notes."""
        columns = self.columns()
        lines = [f"**{self.title}**", "", "| " + " | ".join(columns) + " |",
                 "|" + "|".join(["---"] + ["---:"] * (len(columns) - 1)) + "|"]
        lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in self.rows()]
        lines += ["", self.caption, *(f"- {note}" for note in self.notes)]
        return "\n".join(lines) + "\n"


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


@dataclass
class PlayedGame:
    returns: list[float]
    actions: list[int]
    state: State
    """The position where the game ended (or where an illegal move stopped it)."""
    offender: int | None = None
    """The seat that returned an illegal action and so lost the game; None when play was clean."""
    illegal: str = ""
    """What the offender returned and why it is refused."""


def play_game(
    game: Game, seat_agents: Sequence[Agent], seed: int, agent_seeds: Sequence[int] | None = None,
) -> PlayedGame:
    """One game on the engine. An illegal action ends it at once as a loss for the seat that made it."""
    state = game.new_initial_state(Rng(seed))
    for s, agent in enumerate(seat_agents):
        agent.reset(s, None if agent_seeds is None else agent_seeds[s])
    actions: list[int] = []
    cap = game.config.max_decisions
    while not state.is_terminal() and state.decisions < cap:
        p = state.current_player
        action = as_action(seat_agents[p].act(state.observation(p), state.legal_action_mask(), state))
        try:
            state.apply(action)
        except IllegalActionError as err:  # refused, the state unchanged
            return PlayedGame(forfeit_returns(game.num_players, p), actions, state, p, str(err))
        actions.append(int(action))
    returns = state.returns() if state.is_terminal() else [0.0] * game.num_players
    return PlayedGame(list(returns), actions, state)


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
    illegal = np.zeros(len(entries), dtype=int)
    first_illegal: dict[int, str] = {}
    seen: set[int] = set()
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
        one_spec = len({entries[e][0] for e in base}) == 1
        deal = derived_seed(seed, _OWN_DEAL, g) if one_spec else derived_seed(seed, _DEAL, g // n)
        agent_seeds = derived_seeds(seed, _AGENTS, g, count=n)
        played = play_game(game, seat_agents, deal, agent_seeds)
        returns = played.returns
        wins = win_credit(returns)
        for s, e in enumerate(seat_entry):
            credit[e] += wins[s]
            reward[e] += returns[s]
            seat_games[e] += 1
            seat_counts[e, s] += 1
        if played.offender is not None:
            offender = seat_entry[played.offender]
            illegal[offender] += 1
            first_illegal.setdefault(offender, f"game {g}, seat {played.offender}: {played.illegal}")
        seen.add(hash((tuple(seat_entry), tuple(played.actions), tuple(returns))))  # a game, in 8 bytes
        ratings.update(seat_entry, returns)
        if replay_dir is not None:
            path = Path(replay_dir) / f"game_{g:05d}.json"
            forfeit = played.returns if played.offender is not None else None
            Replay.of_game(played.state, deal, played.actions, [entries[e][0] for e in seat_entry],
                           returns=forfeit).save(path)
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
            illegal_moves=int(illegal[i]),
        )
        for i, (spec, _) in enumerate(entries)
    ]
    notes = [f"{entries[e][0]} returned an illegal action in {illegal[e]} game(s), each lost; first: {why}"
             for e, why in sorted(first_illegal.items())]
    if len(seen) < games:
        notes.append(f"only {len(seen)} of {games} games differ: the others repeated an earlier game move for move "
                     "(deterministic agents whose play the deal does not change), so the 95% intervals, which "
                     "assume independent games, are too narrow")
    return ArenaResult(game=game.name, games=games, seed=seed, agents=results, replays=replays,
                       distinct_games=len(seen), notes=notes)
