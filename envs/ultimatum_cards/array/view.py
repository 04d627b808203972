"""What one seat sees, for a whole batch: `observation.encode` as tensor ops, bit for bit.

The Python encoder keeps a cached table and rotates it to the viewer. Here the counts (hands, chips,
discards, the table's memory) are copied into their slices, seat-relative by one gather of the seats in
the viewer's order, and every one-hot of the vector (dealer, phase, card, the history's plays, ...) is
one column index per row, all set by a single scatter: few, large tensor ops whatever the seat count."""

from __future__ import annotations

import torch

from ultimata.envs.ultimatum_cards.config import most_rounds
from ultimata.envs.ultimatum_cards.deck import DECK, NUM_KINDS
from ultimata.envs.ultimatum_cards.observation import _play_size
from ultimata.envs.ultimatum_cards.phases import HISTORY

State = dict[str, torch.Tensor]


class View:
    def __init__(self, game, device: torch.device) -> None:
        cfg = game.config
        self.n, self.unit, self.device = cfg.num_players, float(cfg.starting_chips), device
        self.at = game.obs_layout.start
        self.size = game.obs_layout.size
        self.play_size = _play_size(self.n)
        self.seats = torch.arange(self.n, device=device)
        self.slots = torch.arange(HISTORY, device=device)
        self.slot_base = self.at["history"] + self.slots * self.play_size
        self.proposal_base = self.at["proposals"] + self.seats * (self.n + 2)
        within = torch.tensor([0, 1, 1 + NUM_KINDS, 1 + NUM_KINDS + self.n, 1 + NUM_KINDS + 2 * self.n,
                               1 + NUM_KINDS + 3 * self.n], device=device)
        self.play_offsets = self.slot_base[:, None] + within  # [8, 6]: where each entry of a play's one-hots starts
        self.rounds = most_rounds(cfg)
        settings = [0.0] * 5
        settings[("quick", "match", "point").index(cfg.mode)] = 1.0
        settings[4] = cfg.target_score / (cfg.starting_chips * self.n) if cfg.mode == "point" else 0.0
        self.settings = torch.tensor(settings, dtype=torch.float32, device=device)

    def observe(self, s: State, viewer: torch.Tensor, mover: torch.Tensor) -> torch.Tensor:
        n, unit, at, f32 = self.n, self.unit, self.at, torch.float32
        b = viewer.shape[0]
        v = viewer
        rot = self.seats + v[:, None]
        rot = torch.where(rot >= n, rot - n, rot)  # relative r -> absolute seat
        obs = torch.zeros(b, self.size, dtype=f32, device=self.device)

        def put(name: str, values: torch.Tensor) -> None:
            start = at[name]
            obs[:, start:start + values.shape[1]] = values

        hands = s["hands"]
        rows = torch.arange(b, device=self.device)
        seat_rows = (rows[:, None] * n + rot).reshape(-1)  # each row's seats, in the viewer's order
        put("hand", hands.view(-1, NUM_KINDS).index_select(0, rows * n + v))
        put("chips", s["chips"].gather(1, rot).to(f32) / unit)
        put("hand_sizes", hands.sum(2).gather(1, rot))
        put("scores", s["scores"].gather(1, rot).to(f32) / unit)
        obs[:, at["pile"]] = s["pile_len"].to(f32) / len(DECK)
        put("discards", s["discards"])
        obs[:, at["rounds_played"]] = s["rounds_played"].to(f32)
        card = s["card"]
        pending = card >= 0
        obs[:, at["swap_hands"]] = (s["swap_hands"] * pending).to(f32)
        made = (self.seats < s["num_proposals"][:, None]) & pending[:, None]  # [B, n]
        proposals = s["proposals"]
        block = obs[:, at["proposals"]:at["proposals"] + n * (n + 2)].view(b, n, n + 2)
        block[:, :, n + 1] = proposals[:, :, 1].to(f32) / unit * made
        length = s["history_len"]
        index = (length[:, None] - 1 - self.slots).clamp(min=0)
        plays = s["history"].view(-1, 6).index_select(0, (rows[:, None] * HISTORY + index).reshape(-1))
        plays = plays.view(b, HISTORY, 6).to(torch.int64)  # newest first
        shown = self.slots < length[:, None]
        block = obs[:, at["history"]:at["history"] + HISTORY * self.play_size].view(b, HISTORY, self.play_size)
        block[:, :, -1] = plays[:, :, 5].to(f32) / unit * shown
        put("played", s["played"].view(-1, NUM_KINDS).index_select(0, seat_rows).view(b, -1))
        put("showed", s["showed"].view(-1, 2).index_select(0, seat_rows).view(b, -1))
        known_rows = ((rows * n + v)[:, None] * n + rot[:, 1:]).reshape(-1)  # what v knows of the others
        obs[:, at["known"] + NUM_KINDS:at["known"] + n * NUM_KINDS] = \
            s["known"].view(-1, NUM_KINDS).index_select(0, known_rows).view(b, -1)
        settings = at["settings"]
        obs[:, settings:settings + 5] = self.settings
        obs[:, settings + 3] = (self.rounds - s["rounds_played"]).to(f32) / self.rounds

        # every one-hot: a column per row, with a weight of 1 where it is set and 0 where it is not
        def rel(seat: torch.Tensor, ref: torch.Tensor) -> torch.Tensor:
            """(seat - ref) % n for seats -1..n-1 (a remainder costs more than a where)."""
            d = seat - ref
            return torch.where(d < 0, d + n, d)

        p1, p2, accepted = s["p1"], s["p2"], s["accepted"]
        cols = [at["dealer"] + rel(s["dealer"], v), at["actor"] + rel(s["actor"], v),
                at["to_move"] + rel(mover, v), at["phase"] + s["phase"], at["card"] + card.clamp(min=0),
                at["p1"] + rel(p1, v), at["p2"] + rel(p2, v), at["accepted"] + accepted.clamp(min=0)]
        sets = [torch.ones_like(pending), torch.ones_like(pending), mover >= 0, torch.ones_like(pending), pending,
                pending & (p1 >= 0), pending & (p2 >= 0), pending & (accepted >= 0)]
        one = torch.stack(cols, 1)
        weight = torch.stack(sets, 1)
        vv = v[:, None]
        # each remembered play: present, card, actor, p1, p2, outcome; one column per entry, in one pass
        seats = plays[:, :, 1:4] - v[:, None, None]
        seats = seats + (seats < 0) * n
        hist_cols = (torch.cat([torch.zeros_like(plays[:, :, :1]), plays[:, :, :1], seats, plays[:, :, 4:5]], 2)
                     + self.play_offsets).reshape(b, -1)
        hist_weight = (plays[:, :, :5] >= 0) & shown[:, :, None]  # the actor and outcome are never -1
        hist_weight = torch.cat([hist_weight[:, :, :1], hist_weight], 2).reshape(b, -1)
        prop_cols = torch.stack([self.proposal_base.expand(b, -1),
                                 self.proposal_base + 1 + rel(proposals[:, :, 0], vv)], 2).reshape(b, -1)
        prop_weight = made[:, :, None].expand(-1, -1, 2).reshape(b, -1)
        cols = torch.cat([one, hist_cols, prop_cols], 1)
        weight = torch.cat([weight, hist_weight, prop_weight], 1).to(f32)
        obs.scatter_add_(1, cols, weight)
        return obs
