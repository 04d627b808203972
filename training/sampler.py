"""The batched self-play sampler: many games in one process, one forward pass per policy per tick.

The games and their seating are `training/seating.py`'s `Tables`: every tick, the learning policy answers
all the decisions of its own seats in one forward pass, and the tables play the rest (each network
opponent in one pass, scripted and other agents one by one). Each seat the learning policy plays, the
designated learner seat or a "mirror" seat drawn from the pool, is a trajectory of its own: its
decisions are the samples, its reward is the change of its own potential between its decisions (when
shaping) plus its own final return, credited even when another seat's move ends the game (PettingZoo
issue #1147). Samples of seats the learner did not play never enter a rollout.

Randomness is per game slot: the deal, the seat assignment, the opponents drawn and every sampled
action come from generators seeded by (seed, slot), so a game plays the same alone or among others.

A rollout holds every transition whose successor is known: GAE runs backward over each trajectory's
new transitions, bootstrapped with the value at the seat's next decision (truncated at the rollout's
end, as CleanRL's PPO does). The one decision per live trajectory whose successor has not come yet
waits for the next rollout, with the log-probability of the policy that chose it (PPO's ratio then
starts from that policy, which its clipping allows for).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from ultimata.agents.policy import logits_and_values
from ultimata.envs.core.engine import Game, State
from ultimata.training.outcome import win_credit
from ultimata.training.pool import OpponentPool
from ultimata.training.seating import Ended, Tables, sample_masked

__all__ = ["BatchedSampler", "EpisodeStats", "Rollout", "policy_outputs", "sample_masked"]


def policy_outputs(policy: Any, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Logits and values of SB3's actor-critic policy for a batch of observations, in one pass, wherever the
    policy's weights are."""
    with torch.no_grad():
        logits, values = logits_and_values(policy, torch.as_tensor(obs, device=policy.device))
        return logits.float().cpu().numpy(), values.float().cpu().numpy()


@dataclass
class Transition:
    """One decision of a learner seat. `reward` is what came between it and the seat's next decision;
    `next_value` is the value there (0 after the end)."""

    obs: np.ndarray
    mask: np.ndarray
    action: int
    value: float
    log_prob: float
    reward: float = 0.0
    done: bool = False
    next_value: float = 0.0


@dataclass
class Trajectory:
    """A learner seat of one game: its transitions since the last rollout and the one still open."""

    slot: int
    seat: int
    closed: list[Transition] = field(default_factory=list)
    open: Transition | None = None
    potential: float = 0.0
    total_reward: float = 0.0
    decisions: int = 0


@dataclass
class Rollout:
    """Flat arrays of finished transitions, ready for PPO."""

    obs: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    values: np.ndarray
    log_probs: np.ndarray
    advantages: np.ndarray
    returns: np.ndarray
    rewards: np.ndarray
    episode_starts: np.ndarray

    def __len__(self) -> int:
        return len(self.actions)

    def take(self, rows: slice) -> Rollout:
        return Rollout(*(getattr(self, f)[rows] for f in self.__dataclass_fields__))

    @staticmethod
    def concat(parts: list[Rollout]) -> Rollout:
        return Rollout(*(np.concatenate([getattr(r, f) for r in parts]) for f in Rollout.__dataclass_fields__))


@dataclass
class EpisodeStats:
    """A finished episode of one learner seat, for logs."""

    seat: int
    reward: float
    """The seat's rewards summed (its final result, plus shaping when on)."""
    decisions: int
    win: float
    opponents: dict[int, str]
    result: float
    """The seat's own final return (0 when the game was cut at max_decisions)."""
    last_mover: int
    """The seat whose move ended the game: often not this one (PettingZoo issue #1147)."""


