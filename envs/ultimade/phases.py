"""Who decides what, and how players are called: shared by the rules, the text and the pictures."""

from __future__ import annotations

PLACE, PULL, SELECT, RUN, THROW, MONSTER, OVER = range(7)
PHASE_NAMES = (
    "place a player in the endzone",
    "pull",
    "pick a runner or end the step",
    "run",
    "throw",
    "roll the Monster-Defense die or not",
    "game over",
)
NUM_PHASES = len(PHASE_NAMES)
TEAMS = "AB"


def player_name(p: int) -> str:
    """Players 0..7: team t owns 4t..4t+3, printed A1..A4 and B1..B4."""
    return f"{TEAMS[p >> 2]}{(p & 3) + 1}"


PLAYER_NAMES = tuple(player_name(p) for p in range(8))
