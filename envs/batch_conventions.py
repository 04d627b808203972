"""What the two batched backends (envs/batch.py, envs/array_batch.py) share so that they mean the same:
the run seed when none is given, the illegal-action option, and gymnasium's vector attributes.

Why one module: a convention written twice drifts; both backends call these, and docs/api.md's table
describes them once.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from ultimata.envs.core.errors import ConfigError

ILLEGAL_PENALTY = -1.0
"""With `on_illegal="terminate"`, the offender's result; every other seat gets 0 (PettingZoo's
TerminateIllegalWrapper; Pgx gives the others +1 in two-player games)."""

ON_ILLEGAL = ("raise", "terminate")


def fresh_seed() -> int:
    """A run seed from the operating system's entropy (gymnasium's `seed=None`), below 2**63 so that
    both backends hold it unchanged and a run can be reproduced by passing it back."""
    return int(np.random.SeedSequence().entropy) % 2**63


def checked_seed(seed: Any) -> int:
    """`seed` as a whole number, or a fresh one for None."""
    if seed is None:
        return fresh_seed()
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ConfigError(f"seed must be a whole number 0 or more (or None for a fresh one), got {seed!r}")
    return int(seed)


def checked_on_illegal(on_illegal: Any) -> str:
    if on_illegal not in ON_ILLEGAL:
        raise ConfigError(f"on_illegal must be 'raise' (refuse the whole step, no game moves) or 'terminate' "
                          f"(end that game, {ILLEGAL_PENALTY:g} for the offender); got {on_illegal!r}")
    return on_illegal


class VectorAttributes:
    """`num_envs`, the single and batched spaces, `metadata["autoreset_mode"]` and `close()`, named as
    gymnasium's `VectorEnv` names them. The backends are not VectorEnvs (a row is a multi-seat game, so
    `step` also returns the mask and the seat); envs/vector.py is the VectorEnv view."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}
    closed: bool = False
    num_games: int

    def _set_spaces(self, low: Any, high: Any, shape: tuple[int, ...], dtype: Any, num_actions: int) -> None:
        self.single_observation_space = spaces.Box(low, high, shape, dtype)
        self.single_action_space = spaces.Discrete(num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_games)
        self.action_space = batch_space(self.single_action_space, self.num_games)

    @property
    def num_envs(self) -> int:
        """gymnasium's name for `num_games`."""
        return self.num_games

    @property
    def autoreset_mode(self) -> AutoresetMode:
        return self.metadata["autoreset_mode"]

    def close(self) -> None:
        """Drop the games; a closed batch refuses `step` until `reset` deals again."""
        self.closed = True

    def _check_open(self) -> None:
        if self.closed:
            raise ConfigError("this batch is closed; call reset() to deal new games before step()")
        if not self._dealt():
            raise ConfigError("no game is dealt yet: call reset() before step()")

    def _dealt(self) -> bool:
        raise NotImplementedError


def final_info(done: np.ndarray | Any, **values: Any) -> dict[str, Any]:
    """gymnasium's same-step `final_info`: each value with its `_name` mask (the rows that finished)."""
    out: dict[str, Any] = {}
    for name, value in values.items():
        out[name], out[f"_{name}"] = value, done
    return out
