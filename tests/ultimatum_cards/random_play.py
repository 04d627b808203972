"""Random play for the fuzz tests: the rule variants they cover, how many games (ULTIMATA_FUZZ_GAMES,
thousands on demand) and the invariants every decision must keep."""

from __future__ import annotations

import os

from ultimata.envs.ultimatum_cards.deck import DECK
from ultimata.envs.ultimatum_cards.phases import PLAY
from ultimata.envs.ultimatum_cards.state import UltimatumCardsState

VARIANTS = [
    {},
    {"num_players": 3},
    {"num_players": 5, "blockers": "any"},
    {"blockers": "any", "target_blocks_own_counter": False},
    {"num_players": 6, "give_to_self": True, "last_card_ends_round": True},
    {"mode": "match", "chips_carry_over": True},
    {"mode": "point", "target_score": 30, "num_players": 4},
]
GAMES = int(os.environ.get("ULTIMATA_FUZZ_GAMES", "400"))
"""Games per rule variant; the book's rules (the first variant) get five times as many."""


def games_for(config: dict) -> int:
    return GAMES if config else 5 * GAMES


def invariants(state: UltimatumCardsState) -> None:
    """Chips and cards are conserved, no seat is in debt, and a seat to play a card holds one."""
    assert sum(state.chips) == state.game.config.starting_chips * state.n and min(state.chips) >= 0
    assert sum(map(sum, state.hands)) + len(state.pile) + sum(state.discards) == len(DECK)
    assert all(sum(h) > 0 for h in state.hands) or state.phase != PLAY
