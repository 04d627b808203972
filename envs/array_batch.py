"""`batch(game, n, backend="array")`: N games as one array program (`envs.core.array`), tensors in and out.

The same calls and meanings as the Python backend's `BatchEnv` (envs/batch.py): `reset`, `step`, `apply`,
`observe`, plus `load_states` / `states` to move positions between the backends. Finished games restart
by themselves; row `i`'s game `k` is dealt from a key of (seed, ids[i], k), so a row's games do not depend
on the rows beside it. Pass `numpy=True` for numpy arrays instead of tensors.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from ultimata.envs.core.array import rng
from ultimata.envs.core.array.engine import ArrayGame, ArrayState, array_game_class
from ultimata.envs.core.array.memory import keep_freed_memory
from ultimata.envs.core.engine import Game, State
from ultimata.envs.core.errors import ConfigError, IllegalActionError


class ArrayBatchEnv:
    """`num_games` games of one rule variant on an array engine, each row waiting on one seat's decision."""

    def __init__(self, engine: ArrayGame, num_games: int, *, seed: int = 0, ids: Sequence[int] | None = None,
                 numpy: bool = False) -> None:
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
        self.seed = seed
        self.numpy = numpy
        self.episodes = torch.zeros(self.num_games, dtype=torch.int64, device=self.device)
        self.state: ArrayState = {}
        self._masked: tuple[ArrayState, torch.Tensor] | None = None
        """(state, its legal mask) as `observe` last computed it: `apply` checks actions against it rather
        than computing the same mask twice a step."""

    def _out(self, x: torch.Tensor) -> Any:
        return x.cpu().numpy() if self.numpy else x

    def _deal_rows(self, rows: torch.Tensor) -> ArrayState:
        self.episodes[rows] += 1
        return self.engine.deal(rng.game_keys(self.seed, self.ids[rows], self.episodes[rows]))

    def reset(self, seed: int | None = None) -> tuple[Any, Any, Any]:
        """Deal a new game in every row: `(obs, action_mask, seat)`."""
        if seed is not None:
            self.seed = seed
            self.episodes.zero_()
        self.state = self._deal_rows(torch.arange(self.num_games, device=self.device))
        return self.observe()

    def load_states(self, states: Sequence[State]) -> None:
        """Put Python engine positions in the rows, one per row (their later chance is the array engine's)."""
        if len(states) != self.num_games:
            raise ConfigError(f"load_states takes {self.num_games} states, one per row; got {len(states)}")
        self.state = self.engine.from_states(list(states))
        self.state["key"] = rng.game_keys(self.seed, self.ids, self.episodes)

    def states(self) -> list[State]:
        """Each row as a Python engine state."""
        return self.engine.to_states(self.state)

    def step(self, actions: Any) -> tuple[Any, ...]:
        rewards, done, info = self.apply(actions)
        return (*self.observe(), rewards, done, info)

    def apply(self, actions: Any) -> tuple[Any, Any, dict[str, Any]]:
        """One action per row: `(rewards [N, players], done [N], info)`; `info` has `returns`, `truncated`,
        `length`. Every action is checked first: an illegal one raises naming its row, and no game moves."""
        a = torch.as_tensor(np.asarray(actions) if not isinstance(actions, torch.Tensor) else actions,
                            device=self.device)
        if a.shape != (self.num_games,) or a.dtype.is_floating_point or a.dtype == torch.bool:
            raise IllegalActionError(f"actions must be {self.num_games} integers, one per game; got shape "
                                     f"{tuple(a.shape)} of {a.dtype}")
        a = a.to(torch.int64)
        mask = self._legal_mask()
        ok = (a >= 0) & (a < self.num_actions)
        ok &= mask.gather(1, a.clamp(0, self.num_actions - 1)[:, None])[:, 0]
        if not bool(ok.all()):
            row = int((~ok).nonzero()[0, 0])
            legal = mask[row].nonzero()[:, 0].tolist()
            raise IllegalActionError(f"row {row}: action {int(a[row])} is not legal now; legal actions: {legal}")
        self.state, rewards, terminal = self.engine.step(self.state, a)
        decisions = self.state["decisions"]
        truncated = ~terminal & (decisions >= self.max_decisions)
        done = terminal | truncated
        returns = torch.where(terminal[:, None], rewards, torch.zeros_like(rewards))
        length = torch.where(done, decisions, torch.zeros_like(decisions))
        rows = done.nonzero()[:, 0]
        if rows.numel():
            fresh = self._deal_rows(rows)
            for name, value in self.state.items():
                value[rows] = fresh[name]
        self._masked = None
        info = {"returns": self._out(returns), "truncated": self._out(truncated), "length": self._out(length)}
        return self._out(rewards), self._out(done), info

    def _legal_mask(self) -> torch.Tensor:
        """The legal mask of every row now (computed once per position)."""
        if self._masked is None or self._masked[0] is not self.state:
            self._masked = (self.state, self.engine.legal_mask(self.state))
        return self._masked[1]

    def seats(self) -> Any:
        return self._out(self.engine.current_player(self.state))

    def observe(self, rows: Any = None) -> tuple[Any, Any, Any]:
        """`(obs, action_mask, seat)` of the given rows (default: all)."""
        state = self.state if rows is None else {
            k: v[torch.as_tensor(rows, dtype=torch.int64, device=self.device)] for k, v in self.state.items()}
        seats = self.engine.current_player(state)
        obs = self.engine.observe(state, seats)
        mask = self._legal_mask() if rows is None else self.engine.legal_mask(state)
        mask = mask.to(torch.int8)
        return self._out(obs), self._out(mask), self._out(seats)


def array_batch(game: Game, num_games: int, *, seed: int = 0, ids: Sequence[int] | None = None,
                device: str | torch.device = "cpu", numpy: bool = False) -> ArrayBatchEnv:
    engine = array_game_class(game.name)(game, device)
    return ArrayBatchEnv(engine, num_games, seed=seed, ids=ids, numpy=numpy)
