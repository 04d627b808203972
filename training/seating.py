"""Who sits where in self-play, in one place: the trainer's sampler, the single-agent view and RLlib's
league env all seat their games here.

`Tables` runs N games on a `BatchEnv`. In every game some seats are *outside* seats, played by the
caller (the learning policy, or the seats RLlib plays) and the others are played here by agents drawn
from an `OpponentPool`. This module:

- deals seats: each new game gets its designated outside seat (in turn, or drawn with the configured
  weights) and draws every other seat from the pool (`mirror` makes a seat an outside seat too);
- makes each seat's agent once per game slot and kind, and resets it with a fresh seed every game;
- batches the network opponents: every row waiting on the same snapshot or checkpoint is answered by
  one forward pass;
- re-deals: a finished game restarts by itself (BatchEnv), and a game the pool's agents finish before
  any outside seat decided simply never shows up;
- cuts long games at the rule config's `max_decisions` (BatchEnv).

Randomness is per game slot (its id): the deal comes from the BatchEnv's seeds, the seating and the
agents' seeds from a generator seeded by (seed, id), so a game plays the same alone or among others.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ultimata.agents.base import Agent, as_action
from ultimata.agents.policy_agent import PolicyAgent, action_logits
from ultimata.envs.batch import BatchEnv
from ultimata.envs.core.engine import Game, State
from ultimata.envs.core.errors import CheckpointError, ConfigError, IllegalActionError
from ultimata.training.pool import MIRROR, OpponentPool

OUTSIDE = "learner"
"""The label of a seat the caller plays."""


def sample_masked(logits: np.ndarray, masks: np.ndarray, uniforms: np.ndarray,
                  greedy: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """One action per row from softmax(logits) over the legal entries, by inverting the CDF at the given
    uniforms (so each row's draw comes from its own game's generator), and its log-probability."""
    z = np.where(masks > 0, logits.astype(np.float64), -np.inf)
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    total = p.sum(axis=1, keepdims=True)
    if greedy:
        actions = z.argmax(axis=1)
    else:
        cdf = np.cumsum(p, axis=1)
        actions = (cdf < uniforms[:, None] * total).sum(axis=1)
        # float round-off at the top of the cdf could point past the last legal entry
        last_legal = masks.shape[1] - 1 - np.argmax(masks[:, ::-1] > 0, axis=1)
        actions = np.minimum(actions, last_legal)
        bad = masks[np.arange(len(actions)), actions] == 0
        if bad.any():  # a zero-probability legal entry or a masked one at a cdf plateau: move to the next legal
            for row in np.flatnonzero(bad):
                legal = np.flatnonzero(masks[row])
                actions[row] = legal[np.searchsorted(legal, actions[row]) % len(legal)]
    log_probs = z[np.arange(len(actions)), actions] - np.log(total[:, 0])
    return actions.astype(np.int64), log_probs


def check_seat_weights(weights: Sequence[float] | None, game: Game) -> np.ndarray | None:
    """Seat weights (`learner_seats`) as probabilities, or None for "every seat in turn"; ConfigError
    when malformed."""
    if weights is None:
        return None
    players = game.num_players
    if len(weights) != players or min(weights) < 0 or sum(weights) <= 0:
        raise ConfigError(f"learner_seats gives {list(weights)}; {game.name} needs {players} non-negative weights "
                          "with a positive sum, one per seat")
    return np.asarray(weights, float) / sum(weights)


@dataclass
class Seating:
    """One game's seats: the label of each (OUTSIDE or a pool label) and the agents playing the inside ones."""

    labels: list[str]
    designated: int
    """The caller's own seat in this game (the learner's seat, or RLlib's `main`)."""
    agents: dict[int, Agent] = field(default_factory=dict)

    def outside(self, seat: int) -> bool:
        return self.labels[seat] == OUTSIDE

    def opponents(self) -> dict[int, str]:
        return {p: label for p, label in enumerate(self.labels) if label != OUTSIDE}


@dataclass
class Ended:
    """A game that ended on the last tick."""

    row: int
    state: State
    seating: Seating
    last_mover: int
    truncated: bool


