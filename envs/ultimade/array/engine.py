"""ULTIMADE's array engine: every rule option, batch first, on torch (the contract: envs/core/array/engine.py).

The state holds state.py's saved fields as tensors (`last_throw` [B, 2] with -1 for none, `surplus` bool);
`last_event`, a sentence for people, is not kept. `chance` for `step` is [B, 1]: the Monster-Defense die's
face where the move rolls it (0 elsewhere).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from ultimata.envs.core.array import rng
from ultimata.envs.core.array.engine import ArrayGame, ArrayState
from ultimata.envs.core.engine import State
from ultimata.envs.core.rng import Rng, derived_seed
from ultimata.envs.ultimade.array.bits import Tables, take
from ultimata.envs.ultimade.array.rules import Rules
from ultimata.envs.ultimade.array.scripted import ScriptedBot
from ultimata.envs.ultimade.game import UltimadeGame
from ultimata.envs.ultimade.observation import OBS_SIZE, P, S
from ultimata.envs.ultimade.phases import MONSTER, OVER, PLACE, SELECT

SCALAR_ENTRIES = ("holder", "disc", "offense", "phase", "to_move", "moved", "runner", "chase", "marker_only",
                  "cycle", "winner", "last_roll")
"""The state's whole-number fields of one value per row."""
_TABLES: dict[torch.device, Tables] = {}


class _RecordingRng:
    """Hands the Python engine's draws through and keeps them, for `python_step`."""

    def __init__(self, inner: Rng) -> None:
        self.inner, self.rolls = inner, []

    def roll(self, sides: int) -> int:
        value = self.inner.roll(sides)
        self.rolls.append(value)
        return value

    def below(self, n: int) -> int:
        value = self.inner.below(n)
        self.rolls.append(value)
        return value


