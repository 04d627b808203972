"""`batch(game, num_games)`: N games stepped together on the rules engines, numpy arrays in and out.

Each row is one game's waiting decision: whose seat it is, what that seat observes, which actions are
legal. The caller plays every seat; self-play, opponent pools and leagues are the caller's to build (the
trainer's own are in training/seating.py). This is the shape of Pgx's and EnvPool's batched APIs, kept
on Python engines: no AEC wrapper runs per step, so a loop over 64 games costs little more than the
engines themselves. For one learning seat against a given policy, envs/vector.py is a
`gymnasium.vector.VectorEnv` over it.

    env = batch("ultimatum_cards_v3", 64, seed=0)
    obs, mask, seat = env.reset()
    while ...:
        obs, mask, seat, rewards, terminated, truncated, info = env.step(actions)

Rewards are PettingZoo's: `rewards[i, p]` is what seat `p` earned by the move just made in game `i` (the
game's result when that move ended it, plus the shaping change when the rule config asks for a dense
reward), exactly what the AEC env's `rewards` holds after the same step. Summed between two decisions of
a seat, they are its reward since its last decision. `terminated[i]`: the game ended by its rules (or by an
illegal action, with `on_illegal="terminate"`); `truncated[i]`: it was cut at the rule config's
`max_decisions`. A finished game restarts in the same step (gymnasium's `AutoresetMode.SAME_STEP`,
declared in `metadata`): its row shows the new game's first decision and `info["final_obs"][i]` holds
every seat's view of the finished position, `info["final_state"][i]` its engine state.

Every game is reproducible alone: game `k` (counted from 1) of row `i` is dealt from
`derived_seed(seed, ids[i], k)` (`ids` default to the row numbers), the seed an AEC env given the same
`reset(seed=...)` plays it from, whatever the number of rows beside it. Two BatchEnvs with ids [0, 2, 4]
and [1, 3, 5] play the games of one with six rows, so a batch can be split over processes. Without a
seed, the run seed is drawn from fresh entropy (as gymnasium does) and readable as `env.seed`.

Drivers that do not need every row's observation after every move (a row waiting on a scripted bot)
use the lower-level pair `apply(actions)` and `observe(rows)`; `apply` returns `(rewards, done, info)`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ultimata.envs.batch_conventions import (
    ILLEGAL_PENALTY,
    VectorAttributes,
    checked_on_illegal,
    checked_seed,
    final_info,
)
from ultimata.envs.core.engine import Game, State
from ultimata.envs.core.errors import ConfigError, IllegalActionError
from ultimata.envs.core.registry import game_class
from ultimata.envs.core.rng import Rng, derived_seed


def _checked_id(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ConfigError(f"a game id must be a whole number 0 or more, got {value!r}")
    return int(value)


class BatchEnv(VectorAttributes):
    """`num_games` games of one rule variant, each row waiting on one seat's decision."""

    def __init__(self, game: Game, num_games: int, *, seed: int | None = None, ids: Sequence[int] | None = None,
                 on_illegal: str = "raise") -> None:
        if isinstance(num_games, bool) or not isinstance(num_games, (int, np.integer)) or num_games < 1:
            raise ConfigError(f"num_games must be a whole number 1 or more, got {num_games!r}")
        self.game = game
        self.num_games = int(num_games)
        self.ids = list(range(self.num_games)) if ids is None else [_checked_id(i) for i in ids]
        """The game id of each row: what its games are seeded by."""
        if len(self.ids) != self.num_games or len(set(self.ids)) != self.num_games:
            raise ConfigError(f"ids must be {self.num_games} distinct whole numbers, one per game; got {ids!r}")
        self.num_players = game.num_players
        self.num_actions = game.num_actions
        self.max_decisions = game.config.max_decisions
        low, high = game.observation_bounds
        self._set_spaces(low, high, game.observation_shape, game.observation_dtype, game.num_actions)
        self._dense = bool(game.config.dense_reward)
        self.on_illegal = checked_on_illegal(on_illegal)
        """'raise': an illegal action refuses the whole step; 'terminate': it ends that game alone."""
        self.seed = checked_seed(seed)
        """The run seed (drawn from fresh entropy when none was given): pass it back to replay the run."""
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
            self.seed = checked_seed(seed)
            self.episodes[:] = 0
        self.closed = False
        self.states = [self._deal(row) for row in range(self.num_games)]
        self._potentials = [s.potentials() for s in self.states] if self._dense else []
        return self._view()

    def redeal(self, rows: Sequence[int]) -> None:
        """Abandon the games in `rows` and deal each its next game (an episode reset of those rows alone)."""
        for row in rows:
            self.states[row] = self._deal(row)
            if self._dense:
                self._potentials[row] = self.states[row].potentials()

    def close(self) -> None:
        super().close()
        self.states, self._potentials = [], []

    def _dealt(self) -> bool:
        return bool(self.states)

    # -- one step ----------------------------------------------------------------------------
    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        """Apply one action per row, for that row's waiting seat. Returns `(obs, action_mask, seat,
        rewards [N, players], terminated [N], truncated [N], info)`.

        `info` has `returns [N, players]` (each finished game's result, zeros elsewhere), `truncated`,
        `length [N]` (a finished game's decisions), `illegal [N]` (rows ended by an illegal action) and
        `final_state` (row -> the finished game's State); on a step where some game finished, gymnasium's
        same-step keys too: `final_obs` (an object array, None on rows that did not finish, else every
        seat's view of the final position, [players, *obs]) and `final_info` (`returns`, `length`), each
        with its `_final_obs` / `_final_info` row mask. Every action is checked before any is applied: an
        illegal one raises IllegalActionError naming its row and no game moves, unless the batch was made
        with `on_illegal="terminate"`, which ends that game with -1 for the offender and 0 for the others."""
        rewards, terminated, truncated, info = self._step_rows(range(self.num_games), actions, self.on_illegal)
        return (*self._view(), rewards, terminated, truncated, info)

    def apply(self, actions: Any) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
        """`step` without the view and without the final observations: `(rewards, done, info)`, `done` being
        `terminated | truncated`. Read what you need with `observe`."""
        self._check_open()
        chosen, illegal = self._checked_actions(range(self.num_games), actions, self.on_illegal)
        rewards, done, info = self._apply(range(self.num_games), chosen, illegal)
        info.pop("_finished")
        return rewards, done, info

    def _step_rows(self, rows: Sequence[int], actions: Any, on_illegal: str) -> tuple[
            np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action for each row of `rows` (others do not move): `step`'s results for those rows, in the
        order of `rows` (`final_state` keyed by position). envs/vector.py steps only the rows waiting on
        the policy it was given."""
        self._check_open()
        chosen, illegal = self._checked_actions(rows, actions, on_illegal)
        rewards, done, info = self._apply(rows, chosen, illegal)
        finished = info.pop("_finished")
        truncated = info["truncated"]
        if done.any():
            final_obs = np.full(len(done), None, dtype=object)
            for k, state in finished.items():
                final_obs[k] = np.stack([state.observation(p) for p in range(self.num_players)])
            info["final_obs"], info["_final_obs"] = final_obs, done.copy()
            info["final_info"] = final_info(done, returns=info["returns"], length=info["length"],
                                            illegal=info["illegal"])
            info["_final_info"] = done.copy()
        return rewards, done & ~truncated, truncated.copy(), info

    def _checked_actions(self, rows: Sequence[int], actions: Any, on_illegal: str) -> tuple[np.ndarray, np.ndarray]:
        """The actions as integers, and which are illegal; with 'raise', an illegal one raises before any
        is applied."""
        chosen = np.asarray(actions)
        count = len(rows)
        if chosen.shape != (count,) or not np.issubdtype(chosen.dtype, np.integer):
            raise IllegalActionError(
                f"actions must be {count} integers, one per game; got shape {chosen.shape} of {chosen.dtype}")
        illegal = np.zeros(count, bool)
        for k, (row, action) in enumerate(zip(rows, chosen.tolist())):
            state = self.states[row]
            mask = state.legal_action_mask()
            if not 0 <= action < len(mask) or not mask[action]:
                if on_illegal == "raise":
                    raise IllegalActionError(f"row {row}: {state._illegal_message(action)}")
                illegal[k] = True
        return chosen, illegal

    def _apply(self, rows: Sequence[int], chosen: np.ndarray, illegal: np.ndarray) -> tuple[
            np.ndarray, np.ndarray, dict[str, Any]]:
        """Apply checked actions (ending the games of illegal ones), restart finished games."""
        n, players = len(chosen), self.num_players
        rewards = np.zeros((n, players))
        done = np.zeros(n, bool)
        returns = np.zeros((n, players))
        truncated = np.zeros(n, bool)
        length = np.zeros(n, np.int64)
        final: dict[int, State] = {}
        for k, (row, action) in enumerate(zip(rows, chosen.tolist())):
            state = self.states[row]
            if illegal[k]:  # the game ends where the action was refused; no move is applied
                returns[k, state.current_player] = ILLEGAL_PENALTY
                rewards[k] = returns[k]
            else:
                state._apply_checked(action)  # every action was checked against its mask before any applied
                if self._dense:
                    now = state.potentials()
                    rewards[k] = np.subtract(now, self._potentials[row])
                    self._potentials[row] = now
                if state.is_terminal():
                    returns[k] = state.returns()
                    rewards[k] += returns[k]
                elif state.decisions >= self.max_decisions:
                    truncated[k] = True
                else:
                    continue
            done[k], length[k], final[k] = True, state.decisions, state
            self.states[row] = fresh = self._deal(row)
            if self._dense:
                self._potentials[row] = fresh.potentials()
        info = {"returns": returns, "truncated": truncated, "length": length, "illegal": illegal,
                "final_state": final, "_finished": final}
        return rewards, done, info

    # -- what the rows show ------------------------------------------------------------------
    def seats(self) -> np.ndarray:
        """The seat each row waits on."""
        return np.fromiter((s.current_player for s in self.states), np.int64, len(self.states))

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


def batch(game: str, num_games: int, *, seed: int | None = None, ids: Sequence[int] | None = None,
          on_illegal: str = "raise", backend: str = "python", device: str | None = None, numpy: bool = False,
          **rules: Any) -> Any:
    """`num_games` games of `game` (an env name such as 'ultimatum_cards_v3') under the rule variant
    `**rules` (validated as for `make`), stepped together; call `reset()` before `step`.

    `seed=None` draws the run seed from fresh entropy (read it back as `env.seed`); `on_illegal="terminate"`
    ends a game whose seat chose an illegal action (-1 for it, 0 for the others) instead of refusing the
    step. `backend="python"` (the default) steps the rules engines, numpy in and out; `backend="array"` runs
    the game's array engine (envs/array_batch.py) on `device`, tensors in and out (`numpy=True`: arrays)."""
    if backend not in ("python", "array"):
        raise ConfigError(f"backend must be 'python' or 'array', got {backend!r}")
    built = game_class(game).from_config(rules)
    if backend == "array":
        from ultimata.envs.array_batch import array_batch

        return array_batch(built, num_games, seed=seed, ids=ids, on_illegal=on_illegal, device=device or "cpu",
                           numpy=numpy)
    if device is not None or numpy:
        raise ConfigError("device and numpy apply to backend='array' only; the python backend runs on the CPU "
                          "and always returns numpy arrays")
    return BatchEnv(built, num_games, seed=seed, ids=ids, on_illegal=on_illegal)
