"""Self-play as a single-agent gymnasium env: one learning seat, the others played inside `step()`.

The engine is driven directly (no AEC layer) because this is the hot loop of training. Opponents
come from an `OpponentPool`; the learner's seat rotates every episode so it learns every seat.

The same class is the public single-agent view (`ultimata.envs.single_agent`): there the opponents are
fixed specs per seat (`seated_opponents`) and an illegal action ends the episode with `illegal_reward`
instead of raising, so learners without action masks can train on it too.

Reward attribution (PettingZoo issue #1147): the learner's reward is read from `state.returns()` for
*its own seat* whenever the game ends, whether its own move or an opponent's move inside `step()`
ended it. Nothing is lost when an opponent makes the final move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ultimata.agents.base import Agent, as_action
from ultimata.envs.core.engine import State
from ultimata.envs.core.errors import ConfigError, IllegalActionError
from ultimata.envs.core.registry import game_class
from ultimata.envs.core.rng import Rng, derived_seed
from ultimata.training.outcome import win_credit
from ultimata.training.pool import OpponentPool


class SelfPlayEnv(gymnasium.Env):
    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(
        self,
        game_name: str,
        rules: dict[str, Any] | None = None,
        pool_weights: dict[str, float] | None = None,
        pool_keep: int = 5,
        pool_deterministic: bool = False,
        seed: int = 0,
        env_index: int = 0,
        agents: dict[str, Agent] | None = None,
        shaping: float = 0.0,
        learner_seats: Sequence[float] | None = None,
        seated_opponents: Sequence[str] | None = None,
        illegal_reward: float | None = None,
    ) -> None:
        self.game = game_class(game_name).from_config(rules)
        if shaping and not self.game.supports_dense_reward:
            raise ConfigError(f"{game_name} has no shaping potential; set shaping: 0")
        self.shaping = float(shaping) + (1.0 if self.game.config.dense_reward else 0.0)
        """Weight of the potential-based shaping reward (the change of the seat's potential between its
        decisions). Potential-based, so it speeds learning without changing which policy is best."""
        low, high = self.game.observation_bounds
        self.observation_space = spaces.Box(low, high, self.game.observation_shape, self.game.observation_dtype)
        self.action_space = spaces.Discrete(self.game.num_actions)
        self.pool = OpponentPool(
            self.game, pool_weights or {"random": 1.0}, pool_keep, pool_deterministic, agents=agents,
            seated=None if seated_opponents is None else list(seated_opponents),
        )
        self.illegal_reward = illegal_reward
        """None: an illegal action raises IllegalActionError; a number: it ends the episode with this reward."""
        self.env_index = env_index
        if learner_seats is not None and (len(learner_seats) != self.game.num_players or min(learner_seats) < 0
                                          or sum(learner_seats) <= 0):
            raise ConfigError(f"learner_seats gives {list(learner_seats)}; {game_name} needs {self.game.num_players} "
                              "non-negative weights with a positive sum, one per seat")
        self.learner_seats = None if learner_seats is None else np.asarray(learner_seats, float) / sum(learner_seats)
        """Chance of each seat for the learner (pool.learner_seats); None: every seat in turn."""
        self._seed = seed
        self._episode = 0
        self._rng = np.random.default_rng([seed, env_index])
        self.state: State | None = None
        self.seat = 0
        self.opponents: dict[int, Agent] = {}
        self.opponent_labels: dict[int, str] = {}
        self._potential = 0.0
        self._forfeited = False

    # -- pool --------------------------------------------------------------------------------
    def add_snapshot(self, path: str) -> None:
        """Called through `VecEnv.env_method` so it works in subprocess envs too."""
        self.pool.add_snapshot(path)

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner now (MaskablePPO reads this via env_method)."""
        return self.state.legal_action_mask().astype(bool)

    # -- episode -----------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        if seed is not None:
            self._seed, self._episode = seed, 0
            self._rng = np.random.default_rng([seed, self.env_index])
        n = self.game.num_players
        while True:  # a game the opponents finish before the learner's first move is replayed afresh
            self._episode += 1
            game_seed = derived_seed(self._seed, self.env_index, self._episode)
            self.state = self.game.new_initial_state(Rng(game_seed))
            if self.learner_seats is None:
                self.seat = (self.env_index + self._episode) % n
            else:
                self.seat = int(self._rng.choice(n, p=self.learner_seats))
            self.opponents, self.opponent_labels = {}, {}
            for p in range(n):
                if p == self.seat:
                    continue
                label = self.pool.label_for((p - self.seat) % n, self._rng)
                agent = self.pool.make_agent(label, seed=int(self._rng.integers(2**31)))
                agent.reset(p, int(self._rng.integers(2**31)))
                self.opponents[p], self.opponent_labels[p] = agent, label
            self._play_opponents()
            if not self._over():
                break
        self._potential = self._seat_potential()
        self._forfeited = False
        return self.state.observation(self.seat), {"seat": self.seat}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        state = self.state
        if self._forfeited or state.current_player != self.seat:
            raise IllegalActionError("step() called after the episode ended; call reset()")
        if self.illegal_reward is None:
            state.apply(int(action))
        else:
            try:
                state.apply(as_action(action))
            except IllegalActionError:  # refused, the state unchanged: the learner loses the episode
                self._forfeited = True
                info = {"illegal": True, "win": 0.0, "opponents": dict(self.opponent_labels)}
                return state.observation(self.seat), float(self.illegal_reward), True, False, info
        self._play_opponents()
        reward = 0.0
        if self.shaping:
            now = self._seat_potential()
            reward, self._potential = self.shaping * (now - self._potential), now
        terminated = state.is_terminal()
        truncated = not terminated and state.decisions >= self.game.config.max_decisions
        info: dict[str, Any] = {}
        if terminated:
            returns = state.returns()
            reward += float(returns[self.seat])
            info["win"] = win_credit(returns)[self.seat]
            info["opponents"] = dict(self.opponent_labels)
        return state.observation(self.seat), reward, terminated, truncated, info

    # -- internals ---------------------------------------------------------------------------
    def _over(self) -> bool:
        return self.state.is_terminal() or self.state.decisions >= self.game.config.max_decisions

    def _play_opponents(self) -> None:
        """Let the other seats move until it is the learner's turn or the game is over."""
        state = self.state
        while not self._over() and state.current_player != self.seat:
            p = state.current_player
            action = self.opponents[p].act(state.observation(p), state.legal_action_mask(), state)
            try:
                state.apply(as_action(action))
            except IllegalActionError as err:
                raise IllegalActionError(f"opponent {self.opponent_labels[p]!r} at seat {p}: {err}") from None

    def _seat_potential(self) -> float:
        return float(self.state.potentials()[self.seat]) if self.shaping else 0.0
