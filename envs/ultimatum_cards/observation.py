"""What one seat sees, as a flat float32 vector. Seats are rotated so index 0 is always the viewer.

Hidden: other players' hands (only their sizes) and the draw pile's order (only its size).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ultimata.envs.ultimatum_cards.cards import DECK, NUM_KINDS
from ultimata.envs.ultimatum_cards.state import HISTORY, NUM_PHASES, OUTCOMES

if TYPE_CHECKING:
    from ultimata.envs.ultimatum_cards.state import UltimatumCardsState


def _play_size(n: int) -> int:
    return 1 + NUM_KINDS + 3 * n + len(OUTCOMES) + 1


class ObservationLayout:
    """Named slices of the vector; documented in docs/games/ultimatum_cards.md."""

    def __init__(self, n: int) -> None:
        sizes = {
            "hand": NUM_KINDS,  # my cards, count per kind
            "chips": n,  # chips per seat / starting chips
            "hand_sizes": n,
            "scores": n,  # scores of finished rounds / starting chips
            "dealer": n,
            "actor": n,  # whose turn of play it is
            "to_move": n,  # who decides now
            "pile": 1,  # cards left to draw / 48
            "discards": NUM_KINDS,  # played cards are public
            "rounds_played": 1,
            "phase": NUM_PHASES,
            "card": NUM_KINDS,  # the card being resolved
            "p1": n,  # giver / chosen player / responder
            "p2": n,  # receiver / ultimatum target
            "swap_hands": 1,
            "proposals": n * (n + 2),  # per slot: made, proposer seat, responder share / starting chips
            "accepted": n,
            # what a person at the table remembers (v1)
            "history": HISTORY * _play_size(n),  # newest first: present, card, actor, p1, p2, outcome, moved
            "played": n * NUM_KINDS,  # cards each seat played this round
            "showed": 2 * n,  # seat was asked to Block / Counter and has not played one since
            "known": n * NUM_KINDS,  # cards I know are in each hand (from a Swap of hands)
            "settings": 3 + 2,  # mode one-hot, rounds left / rounds in all, target score / chips in play
        }
        self.slices: dict[str, slice] = {}
        start = 0
        for name, size in sizes.items():
            self.slices[name] = slice(start, start + size)
            start += size
        self.size = start
        self.start = {name: s.start for name, s in self.slices.items()}


def encode(state: UltimatumCardsState, viewer: int) -> np.ndarray:
    n = state.n
    layout = state.game.obs_layout
    at, sl = layout.start, layout.slices
    unit = state.game.config.starting_chips
    obs = np.zeros(layout.size, dtype=np.float32)
    obs[sl["hand"]] = state.hands[viewer]
    chips_at, sizes_at, scores_at = at["chips"], at["hand_sizes"], at["scores"]
    for p in range(n):
        r = (p - viewer) % n
        obs[chips_at + r] = state.chips[p] / unit
        obs[sizes_at + r] = sum(state.hands[p])
        obs[scores_at + r] = state.scores[p] / unit
    obs[at["dealer"] + (state.dealer - viewer) % n] = 1
    obs[at["actor"] + (state.actor - viewer) % n] = 1
    mover = state.current_player
    if mover >= 0:
        obs[at["to_move"] + (mover - viewer) % n] = 1
    obs[at["pile"]] = len(state.pile) / len(DECK)
    obs[sl["discards"]] = state.discards
    obs[at["rounds_played"]] = state.rounds_played
    obs[at["phase"] + state.phase] = 1
    if state.card >= 0:
        obs[at["card"] + state.card] = 1
        if state.p1 >= 0:
            obs[at["p1"] + (state.p1 - viewer) % n] = 1
        if state.p2 >= 0:
            obs[at["p2"] + (state.p2 - viewer) % n] = 1
        obs[at["swap_hands"]] = state.swap_hands
        base = at["proposals"]
        for proposer, share in state.proposals:
            obs[base] = 1
            obs[base + 1 + (proposer - viewer) % n] = 1
            obs[base + 1 + n] = share / unit
            base += n + 2
        if state.accepted >= 0:
            obs[at["accepted"] + state.accepted] = 1
    _encode_memory(state, viewer, obs, at, unit)
    return obs


def _encode_memory(state: UltimatumCardsState, viewer: int, obs: np.ndarray, at: dict[str, int], unit: int) -> None:
    n, size = state.n, _play_size(state.n)
    base = at["history"]
    for card, actor, p1, p2, outcome, moved in reversed(state.history):
        obs[base] = 1
        if card >= 0:
            obs[base + 1 + card] = 1
        for slot, seat in enumerate((actor, p1, p2)):
            if seat >= 0:
                obs[base + 1 + NUM_KINDS + slot * n + (seat - viewer) % n] = 1
        obs[base + 1 + NUM_KINDS + 3 * n + outcome] = 1
        obs[base + size - 1] = moved / unit
        base += size
    for p in range(n):
        r = (p - viewer) % n
        obs[at["played"] + r * NUM_KINDS : at["played"] + (r + 1) * NUM_KINDS] = state.played[p]
        obs[at["showed"] + 2 * r : at["showed"] + 2 * r + 2] = state.showed[p]
        if p != viewer:
            obs[at["known"] + r * NUM_KINDS : at["known"] + (r + 1) * NUM_KINDS] = state.known[viewer][p]
    cfg = state.game.config
    settings = at["settings"]
    obs[settings + ("quick", "match", "point").index(cfg.mode)] = 1
    rounds = {"quick": 1, "match": cfg.match_rounds, "point": cfg.max_rounds}[cfg.mode]
    obs[settings + 3] = (rounds - state.rounds_played) / rounds
    obs[settings + 4] = cfg.target_score / (cfg.starting_chips * n) if cfg.mode == "point" else 0.0
