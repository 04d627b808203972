"""`vector(game, num_envs, opponent=...)`: one seat of every game of a batch as a `gymnasium.vector.VectorEnv`.

The convention is `envs.single_agent`'s, batched: in each game you hold one seat (`seat`, or None to
rotate it game by game so that a policy learns every seat) and `opponent`, a batched policy, holds the
others and is played inside `step()`. So every step is a decision of yours, rewards are your seat's
(summed over the moves up to your next decision), and `terminated` / `truncated` are your game's end,
as any single-agent VectorEnv learner expects. Vector wrappers (RecordEpisodeStatistics, DictInfoToList,
NormalizeObservation, ...) apply.

- `opponent(obs [K, ...], action_mask [K, A], seat [K]) -> actions [K]` for the K games waiting on another
  seat; default: a uniformly random legal move, seeded from the run seed. To play scripted bots, close
  over `view.batch.states` (Python backend).
- `autoreset_mode`: gymnasium's default `NEXT_STEP` (a finished game's last observation comes back with
  the step that ended it; the next step ignores that row's action and returns the new game's first
  decision, reward 0) or `SAME_STEP` (the new game's first decision at once, the last observation in
  `info["final_obs"]`, the step's info in `info["final_info"]`). Declared in `metadata["autoreset_mode"]`.
- `on_illegal`: "terminate" (the default, like `single_agent`): your illegal action ends that game with
  -1 for you; "raise": it refuses the whole step. An opponent's illegal action always raises.
- `info`: `seat` (yours in each game), `action_mask` [N, A] (also `action_masks()`), `illegal`, each with
  gymnasium's `_key` mask; with NEXT_STEP, the step that ends your game also has `result` (your seat's
  result), with SAME_STEP `final_info` has it.

A game the other seats finish before your seat's first decision is dealt again without an episode of
yours (you had no decision in it), as `single_agent` does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv

from ultimata.envs.batch import BatchEnv, batch
from ultimata.envs.batch_conventions import checked_on_illegal
from ultimata.envs.core.errors import ConfigError, IllegalActionError

OFFERED_MODES = "AutoresetMode.NEXT_STEP ('NextStep') or AutoresetMode.SAME_STEP ('SameStep')"
Opponent = Callable[[np.ndarray, np.ndarray, np.ndarray], Any]


def random_opponent(seed: Sequence[int] | int) -> Opponent:
    """A uniformly random legal move per row, from its own generator."""
    rng = np.random.default_rng(seed)

    def play(obs: np.ndarray, mask: np.ndarray, seat: np.ndarray) -> np.ndarray:
        return ((rng.random(mask.shape) + 1e-9) * mask).argmax(axis=1)

    return play


def _as_numpy(x: Any) -> np.ndarray:
    return x.cpu().numpy() if hasattr(x, "cpu") else np.asarray(x)


@dataclass
class _StepOutcome:
    """What one `step()` gathers for each game while the learner and the opponent move."""

    n: int
    reward: np.ndarray = field(init=False)
    terminated: np.ndarray = field(init=False)
    truncated: np.ndarray = field(init=False)
    illegal: np.ndarray = field(init=False)
    result: np.ndarray = field(init=False)
    final_seat: np.ndarray = field(init=False)
    final_obs: dict[int, np.ndarray] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.reward = np.zeros(self.n)
        self.terminated, self.truncated, self.illegal = (np.zeros(self.n, bool) for _ in range(3))
        self.result = np.zeros(self.n)
        self.final_seat = np.full(self.n, -1, np.int64)

    @property
    def done(self) -> np.ndarray:
        return self.terminated | self.truncated


class SeatVectorEnv(VectorEnv):
    """A batch (`BatchEnv`, or `ArrayBatchEnv` with `numpy=True`) seen from one seat per game."""

    def __init__(self, env: Any, opponent: Opponent | None = None, seat: int | None = None,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP, on_illegal: str = "terminate") -> None:
        if getattr(env, "numpy", True) is False:
            raise ConfigError("the VectorEnv view needs numpy arrays: build the array backend with numpy=True")
        players = env.num_players
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, (int, np.integer))
                                 or not 0 <= seat < players):
            raise ConfigError(f"seat must be 0..{players - 1}, or None to rotate it game by game; got {seat!r}")
        try:
            mode = AutoresetMode(autoreset_mode)
        except ValueError:
            raise ConfigError(f"autoreset_mode must be {OFFERED_MODES}, got {autoreset_mode!r}") from None
        if mode == AutoresetMode.DISABLED:
            raise ConfigError(f"autoreset_mode must be {OFFERED_MODES}: the batch deals a finished game again "
                              "by itself, so Disabled is not offered")
        self.batch = env
        self.seat = None if seat is None else int(seat)
        self.on_illegal = checked_on_illegal(on_illegal)
        self._given_opponent = opponent
        self.opponent = opponent or random_opponent([env.seed, 11])
        self.metadata = {"autoreset_mode": mode}
        self.num_envs = env.num_games
        self.single_observation_space, self.single_action_space = env.single_observation_space, env.single_action_space
        self.observation_space, self.action_space = env.observation_space, env.action_space
        self._ids = _as_numpy(env.ids).astype(np.int64)
        self._seats = np.zeros(self.num_envs, np.int64)
        self._pending = np.zeros(self.num_envs, bool)
        self._mask = np.zeros((self.num_envs, env.num_actions), np.int8)

    # -- whose seat ----------------------------------------------------------------------------
    def _learner_seats(self, rows: np.ndarray) -> np.ndarray:
        """The learner's seat in each row's current game: fixed, or rotating with the game's number."""
        if self.seat is not None:
            return np.full(len(rows), self.seat, np.int64)
        episodes = _as_numpy(self.batch.episodes)[rows]
        return (self._ids[rows] + episodes) % self.batch.num_players

    def action_masks(self) -> np.ndarray:
        """The legal actions of each row's waiting decision (sb3-contrib's name; also `info["action_mask"]`)."""
        return self._mask.copy()

    # -- the gymnasium API ---------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        """Deal every row a new game and play the other seats up to your first decision. With a seed the
        rows start again from game 1 of that seed (the default opponent is reseeded with it)."""
        super().reset(seed=seed)
        self.batch.reset(seed)
        if seed is not None and self._given_opponent is None:
            self.opponent = random_opponent([self.batch.seed, 11])
        every = np.arange(self.num_envs)
        self._seats = self._learner_seats(every)
        self._pending[:] = False
        outcome = _StepOutcome(self.num_envs)
        outcome.terminated[:] = True  # nothing played before the first decision counts as yours
        self._play_others(outcome)
        obs, self._mask, _ = self.batch.observe()
        return obs, self._info(np.zeros(self.num_envs, bool), self._seats.copy())

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,) or not np.issubdtype(chosen.dtype, np.integer):
            raise IllegalActionError(f"actions must be {self.num_envs} integers, one per game; got shape "
                                     f"{chosen.shape} of {chosen.dtype}")
        outcome = _StepOutcome(self.num_envs)
        outcome.terminated[self._pending] = True  # a row reset this step: its action is ignored
        acting = np.flatnonzero(~self._pending)
        if len(acting):
            results = self.batch._step_rows(acting, chosen[acting], self.on_illegal)
            self._account(acting, results, outcome)
        self._play_others(outcome)
        outcome.terminated[self._pending] = False
        obs, self._mask, _ = self.batch.observe()
        done = outcome.done
        seats = self._seats.copy()
        mode = self.metadata["autoreset_mode"]
        if mode == AutoresetMode.NEXT_STEP:
            for row, final in outcome.final_obs.items():
                obs[row] = final
            self._mask[done] = 1  # any action is accepted and ignored on the next step (Pgx's terminal mask)
            seats[done] = outcome.final_seat[done]
            self._pending = done
        info = self._info(outcome.illegal, seats)
        if mode == AutoresetMode.SAME_STEP and done.any():
            final_obs = np.full(self.num_envs, None, dtype=object)
            for row, final in outcome.final_obs.items():
                final_obs[row] = final
            info["final_obs"], info["_final_obs"] = final_obs, done.copy()
            info["final_info"] = {"seat": outcome.final_seat, "_seat": done.copy(), "result": outcome.result,
                                  "_result": done.copy(), "illegal": outcome.illegal, "_illegal": done.copy()}
            info["_final_info"] = done.copy()
        elif mode == AutoresetMode.NEXT_STEP:
            info["result"], info["_result"] = outcome.result, done.copy()
        return obs, outcome.reward, outcome.terminated, outcome.truncated, info

    def close_extras(self, **kwargs: Any) -> None:
        if hasattr(self, "batch"):  # gymnasium closes on garbage collection, also after a refused __init__
            self.batch.close()

    # -- playing the other seats ---------------------------------------------------------------
    def _info(self, illegal: np.ndarray, seats: np.ndarray) -> dict[str, Any]:
        every = np.ones(self.num_envs, bool)
        return {"seat": seats, "_seat": every, "action_mask": self._mask.copy(), "_action_mask": every.copy(),
                "illegal": illegal.copy(), "_illegal": every.copy()}

    def _play_others(self, outcome: _StepOutcome) -> None:
        """Let the opponent move in every game until each waits on the learner's seat again."""
        while True:
            waiting = np.flatnonzero(_as_numpy(self.batch.seats()) != self._seats)
            if not len(waiting):
                return
            obs, mask, seat = self.batch.observe(waiting)
            actions = np.asarray(self.opponent(obs, mask, seat))
            self._account(waiting, self.batch._step_rows(waiting, actions, "raise"), outcome)

    def _account(self, rows: np.ndarray, results: tuple[Any, Any, Any, dict[str, Any]], outcome: _StepOutcome) -> None:
        """Add the learner's share of a move in `rows` to this step; end the learner's episode where the
        game ended; seat the learner in each game dealt after one."""
        rewards, terminated, truncated, info = (_as_numpy(x) if not isinstance(x, dict) else x for x in results)
        seats = self._seats[rows]
        live = ~outcome.done[rows]  # games the learner's current episode is still playing
        outcome.reward[rows[live]] += rewards[live, seats[live]]
        ended = terminated | truncated
        for k in np.flatnonzero(ended & live):
            row, seat = rows[k], seats[k]
            outcome.terminated[row], outcome.truncated[row] = bool(terminated[k]), bool(truncated[k])
            outcome.illegal[row] = bool(_as_numpy(info["illegal"])[k])
            outcome.result[row] = _as_numpy(info["returns"])[k, seat]
            outcome.final_seat[row] = seat
            outcome.final_obs[row] = np.asarray(_as_numpy(info["final_obs"][k])[seat])
        if ended.any():
            restarted = rows[ended]
            self._seats[restarted] = self._learner_seats(restarted)


def vector(game: str, num_envs: int, *, opponent: Opponent | None = None, seat: int | None = None,
           seed: int | None = None, ids: Sequence[int] | None = None,
           autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP, on_illegal: str = "terminate",
           backend: str = "python", device: str | None = None, **rules: Any) -> SeatVectorEnv:
    """`num_envs` games of `game` as a `gymnasium.vector.VectorEnv` in which you hold one seat of each (see
    the module's docstring); `seed`, `ids`, `backend`, `device` and `**rules` as for `envs.batch`."""
    env: BatchEnv | Any = batch(game, num_envs, seed=seed, ids=ids, backend=backend, device=device,
                                numpy=backend == "array", **rules)
    return SeatVectorEnv(env, opponent=opponent, seat=seat, autoreset_mode=autoreset_mode, on_illegal=on_illegal)