class Tables:
    """N self-play games whose inside seats are played here; the caller plays the outside ones."""

    def __init__(self, game: Game, num_games: int, pool: OpponentPool, *, seed: int = 0,
                 designated_seats: Sequence[float] | None = None, ids: Sequence[int] | None = None) -> None:
        self.game, self.pool, self.seed = game, pool, seed
        self.players = game.num_players
        self.seat_weights = check_seat_weights(designated_seats, game)
        """Chance of each seat being the designated outside seat; None: every seat in turn."""
        self.env = BatchEnv(game, num_games, seed=seed, ids=ids)
        self.rngs = [np.random.default_rng([seed, i, 7]) for i in self.env.ids]
        self.seatings: list[Seating] = []
        self._made: list[dict[tuple[int, str], Agent]] = [{} for _ in range(num_games)]
        self._networks: dict[str, tuple[Any, bool] | None] = {}
        """Labels that are network policies: (policy, greedy), loaded once and answered in batches; None
        for the other labels."""
        self.decisions = 0
        """Every decision played, by any seat."""
        self.rewards = np.zeros((num_games, self.players))
        """What each seat of each row earned on the last tick (BatchEnv's rewards)."""

    @property
    def num_games(self) -> int:
        return self.env.num_games

    @property
    def states(self) -> list[State]:
        return self.env.states

    # -- seating -----------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """Deal every row a new game (from game 1 of `seed` when given) and seat it."""
        if seed is not None:
            self.seed = seed
            self.rngs = [np.random.default_rng([seed, i, 7]) for i in self.env.ids]
        self.env.reset(seed)
        self.seatings = [self._seat(row) for row in range(self.num_games)]

    def redeal(self, row: int) -> None:
        """Abandon the row's game: deal and seat its next one."""
        self.env.redeal([row])
        self.seatings[row] = self._seat(row)

    def _seat(self, row: int) -> Seating:
        rng, n = self.rngs[row], self.players
        if self.seat_weights is None:
            designated = (self.env.ids[row] + int(self.env.episodes[row])) % n
        else:
            designated = int(rng.choice(n, p=self.seat_weights))
        seating = Seating([], designated)
        for p in range(n):
            label = OUTSIDE if p == designated else self._draw((p - designated) % n, rng)
            seating.labels.append(label)
            agent_seed, reset_seed = int(rng.integers(2**31)), int(rng.integers(2**31))
            if label != OUTSIDE and not self._is_network(label):
                agent = self._made[row].get((p, label))
                if agent is None:
                    agent = self._made[row][p, label] = self.pool.make_agent(label, seed=agent_seed)
                agent.reset(p, reset_seed)
                seating.agents[p] = agent
        return seating

    def _draw(self, offset: int, rng: np.random.Generator) -> str:
        """The label of the seat `offset` seats after the designated one, its kind resolved. A pool snapshot
        that no longer loads is dropped, with a warning, and the seat drawn again: a run must not stop
        because an old checkpoint file went bad."""
        while True:
            label = self.pool.label_for(offset, rng)
            if label == MIRROR:
                return OUTSIDE
            try:
                self._is_network(label)
                return label
            except CheckpointError as err:
                if label not in self.pool.snapshots:
                    raise
                self.pool.drop_snapshot(label)
                warnings.warn(f"pool snapshot {Path(label).name} no longer loads and leaves the pool: {err}",
                              stacklevel=2)

    def _is_network(self, label: str) -> bool:
        if label not in self._networks:  # resolved once per label, whatever it turns out to be
            agent = self.pool.make_agent(label, seed=0)
            self._networks[label] = (agent.policy, agent.deterministic) if isinstance(agent, PolicyAgent) else None
        return self._networks[label] is not None

    # -- play --------------------------------------------------------------------------------
    def waiting(self) -> np.ndarray:
        """The rows whose waiting seat is an outside seat (the caller answers them next tick)."""
        return np.fromiter((row for row, (state, seating) in enumerate(zip(self.states, self.seatings))
                            if seating.outside(state.current_player)), np.int64)

    def tick(self, outside_actions: dict[int, int] | None = None) -> list[Ended]:
        """Every game makes its waiting decision: the caller's for the rows in `waiting()` (all of them
        must be answered), the inside seats' agents for the rest. Returns the games that ended; their rows
        already hold the next game, seated."""
        outside_actions = outside_actions or {}
        groups: dict[str, list[int]] = {}
        actions = np.empty(self.num_games, np.int64)
        movers = self.env.seats()
        for row, (seat, seating) in enumerate(zip(movers.tolist(), self.seatings)):
            label = seating.labels[seat]
            if label == OUTSIDE:
                action = as_action(outside_actions.get(row))
                if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
                    raise IllegalActionError(f"row {row} waits on seat {seat}, which is yours: it needs an integer "
                                             f"action, got {action!r}")
                actions[row] = action
            else:
                groups.setdefault(label, []).append(row)
        for label, rows in groups.items():
            if self._networks.get(label) is not None:
                actions[rows] = self._network_moves(label, rows)
            else:
                for row in rows:
                    actions[row] = self._agent_move(row, int(movers[row]))
        self.rewards, done, info = self.env.apply(actions)
        self.decisions += self.num_games
        ended = []
        for row in np.flatnonzero(done).tolist():
            ended.append(Ended(row, info["final_state"][row], self.seatings[row], int(movers[row]),
                               bool(info["truncated"][row])))
            self.seatings[row] = self._seat(row)
        return ended

    def _agent_move(self, row: int, seat: int) -> int:
        state, seating = self.states[row], self.seatings[row]
        agent = seating.agents[seat]
        obs = state.observation(seat) if getattr(agent, "reads_observation", True) else None
        action = as_action(agent.act(obs, state.legal_action_mask(), state))
        mask = state.legal_action_mask()
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)) \
                or not 0 <= action < len(mask) or not mask[action]:
            raise IllegalActionError(f"opponent {seating.labels[seat]!r} at seat {seat}: "
                                     f"{state._illegal_message(action)}")
        return int(action)

    def _network_moves(self, label: str, rows: list[int]) -> np.ndarray:
        policy, greedy = self._networks[label]
        obs, masks, _ = self.env.observe(rows)
        logits = action_logits(policy, obs)
        uniforms = np.array([self.rngs[row].random() for row in rows])
        actions, _ = sample_masked(logits, masks, uniforms, greedy=greedy)
        return actions