class BatchedSampler:
    """Plays `games` self-play games at once for `policy`, against opponents drawn from `pool`."""

    def __init__(
        self, game: Game, policy: Any, pool: OpponentPool, games: int = 64, *, seed: int = 0,
        shaping: float = 0.0, learner_seats: Sequence[float] | None = None, gamma: float = 0.995,
        gae_lambda: float = 0.95, slots: Sequence[int] | None = None,
    ) -> None:
        self.game, self.policy, self.pool = game, policy, pool
        self.shaping = float(shaping)
        self.gamma, self.gae_lambda = gamma, gae_lambda
        indices = list(slots) if slots is not None else list(range(games))
        self.tables = Tables(game, len(indices), pool, seed=seed, designated_seats=learner_seats, ids=indices)
        self.tables.reset()
        self.trajectories = [self._seats_of(row) for row in range(len(indices))]
        """The learner's trajectories of each row's current game, by seat."""
        self.finished: list[Trajectory] = []
        """Trajectories whose game ended since the last rollout (their transitions still to collect)."""
        self.episodes: list[EpisodeStats] = []
        self._leftover: Rollout | None = None
        self._closed = 0
        """Transitions whose successor is known, not yet in a rollout."""

    @property
    def decisions(self) -> int:
        """Every decision played, by any seat (the learner's are the samples)."""
        return self.tables.decisions

    # -- one tick ----------------------------------------------------------------------------
    def tick(self) -> int:
        """Every game makes its waiting decision; returns how many learner samples were opened."""
        rows = self.tables.waiting()
        moves = self._learner_moves(rows) if len(rows) else {}
        for ended in self.tables.tick(moves):
            self._end_game(ended)
        return len(rows)

    def _seats_of(self, row: int) -> dict[int, Trajectory]:
        """A trajectory for each seat the learner holds in the row's current game."""
        seating = self.tables.seatings[row]
        return {p: Trajectory(self.tables.env.ids[row], p) for p in range(self.game.num_players) if seating.outside(p)}

    def _learner_moves(self, rows: np.ndarray) -> dict[int, int]:
        tables = self.tables
        obs, masks, seats = tables.env.observe(rows)
        obs = obs.astype(np.float32, copy=False)
        logits, values = policy_outputs(self.policy, obs)
        uniforms = np.array([tables.rngs[row].random() for row in rows])
        actions, log_probs = sample_masked(logits, masks, uniforms)
        moves = {}
        for k, (row, seat) in enumerate(zip(rows.tolist(), seats.tolist())):
            trajectory = self.trajectories[row][seat]
            potential = self._potential(tables.states[row], seat)
            if trajectory.open is not None:
                self._close(trajectory, potential, float(values[k]), done=False)
            trajectory.potential = potential
            trajectory.open = Transition(obs[k], masks[k], int(actions[k]), float(values[k]), float(log_probs[k]))
            trajectory.decisions += 1
            moves[row] = int(actions[k])
        return moves

    def _potential(self, state: State, seat: int) -> float:
        return float(state.potentials()[seat]) if self.shaping else 0.0

    def _close(self, trajectory: Trajectory, potential: float, next_value: float, done: bool,
               final: float = 0.0) -> None:
        """The open decision's successor has come: its reward and the value to bootstrap from."""
        t = trajectory.open
        t.reward = self.shaping * (potential - trajectory.potential) + final
        t.done, t.next_value = done, next_value
        trajectory.total_reward += t.reward
        trajectory.closed.append(t)
        trajectory.open = None
        self._closed += 1

    def _end_game(self, ended: Ended) -> None:
        state, n = ended.state, self.game.num_players
        terminal = not ended.truncated
        returns = state.returns() if terminal else [0.0] * n
        credit = win_credit(returns) if terminal else [1.0 / n] * n
        trajectories = {p: t for p, t in self.trajectories[ended.row].items() if t.open is not None}
        self.trajectories[ended.row] = self._seats_of(ended.row)  # the row's next game, already seated
        bootstrap = self._truncation_values(state, trajectories) if not terminal else {}
        opponents = ended.seating.opponents()
        for seat, trajectory in trajectories.items():  # a seat that never decided has no sample, no episode
            self._close(trajectory, self._potential(state, seat), bootstrap.get(seat, 0.0), done=True,
                        final=float(returns[seat]))
            self.finished.append(trajectory)
            self.episodes.append(EpisodeStats(seat, trajectory.total_reward, trajectory.decisions, credit[seat],
                                              opponents, float(returns[seat]), ended.last_mover))

    def _truncation_values(self, state: State, trajectories: dict[int, Trajectory]) -> dict[int, float]:
        """A game cut at max_decisions is not lost or won: bootstrap from the value where it stopped."""
        seats = list(trajectories)
        if not seats:
            return {}
        obs = np.stack([state.observation(p) for p in seats]).astype(np.float32, copy=False)
        _, values = policy_outputs(self.policy, obs)
        return {p: float(v) for p, v in zip(seats, values)}

    # -- rollouts ----------------------------------------------------------------------------
    def collect(self, samples: int) -> Rollout:
        """Exactly `samples` transitions whose successors are known, oldest first. Play goes on until there
        are enough; the few left over open the next rollout (PPO's minibatches then divide the rollout as
        in SB3, where a last minibatch of one sample would normalise its advantage by a zero std)."""
        have = len(self._leftover) if self._leftover is not None else 0
        while have + self._ready() < samples:
            self.tick()
        rollout = self._rollout()
        if self._leftover is not None:
            rollout = Rollout.concat([self._leftover, rollout])
        self._leftover = rollout.take(slice(samples, None)) if len(rollout) > samples else None
        return rollout.take(slice(0, samples))

    def _ready(self) -> int:
        return self._closed
    def _rollout(self) -> Rollout:
        trajectories = self.finished + [t for row in self.trajectories for t in row.values()]
        parts: list[tuple[list[Transition], np.ndarray]] = []
        for trajectory in trajectories:
            if trajectory.closed:
                parts.append((trajectory.closed, self._advantages(trajectory.closed)))
                trajectory.closed = []
        self.finished = []
        self._closed = 0
        transitions = [t for chunk, _ in parts for t in chunk]
        advantages = np.concatenate([a for _, a in parts]).astype(np.float32) if parts else np.zeros(0, np.float32)
        values = np.array([t.value for t in transitions], np.float32)
        starts = np.zeros(len(transitions), np.float32)
        return Rollout(
            obs=np.stack([t.obs for t in transitions]), masks=np.stack([t.mask for t in transitions]),
            actions=np.array([t.action for t in transitions], np.int64), values=values,
            log_probs=np.array([t.log_prob for t in transitions], np.float32), advantages=advantages,
            returns=advantages + values, rewards=np.array([t.reward for t in transitions], np.float32),
            episode_starts=starts,
        )

    def _advantages(self, transitions: list[Transition]) -> np.ndarray:
        """GAE(lambda) backward over one seat's consecutive transitions."""
        out = np.zeros(len(transitions))
        running = 0.0
        for i in range(len(transitions) - 1, -1, -1):
            t = transitions[i]
            keep = 0.0 if t.done else 1.0  # the recursion stops at a game's end; the bootstrap does not:
            delta = t.reward + self.gamma * t.next_value - t.value  # 0 at a real end, V where a game was cut
            running = delta + self.gamma * self.gae_lambda * keep * running
            out[i] = running
        return out

    def take_episodes(self) -> list[EpisodeStats]:
        episodes, self.episodes = self.episodes, []
        return episodes
