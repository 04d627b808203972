"""`ArrayEngine`: the card game's rules (`rules.py`), view (`view.py`), conversions (`layout.py`) and scripted
bot (`scripted.py`) behind the `ArrayGame` contract, with the AEC env's rewards (the result when a move ends the
game, plus the potential's change when `dense_reward` is on).

Chance: a step draws at most one shuffle (a new round's deal). `chance` is then [B, 48]: the deck order
as indices into `deck.DECK` (what the Python `Rng.shuffled` drew), or -1 in column 0 for a row's own
counter draws. `python_step` records it from the Python engine."""

from __future__ import annotations

from typing import Any

import torch

from ultimata.envs.core.array import rng
from ultimata.envs.core.array.engine import ArrayGame, ArrayState
from ultimata.envs.core.engine import Game, State
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimatum_cards.array import layout
from ultimata.envs.ultimatum_cards.array.rules import Rules
from ultimata.envs.ultimatum_cards.array.scripted import ScriptedBot
from ultimata.envs.ultimatum_cards.array.view import View
from ultimata.envs.ultimatum_cards.deck import DECK
from ultimata.envs.ultimatum_cards.phases import OVER


class ArrayEngine(ArrayGame):
    def __init__(self, game: Game, device: torch.device | str = "cpu") -> None:
        super().__init__(game, device)
        self.rules = Rules(game, self.device)
        self.view = View(game, self.device)
        self.scripted = ScriptedBot(game, self.rules)
        self.n = game.config.num_players
        self.dense = bool(game.config.dense_reward)

    def deal(self, keys: torch.Tensor) -> ArrayState:
        cfg = self.game.config
        b = keys.shape[0]
        s = layout.empty_state(b, self.n, self.device)
        s["key"] = keys.to(device=self.device, dtype=torch.int64).clone()
        if cfg.first_dealer is None:
            dealer = rng.below(s["key"], s["draws"], self.n)
            s["draws"] = s["draws"] + 1
        else:
            dealer = torch.full_like(s["draws"], cfg.first_dealer)
        everyone = torch.ones(b, dtype=torch.bool, device=self.device)
        self.rules.deal_into(s, everyone, dealer, None, fresh_chips=True)
        self.rules.start_turn(s, everyone)
        return s

    def current_player(self, state: ArrayState) -> torch.Tensor:
        return self.rules.current_player(state)

    def legal_mask(self, state: ArrayState) -> torch.Tensor:
        return self.rules.legal_mask(state)

    def potentials(self, s: ArrayState) -> torch.Tensor:
        """state.potentials in float64, as the Python engine computes them."""
        over = (s["phase"] == OVER)[:, None]
        totals = torch.where(over, s["scores"], s["scores"] + s["chips"]).to(torch.float64)
        mean = totals.sum(1, keepdim=True) / self.n
        return (totals - mean) / self.game.config.starting_chips

    def returns(self, s: ArrayState) -> torch.Tensor:
        """state.returns in float64: winners share +1, losers -1, all tied 0."""
        scores = s["scores"]
        won = scores == scores.max(1, keepdim=True).values
        count = won.sum(1, keepdim=True).to(torch.float64)
        win = 1.0 / count
        lose = -1.0 / (self.n - count).clamp(min=1)
        out = torch.where(won, win, lose)
        out = torch.where(count == self.n, 0.0, out)
        return torch.where((s["phase"] == OVER)[:, None], out, 0.0)

    def step(self, state: ArrayState, actions: torch.Tensor,
             chance: torch.Tensor | None = None) -> tuple[ArrayState, torch.Tensor, torch.Tensor]:
        live = state["phase"] != OVER
        new, ended = self.rules.step(state, actions.to(device=self.device, dtype=torch.int64), chance)
        idx = ended.nonzero()[:, 0]  # the results of the rows that ended only
        rewards = torch.zeros(ended.shape[0], self.n, dtype=torch.float64, device=self.device)
        rewards = rewards.index_copy(0, idx, self.returns({"scores": new["scores"][idx], "phase": new["phase"][idx]}))
        if self.dense:
            rewards = (self.potentials(new) - self.potentials(state)) + rewards
            rewards = torch.where(live[:, None], rewards, 0.0)
        return new, rewards.to(torch.float32), new["phase"] == OVER

    def observe(self, state: ArrayState, seats: torch.Tensor) -> torch.Tensor:
        seats = seats.to(device=self.device, dtype=torch.int64)
        return self.view.observe(state, seats.clamp(min=0), self.current_player(state))

    def scripted_actions(self, state: ArrayState, generator: torch.Generator | None = None) -> torch.Tensor:
        """The scripted bot's move in every row (array/scripted.py; a PLAY tie broken by `generator`)."""
        return self.scripted.actions(state, generator)

    def from_states(self, states: list[State]) -> ArrayState:
        return layout.from_python(states, self.n, self.device)

    def to_states(self, state: ArrayState) -> list[State]:
        return layout.to_python(self.game, state)

    def python_step(self, state: State, action: int) -> torch.Tensor:
        recorder = _RecordingRng(state.rng)
        state.rng = recorder
        try:
            state.apply(action)
        finally:
            state.rng = recorder.inner
        row = torch.full((len(DECK),), -1, dtype=torch.int64, device=self.device)
        if recorder.orders:
            row[:] = torch.as_tensor(recorder.orders[-1], dtype=torch.int64)
        return row


class _RecordingRng(Rng):
    """Stands in for a Python state's generator for one move: draws from it as it would, and keeps each
    shuffle's order (as indices into the items, ties between equal cards taken in deck order)."""

    def __init__(self, inner: Rng) -> None:  # no super().__init__: every draw goes to `inner`
        self.inner = inner
        self.orders: list[list[int]] = []

    def roll(self, sides: int) -> int:
        return self.inner.roll(sides)

    def below(self, n: int) -> int:
        return self.inner.below(n)

    def shuffled(self, items: Any) -> list[Any]:
        out = self.inner.shuffled(items)
        spare: dict[Any, list[int]] = {}
        for i, item in enumerate(items):
            spare.setdefault(item, []).append(i)
        self.orders.append([spare[item].pop(0) for item in out])
        return out
