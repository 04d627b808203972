"""The flat action layout. Seats are offsets from the deciding player (0 = self, 1 = the next to the
left, ...), so a policy reads the same whatever seat it holds.

    [0, 17)            play card kind k (see deck.NAMES)
    [17, 17+n)         choose the player at seat offset k
    +0, +1             swap chips, swap hands
    [.., ..+A+1)       an amount 0..A (A = all chips in play): the responder's share of a split
    [.., ..+n)         accept proposal i (0 = the Ultimatum's, then counters in the order made)
    reject, block, pass
"""

from __future__ import annotations

from ultimata.envs.ultimatum_cards.deck import NUM_KINDS


class ActionLayout:
    """Offsets of each block of actions for `num_players` seats and amounts up to `max_amount`."""

    def __init__(self, num_players: int, max_amount: int) -> None:
        self.num_players = num_players
        self.max_amount = max_amount
        self.seat = NUM_KINDS
        self.swap_chips = self.seat + num_players
        self.swap_hands = self.swap_chips + 1
        self.amount = self.swap_hands + 1
        self.accept = self.amount + max_amount + 1
        self.reject = self.accept + num_players
        self.block = self.reject + 1
        self.pass_ = self.block + 1
        self.size = self.pass_ + 1