class UltimadeArrayEngine(ArrayGame):
    """ULTIMADE under one rule config as batched tensor functions."""

    def __init__(self, game: UltimadeGame, device: torch.device | str = "cpu") -> None:
        super().__init__(game, device)
        if self.device not in _TABLES:
            _TABLES[self.device] = Tables(self.device)
        self.tables = _TABLES[self.device]
        self.rules = Rules(game.config, game.endzone, self.tables)
        self.template = torch.as_tensor(game.obs_layout.template, device=self.device)
        self.scripted = ScriptedBot(game, self.rules)

    # -- the contract --------------------------------------------------------------------------
    def deal(self, keys: torch.Tensor) -> ArrayState:
        keys = keys.to(self.device, torch.int64)
        n = keys.shape[0]
        first = self.game.config.first_receiver
        draws = torch.zeros(n, dtype=torch.int64, device=self.device)
        if first == "random":
            receiver = rng.below(keys, draws, 2)
            draws = draws + 1
        else:
            receiver = torch.full((n,), int(first[-1]), dtype=torch.int64, device=self.device)

        def full(value: int, *shape: int) -> torch.Tensor:
            return torch.full((n, *shape), value, dtype=torch.int64, device=self.device)

        return {"pos": full(-1, 8), "holder": full(-1), "disc": full(-1), "offense": receiver, "phase": full(PLACE),
                "to_move": receiver.clone(), "moved": full(0), "runner": full(-1), "chase": full(-1),
                "marker_only": full(-1), "surplus": torch.zeros(n, dtype=torch.bool, device=self.device),
                "score": full(0, 2), "cycle": full(0), "winner": full(-1), "last_throw": full(-1, 2),
                "last_roll": full(0), "decisions": full(0), "key": keys.clone(), "draws": draws}

    def current_player(self, state: ArrayState) -> torch.Tensor:
        return state["to_move"]

    def legal_mask(self, state: ArrayState) -> torch.Tensor:
        return self.rules.legal(state)

    def step(self, state: ArrayState, actions: torch.Tensor,
             chance: torch.Tensor | None = None) -> tuple[ArrayState, torch.Tensor, torch.Tensor]:
        return self.rules.step(state, actions.to(self.device, torch.int64), chance)

    def observe(self, state: ArrayState, seats: torch.Tensor) -> torch.Tensor:
        """observation.encode for every row at once: one scatter of ones, then the four fractions."""
        t, s, cfg = self.tables, state, self.game.config
        viewer = seats.to(self.device, torch.int64)
        n = viewer.shape[0]
        flip = viewer == 1

        def framed(f: torch.Tensor) -> torch.Tensor:
            g = f.clamp(0)
            return torch.where(flip.view(-1, *([1] * (f.dim() - 1))), take(t.flip, g), g)

        pos, phase = s["pos"], s["phase"]
        team = torch.arange(8, device=self.device)[None] >> 2
        dump = OBS_SIZE  # ones for absent things land in one extra column, dropped at the end
        players = torch.where(pos >= 0, torch.where(team == viewer[:, None], P["own_players"], P["opponents"])
                              + framed(pos), dump)
        disc = s["disc"]
        ground = (disc >= 0) & (s["holder"] < 0)
        disc_idx = torch.where(disc >= 0, P["disc"] + framed(disc), dump)
        ground_idx = torch.where(ground, S["disc_on_ground"], dump)
        moved = ((s["moved"][:, None] >> torch.arange(8, device=self.device)) & 1) == 1
        ran = torch.where(moved & (pos >= 0), P["ran_this_cycle"] + framed(pos), dump)
        runner_f = pos.gather(1, s["runner"].clamp(0)[:, None])[:, 0]
        runner = torch.where(s["runner"] >= 0, P["runner"] + framed(runner_f), dump)
        marker_f = pos.gather(1, s["marker_only"].clamp(0)[:, None])[:, 0]
        marker = torch.where(s["marker_only"] >= 0, P["monster_marker"] + framed(marker_f), dump)
        rules = self.rules
        offense = s["offense"]
        off_pos, def_pos = rules.team_pos(s, offense), rules.team_pos(s, 1 - offense)
        marked_now = rules.adjacent(off_pos, def_pos).any(2) & ((phase >= SELECT) & (phase <= MONSTER))[:, None]
        marked = torch.where(marked_now, P["marked"] + framed(off_pos), dump)
        flags = torch.stack([
            torch.where(phase < OVER, S["phase_place"] + phase, dump),
            torch.where(s["to_move"] == viewer, S["my_decision"], dump),
            torch.where(offense == viewer, S["my_team_on_offense"], dump),
            torch.where(rules.surplus_now(s), S["surplus_markers_must_leave"], dump),
        ], dim=1)
        ones = torch.cat([players, disc_idx[:, None], ground_idx[:, None], ran, runner[:, None], marker[:, None],
                          marked, flags], dim=1)
        obs = torch.cat([self.template, self.template.new_zeros(1)]).repeat(n, 1)
        obs.scatter_(1, ones, 1.0)
        obs = obs[:, :OBS_SIZE]
        score = s["score"].to(torch.float64)
        mine = score.gather(1, viewer.clamp(0, 1)[:, None])[:, 0]
        theirs = score.gather(1, (1 - viewer.clamp(0, 1))[:, None])[:, 0]
        scored = (score > 0).any(1)
        obs[:, S["my_score"]] = torch.where(scored, mine / cfg.points_to_win, 0.0).to(torch.float32)
        obs[:, S["their_score"]] = torch.where(scored, theirs / cfg.points_to_win, 0.0).to(torch.float32)
        obs[:, S["cycles_used"]] = (s["cycle"].to(torch.float64) / cfg.max_cycles).clamp(max=1.0).to(torch.float32)
        own = pos.view(-1, 2, 4).gather(1, viewer.clamp(0, 1)[:, None, None].expand(-1, 1, 4))[:, 0]
        to_place = (own < 0).sum(1).to(torch.float64) / 4
        obs[:, S["my_players_to_place"]] = torch.where(phase == PLACE, to_place, 0.0).to(torch.float32)
        return obs

    def scripted_actions(self, state: ArrayState, generator: torch.Generator | None = None) -> torch.Tensor:
        """The scripted bot's move in every row (array/scripted.py; a tie broken by `generator`)."""
        return self.scripted.actions(state, generator)

    # -- conversions ---------------------------------------------------------------------------
    def from_states(self, states: list[State]) -> ArrayState:
        n = len(states)
        scalars = np.array([[getattr(st, name) for name in SCALAR_ENTRIES] for st in states], np.int64).reshape(
            n, len(SCALAR_ENTRIES))
        out = {name: torch.as_tensor(scalars[:, i], device=self.device) for i, name in enumerate(SCALAR_ENTRIES)}

        def rows(values: list[Any], width: int) -> torch.Tensor:
            return torch.as_tensor(np.array(values, np.int64).reshape(n, width), device=self.device)

        out["pos"] = rows([st.pos for st in states], 8)
        out["score"] = rows([st.score for st in states], 2)
        out["last_throw"] = rows([st.last_throw if st.last_throw is not None else [-1, -1] for st in states], 2)
        out["surplus"] = torch.as_tensor([bool(st.surplus) for st in states], dtype=torch.bool, device=self.device)
        out["decisions"] = rows([st.decisions for st in states], 1)[:, 0]
        out["key"] = torch.zeros(n, dtype=torch.int64, device=self.device)
        out["draws"] = torch.zeros(n, dtype=torch.int64, device=self.device)
        return out

    def to_states(self, state: ArrayState) -> list[State]:
        game = self.game
        host = {name: value.cpu().tolist() for name, value in state.items()}
        config = game.config.model_dump(mode="json")
        out = []
        for i in range(len(host["pos"])):
            fields = {name: host[name][i] for name in SCALAR_ENTRIES}
            throw = host["last_throw"][i]
            fields.update(pos=host["pos"][i], score=host["score"][i], surplus=bool(host["surplus"][i]),
                          last_throw=None if throw[0] < 0 else throw, last_event="")
            seed = derived_seed(host["key"][i], host["draws"][i])
            out.append(game.state_from_dict({"game": game.name, "version": game.version, "config": config,
                                             "decisions": host["decisions"][i], "rng": Rng(seed).state_dict(),
                                             "state": fields}))
        return out

    def python_step(self, state: State, action: int) -> torch.Tensor:
        recorder = _RecordingRng(state.rng)
        state.rng = recorder
        try:
            state.apply(action)
        finally:
            state.rng = recorder.inner
        face = recorder.rolls[0] if recorder.rolls else 0
        return torch.tensor([face], dtype=torch.int64)


ArrayEngine = UltimadeArrayEngine

