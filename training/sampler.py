"""The batched self-play sampler: many games in one process, one forward pass per policy per tick.

Every tick looks at each game's waiting decision and groups the decisions by who makes them. The
learning policy answers all of its decisions in one forward pass, and so does each network opponent
(a pool snapshot, `pretrained`, a checkpoint); scripted, random and other agents answer one by one.
Each seat the learning policy plays, the designated learner seat or a "mirror" seat drawn from the
pool, is a trajectory of its own: its decisions are the samples, its reward is the change of its own
potential between its decisions (when shaping) plus its own final return, credited even when another
seat's move ends the game (PettingZoo issue #1147). Samples of seats the learner did not play never
enter a rollout.

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

from ultimata.agents.base import Agent
from ultimata.agents.policy_agent import PolicyAgent, action_logits
from ultimata.envs.core.engine import Game, State
from ultimata.envs.core.rng import Rng, derived_seed
from ultimata.training.outcome import win_credit
from ultimata.training.pool import MIRROR, OpponentPool

LEARNER = "learner"


def policy_outputs(policy: Any, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Logits and values of SB3's actor-critic policy for a batch of observations, in one pass."""
    with torch.no_grad():
        features = policy.extract_features(torch.as_tensor(obs))
        if policy.share_features_extractor:
            latent_pi, latent_vf = policy.mlp_extractor(features)
        else:
            pi_features, vf_features = features
            latent_pi = policy.mlp_extractor.forward_actor(pi_features)
            latent_vf = policy.mlp_extractor.forward_critic(vf_features)
        return policy.action_net(latent_pi).numpy(), policy.value_net(latent_vf).numpy()[:, 0]


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


@dataclass
class _Slot:
    """One game in play: who holds each seat, the non-network agents, the learner trajectories."""

    index: int
    rng: np.random.Generator
    episode: int = 0
    state: State | None = None
    players: list[str] = field(default_factory=list)
    agents: dict[int, Agent] = field(default_factory=dict)
    made: dict[tuple[int, str], Agent] = field(default_factory=dict)
    trajectories: dict[int, Trajectory] = field(default_factory=dict)


