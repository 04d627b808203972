"""What one seat sees, as a flat float32 vector. Seats are rotated so index 0 is always the viewer.

Hidden: other players' hands (only their sizes) and the draw pile's order (only its size).

Speed: most of the vector (the table's memory, 437 of 563 values at 4 players, and the counts of
cards, chips and discards) is copied from lists that change by one play at a time, while the table is
looked at after every decision. So each state keeps those blocks encoded as seat 0 sees them, with every
seat's hand after them (`_Table`), and copies of the lists they came from. A look re-encodes only what
differs (a seat's row, the newest plays), then one gather (`ObservationLayout.rotations`) turns the table
to the viewer and picks the viewer's hand. What the viewer knows of other hands and the decision at
hand (a few dozen one-hots) are written afresh.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

import numpy as np

from ultimata.envs.ultimatum_cards.config import most_rounds
from ultimata.envs.ultimatum_cards.deck import DECK, NUM_KINDS
from ultimata.envs.ultimatum_cards.phases import HISTORY, OUTCOMES, PHASES

if TYPE_CHECKING:
    from ultimata.envs.ultimatum_cards.game import UltimatumCardsGame
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
            "phase": len(PHASES),
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
        self.knows_nothing = [[0] * NUM_KINDS for _ in range(n)]
        """A seat's `known` when it knows no card in any hand (compared with, never changed)."""
        self.hands_at = self.size
        """`_Table` keeps every seat's hand after the vector, for the rotation to pick the viewer's."""
        self.table_size = self.size + n * NUM_KINDS
        self.rotations = [self._rotation(n, viewer) for viewer in range(n)]
        """Per viewer: the indices that turn a `_Table` (seat 0's order, all hands after it) into the
        viewer's seat-relative vector, with the viewer's own hand."""

    def _rotation(self, n: int, viewer: int) -> np.ndarray:
        index = np.arange(self.size)
        hand = self.hands_at + viewer * NUM_KINDS
        index[self.slices["hand"]] = range(hand, hand + NUM_KINDS)
        blocks = [(self.start[name], width) for name, width in
                  (("chips", 1), ("hand_sizes", 1), ("scores", 1), ("played", NUM_KINDS), ("showed", 2))]
        for slot in range(HISTORY):  # each remembered play's actor, p1 and p2
            seats = self.start["history"] + slot * _play_size(n) + 1 + NUM_KINDS
            blocks += [(seats + k * n, 1) for k in range(3)]
        for start, width in blocks:
            for r in range(n):
                seat = (r + viewer) % n
                index[start + r * width : start + (r + 1) * width] = range(start + seat * width,
                                                                          start + (seat + 1) * width)
        return index


def observation_bounds(game: UltimatumCardsGame) -> tuple[float, float]:
    """0 and the largest value any entry can take under the game's rule variant: a count of cards (at most the
    deck), rounds played, a score in starting chips (at most every chip in play, each round), or in Point
    Play the target score in chips in play; chips, shares and amounts moved are at most every chip in play."""
    cfg = game.config
    n = cfg.num_players
    rounds = most_rounds(cfg)
    target = cfg.target_score / (cfg.starting_chips * n) if cfg.mode == "point" else 0.0
    return 0.0, float(max(len(DECK), n * rounds, target))


def encode(state: UltimatumCardsState, viewer: int) -> np.ndarray:
    layout = state.game.obs_layout
    obs = _table_of(state).update(state).take(layout.rotations[viewer])
    n = state.n
    at = layout.start
    knows = state.known[viewer]
    if knows != layout.knows_nothing:  # usually: nothing is known until a Swap of hands
        known = at["known"]
        for p, row in enumerate(knows):
            if p != viewer:
                r = (p - viewer) % n
                obs[known + r * NUM_KINDS : known + (r + 1) * NUM_KINDS] = row
    obs[at["dealer"] + (state.dealer - viewer) % n] = 1
    obs[at["actor"] + (state.actor - viewer) % n] = 1
    mover = state.current_player
    if mover >= 0:
        obs[at["to_move"] + (mover - viewer) % n] = 1
    obs[at["pile"]] = len(state.pile) / len(DECK)
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
        unit = state.game.config.starting_chips
        for proposer, share in state.proposals:
            obs[base] = 1
            obs[base + 1 + (proposer - viewer) % n] = 1
            obs[base + 1 + n] = share / unit
            base += n + 2
        if state.accepted >= 0:
            obs[at["accepted"] + state.accepted] = 1
    return obs


_TABLES: weakref.WeakKeyDictionary[UltimatumCardsState, _Table] = weakref.WeakKeyDictionary()
"""Each live state's table. Weak keys: an entry goes with its state (an id() could be reused by a later
state), and a table checks the lists it copies anyway, so it is never out of date."""
MAX_STATES = 1024
"""Past this many live states (tree search, many envs) the tables start afresh: the cache stays bounded."""


def _table_of(state: UltimatumCardsState) -> _Table:
    table = _TABLES.get(state)
    if table is None:
        if len(_TABLES) >= MAX_STATES:
            _TABLES.clear()
        table = _TABLES[state] = _Table(state)
    return table


