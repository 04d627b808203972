"""A tiny array engine for the batched API's tests, since no game ships one yet: two seats take 1 or 2
from a pile of 3-6 counters (dealt from the row's key), and whoever takes the last wins (+1, -1).

Action 0 takes one, action 1 takes two, action 2 is never legal (an illegal action to test with). A seat
observes `[pile, 1 if it is to move]`. It keeps envs/core/array/engine.py's contract for what the
batched wrapper calls; it has no Python engine, so the conversions refuse.
"""

from __future__ import annotations

from types import SimpleNamespace

import torch

from ultimata.envs.core.array import rng
from ultimata.envs.core.array.engine import ArrayGame, ArrayState
from ultimata.envs.core.engine import State


def toy_game(max_decisions: int = 100) -> SimpleNamespace:
    """The Python-side description the wrapper reads (what a real `Game` offers)."""
    config = SimpleNamespace(max_decisions=max_decisions, dense_reward=False)
    return SimpleNamespace(name="toy_pile_v0", num_players=2, num_actions=3, observation_shape=(2,),
                           observation_bounds=(0.0, 6.0), config=config)


class PileEngine(ArrayGame):
    def deal(self, keys: torch.Tensor) -> ArrayState:
        zeros = torch.zeros_like(keys)
        pile = rng.below(keys, zeros, 4) + 3
        return {"key": keys, "draws": zeros + 1, "decisions": zeros.clone(), "pile": pile, "player": zeros.clone()}

    def current_player(self, state: ArrayState) -> torch.Tensor:
        return state["player"]

    def legal_mask(self, state: ArrayState) -> torch.Tensor:
        pile = state["pile"]
        return torch.stack([pile >= 1, pile >= 2, torch.zeros_like(pile, dtype=torch.bool)], dim=1)

    def step(self, state: ArrayState, actions: torch.Tensor,
             chance: torch.Tensor | None = None) -> tuple[ArrayState, torch.Tensor, torch.Tensor]:
        live = state["pile"] > 0
        pile = torch.where(live, state["pile"] - (actions + 1), state["pile"])
        won = live & (pile == 0)
        mover = state["player"]
        sign = torch.where(torch.arange(2)[None, :] == mover[:, None], 1.0, -1.0)
        rewards = torch.where(won[:, None], sign, torch.zeros_like(sign))
        player = torch.where(live & ~won, 1 - mover, mover)
        decisions = state["decisions"] + live.to(torch.int64)
        new = {**state, "pile": pile, "player": player, "decisions": decisions}
        return new, rewards, pile == 0

    def observe(self, state: ArrayState, seats: torch.Tensor) -> torch.Tensor:
        return torch.stack([state["pile"].float(), (state["player"] == seats).float()], dim=1)

    def from_states(self, states: list[State]) -> ArrayState:
        raise NotImplementedError("the toy pile game has no Python engine")

    def to_states(self, state: ArrayState) -> list[State]:
        raise NotImplementedError("the toy pile game has no Python engine")

    def python_step(self, state: State, action: int) -> torch.Tensor:
        raise NotImplementedError("the toy pile game has no Python engine")


def pile_engine(max_decisions: int = 100) -> PileEngine:
    return PileEngine(toy_game(max_decisions))  # type: ignore[arg-type]