class BatchedSampler:
    """Plays `games` self-play games at once for `policy`, against opponents drawn from `pool`."""

    def __init__(
        self, game: Game, policy: Any, pool: OpponentPool, games: int = 64, *, seed: int = 0,
        shaping: float = 0.0, learner_seats: Sequence[float] | None = None, gamma: float = 0.995,
        gae_lambda: float = 0.95, slots: Sequence[int] | None = None,
    ) -> None:
        self.game, self.policy, self.pool = game, policy, pool
        self.seed, self.shaping = seed, float(shaping)
        self.gamma, self.gae_lambda = gamma, gae_lambda
        n = game.num_players
        self.learner_seats = None if learner_seats is None else np.asarray(learner_seats, float) / sum(learner_seats)
        self.max_decisions = game.config.max_decisions
        indices = list(slots) if slots is not None else list(range(games))
        self.slots = [_Slot(i, np.random.default_rng([seed, i, 7])) for i in indices]
        self._networks: dict[str, tuple[Any, bool] | None] = {}
        """Pool labels that are network policies: (policy, greedy), loaded once, evaluated in batches;
        None for the other labels."""
        self.finished: list[Trajectory] = []
        """Trajectories whose game ended since the last rollout (their transitions still to collect)."""
        self.episodes: list[EpisodeStats] = []
        self.decisions = 0
        """Every decision played, by any seat (the learner's are the samples)."""
        self._leftover: Rollout | None = None
        self._closed = 0
        """Transitions whose successor is known, not yet in a rollout."""
        self._n = n
        for slot in self.slots:
            self._new_game(slot)

    # -- games -------------------------------------------------------------------------------
    def _new_game(self, slot: _Slot) -> None:
        slot.episode += 1
        rng, n = slot.rng, self._n
        slot.state = self.game.new_initial_state(Rng(derived_seed(self.seed, slot.index, slot.episode)))
        if self.learner_seats is None:
            designated = (slot.index + slot.episode) % n
        else:
            designated = int(rng.choice(n, p=self.learner_seats))
        slot.players, slot.agents, slot.trajectories = [], {}, {}
        for p in range(n):
            label = LEARNER if p == designated else self.pool.sample(rng)
            if label == MIRROR:
                label = LEARNER
            slot.players.append(label)
            agent_seed, reset_seed = int(rng.integers(2**31)), int(rng.integers(2**31))
            if label == LEARNER:
                slot.trajectories[p] = Trajectory(slot.index, p)
            elif not self._is_network(label):
                agent = slot.made.get((p, label))
                if agent is None:  # made once per seat and kind, reset with a fresh seed for each game
                    agent = slot.made[p, label] = self.pool.make_agent(label, seed=agent_seed)
                agent.reset(p, reset_seed)
                slot.agents[p] = agent

    def _is_network(self, label: str) -> bool:
        if label not in self._networks:  # resolved once per label, whatever it turns out to be
            agent = self.pool.make_agent(label, seed=0)
            self._networks[label] = (agent.policy, agent.deterministic) if isinstance(agent, PolicyAgent) else None
        return self._networks[label] is not None

    def _over(self, state: State) -> bool:
        return state.is_terminal() or state.decisions >= self.max_decisions

    # -- one tick ----------------------------------------------------------------------------
    def tick(self) -> int:
        """Every game makes its waiting decision; returns how many learner samples were opened."""
        groups: dict[str, list[_Slot]] = {}
        for slot in self.slots:
            groups.setdefault(slot.players[slot.state.current_player], []).append(slot)
        chosen: dict[int, int] = {}
        opened = 0
        for label, members in groups.items():
            if label == LEARNER:
                opened = len(members)
                chosen.update(self._learner_moves(members))
            elif self._networks.get(label) is not None:
                chosen.update(self._network_moves(label, members))
            else:
                for slot in members:
                    state, p = slot.state, slot.state.current_player
                    agent = slot.agents[p]
                    obs = state.observation(p) if getattr(agent, "reads_observation", True) else None
                    chosen[slot.index] = int(agent.act(obs, state.legal_action_mask(), state))
        for slot in self.slots:
            mover = slot.state.current_player
            slot.state.apply(chosen[slot.index])
            self.decisions += 1
            if self._over(slot.state):
                self._end_game(slot, mover)
        return opened

    def _batch(self, members: list[_Slot]) -> tuple[np.ndarray, np.ndarray]:
        obs = np.stack([s.state.observation(s.state.current_player) for s in members]).astype(np.float32, copy=False)
        masks = np.stack([s.state.legal_action_mask() for s in members])
        return obs, masks

    def _learner_moves(self, members: list[_Slot]) -> dict[int, int]:
        obs, masks = self._batch(members)
        logits, values = policy_outputs(self.policy, obs)
        uniforms = np.array([s.rng.random() for s in members])
        actions, log_probs = sample_masked(logits, masks, uniforms)
        moves = {}
        for k, slot in enumerate(members):
            seat = slot.state.current_player
            trajectory = slot.trajectories[seat]
            potential = self._potential(slot.state, seat)
            if trajectory.open is not None:
                self._close(trajectory, potential, float(values[k]), done=False)
            trajectory.potential = potential
            trajectory.open = Transition(obs[k], masks[k], int(actions[k]), float(values[k]), float(log_probs[k]))
            trajectory.decisions += 1
            moves[slot.index] = int(actions[k])
        return moves

    def _network_moves(self, label: str, members: list[_Slot]) -> dict[int, int]:
        policy, greedy = self._networks[label]
        obs, masks = self._batch(members)
        logits = action_logits(policy, obs)
        uniforms = np.array([s.rng.random() for s in members])
        actions, _ = sample_masked(logits, masks, uniforms, greedy=greedy)
        return {slot.index: int(a) for slot, a in zip(members, actions)}

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

    def _end_game(self, slot: _Slot, last_mover: int) -> None:
        state = slot.state
        terminal = state.is_terminal()
        returns = state.returns() if terminal else [0.0] * self._n
        credit = win_credit(returns) if terminal else [1.0 / self._n] * self._n
        bootstrap = self._truncation_values(slot) if not terminal else {}
        opponents = {p: label for p, label in enumerate(slot.players) if label != LEARNER}
        for seat, trajectory in slot.trajectories.items():
            if trajectory.open is None:
                continue  # the seat never decided (the game ended first): no sample, no episode
            self._close(trajectory, self._potential(state, seat), bootstrap.get(seat, 0.0), done=True,
                        final=float(returns[seat]))
            self.finished.append(trajectory)
            self.episodes.append(EpisodeStats(seat, trajectory.total_reward, trajectory.decisions, credit[seat],
                                              opponents, float(returns[seat]), last_mover))
        self._new_game(slot)

    def _truncation_values(self, slot: _Slot) -> dict[int, float]:
        """A game cut at max_decisions is not lost or won: bootstrap from the value where it stopped."""
        seats = [p for p, t in slot.trajectories.items() if t.open is not None]
        if not seats:
            return {}
        obs = np.stack([slot.state.observation(p) for p in seats]).astype(np.float32, copy=False)
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
        trajectories = self.finished + [t for slot in self.slots for t in slot.trajectories.values()]
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
