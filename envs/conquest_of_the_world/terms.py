"""The engine's vocabulary, shared by its modules: the stages of the game, how a country is held, the two
kinds of fight, and the book's rounding. The phases of a decision have their own home, phases.py."""

from __future__ import annotations

NONE, HOME, CONQUEST, ALLY = range(4)
KINDS = ("unoccupied", "homeland", "conquest", "ally")
PLAY, FINAL, LADDER = range(3)
STAGES = ("play", "final round", "end game")
WAR, DUEL = 0, 1


def round_to(amount: int, step: int) -> int:
    """Round to the nearest multiple of `step`, halves up (book: 1355 -> 1400; chips to the nearest 500)."""
    return (amount + step // 2) // step * step
