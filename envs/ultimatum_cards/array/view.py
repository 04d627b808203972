"""What one seat sees, for a whole batch: `observation.encode` as tensor ops, bit for bit.

The Python encoder keeps a cached table and rotates it to the viewer; here each block is built for every
row at once, seat-relative by one gather of the seats in the viewer's order, and the blocks are joined in
the layout's order (`ObservationLayout`)."""

from __future__ import annotations

import torch

from ultimata.envs.ultimatum_cards.deck import DECK, NUM_KINDS
from ultimata.envs.ultimatum_cards.phases import HISTORY, OUTCOMES, PHASES

State = dict[str, torch.Tensor]


class View:
    def __init__(self, game, device: torch.device) -> None:
        cfg = game.config
        self.n, self.unit, self.device = cfg.num_players, float(cfg.starting_chips), device
        self.size = game.obs_layout.size
        self.seats = torch.arange(self.n, device=device)
        self.kinds = torch.arange(NUM_KINDS, device=device)
        self.phases = torch.arange(len(PHASES), device=device)
        self.outcomes = torch.arange(len(OUTCOMES), device=device)
        self.slots = torch.arange(HISTORY, device=device)
        rounds = {"quick": 1, "match": cfg.match_rounds, "point": cfg.max_rounds}[cfg.mode]
        self.rounds = rounds
        settings = [0.0] * 5
        settings[("quick", "match", "point").index(cfg.mode)] = 1.0
        settings[4] = cfg.target_score / (cfg.starting_chips * self.n) if cfg.mode == "point" else 0.0
        self.settings = torch.tensor(settings, dtype=torch.float32, device=device)

    def _rel(self, seat: torch.Tensor, viewer: torch.Tensor) -> torch.Tensor:
        """[B, n] one-hot of `seat` relative to `viewer` (all zero where seat < 0); any leading shape."""
        rel = (seat - viewer) % self.n
        return (rel[..., None] == self.seats) & (seat[..., None] >= 0)

    def observe(self, s: State, viewer: torch.Tensor, mover: torch.Tensor) -> torch.Tensor:
        n, unit, f32 = self.n, self.unit, torch.float32
        b = viewer.shape[0]
        rows = torch.arange(b, device=self.device)
        v = viewer
        rot = (self.seats + v[:, None]) % n  # relative r -> absolute seat
        card = s["card"]
        pending = card >= 0
        hands = s["hands"]
        parts = [
            hands[rows, v].to(f32),
            s["chips"].gather(1, rot).to(f32) / unit,
            hands.sum(2).gather(1, rot).to(f32),
            s["scores"].gather(1, rot).to(f32) / unit,
            self._rel(s["dealer"], v).to(f32),
            self._rel(s["actor"], v).to(f32),
            self._rel(mover, v).to(f32),
            s["pile_len"][:, None].to(f32) / len(DECK),
            s["discards"].to(f32),
            s["rounds_played"][:, None].to(f32),
            (s["phase"][:, None] == self.phases).to(f32),
            ((card[:, None] == self.kinds) & pending[:, None]).to(f32),
            (self._rel(s["p1"], v) & pending[:, None]).to(f32),
            (self._rel(s["p2"], v) & pending[:, None]).to(f32),
            (s["swap_hands"] * pending)[:, None].to(f32),
        ]
        present = (self.seats < s["num_proposals"][:, None]) & pending[:, None]  # [B, n]
        proposals = s["proposals"]
        proposal = torch.cat([torch.ones(b, n, 1, device=self.device),
                              self._rel(proposals[:, :, 0], v[:, None]).to(f32),
                              proposals[:, :, 1:].to(f32) / unit], dim=2)
        parts.append((proposal * present[:, :, None]).reshape(b, -1))
        parts.append((self._rel(s["accepted"], torch.zeros_like(v)) & pending[:, None]).to(f32))
        # history, newest first
        length = s["history_len"]
        index = (length[:, None] - 1 - self.slots).clamp(min=0)
        plays = s["history"].gather(1, index[:, :, None].expand(-1, -1, 6))  # [B, 8, 6]
        shown = (self.slots < length[:, None])[:, :, None]
        vv = v[:, None]
        play = torch.cat([
            torch.ones(b, HISTORY, 1, device=self.device),
            ((plays[:, :, 0, None] == self.kinds) & (plays[:, :, 0, None] >= 0)).to(f32),
            self._rel(plays[:, :, 1], vv).to(f32),
            self._rel(plays[:, :, 2], vv).to(f32),
            self._rel(plays[:, :, 3], vv).to(f32),
            (plays[:, :, 4, None] == self.outcomes).to(f32),
            plays[:, :, 5, None].to(f32) / unit,
        ], dim=2)
        parts.append((play * shown).reshape(b, -1))
        parts.append(s["played"].gather(1, rot[:, :, None].expand(-1, -1, NUM_KINDS)).to(f32).reshape(b, -1))
        parts.append(s["showed"].gather(1, rot[:, :, None].expand(-1, -1, 2)).to(f32).reshape(b, -1))
        known = s["known"][rows, v].gather(1, rot[:, :, None].expand(-1, -1, NUM_KINDS)).to(f32)
        known[:, 0] = 0
        parts.append(known.reshape(b, -1))
        rounds_left = (self.rounds - s["rounds_played"]).to(f32) / self.rounds
        settings = self.settings.expand(b, 5).clone()
        settings[:, 3] = rounds_left
        parts.append(settings)
        return torch.cat(parts, dim=1)
