"""`batch(game, num_games)`: N games stepped together on the rules engines, numpy arrays in and out.

Each row is one game's waiting decision: whose seat it is, what that seat observes, which actions are
legal. The caller plays every seat; self-play, opponent pools and leagues are the caller's to build (the
trainer's own are in training/seating.py). This is the shape of Pgx's and EnvPool's batched APIs, kept
on Python engines: no AEC wrapper runs per step, so a loop over 64 games costs little more than the
engines themselves.

    env = batch("ultimatum_cards_v3", 64, seed=0)
    obs, mask, seat = env.reset()
    while ...:
        obs, mask, seat, rewards, done, info = env.step(actions)

Rewards are PettingZoo's: `rewards[i, p]` is what seat `p` earned by the move just made in game `i` (the
game's result when that move ended it, plus the shaping change when the rule config asks for a dense
reward), exactly what the AEC env's `rewards` holds after the same step. Summed between two decisions of
a seat, they are its reward since its last decision. A finished game restarts by itself: its row then
shows the new game's first decision, `done[i]` is True and `info` holds how it ended.

Every game is reproducible alone: game `k` (counted from 1) of row `i` is dealt from
`derived_seed(seed, ids[i], k)` (`ids` default to the row numbers), the seed an AEC env given the same
`reset(seed=...)` plays it from, whatever the number of rows beside it. Two BatchEnvs with ids [0, 2, 4]
and [1, 3, 5] play the games of one with six rows, so a batch can be split over processes.

Drivers that do not need every row's observation after every move (a row waiting on a scripted bot)
use the lower-level pair `apply(actions)` and `observe(rows)` that `step` is made of.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces

from ultimata.envs.core.engine import Game, State
from ultimata.envs.core.errors import ConfigError, IllegalActionError
from ultimata.envs.core.registry import game_class
from ultimata.envs.core.rng import Rng, derived_seed


def _checked_seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ConfigError(f"seed must be a whole number 0 or more, got {seed!r}")
    return int(seed)


class BatchEnv:
    """`num_games` games of one rule variant, each row waiting on one seat's decision."""

    def __init__(self, game: Game, num_games: int, *, seed: int = 0, ids: Sequence[int] | None = None) -> None:
        if isinstance(num_games, bool) or not isinstance(num_games, (int, np.integer)) or num_games < 1:
            raise ConfigError(f"num_games must be a whole number 1 or more, got {num_games!r}")
        self.game = game
        self.num_games = int(num_games)
        self.ids = list(range(self.num_games)) if ids is None else [_checked_seed(i) for i in ids]
        """The game id of each row: what its games are seeded by."""
        if len(self.ids) != self.num_games or len(set(self.ids)) != self.num_games:
            raise ConfigError(f"ids must be {self.num_games} distinct whole numbers, one per game; got {ids!r}")
        self.num_players = game.num_players
        self.num_actions = game.num_actions
        self.max_decisions = game.config.max_decisions
        low, high = game.observation_bounds
        self.single_observation_space = spaces.Box(low, high, game.observation_shape, game.observation_dtype)
        self.single_action_space = spaces.Discrete(game.num_actions)
        self._dense = bool(game.config.dense_reward)
        self.seed = _checked_seed(seed)
        self.states: list[State] = []
        """The live engines, one per row: read them (search, scripted bots need the state), do not apply."""
        self.episodes = np.zeros(self.num_games, np.int64)
        """How many games each row has dealt; the current one is number `episodes[i]`."""
        self._potentials: list[list[float]] = []

    # -- games -------------------------------------------------------------------------------
    def game_seed(self, row: int, episode: int | None = None) -> int:
        """The seed game `episode` (default: the current one) of `row` is dealt from: an AEC env reset with
        it plays the same game."""
        return derived_seed(self.seed, self.ids[row], int(self.episodes[row] if episode is None else episode))

    def _deal(self, row: int) -> State:
        self.episodes[row] += 1
        return self.game.new_initial_state(Rng(self.game_seed(row)))

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Deal a new game in every row: `(obs [N, ...], action_mask [N, A] int8, seat [N])`. With a seed,
        the rows start again from game 1 of that seed; without, each row deals its next game."""
        if seed is not None:
            self.seed = _checked_seed(seed)
            self.episodes[:] = 0
        self.states = [self._deal(row) for row in range(self.num_games)]
        self._potentials = [s.potentials() for s in self.states] if self._dense else []
        return self._view()

    def redeal(self, rows: Sequence[int]) -> None:
        """Abandon the games in `rows` and deal each its next game (an episode reset of those rows alone)."""
        for row in rows:
            self.states[row] = self._deal(row)
            if self._dense:
                self._potentials[row] = self.states[row].potentials()

    # -- one step ----------------------------------------------------------------------------
    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Apply one action per row, for that row's waiting seat. Returns `(obs, action_mask, seat,
        rewards [N, players], done [N], info)`; `info` has `returns [N, players]` (each finished game's
        result, zeros elsewhere), `truncated [N]` (cut at max_decisions), `length [N]` (its decisions)
        and `final_state` (row -> the finished game's State). Every action is checked before any is
        applied: an illegal one raises IllegalActionError naming its row, and no game moves."""
        rewards, done, extra = self.apply(actions)
        return (*self._view(), rewards, done, extra)

    def apply(self, actions: Any) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
        """`step` without the view: `(rewards, done, info)`. Read what you need with `observe`."""
        return self._apply(self._checked_actions(actions))

    def _checked_actions(self, actions: Any) -> np.ndarray:
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_games,) or not np.issubdtype(chosen.dtype, np.integer):
            raise IllegalActionError(
                f"actions must be {self.num_games} integers, one per game; got shape {chosen.shape} of {chosen.dtype}")
        for row, (state, action) in enumerate(zip(self.states, chosen.tolist())):
            mask = state.legal_action_mask()
            if not 0 <= action < len(mask) or not mask[action]:
                raise IllegalActionError(f"row {row}: {state._illegal_message(action)}")
        return chosen

    def _apply(self, chosen: np.ndarray) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
        """Apply checked actions, restart finished games; what `step` returns besides the view."""
        n, players = self.num_games, self.num_players
        rewards = np.zeros((n, players))
        done = np.zeros(n, bool)
        returns = np.zeros((n, players))
        truncated = np.zeros(n, bool)
        length = np.zeros(n, np.int64)
        final: dict[int, State] = {}
        for row, action in enumerate(chosen.tolist()):
            state = self.states[row]
            state._apply_checked(action)  # every action was checked against its mask before any applied
            if self._dense:
                now = state.potentials()
                rewards[row] = np.subtract(now, self._potentials[row])
                self._potentials[row] = now
            if state.is_terminal():
                returns[row] = state.returns()
                rewards[row] += returns[row]
            elif state.decisions >= self.max_decisions:
                truncated[row] = True
            else:
                continue
            done[row], length[row], final[row] = True, state.decisions, state
            self.states[row] = fresh = self._deal(row)
            if self._dense:
                self._potentials[row] = fresh.potentials()
        return rewards, done, {"returns": returns, "truncated": truncated, "length": length, "final_state": final}

    # -- what the rows show ------------------------------------------------------------------
    def seats(self) -> np.ndarray:
        """The seat each row waits on."""
        return np.fromiter((s.current_player for s in self.states), np.int64, self.num_games)

    def observe(self, rows: Sequence[int] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """`(obs, action_mask, seat)` of the given rows (default: all), each row seen by its waiting seat."""
        states = self.states if rows is None else [self.states[row] for row in rows]
        seats = np.fromiter((s.current_player for s in states), np.int64, len(states))
        obs = np.empty((len(states), *self.single_observation_space.shape), self.single_observation_space.dtype)
        for k, (state, seat) in enumerate(zip(states, seats.tolist())):
            obs[k] = state.observation(seat)
        masks = np.stack([s.legal_action_mask() for s in states]) if states else \
            np.zeros((0, self.num_actions), np.int8)
        return obs, masks, seats

    _view = observe


def batch(game: str, num_games: int, *, seed: int = 0, ids: Sequence[int] | None = None, backend: str = "python",
          device: str | None = None, numpy: bool = False, **rules: Any) -> Any:
    """`num_games` games of `game` (an env name such as 'ultimatum_cards_v3') under the rule variant
    `**rules` (validated as for `make`), stepped together; call `reset()` before `step`.

    `backend="python"` (the default) steps the rules engines, numpy in and out; `backend="array"` runs the
    game's array engine (envs/array_batch.py) on `device`, tensors in and out (`numpy=True`: arrays)."""
    if backend not in ("python", "array"):
        raise ConfigError(f"backend must be 'python' or 'array', got {backend!r}")
    built = game_class(game).from_config(rules)
    if backend == "array":
        from ultimata.envs.array_batch import array_batch

        return array_batch(built, num_games, seed=seed, ids=ids, device=device or "cpu", numpy=numpy)
    if device is not None or numpy:
        raise ConfigError("device and numpy apply to backend='array' only; the python backend runs on the CPU "
                          "and always returns numpy arrays")
    return BatchEnv(built, num_games, seed=seed, ids=ids)
