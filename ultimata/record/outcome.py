"""How a recorded game ended, in the words the listings use and the fields the filters and ratings read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

PERSON = ("human", "you")
"""How a seat played by a person is named: 'human' on the web, 'you' in the terminal."""
UNFINISHED = {
    "left": "you left",
    "expired": "abandoned: idle too long",
    "quit": "you quit",
    "interrupted": "the program stopped",
    "cut": "stopped at the decision cap",
    "unfinished": "saved before its end",
}
"""Endings without a result, and what the listing says of each."""
ENDINGS = ("finished", "resigned", *UNFINISHED)


@dataclass(frozen=True)
class Told:
    opponent: str | None
    """The spec every bot seat played, 'mixed' when they differ, None with no bot."""
    outcome: str | None
    """The person's win, loss or draw; None where nothing is rated (no person, or no result)."""
    result: str
    """'won by player_1', 'draw', 'won by player_2 (player_0 resigned)', 'unfinished (you left)'."""
    winners: tuple[int, ...]


def person_seat(players: Sequence[str]) -> int | None:
    seats = [s for s, who in enumerate(players) if who in PERSON]
    return seats[0] if len(seats) == 1 else None


def opponent_of(players: Sequence[str], human: int | None) -> str | None:
    bots = {who for s, who in enumerate(players) if s != human}
    if not bots:
        return None
    return bots.pop() if len(bots) == 1 else "mixed"


def winners_of(returns: Sequence[float]) -> tuple[int, ...]:
    best = max(returns)
    return tuple(s for s, r in enumerate(returns) if r == best)


def describe(players: Sequence[str], human: int | None, ending: str, returns: Sequence[float] | None) -> Told:
    """`ending` is one of ENDINGS; `returns` the rules' result when they ended the game."""
    opponent = opponent_of(players, human)
    seats = len(players) or (len(returns) if returns else 0)
    if ending == "finished" and returns:
        winners = winners_of(returns)
        result = "draw" if len(winners) == len(returns) else f"won by {', '.join(f'player_{s}' for s in winners)}"
        outcome = None
        if human is not None:
            outcome = "loss" if human not in winners else "win" if len(winners) == 1 else "draw"
        return Told(opponent, outcome, result, winners)
    if ending == "resigned" and human is not None:
        winners = tuple(s for s in range(seats) if s != human)
        return Told(opponent, "loss", f"won by {', '.join(f'player_{s}' for s in winners)} "
                                      f"(player_{human} resigned)", winners)
    return Told(opponent, None, f"unfinished ({UNFINISHED.get(ending, ending)})", ())


def short_name(spec: str) -> str:
    """A bot's spec as a line of play shows it: a checkpoint by its run folder and file name, not its path."""
    if spec.endswith(".zip") and "/" in spec:
        parts = [p for p in spec.split("/") if p]
        return "/".join(parts[-2:])
    return spec
