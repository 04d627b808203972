"""`batch(game, n, backend="array")`: N games as one array program (`envs.core.array`), tensors in and out.

The same calls and meanings as the Python backend's `BatchEnv` (envs/batch.py): `reset`, `step` (with
`terminated` and `truncated`), `apply`, `observe`, `on_illegal`, the fresh-entropy seed, the same-step
autoreset with `final_obs` / `final_info`, and gymnasium's vector attributes; plus `load_states` /
`states` to move positions between the backends. Row `i`'s game `k` is dealt from a key of
(seed, ids[i], k), so a row's games do not depend on the rows beside it. Pass `numpy=True` for numpy
arrays instead of tensors. The Python backend's `final_state` has no counterpart here: a finished row's
position is gone once its next game is dealt, and `final_obs` holds what each seat saw of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from ultimata.envs.batch_conventions import (
    ILLEGAL_PENALTY,
    VectorAttributes,
    checked_on_illegal,
    checked_seed,
    final_info,
)
from ultimata.envs.core.array import rng
from ultimata.envs.core.array.engine import ArrayGame, ArrayState, array_game_class
from ultimata.envs.core.array.memory import keep_freed_memory
from ultimata.envs.core.engine import Game, State
from ultimata.envs.core.errors import ConfigError, IllegalActionError


class ArrayBatchEnv(VectorAttributes):
    """`num_games` games of one rule variant on an array engine, each row waiting on one seat's decision."""

    def __init__(self, engine: ArrayGame, num_games: int, *, seed: int | None = None,
                 ids: Sequence[int] | None = None, on_illegal: str = "raise", numpy: bool = False) -> None:
        if isinstance(num_games, bool) or not isinstance(num_games, (int, np.integer)) or num_games < 1:
            raise ConfigError(f"num_games must be a whole number 1 or more, got {num_games!r}")
        self.engine, self.game, self.device = engine, engine.game, engine.device
        if self.device.type == "cpu":
            keep_freed_memory()  # a step's megabyte tensors reuse freed memory (memory.py says why)
        self.num_games = int(num_games)
        self.num_players, self.num_actions = engine.num_players, engine.num_actions
        self.max_decisions = self.game.config.max_decisions
        ids = list(range(self.num_games)) if ids is None else list(ids)
        if len(ids) != self.num_games or len(set(ids)) != self.num_games or any(
                isinstance(i, bool) or not isinstance(i, (int, np.integer)) or i < 0 for i in ids):
            raise ConfigError(f"ids must be {self.num_games} distinct whole numbers, one per game; got {ids!r}")
        self.ids = torch.as_tensor(ids, dtype=torch.int64, device=self.device)
        low, high = self.game.observation_bounds
        self._set_spaces(low, high, tuple(engine.observation_shape), np.float32, engine.num_actions)
        self.on_illegal = checked_on_illegal(on_illegal)
        self.seed = checked_seed(seed)
        """The run seed (drawn from fresh entropy when none was given): pass it back to replay the run."""
        self.numpy = numpy
        self.episodes = torch.zeros(self.num_games, dtype=torch.int64, device=self.device)
        self.state: ArrayState = {}
        self._all = torch.arange(self.num_games, device=self.device)
        self._masked: tuple[ArrayState, torch.Tensor] | None = None
        """(state, its legal mask) as `observe` last computed it: `apply` checks actions against it rather
        than computing the same mask twice a step."""

    def _out(self, x: torch.Tensor) -> Any:
        return x.cpu().numpy() if self.numpy else x

    def _deal_rows(self, rows: torch.Tensor) -> ArrayState:
        self.episodes[rows] += 1
        return self.engine.deal(rng.game_keys(self.seed, self.ids[rows], self.episodes[rows]))

    def reset(self, seed: int | None = None) -> tuple[Any, Any, Any]:
        """Deal a new game in every row: `(obs, action_mask, seat)`. With a seed, the rows start again
        from game 1 of that seed; without, each row deals its next game."""
        if seed is not None:
            self.seed = checked_seed(seed)
            self.episodes.zero_()
        self.closed = False
        self.state = self._deal_rows(self._all)
        return self.observe()

    def close(self) -> None:
        super().close()
        self.state = {}

    def _dealt(self) -> bool:
        return bool(self.state)

    def load_states(self, states: Sequence[State]) -> None:
        """Put Python engine positions in the rows, one per row (their later chance is the array engine's)."""
        if len(states) != self.num_games:
            raise ConfigError(f"load_states takes {self.num_games} states, one per row; got {len(states)}")
        kind = self.game.info.state
        for row, st in enumerate(states):
            if not isinstance(st, kind) or st.game.config != self.game.config:
                raise ConfigError(f"load_states: row {row} is not a {self.game.name} state under this env's rule "
                                  f"config (got {type(st).__name__})")
        self.state = self.engine.from_states(list(states))
        self.state["key"] = rng.game_keys(self.seed, self.ids, self.episodes)
        self.closed = False

    def states(self) -> list[State]:
        """Each row as a Python engine state."""
        return self.engine.to_states(self.state)

    # -- one step ----------------------------------------------------------------------------
    def step(self, actions: Any) -> tuple[Any, ...]:
        """One action per row: `(obs, action_mask, seat, rewards [N, players], terminated [N], truncated [N],
        info)`, with the Python backend's meanings (envs/batch.py's `step`); `info["final_obs"]` is a
        [N, players, *obs] tensor, zeros on the rows that did not finish."""
        rewards, terminated, truncated, info = self._step_rows(None, actions, self.on_illegal)
        return (*self.observe(), rewards, terminated, truncated, info)

    def apply(self, actions: Any) -> tuple[Any, Any, dict[str, Any]]:
        """`step` without the view: `(rewards [N, players], done [N], info)`, `done` being
        `terminated | truncated`."""
        rewards, terminated, truncated, info = self._step_rows(None, actions, self.on_illegal)
        return rewards, terminated | truncated, info

    def _step_rows(self, rows: Any, actions: Any, on_illegal: str) -> tuple[Any, Any, Any, dict[str, Any]]:
        """One action for each row of `rows` (None: every row; others do not move), results in that order."""
        self._check_open()
        index = None if rows is None else torch.as_tensor(rows, dtype=torch.int64, device=self.device)
        count = self.num_games if index is None else len(index)
        a = torch.as_tensor(np.asarray(actions) if not isinstance(actions, torch.Tensor) else actions,
                            device=self.device)
        if a.shape != (count,) or a.dtype.is_floating_point or a.dtype == torch.bool:
            raise IllegalActionError(f"actions must be {count} integers, one per game; got shape "
                                     f"{tuple(a.shape)} of {a.dtype}")
        a = a.to(torch.int64)
        before = self.state if index is None else {k: v[index] for k, v in self.state.items()}
        mask = self._legal_mask() if index is None else self.engine.legal_mask(before)
        ok = (a >= 0) & (a < self.num_actions)
        ok &= mask.gather(1, a.clamp(0, self.num_actions - 1)[:, None])[:, 0]
        if on_illegal == "raise" and not bool(ok.all()):
            k = int((~ok).nonzero()[0, 0])
            row = k if index is None else int(index[k])
            legal = mask[k].nonzero()[:, 0].tolist()
            raise IllegalActionError(f"row {row}: action {int(a[k])} is not legal now; legal actions: {legal}")
        illegal = ~ok
        stand_in = torch.where(ok, a, mask.to(torch.int8).argmax(dim=1))  # a legal move where the action is not
        after, rewards, terminal = self.engine.step(before, stand_in)
        if bool(illegal.any()):  # those games end where the action was refused: no move, -1 for the offender
            after = self.engine.where(ok, after, before)
            offender = torch.nn.functional.one_hot(self.engine.current_player(before), self.num_players)
            rewards = torch.where(ok[:, None], rewards, offender.to(rewards.dtype) * ILLEGAL_PENALTY)
            terminal = terminal | illegal
        decisions = after["decisions"]
        truncated = ~terminal & (decisions >= self.max_decisions)
        done = terminal | truncated
        returns = torch.where(terminal[:, None], rewards, torch.zeros_like(rewards))
        length = torch.where(done, decisions, torch.zeros_like(decisions))
        finished = done.nonzero()[:, 0]
        info = {"returns": self._out(returns), "truncated": self._out(truncated), "length": self._out(length),
                "illegal": self._out(illegal)}
        if finished.numel():
            info["final_obs"] = self._out(self._final_obs(after, finished, count))
            info["_final_obs"] = self._out(done)
            info["final_info"] = final_info(info["_final_obs"], returns=info["returns"], length=info["length"],
                                            illegal=info["illegal"])
            info["_final_info"] = self._out(done)
            fresh = self._deal_rows(finished if index is None else index[finished])
            for name, value in after.items():
                value[finished] = fresh[name]
        if index is None:
            self.state = after
        else:
            for name, value in self.state.items():
                value[index] = after[name]
        self._masked = None
        return self._out(rewards), self._out(terminal), self._out(truncated), info

    def _final_obs(self, state: ArrayState, finished: torch.Tensor, count: int) -> torch.Tensor:
        """Every seat's view of each finished row's last position: [count, players, *obs], zeros elsewhere."""
        players = self.num_players
        repeated = {k: v[finished].repeat_interleave(players, dim=0) for k, v in state.items()}
        seats = torch.arange(players, device=self.device).repeat(len(finished))
        seen = self.engine.observe(repeated, seats).view(len(finished), players, *self.engine.observation_shape)
        out = torch.zeros((count, players, *self.engine.observation_shape), dtype=seen.dtype, device=self.device)
        out[finished] = seen
        return out

    def _legal_mask(self) -> torch.Tensor:
        """The legal mask of every row now (computed once per position)."""
        if self._masked is None or self._masked[0] is not self.state:
            self._masked = (self.state, self.engine.legal_mask(self.state))
        return self._masked[1]

    # -- what the rows show ------------------------------------------------------------------
    def seats(self) -> Any:
        return self._out(self.engine.current_player(self.state))

    def observe(self, rows: Any = None) -> tuple[Any, Any, Any]:
        """`(obs, action_mask, seat)` of the given rows (default: all)."""
        self._check_open()
        if rows is None:
            state, mask = self.state, self._legal_mask()
        else:
            index = torch.as_tensor(rows, dtype=torch.int64, device=self.device)
            if index.dim() != 1 or bool(((index < 0) | (index >= self.num_games)).any()):
                raise ConfigError(f"rows must be row numbers 0..{self.num_games - 1}; got {rows!r}")
            state = {k: v[index] for k, v in self.state.items()}
            mask = self.engine.legal_mask(state)
        seats = self.engine.current_player(state)
        obs = self.engine.observe(state, seats)
        return self._out(obs), self._out(mask.to(torch.int8)), self._out(seats)


def array_batch(game: Game, num_games: int, *, seed: int | None = None, ids: Sequence[int] | None = None,
                on_illegal: str = "raise", device: str | torch.device = "cpu", numpy: bool = False) -> ArrayBatchEnv:
    try:
        where = torch.device(device)
    except (RuntimeError, TypeError):
        raise ConfigError(f"device must be a torch device such as 'cpu' or 'cuda:0', got {device!r}") from None
    engine = array_game_class(game.name)(game, where)
    return ArrayBatchEnv(engine, num_games, seed=seed, ids=ids, on_illegal=on_illegal, numpy=numpy)
