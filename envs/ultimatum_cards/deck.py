"""The book's 48-card deck. Card kinds are indices; the deck list is the book's card table."""

from __future__ import annotations

GIVE = tuple(range(0, 5))  # Give 1..5
TAKE = tuple(range(5, 10))  # Take 1..5
SWAP, STEAL, BLOCK, ULTIMATUM, COUNTER, DRAW, ROUND = range(10, 17)
NUM_KINDS = 17

NAMES: tuple[str, ...] = (
    *(f"Give {v}" for v in range(1, 6)),
    *(f"Take {v}" for v in range(1, 6)),
    "Swap",
    "Steal",
    "Block",
    "Ultimatum",
    "Counter",
    "Draw",
    "Round",
)

COPIES: tuple[int, ...] = (1,) * 5 + (1,) * 5 + (4, 4, 8, 8, 8, 4, 2)
"""How many of each kind the deck holds (the book: Give 5x1-5, Take 5x1-5, Swap 4, Steal 4, Block 8,
Ultimatum 8, Counter 8, Draw 4, Round 2)."""

DECK: tuple[int, ...] = tuple(kind for kind, n in enumerate(COPIES) for _ in range(n))
assert len(DECK) == 48


RULES: tuple[str, ...] = (
    *(f"Direct any other player to give {v} chip{'s' * (v > 1)} to a third player. Cannot be blocked."
      for v in range(1, 6)),
    *(f"Take {v} chip{'s' * (v > 1)} from any other player. Cannot be blocked." for v in range(1, 6)),
    "Swap chips, or all cards in hand, with any other player. May be blocked.",
    "Steal all chips of any other player. May be blocked.",
    "Block a Swap, Steal or Ultimatum aimed at you. Played alone, it is a discard.",
    "Offer another player (the responder) a split of a third player's (the target's) chips.",
    "During an Ultimatum, offer the responder a counter-proposal. Played alone, it is a discard.",
    "Make any player (yourself included) draw 2 cards.",
    "End the round at once.",
)
"""Each card's text, for tooltips and the legend (the book's card descriptions, shortened)."""


def value(kind: int) -> int:
    """Chips named on a Give or Take card."""
    return kind % 5 + 1


def kind_from_name(name: str) -> int:
    """'take 3' -> 7; used by tests and the terminal player."""
    key = name.strip().lower()
    for kind, label in enumerate(NAMES):
        if label.lower() == key:
            return kind
    raise ValueError(f"unknown card {name!r}; cards are: {', '.join(NAMES)}")
