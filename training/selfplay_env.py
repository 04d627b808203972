"""Self-play as a single-agent gymnasium env: one learning seat, the others played inside `step()`.

It is one game of `training/seating.py`'s `Tables`, which deals the seats, draws the opponents from an
`OpponentPool`, makes each opponent once and re-deals a game the opponents finish before the learner's
first move; the learner's seat rotates every episode so it learns every seat.

The same class is the public single-agent view (`ultimata.envs.single_agent`): there the opponents are
fixed specs per seat (`seated_opponents`) and an illegal action ends the episode with `illegal_reward`
instead of raising, so learners without action masks can train on it too.

Seeding follows gymnasium: `reset(seed=s)` starts the stream of games of seed `s`, a plain `reset()`
deals the stream's next game, and an env made without a seed draws its stream from the OS on its first
reset (so copies in a vector env deal different games).

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
from ultimata.training.outcome import win_credit
from ultimata.training.pool import MIRROR, OpponentPool
from ultimata.training.seating import Ended, Seating, Tables, check_seat_weights


class SelfPlayEnv(gymnasium.Env):
    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(
        self,
        game_name: str,
        rules: dict[str, Any] | None = None,
        pool_weights: dict[str, float] | None = None,
        pool_keep: int = 5,
        pool_deterministic: bool = False,
        seed: int | None = 0,
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
        if (pool_weights or {}).get(MIRROR, 0) > 0:
            raise ConfigError("a single-agent env has one learning seat: its pool cannot hold 'mirror'; use the "
                              "batched sampler (sampler.kind: batched) or give mirror weight 0")
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
        self.learner_seats = check_seat_weights(learner_seats, self.game)
        """Chance of each seat for the learner (pool.learner_seats); None: every seat in turn."""
        self._seed = seed
        self.tables: Tables | None = None
        self._done = True
        """The learner's episode is over (or never began): `step` waits for `reset`."""
        self._final: Ended | None = None
        """How the last episode's game ended, until the next `reset`."""
        self._potential = 0.0

    @property
    def state(self) -> State:
        """The game in play (after the episode's end, the finished one until `reset`)."""
        return self._final.state if self._done and self._final is not None else self.tables.states[0]

    @property
    def seat(self) -> int:
        return self.tables.seatings[0].designated if not self._done or self._final is None \
            else self._final.seating.designated

    @property
    def opponent_labels(self) -> dict[int, str]:
        """The spec of each other seat in this episode."""
        return self._seating().opponents()

    @property
    def opponents(self) -> dict[int, Agent]:
        """The agents of the other seats in this episode (network opponents, answered in batches by the
        tables, are not among them)."""
        return dict(self._seating().agents)

    def _seating(self) -> Seating:
        return self._final.seating if self._done and self._final is not None else self.tables.seatings[0]

    # -- pool --------------------------------------------------------------------------------
    def add_snapshot(self, path: str) -> None:
        """Called through `VecEnv.env_method` so it works in subprocess envs too."""
        self.pool.add_snapshot(path)

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner now (MaskablePPO reads this via env_method). Between an episode's
        end and the next `reset` no move is asked for; a vector env that resets on its next step
        (gymnasium's NEXT_STEP autoreset) ignores that step's action, so any action is allowed there."""
        if self._done:
            return np.ones(self.game.num_actions, bool)
        return self.tables.states[0].legal_action_mask().astype(bool)

    # -- episode -----------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        if seed is not None:
            self._seed = seed
        if self.tables is None or seed is not None:
            if self._seed is None:  # no seed ever given: this copy's own stream, from the OS
                self._seed = int(np.random.SeedSequence().generate_state(1)[0])
            self.tables = Tables(self.game, 1, self.pool, seed=self._seed, designated_seats=self.learner_seats,
                                 ids=[self.env_index])
            self.tables.reset()
        elif not self._done:  # abandoned mid-game: the next game of the stream
            self.tables.redeal(0)
        # after an episode's end the row already holds the stream's next game, seated
        self._final = None
        self._play_opponents()
        self._done = False
        self._potential = self._seat_potential()
        state = self.tables.states[0]
        return state.observation(self.seat), {"seat": self.seat}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise IllegalActionError("step() called after the episode ended; call reset()")
        state, seat = self.tables.states[0], self.seat
        chosen = as_action(action)
        mask = state.legal_action_mask()
        legal = not isinstance(chosen, (bool, np.bool_)) and isinstance(chosen, (int, np.integer)) \
            and 0 <= chosen < len(mask) and mask[chosen]
        if not legal:
            if self.illegal_reward is None:
                state.apply(chosen)  # raises IllegalActionError with the engine's message
            self._done = True  # refused, the state unchanged: the learner loses the episode
            info = {"illegal": True, "win": 0.0, "opponents": self.opponent_labels}
            return state.observation(seat), float(self.illegal_reward), True, False, info
        ended = self.tables.tick({0: int(chosen)}) or self._play_opponents()
        reward = 0.0
        if ended:
            self._final, self._done = ended[0], True
        state = self.state
        if self.shaping:
            now = float(state.potentials()[seat])
            reward, self._potential = self.shaping * (now - self._potential), now
        info: dict[str, Any] = {}
        terminated = ended and not ended[0].truncated
        if terminated:
            returns = state.returns()
            reward += float(returns[seat])
            info["win"] = win_credit(returns)[seat]
            info["opponents"] = self.opponent_labels
        return state.observation(seat), reward, bool(terminated), bool(ended and ended[0].truncated), info

    # -- internals ---------------------------------------------------------------------------
    def _play_opponents(self) -> list[Ended]:
        """Let the other seats move until it is the learner's turn. At `reset`, a game they finish first
        is re-dealt (the tables deal the next one); during an episode, its end is returned."""
        tables = self.tables
        while not len(tables.waiting()):
            ended = tables.tick()
            if ended and not self._done:
                return ended
        return []

    def _seat_potential(self) -> float:
        return float(self.tables.states[0].potentials()[self.seat]) if self.shaping else 0.0