class _Table:
    """The blocks copied from the state's lists (the hands and their sizes, the discards, chips and
    scores, the memory but for what a seat knows), encoded as seat 0 sees them, with copies of those
    lists. `update` re-encodes what differs: a seat's row, the newest plays."""

    def __init__(self, state: UltimatumCardsState) -> None:
        layout = state.game.obs_layout
        self.n, self.unit, self.at = state.n, state.game.config.starting_chips, layout.start
        self.hands_at, self.play_size = layout.hands_at, _play_size(self.n)
        self.obs = np.zeros(layout.table_size, dtype=np.float32)
        """The blocks this table keeps (every other entry stays 0), then every seat's hand."""
        # Copies of the lists encoded in `obs`, starting from the all-zero lists its zeros encode.
        n = self.n
        self.hands = [[0] * NUM_KINDS for _ in range(n)]
        self.discards = [0] * NUM_KINDS
        self.chips, self.scores = [0] * n, [0] * n
        self.history: list[list[int]] = []
        self.played = [[0] * NUM_KINDS for _ in range(n)]
        self.showed = [[0, 0] for _ in range(n)]
        self.rounds_played = -1  # the settings are not 0: always written first

    def update(self, state: UltimatumCardsState) -> np.ndarray:
        """Bring the blocks up to date with `state`; returns them (read them, do not keep them)."""
        at = self.at
        if state.hands != self.hands:
            self._encode_hands(state.hands)
        if state.discards != self.discards:
            self.discards = self._write(at["discards"], state.discards)
        if state.chips != self.chips:
            self.chips = self._write_seats(at["chips"], state.chips, self.unit)
        if state.scores != self.scores:
            self.scores = self._write_seats(at["scores"], state.scores, self.unit)
        if state.history != self.history:
            self._encode_history(state.history)
        if state.played != self.played:
            self._encode_rows(at["played"], state.played, self.played, NUM_KINDS)
        if state.showed != self.showed:
            self._encode_rows(at["showed"], state.showed, self.showed, 2)
        if state.rounds_played != self.rounds_played:
            self._encode_settings(state)
        return self.obs

    def _write(self, start: int, values: list[int]) -> list[int]:
        """`values` at `start`; returns the copy to compare the next time with."""
        self.obs[start : start + len(values)] = values
        return values[:]

    def _write_seats(self, start: int, values: list[int], unit: int) -> list[int]:
        """One value per seat, in `unit`s; returns the copy to compare with."""
        obs = self.obs
        for p, value in enumerate(values):
            obs[start + p] = value / unit
        return values[:]

    def _encode_hands(self, hands: list[list[int]]) -> None:
        """Each changed hand, and its size."""
        sizes = self.at["hand_sizes"]
        for p, hand in enumerate(hands):
            if hand != self.hands[p]:
                self.hands[p] = self._write(self.hands_at + p * NUM_KINDS, hand)
                self.obs[sizes + p] = sum(hand)

    def _encode_rows(self, start: int, rows: list[list[int]], before: list[list[int]], width: int) -> None:
        """Seat `p`'s row at slot `p` where it differs from `before`, which gets the new copies."""
        for p, row in enumerate(rows):
            if row != before[p]:
                before[p] = self._write(start + p * width, row)

    def _encode_history(self, history: list[list[int]]) -> None:
        """The plays newest first. Plays only join at the end (the oldest leaving past HISTORY), so the
        plays still in the old encoding move back by the number of new ones, which alone are encoded."""
        size, base, old, obs = self.play_size, self.at["history"], self.history, self.obs
        new = len(history)
        kept = max(0, min(new - 1, len(old)))  # it differs: at least one play is new (or it shrank)
        while kept and history[:kept] != old[len(old) - kept :]:
            kept -= 1
        fresh = new - kept
        if kept and fresh:
            obs[base + fresh * size : base + new * size] = obs[base : base + kept * size]
        if new < HISTORY:
            obs[base + new * size : base + HISTORY * size] = 0
        for slot in range(fresh):
            self._encode_play(base + slot * size, history[new - 1 - slot])
        self.history = old[len(old) - kept :] + [play[:] for play in history[kept:]]

    def _encode_play(self, at: int, play: list[int]) -> None:
        n, obs = self.n, self.obs
        card, actor, p1, p2, outcome, moved = play
        obs[at : at + self.play_size] = 0
        obs[at] = 1
        if card >= 0:
            obs[at + 1 + card] = 1
        seats = at + 1 + NUM_KINDS
        for seat in (actor, p1, p2):
            if seat >= 0:
                obs[seats + seat] = 1
            seats += n
        obs[seats + outcome] = 1
        obs[at + self.play_size - 1] = moved / self.unit

    def _encode_settings(self, state: UltimatumCardsState) -> None:
        cfg, obs, settings = state.game.config, self.obs, self.at["settings"]
        obs[settings : settings + 5] = 0
        obs[settings + ("quick", "match", "point").index(cfg.mode)] = 1
        rounds = most_rounds(cfg)
        obs[settings + 3] = (rounds - state.rounds_played) / rounds
        obs[settings + 4] = cfg.target_score / (cfg.starting_chips * self.n) if cfg.mode == "point" else 0.0
        self.rounds_played = state.rounds_played
